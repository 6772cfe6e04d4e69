"""Fixtures shared by the bot's tests: a SQLite store in a temporary folder and the timers
harness's bot on it (a test module may define its own of either name)."""

from __future__ import annotations

import pytest

from bot.store import open_store
from tests.bot.timers_harness import Bot, Clock, Outbox


@pytest.fixture
async def store(tmp_path):
    s = await open_store(f"sqlite:///{tmp_path}/p.sqlite3")
    yield s
    await s.close()


@pytest.fixture
async def bot(store):
    clock = Clock()
    b = Bot(store, clock, Outbox(clock), pictures=False)
    yield b
    await b.after.close()
