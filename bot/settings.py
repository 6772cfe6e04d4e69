"""Settings from the environment and `.env` (pydantic-settings)."""

from __future__ import annotations

import logging

from pydantic import Field, SecretStr, ValidationError, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


class SettingsError(Exception):
    """A missing or malformed setting; the message is one line meant for the person running the bot."""


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    discord_token: SecretStr = Field(min_length=1)
    database_url: str = "sqlite:///partida.sqlite3"
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    # Worker processes that draw pictures (0: threads in the bot process).
    render_processes: int = Field(2, ge=0, le=32)
    # Where Discord is. Only tests change these, to point the bot at the local stand-in.
    partida_discord_api: str | None = None
    partida_discord_gateway: str | None = None

    @field_validator("dev_guild_id", mode="before")
    @classmethod
    def _empty_is_none(cls, v: object) -> object:
        return None if v in ("", None) else v

    @field_validator("log_level")
    @classmethod
    def _level(cls, v: str) -> str:
        v = v.upper()
        if v not in logging.getLevelNamesMapping():
            raise ValueError("must be one of DEBUG, INFO, WARNING, ERROR")
        return v

    @field_validator("database_url")
    @classmethod
    def _url(cls, v: str) -> str:
        from .store import parse_database_url

        parse_database_url(v)  # raises ValueError with a one-line reason (never the password)
        return v


def load_settings(**overrides: object) -> Settings:
    try:
        return Settings(**overrides)
    except ValidationError as e:
        err = e.errors()[0]
        name = str(err["loc"][0]).upper() if err["loc"] else "settings"
        if err["type"] in ("missing", "too_short", "string_too_short"):
            raise SettingsError(f"{name} is not set (put it in the environment or in .env; see .env.example)") from None
        # never echo the input: it could be the token
        raise SettingsError(f"{name} is malformed: {err['msg']}") from None
