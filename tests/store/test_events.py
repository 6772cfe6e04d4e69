"""The store's table operations (migration 0004), against SQLite and PostgreSQL: ``change`` drops the
undone actions, records its event and plans its jobs in one compare-and-set; events; finished
matches of a server; migrations with a gap in their numbers."""

from __future__ import annotations

import pytest

from bot.store import NewEvent, NewJob, VersionConflict
from bot.store.migrate import check_applied, load_migrations

GUILD = 900000000000000001


async def _active(store, channel=5, guild=GUILD):
    seats = [{"user_id": 11, "name": "Ana"}, {"user_id": 22, "name": "Ben"}]
    rec = await store.create_match(guild, channel, "lost-cities", 11, seats, {}, "en")
    return await store.update(rec.id, rec.version, status="active", seed=1, state={"n": 0})


async def test_change_drops_the_undone_actions_and_records_the_event(store):
    rec = await _active(store)
    for i in range(4):
        rec = await store.commit_move(rec.id, rec.version, i % 2, {"a": i}, False, {"n": i + 1})
    undo = NewEvent("undo", 22, {"actions": [{"seat": 1, "action": {"a": 3}}]})
    with pytest.raises(VersionConflict):
        await store.change(rec.id, rec.version - 1, undo, keep=3, state={"n": 3})
    assert len(await store.actions(rec.id)) == 4 and await store.events(rec.id) == []  # nothing written
    job = NewJob("board", f"board:{rec.id}:x", f"m{rec.id}:board", {"version": rec.version + 1})
    new = await store.change(rec.id, rec.version, undo, keep=3, state={"n": 3}, jobs=[job])
    assert new.version == rec.version + 1 and new.state == {"n": 3}
    assert [a.action for a in await store.actions(rec.id)] == [{"a": 0}, {"a": 1}, {"a": 2}]
    (ev,) = await store.events(rec.id)
    assert (ev.kind, ev.user_id, ev.at_action, ev.data) == ("undo", 22, 3, undo.data)
    assert [j.key for j in await store.jobs(rec.id)] == [job.key]
    # the log goes on from where the undo left it, without a gap
    new = await store.commit_move(rec.id, new.version, 1, {"a": 9}, True, {"n": 4})
    assert [a.idx for a in await store.actions(rec.id)] == [0, 1, 2, 3]
    ev2 = await store.add_event(rec.id, NewEvent("left", 11, {"seat": 0}))
    assert ev2.at_action == 4 and [e.kind for e in await store.events(rec.id)] == ["undo", "left"]


async def test_change_of_seats_keeps_who_plays_where(store):
    rec = await _active(store)
    seats = [dict(rec.seats[0]), {"user_id": 33, "ai": None, "name": "Cy"}]
    await store.change(rec.id, rec.version, NewEvent("seat_taken", 33, {"seat": 1}), seats=seats)
    assert [m.id for m in await store.matches_for_user(33)] == [rec.id]
    assert await store.matches_for_user(22) == []


async def test_finished_matches_of_one_server(store):
    a = await _active(store, channel=1)
    b = await _active(store, channel=2)
    await _active(store, channel=3)  # still running
    other = await _active(store, channel=4, guild=7)
    for rec in (a, b, other):
        await store.update(rec.id, rec.version, status="finished")
    assert [m.id for m in await store.finished_in_guild(GUILD)] == [b.id, a.id]
    assert [m.id for m in await store.finished_in_guild(GUILD, limit=1)] == [b.id]


def test_migration_numbers_may_have_a_gap():
    known = load_migrations()
    versions = [m.version for m in known]
    assert versions == sorted(set(versions)) and 4 in versions
    # a database at 1, 2 and 4 later receives 0003 from another branch: only 0003 is applied
    assert 3 in versions
    applied = {m.version: m.name for m in known if m.version != 3}
    assert [m.version for m in check_applied(applied, known)] == [3]


async def test_action_timing_per_match_and_seat(store, monkeypatch):
    from datetime import UTC, datetime, timedelta

    import bot.store.postgres
    import bot.store.sqlite

    now = [datetime(2026, 3, 1, tzinfo=UTC)]
    monkeypatch.setattr(bot.store.sqlite, "utcnow", lambda: now[0])
    monkeypatch.setattr(bot.store.postgres, "utcnow", lambda: now[0])
    a = await _active(store, channel=1)
    b = await _active(store, channel=2)
    for rec, gaps in ((a, [5, 10, 20, 40]), (b, [7])):
        for i, gap in enumerate(gaps):
            now[0] += timedelta(seconds=gap)
            rec = await store.commit_move(rec.id, rec.version, i % 2, {"i": i}, False, {})
    timing = await store.action_timing([a.id, b.id])
    # match a: seat 0 acted at +5 (first, untimed) and +35 (20 s after seat 1); seat 1 at +15 (10 s) and +75 (40 s)
    assert timing[(a.id, 0)] == (2, 1, pytest.approx(20.0, abs=0.01))
    assert timing[(a.id, 1)] == (2, 2, pytest.approx(50.0, abs=0.01))
    assert timing[(b.id, 0)] == (1, 0, 0.0) and (b.id, 1) not in timing
    assert await store.action_timing([]) == {}
