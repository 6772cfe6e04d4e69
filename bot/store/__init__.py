"""Partida's match store: matches, their action logs and who plays in them.

    store = await open_store("sqlite:///partida.sqlite3")      # or postgresql://user@host/db
    rec = await store.create_match(guild_id, channel_id, "lost-cities", host_id, seats, options, "en")
    rec = await store.update(rec.id, rec.version, status="active", seed=42, state=snapshot)
    rec = await store.commit_move(rec.id, rec.version, seat=0, action={...}, revealed=False, state=snapshot)
    await store.close()

Every operation is one transaction. ``update`` and ``commit_move`` are compare-and-set on
``version`` (``VersionConflict.current_version`` says what it is now); a channel holds at most one
live (lobby/active) match (``ChannelBusy.existing_match_id``). Seats are
``{"user_id": int | None, "ai": str | None, "name": str}`` (missing user_id/ai become None, other
keys are kept); ``meta`` is a JSON object that ``update(meta=...)``/``commit_move(meta=...)``
replace whole. Records are frozen dataclasses (``MatchRecord``, ``ActionRecord``).

Database URLs:
    sqlite:///relative/path.sqlite3       relative to the working directory
    sqlite:////absolute/path.sqlite3
    sqlite://:memory:   (or sqlite:///:memory:)   private to the store, gone on close
        optional query: ?busy_timeout=5000 (ms) &synchronous=normal|full|extra|off
    postgresql://user:password@host:5432/dbname   (postgres:// too)
        optional query: ?schema=name  keep every table in that schema (created if missing);
        other query parameters go to asyncpg (e.g. sslmode).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from urllib.parse import parse_qsl, unquote, urlencode, urlsplit, urlunsplit

from .base import (
    LIVE_STATUSES,
    SCHEMA_NAME,
    STATUSES,
    UPDATABLE,
    ActionRecord,
    ChannelBusy,
    DamagedMatch,
    EventRecord,
    HandOff,
    Job,
    JobEnd,
    Log,
    MatchNotFound,
    MatchRead,
    MatchRecord,
    NewEvent,
    NewJob,
    Person,
    RawJSON,
    Store,
    StoreError,
    VersionConflict,
)

__all__ = [
    "LIVE_STATUSES",
    "STATUSES",
    "UPDATABLE",
    "ActionRecord",
    "ChannelBusy",
    "DamagedMatch",
    "EventRecord",
    "HandOff",
    "JobEnd",
    "NewEvent",
    "Job",
    "Log",
    "NewJob",
    "RawJSON",
    "DatabaseURL",
    "MatchNotFound",
    "MatchRead",
    "MatchRecord",
    "Person",
    "Store",
    "StoreError",
    "VersionConflict",
    "open_store",
    "outage",
    "parse_database_url",
]

def outage(exc: BaseException) -> bool:
    """True when ``exc`` says the store cannot serve for a moment (the SQLite file locked past the
    busy timeout, a full disk, an I/O error; PostgreSQL down, out of connections or space, a
    serialization failure): an expected condition, worth one line and a new try, not a traceback."""
    import sqlite3

    if isinstance(exc, sqlite3.OperationalError):  # "database is locked", "database or disk is full", "disk I/O error"
        return True
    try:
        import asyncpg
    except ImportError:  # pragma: no cover - asyncpg is optional
        return False
    if isinstance(exc, (asyncpg.PostgresConnectionError, asyncpg.InterfaceError, asyncpg.InsufficientResourcesError)):
        return True  # (InsufficientResources: disk full, out of memory, too many connections)
    return isinstance(exc, asyncpg.PostgresError) and getattr(exc, "sqlstate", "") in ("40001", "40P01", "55P03", "57014", "57P01", "57P03")


_SQLITE_FORMS = "use sqlite:///relative.sqlite3, sqlite:////absolute/path.sqlite3 or sqlite://:memory:"


@dataclass(frozen=True)
class DatabaseURL:
    """A parsed database URL: ``kind`` is 'sqlite' or 'postgres'."""

    kind: str
    # sqlite: a file path or ':memory:'; postgres: the DSN handed to asyncpg (without our own params).
    target: str
    options: dict[str, str] = field(default_factory=dict)


def _bad(url: str, why: str) -> ValueError:
    shown = url if len(url) <= 80 else url[:77] + "..."
    # Never echo a password.
    try:
        parts = urlsplit(shown)
        if parts.password:
            shown = shown.replace(f":{parts.password}@", ":***@")
    except ValueError:
        pass
    return ValueError(f"bad database URL {shown!r}: {why}")


def parse_database_url(url: str) -> DatabaseURL:
    """Parse and check a database URL; raises ``ValueError`` with a one-line message."""
    if not isinstance(url, str) or not url.strip():
        raise ValueError("bad database URL: it is empty (set DATABASE_URL, e.g. sqlite:///partida.sqlite3)")
    url = url.strip()
    scheme = url.split(":", 1)[0].lower() if ":" in url else ""
    if scheme == "sqlite":
        return _parse_sqlite(url)
    if scheme in ("postgresql", "postgres"):
        return _parse_postgres(url)
    raise _bad(url, "the scheme must be sqlite:// or postgresql://")


def _parse_sqlite(url: str) -> DatabaseURL:
    if not url.lower().startswith("sqlite://"):
        raise _bad(url, _SQLITE_FORMS)
    rest = url[len("sqlite://") :]
    rest, _, query = rest.partition("?")
    if rest in (":memory:", "/:memory:"):
        path = ":memory:"
    elif rest.startswith("/") and len(rest) > 1:
        path = unquote(rest[1:])
    else:
        raise _bad(url, _SQLITE_FORMS)
    if "\x00" in path:
        raise _bad(url, "the path contains a NUL byte")
    options = dict(parse_qsl(query, keep_blank_values=True))
    unknown = set(options) - {"busy_timeout", "synchronous"}
    if unknown:
        raise _bad(url, f"unknown option(s) {', '.join(sorted(unknown))} (known: busy_timeout, synchronous)")
    if "busy_timeout" in options and not options["busy_timeout"].isdigit():
        raise _bad(url, "busy_timeout must be a whole number of milliseconds")
    if "synchronous" in options:
        options["synchronous"] = options["synchronous"].lower()
        if options["synchronous"] not in ("off", "normal", "full", "extra"):
            raise _bad(url, "synchronous must be off, normal, full or extra")
    return DatabaseURL("sqlite", path, options)


def _parse_postgres(url: str) -> DatabaseURL:
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError on a bad port
    except ValueError as e:
        raise _bad(url, str(e)) from None
    if not url.lower().startswith(parts.scheme.lower() + "://"):
        raise _bad(url, "use postgresql://user:password@host:port/dbname")
    query = parse_qsl(parts.query, keep_blank_values=True)
    options = {}
    rest = []
    for key, value in query:
        if key == "schema":
            if not SCHEMA_NAME.match(value):
                raise _bad(url, "schema must be a lower-case SQL name (letters, digits, _)")
            options["schema"] = value
        else:
            rest.append((key, value))
    dsn = urlunsplit((parts.scheme, parts.netloc, parts.path, urlencode(rest), parts.fragment))
    return DatabaseURL("postgres", dsn, options)


async def open_store(database_url: str) -> Store:
    """Open the store named by ``database_url`` and bring its schema up to date."""
    parsed = parse_database_url(database_url)
    if parsed.kind == "sqlite":
        from .sqlite import SqliteStore

        return await SqliteStore.open(
            parsed.target,
            busy_timeout_ms=int(parsed.options.get("busy_timeout", 5000)),
            synchronous=parsed.options.get("synchronous", "normal"),
        )
    try:
        from .postgres import PostgresStore
    except ImportError as e:  # asyncpg is the optional 'postgres' extra
        raise RuntimeError(
            f"a postgresql:// DATABASE_URL needs asyncpg: pip install 'partida[postgres]' ({e})"
        ) from e

    return await PostgresStore.open(parsed.target, schema=parsed.options.get("schema"))
