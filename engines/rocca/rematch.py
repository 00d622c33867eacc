"""Who starts a rematch of Rocca Card Tower: 「2回目からは、いちばん負けた人から」 — from the second game on, the
player who lost worst starts (docs/rules/rocca.md, Decision [D8]). Pure, so a later Rematch feature can use it."""
from __future__ import annotations


def rematch_start_player(players: list[str], previous_ranking: list[list[str]]) -> str:
    """The start player of the next game at the same table, given the previous game's ranking (places in order,
    players sharing a place together, as ``Result.ranking``).

    The worst player is the one in the last place. **Decision:** when several share the last place, the first of
    them in seat order starts. Players who were not in the previous game are ignored; if none of ``players`` was
    ranked, the first seat starts.
    """
    for place in reversed(previous_ranking):
        tied = [p for p in players if p in place]
        if tied:
            return tied[0]
    return players[0]
