"""Twin Pyramid with per-seat streams (``streams: per_seat``, D19) through Discord, dealt as a tournament deals it
(``create_seated_table``, by test_discord_streams' ``seated``): a person plays it through the hand view against a
bot in Japanese; the board names every own pile, a rebuilt pile says whose, the hand view never shows a card of
any own pile but the ones the person's own 3 showed them, and the finished game replays from ``/game record``. A 3
orders the top of its player's own pile: its buttons give the top card to the player and nobody else, and the
other seats draw from their own piles."""
from __future__ import annotations

from bot.render.twinpyramid import cards, order_text
from bot.replay import rebuild
from cogs.common import names_for
from engines import get_engine
from engines.rng import Rng
from engines.twinpyramid.state import OwnPile

from .discord_harness import Harness
from .discord_helpers import board_message, offers, public_mark, public_since, says
from .test_discord_streams import PER_SEAT, in_japanese, play_own_piles_to_the_end, seated
from .test_discord_twinpyramid import ALICE, ALICE_ID, button, do_action, labels, position

HIRO_ID = 103
ENGINE = get_engine("twinpyramid")


async def test_twinpyramid_with_own_piles_in_japanese_against_a_bot(h: Harness) -> None:
    hiro = h.user(HIRO_ID, "hiro", locale="ja")
    table = await seated(h, "twinpyramid", HIRO_ID, "hiro", bots=1, seed=10 ** 12 + 3, locale="ja")
    board = board_message(h, table)
    assert in_japanese(board.text, "twinpyramid.board.top_own")
    assert in_japanese(board.text, "twinpyramid.board.own_pile")
    record = await play_own_piles_to_the_end(h, hiro, table, do_action)
    assert record.options == PER_SEAT
    rebuilt = [ev.data for frame in rebuild(record).frames for ev in frame.events if ev.type == "reshuffled"]
    public = "\n".join(m.text for m in h.channel_messages())
    assert rebuilt and all(set(d) == {"player", "own_pile"} for d in rebuilt)
    assert in_japanese(public, "twinpyramid.event.reshuffled_own")
    assert not in_japanese(public, "twinpyramid.event.reshuffled")


async def test_a_three_orders_the_players_own_pile_and_the_bot_draws_from_its_own(h: Harness) -> None:
    alice = h.user(ALICE_ID, "alice")
    table = await seated(h, "twinpyramid", ALICE_ID, "alice", bots=1, seed=10 ** 12 + 4)
    state = position(table, {ALICE: {"held": ["3H", "9C", "KD"]}, "bot1": {"held": ["6D"]}}, top="5H",
                     draw=["4C", "8D", "QS"], current=ALICE)
    rest = state.draw[:-3]
    state.own = {ALICE: OwnPile(pile=rest[:10] + state.draw[-3:], rng=Rng(state=1)),
                 "bot1": OwnPile(pile=rest[10:], rng=Rng(state=2))}
    state.draw = []
    table.state = state  # (the table keeps a copy)
    before = public_mark(h)
    hand = await do_action(h, alice, table, ENGINE.parse_action({"type": "play", "card": "3H"}))
    view = ENGINE.view(table.state, ALICE)
    assert view.peek == ["4C", "8D", "QS"]
    assert says(hand.text, "twinpyramid.hand.order_three_own", cards=cards(["4C", "8D", "QS"]))
    assert offers(labels(hand), "twinpyramid.button.order", order=lambda lang: order_text(
        ["4C", "8D", "QS"], view, names_for(table, lang).plain(), lang))  # 4♣→you · 8♦ · Q♠
    await h.click(alice, hand, button(hand, table, {"type": "order_three", "order": ["QS", "8D", "4C"]}))
    await h.settle()
    seats, own = table.state.seats, table.state.own
    assert own is not None
    bots = own["bot1"].pile  # the bot drew (for the 3, and maybe in its turn) from the top of its own pile
    assert len(bots) < len(rest[10:]) and bots == rest[10:10 + len(bots)]
    assert "QS" in seats[ALICE].held and own[ALICE].pile[-2:] == ["4C", "8D"]  # the rest stays on hers, in order
    public = public_since(h, before)
    assert says(public, "twinpyramid.pending.order_three_own", player="alice") or says(
        public, "twinpyramid.event.three_ordered", player="alice")
    for c in ("QS", "8D", "4C"):
        assert c not in public
