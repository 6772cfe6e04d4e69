"""SQLite back end (aiosqlite): one connection per store, WAL journal, busy_timeout.

Every write runs in ``BEGIN IMMEDIATE`` so it holds SQLite's single write lock from its first
statement: two stores (or processes) on one file queue up behind busy_timeout instead of failing
half-way, and the version compare-and-set in ``UPDATE ... WHERE version = ?`` sees the latest commit.
Inside one store an asyncio lock keeps coroutines from interleaving statements on the connection.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import dataclasses
import functools
import json
import logging
import sqlite3
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import aiosqlite

from .base import (
    COLUMNS,
    ActionRecord,
    ActTime,
    ChannelBusy,
    DamagedMatch,
    EventRecord,
    FinishedMatch,
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
    Quarantine,
    RatingRow,
    RawJSON,
    Store,
    Totals,
    VersionConflict,
    check_changes,
    check_create,
    check_int64,
    check_match_row,
    check_move,
    check_note,
    dumps,
    handed_keys,
    job_match,
    seat_user_ids,
    totals_added,
    utcnow,
)
from .migrate import SCHEMA_MIGRATIONS_DDL, check_applied, load_migrations, render

_JSON_COLUMNS = frozenset({"seats", "options", "setup", "state", "meta"})
_RATING_COLUMNS = "game, scope, player, mu, sigma, matches, wins, moves, timed, seconds"




def _rating(row: Any) -> RatingRow:
    return RatingRow(*row)


SYNCHRONOUS = ("off", "normal", "full", "extra")
_timing = logging.getLogger("partida.timing")  # DEBUG: one line per move transaction (bench/bot.py)



def _with_tail(t: str) -> str:
    """The match columns of table (or alias) ``t`` and the log's tail after its snapshot (see
    ``MatchRecord.tail``) as a JSON list of [seat, action], read in the same statement as the row."""
    cols = ", ".join(f"{t}.{c.strip()}" for c in COLUMNS.split(","))
    return (
        f"{cols}, (SELECT json_group_array(json_array(seat, json(action))) FROM (SELECT seat, action"
        f" FROM actions WHERE match_id = {t}.id AND idx >= {t}.state_at ORDER BY idx)) AS tail"
    )


MATCH = _with_tail("matches")
# A move: the snapshot only when given (NULL keeps the stored one and records how many actions it
# includes, so the tail after it grows by this move); the tail returned is the one before the move.
_MOVE_UPDATE = (
    "UPDATE matches SET state = COALESCE(?, state),"
    " state_at = CASE WHEN ? THEN NULL ELSE COALESCE(state_at,"
    " (SELECT COALESCE(MAX(idx) + 1, 0) FROM actions WHERE match_id = matches.id)) END,"
    " status = COALESCE(?, status), meta = COALESCE(?, meta), version = version + 1, updated_at = ?"
    f" WHERE id = ? AND version = ? RETURNING {MATCH}"
)
# idx = number of earlier actions (the log has no gaps, so MAX+1 is that count).
_MOVE_INSERT = (
    "INSERT INTO actions (match_id, idx, seat, action, revealed, created_at, story)"
    " SELECT ?, COALESCE(MAX(idx) + 1, 0), ?, ?, ?, ?, ? FROM actions WHERE match_id = ?"
)
_JOB_INSERT = (
    "INSERT INTO jobs (match_id, kind, key, lane, due_at, payload, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)"
    " ON CONFLICT (key) DO NOTHING"
)
_JOB_COLUMNS = (
    "id, match_id, kind, key, lane, due_at, payload, attempts, status, claimed_by, claimed_until,"
    " last_error, created_at, done_at"
)


# A HandOff (bot/store/base.py): lease, in the write's transaction, the pending jobs with these keys
# or of these lanes that are due, not leased and first of their lane.
_HAND_CLAIM = (
    "UPDATE jobs SET claimed_by = ?, claimed_until = ?, attempts = attempts + 1 WHERE id IN ("
    " SELECT j.id FROM jobs j WHERE j.status = 'pending' AND j.due_at <= ?"
    " AND (j.claimed_until IS NULL OR j.claimed_until <= ?)"
    " AND (j.key IN (SELECT value FROM json_each(?)) OR j.lane IN (SELECT value FROM json_each(?)))"
    " AND NOT EXISTS (SELECT 1 FROM jobs e WHERE e.status = 'pending' AND e.lane = j.lane AND e.id < j.id))"
    f" RETURNING {_JOB_COLUMNS}"
)
# ... and what those jobs read first: the match's notes and its players' settings and languages
def _notes_of(mid: str) -> str:
    """A subquery: every note of match ``mid`` (an SQL expression) as one JSON object by user id."""
    return f"(SELECT json_group_object(user_id, data) FROM seat_notes WHERE match_id = {mid})"


def _people_of(mid: str) -> str:
    """A subquery: the settings and language of match ``mid``'s players, one JSON object by user id."""
    return (
        "(SELECT json_group_object(p.user_id, json_array(s.data, l.locale)) FROM match_players p"
        " LEFT JOIN person_settings s ON s.user_id = p.user_id LEFT JOIN people l ON l.user_id = p.user_id"
        f" WHERE p.match_id = {mid})"
    )


def _notes_people(notes: str | None, people: str | None) -> tuple[dict[int, dict[str, Any]], dict[int, Person]]:
    """The two subqueries' answers (JSON text), decoded."""
    return (
        {int(uid): json.loads(data) for uid, data in json.loads(notes or "{}").items()},
        {int(uid): Person(json.loads(data) if data else {}, locale) for uid, (data, locale) in json.loads(people or "{}").items()},
    )


_HAND_READ = f"SELECT {_notes_of('?1')}, {_people_of('?1')}"


def _hand_params(hand: HandOff, keys: list[str], lanes: list[str]) -> tuple:
    n = _jts(hand.now)
    return (hand.owner, _jts(hand.until), n, n, json.dumps(keys), json.dumps(lanes))


def _hand_fill(hand: HandOff, rows: list[Any], read: Any = None) -> None:
    hand.jobs = sorted((_job(r) for r in rows), key=lambda j: (j.due_at, j.id))
    if read is not None:
        hand.notes, hand.people = _notes_people(read[0], read[1])


async def _hand(conn: Any, hand: HandOff | None, match_id: int | None, keys: list[str], lanes: list[str] = ()) -> None:
    """Lease the jobs a write hands to its process and read what they read first (``HandOff``)."""
    if hand is None:
        return
    rows = await _all(conn, _HAND_CLAIM, _hand_params(hand, keys, list(lanes))) if keys or lanes else []
    read = await _one(conn, _HAND_READ, (match_id,)) if match_id is not None else None
    _hand_fill(hand, rows, read)


def _jts(value: datetime) -> str:
    """Job times: fixed width UTC text, so comparing the text compares the times."""
    return value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%f+00:00")


async def _merge_note(conn: Any, match_id: int, user_id: int, changes: Any) -> dict[str, Any]:
    patch = dumps(dict(changes))
    # json_patch: RFC 7396 merge (a null removes the key); json() keeps it text JSON
    row = await _one(
        conn,
        "INSERT INTO seat_notes (match_id, user_id, data, updated_at) VALUES (?, ?, json_patch('{}', ?), ?)"
        " ON CONFLICT (match_id, user_id) DO UPDATE SET data = json_patch(seat_notes.data, ?),"
        " updated_at = excluded.updated_at RETURNING data",
        (match_id, user_id, patch, _ts(utcnow()), patch),
    )
    return json.loads(row[0])


def _job_params(jobs: list[NewJob], match_id: int | None, now: datetime) -> list[tuple]:
    out = []
    for job in jobs:
        if match_id is not None:
            job = job_match(job, match_id)
        out.append((job.match_id, job.kind, job.key, job.lane, _jts(job.due_at or now), dumps(dict(job.payload)), _jts(now)))
    return out


def _job(row: Any) -> Job:
    return Job(
        id=row[0], match_id=row[1], kind=row[2], key=row[3], lane=row[4], due_at=datetime.fromisoformat(row[5]),
        payload=json.loads(row[6]), attempts=row[7], status=row[8], claimed_by=row[9],
        claimed_until=None if row[10] is None else datetime.fromisoformat(row[10]), last_error=row[11],
        created_at=datetime.fromisoformat(row[12]), done_at=None if row[13] is None else datetime.fromisoformat(row[13]),
    )


def _ts(value: datetime) -> str:
    return value.isoformat()


def _json_or_null(value: Any) -> str | None:
    return None if value is None else dumps(value)


def _loads(text: str | None) -> Any:
    return None if text is None else json.loads(text)


_UNSET = object()


def _column(match_id: int, part: str, text: str | None, nullable: bool = False) -> Any:
    if text is None and nullable:
        return None
    try:
        return json.loads(text)
    except (ValueError, TypeError, RecursionError) as e:
        raise DamagedMatch(match_id, part, f"not JSON: {str(e)[:80]}") from None


def _state_sets(changes: dict[str, Any]) -> list[str]:
    """A state written whole is the state after every action: no tail after it."""
    return ["state_at = NULL"] if "state" in changes else []


def _tail(match_id: int, text: str | None) -> tuple[tuple[int, Any], ...]:
    pairs = _column(match_id, "state", text, nullable=True) or ()
    return tuple((seat, action) for seat, action in pairs)


def _match(row: Any, state: Any = _UNSET) -> MatchRecord:
    """A row as a record; ``DamagedMatch`` when a JSON column cannot be decoded."""
    mid = row[0]
    seats, options, meta = _column(mid, "seats", row[6]), _column(mid, "options", row[7]), _column(mid, "meta", row[13])
    check_match_row(mid, seats, options, meta)
    return MatchRecord(
        id=mid,
        guild_id=row[1],
        channel_id=row[2],
        game=row[3],
        status=row[4],
        host_id=row[5],
        seats=seats,
        options=options,
        seed=row[8],
        setup=_column(mid, "setup", row[9], nullable=True),
        state=_column(mid, "state", row[10], nullable=True) if state is _UNSET else state,
        version=row[11],
        lang=row[12],
        meta=meta,
        created_at=datetime.fromisoformat(row[14]),
        updated_at=datetime.fromisoformat(row[15]),
        state_at=row[16],
        tail=_tail(mid, row[17]),
    )


def _decoded(row: Any) -> MatchRecord | DamagedMatch:
    try:
        return _match(row)
    except DamagedMatch as e:
        return e


_BIG = 64 * 1024  # a snapshot this long (a marathon board) is decoded off the event loop


async def _records(rows: list[Any]) -> list[MatchRecord | DamagedMatch]:
    if sum(len(r[10] or "") for r in rows) > _BIG:
        return await asyncio.to_thread(lambda: [_decoded(r) for r in rows])
    return [_decoded(r) for r in rows]


async def _record(row: Any) -> MatchRecord | DamagedMatch | None:
    return None if row is None else (await _records([row]))[0]


def _is_live_channel_clash(err: sqlite3.IntegrityError) -> bool:
    return "matches.channel_id" in str(err)


async def _enable_wal(conn: aiosqlite.Connection, path: str, busy_timeout_ms: int) -> None:
    """Switch the file to WAL (a persistent setting). The switch needs an exclusive lock and SQLite
    does not always wait on busy_timeout for it when several connections open a new file at once,
    so retry "database is locked" here until busy_timeout has passed."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + max(busy_timeout_ms, 1000) / 1000
    delay = 0.005
    while True:
        try:
            row = await _one(conn, "PRAGMA journal_mode")
            if row is not None and str(row[0]).lower() == "wal":
                return
            row = await _one(conn, "PRAGMA journal_mode = WAL")
            if row is not None and str(row[0]).lower() == "wal":
                return
            raise RuntimeError(f"could not switch {path} to WAL mode (got {row!r})")
        except sqlite3.OperationalError as e:
            if ("locked" not in str(e) and "busy" not in str(e)) or loop.time() > deadline:
                raise
        await asyncio.sleep(delay)
        delay = min(delay * 2, 0.1)


async def _all(conn: aiosqlite.Connection, sql: str, params: Any = ()) -> list[Any]:
    """Execute and fetch in one hop to aiosqlite's thread (a RETURNING statement runs fully too)."""
    return list(await conn.execute_fetchall(sql, params))


async def _one(conn: aiosqlite.Connection, sql: str, params: Any = ()) -> Any:
    rows = await _all(conn, sql, params)
    return rows[0] if rows else None


class _Direct:
    """A plain sqlite3 connection behind the few awaitable methods the store's statements use. Its
    awaits never suspend, so a coroutine written against it runs to its end in one call
    (``_drive``): on the writer's thread, a whole transaction is one hand-off off the event loop
    instead of one per statement."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn

    @property
    def total_changes(self) -> int:
        return self._conn.total_changes

    async def execute_fetchall(self, sql: str, params: Any = ()) -> list[Any]:
        return self._conn.execute(sql, params).fetchall()

    async def execute(self, sql: str, params: Any = ()) -> sqlite3.Cursor:
        return self._conn.execute(sql, params)

    async def executemany(self, sql: str, rows: Any) -> sqlite3.Cursor:
        return self._conn.executemany(sql, rows)


def _drive(coro: Any) -> Any:
    """Run a coroutine that never suspends (its statements on a ``_Direct``) to its end."""
    try:
        coro.send(None)
    except StopIteration as done:
        return done.value
    coro.close()
    raise RuntimeError("a store statement waited on the writer's thread")


def _shielded(method):
    """Run a write to its end even if the caller is cancelled: aiosqlite would still execute the
    statements already queued, so an interrupted transaction could be left open on the connection."""

    @functools.wraps(method)
    async def wrapper(self, *args, **kwargs):
        return await asyncio.shield(method(self, *args, **kwargs))

    return wrapper


class SqliteStore(Store):
    single_process = True

    def __init__(self, conn: aiosqlite.Connection, path: str) -> None:
        self._conn = conn
        self.path = path
        self._lock = asyncio.Lock()
        self._closed = False
        self.quarantine = Quarantine()
        # A second, read-only connection for files: in WAL mode readers never wait for the writer,
        # so a click that only looks at a match does not queue behind moves being committed.
        self._reader: aiosqlite.Connection | None = None
        # Moves, the hot path, are committed by one plain sqlite3 connection owned by one thread:
        # the whole transaction is a single hop off the event loop, so a busy loop does not
        # stretch the time the write lock is held (SQLite's own lock orders it with other writes).
        self._mover: sqlite3.Connection | None = None
        self._mover_thread: concurrent.futures.ThreadPoolExecutor | None = None

    @classmethod
    async def open(cls, path: str, busy_timeout_ms: int = 5000, synchronous: str = "normal") -> SqliteStore:
        """Open (creating if needed) the database at ``path`` (or ':memory:') and migrate it.

        ``synchronous='normal'`` in WAL mode survives a crash of the process without losing commits;
        only a power cut can lose the last few. Use 'full' to fsync every commit.
        """
        if synchronous not in SYNCHRONOUS:
            raise ValueError(f"synchronous must be one of {', '.join(SYNCHRONOUS)}")
        if path != ":memory:":
            parent = Path(path).expanduser().resolve().parent
            if not parent.is_dir():
                raise FileNotFoundError(f"the folder for the SQLite database does not exist: {parent}")
        # isolation_level=None: no implicit transactions, we issue BEGIN IMMEDIATE / COMMIT ourselves.
        conn = await aiosqlite.connect(path, isolation_level=None)
        try:
            await conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
            if path != ":memory:":
                await _enable_wal(conn, path, busy_timeout_ms)
            await conn.execute(f"PRAGMA synchronous = {synchronous.upper()}")
            await conn.execute("PRAGMA foreign_keys = ON")
            store = cls(conn, path)
            await store._migrate()
            if path != ":memory:":
                reader = await aiosqlite.connect(path, isolation_level=None)
                await reader.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
                await reader.execute("PRAGMA query_only = ON")
                store._reader = reader
                store._mover_thread = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="partida-moves")

                def connect() -> sqlite3.Connection:
                    conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
                    conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
                    conn.execute(f"PRAGMA synchronous = {synchronous.upper()}")
                    conn.execute("PRAGMA foreign_keys = ON")
                    return conn

                store._mover = await asyncio.get_running_loop().run_in_executor(store._mover_thread, connect)
        except BaseException:
            await conn.close()
            raise
        return store

    # -- plumbing ------------------------------------------------------------------------------------

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[aiosqlite.Connection]:
        if self._reader is not None:
            self._check_open()
            yield self._reader
            return
        async with self._lock:
            self._check_open()
            yield self._conn

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[aiosqlite.Connection]:
        async with self._lock:
            self._check_open()
            await self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._conn
                await self._conn.execute("COMMIT")
            except BaseException:
                if self._conn.in_transaction:  # never leave a transaction open on the connection
                    await self._conn.execute("ROLLBACK")
                raise

    async def _tx(self, body: Callable[[Any], Awaitable[Any]]) -> Any:
        """Run ``body(conn)`` in one write transaction: on the writer's thread when there is one (a
        file: the whole transaction one hand-off off the event loop), else on the main connection."""
        if self._mover is None:
            async with self._write() as conn:
                return await body(conn)
        self._check_open()
        return await asyncio.get_running_loop().run_in_executor(self._mover_thread, self._tx_sync, body)

    def _tx_sync(self, body: Callable[[Any], Awaitable[Any]]) -> Any:
        conn = self._mover
        conn.execute("BEGIN IMMEDIATE")
        try:
            out = _drive(body(_Direct(conn)))
            conn.execute("COMMIT")
            return out
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise

    def _check_open(self) -> None:
        if self._closed:
            raise RuntimeError("the store is closed")

    async def _migrate(self) -> list[int]:
        """Apply pending migrations in one BEGIN IMMEDIATE transaction; returns the versions applied."""
        done = []
        async with self._write() as conn:
            await conn.execute(render(SCHEMA_MIGRATIONS_DDL, "sqlite"))
            applied = dict(await _all(conn, "SELECT version, name FROM schema_migrations"))
            for mig in check_applied(applied, load_migrations()):
                for stmt in mig.statements("sqlite"):
                    await conn.execute(stmt)
                await conn.execute(
                    "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                    (mig.version, mig.name, _ts(utcnow())),
                )
                done.append(mig.version)
        return done

    @staticmethod
    async def _fail_cas(conn: aiosqlite.Connection, match_id: int, expected: int) -> None:
        row = await _one(conn, "SELECT version FROM matches WHERE id = ?", (match_id,))
        if row is None:
            raise MatchNotFound(match_id)
        raise VersionConflict(row[0], expected)

    @staticmethod
    async def _live_id(conn: aiosqlite.Connection, channel_id: int) -> int | None:
        row = await _one(
            conn,
            "SELECT id FROM matches WHERE channel_id = ? AND status IN ('lobby', 'active')",
            (channel_id,),
        )
        return None if row is None else row[0]

    @staticmethod
    async def _set_players(conn: aiosqlite.Connection, match_id: int, seats: list[dict[str, Any]]) -> None:
        await conn.execute("DELETE FROM match_players WHERE match_id = ?", (match_id,))
        await conn.executemany(
            "INSERT INTO match_players (match_id, user_id) VALUES (?, ?)",
            [(match_id, uid) for uid in seat_user_ids(seats)],
        )

    # -- operations ----------------------------------------------------------------------------------

    @_shielded
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
        seats, meta = check_create(guild_id, channel_id, game, host_id, seats, options, lang, meta)
        now = _ts(utcnow())
        params = (
            guild_id,
            channel_id,
            game,
            host_id,
            dumps(seats),
            dumps(dict(options)),
            lang,
            dumps(meta),
            now,
            now,
        )
        async with self._write() as conn:
            try:
                row = await _one(
                    conn,
                    "INSERT INTO matches (guild_id, channel_id, game, status, host_id, seats, options, seed,"
                    " setup, state, version, lang, meta, created_at, updated_at)"
                    " VALUES (?, ?, ?, 'lobby', ?, ?, ?, NULL, NULL, NULL, 0, ?, ?, ?, ?)"
                    f" RETURNING {MATCH}",
                    params,
                )
            except sqlite3.IntegrityError as e:
                if _is_live_channel_clash(e):
                    raise ChannelBusy(await self._live_id(conn, channel_id)) from None
                raise
            record = _match(row)
            await self._set_players(conn, record.id, seats)
        return record

    async def get(self, match_id: int) -> MatchRecord | None:
        async with self._read() as conn:
            row = await _one(conn, f"SELECT {MATCH} FROM matches WHERE id = ?", (match_id,))
        return self.one(await _record(row))

    async def active_in_channel(self, channel_id: int) -> MatchRecord | None:
        async with self._read() as conn:
            row = await _one(
                conn,
                f"SELECT {MATCH} FROM matches WHERE channel_id = ? AND status IN ('lobby', 'active')",
                (channel_id,),
            )
        return self.one(await _record(row))

    async def matches_for_user(self, user_id: int, active_only: bool = True) -> list[MatchRecord]:
        live = " AND m.status IN ('lobby', 'active')" if active_only else ""
        cols = _with_tail("m")
        async with self._read() as conn:
            rows = await _all(
                conn,
                f"SELECT {cols} FROM match_players p JOIN matches m ON m.id = p.match_id"
                f" WHERE p.user_id = ?{live} ORDER BY m.id DESC",
                (user_id,),
            )
        return self.healthy(await _records(rows))

    async def live_matches(self) -> list[MatchRecord]:
        async with self._read() as conn:
            rows = await _all(conn, f"SELECT {MATCH} FROM matches WHERE status IN ('lobby', 'active') ORDER BY id", ())
        return self.healthy(await _records(rows))

    async def history_in_channel(self, channel_id: int, limit: int = 20) -> list[MatchRecord]:
        async with self._read() as conn:
            rows = await _all(
                conn,
                f"SELECT {MATCH} FROM matches WHERE channel_id = ? ORDER BY id DESC LIMIT ?",
                (channel_id, int(limit)),
            )
        return self.healthy(await _records(rows))

    @_shielded
    async def update(
        self, match_id: int, expected_version: int, *, jobs: list[NewJob] = (), hand: HandOff | None = None, **changes: Any,
    ) -> MatchRecord:
        changes = check_changes(changes)
        sets, params = [], []
        for key, value in changes.items():
            sets.append(f"{key} = ?")
            params.append(_json_or_null(value) if key in _JSON_COLUMNS else value)
        sets += _state_sets(changes) + ["version = version + 1", "updated_at = ?"]
        params += [_ts(utcnow()), match_id, expected_version]
        async with self._write() as conn:
            try:
                row = await _one(
                    conn,
                    f"UPDATE matches SET {', '.join(sets)} WHERE id = ? AND version = ? RETURNING {MATCH}",
                    params,
                )
            except sqlite3.IntegrityError as e:
                if _is_live_channel_clash(e):
                    (channel_id,) = await _one(
                        conn, "SELECT channel_id FROM matches WHERE id = ?", (match_id,)
                    )
                    raise ChannelBusy(await self._live_id(conn, channel_id)) from None
                raise
            if row is None:
                await self._fail_cas(conn, match_id, expected_version)
            if "seats" in changes:
                await self._set_players(conn, match_id, changes["seats"])
            now = utcnow()
            if jobs:
                await conn.executemany(_JOB_INSERT, _job_params(list(jobs), match_id, now))
            await _hand(conn, hand, match_id, handed_keys(jobs, hand, now))
        return await _record(row)

    @_shielded
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
        jobs: list[NewJob] = (),
        story: Any = None,
        hand: HandOff | None = None,
    ) -> MatchRecord:
        check_move(seat, status, meta)
        now_dt = utcnow()
        now = _ts(now_dt)
        action_json = dumps(action)
        state_json = _json_or_null(state)
        meta_json = None if meta is None else dumps(dict(meta))
        story_json = _json_or_null(story)
        params = (state_json, state_json is not None, status, meta_json, now, match_id, expected_version)
        job_rows = _job_params(list(jobs), match_id, now_dt)
        if self._mover is not None:
            self._check_open()
            row = await asyncio.get_running_loop().run_in_executor(
                self._mover_thread, self._commit_move_sync, params, seat, action_json, bool(revealed), story_json, job_rows,
                hand, handed_keys(jobs, hand, now_dt),
            )
        else:
            async with self._write() as conn:
                row = await _one(conn, _MOVE_UPDATE, params)
                if row is None:
                    await self._fail_cas(conn, match_id, expected_version)
                await conn.execute(_MOVE_INSERT, (match_id, seat, action_json, bool(revealed), now, story_json, match_id))
                if job_rows:
                    await conn.executemany(_JOB_INSERT, job_rows)
                await _hand(conn, hand, match_id, handed_keys(jobs, hand, now_dt))
        # the state just written is the caller's own: never parse it back (a marathon state is big);
        # without a snapshot, the tail returned (before this move) gains the move
        if state is None:
            rec = _match((*row[:10], None, *row[11:]), state=None)
            return dataclasses.replace(rec, tail=(*rec.tail, (seat, json.loads(action_json))))
        return _match((*row[:10], None, *row[11:]), state=state.value if isinstance(state, RawJSON) else state)

    def _commit_move_sync(
        self, params: tuple, seat: int, action_json: str, revealed: bool, story_json: str | None, job_rows: list[tuple],
        hand: HandOff | None = None, keys: list[str] = (),
    ) -> Any:
        """One move in one transaction, run on the movers' thread."""
        conn = self._mover
        now, match_id, expected_version = params[-3:]
        t0 = time.perf_counter()
        conn.execute("BEGIN IMMEDIATE")
        try:
            rows = conn.execute(_MOVE_UPDATE, params).fetchall()  # fetch all: the statement must finish
            row = rows[0] if rows else None
            if row is None:
                found = conn.execute("SELECT version FROM matches WHERE id = ?", (match_id,)).fetchone()
                if found is None:
                    raise MatchNotFound(match_id)
                raise VersionConflict(found[0], expected_version)
            conn.execute(_MOVE_INSERT, (match_id, seat, action_json, revealed, now, story_json, match_id))
            if job_rows:
                conn.executemany(_JOB_INSERT, job_rows)
            if hand is not None:
                claimed = conn.execute(_HAND_CLAIM, _hand_params(hand, list(keys), [])).fetchall() if keys else []
                _hand_fill(hand, claimed, conn.execute(_HAND_READ, (match_id,)).fetchone())
            conn.execute("COMMIT")
            if _timing.isEnabledFor(logging.DEBUG):
                _timing.debug("txn_ms=%.3f", (time.perf_counter() - t0) * 1000)
            return row
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise

    async def actions(self, match_id: int, since: int = 0) -> list[ActionRecord]:
        async with self._read() as conn:
            rows = await _all(
                conn,
                "SELECT match_id, idx, seat, action, revealed, created_at, story FROM actions"
                " WHERE match_id = ? AND idx >= ? ORDER BY idx",
                (match_id, int(since)),
            )
        return [
            ActionRecord(r[0], r[1], r[2], json.loads(r[3]), bool(r[4]), datetime.fromisoformat(r[5]), _loads(r[6]))
            for r in rows
        ]

    # -- jobs ----------------------------------------------------------------------------------------

    @_shielded
    async def add_jobs(self, jobs: list[NewJob], now: datetime | None = None) -> int:
        rows = _job_params(list(jobs), None, now or utcnow())
        if not rows:
            return 0
        async with self._write() as conn:
            before = conn.total_changes
            await conn.executemany(_JOB_INSERT, rows)
            return conn.total_changes - before

    @_shielded
    async def claim_jobs(self, owner: str, now: datetime, lease: timedelta, limit: int = 10) -> list[Job]:
        n = _jts(now)

        async def claim(conn: Any) -> list[Any]:
            return await _all(
                conn,
                f"UPDATE jobs SET claimed_by = ?, claimed_until = ?, attempts = attempts + 1 WHERE id IN ("
                " SELECT j.id FROM jobs j WHERE j.status = 'pending' AND j.due_at <= ?"
                " AND (j.claimed_until IS NULL OR j.claimed_until <= ?)"
                " AND NOT EXISTS (SELECT 1 FROM jobs e WHERE e.status = 'pending' AND e.lane = j.lane AND e.id < j.id)"
                f" ORDER BY j.due_at, j.id LIMIT ?) RETURNING {_JOB_COLUMNS}",
                (owner, _jts(now + lease), n, n, int(limit)),
            )

        rows = await self._tx(claim)
        return sorted((_job(r) for r in rows), key=lambda j: (j.due_at, j.id))

    async def _settle(self, sql: str, params: tuple) -> bool:
        async with self._write() as conn:
            cur = await conn.execute(sql, params)
            return cur.rowcount > 0

    @_shielded
    async def extend_leases(self, owner: str, job_ids: list[int], until: datetime) -> int:
        if not job_ids:
            return 0
        marks = ", ".join("?" * len(job_ids))
        async with self._write() as conn:
            cur = await conn.execute(
                f"UPDATE jobs SET claimed_until = ? WHERE id IN ({marks}) AND claimed_by = ? AND status = 'pending'",
                (_jts(until), *[int(i) for i in job_ids], owner),
            )
            return cur.rowcount

    @_shielded
    async def finish_jobs(self, owner: str, now: datetime, ends: list[JobEnd], *, hand: HandOff | None = None) -> list[bool]:
        for end in ends:
            for (_mid, uid), changes in dict(end.notes).items():
                check_note(uid, changes)

        async def finish(conn: Any) -> list[bool]:
            out: list[bool] = []
            lanes: list[str] = []
            keys: list[str] = []
            for end in ends:
                done = await _one(
                    conn,
                    "UPDATE jobs SET status = 'done', done_at = ?, claimed_until = NULL"
                    " WHERE id = ? AND claimed_by = ? AND status = 'pending' RETURNING lane",
                    (_jts(now), end.job_id, owner),
                )
                out.append(done is not None)
                if done is None:
                    continue  # its lease was lost: what it noted and planned is not written
                for (mid, uid), changes in dict(end.notes).items():
                    await _merge_note(conn, mid, uid, changes)
                if end.jobs:
                    await conn.executemany(_JOB_INSERT, _job_params(list(end.jobs), None, now))
                lanes.append(done[0])
                keys += handed_keys(end.jobs, hand, now)
            if lanes:
                await _hand(conn, hand, None, keys, lanes)
            return out

        return await self._tx(finish)

    @_shielded
    async def retry_job(self, job_id: int, owner: str, due_at: datetime, error: str) -> bool:
        return await self._settle(
            "UPDATE jobs SET due_at = ?, last_error = ?, claimed_by = NULL, claimed_until = NULL"
            " WHERE id = ? AND claimed_by = ? AND status = 'pending'",
            (_jts(due_at), error[:1000], job_id, owner),
        )

    @_shielded
    async def fail_job(self, job_id: int, owner: str, now: datetime, error: str) -> bool:
        return await self._settle(
            "UPDATE jobs SET status = 'failed', done_at = ?, last_error = ?, claimed_until = NULL"
            " WHERE id = ? AND claimed_by = ? AND status = 'pending'",
            (_jts(now), error[:1000], job_id, owner),
        )

    async def jobs(self, match_id: int | None = None, status: str | None = None) -> list[Job]:
        where, params = [], []
        if match_id is not None:
            where.append("match_id = ?")
            params.append(match_id)
        if status is not None:
            where.append("status = ?")
            params.append(status)
        cond = f" WHERE {' AND '.join(where)}" if where else ""
        async with self._read() as conn:
            rows = await _all(conn, f"SELECT {_JOB_COLUMNS} FROM jobs{cond} ORDER BY id", params)
        return [_job(r) for r in rows]

    async def next_due(self) -> datetime | None:
        async with self._read() as conn:
            row = await _one(
                conn,
                "SELECT MIN(CASE WHEN j.claimed_until IS NOT NULL AND j.claimed_until > j.due_at THEN j.claimed_until"
                " ELSE j.due_at END) FROM jobs j WHERE j.status = 'pending'"
                " AND NOT EXISTS (SELECT 1 FROM jobs e WHERE e.status = 'pending' AND e.lane = j.lane AND e.id < j.id)",
            )
        return None if row is None or row[0] is None else datetime.fromisoformat(row[0])

    @_shielded
    async def purge_jobs(self, before: datetime) -> int:
        async with self._write() as conn:
            cur = await conn.execute("DELETE FROM jobs WHERE status = 'done' AND done_at < ?", (_jts(before),))
            return cur.rowcount

    @_shielded
    async def release_claims(self, owner: str | None = None) -> int:
        sql = "UPDATE jobs SET claimed_by = NULL, claimed_until = NULL WHERE status = 'pending' AND claimed_by IS NOT NULL"
        async with self._write() as conn:
            cur = await conn.execute(sql + (" AND claimed_by = ?" if owner else ""), (owner,) if owner else ())
            return cur.rowcount

    # -- notes and people ----------------------------------------------------------------------------

    async def notes(self, match_id: int) -> dict[int, dict[str, Any]]:
        async with self._read() as conn:
            rows = await _all(conn, "SELECT user_id, data FROM seat_notes WHERE match_id = ?", (match_id,))
        return {r[0]: json.loads(r[1]) for r in rows}

    async def notes_of(self, match_ids: list[int]) -> dict[int, dict[int, dict[str, Any]]]:
        ids = [int(m) for m in match_ids]
        out: dict[int, dict[int, dict[str, Any]]] = {m: {} for m in ids}
        if not ids:
            return out
        async with self._read() as conn:
            rows = await _all(
                conn, "SELECT match_id, user_id, data FROM seat_notes WHERE match_id IN (SELECT value FROM json_each(?))",
                (json.dumps(ids),),
            )
        for mid, uid, data in rows:
            out[mid][uid] = json.loads(data)
        return out

    @_shielded
    async def set_note(self, match_id: int, user_id: int, changes: dict[str, Any]) -> dict[str, Any]:
        check_note(user_id, changes)
        return await self._tx(lambda conn: _merge_note(conn, match_id, user_id, changes))

    @_shielded
    async def set_locale(self, user_id: int, locale: str) -> None:
        check_note(user_id, {})
        async with self._write() as conn:
            await conn.execute(
                "INSERT INTO people (user_id, locale, updated_at) VALUES (?, ?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET locale = excluded.locale, updated_at = excluded.updated_at",
                (user_id, str(locale), _ts(utcnow())),
            )

    async def locales(self, user_ids: list[int]) -> dict[int, str]:
        ids = [int(u) for u in user_ids]
        if not ids:
            return {}
        async with self._read() as conn:
            rows = await _all(
                conn, f"SELECT user_id, locale FROM people WHERE user_id IN ({', '.join('?' * len(ids))})", ids
            )
        return {r[0]: r[1] for r in rows}

    # -- the table: events besides moves, undo, statistics -------------------------------------------

    @_shielded
    async def change(
        self, match_id: int, expected_version: int, event: NewEvent | None, *, keep: int | None = None,
        jobs: list[NewJob] = (), hand: HandOff | None = None, **changes: Any,
    ) -> MatchRecord:
        changes = check_changes(changes)
        if keep is not None and (not isinstance(keep, int) or isinstance(keep, bool) or keep < 0):
            raise ValueError(f"keep must be a non-negative integer, got {keep!r}")
        sets, params = [], []
        for key, value in changes.items():
            sets.append(f"{key} = ?")
            params.append(_json_or_null(value) if key in _JSON_COLUMNS else value)
        if keep is not None and "state" not in changes:
            raise ValueError("removing actions (keep) needs the state they leave")
        now = utcnow()
        sets += _state_sets(changes) + ["version = version + 1", "updated_at = ?"]
        params += [_ts(now), match_id, expected_version]
        async with self._write() as conn:
            try:
                row = await _one(
                    conn, f"UPDATE matches SET {', '.join(sets)} WHERE id = ? AND version = ? RETURNING {MATCH}", params
                )
            except sqlite3.IntegrityError as e:
                if _is_live_channel_clash(e):
                    (channel_id,) = await _one(conn, "SELECT channel_id FROM matches WHERE id = ?", (match_id,))
                    raise ChannelBusy(await self._live_id(conn, channel_id)) from None
                raise
            if row is None:
                await self._fail_cas(conn, match_id, expected_version)
            if keep is not None:
                await conn.execute("DELETE FROM actions WHERE match_id = ? AND idx >= ?", (match_id, keep))
            if "seats" in changes:
                await self._set_players(conn, match_id, changes["seats"])
            if event is not None:
                await self._insert_event(conn, match_id, event, now)
            if jobs:
                await conn.executemany(_JOB_INSERT, _job_params(list(jobs), match_id, now))
            await _hand(conn, hand, match_id, handed_keys(jobs, hand, now))
        return _match(row)

    @staticmethod
    async def _insert_event(conn: aiosqlite.Connection, match_id: int, event: NewEvent, now: datetime) -> EventRecord:
        check_int64("user_id", event.user_id, nullable=True)
        (count,) = await _one(conn, "SELECT COUNT(*) FROM actions WHERE match_id = ?", (match_id,))
        cur = await conn.execute(
            "INSERT INTO match_events (match_id, at_action, kind, user_id, data, created_at) VALUES (?, ?, ?, ?, ?, ?)",
            (match_id, count, event.kind, event.user_id, dumps(dict(event.data)), _ts(now)),
        )
        return EventRecord(cur.lastrowid, match_id, count, event.kind, event.user_id, dict(event.data), now)

    @_shielded
    async def add_event(self, match_id: int, event: NewEvent) -> EventRecord:
        async with self._write() as conn:
            if await _one(conn, "SELECT 1 FROM matches WHERE id = ?", (match_id,)) is None:
                raise MatchNotFound(match_id)
            return await self._insert_event(conn, match_id, event, utcnow())

    async def events(self, match_id: int) -> list[EventRecord]:
        async with self._read() as conn:
            rows = await _all(
                conn,
                "SELECT id, match_id, at_action, kind, user_id, data, created_at FROM match_events WHERE match_id = ? ORDER BY id",
                (match_id,),
            )
        return [EventRecord(r[0], r[1], r[2], r[3], r[4], json.loads(r[5]), datetime.fromisoformat(r[6])) for r in rows]

    async def finished_in_guild(self, guild_id: int, limit: int = 2000) -> list[MatchRecord]:
        async with self._read() as conn:
            rows = await _all(
                conn,
                f"SELECT {MATCH} FROM matches WHERE guild_id = ? AND status = 'finished' ORDER BY id DESC LIMIT ?",
                (guild_id, int(limit)),
            )
        return self.healthy(await _records(rows))  # a thousand final snapshots: decoded off the loop

    async def action_timing(self, match_ids: list[int]) -> dict[tuple[int, int], tuple[int, int, float]]:
        ids = [int(i) for i in match_ids]
        if not ids:
            return {}
        async with self._read() as conn:
            rows = await _all(
                conn,
                "SELECT match_id, seat, COUNT(*), COUNT(prev), COALESCE(SUM((julianday(created_at) - julianday(prev)) * 86400.0), 0)"
                " FROM (SELECT match_id, seat, created_at, LAG(created_at) OVER (PARTITION BY match_id ORDER BY idx) AS prev"
                f" FROM actions WHERE match_id IN ({', '.join('?' * len(ids))})) GROUP BY match_id, seat",
                ids,
            )
        return {(r[0], r[1]): (r[2], r[3], float(r[4])) for r in rows}

    async def people(self, user_ids: list[int]) -> dict[int, Person]:
        ids = [int(u) for u in user_ids]
        if not ids:
            return {}
        async with self._read() as conn:
            rows = await _all(
                conn,
                "SELECT ids.value, (SELECT data FROM person_settings WHERE user_id = ids.value),"
                " (SELECT locale FROM people WHERE user_id = ids.value) FROM json_each(?) AS ids",
                (json.dumps(ids),),
            )
        return {r[0]: Person(json.loads(r[1]) if r[1] else {}, r[2]) for r in rows}

    async def read(self, match_id: int, newer_than: tuple[str, int] | None = None) -> MatchRead | None:
        kind, job_id = newer_than if newer_than is not None else (None, 0)
        async with self._read() as conn:
            row = await _one(
                conn,
                f"SELECT {MATCH}, {_notes_of('matches.id')},"
                " CASE WHEN ? IS NULL THEN 0 ELSE EXISTS (SELECT 1 FROM jobs WHERE match_id = matches.id"
                f" AND kind = ? AND status = 'pending' AND id > ?) END, {_people_of('matches.id')} FROM matches WHERE id = ?",
                (kind, kind, int(job_id), match_id),
            )
        rec = self.one(await _record(row[:18] if row is not None else None))
        if rec is None:
            return None
        notes, people = _notes_people(row[18], row[20])
        return MatchRead(rec, notes, bool(row[19]), people)

    async def log_since(self, match_id: int, since: int = 0) -> Log:
        async with self._read() as conn:
            row = await _one(
                conn,
                "SELECT (SELECT json_group_array(json_array(idx, seat, action, revealed, created_at, story)) FROM"
                " (SELECT idx, seat, action, revealed, created_at, story FROM actions WHERE match_id = ?1 AND idx >= ?2 ORDER BY idx)),"
                " (SELECT json_group_array(json_array(id, at_action, kind, user_id, data, created_at)) FROM"
                " (SELECT id, at_action, kind, user_id, data, created_at FROM match_events WHERE match_id = ?1 ORDER BY id)),"
                " (SELECT version FROM matches WHERE id = ?1)",
                (match_id, int(since)),
            )
        actions = [
            ActionRecord(match_id, i, seat, json.loads(a), bool(rev), datetime.fromisoformat(at), _loads(story))
            for i, seat, a, rev, at, story in json.loads(row[0])
        ]
        events = [
            EventRecord(eid, match_id, at_action, kind, uid, json.loads(data), datetime.fromisoformat(at))
            for eid, at_action, kind, uid, data, at in json.loads(row[1])
        ]
        return Log(actions, events, row[2])

    async def person(self, user_id: int) -> dict[str, Any]:
        async with self._read() as conn:
            row = await _one(conn, "SELECT data FROM person_settings WHERE user_id = ?", (int(user_id),))
        return json.loads(row[0]) if row else {}

    @_shielded
    async def set_person(self, user_id: int, changes: dict[str, Any]) -> dict[str, Any]:
        check_note(user_id, changes)
        patch = dumps(dict(changes))
        async with self._write() as conn:
            row = await _one(
                conn,
                "INSERT INTO person_settings (user_id, data, updated_at) VALUES (?, json_patch('{}', ?), ?)"
                " ON CONFLICT (user_id) DO UPDATE SET data = json_patch(person_settings.data, ?),"
                " updated_at = excluded.updated_at RETURNING data",
                (user_id, patch, _ts(utcnow()), patch),
            )
        return json.loads(row[0])

    # -- ratings, stored aggregates, act times (issue 21) ---------------------------------------------

    @_shielded
    async def record_result(
        self, finished: FinishedMatch, rate: Callable[[list[RatingRow]], list[RatingRow]]
    ) -> list[RatingRow] | None:
        check_int64("match_id", finished.match_id)
        check_int64("guild_id", finished.guild_id, nullable=True)
        now = _ts(utcnow())
        players, scopes = finished.players, finished.scopes
        # BEGIN IMMEDIATE holds SQLite's one write lock: ratings change one match at a time
        async with self._write() as conn:
            cur = await conn.execute(
                "INSERT INTO rated_matches (match_id, game, guild_id, places, rated_at) VALUES (?, ?, ?, ?, ?)"
                " ON CONFLICT (match_id) DO NOTHING",
                (finished.match_id, finished.game, finished.guild_id, dumps(finished.places), now),
            )
            if cur.rowcount != 1:
                return None
            rows = await _all(
                conn,
                f"SELECT {_RATING_COLUMNS} FROM ratings WHERE game = ?"
                f" AND scope IN ({', '.join('?' * len(scopes))}) AND player IN ({', '.join('?' * len(players))})",
                (finished.game, *scopes, *players),
            )
            old = [_rating(r) for r in rows]
            new = rate(old)
            await conn.executemany(
                f"INSERT INTO ratings ({_RATING_COLUMNS}, ordinal, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (game, scope, player) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma,"
                " ordinal = excluded.ordinal, matches = excluded.matches, wins = excluded.wins, moves = excluded.moves,"
                " timed = excluded.timed, seconds = excluded.seconds, updated_at = excluded.updated_at",
                [(r.game, r.scope, r.player, r.mu, r.sigma, r.matches, r.wins, r.moves, r.timed, r.seconds, r.ordinal, now)
                 for r in new],
            )
            await conn.executemany(
                "INSERT INTO player_totals (scope, player, matches, wins, moves, timed, seconds) VALUES (?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (scope, player) DO UPDATE SET matches = matches + excluded.matches,"
                " wins = wins + excluded.wins, moves = moves + excluded.moves, timed = timed + excluded.timed,"
                " seconds = seconds + excluded.seconds",
                [(t.scope, t.player, t.matches, t.wins, t.moves, t.timed, t.seconds) for t in totals_added(old, new)],
            )
            await conn.executemany(
                "INSERT INTO rating_totals (scope, game, matches) VALUES (?, ?, 1)"
                " ON CONFLICT (scope, game) DO UPDATE SET matches = matches + 1",
                [(scope, finished.game) for scope in scopes],
            )
        return list(new)

    async def rated(self, match_id: int) -> bool:
        async with self._read() as conn:
            return await _one(conn, "SELECT 1 FROM rated_matches WHERE match_id = ?", (int(match_id),)) is not None

    async def unrated_finished(self, after_id: int = 0, limit: int = 1000) -> list[int]:
        async with self._read() as conn:
            rows = await _all(
                conn,
                "SELECT m.id FROM matches m LEFT JOIN rated_matches r ON r.match_id = m.id"
                " WHERE m.status = 'finished' AND m.id > ? AND r.match_id IS NULL ORDER BY m.id LIMIT ?",
                (int(after_id), int(limit)),
            )
        return [r[0] for r in rows]

    async def leaderboard(self, game: str, scope: int, limit: int = 10) -> list[RatingRow]:
        async with self._read() as conn:
            rows = await _all(
                conn,
                f"SELECT {_RATING_COLUMNS} FROM ratings WHERE scope = ? AND game = ? ORDER BY ordinal DESC, player LIMIT ?",
                (int(scope), game, int(limit)),
            )
        return [_rating(r) for r in rows]

    async def player_ratings(self, player: str, scope: int | None = None) -> list[RatingRow]:
        sql = f"SELECT {_RATING_COLUMNS} FROM ratings WHERE player = ?"
        params: tuple = (player,)
        if scope is not None:
            sql, params = sql + " AND scope = ?", (player, int(scope))
        async with self._read() as conn:
            rows = await _all(conn, sql + " ORDER BY game, scope", params)
        return [_rating(r) for r in rows]

    async def scope_totals(self, scope: int) -> dict[str, int]:
        async with self._read() as conn:
            rows = await _all(conn, "SELECT game, matches FROM rating_totals WHERE scope = ?", (int(scope),))
        return {r[0]: r[1] for r in rows}

    async def scope_players(self, scope: int, game: str | None = None, limit: int = 10) -> list[Totals]:
        async with self._read() as conn:
            if game is None:
                rows = await _all(
                    conn,
                    "SELECT scope, player, matches, wins, moves, timed, seconds FROM player_totals WHERE scope = ?"
                    " ORDER BY wins DESC, matches DESC, player LIMIT ?",
                    (int(scope), int(limit)),
                )
            else:
                rows = await _all(
                    conn,
                    "SELECT scope, player, matches, wins, moves, timed, seconds FROM ratings WHERE scope = ? AND game = ?"
                    " ORDER BY wins DESC, matches DESC, player LIMIT ?",
                    (int(scope), game, int(limit)),
                )
        return [Totals(*r) for r in rows]

    @_shielded
    async def add_act_times(self, samples: list[ActTime]) -> None:
        if not samples:
            return
        for sample in samples:
            check_int64("user_id", sample.user_id)
            check_int64("match_id", sample.match_id)
        async with self._write() as conn:
            await conn.executemany(
                "INSERT INTO act_times (user_id, match_id, seconds, at) VALUES (?, ?, ?, ?)",
                [(x.user_id, x.match_id, float(x.seconds), _ts(x.at)) for x in samples],
            )

    async def act_times(self, user_id: int, match_id: int | None = None, limit: int = 500) -> list[float]:
        async with self._read() as conn:
            if match_id is None:
                rows = await _all(
                    conn, "SELECT seconds FROM act_times WHERE user_id = ? ORDER BY id DESC LIMIT ?", (int(user_id), int(limit))
                )
            else:
                rows = await _all(
                    conn,
                    "SELECT seconds FROM act_times WHERE match_id = ? AND user_id = ? ORDER BY id DESC LIMIT ?",
                    (int(match_id), int(user_id), int(limit)),
                )
        return [r[0] for r in rows]

    async def close(self) -> None:
        async with self._lock:
            if not self._closed:
                self._closed = True
                await self._conn.close()
                if self._reader is not None:
                    await self._reader.close()
                if self._mover is not None:
                    await asyncio.get_running_loop().run_in_executor(self._mover_thread, self._mover.close)
                    self._mover_thread.shutdown(wait=True)
