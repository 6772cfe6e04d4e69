"""Match lifecycle and moves, with no Discord in sight.

The Discord layer calls these coroutines and turns their results and errors into messages. The
rules live in the engines; this module only loads a match from the store, asks the engine, and
commits the result with the store's compare-and-set on the match version, so a move is applied
exactly once even when two clicks (or two processes) race.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import dataclasses
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol

from engines import ai, registry
from engines.core import EngineError, Game, Outcome
from engines.rng import fresh_seed

from ..games import ui_for
from ..store import (
    ChannelBusy,
    DamagedMatch,
    HandOff,
    Job,
    MatchRead,
    MatchRecord,
    NewEvent,
    NewJob,
    RawJSON,
    Store,
    VersionConflict,
)
from ..store.base import dumps
from . import faults
from .notes import Notes, checked
from .story import auto_end_story, plan, planned_story, public_story, standin_story
from .thinking import Thinker

# DEBUG on this logger prints one line per committed move with the store transaction's duration
# (bench/bot.py reads them from a bot running in its own process).
timing = logging.getLogger("partida.timing")

# A move writes the whole state every SNAPSHOT_EVERY moves (and at the end of the match); the moves
# in between write their action alone, and a read steps them on the last snapshot (issue 18).
SNAPSHOT_EVERY = 16


class UserError(Exception):
    """Something the person asked for cannot be done; ``code`` keys a message in bot.i18n."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params


@dataclasses.dataclass(frozen=True)
class Place:
    """Where a click came from: a channel or thread, or a DM (``channel_id`` None). A component
    acts only on the match of its own channel (or from a DM, for the ones the bot sends by DM):
    the match decides, never the channel the click names."""

    channel_id: int | None

    def check(self, rec: MatchRecord, dm_ok: bool) -> None:
        if self.channel_id is None and dm_ok:
            return
        if self.channel_id != rec.channel_id:
            raise UserError("wrong_channel", id=rec.id)


class Stale(Exception):
    """The click was built on an older version of the match."""

    def __init__(self, record: MatchRecord | None) -> None:
        super().__init__("stale")
        self.record = record


@dataclass
class Loaded:
    """A match record with its engine and live state."""

    record: MatchRecord
    game: Game
    state: Any = None

    @property
    def names(self) -> list[str]:
        return [s["name"] for s in self.record.seats]

    def seat_of(self, user_id: int) -> int | None:
        for i, s in enumerate(self.record.seats):
            if s.get("user_id") == user_id:
                return i
        return None

    def to_move(self) -> tuple[int, ...]:
        return self.game.to_move(self.state) if self.state is not None else ()

    def view(self, seat: int | None) -> dict[str, Any]:
        return self.game.view(self.state, seat)


def ai_kind(rec: MatchRecord) -> str:
    """The AI that plays a seat of this match (an added AI, a stand-in, a seat given up): the level
    chosen at /partida new (``ai=easy|normal|strong``), else the game's fast heuristic."""
    kinds = ai.players_for(rec.game)
    level = (rec.meta or {}).get("ai")
    return level if level in kinds else next(iter(kinds))


@dataclass
class MoveResult:
    loaded: Loaded
    seat: int
    action: dict[str, Any]
    outcome: Outcome
    # True when the turn passed to someone else (or the match ended): time to post the board.
    turn_changed: bool
    # the match's notes as the move left them (read with its commit), None when not known
    notes: dict[int, dict[str, Any]] | None = None


@dataclass
class MoveWrite:
    """One engine action as the log keeps it (``Change.move``)."""

    seat: int
    action: dict[str, Any]
    revealed: bool
    snapshot: Any  # the state after it, serialised; None: no snapshot this move (the log's tail grows)
    story: Any = None


@dataclass
class Change:
    """Everything one commit writes to a match, in one store transaction: columns of the match row
    (``fields``: status, seats, host_id, meta, seed, state), or one move, or a table event (with
    ``keep``: an undo cuts the log there); the follow-up jobs planned with it. ``notes``: note
    changes (user 0: the match) written right after it, before the scheduler is woken; a change
    with notes only writes no match row and keeps the version. ``live``: the engine state after
    it (cached for the next click). ``value``: what the caller gets back."""

    fields: dict[str, Any] = dataclasses.field(default_factory=dict)
    move: MoveWrite | None = None
    event: NewEvent | None = None
    keep: int | None = None
    jobs: list[NewJob] = dataclasses.field(default_factory=list)
    notes: dict[int, dict[str, Any]] = dataclasses.field(default_factory=dict)
    live: Any = None
    value: Any = None

    @property
    def writes_match(self) -> bool:
        return bool(self.fields or self.move is not None or self.event is not None or self.jobs)


@dataclass
class Committed:
    """What ``MatchService.commit`` did: the match after it, the jobs it planned, the change."""

    loaded: Loaded
    jobs: list[NewJob]
    change: Change
    # the match's notes as the commit left them (read in its transaction), None when not read
    notes: dict[int, dict[str, Any]] | None = None

    @property
    def record(self) -> MatchRecord:
        return self.loaded.record


class Runner(Protocol):
    """Who runs the jobs commits plan (the scheduler, ``bot/core/scheduler.py``)."""

    def offer(self) -> HandOff | None: ...
    def take(self, hand: HandOff, read: MatchRead | None = None) -> None: ...
    def planned(self, jobs: list[NewJob]) -> None: ...


# decides the change from the match as it is now (raises UserError/EngineError to refuse; None:
# nothing to do); called again on a newer version when the commit may retry
Decide = Callable[[Loaded], Awaitable["Change | None"]]


class MatchService:
    """Heavy engine work (loading a snapshot, cloning, stepping, dumping a marathon state) runs in a
    thread, so one big match never stalls the event loop that serves every other click."""

    def __init__(
        self, store: Store, cache_size: int = 256, ai_processes: int = 0, snapshot_every: int = SNAPSHOT_EVERY,
    ) -> None:
        self.store = store
        self.snapshot_every = max(1, int(snapshot_every))  # 1: the whole state with every move
        # who runs the jobs a commit plans: handed to it in the commit's transaction (``run_jobs_with``)
        self.runner: Runner | None = None
        self._locks: dict[int, asyncio.Lock] = {}
        # Live states by match id, tagged with the version they belong to, so a click does not
        # rebuild a big state (a marathon Carcassonne board) from its JSON snapshot every time.
        # A state object, once handed out, is never changed again: a move steps a clone, and the
        # clone is cached for the new version once the commit succeeded.
        # The record is kept with it: a version is written once, so the record of a version never
        # changes, and a click at the version cached needs no read (its commit checks the version).
        self._states: dict[int, tuple[int, Any, MatchRecord]] = {}
        self._cache_size = cache_size
        # Engine work runs on few threads: each thread that wants the GIL makes the event loop wait
        # its turn for it, so a handful of busy threads (AI seats of many matches thinking at once)
        # would stall every click. AI choices get their own thread, so a slow one never holds moves up,
        # and searching levels think in worker processes (bot/core/thinking.py).
        self._engine = concurrent.futures.ThreadPoolExecutor(2, thread_name_prefix="partida-engine")
        self.thinker = Thinker(ai_processes)

    async def off_loop(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Run engine work (load, step, view, legal actions of a big state) off the event loop."""
        return await asyncio.get_running_loop().run_in_executor(self._engine, fn, *args)

    async def on(self, loaded: Loaded, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(*args)``, engine work on ``loaded``'s state: off the event loop when the engine says
        the state is heavy (``Game.heavy``: a marathon board), else right here (a thread hop costs
        more than a small game's view or step)."""
        if loaded.state is not None and loaded.game.heavy(loaded.state):
            return await self.off_loop(fn, *args)
        return fn(*args)

    def close(self) -> None:
        self._engine.shutdown(wait=False, cancel_futures=True)
        self.thinker.close()

    def lock(self, match_id: int) -> asyncio.Lock:
        lock = self._locks.get(match_id)
        if lock is None:
            lock = self._locks[match_id] = asyncio.Lock()
        return lock

    # -- loading -------------------------------------------------------------------------------

    async def get(self, match_id: int, at: Place | None = None, dm_ok: bool = True, version: int | None = None) -> Loaded:
        """The match; ``at``: where the click that asks came from (checked: its own channel, or a
        DM when ``dm_ok``). ``version``: the version the click was made at; when this process holds
        that version it is used as it is, with no read (the click's commit checks it is still the
        newest: a match moved on elsewhere refuses it as stale)."""
        cached = self._states.get(match_id) if version is not None else None
        if cached is not None and cached[0] == version:
            rec = cached[2]
            if at is not None:
                at.check(rec, dm_ok)
            return self.load(rec)
        rec = await self.store.get(match_id)
        if rec is None:
            raise UserError("no_such_match")
        if at is not None:
            at.check(rec, dm_ok)
        return await self.aload(rec)

    async def aload(self, rec: MatchRecord) -> Loaded:
        """``load`` with the snapshot decoded off the event loop when it is not cached."""
        cached = self._states.get(rec.id)
        if rec.state is None or (cached is not None and cached[0] == rec.version):
            return self.load(rec)
        return await self.off_loop(self.load, rec)

    def run_jobs_with(self, runner: Runner) -> None:
        """The composition root names who runs the jobs commits plan (once, before any commit)."""
        self.runner = runner

    def _hand_over(self, change: Change, hand: HandOff | None, new: MatchRecord, written: dict[int, dict[str, Any]] | None) -> None:
        """Give the runner the jobs the commit leased to this process, with the match as the commit
        left it and the notes it wrote (their first read; None when the notes could not be written),
        and tell it of the others (a lane busy, a job planned before, one due later)."""
        if self.runner is None or not change.jobs:
            return
        if hand is not None:
            read = None
            if hand.notes is not None and written is not None:
                read = MatchRead(new, {**hand.notes, **written}, False, hand.people or {})
            self.runner.take(hand, read)
        handed = {j.key for j in hand.jobs} if hand is not None else set()
        rest = [j for j in change.jobs if j.key not in handed]
        if rest:
            self.runner.planned(rest)

    async def read_for(self, job: Job, newer_than: str | None = None) -> MatchRead | None:
        """A job's one read of its match (with its notes and players): the read its commit handed
        it, while no newer version of the match is known here; else from the store (``newer_than``:
        a job kind, to learn whether a newer job of it is pending)."""
        seen = job.read
        if seen is not None and self.known_version(seen.record.id) == seen.record.version:
            return seen
        return await self.store.read(job.match_id, newer_than=(newer_than, job.id) if newer_than else None)

    def known_version(self, match_id: int) -> int | None:
        """The newest version of the match this process committed or loaded (its cache), if any."""
        cached = self._states.get(match_id)
        return cached[0] if cached is not None else None

    def load(self, rec: MatchRecord) -> Loaded:
        """The record with its engine and state; ``DamagedMatch`` (noted once by the store) when
        its game is unknown or its engine cannot read the stored state: only that match fails."""
        try:
            game = registry.get(rec.game)
        except EngineError:
            raise self._damaged(rec.id, "game", f"unknown game {rec.game[:40]!r}") from None
        cached = self._states.get(rec.id)
        if cached is not None and cached[0] == rec.version:
            return Loaded(rec, game, cached[1])
        try:
            state = game.resume(rec.state, rec.tail) if rec.state is not None else None
        except Exception as e:  # whatever the engine raises on a state it cannot read
            raise self._damaged(rec.id, "state", f"{type(e).__name__}: {str(e)[:80]}") from None
        if state is not None and rec.status == "active":
            self._remember(rec, state)
        return Loaded(rec, game, state)

    def _damaged(self, match_id: int, part: str, reason: str) -> DamagedMatch:
        e = DamagedMatch(match_id, part, reason)
        self.store.quarantine.note(e)
        return e

    def _remember(self, rec: MatchRecord, state: Any) -> None:
        self._states.pop(rec.id, None)
        self._states[rec.id] = (rec.version, state, rec)
        while len(self._states) > self._cache_size:
            self._states.pop(next(iter(self._states)))

    async def in_channel(self, channel_id: int) -> Loaded:
        rec = await self.store.active_in_channel(channel_id)
        if rec is None:
            raise UserError("no_match")
        return await self.aload(rec)

    # -- the one commit path ------------------------------------------------------------------

    async def commit(
        self, match_id: int, expected_version: int | None, decide: Decide, *, retry: bool | None = None,
        loaded: Loaded | None = None, attempts: int = 5, at: Place | None = None, dm_ok: bool = True,
    ) -> Committed:
        """The one way a match changes: under the match's lock, read it (or take ``loaded`` when it
        is still at ``expected_version``), ``decide`` the change, write it with the store's
        compare-and-set on the version, cache the new state, write the notes, wake the scheduler.

        ``expected_version``: the version the person saw (Stale when the match is elsewhere).
        ``retry`` (default: when no version is expected): on a version that moved meanwhile, decide
        again on the new one, up to ``attempts`` times (then UserError "busy"); else Stale.
        ``at``: where the click came from; the match must be that channel's (or a DM, when ``dm_ok``)."""
        retry = expected_version is None if retry is None else retry
        async with self.lock(match_id):
            for _attempt in range(attempts):
                if loaded is None or (expected_version is not None and loaded.record.version != expected_version):
                    loaded = await self.get(match_id, at, dm_ok)
                rec = loaded.record
                if expected_version is not None and rec.version != expected_version:
                    raise Stale(rec)
                change = await decide(loaded)
                if change is None:
                    return Committed(loaded, [], Change())
                # the runner's hand: the jobs planned start here without a claim, and the notes come back
                hand = self.runner.offer() if self.runner is not None and (change.jobs or change.move is not None) else None
                try:
                    new = await self._write(rec, change, hand)
                except VersionConflict:
                    loaded = None
                    if retry:
                        continue  # moved meanwhile (a move, a note): decide again on what is there now
                    raise Stale(await self.store.get(match_id)) from None
                if change.live is not None and new.status == "active":
                    self._remember(new, change.live)
                written: dict[int, dict[str, Any]] | None = None
                try:
                    written = await self._write_notes(match_id, change.notes)
                finally:  # the jobs run even if the notes could not be written (they read the match again)
                    self._hand_over(change, hand, new, written)
                state = change.live if change.live is not None else (loaded.state if new.version == rec.version else None)
                after = Loaded(new, loaded.game, state) if state is not None or new.state is None else await self.aload(new)
                known = {**hand.notes, **written} if hand is not None and hand.notes is not None and written is not None else None
                return Committed(after, change.jobs, change, known)
            raise UserError("busy")

    async def note(self, match_id: int, user_id: int, changes: dict[str, Any]) -> dict[str, Any]:
        """The commit path's form for one note alone (a job's progress, a vote, a ballot): no match
        row is read or written, the version stays; returns the note as it is now."""
        return (await self._write_notes(match_id, {user_id: changes}))[user_id]

    async def _write_notes(self, match_id: int, notes: dict[int, dict[str, Any]]) -> dict[int, dict[str, Any]]:
        checked_notes = {uid: checked(uid, changes) for uid, changes in notes.items()}  # typed: bot/core/notes.py
        return {uid: await self.store.set_note(match_id, uid, changes) for uid, changes in checked_notes.items()}

    async def notes(self, match_id: int) -> Notes:
        """Every note of the match, read once, typed (the match's and each person's)."""
        return Notes(await self.store.notes(match_id))

    async def _write(self, rec: MatchRecord, change: Change, hand: HandOff | None = None) -> MatchRecord:
        if change.move is not None:
            m = change.move
            t0 = time.perf_counter()
            new = await self.store.commit_move(
                rec.id, rec.version, m.seat, m.action, m.revealed, m.snapshot,
                status=change.fields.get("status"), jobs=change.jobs, story=m.story, hand=hand,
            )
            if m.snapshot is None:  # the snapshot stays the one read; the tail came back with the move
                new = dataclasses.replace(new, state=rec.state)
            faults.point("commit")
            if timing.isEnabledFor(logging.DEBUG):
                timing.debug("commit_ms=%.3f", (time.perf_counter() - t0) * 1000)
            return new
        if change.event is not None or change.keep is not None:
            return await self.store.change(rec.id, rec.version, change.event, keep=change.keep, jobs=change.jobs, hand=hand, **change.fields)
        if change.fields or change.jobs:
            return await self.store.update(rec.id, rec.version, jobs=change.jobs, hand=hand, **change.fields)
        return rec  # notes only: the match row (and its version) stays as it is

    # -- lobby ---------------------------------------------------------------------------------

    async def new_lobby(
        self, guild_id: int | None, channel_id: int, game_key: str, host_id: int, host_name: str,
        options: dict[str, Any], lang: str, meta: dict[str, Any] | None = None,
    ) -> Loaded:
        try:
            game = registry.get(game_key)
        except EngineError:
            raise UserError("unknown_game", game=game_key) from None
        try:
            opts = game.parse_options(options)
        except EngineError as e:
            raise UserError("bad_options", reason=e.reason, game=game_key, options=dict(options)) from None
        seats = [{"user_id": host_id, "ai": None, "name": host_name}]
        try:
            rec = await self.store.create_match(
                guild_id, channel_id, game_key, host_id, seats, opts.model_dump(mode="json"), lang, meta
            )
        except ChannelBusy as e:
            raise UserError("channel_busy", id=e.existing_match_id) from None
        return Loaded(rec, game)

    async def _lobby_edit(self, match_id: int, version: int | None, edit, heavy: bool = False, at: Place | None = None) -> Loaded:
        async def decide(loaded: Loaded) -> Change:
            rec = loaded.record
            if rec.status in ("finished", "abandoned"):
                raise UserError("not_active", status=rec.status)
            if rec.status != "lobby":
                raise UserError("not_lobby")
            # a start deals the whole setup (a marathon bag of tiles): off the event loop
            changes = await self.off_loop(edit, loaded) if heavy else edit(loaded)
            jobs = changes.pop("jobs", [])
            return Change(fields=changes, jobs=jobs)

        # the lobby's buttons are in its channel
        return (await self.commit(match_id, version, decide, retry=version is None, at=at, dm_ok=False)).loaded

    async def join(self, match_id: int, version: int | None, user_id: int, name: str, at: Place | None = None) -> Loaded:
        def edit(m: Loaded) -> dict:
            if m.seat_of(user_id) is not None:
                raise UserError("already_joined")
            if len(m.record.seats) >= m.game.max_players:
                raise UserError("full", max=m.game.max_players)
            return {"seats": [*m.record.seats, {"user_id": user_id, "ai": None, "name": name}]}

        return await self._lobby_edit(match_id, version, edit, at=at)

    async def leave(self, match_id: int, version: int | None, user_id: int, at: Place | None = None) -> Loaded:
        def edit(m: Loaded) -> dict:
            if m.record.host_id == user_id:
                raise UserError("host_leave")
            if m.seat_of(user_id) is None:
                raise UserError("not_joined")
            return {"seats": [s for s in m.record.seats if s.get("user_id") != user_id]}

        return await self._lobby_edit(match_id, version, edit, at=at)

    async def add_ai(self, match_id: int, version: int | None, user_id: int, name: str, at: Place | None = None) -> Loaded:
        def edit(m: Loaded) -> dict:
            if m.record.host_id != user_id:
                raise UserError("host_only", host=m.names[0])
            if len(m.record.seats) >= m.game.max_players:
                raise UserError("full", max=m.game.max_players)
            return {"seats": [*m.record.seats, {"user_id": None, "ai": ai_kind(m.record), "name": name}]}

        return await self._lobby_edit(match_id, version, edit, at=at)

    async def start(self, match_id: int, version: int | None, user_id: int, seed: int | None = None, at: Place | None = None) -> Loaded:
        def edit(m: Loaded) -> dict:
            if m.record.host_id != user_id:
                raise UserError("host_only", host=m.names[0])
            if len(m.record.seats) < m.game.min_players:
                raise UserError("not_enough", game=m.record.game, min=m.game.min_players)
            opts = m.game.parse_options(m.record.options)
            s = seed if seed is not None else fresh_seed()
            state = m.game.new_state(len(m.record.seats), opts, s, None)
            after = dataclasses.replace(m.record, status="active", version=m.record.version + 1)
            jobs = plan(after, m.game.to_move(state), (), True)  # the first turn: board, DMs, AI
            dumped = m.game.dump(state)
            # the salt of the seed's hash shown at the start, published with the log at the end
            meta = {**m.record.meta, "salt": secrets.token_hex(16)}
            return {"status": "active", "seed": s, "state": RawJSON(dumps(dumped), dumped), "jobs": jobs, "meta": meta}

        return await self._lobby_edit(match_id, version, edit, heavy=True, at=at)

    async def set_prefs(self, match_id: int, user_id: int, prefs: list[str]) -> Loaded:
        """Store a player's standing orders for this match: a note of their own, so the match version
        (and every open button of the other players) stays as it is."""
        async def decide(loaded: Loaded) -> Change:
            if not loaded.record.live:
                raise UserError("not_active", status=loaded.record.status)
            if loaded.seat_of(user_id) is None:
                raise UserError("not_player")
            return Change(notes={user_id: {"prefs": list(prefs) or None}})

        return (await self.commit(match_id, None, decide)).loaded

    async def abandon(self, match_id: int, user_id: int, can_manage: bool) -> Loaded:
        async def decide(loaded: Loaded) -> Change:
            rec = loaded.record
            if not rec.live:
                raise UserError("not_active", status=rec.status)
            if rec.host_id != user_id and not can_manage:
                raise UserError("abandon_rights")
            return Change(fields={"status": "abandoned"})  # a move landed meanwhile: abandon what is there now

        return (await self.commit(match_id, None, decide)).loaded

    # -- moves ---------------------------------------------------------------------------------

    async def move(
        self, match_id: int, version: int | None, seat_or_user: tuple[str, int], action: Any,
        loaded: Loaded | None = None, auto: bool = False, standin: bool = False, jobs: list[NewJob] = (),
        auto_end: bool = False,
    ) -> MoveResult:
        """Apply one action for a user (("user", id)) or an AI seat (("seat", n)).

        ``loaded``: the match as the caller just read it (no second read when it is still at
        ``version``). ``auto``: made by the person's standing orders, not by a click. The commit
        inserts the follow-up jobs (board, the next seats' turns, an AI step) in its transaction.
        ``standin``: the stand-in AI moved for an absent person (the story says so). ``jobs``: more
        work to commit with the move (e.g. telling the table the stand-in played). ``auto_end``: the
        turn's end taken for the person because it was their only legal move (their auto-end
        setting; implies ``auto``): its story says so, and an undo takes back the move before it too.

        Raises Stale (version moved on), UserError (not a player / not active) or EngineError (the
        rules refuse); in every such case nothing is written.
        """
        kind, who = seat_or_user

        async def decide(loaded: Loaded) -> Change:
            return await self.plan_move(loaded, kind, who, action, auto=auto or auto_end, standin=standin, jobs=jobs, auto_end=auto_end)

        done = await self.commit(match_id, version, decide, retry=False, loaded=loaded)
        return dataclasses.replace(done.change.value, loaded=done.loaded, notes=done.notes)

    async def plan_move(
        self, loaded: Loaded, kind: str, who: int, action: Any, *, auto: bool = False, standin: bool = False,
        jobs: list[NewJob] = (), auto_end: bool = False, by_plan: bool = False,
    ) -> Change:
        """The change one action makes (checked by the engine, stepped off the loop), with the jobs
        it plans and its story; ``value`` is the MoveResult once committed (see ``move``).
        ``by_plan``: the player's plan made it (bot/core/plans.py): the story says so, as data."""
        rec = loaded.record
        if rec.status != "active":
            raise UserError("not_active", status=rec.status)
        seat = loaded.seat_of(who) if kind == "user" else who
        if seat is None:
            raise UserError("not_player")
        game = loaded.game
        # the snapshot is written every ``snapshot_every`` moves and at the end; in between a move
        # writes its action alone (a marathon state is 100 KB and more)
        snap = len(rec.tail) + 1 >= self.snapshot_every
        try:
            code = game.code_of(action)
            # checked with the step, off the loop on a marathon table (the check alone looks at
            # every open edge of the board)
            state, outcome, over, movers, after, snapshot = await self.on(loaded, _advance, game, loaded.state, seat, code, snap)
        except EngineError as e:
            e.game = rec.game  # so the refusal is worded by that game's texts
            raise
        encoded = game.encode(code)
        ended = outcome.turn_ended if outcome.turn_ended is not None else after != movers
        turn_changed = over or ended
        future = dataclasses.replace(rec, version=rec.version + 1, status="finished" if over else rec.status)
        quiet = turn_changed and not over and ui_for(rec.game).quiet_step(encoded, outcome.events)
        planned = plan(future, after if not over else (), movers, turn_changed, auto, quiet) + list(jobs)
        story = public_story(rec.game, encoded, loaded.names, seat, [e for e in outcome.events if e.private_to is None])
        if standin:
            story = standin_story(story)
        elif by_plan:
            story = planned_story(story)
        if auto_end:
            story = auto_end_story(story)
        future_loaded = Loaded(future, game, state)
        return Change(
            fields={"status": "finished"} if over else {},
            move=MoveWrite(seat, encoded, outcome.revealed, snapshot, story),
            jobs=planned, live=state,
            value=MoveResult(future_loaded, seat, encoded, outcome, turn_changed),
        )

    async def ai_step(self, match_id: int, version: int | None = None) -> MoveResult | None:
        """If an AI seat is to move (at ``version``, when given), let it make one move. None when no
        AI is to move, or the match moved past ``version`` (its own jobs were planned then).

        The AI thinks outside the match's lock (a person's click is not held up by it); its move is
        committed at the version it thought about. Without ``version``, when something else was
        committed meanwhile (a note, a seat), the commit path decides again: the AI thinks again on
        what is there now."""
        cached = self._states.get(match_id)
        if version is not None and cached is not None and cached[0] > version:
            return None  # this process saw the match past that version already (versions only grow): no read
        if version is not None and cached is not None and cached[0] == version:
            rec = cached[2]  # this process holds that version: no read (the commit checks it is still the newest)
        else:
            rec = await self.store.get(match_id)
        if rec is None or rec.status != "active" or (version is not None and rec.version != version):
            return None
        loaded = await self.aload(rec)
        seat = next((s for s in loaded.to_move() if rec.seats[s].get("ai")), None)
        if seat is None:
            return None
        # off the event loop: a state handed out is never changed, so a thread may read it
        thought = {rec.version: await self.think(loaded, seat, rec.seats[seat]["ai"], f"{rec.seed}/{rec.version}")}
        faults.point("ai")

        async def decide(now: Loaded) -> Change | None:
            r = now.record
            seat = next((s for s in now.to_move() if r.seats[s].get("ai")), None) if r.status == "active" else None
            if seat is None:
                return None
            code = thought.get(r.version)
            if code is None:  # a newer version than the one thought about
                code = await self.think(now, seat, r.seats[seat]["ai"], f"{r.seed}/{r.version}")
            # a person's seat the AI holds for now: the story says the stand-in played
            return await self.plan_move(now, "seat", seat, code, standin=bool(r.seats[seat].get("standin")))

        try:
            done = await self.commit(match_id, version, decide, loaded=loaded)
        except Stale:
            return None  # the match moved past ``version``: that change planned its own jobs
        if done.change.value is None:
            return None
        return dataclasses.replace(done.change.value, loaded=done.loaded)

    async def think(self, loaded: Loaded, seat: int, kind: str, seed: str) -> dict[str, Any]:
        """The encoded choice of the AI of ``kind`` for ``seat`` (``seed``: its randomness)."""
        rec = loaded.record
        return await self.thinker.choose(rec.game, loaded.game, loaded.state, rec.state, seat, kind, seed, tail=rec.tail)

    async def log(self, match_id: int) -> dict[str, Any]:
        """The match log in the format `python -m engines replay` reads."""
        loaded = await self.get(match_id)
        rec = loaded.record
        actions = await self.store.actions(match_id)
        return {
            "format": 1,
            "game": rec.game,
            "seats": loaded.names,
            "options": rec.options,
            "seed": rec.seed,
            "setup": rec.setup,
            "actions": [{"seat": a.seat, "action": a.action} for a in actions],
        }


def _advance(game: Game, state: Any, seat: int, code: Any, snapshot: bool = True):
    """Check the move, step a clone of ``state`` (others may hold it: never change it) and serialise the result when
    a ``snapshot`` is due or the match is over; in a thread, as a marathon state takes a while."""
    game.check(state, seat, code)
    movers = game.to_move(state)
    new = game.clone(state)
    outcome = game.step(new, seat, code)
    over = game.is_over(new)
    after = game.to_move(new)
    if not (snapshot or over):
        return new, outcome, over, movers, after, None
    dumped = game.dump(new)
    return new, outcome, over, movers, after, RawJSON(dumps(dumped), dumped)
