"""``python -m bench [--quick]``: prints every figure of the benchmark suite as tables."""
from __future__ import annotations

import argparse
import os
import platform

from . import backends, cold_start, discord_path, engine_speed, images, service_load


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench")
    parser.add_argument("--quick", action="store_true", help="short runs (seconds, not minutes)")
    parser.add_argument("--only", choices=["engines", "load", "cold", "images", "backends", "discord"],
                        help="run one section")
    parser.add_argument("--backend", action="append", choices=["sqlite", "postgres"],
                        help="run the backends section on these (repeat for side by side; default both)")
    parser.add_argument("--processes", type=int, default=1, help="bot processes in the backends section")
    parser.add_argument("--database-url", help="an existing PostgreSQL (default: a throwaway server)")
    parser.add_argument("--discord-tables", type=int, action="append",
                        help="table counts of the discord section (repeat; default 1 and 100, quick 1 and 10; "
                             "docs/performance.md's figures: 1, 100 and 1000, about 15 minutes)")
    args = parser.parse_args()
    print(f"# Benchmarks ({'quick' if args.quick else 'full'}) — Python {platform.python_version()}, "
          f"{os.cpu_count()} CPUs")
    if args.only in (None, "engines"):
        engine_speed.run(args.quick)
    if args.only in (None, "load"):
        service_load.run(args.quick)
    if args.only in (None, "cold"):
        cold_start.run(args.quick)
    if args.only in (None, "images"):
        images.run(args.quick)
    if args.only in (None, "discord"):
        discord_path.run(args.quick, args.discord_tables)
    if args.only == "backends" or args.backend:
        backends.run(args.quick, args.backend or ["sqlite", "postgres"], args.processes, args.database_url)


if __name__ == "__main__":
    main()
