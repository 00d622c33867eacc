"""Where a table plays is read from its row by one function (``bot.place.place_of``), and the writer's kinds of
message say, for every place, how each is written."""
from __future__ import annotations

import ast
from pathlib import Path

from bot.place import PlaceKind, back_from_thread, moved_to_thread, place_of
from bot.storage.rows import GameRow
from cogs.outbox_kinds import OUTPUTS, Writing
from cogs.outbox_lines import Output

ROOT = Path(__file__).resolve().parents[1]
PLACE_FIELDS = {"lobby_channel_id", "open_thread"}  # with channel_id, what says where a table plays
MAY_READ = {"bot/place.py", "bot/storage/games.py", "bot/storage/rows.py"}  # the reader, and the storage seam


def row(**fields: object) -> GameRow:
    base: dict[str, object] = {"id": 7, "guild_id": 1, "channel_id": 10, "game": "akuma", "options": {}, "seed": 1,
                               "status": "lobby", "host_id": 5}
    return GameRow(**(base | fields))  # type: ignore[arg-type]


def test_each_row_reads_as_one_place() -> None:
    lobby = place_of(row(open_thread=True))
    assert (lobby.kind, lobby.channel_ids, lobby.moves_to_thread) == (PlaceKind.CHANNEL, (10,), True)
    thread = place_of(row(channel_id=20, lobby_channel_id=10))
    assert (thread.kind, thread.channel_ids, thread.channel_for(lobby=True)) == (PlaceKind.THREAD, (20, 10), 10)
    private = place_of(row(guild_id=None, channel_id=30, open_thread=True))
    assert (private.kind, private.channel_ids, private.moves_to_thread) == (PlaceKind.PRIVATE, (30,), False)


def test_moving_to_a_thread_and_back_round_trips() -> None:
    lobby = row(open_thread=True)
    for name, value in moved_to_thread(place_of(lobby), 20).items():
        setattr(lobby, name, value)
    assert place_of(lobby).kind is PlaceKind.THREAD and not place_of(lobby).moves_to_thread
    for name, value in back_from_thread(place_of(lobby)).items():
        setattr(lobby, name, value)
    assert place_of(lobby) == place_of(row())
    assert back_from_thread(place_of(row())) == {}  # a table in its channel has no thread to leave


def test_every_kind_of_message_says_how_at_every_place() -> None:
    for output, kind in OUTPUTS.items():
        assert set(kind.where) == set(PlaceKind), output
        assert kind.where[PlaceKind.PRIVATE] in (Writing.TOKEN, Writing.NOT), output  # no channel writes there
    assert OUTPUTS[Output.TOLD].where[PlaceKind.CHANNEL] is Writing.NOT  # nowhere else to tell
    assert OUTPUTS[Output.TOLD].where[PlaceKind.THREAD] is Writing.LOBBY


def test_no_other_module_reads_the_place_fields() -> None:
    readers = []
    for path in [*ROOT.joinpath("bot").rglob("*.py"), *ROOT.joinpath("cogs").rglob("*.py")]:
        name = path.relative_to(ROOT).as_posix()
        if name in MAY_READ:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr in PLACE_FIELDS and isinstance(node.value, ast.Attribute) \
                    and node.value.attr == "row":
                readers.append(f"{name}:{node.lineno}")
    assert readers == []
