"""Statuses and bot levels are compared, and given, as members of their enums: never as strings (a misspelt
``e.status == "droped"`` type-checks, since a ``StrEnum`` is a ``str``, and is silently always false); the cogs
read the bot as a ``GameHostBot``; Discord's limits are named once; ``dict[str, Any]`` only goes down."""
from __future__ import annotations

import ast

import discord
import pytest

from cogs.common import as_host
from tests.shape_counts import (
    comment_sites,
    limit_literals,
    limit_sites,
    sites,
    str_to_any,
    string_comparisons,
    string_writes,
    untyped_bot,
)


def found(find, source: str) -> list[tuple[int, str]]:
    return list(find(ast.parse(source)))


@pytest.mark.parametrize("source", [
    'e.status == "droped"',
    'if "running" != table.status: pass',
    'ok = table.row.status in ("lobby", "running")',
    'ok = row["status"] not in {"finished"}',
    'QUICK = ("easy", "normal")\nok = seat.level in QUICK',
    'ok = tournament.bot_level is "strong"',
    'ok = a < b == t.end_reason == "idle"',
    'ok = table.status == ("running" if live else "lobby")',
    'key = {"running": "lobby.started", "finished": "lobby.over"}.get(table.status)',
    'MARKS = {"dropped": "x"}\nmark = MARKS[e.status]',
    'match table.status:\n    case "lobby" | "running":\n        pass',
])
def test_a_comparison_with_a_string_is_found(source: str) -> None:
    assert len(found(string_comparisons, source)) == 1


@pytest.mark.parametrize("source", [
    'table.committed(bumped=True, status="running")',
    'table.row.status = "finished"',
    'table.committed(status="finished" if over else table.status)',
    'ids = store.ids(statuses=("running",))',
    'seat.level = level or "normal"',
    'def add_bot(game_id, level="normal"): pass',
    'async def create(*, bot_level: str = "normal"): pass',
])
def test_a_status_given_as_a_string_is_found(source: str) -> None:
    assert len(found(string_writes, source)) == 1


@pytest.mark.parametrize("source", [
    "ok = table.status is GameStatus.RUNNING",
    "ok = e.status in (EntrantStatus.ENTERED, EntrantStatus.CHECKED_IN)",
    'ok = view.phase == "deal_over"',  # an engine's phase is a Literal: mypy's strict equality checks it
    "table.committed(bumped=True, status=GameStatus.RUNNING)",
    'logging.basicConfig(level="INFO".upper())',
    "key = {GameStatus.RUNNING: 'lobby.started'}.get(table.status)",
    'options = {"level": 1}.get(name)',
])
def test_members_and_other_strings_pass(source: str) -> None:
    assert found(string_comparisons, source) + found(string_writes, source) == []


def test_no_status_or_level_is_compared_with_a_string() -> None:
    assert sites(string_comparisons) == []


def test_no_status_or_level_is_given_as_a_string() -> None:
    assert sites(string_writes) == []


def test_the_cogs_read_the_bot_typed() -> None:
    """The bot's shared parts are read through ``as_host`` (a ``GameHostBot``), not through type ignores."""
    assert comment_sites(untyped_bot) == []


def test_a_client_that_is_no_game_host_is_refused() -> None:
    with pytest.raises(TypeError, match="GameHostBot"):
        as_host(discord.Client(intents=discord.Intents.none()))


def limits_in(source: str) -> list[tuple[int, str]]:
    return list(limit_literals(ast.parse(source), source.splitlines()))


@pytest.mark.parametrize("source", [
    "label = name[:100]",
    "parts = [hand[i:i + 25] for i in range(0, len(hand), 25)]",
    "too_long = len(custom_id) > 100",
    "EMBED_CHARS = 4096  # Discord's limit for an embed's description",
    "TOKEN_LIFETIME = 15 * 60.0",
    "shown = min(len(options), 25)",
])
def test_a_discord_limit_as_a_literal_is_found(source: str) -> None:
    assert limits_in(source)


@pytest.mark.parametrize("source", [
    "label = name[:OPTION_LABEL]",
    "number = next(n for n in range(1, 100) if n not in taken)",  # a bot's number, no limit of Discord's
    "CACHED = 4096  # frames kept",
    "head = lines[:3]",
])
def test_named_limits_and_other_numbers_pass(source: str) -> None:
    assert limits_in(source) == []


def test_discords_limits_are_named_once() -> None:
    """bot/discord_rules/limits.py names them; the checks of the test edge and the bot's own cuts read it."""
    assert limit_sites() == []


@pytest.mark.parametrize(("source", "count"), [
    ("def f(options: dict[str, Any]) -> None: pass", 1),
    ("Quick = Callable[[dict[str, Any]], dict[str, Any]]", 2),
    ("x = cast(typing.Dict[str, typing.Any], y)", 1),
    ("def f(m: Mapping[str, Any]) -> None: pass", 1),
    ('def f(m: "MutableMapping[str, Any] | None") -> None: pass', 1),
    ("def f(m: dict[str, JsonValue], n: dict[int, Any], o: Mapping[str, object]) -> None: pass", 0),
    ('note = "Any colour you like"', 0),
])
def test_a_mapping_of_strings_to_anything_is_found(source: str, count: int) -> None:
    assert len(found(str_to_any, source)) == count


# The count of ``dict[str, Any]`` (``python tests/shape_counts.py``) when this ceiling was last lowered. It only goes
# down: a new payload the code builds gets a typed shape (a pydantic model, a TypedDict), and what truly is any JSON
# is ``engines.json.Json``.
STR_TO_ANY_CEILING = 17


def test_dict_str_any_stays_under_its_ceiling() -> None:
    found_sites = sites(str_to_any)
    assert len(found_sites) <= STR_TO_ANY_CEILING, "\n".join(found_sites)
