"""``python -m bench.results_digest [--tables N]``: seeded bot-only games of every game played to the end through
the game service on a throwaway SQLite file; prints one digest of every final state and event. Two versions of the
code that play the same games the same way print the same digest (the check that a speed-up changed no result)."""
from __future__ import annotations

import argparse
import asyncio
import hashlib
import random
import tempfile
from pathlib import Path

from bot.policies import choose_action
from bot.service import GameService
from bot.storage import Storage
from engines import GAMES, get_engine

MAX_MOVES = 5000  # a game longer than this is cut off (the digest still covers where it stood)


async def play(tables: int) -> str:
    digest = hashlib.sha256()
    with tempfile.TemporaryDirectory() as tmp:
        storage = await Storage.open(f"sqlite:///{Path(tmp) / 'digest.db'}")
        service = GameService(storage)
        try:
            for n in range(tables):
                game = GAMES[n % len(GAMES)]
                table = await service.create_bot_table(game=game, players=min(4, get_engine(game).max_players),
                                                       seed=n + 1, channel_id=n + 1)
                rng = random.Random(n)
                for _ in range(MAX_MOVES):
                    if table.status != "running":
                        break
                    player = table.to_act()[0]
                    action = choose_action(table.engine, table.state, player, rng)
                    update = await service.act_as(table.id, player, action, table.version)
                    digest.update(repr(update.events).encode())
                digest.update(table.engine.dump(table.state).encode())
        finally:
            await service.drain()
            await storage.close()
    return digest.hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.results_digest")
    parser.add_argument("--tables", type=int, default=20)
    args = parser.parse_args()
    print(asyncio.run(play(args.tables)))


if __name__ == "__main__":
    main()
