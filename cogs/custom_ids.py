"""Strict reading of the numbers a client sends back (in a custom_id, a select value, a typed option).

A number is its canonical ASCII decimal: ``[0-9]`` without a leading zero, never ``\\d`` or ``str.isdigit()``
(they accept other scripts' digits such as ``٣``, and ``²``, which ``int()`` then refuses), and within a bound: an
id fits a BIGINT, versions, seats and indexes are small. Every control's template is built from these patterns, so
a custom_id outside them matches no control: it gets the "unknown control" answer in one place
(``GameHostBot.on_interaction``), and the ``int()`` of a ``from_custom_id`` cannot fail.
"""
from __future__ import annotations

import re

MAX_ID = 2 ** 63 - 1  # what a BIGINT column (table, tournament and Discord ids) holds


def at_most(limit: int) -> str:
    """A regex (one group, no captures) matching the canonical decimals of 0..``limit``: shorter numbers, then for
    each digit of ``limit`` the numbers that keep its prefix and have a smaller digit there, then ``limit`` itself."""
    digits = str(limit)
    shorter = [f"[1-9][0-9]{{0,{len(digits) - 2}}}"] if len(digits) > 1 else []
    same_length = []
    for i, digit in enumerate(digits):
        low, high = (1 if i == 0 else 0), int(digit) - 1
        if high >= low:
            same_length.append(f"{digits[:i]}[{low}-{high}][0-9]{{{len(digits) - i - 1}}}")
    return "(?:" + "|".join(["0", *shorter, *same_length, digits]) + ")"


ID = at_most(MAX_ID)  # a table or tournament (or a Discord id)
VERSION = at_most(2 ** 31 - 1)  # a table's version
SEAT = at_most(99)  # a seat number
ROUND = at_most(99)  # a tournament's round
INDEX = at_most(2 ** 31 - 1)  # an index into a list of actions (a Pile up hand of a big deck has thousands)
PART = "[0-9]"  # a hand select's part (a digit)
TEXT = "[!-~]"  # a character of a code or a carried select value: printable ASCII, no space


def number(text: str, pattern: str = ID) -> int | None:
    """``text`` as an int when it is a number ``pattern`` accepts (``ID``, ``SEAT``…), else None."""
    return int(text) if re.fullmatch(pattern, text) else None


def valid_id(value: int) -> bool:
    """A typed number (a slash command's option) that can name a table or a tournament."""
    return 0 < value <= MAX_ID
