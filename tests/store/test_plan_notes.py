"""A plan made ahead (issue 21) is a note of its owner's (bot/core/plans.py), on SQLite and on
PostgreSQL alike: kept as JSON text (a None inside a plan means something), the match version and
row untouched, gone when cleared, and a second process (another service over the same database)
fires it."""

from __future__ import annotations

import json

from bot.core.plans import Planner, parsed
from bot.core.service import MatchService
from bot.store import open_store


async def test_a_plan_is_kept_by_the_store_without_touching_the_match(store, url):
    service = MatchService(store)
    m = await service.new_lobby(1, 100, "lost-cities", 11, "Ana", {}, "en")
    mid = m.record.id
    await service.join(mid, None, 22, "Ben")
    started = await service.start(mid, None, 11, seed=3)
    version = started.record.version
    planner = Planner(service)
    await planner.set(mid, 11, {"kind": "take_if_discarded", "card": "red-7", "otherwise": None})
    rec = await store.get(mid)
    assert rec.version == version and rec.state == started.record.state
    raw = (await store.notes(mid))[11]["plan"]
    assert json.loads(raw) == {"kind": "take_if_discarded", "card": "red-7", "otherwise": None}  # the None kept
    other = await open_store(url)  # another process over the same database reads the same plan
    try:
        plan = await Planner(MatchService(other)).current(mid, 11, "lost-cities")
        assert plan.card == "red-7" and plan.otherwise is None
        assert parsed("lost-cities", raw) == plan
    finally:
        await other.close()
    await planner.set(mid, 11, None)
    assert "plan" not in (await store.notes(mid)).get(11, {})
    assert (await store.get(mid)).version == version
