"""How a board message composes its event lines (``cogs/outbox_fold.py``): a bot's consecutive steps as one line."""
from __future__ import annotations

from cogs.outbox_fold import CONTENT_LIMIT, Line, compose, fit, folded


def test_a_bots_consecutive_steps_fold_into_one_line_and_nothing_else_does() -> None:
    lines = [Line("alice plays 5."), Line("Bot 1's turn.", "bot1"), Line("Bot 1 rolls 3.", "bot1"),
             Line("Bot 2 plays 4.", "bot2"), Line("Deal 1 ends.\nScores: 3", "bot2"), Line("Bot 2 draws.", "bot2"),
             Line("Bot 2 passes.", "bot2"), Line("alice draws."), Line("alice passes.")]
    assert folded(lines) == ["alice plays 5.", "Bot 1's turn. · Bot 1 rolls 3.", "Bot 2 plays 4.",
                             "Deal 1 ends.\nScores: 3", "Bot 2 draws. · Bot 2 passes.", "alice draws.",
                             "alice passes."]
    assert compose(lines[1:3], ["▶ alice"]) == "Bot 1's turn. · Bot 1 rolls 3.\n▶ alice"


def test_fit_measures_the_folded_text() -> None:
    step = "x" * 600
    bot_steps = [Line(step, "bot1")] * 3  # folded: 3 × 600 + 2 × 3 characters, within the limit
    assert len(compose(bot_steps, [])) <= CONTENT_LIMIT
    assert fit(bot_steps, []) == 3
    assert fit([Line(step)] * 4, []) == 3  # a fourth line of 600 would not fit
    assert fit([Line(step, "bot1")], [], before=bot_steps) == 0  # the grown line would pass the limit
