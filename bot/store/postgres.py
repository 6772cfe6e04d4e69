"""PostgreSQL back end (asyncpg pool), same behaviour as the SQLite one.

JSON columns are JSON (order-preserving), timestamps TIMESTAMPTZ. The version compare-and-set is a single
``UPDATE ... WHERE id = $1 AND version = $2``: the row lock makes racing writers queue, and under
READ COMMITTED the loser re-checks the row, sees the new version and updates nothing. Migrations run
under a transaction-scoped advisory lock so processes starting together apply them once.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

import asyncpg

from .base import (
    COLUMNS,
    SCHEMA_NAME,
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

LIVE_INDEX = "matches_one_live_per_channel"
_RATING_COLUMNS = "game, scope, player, mu, sigma, matches, wins, moves, timed, seconds"


class Undecodable:
    """What a JSON column whose text Python cannot decode (a 100,000-deep nesting) reads as."""

    def __init__(self, reason: str) -> None:
        self.reason = reason


def _decode_json(text: str) -> Any:
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as e:
        return Undecodable(str(e)[:80])


def _with_tail(cols: str, t: str) -> str:
    """``cols`` and the log's tail after the snapshot of table (or alias) ``t`` (see
    ``MatchRecord.tail``), a JSON list of [seat, action] read in the same statement as the row."""
    return (
        f"{cols}, (SELECT json_agg(json_build_array(a.seat, a.action) ORDER BY a.idx) FROM actions a"
        f" WHERE a.match_id = {t}.id AND a.idx >= {t}.state_at) AS tail"
    )


MATCH = _with_tail(COLUMNS, "matches")


def _state_sets(changes: dict[str, Any]) -> list[str]:
    """A state written whole is the state after every action: no tail after it."""
    return ["state_at = NULL"] if "state" in changes else []


def _tail_of(fields: dict[str, Any]) -> None:
    tail = fields.get("tail")
    if isinstance(tail, Undecodable):
        raise DamagedMatch(fields["id"], "state", f"not JSON: {tail.reason}")
    fields["tail"] = tuple((seat, action) for seat, action in (tail or ()))


def _record_of(fields: dict[str, Any]) -> MatchRecord:
    """A row's columns as a record; ``DamagedMatch`` when a JSON column cannot be decoded or has the
    wrong shape."""
    for part in ("seats", "options", "meta", "setup", "state"):
        if isinstance(fields.get(part), Undecodable):
            raise DamagedMatch(fields["id"], part, f"not JSON: {fields[part].reason}")
    check_match_row(fields["id"], fields["seats"], fields["options"], fields["meta"])
    _tail_of(fields)
    return MatchRecord(**fields)


def _match(row: asyncpg.Record, state_text: bool = False) -> MatchRecord:
    """A row as a record (``_record_of``); ``state_text``: the state was selected as text (decoded here)."""
    fields = dict(row.items())
    if state_text and fields.get("state") is not None:
        fields["state"] = _decode_json(fields["state"])
    return _record_of(fields)


def _decoded_fields(fields: dict[str, Any]) -> MatchRecord | DamagedMatch:
    try:
        return _record_of(fields)
    except DamagedMatch as e:
        return e


def _decoded(row: asyncpg.Record, state_text: bool = False) -> MatchRecord | DamagedMatch:
    try:
        return _match(row, state_text)
    except DamagedMatch as e:
        return e


_JOB_COLUMNS = (
    "id, match_id, kind, key, lane, due_at, payload, attempts, status, claimed_by, claimed_until,"
    " last_error, created_at, done_at"
)
_JOB_INSERT = (
    "INSERT INTO jobs (match_id, kind, key, lane, due_at, payload, created_at)"
    " VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (key) DO NOTHING"
)


def _job(row: asyncpg.Record) -> Job:
    return Job(**dict(row.items()))


# A HandOff (bot/store/base.py): lease, in the write's transaction, the pending jobs with these keys
# or of these lanes that are due, not leased and first of their lane ...
_HAND_CLAIM = (
    "WITH c AS ("
    " SELECT j.id FROM jobs j WHERE j.status = 'pending' AND j.due_at <= $1"
    " AND (j.claimed_until IS NULL OR j.claimed_until <= $1)"
    " AND (j.key = ANY($2::text[]) OR j.lane = ANY($3::text[]))"
    " AND NOT EXISTS (SELECT 1 FROM jobs e WHERE e.status = 'pending' AND e.lane = j.lane AND e.id < j.id)"
    " FOR UPDATE SKIP LOCKED"
    ") UPDATE jobs SET claimed_by = $4, claimed_until = $5, attempts = jobs.attempts + 1"
    " FROM c WHERE jobs.id = c.id RETURNING {cols}"
)
# ... and what those jobs read first: the match's notes and its players' settings and languages
def _notes_of(mid: str) -> str:
    """A subquery: every note of match ``mid`` (an SQL expression) as one JSON object by user id."""
    return f"(SELECT json_object_agg(user_id, data) FROM seat_notes WHERE match_id = {mid})"


def _people_of(mid: str) -> str:
    """A subquery: the settings and language of match ``mid``'s players, one JSON object by user id."""
    return (
        "(SELECT json_object_agg(p.user_id, json_build_array(s.data, l.locale)) FROM match_players p"
        " LEFT JOIN person_settings s ON s.user_id = p.user_id LEFT JOIN people l ON l.user_id = p.user_id"
        f" WHERE p.match_id = {mid})"
    )


def _notes_people(notes: Any, people: Any) -> tuple[dict[int, dict[str, Any]], dict[int, Person]]:
    """The two subqueries' answers, decoded."""
    return (
        {int(uid): data for uid, data in (notes or {}).items()},
        {int(uid): Person(data if data is not None else {}, locale) for uid, (data, locale) in (people or {}).items()},
    )


_HAND_READ = f"SELECT {_notes_of('$1')} AS notes_, {_people_of('$1')} AS people_"


async def _hand(conn: Any, hand: HandOff | None, match_id: int | None, keys: list[str], lanes: list[str] = ()) -> None:
    """Lease the jobs a write hands to its process and read what they read first (``HandOff``);
    run inside the write's transaction."""
    if hand is None:
        return
    rows = []
    if keys or lanes:
        cols = ", ".join("jobs." + c.strip() for c in _JOB_COLUMNS.split(","))
        rows = await conn.fetch(_HAND_CLAIM.format(cols=cols), hand.now, list(keys), list(lanes), hand.owner, hand.until)
    hand.jobs = sorted((_job(r) for r in rows), key=lambda j: (j.due_at, j.id))
    if match_id is not None:
        read = await conn.fetchrow(_HAND_READ, match_id)
        hand.notes, hand.people = _notes_people(read["notes_"], read["people_"])


async def _merge_note(conn: Any, match_id: int, user_id: int, changes: Any) -> dict[str, Any]:
    # one statement: the merge happens under the row lock, so two notes written at once both stay
    return await conn.fetchval(
        "INSERT INTO seat_notes (match_id, user_id, data, updated_at)"
        " VALUES ($1, $2, jsonb_strip_nulls($3::jsonb)::json, $4)"
        " ON CONFLICT (match_id, user_id) DO UPDATE SET"
        " data = jsonb_strip_nulls(seat_notes.data::jsonb || $3::jsonb)::json, updated_at = $4 RETURNING data",
        match_id,
        user_id,
        dict(changes),
        utcnow(),
    )


def _job_args(jobs: list[NewJob], match_id: int | None, now: datetime) -> list[tuple]:
    out = []
    for job in jobs:
        if match_id is not None:
            job = job_match(job, match_id)
        out.append((job.match_id, job.kind, job.key, job.lane, job.due_at or now, dict(job.payload), now))
    return out


def migration_lock_key(schema: str | None) -> int:
    """A signed 64-bit advisory-lock key, one per schema."""
    digest = hashlib.blake2b(f"partida-store-migrations:{schema or ''}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


def ratings_lock_key(schema: str | None, game: str) -> int:
    """A signed 64-bit advisory-lock key per schema and game: rating updates of one game queue."""
    digest = hashlib.blake2b(f"partida-ratings:{schema or ''}:{game}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


async def _keep_session(conn: asyncpg.Connection) -> None:
    """Pool release hook: the store sets no session state (no SET, LISTEN, cursors or session
    advisory locks), so skip asyncpg's default reset query and save a round trip per operation.
    asyncpg still rolls back a transaction left open."""


async def _init_connection(conn: asyncpg.Connection) -> None:
    for typename in ("jsonb", "json"):
        await conn.set_type_codec(typename, encoder=dumps, decoder=_decode_json, schema="pg_catalog")


class PostgresStore(Store):
    def __init__(self, pool: asyncpg.Pool, schema: str | None) -> None:
        self._pool = pool
        self.schema = schema
        self.quarantine = Quarantine()

    @property
    def _p(self) -> asyncpg.Pool:
        if self._pool.is_closing():
            raise RuntimeError("the store is closed")
        return self._pool

    @classmethod
    async def open(
        cls, dsn: str, schema: str | None = None, min_size: int = 1, max_size: int = 10
    ) -> PostgresStore:
        """Connect a pool to ``dsn`` and migrate. With ``schema`` every table lives in that schema
        (created if missing); otherwise in the server's default search_path."""
        if schema is not None and not SCHEMA_NAME.match(schema):
            raise ValueError(f"schema must match {SCHEMA_NAME.pattern}, got {schema!r}")
        settings = {"search_path": schema} if schema else None
        pool = await asyncpg.create_pool(
            dsn,
            min_size=min_size,
            max_size=max_size,
            server_settings=settings,
            init=_init_connection,
            reset=_keep_session,
        )
        store = cls(pool, schema)
        try:
            await store._migrate()
        except BaseException:
            await pool.close()
            raise
        return store

    async def _migrate(self) -> list[int]:
        done = []
        async with self._p.acquire() as conn, conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1)", migration_lock_key(self.schema))
            if self.schema:
                await conn.execute(f'CREATE SCHEMA IF NOT EXISTS "{self.schema}"')
            await conn.execute(render(SCHEMA_MIGRATIONS_DDL, "postgres"))
            applied = {
                r["version"]: r["name"]
                for r in await conn.fetch("SELECT version, name FROM schema_migrations")
            }
            for mig in check_applied(applied, load_migrations()):
                for stmt in mig.statements("postgres"):
                    await conn.execute(stmt)
                await conn.execute(
                    "INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)",
                    mig.version,
                    mig.name,
                    utcnow(),
                )
                done.append(mig.version)
        return done

    @staticmethod
    async def _fail_cas(conn: asyncpg.Connection, match_id: int, expected: int) -> None:
        current = await conn.fetchval("SELECT version FROM matches WHERE id = $1", match_id)
        if current is None:
            raise MatchNotFound(match_id)
        raise VersionConflict(current, expected)

    async def _live_id(self, channel_id: int) -> int | None:
        return await self._p.fetchval(
            "SELECT id FROM matches WHERE channel_id = $1 AND status IN ('lobby', 'active')", channel_id
        )

    @staticmethod
    async def _set_players(conn: asyncpg.Connection, match_id: int, seats: list[dict[str, Any]]) -> None:
        await conn.execute("DELETE FROM match_players WHERE match_id = $1", match_id)
        uids = seat_user_ids(seats)
        if uids:
            await conn.execute(
                "INSERT INTO match_players (match_id, user_id) SELECT $1::bigint, u FROM unnest($2::bigint[]) AS u",
                match_id,
                uids,
            )

    # -- operations ----------------------------------------------------------------------------------

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
        now = utcnow()
        try:
            async with self._p.acquire() as conn, conn.transaction():
                row = await conn.fetchrow(
                    "INSERT INTO matches (guild_id, channel_id, game, status, host_id, seats, options, seed,"
                    " setup, state, version, lang, meta, created_at, updated_at)"
                    " VALUES ($1, $2, $3, 'lobby', $4, $5, $6, NULL, NULL, NULL, 0, $7, $8, $9, $9)"
                    f" RETURNING {MATCH}",
                    guild_id,
                    channel_id,
                    game,
                    host_id,
                    seats,
                    dict(options),
                    lang,
                    meta,
                    now,
                )
                await self._set_players(conn, row["id"], seats)
        except asyncpg.UniqueViolationError as e:
            if e.constraint_name == LIVE_INDEX:
                raise ChannelBusy(await self._live_id(channel_id)) from None
            raise
        return _match(row)

    async def get(self, match_id: int) -> MatchRecord | None:
        row = await self._p.fetchrow(f"SELECT {MATCH} FROM matches WHERE id = $1", match_id)
        return None if row is None else self.one(_decoded(row))

    async def active_in_channel(self, channel_id: int) -> MatchRecord | None:
        row = await self._p.fetchrow(
            f"SELECT {MATCH} FROM matches WHERE channel_id = $1 AND status IN ('lobby', 'active')",
            channel_id,
        )
        return None if row is None else self.one(_decoded(row))

    async def matches_for_user(self, user_id: int, active_only: bool = True) -> list[MatchRecord]:
        live = " AND m.status IN ('lobby', 'active')" if active_only else ""
        cols = _with_tail(", ".join(f"m.{c.strip()}" for c in COLUMNS.split(",")), "m")
        rows = await self._p.fetch(
            f"SELECT {cols} FROM match_players p JOIN matches m ON m.id = p.match_id"
            f" WHERE p.user_id = $1{live} ORDER BY m.id DESC",
            user_id,
        )
        return self.healthy(_decoded(r) for r in rows)

    async def live_matches(self) -> list[MatchRecord]:
        rows = await self._p.fetch(f"SELECT {MATCH} FROM matches WHERE status IN ('lobby', 'active') ORDER BY id")
        return self.healthy(_decoded(r) for r in rows)

    async def history_in_channel(self, channel_id: int, limit: int = 20) -> list[MatchRecord]:
        rows = await self._p.fetch(
            f"SELECT {MATCH} FROM matches WHERE channel_id = $1 ORDER BY id DESC LIMIT $2",
            channel_id,
            int(limit),
        )
        return self.healthy(_decoded(r) for r in rows)

    async def update(
        self, match_id: int, expected_version: int, *, jobs: list[NewJob] = (), hand: HandOff | None = None, **changes: Any,
    ) -> MatchRecord:
        changes = check_changes(changes)
        sets, params = [], []
        for key, value in changes.items():
            params.append(value)
            sets.append(f"{key} = ${len(params)}")
        params += [utcnow(), match_id, expected_version]
        n = len(params)
        sets += _state_sets(changes) + ["version = version + 1", f"updated_at = ${n - 2}"]
        try:
            async with self._p.acquire() as conn, conn.transaction():
                row = await conn.fetchrow(
                    f"UPDATE matches SET {', '.join(sets)} WHERE id = ${n - 1} AND version = ${n}"
                    f" RETURNING {MATCH}",
                    *params,
                )
                if row is None:
                    await self._fail_cas(conn, match_id, expected_version)
                if "seats" in changes:
                    await self._set_players(conn, match_id, changes["seats"])
                now = utcnow()
                if jobs:
                    await conn.executemany(_JOB_INSERT, _job_args(list(jobs), match_id, now))
                await _hand(conn, hand, match_id, handed_keys(jobs, hand, now))
        except asyncpg.UniqueViolationError as e:
            if e.constraint_name == LIVE_INDEX:
                channel_id = await self._p.fetchval("SELECT channel_id FROM matches WHERE id = $1", match_id)
                raise ChannelBusy(await self._live_id(channel_id)) from None
            raise
        return _match(row)

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
        now = utcnow()
        # One statement for the move, so no window for the idx: any writer that committed a move
        # after this statement's snapshot also bumped the version, so our UPDATE (which re-checks the
        # newest row version under READ COMMITTED) matches nothing and nothing is inserted. The
        # (match_id, idx) primary key backs this up. The state is not returned (it is the caller's).
        # Without a snapshot (state None) the stored one stays and state_at records how many actions
        # it includes; the tail returned is the one before this move (the statement's snapshot).
        cols = _with_tail(COLUMNS.replace(" state,", " NULL::json AS state,"), "matches")
        sql = (
            "WITH upd AS ("
            " UPDATE matches SET state = COALESCE($1, state),"
            " state_at = CASE WHEN $1::json IS NOT NULL THEN NULL ELSE COALESCE(state_at,"
            " (SELECT COALESCE(MAX(b.idx) + 1, 0) FROM actions b WHERE b.match_id = $5)) END,"
            " status = COALESCE($2, status), meta = COALESCE($3, meta),"
            " version = version + 1, updated_at = $4"
            f" WHERE id = $5 AND version = $6 RETURNING {cols}"
            "), ins AS ("
            " INSERT INTO actions (match_id, idx, seat, action, revealed, created_at, story)"
            " SELECT upd.id, (SELECT COALESCE(MAX(a.idx) + 1, 0) FROM actions a WHERE a.match_id = $5),"
            " $7::integer, $8::json, $9::boolean, $4, $10::json FROM upd"
            ") SELECT * FROM upd"
        )
        args = (state, status, None if meta is None else dict(meta), now, match_id, expected_version, seat, action, bool(revealed), story)
        async with self._p.acquire() as conn:
            if jobs or hand is not None:
                async with conn.transaction():
                    row = await conn.fetchrow(sql, *args)
                    if row is None:
                        await self._fail_cas(conn, match_id, expected_version)
                    if jobs:
                        await conn.executemany(_JOB_INSERT, _job_args(list(jobs), match_id, now))
                    await _hand(conn, hand, match_id, handed_keys(jobs, hand, now))
            else:
                row = await conn.fetchrow(sql, *args)
                if row is None:
                    await self._fail_cas(conn, match_id, expected_version)
        values = dict(row.items())
        _tail_of(values)
        if state is None:
            values["tail"] = (*values["tail"], (seat, action))
        values["state"] = state.value if isinstance(state, RawJSON) else state
        return MatchRecord(**values)

    async def actions(self, match_id: int, since: int = 0) -> list[ActionRecord]:
        rows = await self._p.fetch(
            "SELECT match_id, idx, seat, action, revealed, created_at, story FROM actions"
            " WHERE match_id = $1 AND idx >= $2 ORDER BY idx",
            match_id,
            int(since),
        )
        return [ActionRecord(**dict(r.items())) for r in rows]

    # -- jobs ----------------------------------------------------------------------------------------

    async def add_jobs(self, jobs: list[NewJob], now: datetime | None = None) -> int:
        rows = _job_args(list(jobs), None, now or utcnow())
        if not rows:
            return 0
        added = 0
        async with self._p.acquire() as conn, conn.transaction():
            for args in rows:
                status = await conn.execute(_JOB_INSERT, *args)
                added += int(status.split()[-1])
        return added

    async def claim_jobs(self, owner: str, now: datetime, lease: timedelta, limit: int = 10) -> list[Job]:
        # SKIP LOCKED: processes claiming at once take different jobs and never wait on each other.
        # A claimed job stays 'pending' (leased), so the later jobs of its lane wait for it.
        rows = await self._p.fetch(
            "WITH c AS ("
            " SELECT j.id FROM jobs j WHERE j.status = 'pending' AND j.due_at <= $1"
            " AND (j.claimed_until IS NULL OR j.claimed_until <= $1)"
            " AND NOT EXISTS (SELECT 1 FROM jobs e WHERE e.status = 'pending' AND e.lane = j.lane AND e.id < j.id)"
            " ORDER BY j.due_at, j.id LIMIT $2 FOR UPDATE SKIP LOCKED"
            ") UPDATE jobs SET claimed_by = $3, claimed_until = $4, attempts = jobs.attempts + 1"
            f" FROM c WHERE jobs.id = c.id RETURNING {', '.join('jobs.' + c.strip() for c in _JOB_COLUMNS.split(','))}",
            now,
            int(limit),
            owner,
            now + lease,
        )
        return sorted((_job(r) for r in rows), key=lambda j: (j.due_at, j.id))

    async def _settle(self, sql: str, *args: Any) -> bool:
        status = await self._p.execute(sql, *args)
        return status.split()[-1] != "0"

    async def extend_leases(self, owner: str, job_ids: list[int], until: datetime) -> int:
        if not job_ids:
            return 0
        status = await self._p.execute(
            "UPDATE jobs SET claimed_until = $1 WHERE id = ANY($2::bigint[]) AND claimed_by = $3 AND status = 'pending'",
            until, [int(i) for i in job_ids], owner,
        )
        return int(status.split()[-1])

    async def finish_jobs(self, owner: str, now: datetime, ends: list[JobEnd], *, hand: HandOff | None = None) -> list[bool]:
        for end in ends:
            for (_mid, uid), changes in dict(end.notes).items():
                check_note(uid, changes)
        finish = (
            "UPDATE jobs SET status = 'done', done_at = $1, claimed_until = NULL"
            " WHERE id = $2 AND claimed_by = $3 AND status = 'pending' RETURNING lane"
        )
        if len(ends) == 1 and not ends[0].notes and not ends[0].jobs and hand is None:
            return [await self._p.fetchval(finish, now, ends[0].job_id, owner) is not None]  # one statement
        out: list[bool] = []
        lanes: list[str] = []
        keys: list[str] = []
        async with self._p.acquire() as conn, conn.transaction():
            for end in ends:
                lane = await conn.fetchval(finish, now, end.job_id, owner)
                out.append(lane is not None)
                if lane is None:
                    continue  # its lease was lost: what it noted and planned is not written
                for (mid, uid), changes in dict(end.notes).items():
                    await _merge_note(conn, mid, uid, changes)
                for args in _job_args(list(end.jobs), None, now):
                    await conn.execute(_JOB_INSERT, *args)
                lanes.append(lane)
                keys += handed_keys(end.jobs, hand, now)
            if lanes:
                await _hand(conn, hand, None, keys, lanes)
        return out

    async def retry_job(self, job_id: int, owner: str, due_at: datetime, error: str) -> bool:
        return await self._settle(
            "UPDATE jobs SET due_at = $1, last_error = $2, claimed_by = NULL, claimed_until = NULL"
            " WHERE id = $3 AND claimed_by = $4 AND status = 'pending'",
            due_at, error[:1000], job_id, owner,
        )

    async def fail_job(self, job_id: int, owner: str, now: datetime, error: str) -> bool:
        return await self._settle(
            "UPDATE jobs SET status = 'failed', done_at = $1, last_error = $2, claimed_until = NULL"
            " WHERE id = $3 AND claimed_by = $4 AND status = 'pending'",
            now, error[:1000], job_id, owner,
        )

    async def jobs(self, match_id: int | None = None, status: str | None = None) -> list[Job]:
        rows = await self._p.fetch(
            f"SELECT {_JOB_COLUMNS} FROM jobs WHERE ($1::bigint IS NULL OR match_id = $1)"
            " AND ($2::text IS NULL OR status = $2) ORDER BY id",
            match_id,
            status,
        )
        return [_job(r) for r in rows]

    async def next_due(self) -> datetime | None:
        return await self._p.fetchval(
            "SELECT MIN(GREATEST(j.due_at, COALESCE(j.claimed_until, j.due_at))) FROM jobs j WHERE j.status = 'pending'"
            " AND NOT EXISTS (SELECT 1 FROM jobs e WHERE e.status = 'pending' AND e.lane = j.lane AND e.id < j.id)"
        )

    async def purge_jobs(self, before: datetime) -> int:
        status = await self._p.execute("DELETE FROM jobs WHERE status = 'done' AND done_at < $1", before)
        return int(status.split()[-1])

    async def release_claims(self, owner: str | None = None) -> int:
        status = await self._p.execute(
            "UPDATE jobs SET claimed_by = NULL, claimed_until = NULL WHERE status = 'pending'"
            " AND claimed_by IS NOT NULL AND ($1::text IS NULL OR claimed_by = $1)",
            owner,
        )
        return int(status.split()[-1])

    # -- notes and people ----------------------------------------------------------------------------

    async def notes(self, match_id: int) -> dict[int, dict[str, Any]]:
        rows = await self._p.fetch("SELECT user_id, data FROM seat_notes WHERE match_id = $1", match_id)
        return {r["user_id"]: r["data"] for r in rows}

    async def notes_of(self, match_ids: list[int]) -> dict[int, dict[int, dict[str, Any]]]:
        ids = [int(m) for m in match_ids]
        out: dict[int, dict[int, dict[str, Any]]] = {m: {} for m in ids}
        if ids:
            for r in await self._p.fetch("SELECT match_id, user_id, data FROM seat_notes WHERE match_id = ANY($1::bigint[])", ids):
                out[r["match_id"]][r["user_id"]] = r["data"]
        return out

    async def set_note(self, match_id: int, user_id: int, changes: dict[str, Any]) -> dict[str, Any]:
        check_note(user_id, changes)
        return await _merge_note(self._p, match_id, user_id, changes)

    async def set_locale(self, user_id: int, locale: str) -> None:
        check_note(user_id, {})
        await self._p.execute(
            "INSERT INTO people (user_id, locale, updated_at) VALUES ($1, $2, $3)"
            " ON CONFLICT (user_id) DO UPDATE SET locale = EXCLUDED.locale, updated_at = EXCLUDED.updated_at",
            user_id,
            str(locale),
            utcnow(),
        )

    async def locales(self, user_ids: list[int]) -> dict[int, str]:
        if not user_ids:
            return {}
        rows = await self._p.fetch("SELECT user_id, locale FROM people WHERE user_id = ANY($1::bigint[])", [int(u) for u in user_ids])
        return {r["user_id"]: r["locale"] for r in rows}

    # -- the table: events besides moves, undo, statistics -------------------------------------------

    async def change(
        self, match_id: int, expected_version: int, event: NewEvent | None, *, keep: int | None = None,
        jobs: list[NewJob] = (), hand: HandOff | None = None, **changes: Any,
    ) -> MatchRecord:
        changes = check_changes(changes)
        if keep is not None and (not isinstance(keep, int) or isinstance(keep, bool) or keep < 0):
            raise ValueError(f"keep must be a non-negative integer, got {keep!r}")
        if event is not None:
            check_int64("user_id", event.user_id, nullable=True)
        sets, params = [], []
        for key, value in changes.items():
            params.append(value)
            sets.append(f"{key} = ${len(params)}")
        if keep is not None and "state" not in changes:
            raise ValueError("removing actions (keep) needs the state they leave")
        now = utcnow()
        params += [now, match_id, expected_version]
        n = len(params)
        sets += _state_sets(changes) + ["version = version + 1", f"updated_at = ${n - 2}"]
        try:
            async with self._p.acquire() as conn, conn.transaction():
                row = await conn.fetchrow(
                    f"UPDATE matches SET {', '.join(sets)} WHERE id = ${n - 1} AND version = ${n} RETURNING {MATCH}", *params
                )
                if row is None:
                    await self._fail_cas(conn, match_id, expected_version)
                if keep is not None:
                    await conn.execute("DELETE FROM actions WHERE match_id = $1 AND idx >= $2", match_id, keep)
                if "seats" in changes:
                    await self._set_players(conn, match_id, changes["seats"])
                if event is not None:
                    await self._insert_event(conn, match_id, event, now)
                if jobs:
                    await conn.executemany(_JOB_INSERT, _job_args(list(jobs), match_id, now))
                await _hand(conn, hand, match_id, handed_keys(jobs, hand, now))
        except asyncpg.UniqueViolationError as e:
            if e.constraint_name == LIVE_INDEX:
                channel_id = await self._p.fetchval("SELECT channel_id FROM matches WHERE id = $1", match_id)
                raise ChannelBusy(await self._live_id(channel_id)) from None
            raise
        return _match(row)

    @staticmethod
    async def _insert_event(conn: asyncpg.Connection, match_id: int, event: NewEvent, now: datetime) -> EventRecord:
        row = await conn.fetchrow(
            "INSERT INTO match_events (match_id, at_action, kind, user_id, data, created_at)"
            " SELECT $1, (SELECT COUNT(*) FROM actions WHERE match_id = $1), $2, $3, $4, $5"
            " RETURNING id, match_id, at_action, kind, user_id, data, created_at",
            match_id, event.kind, event.user_id, dict(event.data), now,
        )
        return EventRecord(**dict(row.items()))

    async def add_event(self, match_id: int, event: NewEvent) -> EventRecord:
        check_int64("user_id", event.user_id, nullable=True)
        async with self._p.acquire() as conn, conn.transaction():
            if await conn.fetchval("SELECT 1 FROM matches WHERE id = $1 FOR UPDATE", match_id) is None:
                raise MatchNotFound(match_id)
            return await self._insert_event(conn, match_id, event, utcnow())

    async def events(self, match_id: int) -> list[EventRecord]:
        rows = await self._p.fetch(
            "SELECT id, match_id, at_action, kind, user_id, data, created_at FROM match_events WHERE match_id = $1 ORDER BY id",
            match_id,
        )
        return [EventRecord(**dict(r.items())) for r in rows]

    async def finished_in_guild(self, guild_id: int, limit: int = 2000) -> list[MatchRecord]:
        # the final snapshots come as text and are decoded in a worker thread (a thousand of them
        # would hold the event loop if the JSON codec decoded them while the rows arrive)
        cols = _with_tail(COLUMNS.replace(" state,", " state::text AS state,"), "matches")
        rows = await self._p.fetch(
            f"SELECT {cols} FROM matches WHERE guild_id = $1 AND status = 'finished' ORDER BY id DESC LIMIT $2",
            guild_id, int(limit),
        )
        return self.healthy(await asyncio.to_thread(lambda: [_decoded(r, state_text=True) for r in rows]))

    async def action_timing(self, match_ids: list[int]) -> dict[tuple[int, int], tuple[int, int, float]]:
        ids = [int(i) for i in match_ids]
        if not ids:
            return {}
        rows = await self._p.fetch(
            "SELECT match_id, seat, COUNT(*), COUNT(prev), COALESCE(SUM(EXTRACT(EPOCH FROM created_at - prev)), 0)"
            " FROM (SELECT match_id, seat, created_at, LAG(created_at) OVER (PARTITION BY match_id ORDER BY idx) AS prev"
            " FROM actions WHERE match_id = ANY($1::bigint[])) AS timed GROUP BY match_id, seat",
            ids,
        )
        return {(r[0], r[1]): (r[2], r[3], float(r[4])) for r in rows}
    async def people(self, user_ids: list[int]) -> dict[int, Person]:
        ids = [int(u) for u in user_ids]
        if not ids:
            return {}
        rows = await self._p.fetch(
            "SELECT u, (SELECT data FROM person_settings WHERE user_id = u) AS data,"
            " (SELECT locale FROM people WHERE user_id = u) AS locale FROM unnest($1::bigint[]) AS u",
            ids,
        )
        return {r["u"]: Person(r["data"] if r["data"] is not None else {}, r["locale"]) for r in rows}

    async def read(self, match_id: int, newer_than: tuple[str, int] | None = None) -> MatchRead | None:
        kind, job_id = newer_than if newer_than is not None else (None, 0)
        row = await self._p.fetchrow(
            f"SELECT {MATCH}, {_notes_of('matches.id')} AS notes_,"
            " CASE WHEN $2::text IS NULL THEN false ELSE EXISTS (SELECT 1 FROM jobs WHERE match_id = matches.id"
            f" AND kind = $2::text AND status = 'pending' AND id > $3) END AS newer_, {_people_of('matches.id')} AS people_"
            " FROM matches WHERE id = $1",
            match_id, kind, int(job_id),
        )
        if row is None:
            return None
        fields = dict(row.items())
        notes, newer, people = fields.pop("notes_"), fields.pop("newer_"), fields.pop("people_")
        rec = self.one(_decoded_fields(fields))
        if rec is None:
            return None
        by_user, players = _notes_people(notes, people)
        return MatchRead(rec, by_user, bool(newer), players)

    async def log_since(self, match_id: int, since: int = 0) -> Log:
        row = await self._p.fetchrow(
            "SELECT (SELECT json_agg(json_build_array(idx, seat, action, revealed, created_at, story) ORDER BY idx)"
            " FROM actions WHERE match_id = $1 AND idx >= $2) AS actions,"
            " (SELECT json_agg(json_build_array(id, at_action, kind, user_id, data, created_at) ORDER BY id)"
            " FROM match_events WHERE match_id = $1) AS events, (SELECT version FROM matches WHERE id = $1) AS version",
            match_id, int(since),
        )
        actions = [
            ActionRecord(match_id, i, seat, a, bool(rev), datetime.fromisoformat(at), story)
            for i, seat, a, rev, at, story in (row["actions"] or [])
        ]
        events = [
            EventRecord(eid, match_id, at_action, kind, uid, data, datetime.fromisoformat(at))
            for eid, at_action, kind, uid, data, at in (row["events"] or [])
        ]
        return Log(actions, events, row["version"])

    async def person(self, user_id: int) -> dict[str, Any]:
        data = await self._p.fetchval("SELECT data FROM person_settings WHERE user_id = $1", int(user_id))
        return data if data is not None else {}

    async def set_person(self, user_id: int, changes: dict[str, Any]) -> dict[str, Any]:
        check_note(user_id, changes)
        return await self._p.fetchval(
            "INSERT INTO person_settings (user_id, data, updated_at)"
            " VALUES ($1, jsonb_strip_nulls($2::jsonb)::json, $3)"
            " ON CONFLICT (user_id) DO UPDATE SET"
            " data = jsonb_strip_nulls(person_settings.data::jsonb || $2::jsonb)::json, updated_at = $3 RETURNING data",
            user_id,
            dict(changes),
            utcnow(),
        )

    # -- ratings, stored aggregates, act times (issue 21) ---------------------------------------------

    async def record_result(
        self, finished: FinishedMatch, rate: Callable[[list[RatingRow]], list[RatingRow]]
    ) -> list[RatingRow] | None:
        check_int64("match_id", finished.match_id)
        check_int64("guild_id", finished.guild_id, nullable=True)
        now = utcnow()
        async with self._p.acquire() as conn, conn.transaction():
            # one rating update at a time per game (rows not yet there cannot be locked with FOR UPDATE)
            await conn.execute("SELECT pg_advisory_xact_lock($1)", ratings_lock_key(self.schema, finished.game))
            inserted = await conn.fetchval(
                "INSERT INTO rated_matches (match_id, game, guild_id, places, rated_at) VALUES ($1, $2, $3, $4, $5)"
                " ON CONFLICT (match_id) DO NOTHING RETURNING match_id",
                finished.match_id, finished.game, finished.guild_id, finished.places, now,
            )
            if inserted is None:
                return None
            rows = await conn.fetch(
                f"SELECT {_RATING_COLUMNS} FROM ratings WHERE game = $1 AND scope = ANY($2::bigint[])"
                " AND player = ANY($3::text[])",
                finished.game, finished.scopes, finished.players,
            )
            old = [RatingRow(*r) for r in rows]
            new = rate(old)
            await conn.executemany(
                f"INSERT INTO ratings ({_RATING_COLUMNS}, ordinal, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)"
                " ON CONFLICT (game, scope, player) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma,"
                " ordinal = excluded.ordinal, matches = excluded.matches, wins = excluded.wins, moves = excluded.moves,"
                " timed = excluded.timed, seconds = excluded.seconds, updated_at = excluded.updated_at",
                [(r.game, r.scope, r.player, r.mu, r.sigma, r.matches, r.wins, r.moves, r.timed, r.seconds, r.ordinal, now)
                 for r in new],
            )
            await conn.executemany(
                "INSERT INTO player_totals AS t (scope, player, matches, wins, moves, timed, seconds)"
                " VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (scope, player) DO UPDATE SET"
                " matches = t.matches + excluded.matches, wins = t.wins + excluded.wins, moves = t.moves + excluded.moves,"
                " timed = t.timed + excluded.timed, seconds = t.seconds + excluded.seconds",
                [(t.scope, t.player, t.matches, t.wins, t.moves, t.timed, t.seconds) for t in totals_added(old, new)],
            )
            await conn.execute(
                "INSERT INTO rating_totals AS t (scope, game, matches) SELECT s, $2, 1 FROM unnest($1::bigint[]) AS s"
                " ON CONFLICT (scope, game) DO UPDATE SET matches = t.matches + 1",
                finished.scopes, finished.game,
            )
        return list(new)

    async def rated(self, match_id: int) -> bool:
        return await self._p.fetchval("SELECT 1 FROM rated_matches WHERE match_id = $1", int(match_id)) is not None

    async def unrated_finished(self, after_id: int = 0, limit: int = 1000) -> list[int]:
        rows = await self._p.fetch(
            "SELECT m.id FROM matches m LEFT JOIN rated_matches r ON r.match_id = m.id"
            " WHERE m.status = 'finished' AND m.id > $1 AND r.match_id IS NULL ORDER BY m.id LIMIT $2",
            int(after_id), int(limit),
        )
        return [r["id"] for r in rows]

    async def leaderboard(self, game: str, scope: int, limit: int = 10) -> list[RatingRow]:
        rows = await self._p.fetch(
            f"SELECT {_RATING_COLUMNS} FROM ratings WHERE scope = $1 AND game = $2 ORDER BY ordinal DESC, player LIMIT $3",
            int(scope), game, int(limit),
        )
        return [RatingRow(*r) for r in rows]

    async def player_ratings(self, player: str, scope: int | None = None) -> list[RatingRow]:
        if scope is None:
            rows = await self._p.fetch(
                f"SELECT {_RATING_COLUMNS} FROM ratings WHERE player = $1 ORDER BY game, scope", player
            )
        else:
            rows = await self._p.fetch(
                f"SELECT {_RATING_COLUMNS} FROM ratings WHERE player = $1 AND scope = $2 ORDER BY game, scope",
                player, int(scope),
            )
        return [RatingRow(*r) for r in rows]

    async def scope_totals(self, scope: int) -> dict[str, int]:
        rows = await self._p.fetch("SELECT game, matches FROM rating_totals WHERE scope = $1", int(scope))
        return {r[0]: r[1] for r in rows}

    async def scope_players(self, scope: int, game: str | None = None, limit: int = 10) -> list[Totals]:
        if game is None:
            rows = await self._p.fetch(
                "SELECT scope, player, matches, wins, moves, timed, seconds FROM player_totals WHERE scope = $1"
                " ORDER BY wins DESC, matches DESC, player LIMIT $2",
                int(scope), int(limit),
            )
        else:
            rows = await self._p.fetch(
                "SELECT scope, player, matches, wins, moves, timed, seconds FROM ratings WHERE scope = $1 AND game = $2"
                " ORDER BY wins DESC, matches DESC, player LIMIT $3",
                int(scope), game, int(limit),
            )
        return [Totals(*r) for r in rows]

    async def add_act_times(self, samples: list[ActTime]) -> None:
        if not samples:
            return
        for sample in samples:
            check_int64("user_id", sample.user_id)
            check_int64("match_id", sample.match_id)
        async with self._p.acquire() as conn, conn.transaction():
            await conn.executemany(
                "INSERT INTO act_times (user_id, match_id, seconds, at) VALUES ($1, $2, $3, $4)",
                [(x.user_id, x.match_id, float(x.seconds), x.at) for x in samples],
            )

    async def act_times(self, user_id: int, match_id: int | None = None, limit: int = 500) -> list[float]:
        if match_id is None:
            rows = await self._p.fetch(
                "SELECT seconds FROM act_times WHERE user_id = $1 ORDER BY id DESC LIMIT $2", int(user_id), int(limit)
            )
        else:
            rows = await self._p.fetch(
                "SELECT seconds FROM act_times WHERE match_id = $1 AND user_id = $2 ORDER BY id DESC LIMIT $3",
                int(match_id), int(user_id), int(limit),
            )
        return [r[0] for r in rows]

    async def close(self) -> None:
        await self._pool.close()
