"""A small sliding-window limit per (server, person, what) against abuse of commands that make the bot
act on Discord for someone: creating threads, and (``PersonalMessages``, one budget shared by all of
them) every message the bot sends to another person on someone's command.

Kept in the process's memory on purpose: Discord delivers every interaction of a server to the one
shard (process) that holds that server, so a limit keyed by server and person is exact across
processes; a restart forgets it, which costs at most one more burst. The clock is injectable.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable

from .service import UserError


class Limiter:
    def __init__(self, limit: int, window: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.limit, self.window, self.clock = limit, window, clock
        self._hits: dict[tuple, deque[float]] = {}

    def _recent(self, key: tuple) -> deque[float]:
        """The uses of ``key`` still inside the window (a key with none is not kept: the table does
        not grow with every person ever seen)."""
        now = self.clock()
        hits = self._hits.get(key)
        if hits is None:
            return deque()
        while hits and hits[0] <= now - self.window:
            hits.popleft()
        if not hits:
            del self._hits[key]
        return hits

    def retry_after(self, key: tuple) -> float:
        """0 when one more is allowed now, else the seconds until it is."""
        hits = self._recent(key)
        if len(hits) < self.limit:
            return 0.0
        return max(0.0, hits[0] + self.window - self.clock())

    def hit(self, key: tuple) -> float:
        """Count one use if allowed (returns 0); else count nothing and return the seconds to wait."""
        wait = self.retry_after(key)
        if wait == 0:
            self._hits.setdefault(key, deque()).append(self.clock())
        return wait


class PersonalMessages:
    """One budget per (server, person) for everything the bot sends to *other* people because this
    person asked: ``/partida invite``, ``/partida seat`` (an invitation DM with a button), a rematch
    (the others' turn DMs) and vote requests (the voters are mentioned). One instance per client,
    made by its set-up and shared by every command and button that sends such a message."""

    PER_HOUR = 10

    def __init__(self, limit: int = PER_HOUR, window: float = 3600.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.limiter = Limiter(limit, window, clock)

    def spend(self, guild_id: int | None, user_id: int) -> None:
        """Count one message for this person, or refuse (``slow_down``, one line) when the budget is spent."""
        wait = self.limiter.hit((guild_id, user_id))
        if wait:
            raise UserError("slow_down", minutes=max(1, round(wait / 60)))
