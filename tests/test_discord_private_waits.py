"""A private table (a group DM) never stops silently and never buries the game (issue 52): two people and bots,
nobody pressing for 20 minutes at three moments, with the default timer and without, with the last press's token
refused by Discord; on one manual clock for the timers and both sides' tokens (``private_gap``). Beside it, the same
game in a server thread. Figures are printed with ``-s``."""
from __future__ import annotations

import math
import re
from pathlib import Path

import pytest

from engines import GAMES

from .discord_harness import Harness
from .discord_helpers import JOIN, MY_HAND, START, board_message, kill, only_table, says, start_harness
from .private_gap import Moment, Seen, move, play, press, private_time, said_it_waits, told_true, untold
from .suite_level import count
from .test_discord_output import kept_by_discord

ALICE_ID, BOB_ID, CAROL_ID = 101, 102, 103


async def group_game(h: Harness, game: str, *, three: bool = False, **plan) -> Seen:
    clock = private_time(h)
    people = {ALICE_ID: h.user(ALICE_ID, "alice"), BOB_ID: h.user(BOB_ID, "bob")}
    if three:
        people[CAROL_ID] = h.user(CAROL_ID, "carol")
    return await play(h, clock, people, h.group_dm(*people.values()), game, **plan)


async def started(h: Harness, game: str, bots: int, **options) -> tuple:
    """Alice and Bob at a game started in their group DM, Alice to play first: (alice, bob, group, table)."""
    alice, bob = h.user(ALICE_ID, "alice"), h.user(BOB_ID, "bob")
    group = h.group_dm(alice, bob)
    lobby = (await h.slash(alice, f"play {game}", channel=group, bots=bots, start="host", **options)).message
    await h.click(bob, lobby, label=JOIN)
    await h.click(alice, lobby, label=START)
    return alice, bob, group, only_table(h)


@pytest.mark.parametrize("moment", list(Moment))
@pytest.mark.parametrize("timer", [120, 0, 300, 600])
async def test_nobody_presses_for_20_minutes_and_the_table_says_it_waits(h: Harness, moment: Moment,
                                                                         timer: int) -> None:
    """Whatever the timer (long ones leave people not all away before the tokens end)."""
    seen = await group_game(h, "akuma", timer=timer, moment=moment)
    print(f"\nakuma timer {timer} {moment.value}: {seen}")
    assert seen.refused == 0 and seen.most_followups <= 5
    assert seen.stale_countdowns == []  # the board never showed a countdown that was not running
    assert told_true(seen), untold(seen)  # nobody's clock ran unseen
    assert said_it_waits(seen.before_press), seen.before_press  # "the table waits" was said ...
    paused = says(seen.before_press, "table.paused_board_private")  # (it says how it goes on: Resume, not My hand)
    assert not says(seen.before_press, "table.paused_board")  # (which names Manage Server: none outside a server)
    assert not (paused and says(seen.before_press, "table.waiting_for_press")), seen.before_press
    if timer == 0:  # no clock to stop: the notice says nothing of one
        assert any(says(seen.before_press, f"table.{key}_untimed") for key in ("waiting_for_press", "waits_for_press"))
    assert not said_it_waits(seen.after_press)  # ... and the next press brought the board back, once
    assert seen.boards_after_press <= 1 and seen.pings_after_press <= 1
    assert seen.live_controls == 0  # no old board shows a live-looking control


@pytest.mark.parametrize("moment", list(Moment))
async def test_a_refused_token_means_waiting_for_the_next_press(h: Harness, moment: Moment) -> None:
    seen = await group_game(h, "akuma", moment=moment, refuse=True)
    print(f"\nakuma refused token {moment.value}: {seen}")
    assert seen.refused == 0  # the token's first refusal is Discord's news; the bot never used it again
    # A board sent with the refused token can no longer be edited: a countdown it shows may outlive its decision,
    # but never by more than the time it gave (then it reads "… ago"); every other board only shows clocks that run.
    assert all(seconds <= 120 for seconds in seen.stale_seconds.values()), seen.stale_countdowns
    assert told_true(seen), untold(seen)  # nobody was timed out unseen
    assert not said_it_waits(seen.after_press) and seen.boards_after_press <= 1 and seen.pings_after_press <= 1


@pytest.mark.parametrize("game", ["rocca", "akuma"])
@pytest.mark.parametrize("moment", [Moment.MID_TURN, Moment.BOTS_TURN])
async def test_three_people_away_are_told_and_no_clock_runs_behind_a_waiting_board(h: Harness, game: str,
                                                                                    moment: Moment) -> None:
    """Three people take longer to be all away than the tokens live: the board says the table waits, and then no
    clock runs (nobody is timed out behind it)."""
    seen = await group_game(h, game, three=True, moment=moment)
    print(f"\n{game} three people {moment.value}: {seen}")
    assert seen.refused == 0 and seen.stale_countdowns == [] and said_it_waits(seen.before_press)
    assert told_true(seen), untold(seen)
    assert not said_it_waits(seen.after_press) and seen.boards_after_press <= 1


@pytest.mark.parametrize("game", GAMES)
async def test_the_same_game_in_a_thread_for_comparison(h: Harness, tmp_path: Path, game: str) -> None:
    """Messages per person-turn in the group DM within 1.5x the same game, gap and all, in a server's thread."""
    private = await group_game(h, game)
    thread = await start_harness(tmp_path / "thread.db", tables=None)
    try:
        clock = private_time(thread)
        people = {ALICE_ID: thread.user(ALICE_ID, "alice"), BOB_ID: thread.user(BOB_ID, "bob")}
        server = await play(thread, clock, people, thread.channel_id, game)
    finally:
        await thread.close()
    per_turn = private.public / max(1, private.turns), server.public / max(1, server.turns)
    print(f"\n{game}: group DM {private.public} messages, {private.live_controls} live controls, {private.turns} "
          f"turns; thread {server.public} messages, {server.live_controls} live controls, {server.turns} turns")
    assert per_turn[0] <= 1.5 * per_turn[1], per_turn
    assert private.live_controls == 0 and server.refused == 0


PLANS = [(timer, moment, refuse) for refuse in (False, True) for timer in (120, 0) for moment in Moment]
PLANS.insert(1, PLANS.pop(4))  # the first two (all by default): the default timer and timer:0, both mid-turn


@pytest.mark.parametrize("game", GAMES)
async def test_every_game_at_every_moment_with_and_without_a_timer_and_a_refused_token(tmp_path: Path,
                                                                                      game: str) -> None:
    """The issue's whole matrix per game (its first plans by default, all twelve with ``GAMEHOST_FULL=1``): the
    default timer and ``timer:0``, a gap at each of three moments, the last press's token refused or not."""
    for n, (timer, moment, refuse) in enumerate(PLANS[:count(2, len(PLANS))]):
        h = await start_harness(tmp_path / f"{n}.db")
        try:
            seen = await group_game(h, game, timer=timer, moment=moment, refuse=refuse)
        finally:
            await h.close()
        print(f"\n{game} timer {timer} {moment.value}{' refused' if refuse else ''}: refused {seen.refused}, most "
              f"followups {seen.most_followups}, public {seen.public}, live controls {seen.live_controls}, turns "
              f"{seen.turns}, after the gap {seen.new_after_press} new message(s), {seen.boards_after_press} live "
              f"board(s) and {seen.pings_after_press} ping(s)\n  before: {seen.before_press.splitlines()[-12:]}"
              f"\n  after: {seen.after_press.splitlines()[:4]}")
        assert seen.refused == 0 and seen.most_followups <= 5 and seen.live_controls == 0
        assert told_true(seen), untold(seen)
        assert seen.boards_after_press <= 1 and seen.pings_after_press <= 1 and not said_it_waits(seen.after_press)
        if refuse:
            assert all(seconds <= timer for seconds in seen.stale_seconds.values()), seen.stale_countdowns
        else:
            assert seen.stale_countdowns == [] and said_it_waits(seen.before_press), seen.before_press


@pytest.mark.parametrize("gap_at", [1, 3])
async def test_a_restart_as_nobody_presses_loses_nothing_and_one_press_brings_the_board(tmp_path: Path,
                                                                                       gap_at: int) -> None:
    """The bot is killed as the gap begins (after ``gap_at`` person-turns) and started again (Discord keeps what
    it showed; the bot has no live token): nothing is refused, the person the board told may run out of time as
    it shows, but the clock stops for the next one (nobody is timed out unseen), and the first press brings the
    board back."""
    db = tmp_path / "bot.db"
    h = await start_harness(db)
    live: list[Harness] = [h]

    async def restart(old: Harness) -> tuple[Harness, object]:
        await kill(old)
        new = await start_harness(db, discord_has=kept_by_discord(old))
        new.server.token_only |= old.server.token_only
        clock = private_time(new, old_clock)
        await new.bot.timers.resume()  # the turn timers again, on the test's clock
        await new.settle()
        live.append(new)
        return new, clock

    try:
        old_clock = private_time(h)
        people = {ALICE_ID: h.user(ALICE_ID, "alice"), BOB_ID: h.user(BOB_ID, "bob")}
        seen = await play(h, old_clock, people, h.group_dm(*people.values()), "akuma", restart=restart,
                          gap_at=gap_at)
        print(f"\nakuma restart: {seen}")
        assert seen.refused == 0 and seen.live_controls == 0 and seen.boards_after_press <= 1
        assert told_true(seen), untold(seen)
        assert not said_it_waits(seen.after_press) and seen.pings_after_press <= 1
        table = await live[-1].bot.service.table(1)
        assert table.status == "finished"
    finally:
        await live[-1].close()


async def test_when_the_last_live_press_used_its_messages_the_board_says_the_table_waits(h: Harness) -> None:
    """Only one press's token lives (the others ended) and nobody presses: its followups go on the boards of the
    turns that begin, and when only the one kept back is left, the board says the table waits, names whose turn it
    is without a clock, and the clock stops. The next press brings the board back (edited by that live token, or
    posted once), the clock running again."""
    clock = private_time(h)
    alice, bob, group, table = await started(h, "akuma", bots=2)
    box = h.bot.get_cog("TableCog").outbox(table.id)
    while table.to_act() != ["u101"]:
        await h.settle()
    await h.click(alice, board_message(h, table), label=MY_HAND)
    last = box.carrier
    for carrier in box.tokens.carriers:  # every other press is older than 15 minutes
        if carrier is not last:
            carrier.since -= 16 * 60
            h.server.replies[carrier.interaction.token].created -= 16 * 60
    seen = Seen()
    while last.followups < 4 and table.status == "running":  # nobody presses: turns run out
        await move(h, clock, 5, table, seen, group)
    await move(h, clock, 5 * 60, table, seen, group)
    board = board_message(h, table)
    assert seen.stale_countdowns == [] and last.followups == 4  # the fifth kept back, unused
    assert told_true(seen), untold(seen)
    assert table.clock_paused and table.row.deadline is None
    if not table.paused:
        assert says(board.text, "table.waits_for_press"), board.text
        assert "<t:" not in board.text  # whose turn it is, without a clock
    people = {ALICE_ID: alice, BOB_ID: bob}
    deciding = [people[u] for u in table.user_ids_to_act()]
    messages = len(h.server.channel_messages(group))
    await h.click(deciding[0] if deciding else alice, board, label=MY_HAND)
    now = board_message(h, table)
    assert not says(now.text, "table.waits_for_press") and table.row.deadline is not None  # it goes on
    assert len(h.server.channel_messages(group)) <= messages + 1 and not [c for c in h.calls if c.refused]


@pytest.mark.parametrize("code", [10015, 50027])
async def test_a_refused_followup_carrying_the_next_board_goes_out_with_another_press(h: Harness, code: int) -> None:
    """Alice's move press is answered, and Discord refuses the followup that carries the next board (its token):
    the move is kept, and the board goes out with another live press, Bob pinged on it, his clock running as it
    shows. (Before, the table waited silently: the board showed no turn, and Bob was never told.)"""
    private_time(h)
    alice, _bob, group, table = await started(h, "rocca", bots=1)
    hand = (await h.click(alice, board_message(h, table), label=MY_HAND)).messages[-1]
    version = table.version
    move = next(c["custom_id"] for c in hand.components
                if (c.get("custom_id") or "").startswith("gh:do:") and not c.get("disabled"))
    refusal = h.server.faults.fail("POST", r"/webhooks/\d+/[^/]+", status=404 if code == 10015 else 401, code=code)
    await h.click(alice, hand, re.escape(move))
    await h.settle()
    board = board_message(h, table)
    assert table.version > version and table.user_ids_to_act() == [BOB_ID]  # the move was kept
    assert refusal.hits == 1  # (Discord did refuse the followup)
    assert f"<@{BOB_ID}>" in board.text and f"<t:{math.ceil(table.row.deadline)}:R>" in board.text, board.text
    assert h.server.channel_messages(group)[-1].id == board.id and not table.clock_paused
    assert not [c for c in h.calls if c.refused]


@pytest.mark.parametrize("late", [10, 30])
@pytest.mark.parametrize("timer", [300, 600])
async def test_a_press_just_after_the_notice_takes_the_board_on(h: Harness, timer: int, late: int) -> None:
    """The board says the table waits, and someone presses it soon after, while the token that edits it still lives
    (for a minute): that press's token takes the board on. Its time warning later is an edit of it, and once the
    next board is posted it is trimmed. (Before, the old token edited it once and then ended: the warning came as a
    new board below, and the old one stayed live with a countdown that had run out.)"""
    clock = private_time(h)
    alice, bob, group, table = await started(h, "akuma", bots=2, timer=timer)
    seen = Seen()
    for _ in range(int(16 * 60 / 5)):
        if said_it_waits(board_message(h, table).text):
            break
        await move(h, clock, 5, table, seen, group)
    assert said_it_waits(board_message(h, table).text) and not table.paused
    await move(h, clock, late, table, seen, group)
    messages = len(h.server.channel_messages(group))
    await press(h, {ALICE_ID: alice, BOB_ID: bob}[table.user_ids_to_act()[0]], table, group)
    version = table.version
    await move(h, clock, timer - 20, table, seen, group)  # past the time warning, before the timeout
    assert table.version == version and says(board_message(h, table).text, "table.time_warning")
    assert len(h.server.channel_messages(group)) == messages  # the warning: an edit of the board taken on
    await move(h, clock, 60, table, seen, group)  # the timeout: the next board is posted
    live = [m.text[-120:] for m in h.server.channel_messages(group) if m.components]
    assert table.version > version and len(live) == 1, live  # the board before it was trimmed
    assert told_true(seen) and seen.stale_countdowns == [], (untold(seen), seen.stale_countdowns[:3])


async def test_a_dm_without_a_timer_whose_board_token_was_refused_says_it_waits_in_a_short_notice(h: Harness) -> None:
    """``timer:0`` in a DM, the token of the board refused: the board can no longer be edited, so the notice is a
    message of its own below it (whose turn, that the table waits, My hand), not a second copy of the board and its
    picture. The press on it brings the board there."""
    clock = private_time(h)
    alice = h.user(ALICE_ID, "alice")
    dm = h.dm(alice)
    await h.slash(alice, "play diamondbox", channel=dm, bots=3, timer=0)
    table = only_table(h)
    seen = Seen()
    while table.user_ids_to_act() != [ALICE_ID]:
        await move(h, clock, 5, table, seen, dm)
    box = h.bot.get_cog("TableCog").outbox(table.id)
    await h.click(alice, board_message(h, table), label=MY_HAND)  # a live token beside the board's
    await h.settle()
    frozen_board = board_message(h, table)
    h.server.faults.refuse_token(box.tokens.editor(frozen_board.id).interaction.token)
    await move(h, clock, 20 * 60, table, seen, dm)
    notice = board_message(h, table)
    assert notice.id != frozen_board.id and said_it_waits(notice.text), notice.text
    assert not notice.attachments and not notice.embeds, notice.text  # no second copy of the board
    await press(h, alice, table, dm)
    await h.settle()
    board = board_message(h, table)
    assert board.id == notice.id and not said_it_waits(board.text) and board.attachments
    assert not [c for c in h.calls if c.refused]
