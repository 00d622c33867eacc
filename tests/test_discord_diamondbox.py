"""Diamond Box through Discord: discord.py's real objects fed raw gateway payloads, only HTTP faked.

A whole game driven only by slash commands, buttons and selects (bots in the other seats), and the special flows
the issue names — a colour change chosen in the player's own hand view, a 6-square cover whose colour change goes
to the player before and then a bonus turn, paging through a long list of places — on states set up directly on
the running table (the same service, storage and cogs as a real game).
"""
from __future__ import annotations

import random

import pytest

from bot.policies import choose_action
from bot.render.diamondbox import card as mark
from bot.render.diamondbox import colour_name, colours, face, face_of, turned_rows
from engines import get_engine
from engines.diamondbox.state import DiamondBoxState, Placed
from engines.rng import Rng

from .discord_harness import Harness
from .discord_helpers import (
    MY_HAND,
    START,
    Field,
    Key,
    action_button,
    assert_hands_only_ephemeral,
    board_message,
    bot_name,
    line,
    my_hand,
    only_table,
    opening,
    public_mark,
    public_since,
    says,
    select_with,
)

ALICE_ID, BOB_ID = 101, 102
ALICE = f"u{ALICE_ID}"
ENGINE = get_engine("diamondbox")


def colour(letter: str) -> Field:
    """A colour as the bot names it (``🟥 red``), in the language of the line around it."""
    return lambda lang: colour_name(letter, lang)


CHOICES: Field = lambda lang: colours(["Y", "G"], lang)  # noqa: E731  the colours left to choose from, listed


async def open_table(h: Harness, alice, bots: int = 2, **options):
    r = await h.slash(alice, "play diamondbox", bots=bots, **options)
    assert r.type == "deferred" and not r.ephemeral
    await h.click(alice, r.message, label=START)
    table = only_table(h)
    assert table.status == "running"
    return table


def make(table, hands: dict[str, list[str]], placed: list[tuple[str, int, int]], *, designated: str = "R",
         current: str = ALICE, piles: dict[str, list[str]] | None = None, turns: str = "half") -> DiamondBoxState:
    """A position on the running table: Alice first in turn order, then the bots; cards ``(card, x, y)`` at 0°."""
    players = [s.player for s in table.seats]
    order = [ALICE] + [p for p in players if p != ALICE]
    state = DiamondBoxState(
        game="diamondbox", players=players, seed=0, options={"turns": turns}, rng=Rng.from_seed(0), order=order,
        hands={p: hands.get(p, []) for p in order}, piles={p: (piles or {}).get(p, []) for p in order},
        placed=[Placed(card=c, turn=0, x=x, y=y) for c, x, y in placed], designated=designated, current=current)
    table.state = state
    return state


def offered(hand) -> list[str]:
    return [o["value"] for c in hand.components if c.get("type") == 3 for o in c.get("options", [])]


async def choose_place(h: Harness, user, hand, table, action) -> None:
    """Choose the card, then its place (paging through the list when needed), as a person would."""
    gid = table.id
    await h.select(user, hand, rf"gh:pick:{gid}:\d+:0:.*", [action.card])
    value = f"@{action.card}_{action.turn}_{action.x}_{action.y}"
    pages = 0
    while value not in offered(hand):
        nxt = [v for v in offered(hand) if v.startswith("pg") and int(v[2:]) > pages]
        assert nxt, f"{value} is not offered: {offered(hand)}"
        pages = int(nxt[0][2:])
        await h.select(user, hand, select_with(hand, nxt[0]), [nxt[0]])
    await h.select(user, hand, select_with(hand, value), [value])
    assert "✅" in hand.text, hand.text  # the preview says the placement is allowed
    assert says(hand.text, "diamondbox.note.preview")


async def do_action(h: Harness, user, table, action) -> None:
    """Play ``action`` through the hand view's selects and buttons only."""
    hand = await my_hand(h, user, table)
    player = f"u{user.id}"
    view = table.view(player)
    for c in view.hand or []:
        assert mark(c) in hand.text
    version = table.version
    if action.type == "place":
        await choose_place(h, user, hand, table, action)
    elif action.type not in ("choose_colour", "pass"):
        raise AssertionError(action)
    await h.click(user, hand, action_button(hand, table, player, action))
    assert table.version > version, f"{action} was not played"


@pytest.mark.parametrize("turns", ["half", "all"])
async def test_a_whole_game_with_bots_through_buttons_and_selects(h: Harness, turns: str) -> None:
    alice = h.user(ALICE_ID, "alice")
    table = await open_table(h, alice, bots=2, turns=turns)
    assert table.state.options["turns"] == turns
    board = board_message(h, table)
    assert "board.png" in board.files and board.files["board.png"].startswith(b"\x89PNG")
    assert says(board.text, "diamondbox.board.designated") and "```" not in board.text  # a text summary, no second grid
    alt = board.payload["attachments"][0]["description"]
    assert alt.startswith(opening("diamondbox.image_alt")) and says(alt, "diamondbox.image_alt")  # the picture in words
    rng = random.Random(5)
    turns_played = 0
    while table.status == "running":
        assert table.to_act() == [ALICE], "bots should have moved already"
        await do_action(h, alice, table, choose_action(ENGINE, table.state, ALICE, rng))
        turns_played += 1
        assert turns_played < 300
    assert table.status == "finished" and table.result() is not None
    board = board_message(h, table)
    assert says(board.text, "common.final_ranking") and board.components == []
    assert board.files["board.png"].startswith(b"\x89PNG")
    assert any("🥇" in m.text for m in h.channel_messages())
    assert assert_hands_only_ephemeral(h) >= turns_played
    pings = [c for c in h.calls if c.method == "POST" and f"<@{ALICE_ID}>" in ((c.json or {}).get("content") or "")]
    assert pings and all([str(u) for u in c.json["allowed_mentions"]["users"]] == [str(ALICE_ID)] for c in pings)


async def test_colour_gone_after_four_squares_the_placer_chooses_in_the_hand_view(h: Harness) -> None:
    alice = h.user(ALICE_ID, "alice")
    table = await open_table(h, alice, bots=1)
    # Red shows on row 0 only; green on rows 1-3. Y10 at (0,-1) covers the red row and one green row: 4 squares.
    make(table, {ALICE: ["Y10", "B10", "P10"], "bot1": ["G10", "B10"]}, [("R10", 0, 0), ("G10", 0, 1)],
         designated="R")
    before = public_mark(h)
    await do_action(h, alice, table, ENGINE.parse_action({"type": "place", "card": "Y10", "turn": 0, "x": 0, "y": -1}))
    public = public_since(h, before)
    move = line("diamondbox.move.place", card="🟨Y10", turn="↻0°", x0=0, x1=1, y0=-1, y1=1)
    assert says(public, "diamondbox.event.placed", player="alice", move=move, covered=4,
                     face=face(turned_rows("Y10", 0))), public
    assert says(public, "diamondbox.event.choice", previous=colour("R"), chooser="alice", choices=CHOICES,
                     reason=line("diamondbox.reason.colour_gone"), then=bot_name(1)), public
    assert f"<@{ALICE_ID}>" in public  # the chooser is pinged
    assert table.state.choice is not None and table.state.choice.chooser == ALICE
    hand = await my_hand(h, alice, table)
    assert says(hand.text, "diamondbox.hand.choose")
    labels = {c["label"] for c in hand.components if c.get("type") == 2}
    assert Key("diamondbox.button.colour", colour=colour("Y")).texts & labels
    assert Key("diamondbox.button.colour", colour=colour("G")).texts & labels
    assert not Key("diamondbox.button.colour", colour=colour("R")).texts & labels
    await h.click(alice, hand, action_button(hand, table, ALICE, {"type": "choose_colour", "colour": "G"}))
    public = public_since(h, before)
    assert says(public, "diamondbox.event.colour_changed", player="alice", previous=colour("R"),
                     colour=colour("G"))
    assert table.state.designated == "G"
    assert says(board_message(h, table).text, "diamondbox.board.designated", colour=colour("G"))


async def test_six_square_cover_colour_gone_previous_player_chooses_then_bonus_turn(h: Harness) -> None:
    alice = h.user(ALICE_ID, "alice")
    table = await open_table(h, alice, bots=1)
    # Y10 on (0,0) covers the 2 red squares and 4 green ones: all 6. Red disappears: Bot 1 (the player before
    # Alice) chooses, then Alice plays a bonus turn.
    make(table, {ALICE: ["Y10", "B10", "P10"], "bot1": ["G10", "B10"]}, [("R10", 0, 0), ("G10", 0, 1)],
         designated="R", piles={ALICE: ["R10"]})
    before = public_mark(h)
    hand = await my_hand(h, alice, table)
    await choose_place(h, alice, hand, table,
                       ENGINE.parse_action({"type": "place", "card": "Y10", "turn": 0, "x": 0, "y": 0}))
    assert says(hand.text, "diamondbox.note.ok_bonus")  # the preview tells what will happen
    assert says(hand.text, "diamondbox.note.gone", colour=colour("R"), chooser=bot_name(1))
    preview = hand.files["hand.png"]  # and shows it: the centre with the card placed
    assert preview.startswith(b"\x89PNG")
    await h.click(alice, hand, action_button(hand, table, ALICE, {"type": "place", "card": "Y10", "turn": 0, "x": 0,
                                                                 "y": 0}))
    assert "🔒" in hand.text  # the redrawn hand view, privately
    assert says(hand.text, "diamondbox.event.drew_card", card=mark("R10"), face=face_of("R10"))
    public = public_since(h, before)
    assert says(public, "diamondbox.event.choice_bonus", previous=colour("R"), chooser=bot_name(1), choices=CHOICES,
                     then="alice"), public
    assert says(public, "diamondbox.event.colour_changed", player=bot_name(1), previous=colour("R"),
                     colour=colour(table.state.designated))
    assert says(public, "diamondbox.event.then_bonus", player="alice")
    assert mark("R10") not in public  # the card Alice drew is private
    assert table.to_act() == [ALICE] and table.state.bonus
    hand = await my_hand(h, alice, table)
    assert says(hand.text, "diamondbox.hand.your_bonus_turn") and mark("R10") in hand.text
    assert says(board_message(h, table).text, "diamondbox.board.to_play_bonus", player="alice")
    assert assert_hands_only_ephemeral(h) > 0


async def test_long_place_lists_are_paged_best_first(h: Harness) -> None:
    alice = h.user(ALICE_ID, "alice")
    table = await open_table(h, alice, bots=1, turns="all")
    # A wide blank red field: a blank card fits in many places and turns.
    field = [("R10", x, y) for x in range(0, 12, 2) for y in range(0, 9, 3)]
    make(table, {ALICE: ["Y10", "B10"], "bot1": ["G10"]}, field, designated="R", turns="all")
    legal = ENGINE.placements(table.state, ALICE)
    y10 = [p for p in legal if p.card == "Y10"]
    assert len(y10) > 25
    hand = await my_hand(h, alice, table)
    await h.select(alice, hand, rf"gh:pick:{table.id}:\d+:0:.*", ["Y10"])
    first = [v for v in offered(hand) if v.startswith("@")]
    assert len(first) <= 23 and "pg1" in offered(hand)
    assert first[0] == f"@Y10_{y10[0].turn}_{y10[0].x}_{y10[0].y}" and y10[0].covered == 6  # best first
    last = y10[-1]
    await do_action(h, alice, table, ENGINE.parse_action({"type": "place", "card": "Y10", "turn": last.turn,
                                                          "x": last.x, "y": last.y}))


async def test_errors_are_ephemeral_and_change_nothing(h: Harness) -> None:
    alice, bob = h.user(ALICE_ID, "alice"), h.user(BOB_ID, "bob")
    table = await open_table(h, alice, bots=1)
    make(table, {ALICE: ["Y10", "Y01", "G10"], "bot1": ["G10"]}, [("R10", 0, 0), ("G10", 0, 1)], designated="R")
    board = board_message(h, table)
    r = await h.click(bob, board, label=MY_HAND)
    assert r.ephemeral and says(r.text, "error.not_seated")
    payload = dict(board.payload)
    payload["id"] = str(int(payload["id"]) + 1)
    v = table.version
    forged = {  # a button names one of the seat's legal actions by its index: nothing else can be sent
        f"gh:do:{table.id}:{v}:0.999": "error.bad_action",
        f"gh:do:{table.id}:{v}:p:Y10:x:0:0": "error.unknown_control",  # not <seat>.<index>: no control
        f"gh:do:{table.id}:{v}:1.0": "error.not_your_turn",
        f"gh:do:{table.id}:0:0.0": "error.stale",
    }
    buttons = [{"type": 2, "style": 1, "label": str(i), "custom_id": cid} for i, cid in enumerate(forged)]
    payload["components"] = [{"type": 1, "components": buttons[i:i + 5]} for i in range(0, len(buttons), 5)]
    message = h.adopt(payload)
    state = ENGINE.dump(table.state)
    for cid, expected in forged.items():
        r = await h.click(alice, message, cid)
        assert r.ephemeral and says(r.text, expected), (cid, r.text)
    assert ENGINE.dump(table.state) == state and table.version == v


async def test_rules_in_both_languages_show_the_card_table_in_play(h: Harness) -> None:
    from bot.render.diamondbox import face
    from engines.diamondbox.cards import table

    alice = h.user(ALICE_ID, "alice")
    r = await h.slash(alice, "rules", game="diamondbox")
    assert r.ephemeral and "Decision" in r.text and "3.0% / 5.0% / 4.2%" in r.text
    for number, rows in table().patterns.items():
        assert f"`{number}` `{face(rows)}`" in r.text
    hiro = h.user(103, "hiro", locale="ja")
    r = await h.slash(hiro, "rules", game="diamondbox")
    assert r.ephemeral and "決定" in r.text and "指定色" in r.text
