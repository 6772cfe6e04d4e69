"""The composition root: builds the scheduler and every job kind's owner, and registers the job
kinds each one declares (``handlers()``) in one place (``rate``: ``bot/core/ratings.py``'s Rater).
The client's set-up calls it; the tests call it too, so they run what production runs. Nothing else wires objects together."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import aiohttp
import discord

from ..core import jobs as declared
from ..core.ratings import Rater
from ..core.scheduler import Scheduler
from ..core.service import MatchService
from ..core.timers import Timers
from ..store import Job
from ..store.base import utcnow
from .after_move import AfterMove
from .posting import Presenter
from .timer_jobs import TimerMessages


@dataclass
class Jobs:
    scheduler: Scheduler
    after: AfterMove
    timers: Timers
    messages: TimerMessages
    rater: Rater

    async def start(self) -> None:
        await self.after.start()

    async def close(self) -> None:
        await self.after.close()


def discord_transient(exc: BaseException) -> tuple[bool, float | None] | None:
    """Discord's errors for the scheduler: a 429 (its retry_after), a 5xx, a network error: again
    later; any other HTTP error: failed at once. None: not a Discord error."""
    if isinstance(exc, discord.RateLimited):
        return True, float(exc.retry_after)
    if isinstance(exc, discord.HTTPException):
        if exc.status == 429:  # a 429 discord.py did not handle itself: honour its Retry-After
            try:
                return True, float(exc.response.headers.get("Retry-After"))
            except (AttributeError, TypeError, ValueError):
                return True, None
        return exc.status >= 500, None
    if isinstance(exc, aiohttp.ClientError):
        return True, None
    return None


async def _no_clock(job: Job) -> None:
    """A turn's clock in a process built without the timers: nothing to do."""


def wire(
    present: Presenter, service: MatchService, clock: Any = utcnow, *, with_timers: bool = True, **scheduler_options: Any
) -> Jobs:
    """Everything that runs jobs, wired; ``with_timers=False``: the after-move jobs alone (tests)."""
    scheduler = Scheduler(
        service.store, {}, clock=clock, classify=discord_transient, together=declared.QUICK, **scheduler_options,
    )
    service.run_jobs_with(scheduler)  # a commit hands its jobs to this process's scheduler
    if not with_timers:
        bare, rater = AfterMove(present, service, scheduler), Rater(service)
        scheduler.register({**bare.handlers(), **rater.handlers(), declared.CLOCK: _no_clock})
        return Jobs(scheduler, bare, None, None, rater)  # type: ignore[arg-type]
    timers = Timers(service, scheduler)
    messages = TimerMessages(present, timers)
    after = AfterMove(
        present, service, scheduler, hold=timers.hold_turn, catch_up=messages.catch_up, mentions=messages.mentions
    )
    rater = Rater(service)
    for owner in (after, timers, messages, rater):
        scheduler.register(owner.handlers())
    missing = set(declared.KINDS) - set(scheduler.handlers)
    if missing:  # a kind planned with no handler would fail every job of it
        raise LookupError(f"job kinds without a handler: {sorted(missing)}")
    return Jobs(scheduler, after, timers, messages, rater)
