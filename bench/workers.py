"""What a task costs the bot process: bot/core/workers.py against concurrent.futures' process pool.

    python bench/workers.py [--n 2000]

One worker process each; a task returns 256 B or 50 KB (a picture's size). Prints the parent's CPU
time per task (every thread of the process: the executor's feeder and manager threads included)
and the wall time per task, tasks one after another. Pin it to one core to compare like with like
(`taskset -c 0`): the workers then share that core, as the bot's drawing process does.
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import multiprocessing
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.core.workers import Workers  # noqa: E402


def answer(size: int) -> bytes:
    return b"x" * size


async def main(n: int) -> None:
    loop = asyncio.get_running_loop()
    ours = Workers(1)
    theirs = concurrent.futures.ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
    await ours.run(answer, 1)
    await loop.run_in_executor(theirs, answer, 1)
    calls = {
        "bot.core.workers.Workers": lambda size: ours.run(answer, size),
        "ProcessPoolExecutor": lambda size: loop.run_in_executor(theirs, answer, size),
    }
    for size in (256, 50_000):
        for label, call in calls.items():
            cpu0, t0 = time.process_time(), time.perf_counter()
            for _ in range(n):
                await call(size)
            cpu = (time.process_time() - cpu0) / n * 1e6
            wall = (time.perf_counter() - t0) / n * 1e6
            print(f"{label:26s} answer {size:>6d} B: bot process CPU {cpu:5.0f} us/task, wall {wall:5.0f} us/task")
    ours.close()
    theirs.shutdown()


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=2000)
    asyncio.run(main(ap.parse_args().n))
