"""Pile up rendering: board, hand and event text in both languages along seeded bot games, the hand view's
controls within Discord's limits and reaching every legal action, error messages for every engine error, and
no secret card on the public board."""
from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from bot.errors import user_message
from bot.i18n import has_key, t
from bot.policies import choose_action
from bot.render import Names
from bot.render import pileup as R
from bot.storage import GameRow, SeatRow
from bot.table import Table
from cogs.controls import action_of
from cogs.games import pileup as cog
from cogs.games import pileup_give as give_ui
from engines import BadOptions, Event, IllegalAction
from engines.pileup import DumpOn, KeepColumn, PileupEngine, PileupView, Play, Roll

from .discord_helpers import check_discord_limits, offered_actions, offered_controls
from .engines.test_pileup_support import col
from .engines.test_pileup_support import table as build

ENG = PileupEngine()
ROOT = Path(__file__).resolve().parents[1]
LOCALES = ("en", "ja")


def names_for(players: list[str]) -> Names:
    return Names({p: f"Player {p}" for p in players})


def seeded_states(seed: int, n: int, every: int = 1):
    """(state, events of the move that led to it) along a bot game."""
    state = ENG.new_game([f"p{i}" for i in range(n)], seed=seed)
    rng = random.Random(seed)
    events: list[Event] = []
    step = 0
    while True:
        if step % every == 0 or not ENG.to_act(state):
            yield state, events
        actors = ENG.to_act(state)
        if not actors:
            return
        player = actors[0]
        state, events = ENG.apply(state, player, choose_action(ENG, state, player, rng))
        step += 1


def table_for(state) -> Table:
    row = GameRow(id=7, guild_id=1, channel_id=2, game="pileup", options=dict(state.options), seed=state.seed,
                  status="running", host_id=0, version=3,
                  seats=[SeatRow(i, p, f"Player {p}", None, True) for i, p in enumerate(state.players)])
    return Table(row, state)


GAMES = [(seed, 2 + seed % 4) for seed in range(8)]


@pytest.mark.parametrize("seed,n", GAMES)
def test_board_hand_and_events_render_in_both_languages(seed: int, n: int) -> None:
    names = names_for([f"p{i}" for i in range(n)])
    seen = set()
    for state, events in seeded_states(seed, n):
        for lang in LOCALES:
            board = R.board(ENG.view(state, None), names, lang)
            body = "\n".join(board.lines)
            assert len(body) <= 4096 and board.title and "{" not in body
            for player in state.players:
                view = ENG.view(state, player)
                text = R.hand(view, names, lang)
                assert len(text) < 1500 and "{" not in text
                for c in view.hand_all or []:
                    assert R.card(c) in text
            for ev in events:
                line = R.event(ev, names, lang)
                seen.add(ev.type)
                if ev.visible_to is None and not (ev.type == "refilled" and not ev.data.get("count")):
                    assert line, ev.type
                if line is not None:
                    assert "{" not in line and len(line) < 2000
    assert {"rolled", "played", "refilled", "turn_started", "game_over"} <= seen


def test_every_engine_event_type_has_a_line() -> None:
    source = "\n".join(p.read_text() for p in (ROOT / "engines" / "pileup").glob("*.py"))
    types = set(re.findall(r'Event\(type="([a-z_]+)"', source))
    assert len(types) >= 15
    names = names_for(["p0", "p1"])
    sample = {"player": "p0", "to": "p1", "dice": [2, 2, 2], "sum": 6, "gives": 3, "card": "R3a", "left": 2,
              "cards": ["R3a", "W3a"], "stacked": [False, True], "column": 3, "layers": 2, "outcome": "dump",
              "from_minus": False, "minus_turn": True, "step": 1, "die": 3, "deflected": True, "reason": "spring",
              "minus_count": 4, "count": 2, "hand_size": 6, "draw_pile": 10, "skipped": ["p1"], "turn": 5,
              "ranking": [["p0"], ["p1"]], "minus": {"p0": 1, "p1": 3}}
    for kind in types:
        data = {**sample, "cards": 5} if kind in ("dump_started", "dumped") else sample  # a count there
        for lang in LOCALES:
            line = R.event(Event(type=kind, data=data), names, lang)
            assert line and "{" not in line and "R3a" not in line, kind


def test_dice_cards_and_layers_as_marks() -> None:
    assert R.dice([3, 5, 6]) == "⚂ ⚄ ⚅ (3 5 6)"
    assert R.card("W5a") == "⬜○5" and R.card("K2a") == "⬛◆2"  # a shape besides the colour
    assert R.play_layers(["R3b", "R3c", "B3a"], [True, True, False]) == "＋🟥●3×2 ▸ 🟦■3"
    assert R.sorted_cards(["K1a", "Y2a", "R6a", "B1a"]) == "🟥●6 🟦■1 🟨★2 ⬛◆1"


def test_board_shows_pile_hands_and_minus_cards_and_its_picture_the_columns() -> None:
    state = build(["ann", "bob", "cat"], hands={"ann": ["R1a", "B2a"], "bob": ["G3a"], "cat": []},
                  minus={"cat": ["W1a", "R2a"], "bob": ["Y4a"]}, pile=["R5a", "R5b"],
                  columns={3: col("G3a", "B3a+B3b"), 5: col("R5c", "K5a")})
    state.columns[4].trapped, state.columns[4].trapped_by = True, "bob"
    names = Names({"ann": "Ann", "bob": "Bob", "cat": "Cat"})
    text = R.board(ENG.view(state, None), names, "en").text()
    alt = R.image_alt(ENG.view(state, None), names, "en")  # the columns: in the picture and its alt text only
    assert "3️⃣ 🟩▲3 ▸ 🟦■3×2 · 2 layers, 3 cards ⚠️ a new layer takes it" in alt and "3️⃣" not in text
    assert "5️⃣ 🟥●5 ▸ ⬛◆5 · 2 layers, 2 cards ⬛ **trapped** by Bob" in alt
    assert "1️⃣ —" in alt and "**Draw pile:** 2 cards" in text
    assert "▶ Ann — ✋ 2 · ➖ 0: —" in text and "Cat — ✋ 0 · ➖ 2: 🟥×1 ⬜×1" in text
    ja = R.board(ENG.view(state, None), names, "ja").text()
    assert "**山札：**2枚" in ja and "マイナスカード" in ja


def test_the_board_counts_minus_cards_per_colour() -> None:
    """Issue 44: a player with many minus cards is one short line (the count is what ranks), not every card."""
    many = ["R1a", "R2a", "R3b", "B6a", "K2a", "R1b", "W5a", "B1a"]
    assert R.by_colour(many) == "🟥×4 🟦×2 ⬜×1 ⬛×1" and R.by_colour([]) == "—"
    state = build(["ann", "bob"], hands={"ann": ["G3a"], "bob": ["Y4a"]}, minus={"bob": many}, pile=["R5a"])
    text = R.board(ENG.view(state, None), Names({"ann": "Ann", "bob": "Bob"}), "en").text()
    assert "Bob — ✋ 1 · ➖ 8: 🟥×4 🟦×2 ⬜×1 ⬛×1" in text and R.card("R3b") not in text


def test_board_never_depends_on_secret_cards() -> None:
    for seed, n in GAMES[:4]:
        names = names_for([f"p{i}" for i in range(n)])
        for state, _ in seeded_states(seed, n, every=3):
            masked = state.model_copy(deep=True)
            for p in masked.players:
                shown = list(masked.revealed[p])
                masked.hands[p] = sorted(shown + ["R1a"] * (len(masked.hands[p]) - len(shown)))
            masked.draw_pile = ["Y6a"] * len(masked.draw_pile)
            for lang in LOCALES:
                assert R.board(ENG.view(state, None), names, lang).text() == \
                    R.board(ENG.view(masked, None), names, lang).text()
            assert ENG.view(state, None).hand is None and ENG.view(state, None).hand_all is None


def test_every_engine_error_has_a_message_in_both_languages() -> None:
    source = "\n".join(p.read_text() for p in (ROOT / "engines" / "pileup").glob("*.py"))
    codes = set(re.findall(r'IllegalAction\("(pileup\.[a-z_]+)"', source))
    codes |= {f"pileup.{c}" for c in re.findall(r'return "([a-z_]+)"', (ROOT / "engines/pileup/rules.py").read_text())}
    codes |= set(re.findall(r'BadOptions\(\s*"(pileup\.[a-z_]+)"', source))
    codes |= {"pileup.bad_deck"}
    assert len(codes) >= 12, codes
    fields = {"card": "R3a", "cards": ["R3a", "W3a"], "value": 4, "dice": [1, 2, 3], "phase": "play",
              "action": "roll", "target": "p1", "cards_n": 6, "needed": 12, "deck": "X9", "example": "R2B2G2Y2W1K1",
              "option": "deck", "count": 3, "given": 2}
    for code in codes:
        assert has_key(f"error.{code}"), code
        for lang in LOCALES:
            error = BadOptions(code, **fields) if code in ("pileup.deck_too_small", "pileup.bad_deck") \
                else IllegalAction(code, **fields)
            text = user_message(error, lang)
            assert "{" not in text and "R3a" not in text and "generic" not in text, (code, text)
    assert "You cannot roll now: the table is waiting for a play" in user_message(
        IllegalAction("pileup.wrong_phase", phase="play", action="roll"), "en")


def test_a_bad_deck_option_is_refused_with_a_clear_message() -> None:
    with pytest.raises(BadOptions) as caught:
        cog.deck_option("R2 Q1")
    assert "cannot be read" in user_message(caught.value, "en") and "R3B3G3Y3W1K1" in user_message(caught.value, "en")
    assert "読めません" in user_message(caught.value, "ja")
    with pytest.raises(BadOptions) as caught:
        cog.deck_option("K1")
    assert "has 6 cards" in user_message(caught.value, "en")
    assert cog.deck_option(None) == {} and cog.deck_option("r3b3g3y3w1k1") == {}
    assert cog.deck_option("R1,B1,G1,Y1,W1,K1") == {"deck": "R1B1G1Y1W1K1"}


# ---- controls ------------------------------------------------------------------------------------------------------




def reach_play(table: Table, player: str, view: PileupView, action: Play) -> None:
    """Build ``action`` through the selects step by step, then find its Play button."""
    selection: list[str] = []
    if len(view.playable_values or []) > 1:
        assert f"v{action.value}" in offered_controls(cog.controls(table, player, view, [], "en"))[1]
        selection.append(f"v{action.value}")
    for step in cog.steps_of(action):
        items = cog.controls(table, player, view, selection, "en")
        check_discord_limits(items)
        assert step in offered_controls(items)[1], (action, selection)
        selection.append(step)
    items = cog.controls(table, player, view, selection, "en")
    assert action in offered_actions(items, table, player)
    notes = cog.selection_notes(table, player, view, selection, "en")
    assert notes and notes[0].startswith("Your play:"), notes


def hand_out_all(table, player: str, view) -> bool:
    """Choosing, in each recipient's select, as many of the minus cards as they get leads to one Hand out button
    that sends those cards (``give_all``)."""
    plan = give_ui.recipients(view, view.pending)
    cards = list(give_ui.minus_cards(view, player))
    selection = [f"{give_ui.LETTERS[slot]}{cards.pop(0)}" for slot, (_, count) in enumerate(plan) for _ in range(count)]
    items = cog.controls(table, player, view, selection, "en")
    check_discord_limits(items)
    handed = [a for a in offered_actions(items, table, player) if a.type == "give_all"]
    return len(handed) == 1 and sorted(handed[0].cards) == sorted(v[1:] for v in selection)


@pytest.mark.parametrize("seed,n", GAMES[:6])
def test_controls_fit_discord_and_reach_every_legal_action(seed: int, n: int) -> None:
    pick = random.Random(seed)
    for state, _ in seeded_states(seed, n, every=2):
        table = table_for(state)
        for player in ENG.to_act(state):
            legal = ENG.legal_actions(state, player)
            view = ENG.view(state, player)
            items = cog.controls(table, player, view, [], "en")
            check_discord_limits(items)
            values = offered_controls(items)[1]
            sent = offered_actions(items, table, player)
            plays = [a for a in legal if isinstance(a, Play)]
            for action in pick.sample(plays, min(len(plays), 12)):
                reach_play(table, player, view, action)
            for action in legal:
                if action.type == "roll":
                    public = cog.public_controls(table, "en")
                    assert action in sent and action in offered_actions(public, table, player)
                    # The public button's index tells nothing about the roller's cards: the roll is all they may do.
                    assert legal == [action] and public[0].item.custom_id.endswith(".0")
                elif action.type == "give":  # handed out with the others in one decision: every card offered,
                    offered = any(value[1:] == action.card for value in values)  # but a select holds at most 25
                    assert offered or len(give_ui.minus_cards(view, player)) > 25
                    assert hand_out_all(table, player, view)
                elif action.type != "play":
                    assert action in sent
            assert all(a in legal for a in sent)


def test_many_cards_of_one_value_stay_within_limits() -> None:
    hand = ["R3a", "R3b", "B3a", "G3a", "W3a", "K3a"]
    state = build(["ann", "bob"], hands={"ann": hand, "bob": ["R1a"]}, columns={3: col("R3c")}, phase="play",
                  dice=[3, 1, 2])
    table = table_for(state)
    view = ENG.view(state, "ann")
    plays = [a for a in ENG.legal_actions(state, "ann") if isinstance(a, Play)]
    assert len(plays) > 1000
    for action in random.Random(1).sample(plays, 8):
        reach_play(table, "ann", view, action)
    longest = max(plays, key=lambda a: len(a.cards))
    reach_play(table, "ann", view, longest)


def test_deflect_and_dump_controls_and_public_roll() -> None:
    state = build(["ann", "bob", "cat"], hands={"ann": ["W4a", "R1a"], "bob": ["R2a"], "cat": ["R3a"]},
                  columns={4: col("G4a")}, phase="play", dice=[4, 1, 1], rolls=(4,))
    state, _ = ENG.apply(state, "ann", Play(value=4, cards=("W4a",), stacked=(False,)))
    table = table_for(state)
    sent = offered_actions(cog.controls(table, "ann", ENG.view(state, "ann"), [], "en"), table, "ann")
    assert sent == [DumpOn(target="bob"), DumpOn(target="cat")]  # the dumper may not keep it
    state, _ = ENG.apply(state, "ann", sent[0])
    table = table_for(state)
    public = cog.public_controls(table, "en")
    assert [i.item.label for i in public] == ["Roll to deflect (Player bob, needs ⚃)"]
    hand = R.hand(ENG.view(state, "bob"), names_for(state.players), "en")
    assert "Player ann dumped column 4 (2 cards) on you" in hand and "a ⚃ lets you dump it on again" in hand
    roll = offered_actions(public, table, "bob")
    assert roll == [Roll()]
    state, events = ENG.apply(state, "bob", roll[0])
    assert events[0].data["deflected"]
    table = table_for(state)
    assert offered_actions(cog.controls(table, "bob", ENG.view(state, "bob"), [], "en"), table, "bob") == [
        DumpOn(target="ann"), DumpOn(target="cat"), KeepColumn()]
    assert cog.public_controls(table, "en") == []


def test_unknown_codes_name_no_action() -> None:
    state = build(["ann", "bob"], hands={"ann": ["R3a"], "bob": ["R1a"]}, phase="play", dice=[3, 1, 2])
    table = table_for(state)
    assert action_of(table, "ann", "0.0") == ENG.legal_actions(state, "ann")[0]
    for garbage in ("", "p", "0", "0.", "0.99", "1.0", "0.-1", "x.0", "0.0.0", "zz"):
        assert action_of(table, "ann", garbage) is None, garbage


@pytest.mark.parametrize("n", [2, 5])
def test_per_seat_streams_say_whose_pile_in_both_languages(n: int) -> None:
    """``streams: per_seat``: the board counts the own piles together and every seat's line its own pile, a
    refill says it came from the seat's own pile; a shared table's board says "draw pile" as before."""
    names = names_for([f"p{i}" for i in range(n)])
    state = ENG.new_game([f"p{i}" for i in range(n)], seed=n, options={"streams": "per_seat"})
    shared = ENG.new_game([f"p{i}" for i in range(n)], seed=n)
    for lang in LOCALES:
        lines = R.board(ENG.view(shared, None), names, lang).lines
        assert t("pileup.board.pile", lang, count=ENG.view(shared, None).draw_pile, turn=1) in lines
    rng = random.Random(n)
    refills = 0
    while actors := ENG.to_act(state):
        view = ENG.view(state, None)
        for lang in LOCALES:
            lines = R.board(view, names, lang).lines
            assert t("pileup.board.own_piles", lang, count=view.draw_pile, turn=view.turn) in lines
            for seat in view.seats:
                if not seat.out:
                    assert any(line.endswith(t("pileup.board.own_pile", lang, count=seat.pile))
                               or t("pileup.board.own_pile", lang, count=seat.pile) + " " in line
                               for line in lines if names(seat.player) in line)
        state, events = ENG.apply(state, actors[0], choose_action(ENG, state, actors[0], rng))
        for ev in events:
            if ev.type == "refilled" and ev.data["count"]:
                refills += 1
                for lang in LOCALES:
                    assert R.event(ev, names, lang) == t("pileup.event.refilled_own", lang,
                                                         player=names(ev.data["player"]), count=ev.data["count"],
                                                         pile=ev.data["own_pile"])
    assert refills > 10
