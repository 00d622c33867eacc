"""What an ``ActButton`` code names: the list an index counts in (``button_actions``), the action a code
``<seat>.<index>`` or ``<seat>.<letters>`` stands for at the table's current version (``action_of``), and whether a
move would be refused (``refusal``). No Discord here: the controls (``cogs.controls``) draw and read the codes."""
from __future__ import annotations

from typing import Any

from bot.errors import user_message
from bot.games import ControlsHooks, controls_hooks
from bot.table import Table
from engines import Action, EngineError

from .custom_ids import INDEX, SEAT, number


def refusal(table: Table, player: str, action: Any, locale: object | None) -> str | None:
    """Why the action would be refused, or None when it is legal (tried on the pure engine; nothing changes)."""
    try:
        table.engine.apply(table.state, player, action)
    except EngineError as error:
        return user_message(error, locale)
    return None


def game_module(game: str) -> ControlsHooks:
    """The game's declared controls (``bot.games``)."""
    return controls_hooks(game)


def button_actions(table: Table, player: str) -> list[Action]:
    """What an ``ActButton``'s index counts in: the player's legal actions now, then the game's one-click actions
    (``click_actions``, e.g. Twin Pyramid's rearrangement steps while its menu is closed). The same state always
    gives the same list, so a table version and an index name one action."""
    actions = table.engine.legal_actions(table.state, player)
    extra = game_module(table.row.game).click_actions
    return actions + extra(table, player, actions) if extra is not None else actions


def action_of(table: Table, player: str, code: str, actions: list[Action] | None = None) -> Action | None:
    """The action an ``ActButton`` code ``<seat>.<index>`` names for ``player`` at the table's current version: the
    ``index``-th of ``button_actions`` (or of ``actions``, when already known) when the code is for the player's own
    seat (None: no such action); a code ``<seat>.<letters…>`` names the action the game's ``code_action`` reads from
    it (checked by the engine like any other)."""
    seat = table.seat_of(player)
    owner, _, index = code.partition(".")
    if table.state is None or seat is None or number(owner, SEAT) != seat.seat:
        return None
    position = number(index, INDEX)
    if position is None:  # an action carried whole in the code (the game's ``code_action``)
        decode = game_module(table.row.game).code_action
        return decode(table, player, index) if decode is not None and index else None
    actions = button_actions(table, player) if actions is None else actions
    return actions[position] if position < len(actions) else None


def for_another_seat(table: Table, player: str, code: str) -> bool:
    """The code is an action of another seat (someone else's public **Roll**, or a forged click)."""
    owner = number(code.split(".", 1)[0], SEAT)
    seat = table.seat_of(player)
    return "." in code and owner is not None and seat is not None and owner != seat.seat
