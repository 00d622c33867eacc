"""``/play <game>``, generated from the game's options model: nothing about a game's options is written here or in
its cog. Each field of ``engine.options_model`` becomes one option — its range from the field's ``ge``/``le``, its
default from the field's, its choices from a ``Literal`` type, a ``str`` or ``int | None`` field optional (left out =
the model's default) — between the options every game shares, declared once below: ``bots`` (0 to one less than the
game's most players), ``timer`` and ``level``; a model with ``start_player`` gets the shared ``start`` (random or the
host). Fields only a stored game or a tournament sets (``not_offered``) are left out.

Names and descriptions come from the catalogs (``app.play.<game>.<option>.description``; the English one is the
source, ``bot.translator`` sends the others as localisations). A game whose options need more than the model says
(Pile up's deck, read and checked before a lobby opens) declares ``lobby_options`` in its controls."""
from __future__ import annotations

import inspect
import typing
from typing import Any

import discord
from annotated_types import Ge, Le
from discord import app_commands
from pydantic.fields import FieldInfo

from bot.games import PluginError, controls_hooks, games
from bot.i18n import catalog
from engines import Json, get_engine

from .lobby import DEFAULT_TIMER, LEVEL_CHOICES, TimerOption, open_lobby

START_FIELD = "start_player"  # the options field the shared ``start`` option sets
START_CHOICES = [app_commands.Choice(name="random", value="random"), app_commands.Choice(name="host", value="host")]
SHARED_BEFORE = ("bots",)
SHARED_AFTER = ("timer", "level")


class PlayOption:
    """One option of a generated ``/play <game>``: its parameter name, annotation, default and choices."""

    def __init__(self, name: str, annotation: Any, default: Any, choices: list[app_commands.Choice] | None = None,
                 field: str | None = None) -> None:
        self.name, self.annotation, self.default, self.choices = name, annotation, default, choices or []
        self.field = field  # the options model's field it sets, None for bots/timer/level

    def parameter(self) -> inspect.Parameter:
        return inspect.Parameter(self.name, inspect.Parameter.KEYWORD_ONLY, annotation=self.annotation,
                                 default=self.default)


def field_option(game: str, name: str, field: FieldInfo) -> PlayOption:
    """The option presenting one field of the options model."""
    if name == START_FIELD:
        return PlayOption("start", str, "random", START_CHOICES, field=name)
    kind, default = field.annotation, field.default
    if typing.get_origin(kind) is typing.Literal:
        values = typing.get_args(kind)
        return PlayOption(name, str, default, [app_commands.Choice(name=str(v), value=v) for v in values], name)
    if kind is bool:
        return PlayOption(name, bool, default, field=name)
    if kind is int:
        return PlayOption(name, int_range(game, name, field), default, field=name)
    if kind == int | None:  # left out: the model's default (None)
        return PlayOption(name, int_range(game, name, field) | None, None, field=name)
    if kind is str:
        return PlayOption(name, str | None, None, field=name)  # left out: the model's default
    raise TypeError(f"{game}: options field {name!r} of type {kind!r} cannot become a /play option")


def int_range(game: str, name: str, field: FieldInfo) -> Any:
    low = next((m.ge for m in field.metadata if isinstance(m, Ge)), None)
    high = next((m.le for m in field.metadata if isinstance(m, Le)), None)
    if low is None or high is None:
        raise TypeError(f"{game}: options field {name!r} needs ge= and le= to become a /play option")
    return app_commands.Range[int, low, high]


def not_offered(model: type) -> frozenset[str]:
    """The options fields no table chooses: those only a stored game sets (``stored_only``) and those only a
    tournament sets (``tournament_only``: ``streams``, engines/streams.py)."""
    stored_only: frozenset[str] = getattr(model, "stored_only", frozenset())
    tournament_only: frozenset[str] = getattr(model, "tournament_only", frozenset())
    return stored_only | tournament_only


def play_options(game: str) -> list[PlayOption]:
    """Every option of ``/play <game>`` in the order Discord shows them."""
    engine = get_engine(game)
    shared = {"bots": PlayOption("bots", app_commands.Range[int, 0, engine.max_players - 1], 0),
              "timer": PlayOption("timer", TimerOption, DEFAULT_TIMER),
              "level": PlayOption("level", str, "normal", LEVEL_CHOICES)}
    fields = [field_option(game, name, field) for name, field in engine.options_model.model_fields.items()
              if name not in not_offered(engine.options_model)]
    return [shared[name] for name in SHARED_BEFORE] + fields + [shared[name] for name in SHARED_AFTER]


def catalog_text(game: str, key: str) -> str:
    text = catalog("en").get(key)
    if not text:
        raise PluginError(game, "catalog (en)", f"no {key!r} for /play {game}")
    return text


def table_options(game: str, options: list[PlayOption], values: Json) -> Json:
    """The table's options from what was chosen: only what differs from the model's default (``start``: the host
    is seat 0), passed through the game's ``lobby_options`` when it has one."""
    model_fields = get_engine(game).options_model.model_fields
    chosen: Json = {}
    for option in options:
        if option.field is None:
            continue
        value = values[option.name]
        if option.field == START_FIELD:
            value = 0 if value == "host" else None
        if value is not None and value != model_fields[option.field].default:
            chosen[option.field] = value
    convert = controls_hooks(game).lobby_options
    return convert(chosen) if convert is not None else chosen


def play_command(game: str) -> app_commands.Command:
    """``/play <game>`` built from its options model, the shared options and the catalog's descriptions."""
    options = play_options(game)

    async def play(interaction: discord.Interaction, **values: Any) -> None:
        await open_lobby(interaction, game, table_options(game, options, values), values["bots"], values["timer"],
                         values["level"])

    interaction = inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                    annotation=discord.Interaction)
    play.__signature__ = inspect.Signature([interaction, *(o.parameter() for o in options)])  # type: ignore[attr-defined]
    prefix = f"app.play.{game}"
    app_commands.describe(**{o.name: catalog_text(game, f"{prefix}.{o.name}.description") for o in options})(play)
    app_commands.choices(**{o.name: o.choices for o in options if o.choices})(play)
    return app_commands.Command(name=game, description=catalog_text(game, f"{prefix}.description"), callback=play)


def play_group() -> app_commands.Group:
    """``/play`` with one generated subcommand per registered game."""
    group = app_commands.Group(name="play", description=catalog("en")["app.play.description"])
    for game in games():
        group.add_command(play_command(game))
    return group
