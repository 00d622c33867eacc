"""Settings from the environment and an optional ``.env`` file (see ``.env.example``)."""
from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from pydantic import SecretStr, ValidationInfo, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

if TYPE_CHECKING:
    from .storage import ShardFilter
    from .web.limits import Proxies


def parse_shard_ids(text: str) -> tuple[int, ...]:
    """``"0-7"`` or ``"0,2,4-5"`` as sorted shard ids."""
    ids: set[int] = set()
    for part in filter(None, (p.strip() for p in text.split(","))):
        low, _, high = part.partition("-")
        ids.update(range(int(low), int(high or low) + 1))
    return tuple(sorted(ids))


PORT_MOST = 65535
PATH = re.compile(r"(/(?!\.\.?(?:/|$))[A-Za-z0-9._~-]+)*/?")  # a path the site may live under: plain segments
LINK_DAYS_MOST = 36500  # a hundred years: longer is no lifetime anyone can mean


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    discord_token: SecretStr | None = None
    # Where the host stores everything: ``sqlite:///data/gamehost.db`` (relative path; four slashes for an
    # absolute one) or ``postgresql://user:password@host/db``. Unset: the SQLite file at ``database_path``.
    database_url: str | None = None
    database_path: Path = Path("data/gamehost.db")
    database_pool_size: int = 8  # PostgreSQL connections per process
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    bot_move_delay: float = 1.5
    paused_table_close_days: float = 7.0  # a table paused with every person away is closed after this long
    lobby_close_hours: float = 24.0  # a lobby nobody joined, left or started for this long is closed (0: never)
    # Worker processes for strong bots' thinking (0: one per core but one).
    bot_think_workers: int = 0
    # easy and normal in a worker of their own (0: on the event loop; slower at 1,000 tables: bot/thinking.py).
    bot_think_quick_in_worker: bool = True
    # Shards over several processes: the total count and this process's range ("0-7", "0,2,4-5"). Unset: one
    # process, discord.py's single connection.
    shard_count: int | None = None
    shard_ids: str | None = None
    # The gateway's session_start_limit.max_concurrency: shards of one bucket (shard_id % this) identify 5 s apart
    # across all processes on the database.
    identify_concurrency: int = 1
    # The web side (bot/web/): replay pages at links, /healthz and /metrics. Off unless WEB_BASE_URL is set: the
    # address people open (``https://games.example.org``, the operator's reverse proxy in front of WEB_HOST:WEB_PORT).
    web_base_url: str | None = None
    web_host: str = "127.0.0.1"
    web_port: int = 8080
    # /healthz and /metrics only on this port (on WEB_HOST), not on the public one (unset, or WEB_PORT itself: on
    # the public one).
    web_operator_port: int | None = None
    web_link_days: float = 90.0  # how long a link to a replay page opens it: whole hours, up to LINK_DAYS_MOST
    # Proxies whose X-Forwarded-For names the visitor (each address's rate limit is the visitor's, not the proxy's).
    web_trusted_proxies: str = "127.0.0.1,::1"

    def shards(self) -> "ShardFilter | None":
        """The shards this process owns (all of them with only ``SHARD_COUNT``), or None when not sharded."""
        from .storage import ShardFilter

        if not self.shard_count:
            return None
        ids = parse_shard_ids(self.shard_ids) if self.shard_ids else tuple(range(self.shard_count))
        if not ids or max(ids) >= self.shard_count:
            raise ValueError(f"SHARD_IDS {self.shard_ids!r} must lie within 0..{self.shard_count - 1}")
        return ShardFilter(self.shard_count, ids)

    @field_validator("web_base_url")
    @classmethod
    def _web_address(cls, value: str | None) -> str | None:
        """The address people open: http(s), a host, nothing after the path (links are made by appending to it)."""
        if value is None or not value.strip():
            return None
        parts = urlsplit(value.strip())
        if (parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment
                or not PATH.fullmatch(parts.path)):
            raise ValueError(f"WEB_BASE_URL {value!r} must be an address such as https://games.example.org (or, "
                             "under a path, https://example.org/games: letters, digits and - . _ ~ /)")
        return value.strip().rstrip("/")

    @field_validator("web_port", "web_operator_port")
    @classmethod
    def _port(cls, value: int | None, info: ValidationInfo) -> int | None:
        """A TCP port (0: any free one, which a proxy cannot know: for tests)."""
        if value is not None and not 0 <= value <= PORT_MOST:
            name = (info.field_name or "").upper()
            raise ValueError(f"{name} {value} must be a port from 1 to {PORT_MOST} (0: any free one)")
        return value

    @field_validator("web_link_days")
    @classmethod
    def _link_days(cls, value: float) -> float:
        """A lifetime Share can state as it is: a whole number of hours (0.5 is 12 hours), from one hour on."""
        hours = value * 24
        if not (0.99 <= hours <= LINK_DAYS_MOST * 24) or abs(hours - round(hours)) > 0.01:  # 0.0417 is one hour
            raise ValueError(f"WEB_LINK_DAYS {value!r} must be a number of days from 1/24 (one hour) to "
                             f"{LINK_DAYS_MOST}, in whole hours (0.5 is 12 hours)")
        return round(hours) / 24

    def link_lifetime(self) -> tuple[int, int]:
        """A link's lifetime as (days, hours) to state: (d, 0) for whole days, else (0, every hour)."""
        hours = round(self.web_link_days * 24)
        return (hours // 24, 0) if hours % 24 == 0 else (0, hours)

    def web_on(self) -> bool:
        return bool(self.web_base_url and self.web_base_url.strip())

    @field_validator("web_trusted_proxies")
    @classmethod
    def _proxies(cls, value: str) -> str:
        from .web.limits import Proxies

        try:
            Proxies.parse(value)
        except ValueError as wrong:
            raise ValueError(f"WEB_TRUSTED_PROXIES entry {str(wrong)!r} is neither an address nor a range (such as "
                             "127.0.0.1, ::1 or 172.17.0.0/16; commas between them)") from None
        return value

    def trusted_proxies(self) -> "Proxies":
        from .web.limits import Proxies

        return Proxies.parse(self.web_trusted_proxies)

    def database(self) -> str:
        """The database to open: ``DATABASE_URL``, else the SQLite file at ``DATABASE_PATH``."""
        return self.database_url or f"sqlite:///{self.database_path}"
