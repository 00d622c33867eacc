"""The reveal at the end (issue 42, item 1): for every game, a seeded bot game played to its end reveals, for each
seat, as many cards as the final board counts for it — Akuma's "Cards in hand", Rocca's hand sizes, Pile up's ✋,
Diamond Box's "Cards left" (hand and own pile), Twin Pyramid's "hand n/10" (held and shown) — and never fewer
because the final view hides a hand the scoring counted."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import pytest

from bot.games import engine_hooks
from bot.i18n import t
from bot.replay_show import record_names
from bot.reveal import reveal_lines
from engines import GAMES

from .test_replay_hidden import finished_replay

# the counts each game's final board prints, read from the public view it is drawn from
BOARD_COUNTS: dict[str, Callable[[Any], dict[str, int]]] = {
    "akuma": lambda view: view.hand_sizes,
    "rocca": lambda view: view.hand_sizes,
    "pileup": lambda view: {seat.player: seat.hand_size for seat in view.seats},
    "diamondbox": lambda view: {p: view.hand_sizes[p] + view.pile_sizes[p] for p in view.players},
    "twinpyramid": lambda view: {seat.player: seat.hand_count for seat in view.table},
}


def test_every_game_says_what_counts_as_held() -> None:
    """Each of the five declares it in its plug-in (the engine's ``held_at_end``): none of their final views holds
    every card its board counts."""
    assert set(GAMES) == set(BOARD_COUNTS)
    assert all(engine_hooks(game).held_at_end is not None for game in GAMES)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", ["en", "ja"])
async def test_the_reveal_counts_what_the_final_board_counts(tmp_path: Path, game: str, lang: str) -> None:
    replay = await finished_replay(tmp_path, game, seed=7)
    final = replay.view(len(replay) - 1, None)
    assert final.over
    counts = BOARD_COUNTS[game](final)
    names = record_names(replay.record, lang)
    lines = reveal_lines(replay, lang, names)
    assert lines[0] == t("reveal.hands", lang)
    for line, seat in zip(lines[1:], replay.record.players, strict=False):
        empty = t("reveal.held", lang, player=names(seat.player), count=counts[seat.player], cards="").rstrip()
        assert line.startswith(empty) and line == line.rstrip(), (line, empty)
        shown = line.removeprefix(empty).split()
        assert (len(shown) if counts[seat.player] else shown) == (counts[seat.player] or ["—"]), line
    if game in ("akuma", "twinpyramid", "diamondbox", "rocca"):  # seed 7 leaves cards in some hand at the end
        assert any(counts.values())
