"""The knockout planner as properties (issues 43 and 51), over every field of 2–64 and the table sizes games use: each
round seats the whole field within the sizes, the top ``advance`` of each table (and the byes) make the next field,
which is smaller (about ``advance / size`` of it); exactly one final table, last; byes as power-of-two brackets lay
them out (only when needed, all in round 1, to the best seeds, a round before the final table), checked against a
brute force and by playing whole knockouts out. Then a knockout's places and bracket text from crafted results."""
from __future__ import annotations

import random
from collections import Counter
from itertools import product

import pytest

from bot.i18n import t
from bot.tournaments import Entrant, Tournament, TournamentTable, compute_standings, ranking_points
from bot.tournaments.knockout import KnockoutRound, plan, seat_round, snake
from bot.tournaments.knockout_text import knockout_lines
from bot.tournaments.models import Format

SIZES = [(2, 2), (3, 4), (4, 4), (2, 4), (3, 5), (4, 6), (5, 5)]
CASES = [(n, lo, hi, k) for (lo, hi), n in product(SIZES, range(2, 65)) for k in range(1, lo)]


def reaches_final(count: int, lo: int, hi: int, k: int) -> bool:
    """Brute force, independent of the planner's order of search: can a field of ``count`` reach one final
    table by rounds of tables within ``lo..hi`` (any sizes, not only balanced ones) plus byes?"""
    seen: dict[int, bool] = {}

    def can(n: int) -> bool:
        if lo <= n <= hi:
            return True
        if n in seen:
            return seen[n]
        seen[n] = False
        ok = any(can(tables * k + byes) for byes in range(n) for tables in range(1, n // lo + 1)
                 if tables * lo <= n - byes <= tables * hi and tables * k + byes < n)
        seen[n] = ok
        return ok
    return can(count)


@pytest.mark.parametrize(("lo", "hi"), SIZES)
def test_every_round_shrinks_the_field_to_exactly_one_final_table(lo: int, hi: int) -> None:
    for n, k in product(range(2, 65), range(1, lo)):
        rounds = plan(n, lo, hi, k)
        assert (rounds is not None) == reaches_final(n, lo, hi, k), (n, lo, hi, k)
        if rounds is None:
            continue
        field = n
        for i, rnd in enumerate(rounds):
            assert sum(rnd.sizes) + rnd.byes == field
            assert all(lo <= size <= hi for size in rnd.sizes) and max(rnd.sizes) - min(rnd.sizes) <= 1
            assert rnd.final == (i == len(rounds) - 1), (n, lo, hi, k, rounds)  # one final table, the last round
            if not rnd.final:
                going_on = len(rnd.sizes) * k + rnd.byes
                assert going_on < field
                if not rnd.byes:  # about advance / size of the field goes on ("halves" at 2 of 4)
                    assert going_on <= field * k / lo
                field = going_on
        assert len(rounds[-1].sizes) == 1 and lo <= rounds[-1].sizes[0] <= hi


def bye_free(count: int, lo: int, hi: int, k: int) -> bool:
    """Brute force: can a field of ``count`` reach one final table with no bye in any round?"""
    if lo <= count <= hi:
        return True
    return any(bye_free(tables * k, lo, hi, k) for tables in range(2, count // lo + 1)
               if tables * lo <= count <= tables * hi and tables * k < count)


def bye_free_rounds(count: int, lo: int, hi: int, k: int) -> set[int]:
    """Brute force: the lengths (rounds, the final table included) of every bye-free way to one final table."""
    if lo <= count <= hi:
        return {1}
    return {1 + r for tables in range(2, count // lo + 1) if tables * lo <= count <= tables * hi and tables * k < count
            for r in bye_free_rounds(tables * k, lo, hi, k)}


def round_one_byes(count: int, lo: int, hi: int, k: int) -> list[tuple[int, int]]:
    """Brute force: ``(byes, rounds after round 1)`` of every round 1 with byes from which the rest needs none."""
    out = []
    for byes in range(1, count):
        for tables in range(1, (count - byes) // lo + 1):
            nxt = tables * k + byes
            if tables * lo <= count - byes <= tables * hi and nxt < count:
                out += [(byes, r) for r in bye_free_rounds(nxt, lo, hi, k)]
    return out


@pytest.mark.parametrize(("lo", "hi"), SIZES)
def test_byes_as_organisers_know_them_all_in_round_one_and_never_straight_into_the_final(lo: int, hi: int) -> None:
    """Issue 51: no byes when a plan without any exists; else byes only in round 1 (so one each at most), with a
    round between them and the final table (so nobody reaches it without having played), fewest byes first;
    only when no such plan exists, round-1 byes straight into the final table (fewest); only when none of that
    exists, byes in later rounds."""
    for n, k in product(range(2, 65), range(1, lo)):
        rounds = plan(n, lo, hi, k)
        if rounds is None:
            continue
        later_byes = [r.byes for r in rounds[1:]]
        if bye_free(n, lo, hi, k):
            assert not rounds[0].byes and not any(later_byes), (n, lo, hi, k, rounds)
            continue
        options = round_one_byes(n, lo, hi, k)
        played_first = [byes for byes, after in options if after >= 2]
        if played_first:
            assert not any(later_byes) and len(rounds) >= 3, (n, lo, hi, k, rounds)
            assert rounds[0].byes == min(played_first), (n, lo, hi, k, rounds)
        elif options:
            assert not any(later_byes) and rounds[0].byes == min(b for b, _ in options), (n, lo, hi, k, rounds)


def play_out(n: int, lo: int, hi: int, k: int, seed: int, *,
             drops: bool = False) -> tuple[dict[int, int], set[int], list[int]]:
    """A whole knockout by seat_round with random places (and, with ``drops``, one of those going on dropping after
    every round): (byes per entrant, who had played, the final table; [] when drops left too few for one)."""
    rng = random.Random(seed)
    field, byes_had, played, last = list(range(n)), Counter[int](), set[int](), frozenset[int]()
    for _ in range(20):
        seated = seat_round(field, lo, hi, k, byes_had=byes_had, last_byes=last,
                            played=frozenset(played) if byes_had or played else None)
        if seated is None:
            return dict(byes_had), played, []
        tables, byes = seated
        if len(tables) == 1 and not byes:
            return dict(byes_had), played, tables[0]
        byes_had.update(byes)
        last = frozenset(byes)
        winners = []
        for table in tables:
            played.update(table)
            winners += rng.sample(table, k)  # the top k, in any order
        field = byes + sorted(winners)  # the byes first, as knockout_field seeds them
        if drops and len(field) > 2:
            field.remove(rng.choice(field))
    raise AssertionError("no final")


@pytest.mark.parametrize(("n", "lo", "hi", "k", "most"), [(n, 2, 2, 1, 2) for n in (5, 7, 9, 12, 17, 33)]
                         + [(n, 3, 4, 2, 1) for n in (6, 9, 12, 30)])
def test_a_drop_every_round_gives_nobody_more_than_two_byes(n: int, lo: int, hi: int, k: int, most: int) -> None:
    """Drops make later fields odd (one-on-one, after round 1's byes, every time): their byes go to whoever had the
    fewest and not the round before, so one-on-one nobody has more than two, at 3–4 seats (top 2) more than one."""
    for seed in range(100):
        byes, _, _ = play_out(n, lo, hi, k, seed, drops=True)
        assert max(byes.values(), default=0) <= most, (n, seed, byes)


@pytest.mark.parametrize("n", [5, 7, 9, 10, 11, 12, 13, 17, 20, 33])
def test_one_on_one_knockouts_give_one_bye_each_at_most_and_no_unplayed_finalist(n: int) -> None:
    """The fields of issue 51 (and power-of-two misses): however the games go, nobody gets a second bye and both
    finalists have played before the final."""
    for seed in range(20):
        byes, played, final = play_out(n, 2, 2, 1, seed)
        assert max(byes.values(), default=0) <= 1 and set(final) <= played, (n, seed, byes, final)
        assert sum(byes.values()) == (1 << (n - 1).bit_length()) - n  # a power-of-two bracket's byes


@pytest.mark.parametrize(("n", "k"), [(6, 2), (9, 1), (9, 2), (12, 1), (12, 2), (17, 1), (20, 1), (30, 1), (30, 2)])
def test_knockouts_at_three_to_four_seats_give_one_bye_each_at_most(n: int, k: int) -> None:
    for seed in range(20):
        byes, played, final = play_out(n, 3, 4, k, seed)
        assert max(byes.values(), default=0) <= 1 and set(final) <= played, (n, k, seed, byes, final)


def test_a_round_seats_everyone_once_and_the_best_seeds_get_the_byes() -> None:
    for n, lo, hi, k in CASES:
        order = list(range(100, 100 + n))
        seated = seat_round(order, lo, hi, k)
        rounds = plan(n, lo, hi, k)
        if rounds is None:
            continue
        assert seated is not None
        tables, byes = seated
        assert byes == order[:rounds[0].byes]
        assert sorted(p for tb in tables for p in tb) + byes == sorted(order[len(byes):]) + byes
        assert [len(tb) for tb in tables] == list(rounds[0].sizes)
        assert tables[0][0] == order[len(byes)]  # the best seed seated leads table 1


def test_snake_deals_seeds_back_and_forth() -> None:
    assert snake(list(range(11)), (4, 4, 3)) == [[0, 5, 6, 10], [1, 4, 7, 9], [2, 3, 8]]


def test_an_impossible_field_has_no_plan() -> None:
    assert plan(5, 4, 4, 1) is None  # one table of 4 and a bye leave 2: no table of 4 can follow
    assert plan(8, 3, 4, 1) == (KnockoutRound((4, 3), 1), KnockoutRound((3,), 0))  # a bye makes a final of 3


def knockout(n: int = 7) -> Tournament:
    tn = Tournament(1, 1, 1, 1, "akuma", Format.KNOCKOUT, 2, 3, 4, 0, advance=1, status="finished")
    tn.entrants = {-i: Entrant(-i, f"Bot {i}", True, seq=i) for i in range(1, n + 1)}
    return tn


def table(tn: Tournament, rnd: int, number: int, ranking: list[list[int]], status: str = "finished") -> None:
    players = [u for group in ranking for u in group]
    results = ranking_points(ranking) if status == "finished" else {}
    tn.tables.append(TournamentTable(len(tn.tables) + 1, rnd, number, players, status, results=results))


def test_places_final_table_first_then_by_the_round_and_place_they_went_out() -> None:
    tn = knockout(7)
    table(tn, 1, 1, [[-1], [-2], [-3], [-4]])
    table(tn, 1, 2, [[-5], [-6, -7]])
    tn.tables.append(TournamentTable(3, 1, 3, [-8], "bye", results={-8: (1, 1.5)}))
    tn.entrants[-8] = Entrant(-8, "Bot 8", True, seq=8)
    table(tn, 2, 1, [[-5], [-8], [-1]])
    tn.current_round = 2
    rows = compute_standings(tn)
    assert [(r.user_id, r.place) for r in rows] == [
        (-5, 1), (-8, 2), (-1, 3),            # the final table's places
        (-2, 4), (-6, 4), (-7, 4),  # out in round 1 at second place (a tie at a table shares it too)
        (-3, 7), (-4, 8)]
    lines = knockout_lines(tn, rows, "ja")
    assert t("tournament.knockout_out_line", "ja", place=4, name="Bot 6", round=1, table_place=2, table=2,
             dropped="") in lines
    assert t("tournament.knockout_final_line", "ja", place=1, name="Bot 5", final=1, dropped="") in lines
    assert t("tournament.bracket_final", "ja", round=2) in lines
    assert t("tournament.bracket_bye", "ja", name="Bot 8") in lines
    placed = "、".join(t("tournament.bracket_placed", "ja", place=p, name=f"Bot {b}")  # Japanese lists with 「、」
                      for p, b in ((1, 5), (2, 6), (2, 7)))
    assert t("tournament.bracket_table", "ja", number=2, players=placed, advanced="Bot 5") in lines


def test_while_a_round_is_played_those_still_in_lead() -> None:
    tn = knockout(7)
    table(tn, 1, 1, [[-1], [-2], [-3], [-4]])
    tn.tables.append(TournamentTable(2, 1, 2, [-5, -6, -7], "running"))
    tn.current_round, tn.status = 1, "running"
    rows = compute_standings(tn)
    assert {r.user_id for r in rows[:4]} == {-1, -5, -6, -7} and all(r.out_round is None for r in rows[:4])
    assert [(r.user_id, r.place) for r in rows[4:]] == [(-2, 5), (-3, 6), (-4, 7)]  # behind the four still in


def test_a_cancelled_table_places_its_players_by_seed_and_says_so() -> None:
    tn = knockout(7)
    table(tn, 1, 1, [[-1], [-2], [-3], [-4]])
    table(tn, 1, 2, [[-5], [-6], [-7]], status="cancelled")  # the organiser moved on: its best seed goes on
    table(tn, 2, 1, [[-1], [-5]], status="cancelled")  # ... and the final table too
    tn.current_round = 2
    rows = compute_standings(tn)
    assert [(r.user_id, r.place) for r in rows] == [(-1, 1), (-5, 2), (-2, 3), (-6, 3), (-3, 5), (-7, 5), (-4, 7)]
    lines = knockout_lines(tn, rows, "en")
    assert t("tournament.knockout_final_seeded_line", "en", place=2, name="Bot 5", dropped="") in lines
    assert t("tournament.knockout_out_seeded_line", "en", place=3, name="Bot 6", round=1, table=2, dropped="") in lines
    assert t("tournament.knockout_out_line", "en", place=3, name="Bot 2", round=1, table_place=2, table=1,
             dropped="") in lines
    assert not any(line.startswith(t("tournament.knockout_final_line", "en", place=1, name="Bot 1", final=1,
                                     dropped="")) for line in lines)


def test_moving_on_during_a_knockout_round_says_the_best_seeds_go_on() -> None:
    from cogs.tournament_controls import next_round_question

    tn = knockout(7)
    tn.status, tn.current_round = "running", 1
    tn.tables.append(TournamentTable(1, 1, 1, [-1, -2, -3, -4], "running", channel_id=55))
    question = next_round_question(tn, "en")
    assert question.startswith(t("tournament.next_round_confirm_knockout", "en", round=1, count=1, tables="<#55>",
                                 then="")[:-1])


def test_a_tie_for_first_at_the_final_table_makes_co_champions() -> None:
    """Issue 51's tie rule, as the round calls say it: two tied first at the final table share first place, whatever
    their points before it."""
    tn = knockout(7)
    table(tn, 1, 1, [[-1], [-2], [-3]])
    table(tn, 1, 2, [[-4, -5], [-6]])  # a tie for first: the better seed, -4, goes on
    tn.tables.append(TournamentTable(3, 1, 3, [-7], "bye", results={-7: (1, 1.5)}))
    table(tn, 2, 1, [[-1, -4], [-7]])
    tn.current_round = 2
    rows = compute_standings(tn)
    assert rows[0].points != rows[1].points  # not the same points before the final
    assert sorted((r.user_id, r.place) for r in rows[:3]) == [(-7, 3), (-4, 1), (-1, 1)]
