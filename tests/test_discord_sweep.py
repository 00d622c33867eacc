"""The sweep: every message of a seeded game of every kind, in both languages (lobby, rules, board with its
picture, event and turn lines, every acting seat's hand view at each decision point, /game status), validated as
Discord validates it (``bot.discord_rules``, the same check as the harness's edge and ``python -m bot check``)."""
from __future__ import annotations

import pytest

from bot.discord_rules.problems import error_lines
from bot.discord_sample import game_samples
from bot.i18n import LANGUAGES
from engines import GAMES

MAX_STEPS = 300  # long games: the first 300 decision points show every kind of message many times


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", GAMES)
async def test_every_message_of_a_seeded_game_is_accepted_by_discord(game: str, lang: str) -> None:
    samples = await game_samples(game, lang, max_steps=MAX_STEPS)
    kinds = {s.what.split(": ", 1)[1] for s in samples}
    assert {"lobby", "/rules", "board", "board edited", "hand view", "hand view with a selection", "event lines",
            "/game status"} <= kinds, kinds
    refused = [f"{s.what}\n  " + "\n  ".join(error_lines(s.errors())) for s in samples if s.errors()]
    assert not refused, f"{len(refused)} of {len(samples)} messages refused, e.g.:\n" + "\n".join(refused[:5])
