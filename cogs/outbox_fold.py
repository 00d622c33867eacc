"""Event lines as a board message shows them: the steps of one bot's turn read as one line.

A bot moves in small steps (Pile up: its turn announced, a roll, a play, a draw), each its own update with its own
event lines, written to the board as they come so people can follow. Kept apart they fill the thread with bot
chatter; so each line remembers which bot's step it tells, and consecutive steps of the same bot are folded into one
line (``folded``) whenever a board message is composed. The lines are kept unfolded until then, so a step that
arrives after its turn's first steps were written joins their line at the next edit.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from bot.discord_rules.limits import MESSAGE_CONTENT

CONTENT_LIMIT = 1900  # characters of lines + turn line a board message may carry (Discord allows 2,000)
STEP_SEPARATOR = " · "  # each step keeps its own words and full stop: a step reads the same folded or not
SENTENCE_ENDS = ("。", "！", "？")


@dataclass(frozen=True)
class Line:
    """An event line; ``bot``: the bot seat whose step it tells (None: a person's move, a deal's end, a notice);
    ``action``: the number of the logged action that caused it (None: a notice, a seat change, a pause)."""

    text: str
    bot: str | None = None
    action: int | None = field(default=None, compare=False)

    @property
    def foldable(self) -> bool:
        return self.bot is not None and "\n" not in self.text  # a block (a deal's result) stays a block


def plain_lines(texts: Sequence[str]) -> list[Line]:
    """Lines that fold with nothing (notices, or lines read back from the stored record)."""
    return [Line(text) for text in texts]


def folded(lines: Sequence[Line]) -> list[str]:
    """The texts a message shows: each run of one bot's consecutive steps joined into one line."""
    texts: list[str] = []
    previous: Line | None = None
    for line in lines:
        if previous is not None and line.foldable and previous.foldable and line.bot == previous.bot:
            # a Japanese sentence closed by 。 runs on with none (no half-width space after it)
            texts[-1] += ("" if texts[-1].endswith(SENTENCE_ENDS) else STEP_SEPARATOR) + line.text
        else:
            texts.append(line.text)
        previous = line
    return texts


def fit(lines: Sequence[Line], after: Sequence[str], before: Sequence[Line] = ()) -> int:
    """How many of ``lines`` fit between ``before`` and ``after`` in one message, as folded (at least none)."""
    taken = 0
    while taken < len(lines) and len("\n".join([*folded([*before, *lines[:taken + 1]]), *after])) <= CONTENT_LIMIT:
        taken += 1
    return taken


def compose(lines: Sequence[Line], turn: Sequence[str]) -> str:
    """A board message's content: its lines, folded, then whose turn it is."""
    return "\n".join([*folded(lines), *turn])[:MESSAGE_CONTENT]
