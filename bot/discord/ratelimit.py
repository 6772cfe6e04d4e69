"""This process's share of Discord's global rate limit (50 requests/s per bot, all processes
together), enforced in front of discord.py's HTTP client.

Every request waits for a token from a bucket refilled at ``GLOBAL_RATE_LIMIT / BOT_PROCESSES``
per second. Interaction answers (``/interactions/...`` callbacks and the ``/webhooks/<app>/<token>``
follow-ups and edits) are not bound by Discord's global limit, so they never wait here: a click is
answered at once however busy the board posts and DMs are. A 429 that still happens (another bot
process over its share, a per-route limit) is honoured by discord.py, and a job that gets one runs
again after ``retry_after`` (``bot/core/scheduler.py``).
"""

from __future__ import annotations

import asyncio
import functools
import time
from collections.abc import Awaitable, Callable
from typing import Any

EXEMPT_PREFIXES = ("/interactions/", "/webhooks/")


class TokenBucket:
    """``rate`` tokens per second, at most ``burst`` saved up. ``clock`` and ``sleep`` are
    injectable (tests check the waits without waiting)."""

    def __init__(self, rate: float, burst: float | None = None, *, clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep) -> None:
        if rate <= 0:
            raise ValueError("rate must be positive")
        self.rate = float(rate)
        self.burst = float(burst if burst is not None else max(1.0, rate))
        self.clock = clock
        self.sleep = sleep
        self._tokens = self.burst
        self._last = clock()
        self._lock = asyncio.Lock()
        self.waited = 0.0  # seconds spent waiting, for the operator and the bench
        self.taken = 0

    def _refill(self) -> None:
        now = self.clock()
        self._tokens = min(self.burst, self._tokens + (now - self._last) * self.rate)
        self._last = now

    async def take(self) -> float:
        """Wait for one token; returns how long it waited. Callers are served in arrival order."""
        async with self._lock:
            self._refill()
            wait = 0.0
            if self._tokens < 1.0:
                wait = (1.0 - self._tokens) / self.rate
                await self.sleep(wait)
                self._refill()
            self._tokens -= 1.0
            self.taken += 1
            self.waited += wait
            return wait


def exempt(path: str) -> bool:
    return path.startswith(EXEMPT_PREFIXES)


def limit_http(http: Any, bucket: TokenBucket) -> None:
    """Make ``http.request`` (discord.py's ``HTTPClient``) take a token first, except for
    interaction answers."""
    request = http.request

    @functools.wraps(request)
    async def limited(route: Any, *args: Any, **kwargs: Any) -> Any:
        if not exempt(getattr(route, "path", "")):
            await bucket.take()
        return await request(route, *args, **kwargs)

    http.request = limited
    http.partida_bucket = bucket
