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

from bot.i18n import catalog, quick_start_text, t
from bot.policies import choose_action
from bot.render.twinpyramid import card as mark
from bot.render.twinpyramid import cards, order_text, sorted_cards, suit_mark, suit_name
from cogs.common import names_for
from cogs.live_hands import NOTE_MARK
from engines import get_engine
from engines.twinpyramid.cards import full_deck, rank_of
from engines.twinpyramid.state import ARRANGEMENT_STEPS, REARRANGE_LIMIT, RULES, Pending, Seat, Wild

from .discord_harness import Harness
from .discord_helpers import (
    MY_HAND,
    START,
    Field,
    action_button,
    assert_forged_clicks_refused,
    assert_hands_only_ephemeral,
    board_message,
    bot_name,
    lines,
    longest_fixed_part,
    my_hand,
    offers,
    only_table,
    opening,
    public_mark,
    public_since,
    says,
    select_with,
    start_harness,
)

ALICE_ID, BOB_ID = 101, 102
ALICE, BOB = f"u{ALICE_ID}", f"u{BOB_ID}"
ENGINE = get_engine("twinpyramid")


# ---- catalog lines with parts in the line's own language ----------------------------------------------------------
# says(text, key, **fields) of discord_helpers fills every language's line with the same fields; here a field may be
# a function of the language, for the parts the bot renders in the reader's language too (a suit's name, a bot's
# name, "you"), so a line is checked as the bot writes it in English or in Japanese.


def suit(code: str) -> Field:
    """A suit's name in the reader's language."""
    return lambda lang: suit_name(code, lang)


def count_of(text: str, key: str, /, **fields: Any) -> int:
    """How many times ``text`` holds the line ``key`` with ``fields`` (in whichever language it is written)."""
    return max(text.count(line) for line in lines(key, **fields))


def says_privately(text: str, key: str, /, **fields: Any) -> bool:
    """Whether ``text`` (a hand view) holds the line ``key`` with ``fields`` as a private note."""
    return any(NOTE_MARK + line in text for line in lines(key, **fields))


@pytest.fixture
async def h(tmp_path: Path) -> AsyncIterator[Harness]:
    harness = await start_harness(tmp_path / "bot.db")
    yield harness
    await harness.close()


async def open_table(h: Harness, alice, bots: int = 2, **options):
    if "rounds" not in options:  # one deal unless a test names its length (/play's default: D16, D17)
        options.setdefault("deals", 1)
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
    table = await open_table(h, alice, bots=2, rounds=1, start="host")  # alice starts the first deal
    assert table.state.options == {"jokers": 2, "rounds": 1, "rules": RULES} and table.state.deals_total == 3
    board = board_message(h, table)
    assert says(board.text, "twinpyramid.board.top") and "```" not in board.text
    assert "1️⃣" in board.text  # seats numbered …
    assert board.files["board.png"].startswith(b"\x89PNG") and "attachment://board.png" in str(board.embeds)
    assert "·7·" in board.payload["attachments"][0]["description"]  # … their pyramids: the picture and its alt text
    top = mark(table.state.discard[-1])  # no move yet: the deal's top card
    assert any(says(m.text, "twinpyramid.event.deal_started", deal=1, total=3, player="alice", top=top)
               for m in h.channel_messages())
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
    # three deals: the first two end with the scores so far, the last with the final ranking only (shown once)
    assert max(public.count(start) for start in opening("twinpyramid.event.scores")) == 2
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
    assert says(hand.text, "twinpyramid.hand.turn")
    version = table.version
    # Move 9♣ to shown: one select (which card), one click — one committed action.
    await h.select(alice, hand, select_with(hand, "r:9C"), ["r:9C"])
    assert says(hand.text, "twinpyramid.note.rearrange", card=mark("9C"), left=REARRANGE_LIMIT)
    assert offers(labels(hand), "twinpyramid.step.swap_shown", held=mark("9C"), shown=mark("7H"))
    assert offers(labels(hand), "twinpyramid.step.to_shown", card=mark("9C"))
    await h.click(alice, hand, button(hand, table, {"type": "rearrange_step",
                                                    "step": {"type": "to_shown", "card": "9C"}}))
    assert table.version == version + 1 and table.state.seats[ALICE].shown == ["7H", "9C"]
    assert not table.state.arranging and table.state.rearranged == 1
    assert says(hand.text, "twinpyramid.hand.turn")  # the redrawn view
    # Swap the same-rank stone: 7♥ (shown) for the 7♠ stone.
    await h.select(alice, hand, select_with(hand, "r:7H"), ["r:7H"])
    await h.click(alice, hand, button(hand, table, {"type": "rearrange_step",
                                                    "step": {"type": "swap_stone", "card": "7H", "stone": "7S"}}))
    assert table.state.seats[ALICE].stones["7"] == "7H" and "7S" in table.state.seats[ALICE].shown
    public = "\n".join(m.text for m in h.channel_messages())
    assert says(public, "twinpyramid.event.rearranged_move", player="alice", card=mark("9C"))
    assert says(public, "twinpyramid.event.rearranged_stone", player="alice", slot="7", stone=mark("7H"),
                   card=mark("7S"))
    # Then the turn's action: 5♠ on 5♥ by rank.
    await do_action(h, alice, table, ENGINE.parse_action({"type": "play", "card": "5S"}), hand)
    assert table.state.discard[-1] == "5S" or table.state.current != 0


@pytest.mark.parametrize("language", ["en", "ja"])
async def test_swapping_a_card_back_and_forth_never_takes_rearranging_away(h: Harness, language: str) -> None:
    """A tester swapped one held and one shown card back and forth 13 times (the arrangement unchanged) and lost the
    Rearrange menu while the prompt still said "rearrange (0 steps left)". Now the bound (D3) leaves room for two
    whole arrangements tried and undone; once it is used, the prompt no longer offers rearranging."""
    await h.bot.storage.set_guild_language(h.guild_id, language)
    alice = h.user(ALICE_ID, "alice")
    table = await open_table(h, alice, bots=1)
    position(table, {ALICE: {"held": ["2C", "5S", "9C", "KD"], "shown": ["7H"]}, "bot1": {"held": ["3D", "4D"]}},
             top="5H")
    hand = await my_hand(h, alice, table)
    for _ in range(2 * ARRANGEMENT_STEPS):
        held, shown = table.state.seats[ALICE].held[0], table.state.seats[ALICE].shown[0]
        await h.select(alice, hand, select_with(hand, f"r:{held}"), [f"r:{held}"])
        await h.click(alice, hand, button(hand, table, {"type": "rearrange_step",
                                                        "step": {"type": "swap_shown", "held": held, "shown": shown}}))
    assert sorted(table.state.seats[ALICE].held) == ["2C", "5S", "9C", "KD"]  # nothing changed
    assert says(hand.text, "twinpyramid.hand.turn") and select_with(hand, "r:7H") is not None
    table.state.rearranged = REARRANGE_LIMIT  # every step used
    hand = await my_hand(h, alice, table)
    assert says(hand.text, "twinpyramid.hand.turn_arranged", limit=REARRANGE_LIMIT)
    assert not says(hand.text, "twinpyramid.hand.turn")
    assert not any(c.get("type") == 3 and "r:7H" in [o["value"] for o in c.get("options", [])]
                   for c in hand.components)  # no Rearrange menu


async def test_two_passed_on_posts_counts_only_and_the_drawer_rearranges_first(h: Harness) -> None:
    alice = h.user(ALICE_ID, "alice")
    table = await open_table(h, alice, bots=2)
    bot_held = ["3D", "4D"]
    position(table, {ALICE: {"held": ["2H", "9C", "KD"]}, "bot1": {"held": bot_held}, "bot2": {"held": ["6S"]}},
             top="5H", draw=["JC", "8D", "QS", "4C"])
    before = public_mark(h)
    hand = await do_action(h, alice, table, ENGINE.parse_action({"type": "play", "card": "2H"}))
    assert says(hand.text, "twinpyramid.hand.two_choice")
    assert offers(labels(hand), "twinpyramid.button.take_two")
    assert offers(labels(hand), "twinpyramid.button.pass_two", player=bot_name(1))
    await h.click(alice, hand, button(hand, table, {"type": "pass_two"}))
    public = public_since(h, before)
    assert says(public, "twinpyramid.event.two_passed", player="alice", to=bot_name(1))
    assert count_of(public, "twinpyramid.event.drew_held", player=bot_name(1)) == 2
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
    assert any(says(m.text, "twinpyramid.event.two_passed", player=bot_name(2), to="alice")
               for m in h.channel_messages())
    assert says(board_message(h, table).text, "twinpyramid.pending.forced_two", player="alice", count=2)
    hand = await my_hand(h, alice, table)
    assert says(hand.text, "twinpyramid.hand.forced_two") and offers(labels(hand), "twinpyramid.button.forced_draw",
                                                                    count=2)
    await do_action(h, alice, table, ENGINE.parse_action({"type": "rearrange_step",
                                                          "step": {"type": "to_shown", "card": "QH"}}), hand)
    assert table.state.pending.kind == "forced_draw" and table.state.seats[ALICE].shown == ["4S", "QH"]
    r = await h.click(alice, hand, button(hand, table, {"type": "forced_draw"}))
    seat = table.state.seats[ALICE]
    assert sorted(seat.held) == sorted(["9C", "KD", "JS", "AC"]) and seat.shown == ["4S", "QH", "AD"]
    assert says_privately(r.text, "twinpyramid.event.drew_card", card=mark("AC"))  # the redrawn view tells the card


async def test_three_reorder_then_everyone_draws_one_and_the_cards_stay_private(h: Harness) -> None:
    alice = h.user(ALICE_ID, "alice")
    table = await open_table(h, alice, bots=2)
    position(table, {ALICE: {"held": ["3H", "9C", "KD"]}, "bot1": {"held": ["6D"]}, "bot2": {"held": ["6S"]}},
             top="5H", draw=["4C", "8D", "QS"])
    before = public_mark(h)
    hand = await do_action(h, alice, table, ENGINE.parse_action({"type": "play", "card": "3H"}))
    assert says(hand.text, "twinpyramid.hand.order_three", cards=cards(["4C", "8D", "QS"]))
    order = labels(hand)
    view = ENGINE.view(table.state, ALICE)  # who draws which card, in the button's words: 4♣→Bot 1 · 8♦→Bot 2 · Q♠→you
    assert len(order) >= 6 and offers(order, "twinpyramid.button.order", order=lambda lang: order_text(
        ["4C", "8D", "QS"], view, names_for(table, lang).plain(), lang))
    assert "4♣" not in public_since(h, before) and "Q♠" not in public_since(h, before)
    # The queen to Bot 1, the 4 to alice.
    await h.click(alice, hand, button(hand, table, {"type": "order_three", "order": ["QS", "8D", "4C"]}))
    public = public_since(h, before)
    assert says(public, "twinpyramid.event.three_ordered", player="alice")
    assert says(public, "twinpyramid.event.drew_held", player=bot_name(1))
    assert says(public, "twinpyramid.event.drew_held", player=bot_name(2))
    assert says(public, "twinpyramid.event.drew_held", player="alice")
    for c in ("QS", "8D", "4C"):
        assert mark(c) not in public
    assert "QS" in table.state.seats["bot1"].held and "8D" in table.state.seats["bot2"].held
    assert "4C" in table.state.seats[ALICE].held
    hand = await my_hand(h, alice, table)
    assert says_privately(hand.text, "twinpyramid.event.drew_card", card=mark("4C"))
    assert not says_privately(hand.text, "twinpyramid.event.three_seen", cards=cards(["QS", "8D", "4C"]))


async def test_eight_names_a_wild_suit_that_binds_the_others(h: Harness) -> None:
    alice = h.user(ALICE_ID, "alice")
    table = await open_table(h, alice, bots=1)
    position(table, {ALICE: {"held": ["8H", "9C", "KD"]}, "bot1": {"held": ["5S", "6C", "7D"]}}, top="5H")
    hand = await do_action(h, alice, table, ENGINE.parse_action({"type": "play", "card": "8H"}))
    assert says(hand.text, "twinpyramid.hand.name_suit")
    assert all(offers(labels(hand), "twinpyramid.button.suit", suit=suit_mark(s), name=suit(s)) for s in "SHDC")
    await h.click(alice, hand, button(hand, table, {"type": "name_suit", "suit": "C"}))
    board = board_message(h, table).text
    public = "\n".join(m.text for m in h.channel_messages())
    assert says(public, "twinpyramid.event.suit_named", player="alice", suit="♣", name=suit("C"))
    # The bot could not play 5♠ by rank: only clubs while the wild is in force.
    assert table.to_act() == [ALICE]
    wild = {"suit": "♣", "name": suit("C"), "player": "alice"}
    assert says(board, "twinpyramid.board.wild", **wild) or says(board_message(h, table).text,
                                                                      "twinpyramid.board.wild", **wild)
    assert table.state.wild is not None and table.state.wild.suit == "C"
    assert "5S" in table.state.seats["bot1"].hand


async def test_joker_wild_change_then_change_from_a_shown_card(h: Harness) -> None:
    alice = h.user(ALICE_ID, "alice")
    table = await open_table(h, alice, bots=1)
    position(table, {ALICE: {"held": ["X1", "9C", "KD"]}, "bot1": {"held": ["3S"], "shown": ["7D", "QC"]}},
             top="5H")
    hand = await my_hand(h, alice, table)
    options = [o["label"] for c in hand.components if c.get("type") == 3 for o in c.get("options", [])]
    assert offers(options, "twinpyramid.action.play_wild", card=mark("X1"))
    assert offers(options, "twinpyramid.action.wild_change", card=mark("X1"), target=mark("5H"))
    assert offers(options, "twinpyramid.action.change_shown", card=mark("X1"), target=mark("7D"), player=bot_name(1))
    await do_action(h, alice, table, ENGINE.parse_action({"type": "change", "card": "X1", "target": "5H"}), hand)
    assert says(hand.text, "twinpyramid.hand.name_suit")
    await h.click(alice, hand, button(hand, table, {"type": "name_suit", "suit": "D"}))
    public = "\n".join(m.text for m in h.channel_messages())
    # The card taken goes into held (it had room), so the public text no longer names it.
    assert says(public, "twinpyramid.event.wild_change_held", player="alice")
    assert says(public, "twinpyramid.event.suit_named", player="alice", suit="♦", name=suit("D"))
    assert "5H" in table.state.seats[ALICE].held
    # The other joker mode: take a card from another player's shown cards.
    position(table, {ALICE: {"held": ["X2", "9C"]}, "bot1": {"held": ["3S"], "shown": ["7D", "QC"]}}, top="5H")
    await do_action(h, alice, table, ENGINE.parse_action({"type": "change", "card": "X2", "target": "QC",
                                                          "owner": "bot1"}))
    assert "QC" in table.state.seats[ALICE].held  # (the bot may already have used the joker it received)
    assert any(says(m.text, "twinpyramid.event.change_shown_held", player="alice", card=mark("X2"), owner=bot_name(1))
               for m in h.channel_messages())


async def test_a_on_top_reveals_the_hand_ends_the_deal_and_the_next_deal_starts(h: Harness) -> None:
    alice = h.user(ALICE_ID, "alice")
    table = await open_table(h, alice, bots=2, rounds=2)  # the original's two rounds: 6 deals
    stones = ["7C", "8C", "9C", "10C", "4C", "5C", "6C", "2C", "3C"]
    position(table, {ALICE: {"held": ["AS", "KH", "QD"], "stones": stones},
                     "bot1": {"held": ["3D"]}, "bot2": {"held": ["4D"]}}, top="5H", deal=2)
    hand = await do_action(h, alice, table, ENGINE.parse_action({"type": "play", "card": "KH"}))
    assert offers(labels(hand), "twinpyramid.button.place", card=mark("AS"), slot="A")
    before = public_mark(h)
    await h.click(alice, hand, button(hand, table, {"type": "place", "card": "AS"}))
    public = public_since(h, before)
    assert says(public, "twinpyramid.result.complete", number=3, player="alice")
    assert says(public, "twinpyramid.result.revealed", player="alice", cards=sorted_cards(["QD"]))
    assert says(public, "twinpyramid.result.payments",
                   payments=lambda lang: f"alice +40, {bot_name(1)(lang)} -20, {bot_name(2)(lang)} -20")
    assert [table.state.seats[p].points for p in table.state.players] == [40, -20, -20]
    message = board_message(h, table)
    board = message.text
    assert says(board, "twinpyramid.pending.deal_over")
    assert says(board, "twinpyramid.result.complete", number=3, player="alice")
    assert "A♠" in message.payload["attachments"][0]["description"]  # the completed pyramid: picture + alt text
    # Deal 3 of 6 over: alice is the next start player and starts deal 4 from her hand view.
    assert table.to_act() == [ALICE]
    hand = await my_hand(h, alice, table)
    assert offers(labels(hand), "twinpyramid.button.next_deal", deal=4, total=6)
    await h.click(alice, hand, button(hand, table, {"type": "next_deal"}))
    assert table.state.deal == 3 and table.state.player_at(table.state.start) == ALICE
    top = mark(table.state.discard[-1])  # the new deal's top card (alice has not moved yet)
    assert any(says(m.text, "twinpyramid.event.deal_started", deal=4, total=6, player="alice", top=top)
               for m in h.channel_messages())
    board = board_message(h, table).text
    assert says(board, "twinpyramid.board.deal", deal=4, total=6, player="alice",
                   direction=lambda lang: t("twinpyramid.direction.cw", lang))
    view = ENGINE.view(table.state, None)
    seat = next(s for s in view.table if s.player == ALICE)
    assert says(board, "twinpyramid.board.seat", player="alice", points=40, hand=seat.hand_count,
                   burst=view.geometry.burst_size, held=seat.held_count, stones=seat.stone_count)


async def test_ten_breaks_the_next_players_lowest_stone(h: Harness) -> None:
    alice = h.user(ALICE_ID, "alice")
    table = await open_table(h, alice, bots=1)
    position(table, {ALICE: {"held": ["10H", "9C"]}, "bot1": {"held": ["3S"], "stones": ["7D", "9S", "4C"]}},
             top="5H")
    await do_action(h, alice, table, ENGINE.parse_action({"type": "play", "card": "10H"}))
    assert any(says(m.text, "twinpyramid.event.stone_broken", player=bot_name(1), card=mark("4C"))
               for m in h.channel_messages())
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
        f"gh:do:{table.id}:{v}:0.999": t("error.bad_action", alice.locale),
        f"gh:do:{table.id}:{v}:zz": t("error.unknown_control", alice.locale),  # not <seat>.<index>: no control
        f"gh:do:{table.id}:{v}:1.0": t("error.not_your_turn", alice.locale),
        f"gh:do:{table.id}:0:0.0": t("error.stale", alice.locale),
    }
    await assert_forged_clicks_refused(h, alice, table, forged)
    # The hand view says why drawing is barred (9 cards and a play is possible) before anything is sent.
    hand = await my_hand(h, alice, table)
    assert says(hand.text, "twinpyramid.note.no_tenth_card")
    assert not offers(labels(hand), "twinpyramid.button.draw")


async def test_japanese_hand_and_rules(h: Harness) -> None:
    hiro = h.user(103, "hiro", locale="ja")
    r = await h.slash(hiro, "rules", game="twinpyramid")
    assert r.ephemeral and quick_start_text("twinpyramid", "ja").splitlines()[0] in r.text
    assert t("rules.decisions", "ja") in r.text  # the decisions, after the rules
    alice = h.user(ALICE_ID, "alice")
    r = await h.slash(alice, "rules", game="twinpyramid")
    assert r.ephemeral and quick_start_text("twinpyramid", "en").splitlines()[0] in r.text
    assert t("rules.decisions", "en") in r.text
    table = await open_table(h, hiro and alice, bots=1)
    position(table, {ALICE: {"held": ["5S", "9C"]}, "bot1": {"held": ["3S"]}}, top="5H")
    jp = h.user(ALICE_ID, "alice", locale="ja")
    r = await h.click(jp, board_message(h, table), label=MY_HAND)
    assert r.ephemeral and t("twinpyramid.hand.turn", "ja") in r.text
    assert longest_fixed_part(catalog("ja")["twinpyramid.hand.held"]) in r.text


async def test_length_in_deals_or_rounds_not_both(h: Harness) -> None:
    """Deals and rounds together would play the rounds and drop the deals without a word: refused, nothing opens;
    each alone sets the match's length."""
    alice = h.user(ALICE_ID, "alice")
    r = await h.slash(alice, "play twinpyramid", bots=2, deals=4, rounds=2)
    assert r.ephemeral and says(r.text, "error.twinpyramid.deals_or_rounds", deals=4, rounds=2), r.text
    assert not h.bot.service._tables  # type: ignore[attr-defined]  # no lobby was opened
    table = await open_table(h, alice, deals=4)
    assert table.state.deals_total == 4
    await h.slash(alice, "game end")
    assert (await open_table(h, alice, rounds=2)).state.deals_total == 6


async def test_the_lobby_offers_each_length_with_its_minutes(h: Harness) -> None:
    """/play twinpyramid with no length plays one round at three seats (D17: the default for the seats at Start);
    the lobby lists the three lengths with their minutes."""
    alice = h.user(ALICE_ID, "alice")
    r = await h.slash(alice, "play twinpyramid", bots=2)
    assert r.type == "deferred" and not r.ephemeral
    lobby = r.message.text
    assert says(lobby, "twinpyramid.lobby.lengths")
    for choice in ("deal", "round", "two_rounds"):
        assert says(lobby, f"twinpyramid.lobby.length.{choice}")
    await h.click(alice, r.message, label=START)
    table = only_table(h)
    assert table.row.options == {} and table.state.deals_total == 3 and table.state.options["rounds"] == 1
