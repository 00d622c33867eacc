"""The sweep: every message of a seeded game of every kind, in both languages (lobby, rules, board with its
picture, event and turn lines, every acting seat's hand view at each decision point, /game status), validated as
Discord validates it (``bot.discord_rules``, the same check as the harness's edge and ``python -m bot check``), and
read for guessed plurals. One seeded game per game and language: a second seed of the plural check (until issue 54)
found nothing the first did not, on the catalogs before or after the fix it was written for (3ef7e6d)."""
from __future__ import annotations

import re
from typing import Any, Iterator

import pytest

from bot.discord_rules.problems import error_lines
from bot.discord_sample import game_samples
from bot.i18n import LANGUAGES
from engines import GAMES

MAX_STEPS = 300  # long games: the first 300 decision points show every kind of message many times


PLURAL_NOUNS = ("cards|layers|steps|seconds|squares|stones|placements|places|games|wins|rounds|columns|checks"
                "|messages|servers|points|turns|players|seats|bots|minutes")
ONE_PLURAL = re.compile(rf"(?<![\d.,]){1} (?:more )?(?:minus )?(?:{PLURAL_NOUNS})\b")


def _texts(node: Any) -> Iterator[str]:
    """Every string a person reads in a request body (not ids, urls or custom ids)."""
    if isinstance(node, str):
        yield node
    elif isinstance(node, list):
        for item in node:
            yield from _texts(item)
    elif isinstance(node, dict):
        for key, value in node.items():
            if key not in ("custom_id", "url", "proxy_url", "nonce", "id", "value"):
                yield from _texts(value)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", GAMES)
async def test_every_message_of_a_seeded_game_is_accepted_by_discord_and_guesses_no_plural(game: str,
                                                                                           lang: str) -> None:
    """Accepted as Discord validates it; no "(s)" in any language and no "1 cards" in English (issue: words)."""
    samples = await game_samples(game, lang, max_steps=MAX_STEPS)
    kinds = {s.what.split(": ", 1)[1] for s in samples}
    assert {"lobby", "/rules", "board", "board edited", "hand view", "hand view with a selection", "event lines",
            "/game status"} <= kinds, kinds
    refused = [f"{s.what}\n  " + "\n  ".join(error_lines(s.errors())) for s in samples if s.errors()]
    assert not refused, f"{len(refused)} of {len(samples)} messages refused, e.g.:\n" + "\n".join(refused[:5])
    for sample in samples:
        for text in _texts(sample.body):
            assert "(s)" not in text, f"{sample.what} ({lang}): {text}"
            if lang == "en":
                assert not ONE_PLURAL.search(text), f"{sample.what}: {ONE_PLURAL.search(text)[0]!r} in {text}"
