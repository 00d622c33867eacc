"""Settings from the environment and an optional ``.env`` file (see ``.env.example``)."""
from __future__ import annotations

from pathlib import Path

from pydantic import SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    discord_token: SecretStr | None = None
    database_path: Path = Path("data/gamehost.db")
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    bot_move_delay: float = 1.5
    default_locale: str = "en"
