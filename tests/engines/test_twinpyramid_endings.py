"""Twin Pyramid: how a deal ends, where changed cards go, taking shown cards back into held, and the
10th-card rule on a voluntary take-two (docs/rules/twinpyramid.md). Each test quotes the line of the
original (seed 001) it enforces."""
from __future__ import annotations

import pytest

from bot.i18n import t
from bot.render.twinpyramid import board, deal_result_lines
from engines.twinpyramid.state import MAX_TURNS, TURNS_PER_PLAYER, TwinPyramidState
from engines.twinpyramid.view import LastDeal

from .test_twinpyramid_support import ENG, act, assert_conserved, event, legal, make, pending, types

NINE_A = ["AS", "4S", "6S", "8S", "QS", "3S", "JS", "KS", "9S"]
NINE_B = ["AH", "4H", "6H", "8H", "QH", "3H", "JH", "KH", "9H"]


def last_deal(state: TwinPyramidState) -> LastDeal:
    """The deal's outcome as the board reads it (the deal_ended event's lines are the same)."""
    last = ENG.view(state, None).last_deal
    assert last is not None
    return last


def test_changes_never_end_a_deal():
    """「プレイヤーの誰かがどちらかのピラミッドを完成させると勝負がつきます」: only a completed pyramid ends a
    deal, so players who can only change keep changing (no "idle cycles" ending)."""
    s = make(n=2, hands={"p0": {"held": NINE_A[1:5], "shown": [NINE_A[0]] + NINE_A[5:]},
                         "p1": {"held": NINE_B[1:5], "shown": [NINE_B[0]] + NINE_B[5:]}}, top="5D")
    for _ in range(12):
        p = s.player_at(s.current)
        options = legal(s, p)
        assert {a["type"] for a in options} == {"change", "rearrange"}  # no play; the 10th card is barred
        s, ev = act(s, p, next(a for a in options if a["type"] == "change"))
        assert "deal_ended" not in types(ev)
    assert_conserved(s)


def test_the_turn_limit_is_announced_and_ends_the_deal_truthfully():
    """The only ending besides 「どちらかのピラミッドを完成させると勝負がつきます」 is the safeguard: in the view from
    the first turn, on the board in its last tenth (issue 44), and the deal's result says the limit was reached."""
    s = make(n=2, hands={"p0": {"held": ["4D"]}, "p1": {"held": ["9C"]}}, top="6H")
    limit = TURNS_PER_PLAYER * 2
    view = ENG.view(s, None)
    assert (view.turn, view.turn_limit) == (0, limit)
    assert f"of at most {limit}" not in "\n".join(board(view, str, "en").lines)
    s.turns = limit - 2
    assert f"of at most {limit}" in "\n".join(board(ENG.view(s, None), str, "en").lines)
    s, ev = act(s, "p0", {"type": "draw"})
    assert "deal_ended" not in types(ev)
    s, ev = act(s, "p1", {"type": "draw"})
    ended = event(ev, "deal_ended").data
    assert ended["reason"] == "turn_limit" and ended["turn_limit"] == limit
    assert ended["payments"] == {"p0": 0, "p1": 0}
    line = deal_result_lines(last_deal(s), str, "en")[0]
    assert "turn limit" in line and str(limit) in line and "nobody" not in line


@pytest.mark.parametrize(("n", "rules", "limit"), [(3, 4, 450), (4, 4, 600), (5, 4, 720), (6, 4, 720),
                                                   (6, 3, 900), (5, 3, 750)])
def test_the_turn_limit_is_at_most_720_from_rules_4(n, rules, limit):
    """D11, D17: 150 turns per player, and from rules 4 (engine version 4) at most 720 a deal, so that a six-seat deal
    that stalls ends within two hours of people; a stored game of rules 3 keeps its 150 per player."""
    hands = {f"p{i}": {"held": [card]} for i, card in enumerate(["4D", "9C", "4C", "9D", "4H", "9H"][:n])}
    s = make(n=n, hands=hands, top="6S", options={"rules": rules})
    assert s.turn_limit == limit == ENG.view(s, None).turn_limit
    s.turns = limit - 1
    s, ev = act(s, "p0", {"type": "draw"})
    ended = event(ev, "deal_ended").data
    assert ended["reason"] == "turn_limit" and ended["turn_limit"] == limit and limit <= max(MAX_TURNS, 150 * n)


def test_a_shown_card_goes_back_into_held_when_there_is_room():
    """「手札同士は自由に入れ替えることが出来ます」: a face-up hand card may return to held (at most four)."""
    s = make(n=2, hands={"p0": {"held": ["4D", "KC"], "shown": ["9S", "QH"]}}, top="6H")
    s, _ = act(s, "p0", {"type": "rearrange"})
    steps = legal(s, "p0")
    assert {"type": "to_held", "card": "9S"} in steps and {"type": "to_held", "card": "QH"} in steps
    s, ev = act(s, "p0", {"type": "to_held", "card": "9S"})
    assert s.seats["p0"].held == ["4D", "KC", "9S"] and s.seats["p0"].shown == ["QH"]
    assert event(ev, "rearranged").data == {"player": "p0", "kind": "to_held"}  # 9S is secret now
    full = make(n=2, hands={"p0": {"held": ["4D", "KC", "2S", "3S"], "shown": ["9S"]}}, top="6H")
    full, _ = act(full, "p0", {"type": "rearrange"})
    assert not any(a["type"] == "to_held" for a in legal(full, "p0"))


def test_a_changed_card_goes_into_held_and_cannot_be_taken_straight_back():
    """「そのカードとAのカードを交換することが出来ます」: the card taken goes into the hand like a drawn card — held
    when it has room — so the player who lost it cannot take it straight back with the A of its suit."""
    s = make(n=2, hands={"p0": {"held": ["AH", "4D", "KC", "2S"], "shown": ["9D"]},
                         "p1": {"held": ["5C"], "shown": ["7H"]}}, top="6C")
    s, _ = act(s, "p0", {"type": "change", "card": "AH", "target": "7H", "owner": "p1"})
    assert "7H" in s.seats["p0"].held and s.seats["p1"].shown == ["AH"]
    assert not any(a["type"] == "change" and a["target"] == "7H" for a in legal(s, "p1"))
    # From shown with held full, the card lands face up (no room in held).
    s2 = make(n=2, hands={"p0": {"held": ["4D", "KC", "2S", "3S"], "shown": ["AH"]},
                          "p1": {"held": ["5C"], "shown": ["7H"]}}, top="6C")
    s2, _ = act(s2, "p0", {"type": "change", "card": "AH", "target": "7H", "owner": "p1"})
    assert s2.seats["p0"].shown == ["7H"]
    assert_conserved(s2)


def test_taking_your_own_two_may_not_draw_the_tenth_card_while_you_can_play():
    """「場に出せるカードやチェンジできるカードが手札にある状態で最上段のカード(十枚目)を引くことは出来ません」:
    drawing the two after your own 2 is a draw like any other, so at 8 cards with a playable card only
    passing the two is open."""
    hand = {"held": ["2H", "4D", "KC", "3S"], "shown": ["9S", "QC", "5C", "6C", "7H"]}
    s = make(n=2, hands={"p0": hand}, top="5H")
    s, _ = act(s, "p0", {"type": "play", "card": "2H"})
    assert legal(s, "p0") == [{"type": "pass_two"}]  # 7H matches the 2's suit
    ok = make(n=2, hands={"p0": {"held": ["2H", "4D"], "shown": ["9S"]}}, top="5H")
    ok, _ = act(ok, "p0", {"type": "play", "card": "2H"})
    assert {"type": "take_two"} in legal(ok, "p0")
    stuck = pending(make(n=2, hands={"p0": {"held": ["4D", "KC", "3S", "9S"], "shown": ["QC", "5C", "6C", "JD"]}},
                         top="2H"), "two_choice", "p0")
    assert {"type": "take_two"} in legal(stuck, "p0")  # nothing to play or change: the draw is open


@pytest.mark.parametrize(("n", "rules", "settled"), [(5, 5, True), (6, 5, True), (4, 5, False), (3, 5, False),
                                                     (6, 4, False), (5, 4, False)])
def test_at_five_and_six_seats_a_deal_without_a_winner_is_settled_by_the_field_pyramids(n, rules, settled):
    """D18, a house rule (the original does not say what ends a deal nobody can win): from rules 5 at five and six
    seats, a deal that reaches the turn limit is settled by the stones — each seat pays each other seat a point for
    every stone that seat has more; at fewer seats, and in a game stored under rules 4, it ends unpaid as before."""
    stones = [["7S", "8S", "9S"], ["7H"], [], ["7D", "8D"], ["7C"], ["8H"]][:n]
    hands = {f"p{i}": {"held": [card], "stones": stones[i]}
             for i, card in enumerate(["4D", "4C", "4H", "5D", "5C", "5H"][:n])}
    s = make(n=n, hands=hands, top="6S", options={"rules": rules})
    assert s.settled_by_stones is settled
    s.turns = s.turn_limit - 1
    s, ev = act(s, "p0", {"type": "draw"})
    ended = event(ev, "deal_ended").data
    counts = {f"p{i}": len(stones[i]) for i in range(n)}
    expected = {p: sum(counts[p] - counts[q] for q in counts) for p in counts} if settled else dict.fromkeys(counts, 0)
    assert ended["reason"] == "turn_limit" and ended["payments"] == expected
    assert sum(ended["payments"].values()) == 0 and {p: s.seats[p].points for p in counts} == expected
    lines = deal_result_lines(last_deal(s), str, "en")
    key = "twinpyramid.result.turn_limit_settled" if settled else "twinpyramid.result.turn_limit"
    assert lines[0] == t(key, "en", number=1, player="None", limit=s.turn_limit)
    assert (t("twinpyramid.result.payments", "en", payments="p0 +8, p1 -2, p2 -7, p3 +3, p4 -2")
            in lines) is (settled and n == 5)


def test_a_stored_game_of_version_4_keeps_the_deal_unpaid():
    """A six-seat game dealt by engine version 4 replays as it was played: its options read as rules 4."""
    assert ENG.stored_options({}, 4)["rules"] == 4 and "rules" not in ENG.stored_options({}, 5)
    state = ENG.new_game([f"p{i}" for i in range(6)], seed=3, options=ENG.stored_options({}, 4))
    assert not state.settled_by_stones


def test_a_first_place_shared_after_a_settled_deal_says_why():
    """D18: the result under a match whose last deal was settled by the stones, first place shared, says so (not
    that the deal ended unpaid)."""
    from bot.render.twinpyramid_events import shared_first_line

    stones = [["7S", "8S"], ["7H", "8H"], [], ["7D"], [], []]
    hands = {f"p{i}": {"held": [card], "stones": stones[i]}
             for i, card in enumerate(["4D", "4C", "4H", "5D", "5C", "5H"])}
    s = make(n=6, hands=hands, top="6S")
    s.turns = s.turn_limit - 1
    s, ev = act(s, "p0", {"type": "draw"})
    ended = event(ev, "deal_ended").data
    assert ended["payments"]["p0"] == ended["payments"]["p1"] > 0
    for lang in ("en", "ja"):
        assert shared_first_line(last_deal(s), str, lang) == t("twinpyramid.result.shared_settled", lang)
