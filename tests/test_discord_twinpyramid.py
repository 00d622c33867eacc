"""Twin Pyramid through Discord: discord.py's real objects fed raw gateway payloads, only HTTP faked.

A whole match driven only by slash commands, buttons and selects (one person, bots in the other seats), and the
special flows the issue names — a 2 passed on (both ways, the drawer rearranging first), a 3 and its reorder, an
8's wild suit, the joker's modes, the A on top with its reveal, the end of a deal and the next deal — on positions
set up directly on the running table (the same service, storage and cogs as a real game).
"""
from __future__ import annotations

import random
from pathlib import Path
from typing import Any, AsyncIterator

import pytest

from bot.policies import choose_action
from bot.render.twinpyramid import card as mark
from engines import get_engine
from engines.twinpyramid.cards import full_deck, rank_of
from engines.twinpyramid.state import Pending, Seat, Wild

from .discord_harness import Harness
from .discord_helpers import (
    MY_HAND,
    START,
    action_button,
    assert_forged_clicks_refused,
    assert_hands_only_ephemeral,
    board_message,
    my_hand,
    only_table,
    public_mark,
    public_since,
    says,
    select_with,
    start_harness,
)

ALICE_ID, BOB_ID = 101, 102
ALICE, BOB = f"u{ALICE_ID}", f"u{BOB_ID}"
ENGINE = get_engine("twinpyramid")


@pytest.fixture
async def h(tmp_path: Path) -> AsyncIterator[Harness]:
    harness = await start_harness(tmp_path / "bot.db")
    yield harness
    await harness.close()


async def open_table(h: Harness, alice, bots: int = 2, **options):
    r = await h.slash(alice, "play twinpyramid", bots=bots, **options)
    assert r.type == "deferred" and not r.ephemeral
    await h.click(alice, r.message, label=START)
    table = only_table(h)
    assert table.status == "running"
    return table


def position(table, hands: dict[str, dict[str, list[str]]], *, top: str = "5H", draw: list[str] | None = None,
             current: str | None = None, wild: tuple[str, str, bool] | None = None, deal: int | None = None,
             pending: dict[str, Any] | None = None):
    """Put a prepared deal on the running table: ``hands[p]`` = held / shown / stones; ``draw`` the next cards
    drawn, first first (the rest of the deck lies under them); the table's own players and options."""
    state = table.state.model_copy(deep=True)
    used: list[str] = [top, *(draw or [])]
    for p in state.players:
        spec = hands.get(p, {})
        state.seats[p] = Seat(held=list(spec.get("held", [])), shown=list(spec.get("shown", [])),
                              stones={rank_of(c): c for c in spec.get("stones", [])}, points=state.seats[p].points)
        used += spec.get("held", []) + spec.get("shown", []) + spec.get("stones", [])
    assert len(used) == len(set(used)), "a card is used twice"
    state.discard = [top]
    state.draw = [c for c in full_deck(state.options["jokers"]) if c not in used] + list(reversed(draw or []))
    state.current = state.players.index(current or ALICE)
    state.direction, state.top_suit, state.rearranged, state.arranging = 1, None, 0, False
    state.wild = Wild(owner=wild[0], suit=wild[1], fresh=wild[2]) if wild else None
    state.pending = Pending(**pending) if pending else None
    state.three_player, state.three_queue, state.peek = None, [], []
    if deal is not None:
        state.deal, state.start = deal, deal % len(state.players)
    table.state = state
    return state






def button(hand, table, action: dict) -> str:
    """The custom id of alice's enabled action button sending ``action``."""
    return action_button(hand, table, ALICE, action)


def labels(hand) -> list[str]:
    return [c["label"] for c in hand.components if c.get("type") == 2]


async def do_action(h: Harness, user, table, action, hand=None) -> Any:
    """Play ``action`` the way a person would: through the hand view's selects and buttons only."""
    hand = hand or await my_hand(h, user, table)
    version = table.version
    player = f"u{user.id}"
    step = action.step if action.type == "rearrange_step" else action
    if action.type in ("play", "change"):
        value = f"a{ENGINE.legal_actions(table.state, player).index(action)}"  # the choice's select value
        await h.select(user, hand, select_with(hand, value), [value])
        assert "✅" in hand.text, hand.text  # the preview says it is allowed
    elif step.type in ("swap_shown", "to_shown", "to_held", "swap_stone"):
        card = step.held if step.type == "swap_shown" else step.card
        await h.select(user, hand, select_with(hand, f"r:{card}"), [f"r:{card}"])
    r = await h.click(user, hand, action_button(hand, table, player, action))
    assert table.version > version, f"{action} was not played: {r.text}"
    return hand


async def test_a_whole_match_with_bots_through_buttons_and_selects(h: Harness) -> None:
    alice = h.user(ALICE_ID, "alice")
    table = await open_table(h, alice, bots=2, rounds=1)
    assert table.state.options == {"jokers": 2, "rounds": 1} and table.state.deals_total == 3
    board = board_message(h, table)
    assert "Top card" in board.text and "```" not in board.text and "1️⃣" in board.text  # seats numbered …
    assert board.files["board.png"].startswith(b"\x89PNG") and "attachment://board.png" in str(board.embeds)
    assert "·7·" in board.payload["attachments"][0]["description"]  # … their pyramids: the picture and its alt text
    assert any("Deal 1 of 3" in m.text for m in h.channel_messages())
    rng = random.Random(3)
    moves = 0
    while table.status == "running":
        assert table.to_act() == [ALICE], "bots should have moved already"
        await do_action(h, alice, table, choose_action(ENGINE, table.state, ALICE, rng))
        moves += 1
        assert moves < 600
    print(f"\nTwin Pyramid match in Discord: {moves} moves by alice", table.result().scores)
    assert table.status == "finished" and table.result() is not None
    board = board_message(h, table)
    assert says(board.text, "common.final_ranking") and board.components == []
    public = "\n".join(m.text for m in h.channel_messages())
    assert says(public, "twinpyramid.event.match_over") and "🥇" in public
    assert public.count("Scores:") == 3  # three deals, each scored
    assert sum(table.result().scores.values()) == 0  # payments are zero-sum
    assert assert_hands_only_ephemeral(h) >= moves
    pings = [c for c in h.calls if c.method == "POST" and f"<@{ALICE_ID}>" in ((c.json or {}).get("content") or "")]
    assert pings and all([str(u) for u in c.json["allowed_mentions"]["users"]] == [str(ALICE_ID)] for c in pings)


async def test_rearranging_is_one_click_per_step_then_the_action(h: Harness) -> None:
    alice = h.user(ALICE_ID, "alice")
    table = await open_table(h, alice, bots=1)
    position(table, {ALICE: {"held": ["5S", "9C", "KD", "2C"], "shown": ["7H"], "stones": ["7S"]},
                     "bot1": {"held": ["3D", "4D"]}}, top="5H")
    hand = await my_hand(h, alice, table)
    assert says(hand.text, "twinpyramid.hand.turn") and "8 steps left" in hand.text
    version = table.version
    # Move 9♣ to shown: one select (which card), one click — one committed action.
    await h.select(alice, hand, select_with(hand, "r:9C"), ["r:9C"])
    assert "Rearranging 9♣" in hand.text
    assert {"Swap held 9♣ ↔ shown 7♥", "Move held 9♣ to shown"} <= set(labels(hand))
    await h.click(alice, hand, button(hand, table, {"type": "rearrange_step",
                                                    "step": {"type": "to_shown", "card": "9C"}}))
    assert table.version == version + 1 and table.state.seats[ALICE].shown == ["7H", "9C"]
    assert not table.state.arranging and table.state.rearranged == 1
    assert "7 steps left" in hand.text  # the redrawn view
    # Swap the same-rank stone: 7♥ (shown) for the 7♠ stone.
    await h.select(alice, hand, select_with(hand, "r:7H"), ["r:7H"])
    await h.click(alice, hand, button(hand, table, {"type": "rearrange_step",
                                                    "step": {"type": "swap_stone", "card": "7H", "stone": "7S"}}))
    assert table.state.seats[ALICE].stones["7"] == "7H" and "7S" in table.state.seats[ALICE].shown
    public = "\n".join(m.text for m in h.channel_messages())
    assert "alice moves 9♣ from held to shown" in public and "alice swaps the 7 stone: 7♥ goes in" in public
    # Then the turn's action: 5♠ on 5♥ by rank.
    await do_action(h, alice, table, ENGINE.parse_action({"type": "play", "card": "5S"}), hand)
    assert table.state.discard[-1] == "5S" or table.state.current != 0


async def test_two_passed_on_posts_counts_only_and_the_drawer_rearranges_first(h: Harness) -> None:
    alice = h.user(ALICE_ID, "alice")
    table = await open_table(h, alice, bots=2)
    bot_held = ["3D", "4D"]
    position(table, {ALICE: {"held": ["2H", "9C", "KD"]}, "bot1": {"held": bot_held}, "bot2": {"held": ["6S"]}},
             top="5H", draw=["JC", "8D", "QS", "4C"])
    before = public_mark(h)
    hand = await do_action(h, alice, table, ENGINE.parse_action({"type": "play", "card": "2H"}))
    assert says(hand.text, "twinpyramid.hand.two_choice")
    assert {"Draw two myself", "Pass it on: Bot 1 draws two"} <= set(labels(hand))
    await h.click(alice, hand, button(hand, table, {"type": "pass_two"}))
    public = public_since(h, before)
    assert "alice passes the 2 on: Bot 1 must draw two" in public
    assert public.count("Bot 1 draws a card (held)") == 2
    assert mark("JC") not in public and mark("8D") not in public  # the drawn cards stay secret
    assert sorted(table.state.seats["bot1"].held) == sorted([*bot_held, "JC", "8D"])
    # Now a bot passes a 2 on to alice: she may rearrange before drawing.
    position(table, {ALICE: {"held": ["9C", "KD", "QH", "JS"], "shown": ["4S"]},
                     "bot1": {"held": ["3D"]},
                     "bot2": {"held": ["2H", "6C", "7C", "8C"], "shown": ["9D", "10C", "JD"]}},
             top="5H", current="bot2", draw=["AC", "AD"])
    h.bot.scheduler.kick(table.id)  # type: ignore[attr-defined]
    await h.settle()
    assert table.state.pending is not None and table.state.pending.kind == "forced_draw"
    assert table.to_act() == [ALICE]
    assert any("Bot 2 passes the 2 on: alice must draw two" in m.text for m in h.channel_messages())
    assert "alice must draw 2" in board_message(h, table).text
    hand = await my_hand(h, alice, table)
    assert says(hand.text, "twinpyramid.hand.forced_two") and "Draw 2" in labels(hand)
    await do_action(h, alice, table, ENGINE.parse_action({"type": "rearrange_step",
                                                          "step": {"type": "to_shown", "card": "QH"}}), hand)
    assert table.state.pending.kind == "forced_draw" and table.state.seats[ALICE].shown == ["4S", "QH"]
    r = await h.click(alice, hand, button(hand, table, {"type": "forced_draw"}))
    seat = table.state.seats[ALICE]
    assert sorted(seat.held) == sorted(["9C", "KD", "JS", "AC"]) and seat.shown == ["4S", "QH", "AD"]
    assert "🔒 You drew A♣" in r.text  # the redrawn hand view tells what was drawn


async def test_three_reorder_then_everyone_draws_one_and_the_cards_stay_private(h: Harness) -> None:
    alice = h.user(ALICE_ID, "alice")
    table = await open_table(h, alice, bots=2)
    position(table, {ALICE: {"held": ["3H", "9C", "KD"]}, "bot1": {"held": ["6D"]}, "bot2": {"held": ["6S"]}},
             top="5H", draw=["4C", "8D", "QS"])
    before = public_mark(h)
    hand = await do_action(h, alice, table, ENGINE.parse_action({"type": "play", "card": "3H"}))
    assert "the top three cards are 4♣ 8♦ Q♠" in hand.text
    order = labels(hand)
    assert len(order) >= 6 and "4♣→Bot 1 · 8♦→Bot 2 · Q♠→you" in order
    assert "4♣" not in public_since(h, before) and "Q♠" not in public_since(h, before)
    # The queen to Bot 1, the 4 to alice.
    await h.click(alice, hand, button(hand, table, {"type": "order_three", "order": ["QS", "8D", "4C"]}))
    public = public_since(h, before)
    assert "alice put the three cards back in a chosen order" in public
    assert "Bot 1 draws a card (held)" in public and "Bot 2 draws a card (held)" in public
    assert "alice draws a card (held)" in public
    for c in ("QS", "8D", "4C"):
        assert mark(c) not in public
    assert "QS" in table.state.seats["bot1"].held and "8D" in table.state.seats["bot2"].held
    assert "4C" in table.state.seats[ALICE].held
    hand = await my_hand(h, alice, table)
    assert "🔒 You drew 4♣" in hand.text and "🔒 The top three cards (top first): Q♠ 8♦ 4♣" not in hand.text


async def test_eight_names_a_wild_suit_that_binds_the_others(h: Harness) -> None:
    alice = h.user(ALICE_ID, "alice")
    table = await open_table(h, alice, bots=1)
    position(table, {ALICE: {"held": ["8H", "9C", "KD"]}, "bot1": {"held": ["5S", "6C", "7D"]}}, top="5H")
    hand = await do_action(h, alice, table, ENGINE.parse_action({"type": "play", "card": "8H"}))
    assert says(hand.text, "twinpyramid.hand.name_suit")
    assert {"♠ spades", "♥ hearts", "♦ diamonds", "♣ clubs"} <= set(labels(hand))
    await h.click(alice, hand, button(hand, table, {"type": "name_suit", "suit": "C"}))
    board = board_message(h, table).text
    public = "\n".join(m.text for m in h.channel_messages())
    assert "Wild: alice names ♣ clubs" in public
    # The bot could not play 5♠ by rank: only clubs while the wild is in force.
    assert table.to_act() == [ALICE]
    assert "Wild ♣ clubs" in board or "Wild ♣ clubs" in board_message(h, table).text
    assert table.state.wild is not None and table.state.wild.suit == "C"
    assert "5S" in table.state.seats["bot1"].hand


async def test_joker_wild_change_then_change_from_a_shown_card(h: Harness) -> None:
    alice = h.user(ALICE_ID, "alice")
    table = await open_table(h, alice, bots=1)
    position(table, {ALICE: {"held": ["X1", "9C", "KD"]}, "bot1": {"held": ["3S"], "shown": ["7D", "QC"]}},
             top="5H")
    hand = await my_hand(h, alice, table)
    options = [o["label"] for c in hand.components if c.get("type") == 3 for o in c.get("options", [])]
    assert "Joker 🃏1: wild (play it, name a suit)" in options
    assert "Joker 🃏1: wild change with the top card 5♥, then name a suit" in options
    assert "Change 🃏1 for Bot 1's shown 7♦" in options
    await do_action(h, alice, table, ENGINE.parse_action({"type": "change", "card": "X1", "target": "5H"}), hand)
    assert says(hand.text, "twinpyramid.hand.name_suit")
    await h.click(alice, hand, button(hand, table, {"type": "name_suit", "suit": "D"}))
    public = "\n".join(m.text for m in h.channel_messages())
    # The card taken goes into held (it had room), so the public text no longer names it.
    assert "Wild change: alice exchanges the joker for the top card and takes it into held" in public
    assert "names ♦ diamonds" in public
    assert "5H" in table.state.seats[ALICE].held
    # The other joker mode: take a card from another player's shown cards.
    position(table, {ALICE: {"held": ["X2", "9C"]}, "bot1": {"held": ["3S"], "shown": ["7D", "QC"]}}, top="5H")
    await do_action(h, alice, table, ENGINE.parse_action({"type": "change", "card": "X2", "target": "QC",
                                                          "owner": "bot1"}))
    assert "QC" in table.state.seats[ALICE].held  # (the bot may already have used the joker it received)
    assert any("alice exchanges 🃏2 for one of Bot 1's shown cards and takes it into held" in m.text
               for m in h.channel_messages())


async def test_a_on_top_reveals_the_hand_ends_the_deal_and_the_next_deal_starts(h: Harness) -> None:
    alice = h.user(ALICE_ID, "alice")
    table = await open_table(h, alice, bots=2, rounds=2)  # the original's two rounds: 6 deals
    stones = ["7C", "8C", "9C", "10C", "4C", "5C", "6C", "2C", "3C"]
    position(table, {ALICE: {"held": ["AS", "KH", "QD"], "stones": stones},
                     "bot1": {"held": ["3D"]}, "bot2": {"held": ["4D"]}}, top="5H", deal=2)
    hand = await do_action(h, alice, table, ENGINE.parse_action({"type": "play", "card": "KH"}))
    assert "Place A♠ (slot A)" in labels(hand)
    before = public_mark(h)
    await h.click(alice, hand, button(hand, table, {"type": "place", "card": "AS"}))
    public = public_since(h, before)
    assert "alice completes the field pyramid and wins the deal" in public
    assert "alice's hand is shown: Q♦" in public
    assert "Payments: alice +40, Bot 1 -20, Bot 2 -20" in public
    assert [table.state.seats[p].points for p in table.state.players] == [40, -20, -20]
    message = board_message(h, table)
    board = message.text
    assert says(board, "twinpyramid.pending.deal_over") and "alice completes the field pyramid" in board
    assert "A♠" in message.payload["attachments"][0]["description"]  # the completed pyramid: picture + alt text
    # Deal 3 of 6 over: alice is the next start player and starts deal 4 from her hand view.
    assert table.to_act() == [ALICE]
    hand = await my_hand(h, alice, table)
    assert "Start deal 4 of 6" in labels(hand)
    await h.click(alice, hand, button(hand, table, {"type": "next_deal"}))
    assert table.state.deal == 3 and table.state.player_at(table.state.start) == ALICE
    assert any("Deal 4 of 6:** alice starts" in m.text for m in h.channel_messages())
    assert "Deal 4 of 6" in board_message(h, table).text and "40 pts" in board_message(h, table).text


async def test_ten_breaks_the_next_players_lowest_stone(h: Harness) -> None:
    alice = h.user(ALICE_ID, "alice")
    table = await open_table(h, alice, bots=1)
    position(table, {ALICE: {"held": ["10H", "9C"]}, "bot1": {"held": ["3S"], "stones": ["7D", "9S", "4C"]}},
             top="5H")
    await do_action(h, alice, table, ENGINE.parse_action({"type": "play", "card": "10H"}))
    assert any("Break! Bot 1's lowest stone 4♣ is knocked onto the discard" in m.text for m in h.channel_messages())
    assert "4" not in table.state.seats["bot1"].stones


async def test_errors_are_ephemeral_and_change_nothing(h: Harness) -> None:
    alice, bob = h.user(ALICE_ID, "alice"), h.user(BOB_ID, "bob")
    table = await open_table(h, alice, bots=1)
    position(table, {ALICE: {"held": ["7S", "9H", "KC", "QS"], "shown": ["2C", "3C", "4C", "6C", "8C"]},
                     "bot1": {"held": ["3S"]}}, top="5H")
    board = board_message(h, table)
    r = await h.click(bob, board, label=MY_HAND)
    assert r.ephemeral and says(r.text, "error.not_seated")
    v = table.version
    forged = {  # a button names one of the seat's legal actions by its index: nothing else can be sent
        f"gh:do:{table.id}:{v}:0.999": "does not make sense",
        f"gh:do:{table.id}:{v}:zz": "not valid any more",  # not <seat>.<index>: no control
        f"gh:do:{table.id}:{v}:1.0": "It is not your turn",
        f"gh:do:{table.id}:0:0.0": "moved on",
    }
    await assert_forged_clicks_refused(h, alice, table, forged)
    # The hand view says why drawing is barred (9 cards and a play is possible) before anything is sent.
    hand = await my_hand(h, alice, table)
    assert says(hand.text, "twinpyramid.note.no_tenth_card")
    assert "Draw a card" not in labels(hand)


async def test_japanese_hand_and_rules(h: Harness) -> None:
    hiro = h.user(103, "hiro", locale="ja")
    r = await h.slash(hiro, "rules", game="twinpyramid")
    assert r.ephemeral and "決定" in r.text and "場札のピラミッド" in r.text
    alice = h.user(ALICE_ID, "alice")
    r = await h.slash(alice, "rules", game="twinpyramid")
    assert r.ephemeral and "Decision" in r.text and "field pyramid" in r.text
    table = await open_table(h, hiro and alice, bots=1)
    position(table, {ALICE: {"held": ["5S", "9C"]}, "bot1": {"held": ["3S"]}}, top="5H")
    jp = h.user(ALICE_ID, "alice", locale="ja")
    r = await h.click(jp, board_message(h, table), label=MY_HAND)
    assert r.ephemeral and "あなたのターンです" in r.text and "手持ち" in r.text
