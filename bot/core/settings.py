"""Settings from the environment and `.env` (pydantic-settings)."""

from __future__ import annotations

import logging
import os
from pathlib import Path

from pydantic import Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic_core import PydanticCustomError
from pydantic_settings import BaseSettings, SettingsConfigDict

from ..store import parse_database_url


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
    # Worker processes where the searching AI levels (normal, strong) think (0: a thread in the bot
    # process, whose GIL then stalls the event loop for the length of each search).
    ai_processes: int = Field(1, ge=0, le=32)
    # Where Discord is. Only tests change these, to point the bot at the local stand-in.
    partida_discord_api: str | None = None
    partida_discord_gateway: str | None = None
    # Sharding and several processes (docs/deploy.md). SHARD_COUNT unset: Discord's recommended
    # count, every shard in this process. SHARD_IDS: this process's shards ("0,1"; empty: all).
    shard_count: int | None = Field(None, ge=1, le=4096)
    shard_ids: str | None = None
    # Discord's global limit (requests/s per bot) shared by BOT_PROCESSES processes: each keeps to
    # GLOBAL_RATE_LIMIT / BOT_PROCESSES (interaction answers are exempt, as at Discord).
    global_rate_limit: float = Field(50.0, gt=0)
    bot_processes: int = Field(1, ge=1, le=1024)
    # A job's lease: another process takes the job over this long after its holder died.
    job_lease_seconds: float = Field(60.0, gt=0)
    job_poll_seconds: float = Field(2.0, gt=0)
    # touched every 15 s while connected and the database answers (python -m bot.health FILE)
    health_file: str | None = None

    @field_validator("dev_guild_id", "shard_count", "health_file", mode="before")
    @classmethod
    def _empty_is_none(cls, v: object) -> object:
        return None if v in ("", None) else v

    @field_validator("shard_ids")
    @classmethod
    def _shard_ids(cls, v: str | None) -> str | None:
        if v is None or not v.strip():
            return None
        parts = [p.strip() for p in v.split(",")]
        if not all(p.isdigit() for p in parts):
            raise ValueError("must be shard numbers separated by commas, e.g. 0,1")
        return ",".join(parts)

    def shard_list(self) -> list[int] | None:
        """This process's shard ids (None: every shard)."""
        return [int(p) for p in self.shard_ids.split(",")] if self.shard_ids else None

    def rate_budget(self) -> float:
        """Requests per second this process may send (its share of Discord's global limit)."""
        return self.global_rate_limit / self.bot_processes

    @model_validator(mode="after")
    def _sharding(self) -> Settings:
        ids = self.shard_list()
        if ids is not None:
            if self.shard_count is None:
                raise PydanticCustomError("sharding", "SHARD_IDS needs SHARD_COUNT (how many shards the whole bot has)")
            if any(i >= self.shard_count for i in ids):
                raise PydanticCustomError("sharding", f"SHARD_IDS must be below SHARD_COUNT ({self.shard_count})")
        several = self.bot_processes > 1 or (ids is not None and len(ids) < (self.shard_count or 0))
        if several and self.database_url.lower().startswith("sqlite"):
            raise PydanticCustomError("sharding", "several bot processes need a postgresql:// DATABASE_URL (SQLite serves one process)")
        return self

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
        try:
            parsed = parse_database_url(v)
        except ValueError as e:
            raise ValueError(mask_secrets(str(e), url_secrets(v))) from None
        if parsed.kind == "sqlite" and parsed.target != ":memory:":
            check_sqlite_file(parsed.target)
        return v


def url_secrets(url: str) -> list[str]:
    """The parts of a database URL never to print: the password (and the whole user part, which
    a malformed URL such as ``postgresql:/alice:pw@db/x`` may not let us split)."""
    head, at, _host = url.rpartition("@")
    if not at:
        return []
    userinfo = head.split(":", 1)[1] if ":" in head else head  # after the scheme
    userinfo = userinfo.lstrip("/")
    out = [userinfo]
    if ":" in userinfo:
        out.append(userinfo.split(":", 1)[1])
    return [x for x in out if x]


def mask_secrets(text: str, secrets: list[str]) -> str:
    for secret in sorted(secrets, key=len, reverse=True):
        text = text.replace(secret, "***")
    return text


def check_sqlite_file(path: str) -> None:
    """A SQLite store must be a writable file (or not exist yet) in a writable folder: refused at
    start in one line rather than at the first move. A file or folder without any write permission
    bit counts as read-only even for root, who could still write it."""
    p = Path(path).expanduser()
    if p.is_dir():
        raise ValueError(f"{path} is a folder, not a database file")
    folder = p.resolve().parent
    if not folder.is_dir():
        return  # the store says so when it opens, with the folder's name

    def read_only(x: Path) -> bool:
        return not os.access(x, os.W_OK) or not x.stat().st_mode & 0o222

    if p.exists() and read_only(p):
        raise ValueError(f"the database file {path} is read-only")
    if read_only(folder):
        raise ValueError(f"the folder of the database file {path} is read-only (SQLite writes a journal beside it)")


def load_settings(**overrides: object) -> Settings:
    try:
        return Settings(**overrides)
    except UnicodeDecodeError:
        raise SettingsError(".env is not UTF-8 text: save it as UTF-8") from None
    except OSError as e:
        raise SettingsError(f".env cannot be read: {e.strerror}") from None
    except ValidationError as e:
        err = e.errors()[0]
        name = str(err["loc"][0]).upper() if err["loc"] else "settings"
        if err["type"] in ("missing", "too_short", "string_too_short"):
            raise SettingsError(f"{name} is not set (put it in the environment or in .env; see .env.example)") from None
        # never echo the input: it could be the token
        raise SettingsError(f"{name} is malformed: {err['msg']}") from None
