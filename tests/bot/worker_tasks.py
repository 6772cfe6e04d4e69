"""Tasks for tests/bot/test_workers.py. A worker is a spawned process: it unpickles a task by its
module's name, so the tasks live here and are imported as ``tests.bot.worker_tasks`` (the project
root is on every process's path). Defined in the test module they were named ``bot.test_workers``
(pytest's name for a module of the tests/bot package), which a spawned child resolves in the
real ``bot`` package whenever the project root comes before tests/ on its path: it did in some
xdist workers, and the tests failed there."""

from __future__ import annotations

import os
import time


def square(x: int) -> tuple[int, int]:
    return x * x, os.getpid()


def refuse(why: str) -> None:
    raise ValueError(why)


def nap(seconds: float) -> int:
    time.sleep(seconds)
    return os.getpid()


def big(n: int) -> bytes:
    return bytes(range(256)) * (n // 256)
