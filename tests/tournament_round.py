"""A finished game placed in a tournament round another table still plays (for what waits for the round's end)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.storage.tournaments import TournamentStore
from bot.tournaments.models import TableStatus, Tournament, TournamentTable

from .discord_harness import Harness


@dataclass
class RunningRound:
    store: TournamentStore
    other: TournamentTable  # the round's table still playing

    async def finish(self) -> None:
        """The other table ends, and with it the round."""
        self.other.status = TableStatus.FINISHED
        await self.store.set_table(self.other)


async def in_running_round(h: Harness, game_id: int, player: int, stranger: int) -> RunningRound:
    """Game ``game_id`` (with ``player``) becomes table 1 of round 1 of a running Swiss, finished, while table 2
    (with ``stranger``) still plays."""
    store = h.bot.storage.tournaments
    tournament = Tournament(id=0, guild_id=h.guild_id, channel_id=h.channel_id, creator_id=player, game="akuma",
                            format="swiss", rounds=2, seats_min=3, seats_max=4, seed=1, status="running")
    tournament.id = await store.create(tournament)
    ours, other = TournamentTable(0, 1, 1, [player, 1, 2]), TournamentTable(0, 1, 2, [stranger, 3, 4])
    await store.open_round(tournament, 1, [ours, other])
    ours.status, ours.game_id = "finished", game_id
    await store.set_table(ours)
    return RunningRound(store, other)
