"""One scheduler per process: claims due jobs from the store with a lease and runs them.

Jobs are rows in the store (see ``bot/store/base.py``): a move inserts its follow-up work in its own
transaction, so nothing planned is lost when the process dies; whoever claims the job next (this
process after a restart, or another process once the lease ran out) does it. Every handler must be
idempotent (a job may run again after a crash between its effect and ``finish_job``).

A handler's error decides what happens next:
- ``Retry(after)``, what the edge's ``classify`` calls transient (Discord: a 429 with its
  ``retry_after``, a 5xx, a network error), an OS or network error, or a store error ("database is locked", a lost PostgreSQL connection): again later, with exponential
  backoff, up to ``max_attempts``; then one log line and the job is marked failed (an operator sees
  it in the store and ``/partida status`` names what could not be reached);
- anything else is a bug or a permanent refusal: one log line with the traceback, marked failed at
  once. Either way the other jobs (of other matches, other lanes) carry on.

The clock is injectable (``clock()`` returns an aware UTC datetime): tests let days pass in
milliseconds and call ``wake()``.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import os
import socket
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from ..store import DamagedMatch, HandOff, Job, JobEnd, MatchRead, NewJob, Store, outage
from ..store.base import utcnow
from . import faults
from .notes import checked

log = logging.getLogger(__name__)

@dataclass
class Finish:
    """What a job writes with its end, in the finish's own transaction (only while it still holds
    its lease): note changes ((match id, user id) -> changes) and the jobs it plans next."""

    notes: dict[tuple[int, int], dict[str, Any]] = field(default_factory=dict)
    jobs: list[NewJob] = field(default_factory=list)


Handler = Callable[[Job], Awaitable["Finish | None"]]


@dataclass
class _Together:
    """Jobs one write handed over at once: their ends are recorded in one store transaction, by
    whichever of them ends last (the others wait for it)."""

    left: int
    ends: list[tuple[Job, Finish | None]] = field(default_factory=list)
    recorded: asyncio.Event = field(default_factory=asyncio.Event)
    results: dict[int, bool] = field(default_factory=dict)


class Retry(Exception):
    """Run the job again later (``after`` seconds, else the scheduler's backoff)."""

    def __init__(self, reason: str, after: float | None = None) -> None:
        super().__init__(reason)
        self.after = after


Classify = Callable[[BaseException], "tuple[bool, float | None] | None"]


def transient(exc: BaseException, edge: Classify | None = None) -> tuple[bool, float | None]:
    """(worth retrying, delay asked for) for an error raised by a job; ``edge`` first classifies the
    errors of the outside service the jobs talk to (Discord's: ``bot/discord/wiring.py``), or None."""
    if isinstance(exc, Retry):
        return True, exc.after
    if edge is not None and (verdict := edge(exc)) is not None:
        return verdict
    if isinstance(exc, (OSError, TimeoutError, ConnectionError)):
        return True, None
    if outage(exc):  # the store cannot serve for a moment ("database is locked", a full disk, PostgreSQL down)
        return True, None
    return False, None


def describe_error(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"[:500]


class Scheduler:
    def __init__(
        self,
        store: Store,
        handlers: dict[str, Handler],
        *,
        owner: str | None = None,
        clock: Callable[[], datetime] = utcnow,
        lease: timedelta = timedelta(seconds=120),
        concurrency: int = 16,
        max_attempts: int = 6,
        base_delay: float = 2.0,
        max_delay: float = 600.0,
        poll: float = 5.0,
        keep_done: timedelta = timedelta(days=7),
        classify: Classify | None = None,
        together: tuple[str, ...] = (),
    ) -> None:
        self.store = store
        self.classify = classify  # the outside service's errors: worth retrying, and when
        self.handlers = handlers
        self.owner = owner or f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self.clock = clock
        self.lease = lease
        self.concurrency = concurrency
        self.max_attempts = max_attempts
        self.base_delay = base_delay
        self.max_delay = max_delay
        self.poll = poll  # how often to look when nothing is known to be due (other processes add jobs)
        self.keep_done = keep_done  # done jobs are deleted after this long (hourly)
        self._purged: datetime | None = None
        self._wake = asyncio.Event()
        self._running: set[asyncio.Task] = set()
        self._loop_task: asyncio.Task | None = None
        self._blocked = 0.0  # the current back-off while due jobs wait behind their lanes
        self._handed: list[Job] = []  # leased to us by a write while the loop is not running (run_due runs them)
        self._claim = False  # woken to claim (not only to look at the next due time again)
        self._hint: datetime | None = None  # the earliest due time of work this process planned for later
        self._full = False  # the last claim took every free slot: a slot freed may find more
        self._stopped = False
        # job kinds quick enough that the jobs of one write may wait for each other to end and be
        # recorded together (a turn's board, turn DM and clock: one transaction instead of three)
        self.together = frozenset(together)
        self._groups: dict[int, _Together] = {}
        self._lanes: dict[str, int] = {}  # lanes with a job running here (its finish hands on the next)
        self.failed = 0
        self.done = 0
        self.retried = 0

    # -- control ---------------------------------------------------------------------------------

    def register(self, handlers: dict[str, Handler]) -> None:
        """Add job kinds and their handlers (the composition root does it once, before start)."""
        clash = set(handlers) & set(self.handlers)
        if clash:
            raise ValueError(f"job kinds declared twice: {sorted(clash)}")
        self.handlers.update(handlers)

    def wake(self) -> None:
        """Claim due jobs now (work was planned that this process was not handed, a test clock moved)."""
        self._claim = True
        self._wake.set()

    def planned(self, jobs: list[NewJob]) -> None:
        """Jobs a write inserted but did not hand to this process: the ones whose lane runs here
        follow when that lane's job ends (its finish hands them on); one due later: wake then; any
        other: claim now (its lane may be free, or run in another process)."""
        now = self.clock()
        for job in jobs:
            if self._lanes.get(job.lane):
                continue
            if job.due_at is not None and job.due_at > now:
                self.due_at(job.due_at)
            else:
                self.wake()
                return

    def due_at(self, when: datetime) -> None:
        """Work this process planned falls due at ``when``: wake then (no claim before)."""
        if self._hint is None or when < self._hint:
            self._hint = when
            self._wake.set()

    def offer(self) -> HandOff | None:
        """What a write that plans jobs may hand to this process, so they start without a claim
        (``take``); None when stopped or every slot is taken (then the jobs wait to be claimed)."""
        if self._stopped or len(self._running) + len(self._handed) >= self.concurrency:
            return None
        now = self.clock()
        return HandOff(self.owner, now, now + self.lease)

    def take(self, hand: HandOff, read: MatchRead | None = None) -> None:
        """Run the jobs a write leased to this process (``hand.jobs``); ``read``: the match as that
        write left it, their first read. With the loop running they start now; else ``run_due`` runs them."""
        quick = [job for job in hand.jobs if job.kind in self.together]
        if len(quick) > 1:
            group = _Together(len(quick))
            for job in quick:
                self._groups[job.id] = group
        for job in hand.jobs:
            if read is not None and job.match_id == read.record.id:
                job = dataclasses.replace(job, read=read)
            if self._loop_task is not None and not self._loop_task.done():
                self._start(job)
            else:
                self._handed.append(job)

    def start(self) -> None:
        self._stopped = False
        if self._loop_task is None or self._loop_task.done():
            self._loop_task = asyncio.create_task(self._run_forever(), name="partida-scheduler")
            for job in self._handed:
                self._start(job)
            self._handed.clear()

    async def stop(self) -> None:
        self._stopped = True
        tasks = [t for t in (self._loop_task, *self._running) if t is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
        self._loop_task = None
        if self._handed or len(tasks) > 1:  # jobs leased to us that will not run here now: free them at once
            self._handed.clear()
            try:
                await self.store.release_claims(self.owner)
            except Exception as e:
                log.warning("could not free the leases of the jobs left: %s", describe_error(e))

    @property
    def busy(self) -> int:
        return len(self._running)

    # -- the loop --------------------------------------------------------------------------------

    async def _run_forever(self) -> None:
        while True:
            self._wake.clear()
            self._claim = False
            self._hint = None  # the store's next due time (read before sleeping) covers it from here
            try:
                claimed = await self._claim_and_start()
            except asyncio.CancelledError:
                raise
            except Exception as e:  # the store is unreachable for a moment: try again soon
                log.warning("could not claim jobs: %s", describe_error(e))
                claimed = 0
                await asyncio.sleep(1.0)
            if claimed:
                self._blocked = 0.0
            if claimed and len(self._running) < self.concurrency:
                continue  # there may be more due right now
            await self._purge()
            await self._sleep()

    async def _purge(self) -> None:
        now = self.clock()
        if self._purged is not None and now - self._purged < timedelta(hours=1):
            return
        self._purged = now
        try:
            await self.store.purge_jobs(now - self.keep_done)
        except Exception as e:
            log.warning("could not delete old jobs: %s", describe_error(e))

    async def _sleep(self) -> None:
        timeout = self.poll
        nxt: datetime | None = None
        if len(self._running) < self.concurrency:
            try:
                nxt = await self.store.next_due()
            except Exception:
                nxt = None
            if nxt is not None:
                # nothing was claimable just now, yet a job may be due: it waits behind its lane's
                # head. With a store shared by several processes that head may run in another one
                # for a while: back off (10 ms, 20 ms, ... 0.5 s) rather than poll the database in a
                # busy loop. (A single-process store looks again at once: its lane heads run here.)
                floor = 0.0
                if not getattr(self.store, "single_process", False):
                    floor = self._blocked = min(0.5, self._blocked * 2) if self._blocked else 0.01
                timeout = max(min(timeout, floor), min(timeout, (nxt - self.clock()).total_seconds()))
        began = self.clock()
        while True:
            wait = timeout - (self.clock() - began).total_seconds()
            if self._hint is not None:  # work planned here since: wake when it falls due
                wait = min(wait, (self._hint - self.clock()).total_seconds())
            try:
                await asyncio.wait_for(self._wake.wait(), max(0.0, wait) + 0.001)
            except TimeoutError:
                return
            self._blocked = 0.0
            if self._claim:
                return
            self._wake.clear()  # only a new due time: sleep again, until then

    async def _claim_and_start(self) -> int:
        free = self.concurrency - len(self._running)
        if free <= 0:
            return 0
        jobs = await self.store.claim_jobs(self.owner, self.clock(), self.lease, free)
        self._full = len(jobs) >= free
        for job in jobs:
            self._start(job)
        return len(jobs)

    def _start(self, job: Job) -> None:
        task = asyncio.create_task(self._run(job), name=f"job-{job.id}-{job.kind}")
        self._running.add(task)
        task.add_done_callback(self._finished)

    def _finished(self, task: asyncio.Task) -> None:
        self._running.discard(task)
        # The next job of its lane came with its finish (HandOff); a claim is needed only when the
        # last one took every free slot (there may be more due) or the job did not finish.
        ended = not task.cancelled() and task.exception() is None and task.result() is True
        if self._full or not ended:
            self._full = False
            self.wake()

    async def run_due(self, rounds: int = 1000) -> int:
        """Run every job due now, and those they make due, to the end (tests and tools): first the
        jobs writes handed to this process, then claimed ones."""
        ran = 0
        for _ in range(rounds):
            jobs, self._handed = self._handed, []
            if not jobs:
                jobs = await self.store.claim_jobs(self.owner, self.clock(), self.lease, self.concurrency)
            if not jobs:
                break
            await asyncio.gather(*(self._run(job) for job in jobs))
            ran += len(jobs)
        return ran

    async def _run(self, job: Job) -> bool:
        """Run one job; True when it finished (its end recorded, or lost to another process)."""
        self._lanes[job.lane] = self._lanes.get(job.lane, 0) + 1
        try:
            return await self._run_one(job)
        finally:
            if self._lanes[job.lane] <= 1:
                del self._lanes[job.lane]
            else:
                self._lanes[job.lane] -= 1

    async def _run_one(self, job: Job) -> bool:
        handler = self.handlers.get(job.kind)
        keeper = asyncio.create_task(self._keep_lease(job))
        faults.point("job")  # crash tests: die holding the lease, before the job did anything
        try:
            if handler is None:
                raise LookupError(f"no handler for jobs of kind {job.kind!r}")
            finish = await handler(job)
            if isinstance(finish, Finish):  # what it notes is typed (bot/core/notes.py): a bad key is a bug
                finish.notes = {key: checked(key[1], changes) for key, changes in finish.notes.items()}
        except asyncio.CancelledError:
            raise  # shutting down: the lease runs out (or the next start releases it) and it runs again
        except Exception as e:
            await self._settle_error(job, e)
            group = self._groups.pop(job.id, None)
            if group is not None:  # the others of its write are recorded without it
                group.left -= 1
                if group.left == 0 and group.ends:
                    await self._record(group)
            return False
        finally:
            keeper.cancel()
        self.done += 1
        group = self._groups.pop(job.id, None)
        if group is None:
            group = _Together(1)
        group.ends.append((job, finish if isinstance(finish, Finish) else None))
        group.left -= 1
        if group.left > 0:
            await group.recorded.wait()  # the last of them records every end
        else:
            await self._record(group)
        return group.results.get(job.id, False)

    async def _record(self, group: _Together) -> None:
        """Record the ends of a group in one transaction. The finish leases to this process the next
        job of each lane and what the jobs planned that is due now (HandOff): they start without a claim."""
        now = self.clock()
        hand = HandOff(self.owner, now, now + self.lease) if not self._stopped else None
        ends = [JobEnd(job.id, f.notes if f else {}, f.jobs if f else []) for job, f in group.ends]
        try:
            done = await self.store.finish_jobs(self.owner, now, ends, hand=hand)
        except Exception as e:  # it runs again once its lease is over (handlers are idempotent)
            log.warning("could not record the end of jobs %s: %s", [j.id for j, _ in group.ends], describe_error(e))
            done = [False] * len(ends)
        group.results = {job.id: ok for (job, _f), ok in zip(group.ends, done, strict=True)}
        group.recorded.set()
        if not any(done):
            return
        if hand is not None:
            self.take(hand)
        handed = {j.key for j in hand.jobs} if hand is not None else set()
        rest = [n for end, ok in zip(ends, done, strict=True) if ok for n in end.jobs if n.key not in handed]
        if rest:
            self.planned(rest)

    async def _keep_lease(self, job: Job) -> None:
        """While a job runs (a long AI think, a big picture), renew its lease every third of it, so
        no other process takes it over while this one is alive."""
        while True:
            await asyncio.sleep(self.lease.total_seconds() / 3)
            try:
                if not await self.store.extend_lease(job.id, self.owner, self.clock() + self.lease):
                    log.warning("job %s: lease lost while running", job.id)
                    return
            except Exception as e:
                log.warning("could not renew the lease of job %s: %s", job.id, describe_error(e))

    async def _settle_error(self, job: Job, e: Exception) -> None:
        again, after = transient(e, self.classify)
        if again and job.attempts < self.max_attempts:
            delay = after if after is not None else min(self.max_delay, self.base_delay * 2 ** (job.attempts - 1))
            self.retried += 1
            log.info("job %s (%s, match %s) will run again in %.1f s: %s", job.id, job.kind, job.match_id, delay, describe_error(e))
            await self._settle(self.store.retry_job(job.id, self.owner, self.clock() + timedelta(seconds=delay), describe_error(e)), job)
            return
        self.failed += 1
        if again:
            log.error("job %s (%s, match %s) failed after %s attempts: %s", job.id, job.kind, job.match_id, job.attempts, describe_error(e))
        else:
            # a quarantined match (its row cannot be decoded) is expected: one line, no traceback
            log.error("job %s (%s, match %s) failed: %s", job.id, job.kind, job.match_id, describe_error(e), exc_info=None if isinstance(e, DamagedMatch) else e)
        await self._settle(self.store.fail_job(job.id, self.owner, self.clock(), describe_error(e)), job)

    async def _settle(self, write: Awaitable[bool], job: Job) -> bool:
        """Record a job's end; a store error here only means it runs again (handlers are idempotent).
        False when it could not be recorded."""
        try:
            await write
        except Exception as e:
            log.warning("could not record the end of job %s: %s", job.id, describe_error(e))
            return False
        return True
