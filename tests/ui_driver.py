"""A generic player for any registered game, through the Discord layer only (hand views, selects, buttons).

It knows no game: it asks the game's bot policy what it would like to do (the target action), then works the
hand view the way a person would — choosing select options whose values mention the target's cards or places,
and clicking the enabled action button whose ``custom_id`` names the target (``cogs.controls.action_of``). When
no button gives exactly the target, any enabled button that names a legal action will do; when nothing is
enabled yet, it tries the offered select options one by one. Used by the crash-safety child and other tests.
"""
from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Any, Iterator

from bot.policies import choose_action
from cogs.controls import action_of
from engines import Action

from .discord_harness import Harness, HarnessUser, Reply, SentMessage

DO = re.compile(r"gh:do:(?P<gid>\d+):(?P<ver>\d+):(?P<code>\S+)")


def playable_games() -> list[str]:
    """Every registered game with a Discord module (``GAMEHOST_GAMES=a,b`` narrows the list, e.g. to leave out a
    game whose Discord table is still being built)."""
    import os
    from importlib.util import find_spec

    from engines import GAMES

    only = [g for g in os.environ.get("GAMEHOST_GAMES", "").split(",") if g]
    return [g for g in GAMES if find_spec(f"cogs.games.{g}") is not None and (not only or g in only)]


class DriverStuck(AssertionError):
    """The hand view offered no way to make any legal move."""


@dataclass
class Acted:
    """One action taken through a button: what the button decoded to, at which version, and Discord's reply."""

    game_id: int
    version: int
    player: str
    action: dict[str, Any]
    reply: Reply

    @property
    def applied(self) -> bool:
        """The bot answered the click by updating the hand (7) or deferring a public button (6): it committed."""
        return bool(self.reply.callbacks) and self.reply.callbacks[0]["type"] in (6, 7)


def leaves(obj: Any) -> Iterator[str]:
    if isinstance(obj, dict):
        for value in obj.values():
            yield from leaves(value)
    elif isinstance(obj, (list, tuple)):
        for value in obj:
            yield from leaves(value)
    elif obj is not None:
        yield str(obj)


def tokens(value: str) -> set[str]:
    parts = {p for p in re.split(r"[^0-9A-Za-z]+", value) if p}
    return parts | {value} | {re.sub(r"^[a-z]+", "", p) for p in parts if re.match(r"^[a-z]+[A-Z0-9]", p)}


def hand_entry(h: Harness, table: Any) -> SentMessage | None:
    """The board message if Discord still has it, else the newest public message with this table's My hand."""
    if table.row.board_message_id and table.row.board_message_id in h.server.messages:
        message = h.message(table.row.board_message_id)
        if not message.deleted and any(c.get("custom_id") == f"gh:hand:{table.id}" for c in message.components):
            return message
    for message in reversed(h.channel_messages(table.row.channel_id)):
        if any(c.get("custom_id") == f"gh:hand:{table.id}" for c in message.components):
            return message
    return None


def decoded_buttons(messages: list[SentMessage], table: Any, player: str) -> list[tuple[SentMessage, dict, Any]]:
    """Enabled action buttons of this table at its current version, with the action each one sends."""
    out = []
    for message in messages:
        for c in message.components:
            m = DO.fullmatch(c.get("custom_id") or "")
            if c.get("type") != 2 or c.get("disabled") or not m:
                continue
            if int(m["gid"]) != table.id or int(m["ver"]) != table.version:
                continue
            out.append((message, c, action_of(table, player, m["code"])))
    return out


def public_buttons(h: Harness, table: Any) -> list[SentMessage]:
    return [m for m in h.channel_messages(table.row.channel_id)[-3:]
            if any(DO.fullmatch(c.get("custom_id") or "") for c in m.components)]


async def open_hand(h: Harness, user: HarnessUser, table: Any) -> SentMessage:
    entry = hand_entry(h, table)
    if entry is None:  # the board message is gone (deleted, or the bot died before posting it): /game status
        status = await h.slash(user, "game status", channel=table.row.channel_id, table=table.id)
        entry = status.message
        if entry is None or not any(c.get("custom_id") == f"gh:hand:{table.id}" for c in entry.components):
            raise DriverStuck(f"table {table.id} has no message with a My hand button, nor does /game status")
    r = await h.click(user, entry, f"gh:hand:{table.id}")
    if not (r.ephemeral and r.message is not None):
        raise DriverStuck(f"My hand of table {table.id} did not answer with an ephemeral view: {r.text!r}")
    return r.message


async def act(h: Harness, user: HarnessUser, table: Any, rng: random.Random, *, max_steps: int = 16) -> Acted:
    """Make one move for ``user`` (who must be due to act) through the hand view; returns what was clicked."""
    player = f"u{user.id}"
    target: Action = choose_action(table.engine, table.state, player, rng)
    wanted = set(leaves(target.model_dump(mode="json")))
    hand = await open_hand(h, user, table)
    tried: set[tuple[str, str]] = set()
    for _ in range(max_steps):
        buttons = decoded_buttons([hand, *public_buttons(h, table)], table, player)
        exact = [b for b in buttons if b[2] == target]
        legal = [b for b in buttons if b[2] is not None and table.engine.is_legal(table.state, player, b[2])]
        choice = exact[0] if exact else None
        if choice is None:
            picked = await _choose_option(h, user, hand, wanted, tried, rng, explore=False)
            if picked:
                continue
            if legal:
                choice = rng.choice(legal)
            elif not await _choose_option(h, user, hand, wanted, tried, rng, explore=True):
                break
            else:
                continue
        message, button, action = choice
        m = DO.fullmatch(button["custom_id"])
        assert m is not None
        reply = await h.click(user, message, button["custom_id"])
        return Acted(table.id, int(m["ver"]), player, action.model_dump(mode="json"), reply)
    raise DriverStuck(f"no way to move for {player} at table {table.id}: {hand!r}")


async def _choose_option(h: Harness, user: HarnessUser, hand: SentMessage, wanted: set[str],
                         tried: set[tuple[str, str]], rng: random.Random, *, explore: bool) -> bool:
    """Change one select of the hand: towards the target (values naming its cards), or any untried option."""
    selects = [c for c in hand.components if c.get("type") == 3 and not c.get("disabled")]
    rng.shuffle(selects)
    for menu in selects:
        options = menu.get("options") or []
        chosen = {o["value"] for o in options if o.get("default")}
        if menu.get("max_values", 1) > 1 and not explore:
            values = sorted(o["value"] for o in options if o["value"] in wanted)
            if values and set(values) != chosen and (menu["custom_id"], ",".join(values)) not in tried:
                tried.add((menu["custom_id"], ",".join(values)))
                await h.select(user, hand, re.escape(menu["custom_id"]), values)
                return True
            continue
        fresh = [o["value"] for o in options
                 if o["value"] not in chosen and (menu["custom_id"], o["value"]) not in tried]
        if not explore:
            fresh = [v for v in fresh if tokens(v) & wanted]
            fresh.sort(key=lambda v: -len(tokens(v) & wanted))
        if fresh:
            value = fresh[0] if not explore else rng.choice(fresh)
            tried.add((menu["custom_id"], value))
            await h.select(user, hand, re.escape(menu["custom_id"]), [value])
            return True
    return False
