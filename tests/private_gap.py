"""A whole game at a private table (a group DM, or for comparison a server thread) with two people and bots, and
one gap of 20 minutes in which nobody presses, on one clock that drives the turn timers, the deadlines, the bot's
count of its interaction tokens and Discord's (``private_time``): nobody sleeps 20 real minutes.

The gap starts at one of three moments: ``MID_TURN`` (a person's turn, they do not press), ``BOTS_TURN`` (right after
a person's move, while the bots are to move) or ``AFTER_TIMEOUT`` (a person's time ran out first). With ``refuse``,
Discord refuses the token of the last press at that moment (``Faults.refuse_token``). While the clock moves, every
few seconds, the board a person looks at (the bottom one) is checked: a countdown it shows runs; after the gap it
says the table waits (unless no token was left to say anything with), and the next press brings the current board
once, with at most one ping. ``play`` returns what it cost and what people saw."""
from __future__ import annotations

import math
import random
import re
from dataclasses import dataclass, field
from enum import Enum
from typing import Awaitable, Callable

from bot.policies import choose_action
from bot.timers import WARN_BEFORE
from engines import get_engine

from .discord_harness import Harness
from .discord_helpers import IM_BACK as BACK
from .discord_helpers import JOIN, MY_HAND, RESUME, START, only_table, says
from .test_discord_paused import manual_time
from .test_paused_tables import ManualClock

COUNTDOWN = re.compile(r"<t:(\d+):R>")
GAP = 20 * 60.0
STEP = 5.0  # seconds the clock moves between two looks at the board

WAITS = ("table.waiting_for_press", "table.waits_for_press", "table.paused_board", "table.paused_board_private",
         "table.waiting_for_press_untimed", "table.waits_for_press_untimed")


class Moment(Enum):
    MID_TURN = "mid-turn"
    BOTS_TURN = "bot's turn"
    AFTER_TIMEOUT = "after a timeout"


@dataclass
class Seen:
    """What the game cost and what people saw."""

    turns: int = 0
    presses: int = 0
    public: int = 0  # public messages the game left (hand views aside)
    live_controls: int = 0  # public messages other than the current board and the result still showing buttons
    # (a message only a refused token could edit aside: ``frozen``)
    pings: int = 0
    refused: int = 0  # requests the strict edge refused
    most_followups: int = 0
    before_press: str = ""  # the bottom board at the end of the gap
    after_press: str = ""  # ... and once the next press brought it back
    new_after_press: int = 0  # public messages that press made (a catch-up: what happened while the table waited)
    boards_after_press: int = 0  # messages showing a live board once it was brought back (the current one: 1)
    pings_after_press: int = 0
    stale_countdowns: list[str] = field(default_factory=list)  # a board showing a countdown that did not run
    stale_seconds: dict[int, float] = field(default_factory=dict)  # ... per countdown shown: for how long
    unseen_clocks: list[str] = field(default_factory=list)  # a person's clock ran while the board did not tell them
    untrue_waits: list[str] = field(default_factory=list)  # the board said the table waits while a clock ran
    early_warnings: list[str] = field(default_factory=list)  # a time warning shown long before its time was due


def private_time(h: Harness, clock: ManualClock | None = None) -> ManualClock:
    """One manual clock for the turn timers, the deadlines, the bot's token lifetimes and Discord's (set before the
    first interaction; ``clock``: the one a restarted bot goes on with)."""
    fresh = manual_time(h)
    if clock is not None:
        fresh.now_value = clock.now_value
    clock = fresh
    h.bot.delivery.clock, h.bot.delivery.sleep = clock.now, clock.sleep
    h.server.faults.clock = clock.now
    h.ignore_task("PressWait.schedule")
    return clock


def pinged(body: dict) -> set[str]:
    allowed = {str(u) for u in (body.get("allowed_mentions") or {}).get("users") or []}
    return {u for u in re.findall(r"<@!?(\d+)>", body.get("content") or "") if u in allowed}


def new_pings(h: Harness, since: int) -> int:
    return sum(len(pinged(c.json)) for c in h.calls[since:] if c.method == "POST" and isinstance(c.json, dict))


def bottom(h: Harness, channel: int):
    public = [m for m in h.server.channel_messages(channel)]
    return public[-1] if public else None


def seen_board(h: Harness, channel: int):
    """The board people look at: the bottom message (in a server, the time warning below the board aside)."""
    public = h.server.channel_messages(channel)
    if len(public) > 1 and not public[-1].components and says(public[-1].text, "table.time_warning"):
        return public[-2]
    return public[-1] if public else None


def frozen(h: Harness) -> set[int]:
    """Messages only a token Discord refused could edit: the bot can no longer change what they show."""
    refused = [r for r in h.server.replies.values() if r.token in h.server.faults.refused_tokens]
    updated = [r.source_message_id for r in refused if r.type in ("deferred_update", "update")]  # updated in place
    return {i for r in refused for i in (*r.message_ids, r.original_id) if i is not None} | {*updated}


def running_clock(table, clock: ManualClock) -> int | None:
    """The countdown mark of the clock running now (None: no clock runs)."""
    deadline = table.row.deadline
    if table.status != "running" or table.clock_paused or deadline is None or deadline <= clock.now():
        return None
    return math.ceil(deadline)


def look(h: Harness, table, clock: ManualClock, seen: Seen, channel: int) -> None:
    """The board people see never shows a countdown that is not running; while a person's clock runs, it tells
    them so (their ping and that countdown: nobody is timed out unseen), and it never says the table waits."""
    message = seen_board(h, channel)
    if message is None:
        return
    running = running_clock(table, clock)
    if running is not None:
        for user in table.user_ids_to_act():
            if f"<t:{running}:R>" not in message.text or f"<@{user}>" not in message.text:
                seen.unseen_clocks.append(f"at {clock.now():.0f}: u{user}'s clock runs, the board: "
                                          f"{message.text[-200:]}")
        if said_it_waits(message.text):
            seen.untrue_waits.append(f"at {clock.now():.0f}: {message.text[-200:]}")
        if says(message.text, "table.time_warning") and table.row.deadline - clock.now() > WARN_BEFORE + STEP:
            seen.early_warnings.append(f"at {clock.now():.0f}, {table.row.deadline - clock.now():.0f} s left: "
                                       f"{message.text[-200:]}")
    for shown in COUNTDOWN.findall(message.text):
        if int(shown) <= clock.now():
            continue  # it ran out (Discord shows "… ago"): not a countdown any more
        deadline = table.row.deadline
        if table.clock_paused or deadline is None or math.ceil(deadline) != int(shown):
            seen.stale_countdowns.append(f"at {clock.now():.0f}: {message.text[-160:]}")
            seen.stale_seconds[int(shown)] = seen.stale_seconds.get(int(shown), 0.0) + STEP


async def move(h: Harness, clock: ManualClock, seconds: float, table, seen: Seen, channel: int) -> None:
    left = seconds
    while left > 0:
        clock.advance(min(STEP, left))
        left -= STEP
        await h.settle()
        look(h, table, clock, seen, channel)


async def press(h: Harness, user, table, channel: int) -> None:
    """My hand on the bottom board (Resume first, at a paused table; I'm back, where a bot plays their seat)."""
    if table.paused:
        board = h.message(table.row.board_message_id)
        if not any(RESUME.matches(c.get("label")) for c in board.components):  # not redrawn: no token was left
            await h.click(user, board, label=MY_HAND)
        await h.click(user, h.message(table.row.board_message_id), label=RESUME)
    board = h.message(table.row.board_message_id)
    seat = table.seat_of(f"u{user.id}")
    if any(BACK.matches(c.get("label")) for c in board.components) and seat is not None and seat.is_bot:
        await h.click(user, board, label=BACK)
        board = h.message(table.row.board_message_id)
    if table.status == "running":
        await h.click(user, board, label=MY_HAND)


Restart = Callable[[Harness], Awaitable[tuple[Harness, ManualClock]]]


async def play(h: Harness, clock: ManualClock, people: dict, channel: int, game: str, *, timer: int = 120,
               gap_at: int = 3, moment: Moment = Moment.MID_TURN, refuse: bool = False,
               restart: Restart | None = None, bots: int | None = None, options: dict | None = None) -> Seen:
    """The game (see the module's docstring); with ``restart``, the bot is killed and started again as the gap
    begins (``restart`` returns the new harness and its clock, which goes on from the old one's)."""
    alice, *others = list(people.values())
    engine = get_engine(game)
    people = dict(people)
    options = dict(({"deals": 1} if game == "twinpyramid" else {}) if options is None else options)
    if "start_player" in engine.options_model.model_fields:
        options["start"] = "host"
    bots = max(0, min(2, engine.max_players - len(people))) if bots is None else bots
    first = len(h.server.messages)
    r = await h.slash(alice, f"play {game}", channel=channel, bots=bots, timer=timer, **options)
    for other in others:
        await h.click(other, r.message, label=JOIN)
    await h.click(alice, r.message, label=START)
    table = only_table(h)
    where = table.row.channel_id
    seen, rng, gapped = Seen(presses=1 + len(others)), random.Random(11), False
    while table.status == "running":
        person = next((people[int(p[1:])] for p in table.to_act() if not table.is_bot(p)), None)
        if person is None:
            await move(h, clock, 1, table, seen, where)  # a paused table: its people come back below
            if table.paused:  # everyone was away: Alice comes back
                await press(h, alice, table, where)
                seen.presses += 1
            continue
        if seen.turns == gap_at and moment is not Moment.BOTS_TURN and not gapped:
            gapped = True
            if moment is Moment.AFTER_TIMEOUT and timer:
                version = table.version
                while table.version == version and table.status == "running":
                    await move(h, clock, STEP, table, seen, where)
            if restart is not None:
                seen.refused += len([c for c in h.calls if c.refused])
                h, clock = await restart(h)
                table = await h.bot.service.table(table.id)
                people = {u: h.user(u, p.name) for u, p in people.items()}
                alice = next(iter(people.values()))
                first = 0
            await gap(h, clock, table, seen, where, people, refuse=refuse)
            continue
        r = await h.click(person, h.message(table.row.board_message_id), label=MY_HAND)
        seen.presses += 1
        player = f"u{person.id}"
        if player in table.to_act() and not table.is_bot(player):
            with h._owning():
                await h.bot.service.act_as(table.id, player, choose_action(engine, table.state, player, rng),
                                           table.version)
        if seen.turns == gap_at and moment is Moment.BOTS_TURN:
            gapped = True
            await gap(h, clock, table, seen, where, people, refuse=refuse)
        await h.settle()
        seen.turns += 1
        assert seen.turns < 500
    ids = sorted(h.server.messages)[first:]
    public = [h.message(i) for i in ids if not h.server.messages[i]["flags"] & 64 and i not in h.server.deleted]
    seen.public = len(public)
    seen.live_controls = sum(1 for m in public if m.components and not says(m.text, "result.title")
                             and m.id not in frozen(h))
    seen.pings = new_pings(h, 0)
    seen.refused += len([c for c in h.calls if c.refused])
    seen.most_followups = max((reply.followups for reply in h.server.replies.values()), default=0)
    return seen


async def gap(h: Harness, clock: ManualClock, table, seen: Seen, channel: int, people: dict, *, refuse: bool,
              seconds: float = GAP) -> None:
    """Nobody presses for ``seconds`` (with ``refuse``, Discord refuses the last press's token first); then the
    person whose turn it is (or Alice) presses, and what each saw is kept."""
    box = h.bot.get_cog("TableCog").outbox(table.id)
    if refuse and box.carrier is not None:
        h.server.faults.refuse_token(box.carrier.interaction.token)
    await move(h, clock, seconds, table, seen, channel)
    seen.before_press = bottom(h, channel).text
    deciding = [people[u] for u in table.user_ids_to_act() if u in people]
    person = deciding[0] if deciding else next(iter(people.values()))
    messages, calls = len(h.server.channel_messages(channel)), len(h.calls)
    await press(h, person, table, channel)
    await h.settle()
    seen.presses += 1
    seen.after_press = bottom(h, channel).text
    look(h, table, clock, seen, channel)
    seen.new_after_press = len(h.server.channel_messages(channel)) - messages
    seen.boards_after_press = sum(1 for m in h.server.channel_messages(channel)
                                  if m.components and not says(m.text, "result.title") and m.id not in frozen(h))
    seen.pings_after_press = new_pings(h, calls)


def told_true(seen: Seen) -> bool:
    """Nobody's clock ran unseen, no board said the table waits while a clock ran, nor warned of a time that was
    not running out (a clock resumed with its full time)."""
    return seen.unseen_clocks == [] and seen.untrue_waits == [] and seen.early_warnings == []


def untold(seen: Seen) -> tuple[list[str], ...]:
    """What ``told_true`` found untrue (the first few of each)."""
    return seen.unseen_clocks[:3], seen.untrue_waits[:3], seen.early_warnings[:3]


def said_it_waits(text: str) -> bool:
    return any(says(text, key) for key in WAITS)


