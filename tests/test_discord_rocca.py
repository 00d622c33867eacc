"""Rocca Card Tower through Discord: discord.py's real objects fed raw gateway payloads, only HTTP faked.

A whole game driven only by slash commands, buttons and selects (bots in the other seats), and the special flows
the issue names — a Queen counter-chain, a J chain, a joker's suit and bend, One!, Bon out of turn — on states
set up directly on the running table (the same service, storage and cogs as a real game).
"""
from __future__ import annotations

import random
import re

from bot.i18n import LANGUAGES, t
from bot.policies import choose_action
from bot.render.rocca import bend_name, bon_move, label_of, placement, side_name
from bot.render.rocca import card as mark
from bot.render.rocca import cards as marks
from engines import get_engine

from .discord_harness import Harness
from .discord_helpers import (
    JOIN,
    MY_HAND,
    START,
    Field,
    action_button,
    assert_forged_clicks_refused,
    assert_hands_only_ephemeral,
    board_message,
    bot_name,
    my_hand,
    only_table,
    public_mark,
    public_since,
    rendered,
    says,
    select_with,
    set_state,
)
from .engines.test_rocca_support import make

ALICE_ID, BOB_ID = 101, 102
ALICE, BOB = f"u{ALICE_ID}", f"u{BOB_ID}"
ENGINE = get_engine("rocca")


def has_button(message, key: str, **fields: Field) -> bool:
    """Whether ``message`` has a button labelled with the catalog line ``key`` (fields as for ``rendered``)."""
    labels = {c["label"] for c in message.components if c.get("type") == 2}
    return any(rendered(key, lang, **fields) in labels for lang in LANGUAGES)


BOT1, BOT2 = bot_name(1), bot_name(2)


async def open_table(h: Harness, alice, bots: int = 2, **options):
    r = await h.slash(alice, "play rocca", bots=bots, start="host", **options)
    assert r.type == "deferred" and not r.ephemeral
    await h.click(alice, r.message, label=START)
    table = only_table(h)
    assert table.status == "running"
    return table


async def do_action(h: Harness, user, table, action) -> None:
    """Play ``action`` the way a person would: through the hand view's selects and buttons only."""
    hand = await my_hand(h, user, table)
    player = f"u{user.id}"
    view = table.view(player)
    for c in view.hand or []:
        assert mark(c) in hand.text
    version = table.version
    pending = view.pending
    if action.type in ("declare_one", "draw", "accept"):
        await h.click(user, hand, action_button(hand, table, player, action))
    elif action.type == "give":
        await h.select(user, hand, select_with(hand, action.card), [action.card])
        await h.click(user, hand, action_button(hand, table, player, action))
    elif action.type == "place" and pending and pending.player == view.viewer:
        await h.click(user, hand, action_button(hand, table, player, action))
    elif action.type == "place" and action.card.startswith("X"):
        value = next(o["value"] for c in hand.components for o in c.get("options", [])
                     if re.fullmatch(rf"P-X\d-{action.on}-h", o["value"]))
        await h.select(user, hand, select_with(hand, value), [value])
        assert says(hand.text, "rocca.note.joker_suit")
        await h.select(user, hand, select_with(hand, f"s{action.suit}"), [f"s{action.suit}"])
        assert "✅" in hand.text, hand.text
        await h.click(user, hand, action_button(hand, table, player, lambda a: a.type == "place" and a.card[0] == "X"
                                                and (a.on, a.suit, a.bend) == (action.on, action.suit, action.bend)))
    elif action.type == "place":
        value = f"P-{action.card}-{action.on}-{action.side[0]}"
        await h.select(user, hand, select_with(hand, value), [value])
        assert "✅" in hand.text, hand.text  # the preview says the move is allowed
        await h.click(user, hand, action_button(hand, table, player, action))
    elif action.type == "bon":
        value = f"B-{action.on}-{'_'.join(action.cards)}"
        await h.select(user, hand, select_with(hand, value), [value])
        await h.click(user, hand, action_button(hand, table, player, lambda a: a.type == "bon" and a.on == action.on))
    else:
        raise AssertionError(action)
    assert table.version > version, f"{action} was not played"


async def test_a_whole_game_with_bots_through_buttons_and_selects(h: Harness) -> None:
    alice = h.user(ALICE_ID, "alice")
    table = await open_table(h, alice, bots=2, bon=True)
    board = board_message(h, table)
    assert "board.png" in board.files and board.files["board.png"].startswith(b"\x89PNG")
    assert says(board.text, "rocca.board.active") and "a1" in board.text  # the text summary for screen readers
    rng = random.Random(5)
    turns = 0
    while table.status == "running":
        assert table.to_act() == [ALICE], "bots should have moved already"
        await do_action(h, alice, table, choose_action(ENGINE, table.state, ALICE, rng))
        turns += 1
        assert turns < 400
    assert table.status == "finished" and table.result() is not None
    board = board_message(h, table)
    assert says(board.text, "common.final_ranking") and board.components == []
    assert board.files["board.png"].startswith(b"\x89PNG")  # the picture follows the tower to the end
    assert any(says(m.text, "rocca.event.game_over") for m in h.channel_messages())
    assert sum("🥇" in m.text for m in h.channel_messages()) == 1  # the ranking once at the end (issue 44)
    assert assert_hands_only_ephemeral(h) >= turns
    pings = [c for c in h.calls if c.method == "POST" and f"<@{ALICE_ID}>" in ((c.json or {}).get("content") or "")]
    assert pings and all([str(u) for u in c.json["allowed_mentions"]["users"]] == [str(ALICE_ID)] for c in pings)


async def test_queen_counter_chain_shows_counts_publicly_and_cards_only_to_the_two(h: Harness) -> None:
    alice = h.user(ALICE_ID, "alice")
    table = await open_table(h, alice, bots=2)
    # Alice: two queens. Bot 1 (next) holds a queen and counters; Bot 2 has none.
    set_state(table, make({ALICE: ["QS", "QC", "7H", "8H", "9C", "2C"], "bot1": ["QD", "4C", "6C", "10H"],
                           "bot2": ["3D", "4D"]}, turn=ALICE))
    await do_action(h, alice, table, ENGINE.parse_action({"type": "place", "card": "QS", "on": "5S",
                                                          "side": "head"}))
    hand = await my_hand(h, alice, table)
    assert says(hand.text, "rocca.hand.q_give_first")
    assert has_button(hand, "rocca.button.give_empty", player=BOT1)
    assert has_button(hand, "rocca.button.give_empty", player=BOT2)
    before = public_mark(h)
    await h.select(alice, hand, select_with(hand, "7H"), ["7H"])
    await h.click(alice, hand, action_button(hand, table, ALICE, {"type": "give", "card": "7H", "to": "bot1"}))
    # Bot 1 counters with QD and gives 2 back; now Alice may counter (QC on QD) or accept.
    public = public_since(h, before)
    assert says(public, "rocca.event.q_pass", giver="alice", receiver=BOT1, count=1)
    assert says(public, "rocca.event.q_countered", player=BOT1, to="alice", count=2)
    assert says(public, "rocca.event.q_pass", giver=BOT1, receiver="alice", count=2)
    assert mark("7H") not in public  # the card itself is never shown in the channel
    pending = table.state.pending
    assert pending.kind == "q_answer" and pending.player == ALICE and pending.count == 3
    hand = await my_hand(h, alice, table)
    on_qd = label_of(table.view(ALICE), "QD")
    assert says(hand.text, "rocca.hand.q_answer", giver=BOT1, label=on_qd, count=3)
    assert "🔒" in hand.text  # the cards received, privately
    received = [c for c in table.state.hands[ALICE] if c not in ("QC", "8H", "9C", "2C")]
    assert len(received) == 2 and all(mark(c) in hand.text for c in received)
    assert has_button(hand, "rocca.button.accept_q")
    assert has_button(hand, "rocca.button.counter_q", card=mark("QC"), label=on_qd, count=3)
    await h.click(alice, hand, action_button(hand, table, ALICE, {"type": "place", "card": "QC", "on": "QD",
                                                                 "side": "face"}))
    for n in range(3):  # give 3 back, one at a time
        hand = await my_hand(h, alice, table)
        assert says(hand.text, "rocca.hand.q_give_back", receiver=BOT1, count=3 - n, total=3)
        give = table.state.hands[ALICE][0]
        await h.select(alice, hand, select_with(hand, give), [give])
        assert has_button(hand, "rocca.button.give", card=mark(give), player=BOT1, number=n + 1, total=3)
        await h.click(alice, hand, action_button(hand, table, ALICE, {"type": "give", "card": give, "to": "bot1"}))
    public = public_since(h, before)
    assert says(public, "rocca.event.q_pass", giver="alice", receiver=BOT1, count=3)
    assert says(public, "rocca.event.q_accepted", player=BOT1)
    secrets = {c for hand_ in table.state.hands.values() for c in hand_}
    for text in public_since(h, before).splitlines():  # since the prepared position: no card in a hand is shown
        words = set(text.replace(".", " ").split())
        assert not words & {mark(c) for c in secrets}, text
    assert assert_hands_only_ephemeral(h) > 0


async def test_j_chain_passes_on_and_the_last_player_draws(h: Harness) -> None:
    alice = h.user(ALICE_ID, "alice")
    table = await open_table(h, alice, bots=1)
    set_state(table, make({ALICE: ["JS", "JC", "9D", "2H"], "bot1": ["JH", "3D", "4D"]}, turn=ALICE))
    before = public_mark(h)
    await do_action(h, alice, table, ENGINE.parse_action({"type": "place", "card": "JS", "on": "5S",
                                                          "side": "head"}))
    public = public_since(h, before)
    assert says(public, "rocca.event.draw_chain", player=BOT1, count=1, rank="J")
    assert says(public, "rocca.event.draw_chain", player="alice", count=2, rank="J")
    view = table.view(ALICE)
    on = label_of(view, view.pending.card)
    board = board_message(h, table)
    assert says(board.text, "rocca.pending.draw_chain", player="alice", count=2, rank="J", label=on)
    assert says(board.text, "rocca.board.to_decide", player="alice")
    hand = await my_hand(h, alice, table)
    assert says(hand.text, "rocca.hand.draw_chain", player=BOT1, count=2, rank="J", label=on)
    assert has_button(hand, "rocca.button.take_draws", count=2)
    assert has_button(hand, "rocca.button.pass_chain", card=mark("JC"), label=on, count=3)
    await h.click(alice, hand, action_button(hand, table, ALICE, {"type": "place", "card": "JC", "on": "JH",
                                                                 "side": "face"}))
    public = public_since(h, before)
    assert says(public, "rocca.event.draw_chain", player=BOT1, count=3, rank="J")
    assert says(public, "rocca.event.drew", player=BOT1, count=3, pile=table.view(ALICE).deck_size)
    assert says(public, "rocca.event.turn_lost", player=BOT1)
    assert table.state.turn == ALICE and len(table.state.hands["bot1"]) == 5


async def test_joker_suit_and_bend_then_one_and_going_out(h: Harness) -> None:
    alice = h.user(ALICE_ID, "alice")
    table = await open_table(h, alice, bots=1)
    set_state(table, make({ALICE: ["X1", "7H", "2C"], "bot1": ["3D", "4D", "8C"]}, turn=ALICE))
    await do_action(h, alice, table, ENGINE.parse_action({"type": "place", "card": "X1", "on": "5S", "side": "head",
                                                          "suit": "H", "bend": "left"}))
    view = table.view(ALICE)
    placed = {"player": "alice", "card": mark("X1"), "suit": "♥", "bend": lambda lang: bend_name("left", lang),
              "side": lambda lang: side_name("head", lang), "on": label_of(view, "5S"), "label": label_of(view, "X1"),
              "left": 2}
    assert any(says(m.text, "rocca.event.placed_joker", **placed) for m in h.channel_messages())
    assert says(board_message(h, table).text, "rocca.board.bent")
    # Bot 1 could not follow the hearts joker and drew; Alice plays 7H on it and holds one card.
    assert table.state.turn == ALICE
    await do_action(h, alice, table, ENGINE.parse_action({"type": "place", "card": "7H", "on": "X1",
                                                          "side": "head"}))
    hand = await my_hand(h, alice, table)
    assert says(hand.text, "rocca.hand.one_hint")
    await h.click(alice, hand, action_button(hand, table, ALICE, {"type": "declare_one"}))
    assert ALICE in table.state.one_declared
    assert any(says(m.text, "rocca.event.one_declared", player="alice") for m in h.channel_messages())


async def test_bon_is_offered_out_of_turn_without_telling_anyone(h: Harness) -> None:
    alice, bob = h.user(ALICE_ID, "alice"), h.user(BOB_ID, "bob")
    r = await h.slash(alice, "play rocca", bon=True, start="host")
    await h.click(bob, r.message, label=JOIN)
    await h.click(alice, r.message, label=START)
    table = only_table(h)
    set_state(table, make({ALICE: ["9D", "2H"], BOB: ["5H", "5D", "8C"]}, turn=ALICE, bon=True))
    assert table.to_act() == [ALICE]  # Bob's Bon is not announced
    hand = await my_hand(h, bob, table)
    assert says(hand.text, "rocca.note.bon_out_of_turn")
    value = "B-5S-5H_5D"
    await h.select(bob, hand, select_with(hand, value), [value])
    view = table.view(BOB)
    assert says(hand.text, "rocca.note.ok", move=lambda lang: bon_move(view, "5S", ["5H", "5D"], lang))
    assert label_of(view, "5S") == "a1" and marks(["5H", "5D"]) == "5♥ 5♦"  # as the move is shown
    await h.click(bob, hand, action_button(hand, table, BOB, {"type": "bon", "on": "5S", "cards": ["5H", "5D"]}))
    view = table.view(BOB)
    labels = ", ".join(label_of(view, c) for c in ("5H", "5D"))
    assert any(says(m.text, "rocca.event.bon", player="bob", cards=marks(["5H", "5D"]), labels=labels, left=1)
               for m in h.channel_messages())
    assert table.state.turn == ALICE and table.state.hands[BOB] == ["8C"]


async def test_errors_are_ephemeral_and_change_nothing(h: Harness) -> None:
    alice, bob = h.user(ALICE_ID, "alice"), h.user(BOB_ID, "bob")
    table = await open_table(h, alice, bots=1)
    set_state(table, make({ALICE: ["7S", "9D"], "bot1": ["3D"]}, turn=ALICE))
    board = board_message(h, table)
    r = await h.click(bob, board, label=MY_HAND)
    assert r.ephemeral and says(r.text, "error.not_seated")
    forged = {  # a button names one of the seat's legal actions by its index: nothing else can be sent
        f"gh:do:{table.id}:{table.version}:0.99": t("error.bad_action", alice.locale),  # in the clicker's language
        f"gh:do:{table.id}:{table.version}:p:7S:5S:x": t("error.unknown_control", alice.locale),  # not <seat>.<index>
        f"gh:do:{table.id}:{table.version}:1.0": t("error.not_your_turn", alice.locale),
        f"gh:do:{table.id}:0:0.0": t("error.stale", alice.locale),
    }
    await assert_forged_clicks_refused(h, alice, table, forged)
    # The hand view's preview explains a refused move before it is sent.
    hand = await my_hand(h, alice, table)
    await h.select(alice, hand, select_with(hand, "P-7S-5S-h"), ["P-7S-5S-h"])
    view = table.view(ALICE)
    assert says(hand.text, "rocca.note.ok", move=lambda lang: placement(view, "7S", "5S", "head", lang))
    assert label_of(view, "5S") == "a1"  # the move as shown: 7♠ → head of a1


async def test_rules_in_both_languages(h: Harness) -> None:
    alice = h.user(ALICE_ID, "alice")
    r = await h.slash(alice, "rules", game="rocca")
    assert r.ephemeral and "Decision" in r.text and "profile" in r.text
    hiro = h.user(103, "hiro", locale="ja")
    r = await h.slash(hiro, "rules", game="rocca")
    assert r.ephemeral and "決定" in r.text and "横顔" in r.text


async def test_the_hand_view_carries_the_tower_picture_while_the_player_decides(h: Harness) -> None:
    """The moves name tower labels (a1, b3, …); the hand view shows the same labelled picture as the board, so a
    player on a phone need not scroll to the board. Out of turn there is no decision and no picture."""
    alice = h.user(ALICE_ID, "alice")
    table = await open_table(h, alice, bots=2)
    assert table.to_act() == [ALICE]
    hand = await my_hand(h, alice, table)
    assert hand.files["hand.png"] == board_message(h, table).files["board.png"]
    set_state(table, make({ALICE: ["7H", "9C"], "bot1": ["3D", "4C"], "bot2": ["7S", "2H"]}, turn="bot1"))
    assert "hand.png" not in (await my_hand(h, alice, table)).files
