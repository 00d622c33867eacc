"""A control of an earlier drawing of one's own hand view: the view was redrawn since (the table moved on), so the
click names a control its message no longer has. It is answered with the hand as it is now, in place, saying the
board moved on; nothing is played. Other clicks naming controls their message does not have keep the unknown
control's refusal (someone not seated at the table, a public message)."""
from __future__ import annotations

import random
from pathlib import Path
from typing import AsyncIterator

import pytest

from bot.policies import choose_action

from .discord_harness import Harness
from .discord_helpers import HAND_HEADER, START, board_message, dispatch_click, opens_with_line, says, start_harness
from .test_discord_faults import until
from .ui_driver import open_hand

ALICE, CAROL = 101, 103


@pytest.fixture
async def h(tmp_path: Path) -> AsyncIterator[Harness]:
    harness = await start_harness(tmp_path / "stale.db")
    yield harness
    await harness.close()


def versioned(message, table_id: int, version: int) -> list[str]:
    """The custom_ids of ``message``'s controls drawn at ``version`` of the table (action buttons, selects)."""
    return [c["custom_id"] for c in message.components
            if any(c.get("custom_id", "").startswith(f"gh:{kind}:{table_id}:{version}:") for kind in ("do", "pick"))]


async def test_a_control_of_an_earlier_drawing_answers_with_the_hand_as_it_is_now(h: Harness) -> None:
    alice, carol = h.user(ALICE, "alice"), h.user(CAROL, "carol")
    r = await h.slash(alice, "play akuma", bots=2, start="host")
    await h.click(alice, r.message, label=START)
    await h.settle()
    table = (await h.bot.service.tables_in_channel(h.channel_id))[0]  # type: ignore[attr-defined]  # GameHostBot
    assert table.user_ids_to_act() == [ALICE]
    view = await open_hand(h, alice, table)
    old = versioned(view, table.id, table.version)
    assert old, view.components
    # the table moves on without this view (alice's move made elsewhere, the bots' after it): the view is redrawn
    action = choose_action(table.engine, table.state, f"u{ALICE}", random.Random(4))
    await h.bot.service.act(table.id, ALICE, action, table.version)  # type: ignore[attr-defined]  # GameHostBot
    await until(h, lambda: table.status != "running" or table.user_ids_to_act() == [ALICE])
    await h.settle()
    assert table.status == "running" and not set(old) & {c.get("custom_id") for c in view.components}
    version, redrawn = table.version, [c.get("custom_id") for c in view.components]

    stale = dispatch_click(h, alice, view, {"custom_id": old[0]})
    await h.settle()
    assert stale.type in ("update", "deferred_update") and stale.message is not None and stale.message.id == view.id
    assert says(view.text, "error.stale") and opens_with_line(view.text, HAND_HEADER)
    assert [c.get("custom_id") for c in view.components] == redrawn and table.version == version  # nothing played
    assert not view.deleted

    # someone not seated at the table, on a view of their own: refused
    payload = dict(view.payload, id=str(int(view.payload["id"]) + 1))
    payload["interaction_metadata"] = dict(payload["interaction_metadata"], user=carol.payload)
    theirs = h.adopt(payload)
    refused = dispatch_click(h, carol, theirs, {"custom_id": old[0]})
    await h.settle()
    assert refused.ephemeral and says(refused.text, "error.unknown_control") and table.version == version
    # the same stale control on a public message: refused
    public = dispatch_click(h, alice, board_message(h, table), {"custom_id": old[0]})
    await h.settle()
    assert public.ephemeral and says(public.text, "error.unknown_control") and table.version == version
    assert not says(view.text, "error.unknown_control")
