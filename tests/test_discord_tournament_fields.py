"""Whole tournaments at the fields issue 51 names, played through Discord as an organiser and players would
(``tests/tournament_fields.py``: in every round a no-show and a drop, the others playing every move by hand, bots
filling the field), in both languages, one with a restart mid-round. Each holds: no table ever pauses; a round waits
one turn timer at most for its absent people (then bots play on at their pace); each no-show is told once, one
who does not come back is not seated in the next round, and one who presses Seat me again is (a knockout offers it
only to those who went on); the final standings have a champion and never say "still
in"; without drops, nobody reaches a final table without having played, nor has two byes.
``python -m bench.tournament_absent`` runs every field the issue names and prints the figures."""
from __future__ import annotations

from pathlib import Path

import pytest

from .discord_helpers import start_harness
from .tournament_fields import TIMER, Field, FieldRunner, Run

FIELDS = [
    Field("rocca", (2, 2), 5, 4),
    Field("rocca", (2, 2), 5, 3, drops=False),
    Field("akuma", (3, 4), 6, 5, advance=2, locale="ja"),
    Field("akuma", (3, 4), 30, 9, advance=2, locale="ja", restart_in_round=2),
    Field("akuma", (3, 4), 9, 5, format="swiss", advance=None, rounds=3, back_after=(2,)),
    Field("akuma", (3, 4), 12, 5, format="swiss_knockout", rounds=2, cut=4, advance=1, back_after=(1,)),
    Field("rocca", (2, 2), 5, 2, format="roundrobin", advance=None, locale="ja", back_after=(1, 3)),
]


async def played(tmp_path: Path, spec: Field) -> tuple[Run, FieldRunner]:
    db = tmp_path / "bot.db"
    runner = FieldRunner(await start_harness(db), db, spec)
    try:
        return await runner.run(), runner
    finally:
        await runner.h.close()


@pytest.mark.parametrize("spec", FIELDS, ids=lambda f: f.name)
async def test_a_whole_tournament_never_waits_for_its_absent_people(tmp_path: Path, spec: Field) -> None:
    run, runner = await played(tmp_path, spec)
    tn = run.tournament
    assert tn.status == "finished" and run.paused == 0
    assert run.waits and all(wait <= TIMER + 1 for wait in run.waits), run.waits
    assert run.no_shows, "nobody was a no-show"
    assert all(len(people) == len(set(people)) == 1 for people in run.no_shows.values()), run.no_shows
    assert not run.seated_while_away, run.seated_while_away
    assert not run.back_not_seated, run.back_not_seated  # Seat me again's "seated again" held
    assert "**1.**" in run.final_text and not runner.still_in_shown(run)
    if not spec.drops:  # a drop can leave only players who had a bye (5 one-on-one: three byes, then 3 left)
        assert not run.unplayed_finalists and max(run.byes.values(), default=0) <= 1, run.byes
    if spec.restart_in_round:
        assert runner.restarted
