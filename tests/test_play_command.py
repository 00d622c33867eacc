"""``/play <game>`` is generated from the game's options model: every option's range, default and choices are the
model's (read here from the model's JSON schema, not through the generator), the shared bots/timer/level are the
same everywhere, descriptions come from the catalogs, and no cog declares a /play option by hand."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from discord import AppCommandOptionType

from bot.games import games
from bot.i18n import LANGUAGES, catalog
from bot.policies import LEVELS
from cogs.lobby import DEFAULT_TIMER, MAX_TIMER
from cogs.play_command import play_command
from engines import get_engine

from .discord_harness import HarnessError
from .discord_helpers import LEAVE, lift_limits, start_harness

COGS = Path(__file__).resolve().parents[1] / "cogs"
SAMPLE_TEXT = {"deck": "R2B2G2Y2W1K1"}  # a str field's value for the lobby test (no schema gives one)


def schema_fields(game: str) -> dict[str, dict[str, Any]]:
    """The fields a table may choose: all but those only a stored game sets (``stored_only``) or only a
    tournament sets (``tournament_only``)."""
    model = get_engine(game).options_model
    left_out = getattr(model, "stored_only", frozenset()) | getattr(model, "tournament_only", frozenset())
    return {name: schema for name, schema in model.model_json_schema().get("properties", {}).items()
            if name not in left_out}


def test_a_stored_only_field_is_no_play_option() -> None:
    """Twin Pyramid's ``rules`` says which rules a stored game was dealt under: no table chooses it."""
    assert "rules" in get_engine("twinpyramid").options_model.model_fields
    assert "rules" not in [p.name for p in play_command("twinpyramid").parameters]


@pytest.mark.parametrize("game", ["akuma", "rocca", "pileup", "diamondbox", "twinpyramid"])
def test_the_tournament_variant_is_no_play_option(game: str) -> None:
    """``streams`` (per-seat streams, a same-deal tournament's variant): a casual table plays the original."""
    assert "streams" in get_engine(game).options_model.model_fields
    assert "streams" not in [p.name for p in play_command(game).parameters]


def optional_integer(schema: dict[str, Any]) -> dict[str, Any] | None:
    """The integer part of an ``int | None`` field's schema (``anyOf`` integer or null), else None."""
    parts = schema.get("anyOf", [])
    if sorted(p.get("type") for p in parts) != ["integer", "null"]:
        return None
    return next(p for p in parts if p["type"] == "integer")


def as_option(name: str) -> str:
    return "start" if name == "start_player" else name


@pytest.mark.parametrize("game", games())
def test_each_option_is_the_models_field(game: str) -> None:
    engine = get_engine(game)
    command = play_command(game)
    params = {p.name: p for p in command.parameters}
    fields = schema_fields(game)
    assert [p.name for p in command.parameters] == ["bots", *map(as_option, fields), "timer", "level"]
    for name, schema in fields.items():
        param = params[as_option(name)]
        assert not param.required
        if name == "start_player":
            assert [c.value for c in param.choices] == ["random", "host"] and param.default == "random"
        elif "enum" in schema:
            assert [c.value for c in param.choices] == schema["enum"] and param.default == schema["default"]
        elif (number := optional_integer(schema)) is not None:  # left out: the model's default, None
            assert param.type is AppCommandOptionType.integer and schema["default"] is None
            assert (param.min_value, param.max_value, param.default) == (number["minimum"], number["maximum"], None)
        elif schema["type"] == "integer":
            assert param.type is AppCommandOptionType.integer
            assert (param.min_value, param.max_value, param.default) == (
                schema["minimum"], schema["maximum"], schema["default"])
        elif schema["type"] == "boolean":
            assert param.type is AppCommandOptionType.boolean and param.default == schema["default"]
        else:
            assert param.type is AppCommandOptionType.string and param.default is None  # left out: the model's
    bots, timer, level = params["bots"], params["timer"], params["level"]
    assert (bots.min_value, bots.max_value, bots.default) == (0, engine.max_players - 1, 0)
    assert (timer.min_value, timer.max_value, timer.default) == (0, MAX_TIMER, DEFAULT_TIMER)
    assert [c.value for c in level.choices] == list(LEVELS) and level.default == "normal"
    key = f"app.play.{game}"
    assert command.description == catalog("en")[f"{key}.description"]
    for param in command.parameters:
        assert param.description == catalog("en")[f"{key}.{param.name}.description"]
        assert all(catalog(lang).get(f"{key}.{param.name}.description") for lang in LANGUAGES)


def test_no_cog_declares_a_play_option_by_hand() -> None:
    """The count of hand-copied /play parameters stays 0: no command, range, choice or description in a cog."""
    hand_made = re.compile(r"app_commands\.(command|Range|choices|describe|Choice)\b|TimerOption|LEVEL_CHOICES")
    found = [f"{path.name}:{n}" for path in sorted((COGS / "games").glob("*.py"))
             for n, line in enumerate(path.read_text().splitlines(), 1) if hand_made.search(line)]
    assert found == []


def changed(game: str) -> dict[str, Any]:
    """A value other than the default for every field of the options model (the options of /play, by name)."""
    out: dict[str, Any] = {}
    for name, schema in schema_fields(game).items():
        if name == "start_player":
            out["start"] = "host"
        elif "enum" in schema:
            out[name] = next(v for v in schema["enum"] if v != schema["default"])
        elif (number := optional_integer(schema)) is not None:
            out[name] = number["maximum"]
        elif schema["type"] == "integer":
            out[name] = schema["minimum"] if schema["default"] != schema["minimum"] else schema["maximum"]
        elif schema["type"] == "boolean":
            out[name] = not schema["default"]
        else:
            out[name] = SAMPLE_TEXT[name]
    return out


# Options a game takes one or the other of, never together (Twin Pyramid's length: in deals or in rounds).
ALTERNATIVES = {"twinpyramid": ("deals", "rounds")}


def option_sets(game: str) -> list[dict[str, Any]]:
    """``changed(game)``, once with each of the game's alternative options left out (once in all without any)."""
    every = changed(game)
    return [{k: v for k, v in every.items() if k != left_out} for left_out in ALTERNATIVES.get(game, (None,))]


async def test_play_opens_a_lobby_with_every_option_and_discord_refuses_out_of_range(tmp_path: Path) -> None:
    h = await start_harness(tmp_path / "bot.db")
    try:
        alice = h.user(101, "alice")
        await lift_limits(h)  # five lobbies in a minute
        for game in games():
            for chosen in option_sets(game):
                r = await h.slash(alice, f"play {game}", bots=1, level="easy", timer=30, **chosen)
                assert r.type == "deferred" and not r.ephemeral, (game, r.content)
                lobby = next(t for t in h.bot.service._tables.values()  # type: ignore[attr-defined]
                             if t.status == "lobby" and t.row.game == game)
                expected = {("start_player" if k == "start" else k): (0 if k == "start" else v)
                            for k, v in chosen.items()}
                assert lobby.row.options == expected
                assert lobby.row.turn_seconds == 30 and [s.level for s in lobby.seats if s.is_bot] == ["easy"]
                await h.click(alice, r.message, label=LEAVE)  # the host leaves: the lobby closes for the next one
            for name, schema in schema_fields(game).items():
                if schema.get("type") == "integer" and "maximum" in schema:
                    with pytest.raises(HarnessError):
                        await h.slash(alice, f"play {game}", **{name: schema["maximum"] + 1})
            with pytest.raises(HarnessError):
                await h.slash(alice, f"play {game}", bots=get_engine(game).max_players)
    finally:
        await h.close()
