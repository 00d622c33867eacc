"""Per-seat streams (``streams: per_seat``) through Discord, as a tournament will deal them: a table created with
the option by the service (``create_seated_table``, the path a tournament table takes), a person playing it through
the board's buttons and the hand view against bots. The board lists the own piles, the refills and draws say whose
pile, the hand view never shows a card of any own pile (the player's own included), a draw from an empty own pile
is refused with why and changes nothing, and the finished game replays from what was stored (``/game record``)."""
from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Awaitable, Callable

import pytest

from bot.i18n import catalog
from bot.policies import choose_action
from bot.replay import GameRecord, rebuild
from bot.storage import SeatRow
from engines import get_engine

from .discord_harness import Harness
from .discord_helpers import (
    assert_hands_only_ephemeral,
    board_message,
    kill,
    longest_fixed_part,
    my_hand,
    says,
    start_harness,
)
from .test_discord_output import kept_by_discord
from .test_discord_pileup import do_action as pileup_action
from .test_discord_rocca import do_action as rocca_action
from .test_discord_twinpyramid import do_action as twinpyramid_action
from .test_hidden_information import Secrets

ALICE_ID, HIRO_ID = 101, 103
PER_SEAT = {"streams": "per_seat"}
ACTIONS = {"pileup": pileup_action, "twinpyramid": twinpyramid_action}  # a person's move through the hand view


async def seated(h: Harness, game: str, user_id: int, name: str, bots: int, seed: int, locale: str = "en"):
    """A table dealt with per-seat streams, the person in seat 0 (a large seed: no short number in any text)."""
    seats = [SeatRow(0, f"u{user_id}", name, user_id, False)] + [
        SeatRow(i, f"bot{i}", f"Bot {i}", None, True) for i in range(1, bots + 1)]
    table = await h.bot.service.create_seated_table(game=game, guild_id=h.guild_id, channel_id=h.channel_id,
                                                    seats=seats, host_id=user_id, seed=seed, options=PER_SEAT,
                                                    locale=locale)
    await h.settle()
    assert table.status == "running" and table.state.own is not None
    return table


def in_japanese(text: str, key: str) -> bool:
    """The catalog line ``key``'s fixed words in Japanese are in ``text`` (a Japanese table writes in Japanese)."""
    return longest_fixed_part(catalog("ja")[key]) in text


async def test_pileup_with_own_piles_at_the_largest_table(h: Harness) -> None:
    alice = h.user(ALICE_ID, "alice")
    table = await seated(h, "pileup", ALICE_ID, "alice", bots=4, seed=10 ** 12 + 21)
    me = f"u{ALICE_ID}"
    board = board_message(h, table)
    view = table.view(me)
    assert says(board.text, "pileup.board.own_piles", count=view.draw_pile, turn=view.turn)
    assert says(board.text, "pileup.board.own_pile", count=11)  # 54 cards left: 11, 11, 11, 11, 10
    assert not says(board.text, "pileup.board.pile", count=view.draw_pile, turn=view.turn)
    rng = random.Random(4)
    steps = 0
    while table.status == "running":
        assert table.to_act() == [me], "bots should have moved already"
        if steps % 7 == 0:
            hand = await my_hand(h, alice, table)
            assert not Secrets("pileup", table.state).leaks(hand.text, me)  # no pile card, hers included
        await pileup_action(h, alice, table, choose_action(get_engine("pileup"), table.state, me, rng))
        steps += 1
        assert steps < 600
    assert table.status == "finished" and table.result() is not None
    assert assert_hands_only_ephemeral(h) > 0
    record = await record_of(h, alice, table.id, "pileup")
    assert record.options == PER_SEAT
    refills = [ev.data for frame in rebuild(record).frames for ev in frame.events
               if ev.type == "refilled" and ev.data["player"] == me and ev.data["count"]]
    public = "\n".join(m.text for m in h.channel_messages())
    assert refills and all("own_pile" in d for d in refills)
    for d in refills:  # every refill of hers, as the table wrote it: from her own pile
        assert says(public, "pileup.event.refilled_own", player="alice", count=d["count"], pile=d["own_pile"])
    assert not says(public, "pileup.event.refilled")


async def record_of(h: Harness, user, game_id: int, game: str) -> GameRecord:
    """The game-record file ``/game record`` hands out (replayed and checked before it is given)."""
    r = await h.slash(user, "game record", table=game_id)
    answer = r.messages[-1]
    assert r.ephemeral
    record = GameRecord.read(answer.files[f"table-{game_id}-{game}.json"])
    assert f"table-{game_id}-{game}.gif" in answer.files  # its animated summary
    if os.environ.get("GAMEHOST_KEEP_GIF"):  # to look at it: GAMEHOST_KEEP_GIF=dir
        Path(os.environ["GAMEHOST_KEEP_GIF"], f"{game}.gif").write_bytes(answer.files[f"table-{game_id}-{game}.gif"])
    assert len(rebuild(record)) == len(record.actions) + 1
    return record


async def play_own_piles_to_the_end(h: Harness, user, table, act: Callable[..., Awaitable[object]]) -> GameRecord:
    """``user`` plays every turn of a per-seat table through the hand view (``act(h, user, table, action, hand)``),
    the bots the others, to the end; each hand view shows no card of any own pile (but what the player's own 3
    showed them in Twin Pyramid: ``Secrets`` knows). Returns the finished game's record, from ``/game record``."""
    me, game = f"u{user.id}", table.row.game
    engine, rng = get_engine(game), random.Random(2)
    for _ in range(400):
        if table.status != "running":
            break
        if table.to_act() != [me]:
            await h.settle()
            continue
        hand = await my_hand(h, user, table)
        assert not Secrets(game, table.state).leaks(hand.text, me)
        await act(h, user, table, choose_action(engine, table.state, me, rng), hand)
    assert table.status == "finished" and table.result() is not None
    return await record_of(h, user, table.id, game)


async def test_rocca_with_own_piles_in_japanese_at_the_smallest_table(h: Harness) -> None:
    hiro = h.user(HIRO_ID, "hiro", locale="ja")
    table = await seated(h, "rocca", HIRO_ID, "hiro", bots=1, seed=10 ** 12 + 5, locale="ja")
    board = board_message(h, table)
    assert in_japanese(board.text, "rocca.board.own_piles") and in_japanese(board.text, "rocca.board.table_own")
    record = await play_own_piles_to_the_end(
        h, hiro, table, lambda h, user, table, action, hand: rocca_action(h, user, table, action))
    assert record.options == PER_SEAT
    draws = [ev.data for frame in rebuild(record).frames for ev in frame.events if ev.type == "drew"]
    public = "\n".join(m.text for m in h.channel_messages())
    assert draws and all("own_pile" in d for d in draws)
    assert in_japanese(public, "rocca.event.drew_own") and not says(public, "rocca.event.drew")




@pytest.mark.parametrize("game,bots", [("pileup", 2), ("twinpyramid", 5)])
async def test_a_per_seat_table_killed_mid_game_comes_back_with_the_same_deal(tmp_path: Path, game: str,
                                                                              bots: int) -> None:
    """The process dies mid-game: after the restart the table's state — every own pile and own RNG — is the one
    stored before the kill, and the game plays on to its end and replays from its record."""
    db = tmp_path / "bot.db"
    h = await start_harness(db)
    alice = h.user(ALICE_ID, "alice")
    table = await seated(h, game, ALICE_ID, "alice", bots=bots, seed=10 ** 12 + 7)
    me, engine, rng, act = f"u{ALICE_ID}", get_engine(game), random.Random(1), ACTIONS[game]
    for _ in range(12):
        assert table.to_act() == [me]
        await act(h, alice, table, choose_action(engine, table.state, me, rng))
    await h.settle()
    before, game_id = engine.dump(table.state), table.id
    assert '"own"' in before
    await kill(h)
    h2 = await start_harness(db, discord_has=kept_by_discord(h))
    try:
        alice = h2.user(ALICE_ID, "alice")
        await h2.settle()
        table = await h2.bot.service.table(game_id)
        assert engine.dump(table.state) == before  # the deal, the own piles and dice, as stored before the kill
        steps = 0
        while table.status == "running":
            assert table.to_act() == [me]
            await act(h2, alice, table, choose_action(engine, table.state, me, rng))
            steps += 1
            assert steps < 600
        record = await record_of(h2, alice, game_id, game)
        assert record.options == PER_SEAT
    finally:
        await h2.close()


async def test_a_player_who_leaves_a_per_seat_table_is_played_by_a_bot_to_the_end(h: Harness) -> None:
    """Rocca at its largest table, Hiro and Alice with four bots: Hiro leaves after his first turn (``/game
    leave``) and a bot plays his seat from his own pile while Alice plays hers to the end of the game."""
    hiro, alice = h.user(HIRO_ID, "hiro", locale="ja"), h.user(ALICE_ID, "alice")
    seats = [SeatRow(0, f"u{HIRO_ID}", "hiro", HIRO_ID, False), SeatRow(1, f"u{ALICE_ID}", "alice", ALICE_ID, False)]
    seats += [SeatRow(i, f"bot{i}", f"Bot {i}", None, True) for i in range(2, 6)]
    table = await h.bot.service.create_seated_table(game="rocca", guild_id=h.guild_id, channel_id=h.channel_id,
                                                    seats=seats, host_id=HIRO_ID, seed=10 ** 12 + 9,
                                                    options=PER_SEAT)
    engine, rng = get_engine("rocca"), random.Random(3)
    people = {f"u{HIRO_ID}": hiro, f"u{ALICE_ID}": alice}
    left, steps = False, 0
    while table.status == "running":
        await h.settle()
        actors = [p for p in table.to_act() if p in people and (p != f"u{HIRO_ID}" or not left)]
        if not actors:
            continue
        player = actors[0]
        await rocca_action(h, people[player], table, choose_action(engine, table.state, player, rng))
        if player == f"u{HIRO_ID}" and not left:
            r = await h.slash(hiro, "game leave")
            assert r.ephemeral and any(s.player == player and s.is_bot for s in table.seats)  # a bot plays it
            left = True
        steps += 1
        assert steps < 400
    assert left and table.status == "finished" and table.result() is not None
    assert table.state.own is not None and len(table.state.players) == 6
