"""The store's portable interface: records, errors and the abstract ``Store``.

Both back ends (SQLite in ``sqlite.py``, PostgreSQL in ``postgres.py``) implement ``Store`` with the
same behaviour; ``tests/store`` runs one contract suite against each.
"""

from __future__ import annotations

import abc
import json
import logging
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

log = logging.getLogger(__name__)

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
    " meta, created_at, updated_at, state_at"
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


class DamagedMatch(StoreError):
    """Match ``match_id``'s row cannot be decoded: its ``part`` (seats, options, meta, setup, state)
    is not JSON, or not JSON of the right shape, or a state its engine cannot read. That match is
    quarantined (left out of lists and sweeps, refused in one line); every other match goes on."""

    def __init__(self, match_id: int, part: str, reason: str = "") -> None:
        super().__init__(f"match {match_id}: its {part} cannot be decoded ({reason})")
        self.match_id = match_id
        self.part = part
        self.reason = reason


class Quarantine:
    """The damaged match rows this process has met, each logged once (one line, no traceback: the
    row is what is wrong, not the code)."""

    def __init__(self) -> None:
        self.seen: dict[int, str] = {}

    def note(self, e: DamagedMatch) -> None:
        if e.match_id in self.seen or len(self.seen) > 10_000:
            return
        self.seen[e.match_id] = e.part
        log.warning("match %s quarantined: its %s cannot be decoded (%s); every other match goes on", e.match_id, e.part, e.reason[:200])


def check_match_row(match_id: int, seats: Any, options: Any, meta: Any) -> None:
    """A decoded row has the shapes every reader relies on, else ``DamagedMatch``."""
    if not isinstance(seats, list) or not all(isinstance(s, dict) and isinstance(s.get("name"), str) for s in seats):
        raise DamagedMatch(match_id, "seats", "not a list of seats")
    if not isinstance(options, dict):
        raise DamagedMatch(match_id, "options", "not an object")
    if not isinstance(meta, dict):
        raise DamagedMatch(match_id, "meta", "not an object")


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
    # ``state`` is the stored snapshot; when ``state_at`` is set it includes only the first
    # ``state_at`` actions, and ``tail`` holds the (seat, action) pairs logged after it, in order:
    # the state now is the snapshot with the tail stepped on it (bot/core/service.py ``load``).
    state_at: int | None = None
    tail: tuple[tuple[int, Any], ...] = ()

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
    story: Any = None  # the public wording stored with the move ({"en": ..., "es": ...}) or None


@dataclass(frozen=True, slots=True)
class Person:
    """One person's settings ({} when none were set) and remembered language (None: not known)."""

    settings: dict[str, Any]
    locale: str | None


@dataclass(frozen=True, slots=True)
class MatchRead:
    """A match with every note of it and its players' settings and languages, read in one statement
    (a job's one read of its match):
    ``notes`` by user id (0: the match itself); ``newer``: a pending job of the kind asked about,
    newer than the one that asks, exists (``Store.read(newer_than=)``)."""

    record: MatchRecord
    notes: dict[int, dict[str, Any]]
    newer: bool = False
    people: dict[int, Person] = field(default_factory=dict)  # the match's players: settings and language


@dataclass(frozen=True, slots=True)
class Log:
    """The actions of a match from an index, every event of it, and the match's version, read in
    one statement (so ``version`` is the one the actions lead to)."""

    actions: list[ActionRecord]
    events: list[EventRecord]
    version: int | None  # None: no such match


@dataclass(frozen=True, slots=True)
class NewEvent:
    """Something that happened to a match besides a move (an undo, a seat handed over, a vote...).
    ``data`` is a JSON object; ``user_id`` who did it (None: the bot)."""

    kind: str
    user_id: int | None = None
    data: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class EventRecord:
    id: int
    match_id: int
    at_action: int  # how many actions the log held when it happened
    kind: str
    user_id: int | None
    data: dict[str, Any]
    created_at: datetime


JOB_STATUSES = ("pending", "done", "failed")


@dataclass(frozen=True, slots=True)
class NewJob:
    """A job to insert. ``key`` is unique across the table: inserting an existing key does nothing,
    so planning the same work twice (a retried commit, a restart sweep) never doubles it. Jobs of
    one ``lane`` run one at a time in insertion order. ``due_at`` None: due at once."""

    kind: str
    key: str
    lane: str
    payload: dict[str, Any] = field(default_factory=dict)
    due_at: datetime | None = None
    match_id: int | None = None


@dataclass(frozen=True, slots=True)
class Job:
    id: int
    match_id: int | None
    kind: str
    key: str
    lane: str
    due_at: datetime
    payload: dict[str, Any]
    attempts: int  # claims so far, this one included
    status: str
    claimed_by: str | None
    claimed_until: datetime | None
    last_error: str | None
    created_at: datetime
    done_at: datetime | None
    # what the job's first read would return, read with the write that handed it to this process
    # (``HandOff``); never stored, None for a job claimed from the table
    read: MatchRead | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class JobEnd:
    """One job's end for ``Store.finish_jobs``: its id, the notes it writes ((match id, user id) ->
    changes) and the jobs it planned next."""

    job_id: int
    notes: Mapping[tuple[int, int], Mapping[str, Any]] = field(default_factory=dict)
    jobs: list[NewJob] = field(default_factory=list)


@dataclass(slots=True)
class HandOff:
    """A process offering to run, at once, the jobs a write plans (``commit_move``, ``update``,
    ``change`` and ``finish_job`` take one as ``hand``). In the write's own transaction the store
    leases to ``owner`` until ``until`` (and counts an attempt, as ``claim_jobs`` does) those jobs that
    are pending, due by ``now``, not leased and first of their lane: the ones the write inserted,
    and, for ``finish_job``, the next one of the finished job's lane. It fills in ``jobs`` (the
    leased ones) and, for a match write, ``notes`` and ``people`` (the match's notes and its players'
    settings and languages as the transaction leaves them: what those jobs read first). So the work
    a move plans starts without a claim, and its first reads come with the move."""

    owner: str
    now: datetime
    until: datetime
    jobs: list[Job] = field(default_factory=list)
    notes: dict[int, dict[str, Any]] | None = None
    people: dict[int, Person] | None = None


class RawJSON:
    """A JSON document already serialised (``text``) with the value it encodes (``value``): a big
    state is serialised off the event loop and the store writes the text as it is."""

    __slots__ = ("text", "value")

    def __init__(self, text: str, value: Any) -> None:
        self.text = text
        self.value = value


# -- ratings, stored aggregates, act times (issue 21) ------------------------------------------------

GLOBAL_SCOPE = 0  # ratings and aggregates across servers (a server's own scope is its guild id)


@dataclass(frozen=True, slots=True)
class RatingRow:
    """A player's rating and aggregates in one game and scope (``GLOBAL_SCOPE`` or a guild id).
    ``player``: 'u<user id>' for a person, 'ai:<level>' for AI seats of that level."""

    game: str
    scope: int
    player: str
    mu: float
    sigma: float
    matches: int = 0
    wins: int = 0
    moves: int = 0
    timed: int = 0
    seconds: float = 0.0

    @property
    def ordinal(self) -> float:
        """A cautious skill estimate (mu - 3 sigma): what leaderboards sort by."""
        return self.mu - 3.0 * self.sigma


@dataclass(frozen=True, slots=True)
class Totals:
    """A player's aggregates in a scope summed over every game (or of one game)."""

    scope: int
    player: str
    matches: int = 0
    wins: int = 0
    moves: int = 0
    timed: int = 0
    seconds: float = 0.0


@dataclass(frozen=True, slots=True)
class FinishedMatch:
    """A finished match as the ratings see it: ``places`` lists the players by place (ties share one)."""

    match_id: int
    game: str
    guild_id: int | None
    places: list[list[str]]

    @property
    def scopes(self) -> list[int]:
        return [GLOBAL_SCOPE] if self.guild_id is None else [GLOBAL_SCOPE, self.guild_id]

    @property
    def players(self) -> list[str]:
        return list(dict.fromkeys(p for place in self.places for p in place))


@dataclass(frozen=True, slots=True)
class ActTime:
    """One timed action of a person: ``seconds`` from when they could act to their action."""

    user_id: int
    match_id: int
    seconds: float
    at: datetime


# -- helpers shared by the back ends -----------------------------------------------------------------


def totals_added(existing: Iterable[RatingRow], new: Iterable[RatingRow]) -> list[Totals]:
    """What ``new`` rows add to the players' totals over the games, per (scope, player)."""
    old = {(r.game, r.scope, r.player): r for r in existing}
    out: dict[tuple[int, str], Totals] = {}
    for r in new:
        o = old.get((r.game, r.scope, r.player)) or RatingRow(r.game, r.scope, r.player, 0.0, 0.0)
        t = out.get((r.scope, r.player)) or Totals(r.scope, r.player)
        out[(r.scope, r.player)] = Totals(
            r.scope, r.player, t.matches + r.matches - o.matches, t.wins + r.wins - o.wins,
            t.moves + r.moves - o.moves, t.timed + r.timed - o.timed, t.seconds + r.seconds - o.seconds,
        )
    return list(out.values())


def handed_keys(jobs: Iterable[NewJob], hand: HandOff | None, now: datetime | None = None) -> list[str]:
    """The keys of the jobs a write may lease to ``hand`` (due by its ``now``); [] without one.
    ``now``: the write's own time, which the jobs it inserts are due at: when it is later than the
    hand's, the hand is moved to it (a job due at once is due for the hand that asked for it)."""
    if hand is None:
        return []
    if now is not None and now > hand.now:
        hand.now, hand.until = now, now + (hand.until - hand.now)
    return [j.key for j in jobs if j.due_at is None or j.due_at <= hand.now]


def utcnow() -> datetime:
    return datetime.now(UTC)


def dumps(value: Any) -> str:
    if isinstance(value, RawJSON):
        return value.text
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

    # True when only one process may use the store at a time (SQLite): leases left by a previous
    # run of that process can be dropped at start instead of waiting for them to run out.
    single_process: bool = False
    # The damaged rows met so far (each logged once); set by each back end's constructor.
    quarantine: Quarantine

    def healthy(self, decoded: Iterable[MatchRecord | DamagedMatch]) -> list[MatchRecord]:
        """The records of a list that could be decoded; the damaged ones are noted and left out."""
        out = []
        for item in decoded:
            if isinstance(item, DamagedMatch):
                self.quarantine.note(item)
            else:
                out.append(item)
        return out

    def one(self, decoded: MatchRecord | DamagedMatch | None) -> MatchRecord | None:
        """One record, or ``DamagedMatch`` (noted) when its row cannot be decoded."""
        if isinstance(decoded, DamagedMatch):
            self.quarantine.note(decoded)
            raise decoded
        return decoded

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
    async def update(
        self, match_id: int, expected_version: int, *, jobs: list[NewJob] = (), hand: HandOff | None = None, **changes: Any,
    ) -> MatchRecord:
        """Compare-and-set lobby edits, start, status or meta (see ``UPDATABLE``); bumps the version.
        ``jobs`` are inserted in the same transaction (``hand``: see ``HandOff``).

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
        jobs: list[NewJob] = (),
        story: Any = None,
        hand: HandOff | None = None,
    ) -> MatchRecord:
        """Append ``action`` (with its public ``story``) to the log (idx = number of earlier actions), store ``state`` and bump
        the version, all only if the version is still ``expected_version``. ``status``/``meta``
        replace the stored ones when given; ``jobs`` are inserted in the same transaction (their
        match_id defaults to this match). ``state`` may be a ``RawJSON``; ``None`` writes no snapshot
        this move (the stored one stays, and the log's tail after it grows by this action: the record
        returned has ``state`` None and that tail, the caller knows the snapshot it read). Raises
        ``VersionConflict`` or ``MatchNotFound``."""

    @abc.abstractmethod
    async def actions(self, match_id: int, since: int = 0) -> list[ActionRecord]:
        """The match's action log in order of idx (those with idx >= ``since``)."""

    # -- jobs: durable work after a move, and timers ---------------------------------------------
    #
    # Moves insert their follow-up jobs in the move's own transaction (``commit_move(jobs=...)``,
    # ``update(jobs=...)``). A scheduler claims due jobs with a lease, then finishes, retries or
    # fails each. ``now`` is always passed in, so a test clock can let days pass in milliseconds.

    @abc.abstractmethod
    async def add_jobs(self, jobs: list[NewJob], now: datetime | None = None) -> int:
        """Insert jobs (an existing key is skipped); returns how many were new."""

    @abc.abstractmethod
    async def claim_jobs(self, owner: str, now: datetime, lease: timedelta, limit: int = 10) -> list[Job]:
        """Lease up to ``limit`` due jobs to ``owner`` until ``now + lease`` and count an attempt.

        A job is claimable when pending, due, not leased (or its lease ran out) and the first pending
        job of its lane. On PostgreSQL, processes claiming at once never get the same job
        (``FOR UPDATE SKIP LOCKED``); SQLite serves one process with the same interface."""

    async def extend_lease(self, job_id: int, owner: str, until: datetime) -> bool:
        """Keep a long job's lease (only its holder can); False if the lease was lost."""
        return await self.extend_leases(owner, [job_id], until) == 1

    @abc.abstractmethod
    async def extend_leases(self, owner: str, job_ids: list[int], until: datetime) -> int:
        """Renew ``owner``'s leases of these (still pending) jobs until ``until``: a process running a
        long job keeps it; a dead one stops renewing and another process takes the job over once
        the lease ran out. Returns how many leases were renewed (a lease already taken over is not)."""

    async def finish_job(
        self, job_id: int, owner: str, now: datetime, *,
        notes: Mapping[tuple[int, int], Mapping[str, Any]] | None = None, jobs: Iterable[NewJob] = (),
        hand: HandOff | None = None,
    ) -> bool:
        """Mark done (only while ``owner`` holds the lease); False if the lease was lost. In the
        same transaction, only when the lease was held: merge ``notes`` ((match id, user id) ->
        changes, as ``set_note``), insert ``jobs`` (the work the job planned next) and, with ``hand``,
        lease those and the next job of the finished job's lane (``HandOff``)."""
        return (await self.finish_jobs(owner, now, [JobEnd(job_id, notes or {}, list(jobs))], hand=hand))[0]

    @abc.abstractmethod
    async def finish_jobs(self, owner: str, now: datetime, ends: list[JobEnd], *, hand: HandOff | None = None) -> list[bool]:
        """``finish_job`` for several jobs in one transaction (the jobs one write handed over, ended
        together); one answer per end, in order."""

    @abc.abstractmethod
    async def retry_job(self, job_id: int, owner: str, due_at: datetime, error: str) -> bool:
        """Release the lease and make the job due again at ``due_at`` (it keeps its lane place)."""

    @abc.abstractmethod
    async def fail_job(self, job_id: int, owner: str, now: datetime, error: str) -> bool:
        """Give up: status 'failed' with ``error`` (an operator sees it; the lane moves on)."""

    @abc.abstractmethod
    async def jobs(self, match_id: int | None = None, status: str | None = None) -> list[Job]:
        """Jobs by id (of one match and/or one status)."""

    @abc.abstractmethod
    async def next_due(self) -> datetime | None:
        """The earliest time a claim could take a job, if any: when a lane's first pending job is
        due, or its lease runs out. A job waiting behind its lane's first one does not count (it
        comes when that one ends: a finish hands it on)."""

    @abc.abstractmethod
    async def purge_jobs(self, before: datetime) -> int:
        """Delete jobs done before ``before`` (failed ones stay for an operator); returns how many."""

    @abc.abstractmethod
    async def release_claims(self, owner: str | None = None) -> int:
        """Drop the leases of ``owner`` (every lease when None): for a single-process store
        restarting, whose previous run died holding them."""

    # -- notes: per person and match, never touching the match version --------------------------

    @abc.abstractmethod
    async def notes(self, match_id: int) -> dict[int, dict[str, Any]]:
        """Every note of a match: user id (0: the match itself) -> its data."""

    @abc.abstractmethod
    async def notes_of(self, match_ids: list[int]) -> dict[int, dict[int, dict[str, Any]]]:
        """The notes of several matches in one round trip: match id -> ``notes`` (every id asked
        is in the answer, {} when it has none)."""

    @abc.abstractmethod
    async def set_note(self, match_id: int, user_id: int, changes: dict[str, Any]) -> dict[str, Any]:
        """Merge ``changes`` into the note (a key set to None is removed), atomically; returns it."""

    @abc.abstractmethod
    async def set_locale(self, user_id: int, locale: str) -> None:
        """Remember the language a person uses."""

    @abc.abstractmethod
    async def locales(self, user_ids: list[int]) -> dict[int, str]:
        """The remembered language of each of these people (those known)."""

    # -- the table: events besides moves, undo, statistics (migration 0004) -----------------------

    @abc.abstractmethod
    async def change(
        self, match_id: int, expected_version: int, event: NewEvent | None, *, keep: int | None = None,
        jobs: list[NewJob] = (), hand: HandOff | None = None, **changes: Any,
    ) -> MatchRecord:
        """``update`` plus, in the same transaction: with ``keep``, drop the actions whose idx >=
        ``keep`` (an undo: the log then holds ``keep`` actions); record ``event`` (its at_action is
        the number of actions left). Raises like ``update``."""

    @abc.abstractmethod
    async def add_event(self, match_id: int, event: NewEvent) -> EventRecord:
        """Record an event now (at_action: the current number of actions)."""

    @abc.abstractmethod
    async def events(self, match_id: int) -> list[EventRecord]:
        """The match's events in order."""

    @abc.abstractmethod
    async def finished_in_guild(self, guild_id: int, limit: int = 2000) -> list[MatchRecord]:
        """The server's finished matches, newest first, at most ``limit``."""

    @abc.abstractmethod
    async def action_timing(self, match_ids: list[int]) -> dict[tuple[int, int], tuple[int, int, float]]:
        """Per (match, seat): (actions, timed actions, seconds) where each action but a match's first
        is timed from the action before it (one query, for statistics)."""
    # -- a person's own settings across all their matches (time zone, quiet hours, away) ---------

    @abc.abstractmethod
    async def person(self, user_id: int) -> dict[str, Any]:
        """The person's settings ({} when none were ever set)."""

    @abc.abstractmethod
    async def people(self, user_ids: list[int]) -> dict[int, Person]:
        """Several people's settings and languages in one round trip (every id asked is in the
        answer, with {} and None when nothing is known of them)."""

    @abc.abstractmethod
    async def read(self, match_id: int, newer_than: tuple[str, int] | None = None) -> MatchRead | None:
        """The match and all its notes in one round trip (None: no such match; a damaged row raises
        ``DamagedMatch`` like ``get``). ``newer_than=(kind, job_id)`` also tells whether a pending
        job of that kind with a larger id exists for the match."""

    @abc.abstractmethod
    async def log_since(self, match_id: int, since: int = 0) -> Log:
        """The actions with idx >= ``since``, every event of the match and its version, in one
        round trip."""

    @abc.abstractmethod
    async def set_person(self, user_id: int, changes: dict[str, Any]) -> dict[str, Any]:
        """Merge ``changes`` into the person's settings (a key set to None is removed), atomically."""

    # -- ratings, stored aggregates, act times (issue 21) ---------------------------------------------

    @abc.abstractmethod
    async def record_result(
        self, finished: FinishedMatch, rate: Callable[[list[RatingRow]], list[RatingRow]]
    ) -> list[RatingRow] | None:
        """Rate a finished match once, atomically: ``rate`` gets the stored rows of the match's
        players in its game and scopes (a player never rated has none) and returns the rows to
        store. None (and nothing written, ``rate`` not called) when the match was rated before.
        Ratings of one game are updated one match at a time, so no update is lost. The totals over
        the games (``scope_players``) and the matches per scope and game (``scope_totals``) are
        kept in step in the same transaction."""

    @abc.abstractmethod
    async def rated(self, match_id: int) -> bool:
        """Whether the match's result is in the ratings."""

    @abc.abstractmethod
    async def unrated_finished(self, after_id: int = 0, limit: int = 1000) -> list[int]:
        """Ids (above ``after_id``, oldest first, at most ``limit``) of finished matches whose result
        is not in the ratings: those that ended before the ratings existed (a start-up plans them)."""

    @abc.abstractmethod
    async def leaderboard(self, game: str, scope: int, limit: int = 10) -> list[RatingRow]:
        """The game's best rated players of a scope, by ordinal (highest first)."""

    @abc.abstractmethod
    async def player_ratings(self, player: str, scope: int | None = None) -> list[RatingRow]:
        """A player's rows in every game (of one scope, or all scopes), by game then scope."""

    @abc.abstractmethod
    async def scope_totals(self, scope: int) -> dict[str, int]:
        """Rated matches per game in a scope (``GLOBAL_SCOPE``: everywhere)."""

    @abc.abstractmethod
    async def scope_players(self, scope: int, game: str | None = None, limit: int = 10) -> list[Totals]:
        """A scope's players with their aggregates summed over the games (or of one game), most
        wins first, then most matches, then player."""

    @abc.abstractmethod
    async def add_act_times(self, samples: list[ActTime]) -> None:
        """Store timed actions (one transaction)."""

    @abc.abstractmethod
    async def act_times(self, user_id: int, match_id: int | None = None, limit: int = 500) -> list[float]:
        """A person's latest act times in seconds (of one match, or of all), newest first."""

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


def check_note(user_id: Any, changes: Any) -> None:
    check_int64("user_id", user_id)
    if not isinstance(changes, Mapping):
        raise ValueError("note changes must be a JSON object")


def job_match(job: NewJob, match_id: int) -> NewJob:
    if job.match_id is not None:
        return job
    return NewJob(job.kind, job.key, job.lane, job.payload, job.due_at, match_id)
