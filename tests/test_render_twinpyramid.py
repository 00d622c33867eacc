"""Twin Pyramid rendering: board, hand and event text in both languages for many seeded states, the field
pyramids drawn as pyramids, no secret card on a public text, the hand view's controls within Discord's limits and
reaching every legal action (a rearrangement step in one click), and a message for every engine error."""
from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from bot.errors import user_message
from bot.i18n import has_key, join_list, t
from bot.policies import choose_action
from bot.render import Names
from bot.render import twinpyramid as R
from bot.storage import GameRow, SeatRow
from bot.table import Table
from cogs import controls as cog_controls
from cogs.games import twinpyramid as cog
from engines import Event, IllegalAction
from engines.twinpyramid import TwinPyramidEngine

from .discord_helpers import check_discord_limits, offered_actions, offered_controls
from .engines.test_twinpyramid_support import make, pending
from .suite_level import count

ENG = TwinPyramidEngine()
ROOT = Path(__file__).resolve().parents[1]
LOCALES = ("en", "ja")
STEP_TYPES = ("swap_shown", "to_shown", "to_held", "swap_stone")


def names_for(players: list[str]) -> Names:
    return Names({p: f"Player {p}" for p in players})


def seeded_states(seed: int, n: int, every: int = 1, random_share: float = 0.3):
    """(state, events of the move that led to it) along a game of bots and random moves (which rearrange)."""
    state = ENG.new_game([f"p{i}" for i in range(n)], seed=seed, options={"rounds": 1})
    rng = random.Random(seed)
    events = ENG.start_events(state)
    step = 0
    while True:
        if step % every == 0 or not ENG.to_act(state):
            yield state, events
        actors = ENG.to_act(state)
        if not actors:
            return
        player = actors[0]
        if rng.random() < random_share:
            action = rng.choice(ENG.legal_actions(state, player))
        else:
            action = choose_action(ENG, state, player, rng)
        state, events = ENG.apply(state, player, action)
        step += 1


def table_for(state) -> Table:
    row = GameRow(id=7, guild_id=1, channel_id=2, game="twinpyramid", options=dict(state.options), seed=state.seed,
                  status="running", host_id=0, version=3,
                  seats=[SeatRow(i, p, f"Player {p}", None, True) for i, p in enumerate(state.players)])
    return Table(row, state)


def secret_marks(state, reader: str | None) -> set[str]:
    """Marks of cards held secretly by players other than ``reader`` (every card, jokers too, has its own mark)."""
    return {R.card(c) for p, seat in state.seats.items() if p != reader and not seat.revealed for c in seat.held}


def words(text: str) -> set[str]:
    return set(re.split(r"[\s,.:;()|/→·`*]+", text))


GAMES = [(seed, 2 + seed % 5) for seed in range(10)]
RENDERED_GAMES = GAMES[:count(quick=5, full=10)]  # one game at each player count; a second each at CI's counts
UNTOLD = {"turn"}  # no line of its own: the board says whose turn it is, and every move's line names its player


@pytest.mark.parametrize("seed,n", RENDERED_GAMES)
def test_board_hand_and_events_render_in_both_languages(seed: int, n: int) -> None:
    names = names_for([f"p{i}" for i in range(n)])
    seen_types: set[str] = set()
    for state, events in seeded_states(seed, n):
        public_view = ENG.view(state, None)
        views = {player: ENG.view(state, player) for player in state.players}
        # Each text is drawn once per language and checked for every property below.
        boards: dict[str, str] = {}
        hands: dict[tuple[str, str], str] = {}
        lines: dict[tuple[str, int], str] = {}
        for lang in LOCALES:
            board = R.board(public_view, names, lang)
            assert board.title and len("\n".join(board.lines)) <= 4096 and len(board.footer) <= 2048
            boards[lang] = board.text()
            assert "{" not in boards[lang]
            for player, view in views.items():
                text = hands[lang, player] = R.hand(view, names, lang)
                assert len(text) < 1500 and "{" not in text
                for c in view.hand or []:
                    assert R.card(c) in text
            for i, ev in enumerate(events):
                line = R.event(ev, names, lang)
                seen_types.add(ev.type)
                if ev.visible_to is None and ev.type not in UNTOLD:
                    assert line, ev.type
                if line is not None:
                    assert "{" not in line and len(line) < 2000
                lines[lang, i] = line or ""
        # Public texts never show a card held in secret; a hand view never shows another player's held cards.
        public = boards["en"] + "\n".join(lines["en", i] for i, ev in enumerate(events) if ev.visible_to is None)
        assert not words(public) & secret_marks(state, None)
        for player in state.players:
            assert not words(hands["en", player]) & secret_marks(state, player)
    assert {"deal_started", "played", "drew", "turn", "deal_ended", "match_over"} <= seen_types


def test_pyramids_are_drawn_as_pyramids() -> None:
    state = make(2, hands={"p0": {"held": ["KH"], "stones": ["7S", "8D", "10H", "4C"]}})
    names = names_for(state.players)
    board = R.board(ENG.view(state, None), names, "en").text()
    assert "```" not in board and "1️⃣" in board  # the board's pyramids are its picture, seats numbered as there
    stones = ENG.view(state, None).table[0].stones
    assert R.pyramid_lines(stones) == ["      ·A·", "    ·2· ·3·", "  4♣  ·5· ·6·", "7♠  8♦  ·9· 10♥"]
    assert "1️⃣ Player p0: field 7♠ 8♦ ·9· 10♥ │ 4♣" in R.image_alt(ENG.view(state, None), names, "en")
    assert R.pyramid_inline(ENG.view(state, "p0").table[0].stones).startswith("7♠ 8♦ ·9· 10♥ │ 4♣")
    hand = R.hand(ENG.view(state, "p0"), names, "ja")
    assert "あなたの場札のピラミッド" in hand and "  4♣  ·5· ·6·" in hand


def test_every_engine_event_type_has_a_line() -> None:
    source = "\n".join(p.read_text() for p in (ROOT / "engines" / "twinpyramid").glob("*.py"))
    types = set(re.findall(r'Event\(\s*type="([a-z_]+)"', source))
    assert len(types) >= 25
    names = names_for(["p0", "p1"])
    sample = {"player": "p0", "card": "7S", "target": "9S", "owner": "p1", "mode": "change", "kind": "swap_shown",
              "to_shown": "7S", "held": "7S", "shown": "9S", "type": "swap_shown", "slot": "7", "stone": "7H",
              "suit": "S", "direction": -1, "to": "p1", "zone": "held", "from": "held", "cards": ["7S", "8S"],
              "deal": 1, "deals_total": 4, "start_player": "p0", "flipped": ["9C", "5S"], "top": "5S",
              "draw_count": 12, "number": 1, "reason": "complete", "revealed": ["KH"], "payments": {"p0": 20},
              "turn_limit": None, "last": False, "points": {"p0": 20, "p1": -20}, "ranking": [["p0"], ["p1"]],
              "scores": {"p0": 20, "p1": -20}}
    for kind in types - UNTOLD:
        for lang in LOCALES:
            line = R.event(Event(type=kind, data=sample), names, lang)
            assert line and "{" not in line, kind


def test_every_engine_error_has_a_message_in_both_languages() -> None:
    source = "\n".join(p.read_text() for p in (ROOT / "engines" / "twinpyramid").glob("*.py"))
    codes = {f"twinpyramid.{c}" for c in re.findall(r': "([a-z_]+)"', source.split("_REFUSAL = {")[1].split("}")[0])}
    codes |= {"twinpyramid.not_now", "twinpyramid.rearrange_not_allowed"}
    assert len(codes) >= 8
    for code in codes:
        assert has_key(f"error.{code}"), code
        for lang in LOCALES:
            text = user_message(IllegalAction(code, action="play", card="7S"), lang)
            assert "{" not in text and "7S" not in text  # card ids become marks
    assert "7♠ can't be played now" in user_message(IllegalAction("twinpyramid.card_not_playable", action="play",
                                                                 card="7S"), "en")






@pytest.mark.parametrize("seed,n", GAMES[:6])
def test_controls_fit_discord_and_reach_every_legal_action(seed: int, n: int) -> None:
    steps_checked = 0
    # The same games at both levels; the README's level checks every other state CI's counts check.
    for state, _ in seeded_states(seed, n, every=count(quick=6, full=3), random_share=0.5):
        table = table_for(state)
        for player in ENG.to_act(state):
            legal = ENG.legal_actions(state, player)
            view = ENG.view(state, player)
            items = cog.controls(table, player, view, [], "en")
            check_discord_limits(items)
            sent, values = offered_actions(items, table, player), offered_controls(items)[1]
            steps = []
            if any(a.type == "rearrange" for a in legal):
                opened, _ = ENG.apply(state, player, {"type": "rearrange"})
                steps = ENG.legal_actions(opened, player)
            for action in [*legal, *steps]:
                if action.type == "rearrange":
                    continue
                if action.type in ("play", "change"):
                    if action.card.startswith("X"):  # jokers are interchangeable: the first one is offered
                        mine = (view.hand or []) + R.seat_of(view, player).shown
                        action = action.model_copy(update={"card": min(c for c in mine if c.startswith("X"))})
                    value = f"a{legal.index(action)}"
                    assert value in values, (action, values)
                    follow = cog.controls(table, player, view, [value], "en")
                    check_discord_limits(follow)
                    assert action in offered_actions(follow, table, player)
                    notes = cog.selection_notes(table, player, view, [value], "en")
                    assert any(n.startswith("✅") for n in notes), notes
                elif action.type in STEP_TYPES:
                    c = action.held if action.type == "swap_shown" else action.card
                    assert f"r:{c}" in values
                    follow = cog.controls(table, player, view, [f"r:{c}"], "en")
                    check_discord_limits(follow)
                    follow_actions = offered_actions(follow, table, player)
                    sends = cog.step_action(table, action)  # with ``rearrange`` folded in while the menu is closed
                    if sends not in follow_actions:  # more than ten steps for one card: reachable from the other card
                        follow_actions = offered_actions(cog.controls(table, player, view, [f"r:{action.shown}"],
                                                                      "en"), table, player)
                    assert sends in follow_actions
                    if not state.arranging:
                        assert sends.type == "rearrange_step"
                        after, _ = ENG.apply(state, player, sends)  # both actions in one: the step is done
                        assert not after.arranging and ENG.to_act(after) == [player]
                    else:
                        assert sends == action
                    steps_checked += 1
                else:
                    assert action in sent, (action, sent)
    assert steps_checked > 0


def test_a_rearrange_step_is_one_action_refused_when_the_step_is() -> None:
    state = make(2, hands={"p0": {"held": ["5S", "9C"], "shown": ["7H"], "stones": ["7S"]}})
    table = table_for(state)
    data = {"type": "rearrange_step", "step": {"type": "swap_stone", "card": "7H", "stone": "7S"}}
    assert ENG.parse_action(data) in cog.click_actions(table, "p0", ENG.legal_actions(state, "p0"))
    after, events = ENG.apply(state, "p0", data)
    assert after.seats["p0"].stones["7"] == "7H" and after.rearranged == 1 and not after.arranging
    assert [e.type for e in events] == ["rearranged", "rearranged_detail"]
    with pytest.raises(IllegalAction) as err:
        ENG.apply(state, "p0", {"type": "rearrange_step", "step": {"type": "swap_stone", "card": "9C", "stone": "7S"}})
    assert err.value.code == "twinpyramid.rearrange_not_allowed"
    # Not in a build: the step is refused as out of place.
    built = pending(make(2, hands={"p0": {"held": ["5S", "9C"]}}), "build", "p0", count=1)
    with pytest.raises(IllegalAction) as err:
        ENG.apply(built, "p0", {"type": "rearrange_step", "step": {"type": "to_shown", "card": "5S"}})
    assert err.value.code == "twinpyramid.not_now"
    # With the menu already open (a bot or an old client sent ``rearrange``), the button sends the plain step.
    opened, _ = ENG.apply(state, "p0", {"type": "rearrange"})
    step = ENG.parse_action({"type": "to_shown", "card": "9C"})
    assert cog.step_action(table_for(opened), step) == step and step in ENG.legal_actions(opened, "p0")
    assert cog.click_actions(table_for(opened), "p0", ENG.legal_actions(opened, "p0")) == []
    assert all(a.type != "rearrange_step" for a in ENG.legal_actions(state, "p0"))


def test_unknown_codes_name_no_action() -> None:
    state = make(2, hands={"p0": {"held": ["5S", "9C"]}})
    table = table_for(state)
    actions = cog_controls.button_actions(table, "p0")
    assert [cog_controls.action_of(table, "p0", f"0.{i}") for i in range(len(actions))] == actions
    for garbage in ("", "p", "p:", "zz", "c:5S", f"0.{len(actions)}", "1.0", "0.", ".0", "x"):
        assert cog_controls.action_of(table, "p0", garbage) is None, garbage


def test_hand_view_sub_choices_and_notes() -> None:
    names = names_for(["p0", "p1", "p2"])
    state = pending(make(3, hands={"p0": {"held": ["9C"]}}, draw=["4C", "8D", "QS"]), "order_three", "p0")
    state.peek, state.three_player = ["4C", "8D", "QS"], "p0"
    table = table_for(state)
    view = ENG.view(state, "p0")
    hand = R.hand(view, names, "en")
    assert "the top three cards are 4♣ 8♦ Q♠" in hand
    labels = {i.item.label for i in cog.controls(table, "p0", view, [], "en")}
    assert "4♣→Player p1 · 8♦→Player p2 · Q♠→you" in labels and len(labels) == 6
    assert "4♣" not in R.hand(ENG.view(state, "p1"), names, "en")
    # At two seats the third card seen with a 3 goes to nobody: it has no arrow.
    two = pending(make(2, hands={"p0": {"held": ["9C"]}}, draw=["4C", "8D", "QS"]), "order_three", "p0")
    two.peek, two.three_player = ["4C", "8D", "QS"], "p0"
    labels = {i.item.label for i in cog.controls(table_for(two), "p0", ENG.view(two, "p0"), [], "en")}
    assert "4♣→Player p1 · 8♦→you · Q♠" in labels
    # Drawing the 10th card is barred while a play is possible: the note says so, no Draw button.
    state = make(2, hands={"p0": {"held": ["5S", "9C", "KC", "QS"], "shown": ["2C", "3C", "4C", "6C", "8C"]}})
    table = table_for(state)
    view = ENG.view(state, "p0")
    notes = cog.selection_notes(table, "p0", view, [], "en")
    assert any("10th card" in n for n in notes)
    items = cog.controls(table, "p0", view, [], "en")
    assert all(a.type != "draw" for a in offered_actions(items, table, "p0"))
    legal = ENG.legal_actions(state, "p0")
    assert all(a.card != "9C" for a in legal if a.type == "play")  # 9♣ cannot be played now: it is not offered
    assert f"a{len(legal)}" not in offered_controls(items)[1]
    ok = cog.selection_notes(table, "p0", view, [f"a{legal.index(ENG.parse_action({'type': 'play', 'card': '5S'}))}"],
                             "ja")
    assert ok and ok[0].startswith("✅")


# ---- less to read past (issue 44) -------------------------------------------------------------------------------
def test_a_one_deal_match_does_not_number_its_deal() -> None:
    names = names_for(["p0", "p1", "p2"])
    one = ENG.new_game(["p0", "p1", "p2"], seed=3, options={"deals": 1, "start_player": 1})
    three = ENG.new_game(["p0", "p1", "p2"], seed=3, options={"deals": 3, "start_player": 1})
    for lang in LOCALES:
        text = R.board(ENG.view(one, None), names, lang).text()
        assert t("twinpyramid.board.single_deal", lang, player="Player p1",
                   direction=R.direction_text(ENG.view(one, None), lang)) in text
        assert t("twinpyramid.board.deal", lang, deal=1, total=1, player="Player p1",
                   direction=R.direction_text(ENG.view(one, None), lang)) not in text
        assert t("twinpyramid.board.deal", lang, deal=1, total=3, player="Player p1",
                   direction=R.direction_text(ENG.view(three, None), lang)) in R.board(ENG.view(three, None), names,
                                                                                     lang).text()
        started = [R.event(e, names, lang) for e in ENG.start_events(one)]
        assert started == [t("twinpyramid.event.single_deal_started", lang, player="Player p1",
                               top=R.card(one.top()))]


def test_the_turn_limit_shows_only_in_its_last_tenth() -> None:
    names = names_for(["p0", "p1", "p2"])
    state = make(n=3)
    limit = ENG.view(state, None).turn_limit
    for turn, shown in ((0, False), (int(0.9 * limit) - 2, False), (int(0.9 * limit) - 1, True), (limit - 1, True)):
        state.turns = turn
        line = t("twinpyramid.board.turns", "en", turn=turn + 1, limit=limit)
        assert (line in R.board(ENG.view(state, None), names, "en").text()) is shown, turn


def burst_at_the_end(deals: int):
    state = make(n=3, hands={"p0": {"held": ["4S", "6S", "8S", "QS"], "shown": ["3D", "4D", "6D", "8D", "9D"]}},
                 top="KC", options={"deals": deals})
    return ENG.apply(state, "p0", {"type": "draw"})


def test_the_scores_are_shown_once_at_the_end() -> None:
    """After the last deal: the deal's line has the payments, the final board the ranking with the totals; no
    "Scores" line and no payments on the final board (they were three rankings before)."""
    names = names_for(["p0", "p1", "p2"])
    state, events = burst_at_the_end(1)
    assert state.over
    for lang in LOCALES:
        ended = R.event(next(e for e in events if e.type == "deal_ended"), names, lang)
        scores = t("twinpyramid.event.scores", lang, scores="")
        assert scores not in ended and t("twinpyramid.result.payments", lang, payments="") in ended
        final = R.board(ENG.view(state, None), names, lang).text()
        assert t("twinpyramid.result.payments", lang, payments="") not in final
        assert final.count(t("common.final_ranking", lang)) == 1
        assert t("twinpyramid.result.burst", lang, number=1, player="Player p0", limit=0) in final
    state, events = burst_at_the_end(2)  # a deal before the last still tells the scores so far
    assert not state.over
    ended = R.event(next(e for e in events if e.type == "deal_ended"), names, "en")
    assert t("twinpyramid.event.scores", "en", scores="") in ended


def test_a_shared_first_place_says_why() -> None:
    """A burst pays every other player the same, so they share first place: the result message's notes say who burst
    and what each was paid; a first place of one gets no note; a deal ended unpaid at the turn limit says so."""
    names = names_for(["p0", "p1", "p2"])
    state, _ = burst_at_the_end(1)
    assert ENG.result(state).ranking[0] == ["p1", "p2"]
    for lang in LOCALES:
        assert R.result_notes(ENG.view(state, None), names, lang) == [
            t("twinpyramid.result.shared_burst", lang, player="Player p0", amount=10)]
    alone = make(n=3, hands={"p0": {"held": ["KS", "AS", "JH", "QD"],
                                    "stones": ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "10C"]}},
                 top="KC", options={"deals": 1})
    alone, _ = ENG.apply(alone, "p0", {"type": "play", "card": "KS"})
    alone, _ = ENG.apply(alone, "p0", {"type": "place", "card": "AS"})
    assert ENG.result(alone).ranking[0] == ["p0"]
    assert R.result_notes(ENG.view(alone, None), names, "en") == []
    stalled = make(n=3, hands={"p0": {"held": ["4D"]}}, top="6H", options={"deals": 1})
    stalled.turns = ENG.view(stalled, None).turn_limit - 1
    stalled, _ = ENG.apply(stalled, "p0", {"type": "draw"})
    assert ENG.result(stalled).ranking[0] == ["p0", "p1", "p2"]
    for lang in LOCALES:
        assert R.result_notes(ENG.view(stalled, None), names, lang) == [t("twinpyramid.result.shared_unpaid", lang)]


@pytest.mark.parametrize(("n", "rules", "settled"), [(6, 5, True), (5, 5, True), (4, 5, False), (3, 5, False),
                                                     (6, 4, False)])
@pytest.mark.parametrize("lang", LOCALES)
def test_the_turn_line_says_what_the_limit_does_at_these_seats(n: int, rules: int, settled: bool, lang: str) -> None:
    """Where D18 settles a deal at the limit (five and six seats, rules 5), neither the board nor the hand view says
    the deal ends unpaid; where it does end unpaid they say so."""
    state = make(n=n, options={"rules": rules})
    state.turns = state.turn_limit - 2
    names = names_for(list(state.players))
    key = "twinpyramid.board.turns_settled" if settled else "twinpyramid.board.turns"
    other = "twinpyramid.board.turns" if settled else "twinpyramid.board.turns_settled"
    line = t(key, lang, turn=state.turn_limit - 1, limit=state.turn_limit)
    wrong = t(other, lang, turn=state.turn_limit - 1, limit=state.turn_limit)
    for text in (R.board(ENG.view(state, None), names, lang).text(),
                 R.hand(ENG.view(state, state.players[0]), names, lang)):
        assert line in text and wrong not in text


def test_a_first_place_shared_over_several_deals_says_the_totals_not_the_last_deal() -> None:
    """Every seat burst once in a three-deal round and all end at 0: the last deal's burster is one of the first
    places, so "in the last deal bob burst and paid 10 points to each other player" explained nothing (t53). A
    match of more than one deal says the tie over all its deals."""
    names = names_for(["p0", "p1", "p2"])
    state = make(n=3, hands={"p0": {"held": ["4S", "6S", "8S", "QS"], "shown": ["3D", "4D", "6D", "8D", "9D"]}},
                 top="KC", options={"deals": 3})
    state.deal, state.deals_total = 2, 3
    state.seats["p0"].points, state.seats["p1"].points, state.seats["p2"].points = 20, -10, -10
    state, _ = ENG.apply(state, "p0", {"type": "draw"})
    result = ENG.result(state)
    assert state.over and result is not None and result.ranking[0] == ["p0", "p1", "p2"]
    for lang in LOCALES:
        notes = R.result_notes(ENG.view(state, None), names, lang)
        assert notes == [t("twinpyramid.result.shared_total", lang, deals=3, points=0,
                           players=join_list(["Player p0", "Player p1", "Player p2"], lang))]
        assert t("twinpyramid.result.shared_burst", lang, player="Player p0", amount=10) not in notes


def test_a_hand_shown_to_everyone_is_drawn_face_up() -> None:
    """A tester saw Bot 1's K♠ drawn face down at the end of a deal whose text said "Bot 1's hand is shown: K♠"
    (its held card: only shown cards were drawn face up). A revealed hand's held cards are drawn as the cards
    they are: the picture equals that of the same cards lying shown, live and looked back at."""
    from bot.render.twinpyramid_image import render, render_review

    stones = ["7S", "8S", "9S", "10S", "4S", "5S", "6S", "2S", "3S"]
    held_back = make(n=3, hands={"p0": {"held": ["KD"], "stones": stones}}, top="6H")
    held_back.seats["p0"].revealed = True
    lying_shown = make(n=3, hands={"p0": {"shown": ["KD"], "stones": stones}}, top="6H")
    for draw in (render, render_review):
        revealed, shown = draw(ENG.view(held_back, None)), draw(ENG.view(lying_shown, None))
        assert revealed.tobytes() == shown.tobytes(), draw.__name__
        held_back.seats["p0"].revealed = False
        assert draw(ENG.view(held_back, None)).tobytes() != shown.tobytes()  # face down while it is secret
        held_back.seats["p0"].revealed = True


def test_the_picture_looked_back_at_shows_the_seat_whose_move_it_tells() -> None:
    """The viewer and the GIF tell the move that led to a moment ("Bot 2 draws 8♦ into the shown cards"); their
    big panel showed the seat to act next (a tester saw that caption above alice's pyramids). It now shows the
    seat that moved; at a deal's end the seat that ended it; with no move (the deal), the seat to act."""
    from bot.render.twinpyramid_image import focus_seat

    state = make(n=3, top="6H")
    view = ENG.view(state, None)
    assert view.to_act == ["p0"]
    assert focus_seat(view, ended_first=True) == 0
    assert focus_seat(view, ended_first=True, moved="p2") == 2
    ended, _ = burst_at_the_end(2)  # p0 burst: the deal is over
    assert focus_seat(ENG.view(ended, None), ended_first=True, moved="p1") == 0


@pytest.mark.parametrize("lang", LOCALES)
def test_the_board_names_every_seats_shown_cards(lang: str) -> None:
    """A tester could read bob's new 4♠ nowhere: the board text listed each seat's field pyramid but not its shown
    cards, and the picture draws other seats in a strip of blocks. Every seat's shown cards are on the board."""
    state = make(n=3, hands={"p0": {"held": ["4D"], "shown": ["9S"]}, "p1": {"held": ["5D"], "shown": ["4S", "7D"]},
                             "p2": {"held": ["6D"]}}, top="6H")
    text = R.board(ENG.view(state, None), names_for(["p0", "p1", "p2"]), lang).text()
    assert t("twinpyramid.board.shown", lang, cards=R.cards(["9S"])) in text
    assert t("twinpyramid.board.shown", lang, cards=R.cards(["4S", "7D"])) in text
    assert text.count(t("twinpyramid.board.shown", lang, cards="")) == 2  # p2 shows nothing
