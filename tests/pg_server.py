"""A real PostgreSQL server for the tests: started once per test session from the machine's binaries (initdb,
pg_ctl; as the ``postgres`` user when running as root), on a unix socket in a temporary folder, fsync off (tests
only). Each test gets a fresh database created from a migrated template."""
from __future__ import annotations

import asyncio
import glob
import os
import shutil
import subprocess
import tempfile
import threading
from pathlib import Path
from typing import Any

import asyncpg


def _binary(name: str) -> str | None:
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return candidates[-1] if candidates else None


class PgServer:
    def __init__(self, *, durable: bool = False) -> None:
        self.durable = durable  # fsync, synchronous_commit and full_page_writes on (benches: as in production)
        self.root = Path(tempfile.mkdtemp(prefix="gamehost-pg-"))
        self.data, self.socket = self.root / "data", self.root
        self.counter = 0
        self.lock = threading.Lock()

    def _run(self, *argv: str) -> None:
        prefix = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        subprocess.run([*prefix, *argv], check=True, capture_output=True, timeout=120)

    def start(self) -> "PgServer":
        initdb, pg_ctl = _binary("initdb"), _binary("pg_ctl")
        if initdb is None or pg_ctl is None:
            raise RuntimeError("PostgreSQL binaries (initdb, pg_ctl) not found; install the postgresql package")
        if os.geteuid() == 0:
            shutil.chown(self.root, "postgres", "postgres")
        self._run(initdb, "-D", str(self.data), "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8")
        sync = "on" if self.durable else "off"
        options = f"-c listen_addresses='' -c unix_socket_directories='{self.socket}' -c fsync={sync} " \
                  f"-c synchronous_commit={sync} -c full_page_writes={sync} -c max_connections=200"
        self._run(pg_ctl, "-D", str(self.data), "-o", options, "-l", str(self.root / "log"), "-w", "start")
        return self

    def stop(self) -> None:
        try:
            self._run(_binary("pg_ctl") or "pg_ctl", "-D", str(self.data), "-m", "immediate", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

    def pid(self) -> int:
        """The postmaster's process id (the first line of its ``postmaster.pid``)."""
        return int((self.data / "postmaster.pid").read_text().split()[0])

    def url(self, database: str) -> str:
        return f"postgresql://postgres@/{database}?host={self.socket}"

    def new_database(self) -> str:
        """A fresh, migrated database (CREATE DATABASE … TEMPLATE of one migrated once)."""
        with self.lock:
            first = self.counter == 0
            self.counter += 1
            name = f"test_{self.counter}"
        if first:
            run_sync(self._make_template())
        run_sync(execute(self.url("postgres"), f"CREATE DATABASE {name} TEMPLATE gamehost_template"))
        return self.url(name)

    async def _make_template(self) -> None:
        from bot.storage import Storage

        await execute(self.url("postgres"), "CREATE DATABASE gamehost_template")
        storage = await Storage.open(self.url("gamehost_template"))
        await storage.close()


async def execute(url: str, sql: str, *args: Any) -> list[tuple]:
    conn = await asyncpg.connect(url)
    try:
        return [tuple(r) for r in await conn.fetch(sql, *args)]
    finally:
        await conn.close()


def run_sync(coro: Any) -> Any:
    """Run a coroutine to completion from synchronous test code, even inside a running event loop."""
    box: list[Any] = []
    thread = threading.Thread(target=lambda: box.append(_capture(coro)))
    thread.start()
    thread.join()
    ok, value = box[0]
    if not ok:
        raise value
    return value


def _capture(coro: Any) -> tuple[bool, Any]:
    try:
        return True, asyncio.run(coro)
    except BaseException as error:  # handed back to the caller's thread
        return False, error
