"""Each game's hand-view selection is a typed model (``cogs.selection``): read from the select values, written and
read back compactly, refused — never cut — when its custom_id would pass Discord's 100 characters. The largest
selection each game really carries (seeded random games) fits with the largest table id and version."""
from __future__ import annotations

import random
from pathlib import Path
from typing import Any, Iterator

import pytest

from bot.errors import HostError, user_message
from bot.games import games
from bot.i18n import t
from cogs.controls import PickSelect
from cogs.custom_ids import MAX_ID
from cogs.games.diamondbox import PAGE, DiamondBoxSelection, value_of
from cogs.games.pileup import steps_of
from cogs.games.pileup_give import LETTERS, minus_cards, recipients
from cogs.games.pileup_selection import PileupSelection
from cogs.games.rocca import RoccaSelection, moves
from cogs.games.twinpyramid import TwinPyramidSelection
from cogs.selection import MAX_CUSTOM_ID, Picks, Selection, decode_carry, pick_custom_id, selection_model
from engines import get_engine
from engines.pileup import Play
from engines.pileup.view import GivePending

from .discord_helpers import START, assert_forged_clicks_refused, start_harness

MAX_VERSION = 2 ** 31 - 1
MODELS = {"akuma": Picks, "rocca": RoccaSelection, "pileup": PileupSelection, "twinpyramid": TwinPyramidSelection,
          "diamondbox": DiamondBoxSelection}
SAMPLES: list[Selection] = [
    Picks(), Picks(("S3", "H10", "X1")),
    TwinPyramidSelection(12), TwinPyramidSelection(None, "10H"), TwinPyramidSelection(3, "X2"),
    RoccaSelection("P-9D-a3-h", "S"), RoccaSelection(None, None, ("2H",)), RoccaSelection("B-b2-5H_5D"),
    PileupSelection(3, ("R1a+", "B2b-")), PileupSelection(None, (), (("a", "R3a"), ("b", "Y1b"), ("a", "K2c"))),
    DiamondBoxSelection("R04", "@R04_90_-3_2", 2), DiamondBoxSelection("G10"),
]


def test_each_game_declares_its_model() -> None:
    assert {game: selection_model(game) for game in games()} == MODELS


@pytest.mark.parametrize("selection", SAMPLES, ids=repr)
def test_a_selection_reads_back_what_it_writes(selection: Selection) -> None:
    kind = type(selection)
    assert kind.decode(selection.encode()) == selection
    assert kind.of(selection.values()) == selection
    assert " " not in selection.encode() and selection.encode().isascii()


@pytest.mark.parametrize(("kind", "text"), [
    (Picks, "S3..H4"), (Picks, "S3 H4"), (TwinPyramidSelection, "a01"), (TwinPyramidSelection, "a1.a2"),
    (TwinPyramidSelection, "x3"), (RoccaSelection, "P-9D-a3-h.P-2H-b1-f"), (RoccaSelection, "sS.P-9D-a3-h"),
    (PileupSelection, "v7"), (PileupSelection, "R1a+zz"), (PileupSelection, "aR3abY1baK2c"),
    (DiamondBoxSelection, "R04.R05"), (DiamondBoxSelection, "pg01"),
])
def test_text_a_model_does_not_write_is_refused(kind: type[Selection], text: str) -> None:
    with pytest.raises(ValueError):
        kind.decode(text)


def seeded_decisions(game: str, seeds: range) -> Iterator[tuple[Any, Any, str]]:
    """(engine, state, player) at every decision of random games at the most players."""
    engine = get_engine(game)
    for seed in seeds:
        state = engine.new_game([f"p{i}" for i in range(engine.max_players)], seed=seed)
        rng = random.Random(seed)
        for _ in range(600):
            if engine.result(state) is not None:
                break
            player = engine.to_act(state)[0]
            yield engine, state, player
            state, _ = engine.apply(state, player, rng.choice(engine.legal_actions(state, player)))


def carried(game: str, engine: Any, state: Any, player: str) -> list[Selection]:
    """The selections this decision's hand view can carry, each as large as it gets."""
    view, legal = engine.view(state, player), engine.legal_actions(state, player)
    hand = list(view.hand or [])
    if game == "akuma":
        return [Picks(tuple(hand))]  # every card chosen (a select carries the cards of the others)
    if game == "rocca":
        longest = max((m.value for m in moves(legal)), key=len, default=None)
        return [RoccaSelection(longest, "S", tuple(hand[:1]))]
    if game == "twinpyramid":
        return [TwinPyramidSelection(len(legal) - 1, max(hand, key=len, default=None))]
    if game == "diamondbox":
        found = engine.placements(state, player)
        longest = max((value_of(p) for p in found), key=len, default=None)
        return [DiamondBoxSelection(max(hand, key=len, default=None), longest, len(found) // PAGE)]
    plays = [steps_of(a) for a in legal if isinstance(a, Play)]
    out: list[Selection] = [PileupSelection(6, tuple(max(plays, key=len, default=[])))]
    if isinstance(view.pending, GivePending) and view.pending.player == player:
        plan, minus = recipients(view, view.pending), minus_cards(view, player)
        gives = [(LETTERS[slot], minus[i]) for i, slot in enumerate(j % len(plan) for j in range(len(minus)))]
        out.append(PileupSelection(gives=tuple(g for g in gives if g[0] != "a")))  # all but the select's own
    return out


@pytest.mark.parametrize("game", sorted(MODELS))
def test_the_largest_real_selection_fits_and_a_longer_one_is_refused(game: str) -> None:
    largest = max((s for decision in seeded_decisions(game, range(4)) for s in carried(game, *decision)),
                  key=lambda s: len(s.encode()))
    assert largest.values()  # something was chosen
    custom_id = pick_custom_id(MAX_ID, MAX_VERSION, 9, largest.encode())
    assert len(custom_id) <= MAX_CUSTOM_ID
    assert type(largest).decode(custom_id.split(":", 5)[5]) == largest
    select = PickSelect(MAX_ID, MAX_VERSION, None, None, 9, largest)
    assert select.item.custom_id == custom_id  # type: ignore[attr-defined]  # item is a Select
    fits = Picks(tuple(f"C{n:02}" for n in range(15)))  # 59 characters of carry after 41 of prefix: 100
    assert len(PickSelect(MAX_ID, MAX_VERSION, None, None, 9, fits).item.custom_id) == 100  # type: ignore[attr-defined]
    with pytest.raises(HostError) as refused:
        PickSelect(MAX_ID, MAX_VERSION, None, None, 9, Picks((*fits.cards, "C15")))  # one card more: 104
    assert refused.value.code == "selection_too_long" and refused.value.fields == {"length": 104, "limit": 100}
    assert user_message(refused.value, "ja") == t("error.selection_too_long", "ja", length=104, limit=100)


async def test_a_forged_carry_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    """A select whose custom_id carries what the game's model never writes gets the catalog's answer."""
    h = await start_harness(tmp_path / "bot.db")
    try:
        alice = h.user(101, "alice")
        r = await h.slash(alice, "play twinpyramid", bots=2)
        await h.click(alice, r.message, label=START)
        table = next(iter(h.bot.service._tables.values()))  # type: ignore[attr-defined]
        with pytest.raises(HostError):
            decode_carry("twinpyramid", "a1.a2")
        await assert_forged_clicks_refused(h, alice, table, {
            f"gh:pick:{table.id}:{table.version}:1:a1.a2": t("error.selection_unreadable", "en")})
    finally:
        await h.close()
