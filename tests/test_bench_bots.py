"""``python -m bench.bots --log``: a cell stopped and resumed adds up to the same cell played in one go."""
from __future__ import annotations

import json
from pathlib import Path

from bench.bots import Matchup, run_cell

MATCHUP = Matchup(hero="normal", field="easy")


def test_a_logged_cell_resumes_where_it_stopped_and_matches_one_run(tmp_path: Path) -> None:
    log = tmp_path / "cell.jsonl"
    first = run_cell("akuma", 3, 3, 7, MATCHUP, log=log)
    assert first.games == 3 and len(log.read_text().splitlines()) == 3
    with log.open("a") as out:
        out.write('{"game": "akuma", "cut sh')  # a line cut short when the run was stopped
    resumed = run_cell("akuma", 3, 5, 7, MATCHUP, log=log)
    lines = [json.loads(line) for line in log.read_text().splitlines() if "cut sh" not in line]
    assert sorted(entry["index"] for entry in lines) == [0, 1, 2, 3, 4]  # only the two new games were played
    whole = run_cell("akuma", 3, 5, 7, MATCHUP)
    assert (resumed.games, resumed.wins, len(resumed.times)) == (whole.games, whole.wins, len(whole.times))


def test_games_of_other_settings_in_the_log_are_not_counted(tmp_path: Path) -> None:
    log = tmp_path / "cell.jsonl"
    run_cell("akuma", 3, 2, 7, MATCHUP, log=log)
    other = run_cell("akuma", 3, 2, 7, Matchup(hero="easy", field="normal"), log=log)
    assert other.games == 2 and len(log.read_text().splitlines()) == 4
    assert run_cell("akuma", 4, 1, 7, MATCHUP, log=log).games == 1 and len(log.read_text().splitlines()) == 5
