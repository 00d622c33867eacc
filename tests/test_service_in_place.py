"""The service changes a table's state in place (``Engine.apply_in_place``, issue 45): bad input still changes
nothing, a failed commit takes the stored state back, and what still holds an earlier state (an ``Update``'s
spectator view, a move waiting for the lock) never sees it change. A real SQLite file; every game."""
from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.errors import HostError
from bot.service import GameService
from bot.storage import Storage
from bot.table import Table
from engines import GAMES, Action, EngineError

STEPS = 80  # moves per game: enough to reach most kinds of decision of every game


@pytest.fixture
async def service(db_path: Path) -> AsyncIterator[GameService]:
    storage = await Storage.open(db_path)
    yield GameService(storage)
    await storage.close()


async def bots_table(service: GameService, game: str, seed: int) -> Table:
    """A table of bot seats, moved here by hand (no scheduler runs)."""
    return await service.create_bot_table(game=game, players=3, seed=seed, channel_id=seed)


def stored(table: Table) -> tuple[str, int]:
    """The table's state as a dump, and its version (what a refused move must leave as it was)."""
    return table.engine.dump(table.state), table.version


async def refused(service: GameService, table: Table, player: str, action: Action | dict[str, Any]) -> None:
    before = stored(table)
    with pytest.raises((EngineError, HostError)):
        await service.act_as(table.id, player, action, table.version)
    assert stored(table) == before, f"{action!r} by {player} was refused but changed the table"
    assert table.row.state == before[0]  # the text stored for it, kept beside it


@pytest.mark.parametrize("game", GAMES)
async def test_refused_moves_change_nothing(service: GameService, game: str) -> None:
    """Moves that were legal earlier in the game but are not now (each game's transitions check them at
    different points, some after a first change), another seat's move, a seat that is not at the table and a
    malformed action are refused, and the table's state is exactly as before; the legal moves then play on."""
    table = await bots_table(service, game, 3)
    rng = random.Random(game)
    seen: list[Action] = []
    refusals = 0
    for _ in range(STEPS):
        if table.status != "running":
            break
        player = table.to_act()[0]
        legal = table.engine.legal_actions(table.state, player)
        stale = [a for a in seen if a not in legal]
        for action in rng.sample(stale, min(4, len(stale))):
            await refused(service, table, player, action)
            refusals += 1
        waiting = next((p for p in table.state.players if p not in table.to_act()
                        and not table.engine.out_of_turn_actions(table.state, p)), None)
        if waiting is not None:
            await refused(service, table, waiting, legal[0])
        await refused(service, table, "nobody", legal[0])
        await refused(service, table, player, {"type": "no-such-action"})
        seen.extend(a for a in legal if a not in seen)
        await service.act_as(table.id, player, rng.choice(legal), table.version)
        assert table.row.state == table.engine.dump(table.state)
    assert refusals > 20
    await service.drain()


@pytest.mark.parametrize("game", GAMES)
async def test_a_failed_commit_takes_the_stored_state_back(service: GameService, game: str) -> None:
    """Another process changed the game meanwhile: the move, already applied to the table's state, is refused at
    the commit as stale, and the table's state is the stored one again."""
    table = await bots_table(service, game, 4)
    player = table.to_act()[0]
    action = table.engine.legal_actions(table.state, player)[0]
    before = stored(table)
    await service.storage.update_game(table.id, expected_version=table.version, bump=True)  # the other process
    with pytest.raises(HostError) as refusal:
        await service.act_as(table.id, player, action, table.version)
    assert refusal.value.code == "stale"
    assert stored(table) == before and not table.moving  # given up: the table's own state is the stored one
    await service.drain()


@pytest.mark.parametrize("game", GAMES)
async def test_an_update_keeps_the_state_it_announced(service: GameService, game: str) -> None:
    """An update's spectator view, read after later moves changed the table's state in place, still shows the
    state right after its own change."""
    table = await bots_table(service, game, 5)
    rng = random.Random(5)
    updates = []
    for _ in range(6):
        player = table.to_act()[0]
        update = await service.act_as(table.id, player, rng.choice(table.engine.legal_actions(table.state, player)),
                                      table.version)
        updates.append((update, table.engine.view(table.state, None).model_dump_json()))
    for update, shown in updates:
        assert update.public_view is not None and update.public_view.model_dump_json() == shown
    await service.drain()


async def test_a_move_whose_caller_left_holds_the_table_until_its_commit_ends(service: GameService) -> None:
    """The caller of a move goes away while its commit is under way (the commit goes on, shielded): the next move
    waits for that commit before it starts from the table's state (the committed move's, changed in place), so it
    is played on it and stored after it."""
    table = await bots_table(service, "akuma", 6)
    engine, version = table.engine, table.version
    first_player = table.to_act()[0]
    first = engine.legal_actions(table.state, first_player)[0]
    after_first, _ = engine.apply(table.state, first_player, first)
    second_player = engine.to_act(after_first)[0]
    second = engine.legal_actions(after_first, second_player)[0]
    after_second, _ = engine.apply(after_first, second_player, second)
    leaving = asyncio.create_task(service.act_as(table.id, first_player, first, version))
    await asyncio.sleep(0)  # its commit is under way
    leaving.cancel()
    await service.act_as(table.id, second_player, second, None)
    assert leaving.cancelled()
    assert table.version == version + 2
    assert table.engine.dump(table.state) == engine.dump(after_second) == table.row.state
    row = await service.storage.get_game(table.id)
    assert row is not None and row.version == version + 2 and row.state == engine.dump(after_second)
    await service.drain()


async def test_while_a_move_commits_readers_see_the_stored_state(service: GameService) -> None:
    """A move's commit under way: the table's state, its views and who is to act are still the stored ones (the
    commit may fail), and the move's once it committed."""
    table = await bots_table(service, "rocca", 7)
    engine, player = table.engine, table.to_act()[0]
    action = engine.legal_actions(table.state, player)[0]
    before, view_before = engine.dump(table.state), table.view(player).model_dump_json()
    after, _ = engine.apply(table.state, player, action)
    moving = asyncio.create_task(service.act_as(table.id, player, action, table.version))
    await asyncio.sleep(0)  # applied, its commit under way
    assert table.moving
    assert engine.dump(table.state) == before and table.view(player).model_dump_json() == view_before
    assert table.to_act() == [player]
    await moving
    assert not table.moving and engine.dump(table.state) == engine.dump(after) == table.row.state
    await service.drain()
