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

RECORDS = sorted((Path(__file__).parent / "records").glob("*_v1_seed*.json"))


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
