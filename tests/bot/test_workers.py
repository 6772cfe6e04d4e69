"""bot/core/workers.py: the bot's worker processes, spoken to from the event loop without threads."""

from __future__ import annotations

import asyncio
import os
import signal
import threading
from concurrent.futures.process import BrokenProcessPool

import pytest

from bot.core.workers import Workers
from tests.bot.worker_tasks import big, nap, refuse, square


async def test_a_task_runs_in_a_worker_and_its_error_comes_back():
    pool = Workers(1)
    try:
        value, pid = await pool.run(square, 12)
        assert value == 144 and pid != os.getpid() and pid in pool.pids
        with pytest.raises(ValueError, match="no such card"):
            await pool.run(refuse, "no such card")
        assert (await pool.run(square, 3))[0] == 9  # the worker goes on after an error
        assert len(await pool.run(big, 3_000_000)) == 3_000_000 // 256 * 256  # an answer of many reads
    finally:
        pool.close()


async def test_no_thread_in_the_bot_process_and_tasks_share_the_workers():
    pool = Workers(2)
    try:
        threads = threading.active_count()
        pids = await asyncio.gather(*(pool.run(nap, 0.3) for _ in range(4)))
        assert set(pids) == set(pool.pids) and len(set(pids)) == 2  # both workers took tasks
        assert threading.active_count() == threads
    finally:
        pool.close()


async def test_a_dead_worker_fails_its_task_and_is_replaced():
    pool = Workers(1)
    try:
        first = (await pool.run(square, 2))[1]
        task = asyncio.ensure_future(pool.run(nap, 5))
        await asyncio.sleep(0.3)
        os.kill(first, signal.SIGKILL)
        with pytest.raises(BrokenProcessPool):
            await task
        value, pid = await pool.run(square, 5)
        assert value == 25 and pid != first
    finally:
        pool.close()


async def test_a_cancelled_task_leaves_no_half_answer_behind():
    pool = Workers(1)
    try:
        task = asyncio.ensure_future(pool.run(nap, 5))
        await asyncio.sleep(0.3)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert (await asyncio.wait_for(pool.run(square, 7), 30))[0] == 49
    finally:
        pool.close()


async def test_workers_leave_when_closed():
    pool = Workers(2)
    await asyncio.gather(pool.run(square, 1), pool.run(square, 1))
    processes = pool.processes
    pool.close()
    for p in processes:
        p.join(5)
        assert not p.is_alive()
    with pytest.raises(RuntimeError):
        await pool.run(square, 1)
