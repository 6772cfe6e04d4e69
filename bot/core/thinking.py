"""Where AI seats think.

A searching level (normal, strong: engines/search.py) spends 0.1-0.3 s of pure Python per decision.
In a thread of the bot process that time holds the GIL, and every click, store answer and gateway
heartbeat of the process waits for it in 5 ms slices. So searching decisions go to worker
processes (``AI_PROCESSES``, default 1; 0 keeps them in a thread): the worker gets the match's
stored snapshot (the JSON the store holds for that version), rebuilds the state, searches and
sends back the encoded action. The fast heuristics (easy, random) answer in microseconds to a few
milliseconds and stay in a thread: shipping the state to a process would cost more than thinking.

The worker is told the seed string the bot would have used, so an iteration-bound player chooses
exactly as it would have in the bot process (tests/bot/test_thinking.py).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import os
import random
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from engines import ai, registry

from .workers import Workers, exit_with_parent

log = logging.getLogger(__name__)


def searching(game_key: str, kind: str) -> bool:
    cls = ai.players_for(game_key).get(kind)
    return bool(getattr(cls, "searching", False))


def make_player(game_key: str, kind: str, iterations: int | None = None) -> Any:
    """The AI of ``kind`` (an unknown kind plays at random, as seats stored by older versions did)."""
    if kind not in ai.players_for(game_key):
        return ai.RandomPlayer()
    return ai.player(game_key, kind, iterations=iterations)


def decide(game: Any, state: Any, game_key: str, seat: int, kind: str, seed: str, iterations: int | None = None) -> dict:
    """One decision, encoded (runs in a thread or in a worker)."""
    player = make_player(game_key, kind, iterations)
    return game.encode(player.choose(game, state, seat, random.Random(seed)))


def decide_in_worker(
    game_key: str, snapshot: Any, seat: int, kind: str, seed: str, iterations: int | None = None, tail: Any = (),
) -> tuple[dict, int]:
    """In a worker process: rebuild the state from the stored snapshot and the log's ``tail`` after it,
    and decide. Returns the encoded action and the worker's pid (so tests can tell where the thinking
    happened)."""
    game = registry.get(game_key)
    return decide(game, game.resume(snapshot, tail), game_key, seat, kind, seed, iterations), os.getpid()


def _start_worker(parent: int) -> None:
    exit_with_parent(parent)
    for key in registry.available():  # import every engine and its AI once, before the first decision
        ai.players_for(key)


class Thinker:
    """Runs AI decisions: searching levels in ``processes`` worker processes (started on the first
    searching decision), everything else on one thread."""

    def __init__(self, processes: int = 1, iterations: int | None = None) -> None:
        self.processes = processes
        self.iterations = iterations  # tests: a fixed budget instead of the level's time budget
        self._thread = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="partida-ai")
        self._pool: Workers | None = None
        self.last_pid: int | None = None  # where the last decision was made

    def _workers(self) -> Workers:
        if self._pool is None:
            self._pool = Workers(self.processes, _start_worker, (os.getpid(),))
        return self._pool

    async def choose(
        self, game_key: str, game: Any, state: Any, snapshot: Any, seat: int, kind: str, seed: str, tail: Any = (),
    ) -> dict:
        """The encoded action of the AI of ``kind`` in ``seat``. ``state`` is the live state (never
        changed), ``snapshot`` the stored JSON with the log's ``tail`` after it, which give the same
        state (None: think in the thread)."""
        loop = asyncio.get_running_loop()
        if self.processes > 0 and snapshot is not None and searching(game_key, kind):
            try:
                code, self.last_pid = await self._workers().run(
                    decide_in_worker, game_key, snapshot, seat, kind, seed, self.iterations, tuple(tail),
                )
                return code
            except BrokenProcessPool:
                # a worker died (killed, out of memory): think here this time; the pool has
                # started a fresh worker for the next decision
                log.warning("AI worker process died; this decision is made in the bot process")
        self.last_pid = os.getpid()
        return await loop.run_in_executor(self._thread, decide, game, state, game_key, seat, kind, seed, self.iterations)

    def close(self) -> None:
        self._thread.shutdown(wait=False, cancel_futures=True)
        if self._pool is not None:
            self._pool.close()
