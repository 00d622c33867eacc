"""Every slash command README.md and docs/ write down, run through the harness exactly as written.

A span in backticks that starts with ``/`` and names a command is read as Discord's client would send it: the
command path, then ``option:value`` pairs (a value runs up to the next option) and positional words for the
command's options in order. Placeholders stand for what the test has: ``<game>`` every game (in a command's path
too), ``<table>`` a table of the kind the command needs, ``N`` a count, ``…`` every choice of a choice option (else
nothing), ``a|b`` each alternative, ``[x]`` with and without it; a ranking's ``@name`` runs as typed and as the
mention Discord's client inserts. A span naming a group, or a command without a value for one of its required
options, is a reference to the command: it must exist. Every example must run without an error the bot answers (a
refusal included).
"""
from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord
import pytest
from discord import app_commands

from bot.limits import CreationCooldowns
from engines import GAMES

from .discord_harness import Harness, HarnessError
from .discord_helpers import ORGANISER_ROLE, lift_limits, make_bot, organiser

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
SPAN = re.compile(r"`(/[^`]+)`")
COMMAND = re.compile(r"/[a-z][a-z-]*(?=\s|$)")  # a path such as /proc/<pid>/stat is not a command
ANN, BOB = 101, 102
FINISHED_TABLE = ("game record", "game review", "game unshare")  # the commands whose <table> is a finished one
TABLES, CUPS = "tables", "cups"  # the channels a table and a tournament of the examples live in


@dataclass
class Example:
    where: str
    written: str
    path: str = ""
    runs: list[dict[str, Any]] = field(default_factory=list)


def spans() -> list[tuple[str, str]]:
    out = []
    for doc in DOCS:
        text = doc.read_text(encoding="utf-8")
        for found in SPAN.finditer(text):
            written = " ".join(found[1].replace("\\|", "|").split())
            if COMMAND.match(written):
                line = text.count("\n", 0, found.start()) + 1
                games = sorted(GAMES) if "<game>" in written else [None]
                out += [(f"{doc.relative_to(ROOT)}:{line}", written.replace("<game>", game) if game else written)
                        for game in games]
    return out


def command_path(tree: app_commands.CommandTree, guild: discord.Object, words: list[str]) -> tuple[
        list[str], app_commands.Command | app_commands.Group | None]:
    """The longest prefix of ``words`` naming a command or group, and what it names."""
    node = tree.get_command(words[0]) or tree.get_command(words[0], guild=guild)
    path = [words[0]]
    for word in words[1:]:
        child = node.get_command(word) if isinstance(node, app_commands.Group) else None
        if child is None:
            break
        node, path = child, path + [word]
    return path, node


def values_of(param: app_commands.Parameter, written: str, tables: dict[str, int], command: str) -> list[Any]:
    """What a written value stands for: one value, or several (placeholders, alternatives); [] for "any"."""
    if written == "…":
        return [c.value for c in param.choices]
    if written == "<table>":
        return [tables[command]]
    if written == "N":
        return [2]
    if written.startswith("[") and written.endswith("]"):
        return [None, *values_of(param, written[1:-1], tables, command)]
    if written == "role":
        return [ORGANISER_ROLE]
    if "|" in written and (param.choices or param.type is not discord.AppCommandOptionType.string):
        return written.split("|")
    mentioned = re.sub(r"@(ann|bob)\b", lambda m: f"<@{ANN if m[1] == 'ann' else BOB}>", written)
    return [written] if mentioned == written else [written, mentioned]


def read_example(h: Harness, where: str, written: str, tables: dict[str, int]) -> Example:
    """The runs an example stands for (none: it is a reference to a command)."""
    example = Example(where, written)
    words = written[1:].split(" ")
    path, node = command_path(h.bot.tree, discord.Object(h.guild_id), words)
    assert node is not None, f"{where}: {written} names no command"
    example.path = " ".join(path)
    if not isinstance(node, app_commands.Command):
        return example
    params = {p.display_name: p for p in node.parameters}
    rest = " ".join(words[len(path):])
    named = re.split(rf"(?:^|\s)({'|'.join(map(re.escape, params))}):", rest) if params else [rest]
    given: dict[str, list[Any]] = {}
    positional = [w for w in named[0].split() if w != "…"]
    assert len(positional) <= len(node.parameters), f"{where}: {written} has more words than /{example.path} options"
    for param, word in zip(node.parameters, positional, strict=False):  # words fill the options in order
        given[param.display_name] = values_of(param, word, tables, example.path)
    for name, value in zip(named[1::2], named[2::2], strict=True):
        given[name] = values_of(params[name], value.removesuffix(" …").strip(), tables, example.path)
    if any(p.required and not given.get(p.display_name) for p in node.parameters):
        return example  # written to name the command, not to run it
    names = [n for n, v in given.items() if v]
    for combo in itertools.product(*(given[n] for n in names)):
        example.runs.append({n: v for n, v in zip(names, combo, strict=True) if v is not None})
    return example


class World:
    """What the examples act on: Ann (Manage Server and the organiser role) and Bob; a finished table; a table
    running in #tables hosted by Ann; a tournament of Ann, Bob and two bots in #cups, fresh for each example."""

    def __init__(self, h: Harness) -> None:
        self.h = h
        self.tables: dict[str, int] = {}

    async def before(self, path: str) -> str | None:
        """Put the world in the state ``path`` needs; the channel to run it in."""
        if path in FINISHED_TABLE:
            finished = await self.h.bot.service.create_bot_table(
                game="akuma", players=3, seed=3, channel_id=self.h.channel_ids[TABLES], guild_id=self.h.guild_id)
            await self.h.settle()
            self.tables[path] = finished.id
            return TABLES
        if path.startswith("game ") and path != "game pings":
            await self.running_table()
            return TABLES
        if path.startswith("play "):
            await self.clear(self.h.channel_id)  # one lobby at a time per person
            return None
        if path.startswith("tournament "):
            await self.tournament(started=path not in ("tournament checkin", "tournament start", "tournament create"))
            return CUPS
        return None

    async def clear(self, channel: int) -> None:
        for table in await self.h.bot.service.tables_in_channel(channel):
            await self.h.bot.service.end(table.id, ANN, is_admin=True)
        await self.h.settle()

    async def running_table(self) -> None:
        service, channel = self.h.bot.service, self.h.channel_ids[TABLES]
        await self.clear(channel)
        table = await service.create_seated_table(
            game="akuma", guild_id=self.h.guild_id, channel_id=channel, host_id=ANN, seed=5, locale="en",
            seats=self.seats())
        await self.h.settle()
        assert table.status == "running"

    def seats(self) -> list[Any]:
        from bot.storage import SeatRow
        return [SeatRow(0, "u101", "ann", ANN, False), SeatRow(1, "bot1", "Bot 1", None, True),
                SeatRow(2, "bot2", "Bot 2", None, True)]

    async def tournament(self, *, started: bool) -> None:
        ts, channel = self.h.bot.tournaments, self.h.channel_ids[CUPS]
        for old in await ts.in_channel(channel):
            await ts.end(old.id, ANN, organises_all=True)
        tn = await ts.create(game="akuma", guild_id=self.h.guild_id, channel_id=channel, creator_id=ANN,
                             rounds=2, seats_min=4, seats_max=4, seed=7)
        await ts.add_bots(tn.id, ANN, 2)
        await ts.join(tn.id, ANN, "ann")
        await ts.join(tn.id, BOB, "bob")
        if started:
            await ts.start(tn.id, ANN, min_people=1)
            await self.h.settle()
            (table,) = tn.round_tables(1)
            assert table.status == "running" and table.game_id is not None
            for path in ("tournament set-result", "tournament void"):
                self.tables[path] = table.game_id
        await self.h.settle()


@pytest.fixture
async def h(tmp_path: Path):
    harness = Harness(make_bot(tmp_path / "bot.db"), channels=("general", TABLES, CUPS))
    await harness.start()  # no errors allowed: a refusal of a documented example fails the test
    await harness.bot.storage.set_guild_tables(harness.guild_id, "channel")
    yield harness
    await harness.close()


async def test_every_documented_slash_command_runs_as_written(h: Harness) -> None:
    await lift_limits(h)
    ann = await organiser(h, ANN, "ann", permissions=discord.Permissions.all())
    h.user(BOB, "bob")
    world = World(h)
    failures, runs, references = [], 0, 0
    found = spans()
    for where, written in found:
        probe = read_example(h, where, written, {**dict.fromkeys(FINISHED_TABLE, 0), "tournament set-result": 0,
                                                 "tournament void": 0})
        if not probe.runs:
            references += 1
            continue
        for run in probe.runs:
            channel = await world.before(probe.path)
            options = read_example(h, where, written, world.tables).runs[probe.runs.index(run)]
            h.bot.creations = CreationCooldowns()  # each example typed on its own, not a hundred within a minute
            try:
                await h.slash(ann, probe.path, channel=channel, **options)
                runs += 1
            except HarnessError as error:
                failures.append(f"{where}: {written} as {options}: {str(error)[-700:]}")
    print(f"{len(found)} documented commands: {runs} runs of examples, {references} references")
    assert not failures, "\n".join(failures)
    assert runs >= 30 and references >= 10
