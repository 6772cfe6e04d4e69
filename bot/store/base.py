"""The store's portable interface: records, errors and the abstract ``Store``.

Both back ends (SQLite in ``sqlite.py``, PostgreSQL in ``postgres.py``) implement ``Store`` with the
same behaviour; ``tests/store`` runs one contract suite against each.
"""

from __future__ import annotations

import abc
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

STATUSES = ("lobby", "active", "finished", "abandoned")
LIVE_STATUSES = ("lobby", "active")

# Columns that ``Store.update`` may change. id, guild_id, channel_id, version and the timestamps are
# owned by the store.
UPDATABLE = frozenset(
    {"game", "status", "host_id", "seats", "options", "seed", "setup", "state", "lang", "meta"}
)

# The columns of ``matches`` in the order MatchRecord is built from, shared by both back ends.
COLUMNS = (
    "id, guild_id, channel_id, game, status, host_id, seats, options, seed, setup, state, version, lang,"
    " meta, created_at, updated_at"
)

# A PostgreSQL schema name we accept (lower case, so it never needs quoting rules).
SCHEMA_NAME = re.compile(r"^[a-z_][a-z0-9_]{0,62}$")

_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1


# -- errors ------------------------------------------------------------------------------------------


class StoreError(Exception):
    """Base class of every error the store raises on purpose."""


class ChannelBusy(StoreError):
    """The channel already holds a live (lobby or active) match: ``existing_match_id``."""

    def __init__(self, existing_match_id: int | None) -> None:
        super().__init__(f"the channel already has a live match (id {existing_match_id})")
        self.existing_match_id = existing_match_id


class VersionConflict(StoreError):
    """The match's version is no longer the expected one; ``current_version`` is what it is now."""

    def __init__(self, current_version: int, expected_version: int | None = None) -> None:
        super().__init__(f"match version is {current_version}, expected {expected_version}")
        self.current_version = current_version
        self.expected_version = expected_version


class MatchNotFound(StoreError, LookupError):
    """No match with ``match_id``."""

    def __init__(self, match_id: int) -> None:
        super().__init__(f"no match with id {match_id}")
        self.match_id = match_id


# -- records -----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """One row of ``matches`` with its JSON columns decoded. Timestamps are timezone-aware UTC."""

    id: int
    guild_id: int | None
    channel_id: int
    game: str
    status: str
    host_id: int
    seats: list[dict[str, Any]]
    options: dict[str, Any]
    seed: int | None
    setup: Any
    state: Any
    version: int
    lang: str
    meta: dict[str, Any]
    created_at: datetime
    updated_at: datetime

    @property
    def live(self) -> bool:
        """Lobby or active: the match that occupies its channel."""
        return self.status in LIVE_STATUSES

    @property
    def user_ids(self) -> list[int]:
        """Distinct human players, in seat order."""
        return seat_user_ids(self.seats)


@dataclass(frozen=True, slots=True)
class ActionRecord:
    match_id: int
    idx: int
    seat: int
    action: Any
    revealed: bool
    created_at: datetime


# -- helpers shared by the back ends -----------------------------------------------------------------


def utcnow() -> datetime:
    return datetime.now(UTC)


def dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def check_int64(name: str, value: Any, nullable: bool = False) -> None:
    if value is None and nullable:
        return
    if not isinstance(value, int) or isinstance(value, bool) or not _INT64_MIN <= value <= _INT64_MAX:
        raise ValueError(f"{name} must be a 64-bit integer{' or None' if nullable else ''}, got {value!r}")


def check_seats(seats: Any) -> list[dict[str, Any]]:
    """Seats are a JSON list of {"user_id": int|None, "ai": str|None, "name": str}."""
    if not isinstance(seats, list):
        raise ValueError("seats must be a list")
    out = []
    for i, seat in enumerate(seats):
        if not isinstance(seat, Mapping):
            raise ValueError(f"seat {i} must be an object")
        seat = dict(seat)
        seat.setdefault("user_id", None)
        seat.setdefault("ai", None)
        if not isinstance(seat.get("name"), str):
            raise ValueError(f"seat {i} needs a 'name' string")
        check_int64(f"seat {i} user_id", seat["user_id"], nullable=True)
        if seat["ai"] is not None and not isinstance(seat["ai"], str):
            raise ValueError(f"seat {i} 'ai' must be a string or null")
        out.append(seat)
    return out


def seat_user_ids(seats: Iterable[Mapping[str, Any]]) -> list[int]:
    seen: list[int] = []
    for seat in seats:
        uid = seat.get("user_id")
        if uid is not None and uid not in seen:
            seen.append(uid)
    return seen


def check_changes(changes: Mapping[str, Any]) -> dict[str, Any]:
    """Validate the keyword arguments of ``Store.update``; returns them normalised."""
    unknown = set(changes) - UPDATABLE
    if unknown:
        raise ValueError(f"update() cannot change {', '.join(sorted(unknown))}")
    out = dict(changes)
    if "status" in out:
        check_status(out["status"])
    if "seats" in out:
        out["seats"] = check_seats(out["seats"])
    if "host_id" in out:
        check_int64("host_id", out["host_id"])
    if "seed" in out:
        check_int64("seed", out["seed"], nullable=True)
    if "lang" in out:
        check_lang(out["lang"])
    if "game" in out and not (isinstance(out["game"], str) and out["game"]):
        raise ValueError("game must be a non-empty string")
    for key in ("options", "meta"):
        if key in out and not isinstance(out[key], Mapping):
            raise ValueError(f"{key} must be a JSON object")
    return out


def check_status(status: Any) -> None:
    if status not in STATUSES:
        raise ValueError(f"status must be one of {', '.join(STATUSES)}, got {status!r}")


def check_lang(lang: Any) -> None:
    if not isinstance(lang, str) or not lang:
        raise ValueError("lang must be a non-empty string such as 'en' or 'es'")


# -- the interface -----------------------------------------------------------------------------------


class Store(abc.ABC):
    """Async match store. Every operation runs in one transaction.

    Optimistic concurrency: each match has a ``version``; ``update`` and ``commit_move`` only write
    when the caller's ``expected_version`` is still current (then bump it by one) and raise
    ``VersionConflict`` otherwise.
    """

    @abc.abstractmethod
    async def create_match(
        self,
        guild_id: int | None,
        channel_id: int,
        game: str,
        host_id: int,
        seats: list[dict[str, Any]],
        options: dict[str, Any],
        lang: str,
        meta: dict[str, Any] | None = None,
    ) -> MatchRecord:
        """A new match in status 'lobby' at version 0. ``ChannelBusy`` if the channel has a live one."""

    @abc.abstractmethod
    async def get(self, match_id: int) -> MatchRecord | None: ...

    @abc.abstractmethod
    async def active_in_channel(self, channel_id: int) -> MatchRecord | None:
        """The channel's live (lobby or active) match, if any."""

    @abc.abstractmethod
    async def matches_for_user(self, user_id: int, active_only: bool = True) -> list[MatchRecord]:
        """Matches where ``user_id`` holds a seat, newest first; only live ones unless active_only=False."""

    @abc.abstractmethod
    async def live_matches(self) -> list[MatchRecord]:
        """Every lobby or active match, oldest first (what a restarted process resumes)."""

    @abc.abstractmethod
    async def history_in_channel(self, channel_id: int, limit: int = 20) -> list[MatchRecord]:
        """The channel's matches of every status, newest first, at most ``limit``."""

    @abc.abstractmethod
    async def update(self, match_id: int, expected_version: int, **changes: Any) -> MatchRecord:
        """Compare-and-set lobby edits, start, status or meta (see ``UPDATABLE``); bumps the version.

        Raises ``VersionConflict``, ``MatchNotFound``, ``ChannelBusy`` (reviving a match in a
        channel that has another live one) or ``ValueError`` (unknown or malformed change).
        """

    @abc.abstractmethod
    async def commit_move(
        self,
        match_id: int,
        expected_version: int,
        seat: int,
        action: Any,
        revealed: bool,
        state: Any,
        status: str | None = None,
        meta: dict[str, Any] | None = None,
    ) -> MatchRecord:
        """Append ``action`` to the log (idx = number of earlier actions), store ``state`` and bump
        the version, all only if the version is still ``expected_version``. ``status``/``meta``
        replace the stored ones when given. Raises ``VersionConflict`` or ``MatchNotFound``."""

    @abc.abstractmethod
    async def actions(self, match_id: int) -> list[ActionRecord]:
        """The match's action log in order of idx."""

    @abc.abstractmethod
    async def close(self) -> None: ...

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()


def check_create(
    guild_id: Any, channel_id: Any, game: Any, host_id: Any, seats: Any, options: Any, lang: Any, meta: Any
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    check_int64("guild_id", guild_id, nullable=True)
    check_int64("channel_id", channel_id)
    check_int64("host_id", host_id)
    if not (isinstance(game, str) and game):
        raise ValueError("game must be a non-empty string")
    if not isinstance(options, Mapping):
        raise ValueError("options must be a JSON object")
    if meta is not None and not isinstance(meta, Mapping):
        raise ValueError("meta must be a JSON object")
    check_lang(lang)
    return check_seats(seats), dict(meta or {})


def check_move(seat: Any, status: Any, meta: Any) -> None:
    if not isinstance(seat, int) or isinstance(seat, bool) or seat < 0:
        raise ValueError(f"seat must be a non-negative integer, got {seat!r}")
    if status is not None:
        check_status(status)
    if meta is not None and not isinstance(meta, Mapping):
        raise ValueError("meta must be a JSON object")
