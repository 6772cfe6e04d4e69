"""The composition root (bot/discord/wiring.py): every job kind declared in bot/core/jobs.py gets
exactly one handler, registered in one place; keys and lanes come from the declarations."""

from datetime import UTC, datetime
from types import SimpleNamespace

import pytest

from bot.core import jobs as declared
from bot.core.ratings import Rater
from bot.core.scheduler import Scheduler
from bot.core.service import MatchService
from bot.core.story import plan
from bot.discord.posting import Presenter
from bot.discord.wiring import wire
from bot.store import open_store


@pytest.fixture
async def service(tmp_path):
    store = await open_store(f"sqlite:///{tmp_path / 'w.db'}")
    yield MatchService(store)
    await store.close()


async def test_every_declared_kind_has_one_handler(service):
    jobs = wire(Presenter(SimpleNamespace(), service), service)
    assert set(jobs.scheduler.handlers) == set(declared.KINDS)
    assert jobs.scheduler.handlers[declared.CLOCK] == jobs.timers.on_clock
    assert jobs.scheduler.handlers[declared.TURN] == jobs.after.on_turn
    assert jobs.scheduler.handlers[declared.DIGEST] == jobs.messages.on_digest
    assert isinstance(jobs.scheduler.handlers[declared.RATE].__self__, Rater)
    bare = wire(Presenter(SimpleNamespace(), service), service, with_timers=False)
    assert isinstance(bare.scheduler.handlers[declared.RATE].__self__, Rater)


async def test_a_kind_declared_twice_is_refused(service):
    sched = Scheduler(service.store, {"clock": lambda job: None})
    with pytest.raises(ValueError, match="clock"):
        sched.register({"clock": lambda job: None})


def test_a_commit_plans_only_declared_kinds_with_the_declared_keys():
    rec = SimpleNamespace(id=7, version=3, status="active", seats=[{"user_id": 11}, {"user_id": None, "ai": "easy"}])
    planned = plan(rec, (0, 1), (), True)
    assert {j.kind for j in planned} <= set(declared.KINDS)
    assert [j.key for j in planned] == ["board:7:3", "turn:7:3:0", "clock:7:3:0", "ai:7:3"]
    assert [j.lane for j in planned] == ["m7:board", "m7:seat0", "m7:clock0:v3", "m7:ai"]
    ended = SimpleNamespace(id=7, version=4, status="finished", seats=rec.seats)
    assert [j.key for j in plan(ended, (), (0, 1), True)] == ["board:7:4", "rate:7"]
    abandoned = SimpleNamespace(id=7, version=4, status="abandoned", seats=rec.seats)
    assert declared.RATE not in {j.kind for j in plan(abandoned, (), (0, 1), True)}
    due = datetime(2026, 12, 3, 20, 0, tzinfo=UTC)
    assert declared.clock_next(7, 3, 0, 2, due).key == "clock:7:3:0:2:20261203T200000"
    assert declared.later(SimpleNamespace(kind="dm", key="dm:x@q1", payload={}, match_id=7), due).key == "dm:x@q20261203T200000"
