"""A generic player for any registered game, through the Discord layer only (hand views, selects, buttons).

It knows no game: it asks the game's bot policy what it would like to do (the target action), then works the
hand view the way a person who knows their move would: it reads what each select option leads to (the controls
the hand view would show with that option chosen, drawn without a click, as a person reads the labels) and
chooses only the options on the way to a button that sends the target, then clicks that button (its
``custom_id`` names the action, ``cogs.controls.action_of``). A target no button sends (Twin Pyramid's "open the
rearrangement menu") is joined with the policy's next choice into the one button that does both, as a person
would press it. Only when no such way exists does it fall back to choosing select options whose values mention the
target's cards, then any enabled button that names a legal action, then untried options one by one. Every
select and click goes through the harness (a benchmark counts them). Used by the crash-safety child and others.
"""
from __future__ import annotations

import itertools
import random
import re
from dataclasses import dataclass, field
from typing import Any, Iterator

from bot.policies import choose_action
from cogs.controls import ActButton, PickSelect, action_of, button_actions, hand_content
from cogs.selection import selection_model
from engines import Action

from .discord_harness import Harness, HarnessUser, Reply, SentMessage

DO = re.compile(r"gh:do:(?P<gid>\d+):(?P<ver>\d+):(?P<code>\S+)")
PICK = re.compile(r"gh:pick:(?P<gid>\d+):(?P<ver>\d+):(?P<part>\d):(?P<carry>\S*)")


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


async def play_to_the_end(h: Harness, table: Any, people: Any, rng: random.Random, *,
                          moves: int | None = None) -> int:
    """The one way a test plays a game to its end through Discord: whoever of ``people`` (users, or a dict of them
    by id) is due moves through their hand view as a person would (``act``), the bots move themselves, until the
    game is over (or the people made ``moves`` moves); returns the people's moves."""
    by_id = {u.id: u for u in (people.values() if isinstance(people, dict) else people)}

    def due() -> list[HarnessUser]:
        return [by_id[u] for u in table.user_ids_to_act() if u in by_id] if table.status == "running" else []

    made = 0
    while table.status == "running" and (moves is None or made < moves):
        if not due():  # a bot thinks in its worker process
            await h.until(lambda: table.status != "running" or bool(due()))
            continue
        await act(h, due()[0], table, rng)
        await h.settle()
        made += 1
    return made


async def act(h: Harness, user: HarnessUser, table: Any, rng: random.Random, *, max_steps: int = 16) -> Acted:
    """Make one move for ``user`` (who must be due to act) through the hand view; returns what was clicked."""
    player = f"u{user.id}"
    target = Target.of(choose_action(table.engine, table.state, player, rng))
    hand = await open_hand(h, user, table)
    tried: set[tuple[str, str]] = set()
    for _ in range(max_steps):
        buttons = decoded_buttons([hand, *public_buttons(h, table)], table, player)
        exact = [b for b in buttons if target.sent_by(table, player, b[2])]
        legal = [b for b in buttons if b[2] is not None and table.engine.is_legal(table.state, player, b[2])]
        choice = exact[0] if exact else None
        way = None if choice is not None else way_to(table, player, current_selection(hand, table.row.game), target)
        if way and (way[0][0], ",".join(way[0][1])) not in tried:
            custom_id, values = way[0]
            tried.add((custom_id, ",".join(values)))
            await h.select(user, hand, re.escape(shown_select(hand, custom_id)), values)
            continue
        if choice is None and not target.extended:
            target.extend(table, player, rng)  # no button sends it: one that takes it and the next steps at once
            continue
        if choice is None:
            picked = await _choose_option(h, user, hand, target, tried, rng, explore=False)
            if picked:
                continue
            if legal:
                choice = rng.choice(legal)
            elif not await _choose_option(h, user, hand, target, tried, rng, explore=True):
                break
            else:
                continue
        message, button, action = choice
        m = DO.fullmatch(button["custom_id"])
        assert m is not None
        reply = await h.click(user, message, button["custom_id"])
        return Acted(table.id, int(m["ver"]), player, action.model_dump(mode="json"), reply)
    raise DriverStuck(f"no way to move for {player} at table {table.id}: {hand!r}")


@dataclass
class Target:
    """What the driver is after: the policy's action and, once ``extend`` ran (no button sends the action: it opens
    a sub-decision of the same player, like Twin Pyramid's ``rearrange``, or is one of several steps one button
    takes at once, like Pile up's gives after a triple), the states it and the policy's next choices of the same
    player lead to: a button whose action reaches one of them does the same, as a person would press it."""

    action: Action
    wanted: set[str]
    goals: list[Any] = field(default_factory=list)
    extended: bool = False
    order: list[str] = field(default_factory=list)  # the wanted leaves in the order the policy chose them

    @classmethod
    def of(cls, action: Action) -> "Target":
        order = list(dict.fromkeys(leaves(action.model_dump(mode="json"))))
        return cls(action, set(order), order=order)

    def rank(self, value: str) -> int:
        """Where a select value's card comes in the policy's choices (a person picks the cards in the order they
        mean to hand them out); values naming none of them last."""
        return min((i for i, leaf in enumerate(self.order) if leaf in tokens(value)), default=len(self.order))

    def sent_by(self, table: Any, player: str, action: Action | None) -> bool:
        if action is None or action == self.action:
            return action is not None
        if not self.goals:
            return False
        try:
            after, _ = table.engine.apply(table.state, player, action)
        except Exception:  # an action the engine refuses now is simply not the way
            return False
        return any(after == goal for goal in self.goals)

    def extend(self, table: Any, player: str, rng: random.Random, *, depth: int = 24) -> None:
        """Follow the policy from the action on while the same player is to act (at most ``depth`` steps)."""
        self.extended = True
        chooser = random.Random(rng.random())
        state, action = table.state, self.action
        for _ in range(depth):
            state, _ = table.engine.apply(state, player, action)
            self.goals.append(state)
            if player not in table.engine.to_act(state):
                break
            action = choose_action(table.engine, state, player, chooser)
            self.order += [leaf for leaf in leaves(action.model_dump(mode="json")) if leaf not in self.wanted]
            self.wanted |= set(self.order)


def shown_select(hand: SentMessage, custom_id: str) -> str:
    """The custom id of the hand view's select that ``custom_id`` (drawn by ``way_to`` from the selection read back)
    stands for: the one with the same table, version and part. What it carries may be in another order than in the
    drawing (the selection read back is ordered by select, the bot's by when each value was chosen)."""
    prefix = custom_id.rsplit(":", 1)[0] + ":"
    same = [c["custom_id"] for c in hand.components if c.get("type") == 3 and c.get("custom_id", "").startswith(prefix)]
    return same[0] if len(same) == 1 else custom_id


def current_selection(hand: SentMessage, game: str) -> list[str]:
    """What the hand view has chosen so far: each pick select's carried values (read with the game's selection
    model) and its chosen options."""
    out: list[str] = []
    for c in hand.components:
        m = PICK.fullmatch(c.get("custom_id") or "")
        if c.get("type") != 3 or not m:
            continue
        chosen = [o["value"] for o in c.get("options") or [] if o.get("default")]
        carried = selection_model(game).decode(m["carry"]).values()
        out += [v for v in [*carried, *chosen] if v not in out]
    return out


def way_to(table: Any, player: str, selection: list[str], target: Target,
           budget: int = 400) -> list[tuple[str, list[str]]] | None:
    """The select choices (custom id, values) that lead from ``selection`` to a hand view with an enabled button
    sending ``target``, found by drawing the hand view for each candidate choice (no click); None if none within
    ``budget`` drawings. Options naming the target's cards are tried first."""
    actions = button_actions(table, player)
    queue: list[tuple[list[str], list[tuple[str, list[str]]]]] = [(selection, [])]
    seen = {tuple(selection)}
    while queue and budget > 0:
        sel, path = queue.pop(0)
        budget -= 1
        _, view = hand_content(table, player, None, selection=sel)
        children = []
        for item in view.children:
            if isinstance(item, ActButton) and not item.item.disabled and path:  # type: ignore[attr-defined]  # a Button
                if target.sent_by(table, player, action_of(table, player, item.code, actions)):
                    return path
            if isinstance(item, PickSelect) and not item.item.disabled:  # type: ignore[attr-defined]  # a Select
                children += _choices(item, target)
        children.sort(key=lambda c: -len(set().union(*(tokens(v) for v in c[1])) & target.wanted))
        for custom_id, values, new in children:
            if tuple(new) not in seen:
                seen.add(tuple(new))
                queue.append((new, [*path, (custom_id, values)]))
    return None


def _choices(item: Any, target: Target) -> list[tuple[str, list[str], list[str]]]:
    """Each choice a person could make in this select: (custom id, values, the selection it leads to). A
    multi-select offers the options naming the target's cards, all of them or, when it takes fewer, each set of
    as many as it takes, chosen in one interaction in the order the policy chose the cards (where the order
    matters, as in Pile up's hand-out after a triple, only that order reaches the policy's state)."""
    menu = item.item
    options = [o.value for o in menu.options]
    chosen = [o.value for o in menu.options if o.default]
    if menu.max_values > 1:
        values = sorted((v for v in options if tokens(v) & target.wanted), key=target.rank)
        sets = [values] if len(values) <= menu.max_values else itertools.combinations(values, menu.max_values)
        candidates = [list(v) for v in itertools.islice(sets, 200) if v and list(v) != chosen]
    else:
        candidates = [[v] for v in options if [v] != chosen]
    carried = item.carry.values() if item.carry is not None else []
    return [(menu.custom_id, values, [*carried, *values]) for values in candidates]


async def _choose_option(h: Harness, user: HarnessUser, hand: SentMessage, target: Target,
                         tried: set[tuple[str, str]], rng: random.Random, *, explore: bool) -> bool:
    """Change one select of the hand: towards the target (values naming its cards), or any untried option. A
    multi-select gets, in one interaction, as many of the values naming the target's cards as it takes, in the
    order the policy chose the cards: when no search found the policy's exact way (a large hand-out has too many
    ways to split it), this still completes the choice with the policy's cards, as a person would. Exploring, a
    multi-select is filled with those cards and then offered ones at random (the policy's cards may not all be
    offered: a select lists at most 25 options)."""
    wanted = target.wanted
    selects = [c for c in hand.components if c.get("type") == 3 and not c.get("disabled")]
    rng.shuffle(selects)
    for menu in selects:
        options = menu.get("options") or []
        chosen = {o["value"] for o in options if o.get("default")}
        if menu.get("max_values", 1) > 1:
            named = sorted((o["value"] for o in options if tokens(o["value"]) & wanted), key=target.rank)
            if explore:
                others = [o["value"] for o in options if o["value"] not in named]
                rng.shuffle(others)
                named += others
            values = named[:menu["max_values"]]
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
