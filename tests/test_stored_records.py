"""Games stored before the ``streams`` option (issue 55) replay exactly: the records in tests/records/ named
``<game>_v1_seed<N>.json`` were played by the normal bots on the engines of commit d9f6739 and exported as
game-record files, their final-state digest computed by that code. The option's default (``shared``) is the
original game, and it leaves both the options and the state's dump as they were, so the digest still matches."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.errors import HostError
from bot.replay import GameRecord, rebuild
from engines import get_engine
from engines.streams import STREAMS_FIELD, Streams

RECORDS_DIR = Path(__file__).parent / "records"
RECORDS = sorted(RECORDS_DIR.glob("*_v1_seed*.json"))


def test_a_record_of_every_game_with_the_option_is_here() -> None:
    assert sorted(p.name.split("_v1_")[0] for p in RECORDS) == ["akuma", "diamondbox", "pileup", "rocca"]


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_a_game_stored_before_the_option_replays_to_its_stored_final_state(path: Path) -> None:
    record = GameRecord.read(path.read_bytes())
    engine = get_engine(record.game)
    assert record.engine_version == engine.version == 1
    replay = rebuild(record)  # refused unless every logged action is legal and the final digest is the stored one
    assert len(replay) == len(record.actions) + 1
    first = json.loads(engine.dump(replay.frames[0].state))
    assert STREAMS_FIELD not in first["options"] and "own" not in first


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_the_same_log_dealt_with_per_seat_streams_is_another_game(path: Path) -> None:
    """The digest holds the option to account: the stored log read as a per-seat game is refused (Diamond Box
    plays the same game either way, and is refused only for the options its state records)."""
    record = GameRecord.read(path.read_bytes())
    per_seat = record.model_copy(update={"options": {STREAMS_FIELD: Streams.PER_SEAT.value}})
    with pytest.raises(HostError) as refused:
        rebuild(per_seat)
    assert refused.value.code == "replay_mismatch"


# Twin Pyramid took the option later (D19), on engine version 5: twinpyramid_v5_seed31.json was played by the normal
# bots on main's engines before it (commit 48ff9cd, 3 seats, options {}), twinpyramid_v5_per_seat_seed32.json on
# this option's (3 seats, streams: per_seat). Both replay to the final-state digest stored with them.
TWINPYRAMID_SHARED = RECORDS_DIR / "twinpyramid_v5_seed31.json"
TWINPYRAMID_PER_SEAT = RECORDS_DIR / "twinpyramid_v5_per_seat_seed32.json"


def test_a_twinpyramid_game_stored_before_the_option_replays_to_its_stored_final_state() -> None:
    record = GameRecord.read(TWINPYRAMID_SHARED.read_bytes())
    engine = get_engine("twinpyramid")
    assert record.engine_version == engine.version == 5 and record.options == {}
    replay = rebuild(record)
    assert len(replay) == len(record.actions) + 1
    for frame in replay.frames:
        dumped = json.loads(engine.dump(frame.state))
        assert STREAMS_FIELD not in dumped["options"] and "own" not in dumped


def test_a_per_seat_twinpyramid_game_replays_exactly_and_not_as_a_shared_one() -> None:
    record = GameRecord.read(TWINPYRAMID_PER_SEAT.read_bytes())
    engine = get_engine("twinpyramid")
    assert record.engine_version == engine.version and record.options == {STREAMS_FIELD: Streams.PER_SEAT.value}
    replay = rebuild(record)
    assert len(replay) == len(record.actions) + 1
    rebuilt = [ev for frame in replay.frames for ev in frame.events if ev.type == "reshuffled"]
    assert rebuilt and all("own_pile" in ev.data for ev in rebuilt)  # it rebuilt own piles from the discard
    assert replay.frames[-1].state.own is not None
    with pytest.raises(HostError) as refused:
        rebuild(record.model_copy(update={"options": {}}))
    assert refused.value.code == "replay_mismatch"

