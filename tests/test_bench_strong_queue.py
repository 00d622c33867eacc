"""``python -m bench.strong_queue`` and ``python -m bench.search_speed``: they print a row per measured case and refuse
bad flags with argparse's message."""
from __future__ import annotations

import pytest

from bench import search_speed, strong_queue


def test_strong_queue_prints_a_row_per_burst_size(capsys: pytest.CaptureFixture[str]) -> None:
    strong_queue.main(["--burst", "1", "--burst", "2", "--rounds", "1"])
    rows = capsys.readouterr().out.splitlines()[2:]
    assert [row.split()[:2] for row in rows] == [["1", "1"], ["2", "2"]]  # how many fell back is its figure


def test_search_speed_prints_a_playout_and_a_decision_row(capsys: pytest.CaptureFixture[str]) -> None:
    search_speed.main(["--game", "akuma", "--players", "3", "--positions", "2", "--iterations", "6"])
    out = capsys.readouterr().out.splitlines()
    assert [line.split()[:3] for line in out] == [["akuma", "3p", "playout"], ["akuma", "3p", "decision"]]


@pytest.mark.parametrize("main, flags", [
    (strong_queue.main, ["--burst", "0"]), (strong_queue.main, ["--workers", "0"]),
    (search_speed.main, ["--game", "akuma", "--players", "2"]), (search_speed.main, ["--game", "pileup"]),
    (search_speed.main, ["--game", "rocca", "--iterations", "0"]),
])
def test_bad_flags_are_refused_with_a_message(main, flags: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(flags)
    assert "error: " in capsys.readouterr().err
