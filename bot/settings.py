"""Settings from the environment and an optional ``.env`` file (see ``.env.example``)."""
from __future__ import annotations

from pathlib import Path

from pydantic import SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict


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
    default_locale: str = "en"

    def database(self) -> str:
        """The database to open: ``DATABASE_URL``, else the SQLite file at ``DATABASE_PATH``."""
        return self.database_url or f"sqlite:///{self.database_path}"
