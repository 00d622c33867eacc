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


def test_per_seat_streams_are_a_cell_of_their_own(tmp_path: Path) -> None:
    """``--streams per_seat`` deals the games with the option: a log of shared games does not count for it (and
    an old log's lines, which name no streams, stay shared games)."""
    from engines.streams import Streams

    log = tmp_path / "cell.jsonl"
    run_cell("pileup", 3, 2, 7, MATCHUP, log=log)
    per_seat = Matchup(hero="normal", field="easy", streams=Streams.PER_SEAT)
    assert per_seat.options() == {"streams": "per_seat"} and MATCHUP.options() == {}
    cell = run_cell("pileup", 3, 2, 7, per_seat, log=log)
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    assert cell.games == 2 and len(lines) == 4
    assert ["streams" in entry for entry in lines] == [False, False, True, True]
    assert run_cell("pileup", 3, 2, 7, MATCHUP, log=log).games == 2 and len(log.read_text().splitlines()) == 4


def test_the_streams_bench_times_both_variants_of_every_game(capsys) -> None:
    from bench import streams

    streams.main(["--seconds", "0.02"])
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| ") and "players" not in line]
    from engines import GAMES

    assert sorted({row.split("|")[1].strip() for row in rows}) == sorted(GAMES)  # every game has per-seat streams
    for row in rows:
        ratios = [float(row.split("|")[i]) for i in (6, 9)]
        assert all(0 < r < 10 for r in ratios)
