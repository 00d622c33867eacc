"""Slash commands generated from a settings model, as ``/play`` is from the games' options models
(``cogs.play_command``): each field of a pydantic model becomes one option — an int's range from the field's
``ge``/``le``, a ``Literal`` or an enum as choices labelled by the catalog's ``app.choice.<value>``, ``X | None``
optional (left out = None), the default the field's. Descriptions come from the catalog
(``app.<command path>.<option>.description``; English is the source, ``bot.translator`` sends the others)."""
from __future__ import annotations

import enum
import inspect
import types
import typing
from typing import Any, Awaitable, Callable

import discord
from annotated_types import Ge, Le
from discord import app_commands
from pydantic import BaseModel
from pydantic.fields import FieldInfo
from pydantic_core import PydanticUndefined

from bot.i18n import catalog

Choices = list[app_commands.Choice]


def catalog_text(key: str) -> str:
    text = catalog("en").get(key)
    if not text:
        raise KeyError(f"the English catalog has no {key!r} for a generated command")
    return text


def _values(kind: Any) -> tuple[Any, ...] | None:
    """The values a ``Literal`` or an enum allows (None for any other type)."""
    if typing.get_origin(kind) is typing.Literal:
        return typing.get_args(kind)
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        return tuple(member.value for member in kind)
    return None


def _range(name: str, field: FieldInfo) -> Any:
    low = next((m.ge for m in field.metadata if isinstance(m, Ge)), None)
    high = next((m.le for m in field.metadata if isinstance(m, Le)), None)
    if low is None or high is None:
        raise TypeError(f"field {name!r} needs ge= and le= to become a slash-command option")
    return app_commands.Range[int, low, high]


def option(name: str, field: FieldInfo, choices: Choices | None = None) -> tuple[inspect.Parameter, Choices]:
    """One field as a keyword parameter of the command's callback, with its choices."""
    kind = field.annotation
    optional = typing.get_origin(kind) in (typing.Union, types.UnionType) and type(None) in typing.get_args(kind)
    inner = next(a for a in typing.get_args(kind) if a is not type(None)) if optional else kind
    default = inspect.Parameter.empty if field.default is PydanticUndefined else field.default
    if isinstance(default, enum.Enum):
        default = default.value
    values = _values(inner)
    if choices is not None or values is not None:
        annotation: Any = str
        choices = choices if choices is not None else [
            app_commands.Choice(name=catalog_text(f"app.choice.{v}"), value=v) for v in values or ()]
    elif inner is bool or inner is str:
        annotation, choices = inner, []
    elif inner is int:
        annotation, choices = _range(name, field), []
    else:
        raise TypeError(f"field {name!r} of type {kind!r} cannot become a slash-command option")
    if optional:
        annotation = annotation | None
    parameter = inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, annotation=annotation, default=default)
    return parameter, choices


def model_command(name: str, path: str, model: type[BaseModel], run: Callable[..., Awaitable[None]], *,
                  choices: dict[str, Choices] | None = None) -> app_commands.Command:
    """A command ``name`` (its catalog keys under ``app.<path>``, ``path`` dotted: ``config.limits``) with one
    option per field of ``model``;
    ``run(interaction, values)`` gets the options given, the defaults for those left out."""
    options = [option(field_name, field, (choices or {}).get(field_name))
               for field_name, field in model.model_fields.items()]

    async def callback(interaction: discord.Interaction, **values: Any) -> None:
        await run(interaction, values)

    first = inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction)
    callback.__signature__ = inspect.Signature([first, *(p for p, _ in options)])  # type: ignore[attr-defined]
    prefix = f"app.{path}"
    app_commands.describe(**{p.name: catalog_text(f"{prefix}.{p.name}.description") for p, _ in options})(callback)
    app_commands.choices(**{p.name: c for p, c in options if c})(callback)
    return app_commands.Command(name=name, description=catalog_text(f"{prefix}.description"), callback=callback)
