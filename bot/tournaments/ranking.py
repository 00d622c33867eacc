"""A table's ranking as an organiser types it for ``/tournament set-result``: places best first, separated by
``>`` (or ``,``), ties joined by ``=``; each player a mention (``<@id>``, ``<@!id>``), a seat number, or a name as
the standings show it (quoted when it holds a separator: ``"A > B"`` or 「A > B」). Full-width separators count too.

``parse`` reads the text into references (no knowledge of the table); ``resolve`` matches them to the table's
players, refusing an unknown or ambiguous name, a seat the table does not have, a player given twice or left out,
each with its own catalog message.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from enum import Enum

from bot import literal
from bot.errors import HostError

PLACE_SEPARATORS = ">,＞、"
TIE_SEPARATORS = "=＝"
QUOTES = {'"': '"', "「": "」", "“": "”"}
MENTION = re.compile(r"<@!?(\d{1,20})>")
SEAT_DIGITS = re.compile(r"\d{1,3}")


class RefKind(Enum):
    MENTION = "mention"
    SEAT = "seat"
    NAME = "name"


@dataclass(frozen=True)
class Ref:
    """One player as written: ``value`` is the user id (mention), the seat number or the name."""

    kind: RefKind
    value: int | str
    written: str


def _syntax(count: int) -> HostError:
    return HostError("tournament.bad_ranking", count=count)


def _read_name(text: str, start: int, count: int) -> tuple[Ref, int]:
    """A quoted name (the text between the quotes, as is) or a plain run up to the next separator, quote or
    mention; a plain run of digits is a seat number."""
    opening = text[start]
    if opening in QUOTES:
        end = text.find(QUOTES[opening], start + 1)
        if end < 0 or end == start + 1:
            raise _syntax(count)
        name = text[start + 1:end]
        return Ref(RefKind.NAME, name, text[start:end + 1]), end + 1
    end = start
    while end < len(text) and text[end] not in PLACE_SEPARATORS + TIE_SEPARATORS and text[end] not in QUOTES \
            and not MENTION.match(text, end):
        end += 1
    written = text[start:end].strip()
    plain = unicodedata.normalize("NFKC", written)
    if SEAT_DIGITS.fullmatch(plain):
        return Ref(RefKind.SEAT, int(plain), written), end
    return Ref(RefKind.NAME, written.removeprefix("@").strip(), written), end


def parse(text: str, count: int) -> list[list[Ref]]:
    """The places (each a list of tied references) of ``text``; ``count``: the table's size, for the message a
    text that is not a ranking gets (a separator with nothing on one side, an unclosed quote, two players with no
    separator between them)."""
    places: list[list[Ref]] = [[]]
    expect_player, i = True, 0
    while i < len(text):
        char = text[i]
        if char.isspace():
            i += 1
            continue
        if char in PLACE_SEPARATORS + TIE_SEPARATORS:
            if expect_player:
                raise _syntax(count)
            if char in PLACE_SEPARATORS:
                places.append([])
            expect_player, i = True, i + 1
            continue
        if not expect_player:
            raise _syntax(count)
        mention = MENTION.match(text, i)
        if mention:
            ref, i = Ref(RefKind.MENTION, int(mention[1]), mention[0]), mention.end()
        else:
            ref, i = _read_name(text, i, count)
        places[-1].append(ref)
        expect_player = False
    if expect_player:
        raise _syntax(count)
    return places


def folded(name: str) -> str:
    """A name compared as people type it: width, case and surrounding spaces do not matter."""
    return unicodedata.normalize("NFKC", name).casefold().strip()


def resolve(places: list[list[Ref]], players: list[int], names: dict[int, list[str]], table: int) -> list[list[int]]:
    """The ranking as entrant ids. ``players``: the table's entrants in seat order; ``names``: each one's names
    (the first as the standings show it; for a person also their current display names)."""
    ranking: list[list[int]] = []
    written: dict[int, str] = {}
    for place in places:
        group = []
        for ref in place:
            uid = _player(ref, players, names, table)
            if uid in written:
                raise HostError("tournament.ranking_twice", player=_shown(ref), table=table)
            written[uid] = ref.written
            group.append(uid)
        ranking.append(group)
    missing = [uid for uid in players if uid not in written]
    if missing:
        shown = [f"{players.index(uid) + 1}. {_who(uid, names)}" for uid in missing]  # listed in the reader's language
        raise HostError("tournament.ranking_missing", players=shown, count=len(players), table=table)
    return ranking


def _player(ref: Ref, players: list[int], names: dict[int, list[str]], table: int) -> int:
    if ref.kind is RefKind.MENTION:
        if ref.value not in players:
            raise HostError("tournament.ranking_unknown", player=ref.written, table=table)
        return int(ref.value)
    if ref.kind is RefKind.SEAT:
        if not 1 <= int(ref.value) <= len(players):
            raise HostError("tournament.ranking_no_seat", seat=ref.value, count=len(players), table=table)
        return players[int(ref.value) - 1]
    wanted = folded(str(ref.value))
    found = [uid for uid in players if any(folded(n) == wanted for n in names.get(uid, ()))]
    if not found:
        raise HostError("tournament.ranking_unknown", player=_shown(ref), table=table)
    if len(found) > 1:
        seats = [players.index(uid) + 1 for uid in found]  # listed in the reader's language
        raise HostError("tournament.ranking_ambiguous", player=_shown(ref), seats=seats, table=table)
    return found[0]


def _shown(ref: Ref) -> str:
    """A reference as the organiser wrote it, shown literally (a mention stays a mention)."""
    return ref.written if ref.kind is RefKind.MENTION else literal.markdown(ref.written)


def _who(uid: int, names: dict[int, list[str]]) -> str:
    """A player for a message: a person as a mention, a bot by its name."""
    if uid > 0:
        return f"<@{uid}>"
    return literal.markdown(names.get(uid, ["?"])[0])
