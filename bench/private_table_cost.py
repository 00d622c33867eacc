"""``python -m bench.private_table_cost [--game G ...]``: what a person-turn costs at a table in a group DM beside the
same game in a server channel — turns, presses, new public messages, pings — through the test harness's strict edge
(the game of ``tests/test_discord_group_dm_table.py``: Alice and Bob with bots, one press on the board and the
decision per turn). Until issue 54 this comparison ran as five tests that asserted only that the games ended."""
from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from pathlib import Path

from .discord_path import ROOT
from .report import print_table


async def one_game(folder: Path, game: str, place: str) -> dict[str, int]:
    from tests.discord_helpers import start_harness
    from tests.test_discord_group_dm_table import ALICE_ID, BOB_ID, play_out

    h = await start_harness(folder / f"{game}-{place.replace(' ', '-')}.db")
    try:
        people = {ALICE_ID: h.user(ALICE_ID, "alice"), BOB_ID: h.user(BOB_ID, "bob")}
        where = h.group_dm(*people.values()) if place == "group DM" else h.channel_id
        return await play_out(h, people, where, game)
    finally:
        await h.close()


def run(games: list[str]) -> list[list[object]]:
    sys.path.insert(0, str(ROOT))
    rows: list[list[object]] = []
    with tempfile.TemporaryDirectory() as tmp:
        for game in games:
            for place in ("group DM", "server channel"):
                cost = asyncio.run(one_game(Path(tmp), game, place))
                rows.append([game, place, *(cost[k] for k in ("turns", "presses", "public messages", "pings"))])
    print_table("A game with two people and bots, per place", ["game", "place", "turns", "presses",
                                                               "public messages", "pings"], rows)
    return rows


def main(argv: list[str] | None = None) -> None:
    from engines import GAMES

    parser = argparse.ArgumentParser(prog="python -m bench.private_table_cost", description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", choices=GAMES, help="a game (repeatable; default every game)")
    run(parser.parse_args(argv).game or list(GAMES))


if __name__ == "__main__":
    main()
