"""Twin Pyramid's rules versions (issue 44): version 3 draws the first start player by lot and lets a joker change
with a joker; games stored by version 2 (the host started, a joker never took a joker) still replay exactly.

The records in tests/records/ were played by the normal bots on the engine of version 2 (commit 8b05383) and
exported as game-record files, their final-state digest computed by that code."""
from __future__ import annotations

from pathlib import Path

import pytest

from bot.errors import HostError
from bot.replay import GameRecord, rebuild
from engines import get_engine

from .engines.test_twinpyramid_support import legal, make

ENG = get_engine("twinpyramid")
RECORDS = sorted((Path(__file__).parent / "records").glob("twinpyramid_v2_*.json"))


def test_the_version_2_records_are_here():
    assert len(RECORDS) == 2


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_a_game_stored_by_version_2_replays_to_its_stored_final_state(path):
    record = GameRecord.read(path.read_bytes())
    assert record.engine_version == 2 and ENG.version == 5
    replay = rebuild(record)  # refused unless every logged action is legal and the final digest is the stored one
    assert len(replay) == len(record.actions) + 1
    first = replay.frames[0].state
    assert first.start == 0 and ENG.to_act(first) == ["p0"]  # version 2: the host started
    assert "rules" not in first.options and not first.joker_takes_joker


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_the_same_log_read_as_version_3_is_refused(path):
    """The version matters: read with today's options (a start drawn by lot) the log does not replay."""
    record = GameRecord.read(path.read_bytes())
    as_today = record.model_copy(update={"engine_version": ENG.version})
    with pytest.raises(HostError) as refused:
        rebuild(as_today)
    assert refused.value.code == "replay_mismatch"


def joker_changes(state, player: str) -> list[dict]:
    return [a for a in legal(state, player) if a["type"] == "change" and a["card"].startswith("X")]


def test_a_joker_may_change_with_another_players_face_up_joker():
    s = make(n=3, hands={"p0": {"held": ["X1", "4D"]}, "p1": {"shown": ["KD", "X2"]}}, top="5H")
    assert s.joker_takes_joker
    changes = joker_changes(s, "p0")
    assert {"type": "change", "card": "X1", "target": "X2", "owner": "p1"} in changes
    assert {"type": "change", "card": "X1", "target": "KD", "owner": "p1"} in changes
    s2, events = ENG.apply(s, "p0", {"type": "change", "card": "X1", "target": "X2", "owner": "p1"})
    assert s2.seats["p1"].shown == ["KD", "X1"] and "X2" in s2.seats["p0"].held
    assert next(e for e in events if e.type == "changed").data["mode"] == "change"


def test_a_joker_may_change_with_a_joker_on_top_of_the_discard_and_name_a_suit():
    s = make(n=3, hands={"p0": {"held": ["X1", "4D"]}}, top="X2", top_suit="D", wild=("p0", "D", False))
    assert {"type": "change", "card": "X1", "target": "X2", "owner": None} in joker_changes(s, "p0")
    s2, _ = ENG.apply(s, "p0", {"type": "change", "card": "X1", "target": "X2", "owner": None})
    assert s2.top() == "X1" and s2.pending is not None and s2.pending.kind == "name_suit"


def test_rules_2_keep_a_joker_from_taking_a_joker():
    s = make(n=3, hands={"p0": {"held": ["X1", "4D"]}, "p1": {"shown": ["KD", "X2"]}}, top="5H",
             options={"rules": 2})
    assert not s.joker_takes_joker
    assert [a["target"] for a in joker_changes(s, "p0")] == ["5H", "KD"]


def test_an_a_never_takes_a_joker():
    s = make(n=3, hands={"p0": {"held": ["AD", "4C"]}, "p1": {"shown": ["KD", "X2"]}}, top="5H")
    assert [(a["card"], a["target"]) for a in legal(s, "p0") if a["type"] == "change"] == [("AD", "KD")]


V4_RECORD = Path(__file__).parent / "records" / "twinpyramid_v4_6seats.json"
"""A six-seat game of one deal played by the normal bots on engine version 4 (the commit before version 5), to its
turn limit, exported as a game-record file, its final-state digest computed by that code."""


def test_a_six_seat_game_stored_by_version_4_replays_unpaid_and_version_5_would_settle_it():
    """D18 changes how a six-seat deal without a winner ends; a game stored before it replays exactly as it was
    played (everyone at 0), while the same log read as version 5 ends settled by the stones — another final state,
    so it is refused."""
    record = GameRecord.read(V4_RECORD.read_bytes())
    assert record.engine_version == 4 and len(record.players) == 6
    replay = rebuild(record)
    final = replay.frames[-1].state
    assert final.last_deal.reason == "turn_limit" and not any(final.last_deal.payments.values())
    assert not final.settled_by_stones and {seat.points for seat in final.seats.values()} == {0}
    with pytest.raises(HostError) as refused:
        rebuild(record.model_copy(update={"engine_version": ENG.version}))
    assert refused.value.code == "replay_mismatch"
