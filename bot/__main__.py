"""Command line: ``python -m bot`` runs the Discord bot; ``python -m bot demo GAME`` plays a
bot-only game in the terminal (no token needed); ``python -m bot replay FILE`` plays a game record back
(``bot.replay_cli``; ``--serve``: as web pages on 127.0.0.1); ``python -m bot check`` says whether the bot is ready for
Discord (``bot.check``)."""
from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import sys

from .games import PluginError, check_plugins, games
from .i18n import LANGUAGES, t
from .policies import LEVELS


def port(text: str) -> int:
    """``--port``: 0 (a free one) to 65535; anything else is argparse's clear refusal (exit 2), not a traceback."""
    try:
        number = int(text)
    except ValueError:
        number = -1
    if not 0 <= number <= 65535:
        raise argparse.ArgumentTypeError(t("cli.bad_port", value=text))
    return number


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bot", description=t("cli.description"))
    sub = parser.add_subparsers(dest="command")
    run = sub.add_parser("run", help=t("cli.run_help"))
    cluster = sub.add_parser("cluster", help="run the bot as N processes over SHARD_COUNT shards")
    cluster.add_argument("--processes", type=int, required=True)
    for command in (run, cluster):
        command.add_argument("--dry-run", action="store_true",
                             help="only claim the shards on the database and say so; no Discord (bot.dry_run)")
    demo = sub.add_parser("demo", help=t("cli.demo_help"))
    demo.add_argument("game", choices=games())
    demo.add_argument("--players", type=int, default=None, help=t("cli.players_help"))
    demo.add_argument("--seed", type=int, default=1, help=t("cli.seed_help"))
    demo.add_argument("--lang", choices=LANGUAGES, default="en", help=t("cli.lang_help"))
    demo.add_argument("--level", choices=[level.value for level in LEVELS], default="normal", help=t("cli.level_help"))
    demo.add_argument("--record", default=None, metavar="FILE", help=t("cli.demo_record_help"))
    replay = sub.add_parser("replay", help=t("cli.replay_help"))
    replay.add_argument("file", help=t("cli.replay_file_help"))
    replay.add_argument("--seat", type=int, default=None, help=t("cli.replay_seat_help"))
    replay.add_argument("--lang", choices=LANGUAGES, default=None, help=t("cli.replay_lang_help"))
    replay.add_argument("--gif", default=None, help=t("cli.replay_gif_help"))
    replay.add_argument("--serve", action="store_true", help=t("cli.replay_serve_help"))
    replay.add_argument("--port", type=port, default=0, help=t("cli.replay_port_help"))
    check = sub.add_parser("check", help=t("cli.check_help"))
    check.add_argument("--channel", type=int, default=None, help=t("cli.channel_help"))
    check.add_argument("--lang", choices=LANGUAGES, default="en", help=t("cli.lang_help"))
    return parser.parse_args(argv)


def run_check(args: argparse.Namespace) -> int:
    """``python -m bot check``: validates commands and messages; with DISCORD_TOKEN also the server set-up."""
    from .check import run_check as check
    from .settings import Settings

    token = Settings().discord_token
    secret = token.get_secret_value().strip() if token is not None else ""
    return asyncio.run(check(args.lang, secret or None, args.channel))


def run_bot(dry: bool = False) -> int:
    from pydantic import ValidationError

    from .settings import Settings

    try:
        settings = Settings()
    except ValidationError as error:  # a setting that cannot be used: said in one line each, nothing starts
        for problem in error.errors():
            print(f"{'.'.join(map(str, problem['loc'])).upper()}: {problem['msg']}", file=sys.stderr)
        return 2
    if dry:
        from . import event_loop
        from .dry_run import dry_run

        return event_loop.run(dry_run(settings))
    logging.basicConfig(level=settings.log_level.upper(),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if settings.discord_token is None or not settings.discord_token.get_secret_value().strip():
        print(t("cli.no_token", games=", ".join(games())), file=sys.stderr)
        return 2
    from . import event_loop
    from .client import make_bot
    from .cluster import REFUSED
    from .storage import ShardsTaken

    bot = make_bot(settings)
    token = settings.discord_token.get_secret_value()

    async def serve() -> None:
        async with bot:
            await bot.start(token)

    logging.getLogger(__name__).info("event loop: %s", event_loop.loop_name())
    try:
        event_loop.run(serve())
    except ShardsTaken as taken:
        print(taken, file=sys.stderr)
        return REFUSED
    except KeyboardInterrupt:  # Ctrl+C: ``async with bot`` has closed it (as ``Client.run`` does)
        pass
    return 0


def main(argv: list[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        check_plugins()  # every game's parts load and have their required hooks, or nothing starts
    except PluginError as error:
        print(t("cli.bad_plugin", error=str(error)), file=sys.stderr)
        return 2
    if args.command == "check":
        return run_check(args)
    if args.command == "replay":
        from .replay_cli import run_replay

        return run_replay(args.file, args.seat, args.lang, args.gif, serve=args.serve, port=args.port)
    if args.command == "demo":
        from engines import BadOptions, get_engine

        from .demo import run_demo

        engine = get_engine(args.game)
        players = args.players or engine.min_players
        if not engine.min_players <= players <= engine.max_players:
            print(t("error.bad_player_count", args.lang, count=players, min=engine.min_players,
                    max=engine.max_players), file=sys.stderr)
            return 2
        from .demo import record_problem

        problem = record_problem(args.record, args.lang) if args.record else None
        if problem is not None:
            print(problem, file=sys.stderr)
            return 2
        if hasattr(signal, "SIGPIPE"):  # `python -m bot demo akuma | head` ends quietly
            signal.signal(signal.SIGPIPE, signal.SIG_DFL)
        try:
            asyncio.run(run_demo(args.game, players, args.seed, args.lang, level=args.level, record=args.record))
        except BadOptions as exc:
            print(exc, file=sys.stderr)
            return 2
        except OSError as exc:  # the record file could not be written (checked before the game, may still fail)
            print(t("demo.record_unwritable", args.lang, path=args.record, reason=exc.strerror or str(exc)),
                  file=sys.stderr)
            return 2
        return 0
    if args.command == "cluster":
        from .cluster import run_cluster

        return run_cluster(args.processes, dry_run=args.dry_run)
    return run_bot(getattr(args, "dry_run", False))


if __name__ == "__main__":
    sys.exit(main())
