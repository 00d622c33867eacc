"""Pile up through Discord: discord.py's real objects fed raw gateway payloads, only HTTP faked.

A whole game driven only by slash commands, buttons and selects (bots in the other seats), and the special flows
the issue names — a dump with a deflect chain, a triple handing out minus cards, a revealed hand, exact stacking
with the consequence preview, a trap — on states set up directly on the running table (the same service, storage
and cogs as a real game).
"""
from __future__ import annotations

import itertools
import random
import re

from bot.i18n import language, t
from bot.policies import choose_action
from bot.render.pileup import card as mark
from bot.render.pileup import dice
from cogs.games.pileup import steps_of
from engines import get_engine
from engines.pileup import Roll

from .discord_harness import Harness
from .discord_helpers import (
    MY_HAND,
    REFRESH,
    START,
    Key,
    action_button,
    assert_forged_clicks_refused,
    assert_hands_only_ephemeral,
    board_message,
    bot_name,
    line,
    my_hand,
    only_table,
    public_mark,
    public_since,
    says,
    select_with,
    set_state,
)
from .engines.test_pileup_support import col
from .engines.test_pileup_support import table as build

ALICE_ID, BOB_ID = 101, 102
ALICE, BOB = f"u{ALICE_ID}", f"u{BOB_ID}"
ENGINE = get_engine("pileup")
SEATS = [ALICE, "bot1", "bot2"]


# Lines whose fields are themselves rendered lines (a bot's name, a reason, a chain step): ``says`` fills every
# language's line with the same field values, so such a field is given as a function of the language instead and
# rendered in the language of the line around it. Shared with the other game tests (diamondbox, clicks, akuma).


async def open_table(h: Harness, alice, bots: int = 2, **options):
    r = await h.slash(alice, "play pileup", bots=bots, **options)
    assert r.type == "deferred" and not r.ephemeral
    await h.click(alice, r.message, label=START)
    table = only_table(h)
    assert table.status == "running"
    return table


def public_roll_message(h: Harness, table):
    """The latest public message carrying the roll button (the turn ping)."""
    for message in reversed(h.channel_messages()):
        if any(re.fullmatch(rf"gh:do:{table.id}:{table.version}:\d+\.\d+", c.get("custom_id", ""))
               for c in message.components):
            return message
    raise AssertionError("no public roll button for the current version")


async def roll_publicly(h: Harness, user, table) -> None:
    version = table.version
    message = public_roll_message(h, table)
    await h.click(user, message, action_button(message, table, f"u{user.id}", Roll()))  # quietly; the roll is posted
    assert table.version > version


async def build_play(h: Harness, user, table, action):
    """Choose the value (when several fit) and the cards one at a time in the hand view; returns the hand."""
    hand = await my_hand(h, user, table)
    view = table.view(f"u{user.id}")
    for c in view.hand_all or []:
        assert mark(c) in hand.text
    if len(view.playable_values or []) > 1:
        await h.select(user, hand, select_with(hand, f"v{action.value}"), [f"v{action.value}"])
    for number, step in enumerate(steps_of(action)):
        offered = [o["value"] for c in hand.components if c.get("type") == 3 for o in c.get("options", [])]
        if number == 0 and step not in offered:  # the only first card: chosen for the player
            continue
        await h.select(user, hand, select_with(hand, step), [step])
    assert says(hand.text, "pileup.note.play"), hand.text
    return hand


async def do_action(h: Harness, user, table, action) -> None:
    """Play ``action`` the way a person would: public roll buttons, the hand view's selects and buttons."""
    version = table.version
    player = f"u{user.id}"
    if action.type == "roll":
        await roll_publicly(h, user, table)
        return
    if action.type == "play":
        hand = await build_play(h, user, table, action)
    else:
        hand = await my_hand(h, user, table)
        if action.type == "give":
            await hand_out(h, user, table, hand, action)
            return
        if action.type not in ("penalty", "dump", "keep_column"):
            raise AssertionError(action)
    await h.click(user, hand, action_button(hand, table, player, action))
    assert table.version > version, f"{action} was not played"


async def hand_out(h: Harness, user, table, hand, first) -> None:
    """A triple's gives as one decision: ``first`` and the policy's next choices, each chosen for its player."""
    player, state, cards = f"u{user.id}", table.state, []
    while state.phase == "give" and ENGINE.to_act(state) == [player]:
        cards.append(first.card)
        state, _ = ENGINE.apply(state, player, first)
        first = choose_action(ENGINE, state, player, random.Random(len(cards))) if state.phase == "give" else None
    others = len(table.state.players) - 1
    for slot in range(min(others, len(cards))):
        values = [f"{'abcd'[slot]}{c}" for c in cards[slot::others]]
        await h.select(user, hand, select_with(hand, values[0]), values)
    minus = len(table.state.minus[player])
    await h.click(user, hand, rf"gh:do:{table.id}:{table.version}:\d+\.g\w+")
    assert len(table.state.minus[player]) <= minus - len(cards)  # all handed out at once


def public_text(h: Harness, since: tuple[int, int] = (0, 0)) -> str:
    return public_since(h, since)


def board_alt(board) -> str:
    """The board picture's alt text: the columns in words."""
    return board.payload["attachments"][0]["description"]


async def test_a_whole_game_with_bots_through_buttons_and_selects(h: Harness) -> None:
    alice = h.user(ALICE_ID, "alice")
    table = await open_table(h, alice, bots=2, deck="R2B2G2Y2W1K1")  # the scenario was written for the 60-card deck
    board = board_message(h, table)
    assert says(board.text, "pileup.board.pile", count=42, turn=table.view(ALICE).turn)
    assert says(board.text, "pileup.board.seat", player="alice", hand=6, count=0, minus="—")
    assert board.files["board.png"].startswith(b"\x89PNG") and "attachment://board.png" in str(board.embeds)
    assert board_alt(board).startswith("**Columns**")  # the columns: in the picture and its alt text
    rng = random.Random(3)
    kinds: set[str] = set()
    steps = 0
    while table.status == "running":
        assert table.to_act() == [ALICE], "bots should have moved already"
        action = choose_action(ENGINE, table.state, ALICE, rng)
        kinds.add(action.type)
        await do_action(h, alice, table, action)
        steps += 1
        assert steps < 600
    assert table.status == "finished" and table.result() is not None
    assert {"roll", "play"} <= kinds
    board = board_message(h, table)
    assert says(board.text, "common.final_ranking") and board.components == []
    assert says(board.text, "pileup.ranking_minus", count=len(table.state.minus[ALICE]))  # with her count
    public = public_text(h)
    assert says(public, "pileup.event.game_over") and "🥇" in public
    assert sum("🥇" in m.text for m in h.channel_messages()) == 1  # the ranking once at the end (issue 44)
    throws = [dice(list(faces)) for faces in itertools.product(range(1, 7), repeat=3)]
    assert any(says(public, "pileup.event.rolled", player="alice", dice=d) for d in throws)  # faces, publicly
    assert any(says(public, "pileup.event.rolled", player=bot_name(1), dice=d) for d in throws)
    assert any(says(public, "pileup.event.turn", player="alice", turn=n) for n in range(1, 1000))
    assert says(public, "pileup.event.turn_minus")  # the empty-hand phase
    assert "💥" in public and says(public, "pileup.event.column_taken")
    assert assert_hands_only_ephemeral(h) > 0
    pings = [c for c in h.calls if c.method == "POST" and f"<@{ALICE_ID}>" in ((c.json or {}).get("content") or "")]
    assert pings and all([str(u) for u in c.json["allowed_mentions"]["users"]] == [str(ALICE_ID)] for c in pings)


async def test_dump_with_a_deflect_chain_in_the_channel(h: Harness) -> None:
    alice = h.user(ALICE_ID, "alice")
    table = await open_table(h, alice, bots=2)
    # Alice plays red 4 then white 4 onto column 4 (two layers): white last, she dumps the column (4 cards).
    # Bot 1 rolls a 4 and deflects onto Alice (the fewest minus cards); Alice rolls a 4 through the public
    # button and dumps it on Bot 2, who rolls a 2 and takes it.
    state = build(SEATS, hands={ALICE: ["R4a", "W4a", "B1a"], "bot1": ["G2a", "Y3a"], "bot2": ["G5a"]},
                  minus={"bot1": ["R1a"], "bot2": ["B6a", "B6b"]}, columns={4: col("G4a", "Y4a")},
                  pile=["R5a", "R5b", "Y5a", "Y5b"], phase="play", dice=[4, 2, 1], rolls=(4, 4, 2))
    set_state(table, state)
    before = public_mark(h)
    play = ENGINE.parse_action({"type": "play", "value": 4, "cards": ["R4a", "W4a"], "stacked": [False, False]})
    hand = await build_play(h, alice, table, play)
    assert says(hand.text, "pileup.outcome.dump", column=4, cards=4), hand.text
    await h.click(alice, hand, action_button(hand, table, ALICE, play))
    hand = await my_hand(h, alice, table)
    assert says(hand.text, "pileup.hand.dump_target")
    labels = {c["label"] for c in hand.components if c.get("type") == 2}
    assert Key("pileup.button.dump", column=4, player=bot_name(1), count=1).texts & labels
    assert Key("pileup.button.dump", column=4, player=bot_name(2), count=2).texts & labels
    assert not any(says(label, "pileup.button.keep") for label in labels)  # the dumper must dump
    await h.click(alice, hand, action_button(hand, table, ALICE, {"type": "dump", "target": "bot1"}))
    # Bot 1 deflected and dumped it back on Alice: she now has the public "Roll to deflect" button.
    assert table.to_act() == [ALICE] and table.state.phase == "deflect"
    message = public_roll_message(h, table)
    assert says(message.text, "pileup.button.deflect_public", player="alice", face="⚃")
    bob = h.user(BOB_ID, "bob")
    r = await h.click(bob, message, rf"gh:do:{table.id}:\d+:\S+")
    assert r.ephemeral and says(r.text, "error.not_seated")  # someone else cannot roll for her
    board = board_message(h, table)
    chain = lambda lang: f"alice → {bot_name(1)(lang)} {t('pileup.chain.deflected', lang, die='⚃')} → alice"  # noqa: E731
    assert says(board.text, "pileup.board.chain", column=4, chain=chain)
    assert says(board_alt(board), "pileup.board.being_dumped")
    await roll_publicly(h, alice, table)
    hand = await my_hand(h, alice, table)
    assert says(hand.text, "pileup.hand.dump_again", column=4, cards=4)
    labels = {c["label"] for c in hand.components if c.get("type") == 2}
    assert Key("pileup.button.keep", column=4, cards=4).texts & labels
    await h.click(alice, hand, action_button(hand, table, ALICE, {"type": "dump", "target": "bot2"}))
    public = public_text(h, before)
    for key, fields in (
            ("pileup.event.played", dict(player="alice", cards="🟥●4 ▸ ⬜○4", mark="4️⃣", layers=4)),
            ("pileup.event.dump_started", dict(player="alice", column=4, cards=4)),
            ("pileup.event.dumped", dict(player="alice", to=bot_name(1), column=4, cards=4, face="⚃")),
            ("pileup.event.deflected", dict(player=bot_name(1), die="⚃ (4)", column=4)),
            ("pileup.event.dumped", dict(player=bot_name(1), to="alice", column=4, cards=4, face="⚃")),
            ("pileup.event.deflected", dict(player="alice", die="⚃ (4)", column=4)),
            ("pileup.event.dumped", dict(player="alice", to=bot_name(2), column=4, cards=4, face="⚃")),
            ("pileup.event.not_deflected", dict(player=bot_name(2), die="⚁ (2)")),
            ("pileup.event.column_taken", dict(player=bot_name(2), mark="4️⃣", column=4,
                                               reason=line("pileup.reason.dump"), cards="🟩▲4 🟨★4 🟥●4 ⬜○4",
                                               count=4, total=6))):
        assert says(public, key, **fields), (key, fields, public)
    assert sorted(table.state.minus["bot2"]) == ["B6a", "B6b", "G4a", "R4a", "W4a", "Y4a"]
    assert table.state.columns[3].layers == []
    assert "4️⃣ —" in board_alt(board_message(h, table))
    assert assert_hands_only_ephemeral(h) > 0


async def test_triple_hands_out_every_minus_card_in_one_decision(h: Harness) -> None:
    """One select per other player (as many cards as they get), a preview of who gets what, one **Hand out**."""
    alice = h.user(ALICE_ID, "alice")
    table = await open_table(h, alice, bots=2)
    set_state(table, build(SEATS, hands={ALICE: ["R1a"], "bot1": ["G2a"], "bot2": ["G5a"]},
                           minus={ALICE: ["B3a", "K2a", "Y6a", "W4a"]}, pile=["R5a"], rolls=(1, 1, 1)))
    before = public_mark(h)
    await roll_publicly(h, alice, table)
    assert says(public_text(h, before), "pileup.event.triple", player="alice", count=3, sum=3)
    hand = await my_hand(h, alice, table)
    assert says(hand.text, "pileup.hand.give", count=3, to=bot_name(1))
    assert hand.button(label=Key("pileup.button.give_all_empty", count=3)).get("disabled")
    bot1, bot2 = hand.select(placeholder=Key("pileup.select.give_to", player=bot_name(1), count=2)), hand.select(
        placeholder=Key("pileup.select.give_to", player=bot_name(2), count=1))
    assert (bot1["max_values"], bot2["max_values"]) == (2, 1) and len(bot1["options"]) == 4
    await h.select(alice, hand, re.escape(bot1["custom_id"]), ["aB3a", "aK2a"])
    assert says(hand.text, "pileup.note.give_to", player=bot_name(1), cards="🟦■3 ⬛◆2", chosen=2, count=2)
    assert says(hand.text, "pileup.note.give_to", player=bot_name(2), cards="—", chosen=0, count=1)
    bot2 = hand.select(placeholder=Key("pileup.select.give_to", player=bot_name(2), count=1))
    assert [o["value"] for o in bot2["options"]] == ["bW4a", "bY6a"]  # the cards chosen for Bot 1 are not offered
    await h.select(alice, hand, re.escape(bot2["custom_id"]), ["bY6a"])
    assert says(hand.text, "pileup.note.give_to", player=bot_name(1), cards="🟦■3 ⬛◆2", chosen=2, count=2)
    assert says(hand.text, "pileup.note.give_to", player=bot_name(2), cards="🟨★6", chosen=1, count=1)
    await h.click(alice, hand, label=Key("pileup.button.give_all", count=3))  # one decision: nothing more to choose
    public = public_text(h, before)
    assert says(public, "pileup.event.minus_given", player="alice", card="🟦■3", to=bot_name(1), left=2)
    assert says(public, "pileup.event.minus_given", player="alice", card="⬛◆2", to=bot_name(1), left=0)
    assert table.state.minus[ALICE] == ["W4a"] and table.state.minus["bot1"][:2] == ["B3a", "K2a"]
    assert table.state.minus["bot2"] == ["Y6a"]


async def test_a_forged_hand_out_button_is_refused_and_changes_nothing(h: Harness) -> None:
    """The triple's button carries its cards: a forged one (a card not held, too few cards) is refused clearly."""
    alice = h.user(ALICE_ID, "alice")
    table = await open_table(h, alice, bots=2)
    set_state(table, build(SEATS, hands={ALICE: ["R1a"], "bot1": ["G2a"], "bot2": ["G5a"]},
                           minus={ALICE: ["B3a", "K2a", "Y6a"]}, pile=["R5a"], rolls=(1, 1, 1)))
    await roll_publicly(h, alice, table)
    seat = next(s.seat for s in table.seats if s.player == ALICE)
    forged = f"gh:do:{table.id}:{table.version}:{seat}.g"
    lang = language(alice.locale)  # the shared check takes one text: the line in the clicker's language
    await assert_forged_clicks_refused(h, alice, table, {
        forged + "B3aK2aR6a": t("error.pileup.card_not_held", lang),
        forged + "B3a": t("error.pileup.give_count", lang, count=3, given=1),
        forged + "B3aK2": t("error.bad_action", lang),
    })


async def test_nothing_to_play_reveals_the_hand_publicly(h: Harness) -> None:
    alice = h.user(ALICE_ID, "alice")
    table = await open_table(h, alice, bots=2)
    set_state(table, build(SEATS, hands={ALICE: ["R5a", "B6a"], "bot1": ["G2a"], "bot2": ["G5a"]},
                           pile=["Y1a", "Y2a"], rolls=(1, 2, 3)))
    before = public_mark(h)
    await roll_publicly(h, alice, table)
    assert says(public_text(h, before), "pileup.event.hand_revealed", player="alice", cards="🟥●5 🟦■6")
    assert says(board_message(h, table).text, "pileup.board.revealed", cards="🟥●5 🟦■6")
    hand = await my_hand(h, alice, table)
    assert says(hand.text, "pileup.hand.penalty")
    labels = {c["label"] for c in hand.components if c.get("type") == 2}
    assert Key("pileup.button.penalty", card="🟥●5").texts & labels
    assert Key("pileup.button.penalty", card="🟦■6").texts & labels
    await h.click(alice, hand, action_button(hand, table, ALICE, {"type": "penalty", "card": "R5a"}))
    assert says(public_text(h, before), "pileup.event.penalty_taken", player="alice", card="🟥●5")
    assert table.state.minus[ALICE] == ["R5a"] and ALICE not in table.state.draw_pile


async def test_exact_stacking_choices_preview_and_a_trap(h: Harness) -> None:
    alice = h.user(ALICE_ID, "alice")
    table = await open_table(h, alice, bots=2)
    set_state(table, build(SEATS, hands={ALICE: ["R3b", "B3a", "K3a", "Y5a"], "bot1": ["G2a"], "bot2": ["G6a"]},
                           columns={3: col("G3a", "R3a")}, pile=["Y1a", "Y2a"], phase="play",
                           dice=[3, 5, 1]))
    hand = await my_hand(h, alice, table)
    assert says(hand.text, "pileup.select.value")
    await h.select(alice, hand, select_with(hand, "v3"), ["v3"])
    options = {o["label"] for c in hand.components if c.get("type") == 3 for o in c.get("options", [])}
    for option in (Key("pileup.select.step_new", card="🟥●3"),
                   Key("pileup.select.step_stack", card="🟥●3", under="🟥●3"),
                   Key("pileup.select.step_new", card="🟦■3"), Key("pileup.select.step_new", card="⬛◆3")):
        assert option.texts & options, option
    await h.select(alice, hand, select_with(hand, "R3b-"), ["R3b-"])
    assert says(hand.text, "pileup.outcome.take", layers=3, column=3, cards=3)  # a new layer would be the 3rd
    await h.click(alice, hand, label=REFRESH)  # start over
    await h.select(alice, hand, select_with(hand, "v3"), ["v3"])
    await h.select(alice, hand, select_with(hand, "R3b+"), ["R3b+"])
    assert says(hand.text, "pileup.outcome.safe", column=3, layers=2)
    await h.select(alice, hand, select_with(hand, "K3a-"), ["K3a-"])
    assert says(hand.text, "pileup.outcome.trap", column=3)
    before = public_mark(h)
    await h.click(alice, hand, action_button(hand, table, ALICE, {"type": "play", "value": 3, "cards": ["R3b", "K3a"],
                                                                 "stacked": [True, False]}))
    public = public_text(h, before)
    assert says(public, "pileup.event.played", player="alice", cards="＋🟥●3 ▸ ⬛◆3", mark="3️⃣", layers=3)
    assert says(public, "pileup.event.column_trapped", player="alice", column=3)
    assert table.state.columns[2].layers == [["G3a"], ["R3a", "R3b"], ["K3a"]]


async def test_errors_are_ephemeral_and_change_nothing(h: Harness) -> None:
    alice, bob = h.user(ALICE_ID, "alice"), h.user(BOB_ID, "bob")
    table = await open_table(h, alice, bots=1)
    set_state(table, build([ALICE, "bot1"], hands={ALICE: ["R3a", "W3a", "B5a"], "bot1": ["G2a"]},
                           columns={3: col("G3a")}, pile=["Y1a"], phase="play", dice=[3, 5, 1]))
    board = board_message(h, table)
    r = await h.click(bob, board, label=MY_HAND)
    assert r.ephemeral and says(r.text, "error.not_seated")
    v = table.version
    lang = language(alice.locale)  # the shared check takes one text: the line in the clicker's language
    forged = {  # a button names one of the seat's legal actions by its index: nothing else can be sent
        f"gh:do:{table.id}:{v}:0.99": t("error.bad_action", lang),
        f"gh:do:{table.id}:{v}:p:3:zz": t("error.unknown_control", lang),  # not <seat>.<index>: no control
        f"gh:do:{table.id}:{v}:1.0": t("error.not_your_turn", lang),  # another seat's button
        f"gh:do:{table.id}:0:0.0": t("error.stale", lang),
    }
    await assert_forged_clicks_refused(h, alice, table, forged)


async def test_bad_deck_is_refused_and_a_custom_deck_is_used(h: Harness) -> None:
    alice = h.user(ALICE_ID, "alice")
    r = await h.slash(alice, "play pileup", deck="R2Q3")
    assert r.ephemeral and says(r.text, "error.pileup.bad_deck") and "R3B3G3Y3W1K1" in r.text
    for other_digits in ("R٣B3G3Y3W1K1", "R3B3G3Y3W1K¹", "R３B3G3Y3W1K1"):  # typed by a modified client
        r = await h.slash(alice, "play pileup", deck=other_digits)
        assert r.ephemeral and says(r.text, "error.pileup.bad_deck"), r.text
    r = await h.slash(alice, "play pileup", deck="W1")
    assert r.ephemeral and any(says(r.text, "error.pileup.deck_too_small", cards=6, needed=n) for n in range(1, 100))
    assert not h.bot.service._tables or all(t.status != "lobby" for t in h.bot.service._tables.values())
    table = await open_table(h, alice, bots=1, deck="R1 B1 G1 Y1 W1 K1")
    assert table.state.options["deck"] == "R1B1G1Y1W1K1"
    assert says(board_message(h, table).text, "pileup.board.pile", count=24, turn=table.view(ALICE).turn)


async def test_japanese_table_and_rules_in_both_languages(h: Harness) -> None:
    alice = h.user(ALICE_ID, "alice")
    r = await h.slash(alice, "rules", game="pileup")
    assert r.ephemeral and "Decision" in r.text and "dump" in r.text
    hiro = h.user(103, "hiro", locale="ja")
    r = await h.slash(hiro, "rules", game="pileup")
    assert r.ephemeral and "決定" in r.text and "擦り付け" in r.text
