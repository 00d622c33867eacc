"""Points by placing (ties share), standings and tie-breakers against hand-computed numbers."""
from __future__ import annotations

from bot.tournaments import Entrant, Tournament, TournamentTable, compute_standings, place_points, ranking_points
from bot.tournaments.models import EntrantStatus, TableStatus, TournamentStatus
from bot.tournaments.text import standing_lines


def test_points_by_placing_are_the_same_scale_at_every_table_size() -> None:
    assert [place_points(4, p) for p in (1, 2, 3, 4)] == [3, 2, 1, 0]
    assert [place_points(3, p) for p in (1, 2, 3)] == [3, 1.5, 0]
    assert [place_points(2, p) for p in (1, 2)] == [3, 0]


def test_tied_players_share_the_points_of_the_places_they_cover() -> None:
    assert ranking_points([[1], [2, 3], [4]]) == {1: (1, 3), 2: (2, 1.5), 3: (2, 1.5), 4: (4, 0)}
    assert ranking_points([[1, 2], [3]]) == {1: (1, 2.25), 2: (1, 2.25), 3: (3, 0)}
    assert ranking_points([[1, 2, 3]]) == {1: (1, 1.5), 2: (1, 1.5), 3: (1, 1.5)}


def table(round_: int, number: int, ranking: list[list[int]], status: str = "finished") -> TournamentTable:
    players = [p for group in ranking for p in group]
    return TournamentTable(0, round_, number, players, status, results=ranking_points(ranking))


def test_standings_with_ties_and_tie_breakers() -> None:
    tn = Tournament(1, 1, 10, 99, "akuma", "swiss", 2, 2, 3, seed=0)
    for uid in range(1, 9):
        tn.entrants[uid] = Entrant(uid, f"P{uid}", seq=uid)
    tn.tables = [
        table(1, 1, [[1], [2], [3]]),          # 1: 3, 2: 1.5, 3: 0
        table(1, 2, [[5], [4]]),               # 5: 3, 4: 0
        TournamentTable(0, 1, 3, [6], "bye", results={6: (1, 1.5)}),
        TournamentTable(0, 1, 4, [7], "bye", results={7: (1, 1.5)}),
        TournamentTable(0, 1, 5, [8], "bye", results={8: (1, 1.5)}),
        table(2, 1, [[4], [1, 5]]),            # 4: 3; 1 and 5 tie for 2nd: (1.5 + 0) / 2 each
        table(2, 2, [[2, 3]]),                 # a tie for first at two seats: 1.5 each
        table(2, 3, [[6], [7]], status="void"),  # a voided table counts for nothing
    ]
    ratings = {6: 10.0, 7: 5.0, 8: 5.0}
    rows = compute_standings(tn, ratings)
    by_id = {r.user_id: r for r in rows}
    # Points: 1 = 3 + .75, 5 = 3 + .75, 4 = 0 + 3, 2 = 1.5 + 1.5, 3 = 0 + 1.5, byes 1.5.
    assert {u: by_id[u].points for u in by_id} == {1: 3.75, 2: 3.0, 3: 1.5, 4: 3.0, 5: 3.75, 6: 1.5, 7: 1.5,
                                                     8: 1.5}
    # Opponents' points: mean over opponents met. 1 met 2, 3, 4, 5 -> (3 + 1.5 + 3 + 3.75) / 4.
    assert by_id[1].opp_points == 11.25 / 4
    assert by_id[5].opp_points == (3 + 3.75 + 3) / 3     # met 4, then 1 and 4
    assert by_id[4].opp_points == 3.75                   # met 5, then 1 and 5
    assert by_id[2].opp_points == (3.75 + 1.5 + 1.5) / 3  # met 1 and 3, then 3
    assert by_id[3].opp_points == (3.75 + 3 + 3) / 3
    assert by_id[6].opp_points == 0 and by_id[6].byes == 1 and by_id[6].games == 0
    # 5 and 1 tie on points: opponents' points decide; 4 and 2 likewise; 6/7/8 tie on both: rating decides,
    # 7 and 8 are equal on everything and share a place.
    assert [r.user_id for r in rows] == [5, 1, 4, 2, 3, 6, 7, 8]
    assert [r.place for r in rows] == [1, 2, 3, 4, 5, 6, 7, 7]
    assert by_id[1].wins == 1 and by_id[1].games == 2


def test_final_table_decides_the_top_places() -> None:
    tn = Tournament(1, 1, 10, 99, "akuma", "swiss", 1, 3, 3, seed=0, final_table=True)
    for uid in range(1, 7):
        tn.entrants[uid] = Entrant(uid, f"P{uid}", seq=uid)
    tn.tables = [table(1, 1, [[1], [2], [3]]), table(1, 2, [[4], [5], [6]]),
                 table(2, 1, [[2], [4, 1]])]      # the final: 2 wins, 4 and 1 share second
    rows = compute_standings(tn)
    assert [r.user_id for r in rows[:3]] == [2, 1, 4]  # 1 before 4 on the Swiss standings (seq)
    assert [r.place for r in rows] == [1, 2, 2, 4, 5, 5] or [r.place for r in rows][:3] == [1, 2, 2]
    assert {r.user_id for r in rows[3:]} == {3, 5, 6}


def test_points_break_down_into_games_byes_and_forfeits() -> None:
    """A shared first is not a win; a bye shows as a bye; a seat a bot played after its person dropped is a
    forfeit: last place, no points, not a game played. Each row's parts add up to its points."""
    tn = Tournament(1, 1, 10, 99, "akuma", "swiss", 3, 3, 3, seed=0)
    for uid in range(1, 5):
        tn.entrants[uid] = Entrant(uid, f"P{uid}", seq=uid)
    tn.entrants[4].status = EntrantStatus.DROPPED
    forfeited = table(2, 1, [[1], [2], [4]])
    forfeited.results[4], forfeited.forfeits = (3, 0.0), {4}
    tn.tables = [table(1, 1, [[1, 2], [3]]),   # 1 and 2 share first: 2.25 each, neither wins
                 TournamentTable(0, 1, 2, [4], "bye", results={4: (1, 1.5)}),
                 forfeited,                      # 1: 3, 2: 1.5, 4: forfeit
                 TournamentTable(0, 2, 2, [3], "bye", results={3: (1, 1.5)})]
    by_id = {r.user_id: r for r in compute_standings(tn)}
    assert (by_id[1].wins, by_id[1].games, by_id[1].points) == (1, 2, 5.25)
    assert (by_id[2].wins, by_id[2].games, by_id[2].points) == (0, 2, 3.75)
    assert (by_id[3].games, by_id[3].byes, by_id[3].bye_points, by_id[3].points) == (1, 1, 1.5, 1.5)
    assert (by_id[4].games, by_id[4].forfeits, by_id[4].byes, by_id[4].points) == (0, 1, 1, 1.5)
    assert all(r.points == r.game_points + r.bye_points for r in by_id.values())
    lines = standing_lines(tn, compute_standings(tn), "en")
    assert any("<@4> — 1.5 points (0 from 0 games, 0 wins + 1.5 from 1 bye + 0 from 1 forfeit)" in line
               and "(dropped)" in line for line in lines)
    assert any("<@2> — 3.75 points (3.75 from 2 games, 0 wins)" in line for line in lines)
    ja = standing_lines(tn, compute_standings(tn), "ja")
    assert any("不戦 1 回で 1.5 点" in line and "没収 1 回で 0 点" in line for line in ja)


def test_the_sign_up_text_follows_the_tournament_in_both_languages() -> None:
    from bot.tournaments.text import break_text, signup_lines

    tn = Tournament(1, 1, 10, 99, "akuma", "swiss", 3, 3, 3, seed=0)
    tn.entrants = {5: Entrant(5, "P5", seq=1, status="dropped"), 6: Entrant(6, "P6", seq=2)}
    tn.status, tn.current_round, tn.next_round_at = TournamentStatus.RUNNING, 1, 1_800_000_000.0
    en, ja = signup_lines(tn, "en"), signup_lines(tn, "ja")
    assert "tables of 3" in en[0] and "3–3" not in en[0] and "卓は 3 人" in ja[0]
    assert "round 2 starts <t:1800000000:R>" in en[1] and "<t:1800000000:R>" in ja[1]
    assert "❌ <@5>" in "\n".join(en) and "• <@6>" in "\n".join(en)
    assert "<t:1800000000:R>" in break_text(tn, "ja") and "/tournament drop" in break_text(tn, "ja")
    tn.next_round_at = None
    assert "Round 1 of 3 is being played." in signup_lines(tn, "en")[1]
    assert "第 1 / 3 ラウンドを対戦中" in signup_lines(tn, "ja")[1]
    tn.status = TournamentStatus.CANCELLED
    assert signup_lines(tn, "en")[1] == "Cancelled." and signup_lines(tn, "ja")[1] == "中止されました。"


def test_final_table_lines_lead_with_the_final_place() -> None:
    """The final table decides the top places: each finalist's line says their place there first and their points
    before it after (3rd may have more points than 2nd), in both languages; the others keep the usual line."""
    from bot.i18n import t

    tn = Tournament(1, 1, 10, 99, "akuma", "swiss", 1, 2, 3, seed=0, final_table=True, status="finished")
    for uid in range(1, 6):
        tn.entrants[uid] = Entrant(uid, f"P{uid}", seq=uid)
    tn.tables = [table(1, 1, [[1], [2], [3]]), table(1, 2, [[4], [5]]), table(2, 1, [[3], [2], [1]])]
    rows = compute_standings(tn)
    assert [(r.user_id, r.final_place) for r in rows[:3]] == [(3, 1), (2, 2), (1, 3)]
    for lang in ("en", "ja"):
        lines = standing_lines(tn, rows, lang)
        first = t("tournament.final_line", lang, place=1, name="<@3>", final=1, points="0",
                  breakdown=t("tournament.points_games", lang, points="0", games=1, wins=0), dropped="")
        assert lines[0] == first
        third = t("tournament.final_line", lang, place=3, name="<@1>", final=3, points="3",
                  breakdown=t("tournament.points_games", lang, points="3", games=1, wins=1), dropped="")
        assert lines[2] == third
        assert lines[3] == t("tournament.standing_line", lang, place=4, name="<@4>", points="3",
                             breakdown=t("tournament.points_games", lang, points="3", games=1, wins=1), opp="0",
                             dropped="")


def test_a_bye_scores_once_its_round_is_over_and_no_standings_are_after_round_0() -> None:
    """Issue 51: the standings posted at the start said "after round 0" with the bye's 1.5 points already counted,
    so its holder led before any game. While round 1 is played they say so, and a bye counts at its round's end."""
    from bot.i18n import t
    from bot.tournaments.text import standings_title

    tn = Tournament(1, 1, 10, 99, "rocca", "swiss", 3, 2, 2, seed=0)
    for uid in (1, 2, 3):
        tn.entrants[uid] = Entrant(uid, f"P{uid}", seq=uid)
    game = TournamentTable(0, 1, 1, [1, 2], TableStatus.RUNNING)
    tn.tables = [game, TournamentTable(0, 1, 2, [3], TableStatus.BYE, results={3: (1, 1.5)})]
    tn.current_round, tn.status = 1, TournamentStatus.RUNNING
    rows = {row.user_id: row for row in compute_standings(tn)}
    assert (rows[3].points, rows[3].byes) == (0, 0) and {row.place for row in rows.values()} == {1}
    name = t("tournament.default_name", "en", game=t("game.rocca.name", "en"))
    assert standings_title(tn, "en") == t("tournament.standings_title_first", "en", name=name, rounds=3)
    game.status, game.results = TableStatus.FINISHED, ranking_points([[1], [2]])
    rows = {row.user_id: row for row in compute_standings(tn)}
    assert [rows[u].points for u in (1, 2, 3)] == [3, 0, 1.5] and rows[3].byes == 1
    assert standings_title(tn, "en") == t("tournament.standings_title", "en", name=name, round=1, rounds=3)
