"""``/tournament create`` and ``/config limits`` are generated from their models (issue 43), as ``/play`` is from the
games' options models: each option is a field, in the model's order, its range the field's bounds (a server cap's
from the one ``Limits`` model), its default the field's, its choices from the field's type; what Discord is sent
is checked, not the code that builds it."""
from __future__ import annotations

from pathlib import Path

from bot.limits import BOUNDS, Cap, Limits
from bot.tournaments.models import Format
from bot.tournaments.settings import TournamentSettings

from .discord_helpers import start_harness


def options(tree, group: str, command: str) -> dict[str, dict]:
    payload = tree.get_command(group).to_dict(tree)
    sub = next(o for o in payload["options"] if o["name"] == command)
    return {o["name"]: o for o in sub["options"]}


async def test_the_commands_follow_their_models(tmp_path: Path) -> None:
    h = await start_harness(tmp_path / "bot.db")
    try:
        limits = options(h.bot.tree, "config", "limits")
        assert list(limits) == [cap.value for cap in Cap]
        for cap in Cap:
            low, high = BOUNDS[cap]
            assert (limits[cap.value]["min_value"], limits[cap.value]["max_value"]) == (low, high)
            assert not limits[cap.value]["required"]  # left out: unchanged
            assert low <= Limits().cap(cap) <= high

        create = options(h.bot.tree, "tournament", "create")
        assert list(create) == list(TournamentSettings.model_fields)
        assert [name for name, o in create.items() if o["required"]] == ["game"]
        assert create["bots"]["max_value"] == BOUNDS[Cap.TOURNAMENT_BOTS][1]  # the most a server may allow
        assert create["rounds"]["max_value"] == BOUNDS[Cap.TOURNAMENT_ROUNDS][1]
        assert [c["value"] for c in create["format"]["choices"]] == [f.value for f in Format]
        assert [c["name"] for c in create["first_round"]["choices"]] == ["random", "by rating"]
        assert {c["value"] for c in create["bot_level"]["choices"]} == {"easy", "normal", "strong"}
        assert create["timer"]["type"] == 4 and create["final_table"]["type"] == 5 and create["name"]["type"] == 3
    finally:
        await h.close()
