"""The jobs and notes contract, run against SQLite and PostgreSQL (see conftest.py)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest

from bot.store import NewJob, RawJSON, VersionConflict, open_store
from tests.store.test_contract import started

T0 = datetime(2030, 1, 1, 12, 0, tzinfo=UTC)
LEASE = timedelta(seconds=30)


def job(key: str, lane: str = "l", due: datetime | None = T0, match_id=None, **payload) -> NewJob:
    return NewJob("test", key, lane, payload, due, match_id)


async def test_a_move_commits_its_jobs_and_story_in_the_same_transaction(store):
    rec = await started(store)
    jobs = [NewJob("board", f"b:{rec.id}:1", f"m{rec.id}:board", {"upto": 1}), NewJob("ai", f"a:{rec.id}:2", f"m{rec.id}:ai", {"version": 2})]
    new = await store.commit_move(rec.id, rec.version, 0, {"t": 1}, False, {"turn": 1}, jobs=jobs, story={"en": "Ana played", "es": "Ana jugó"})
    assert new.version == rec.version + 1 and new.state == {"turn": 1}
    stored = await store.jobs(rec.id)
    assert [(j.kind, j.key, j.status, j.match_id, j.attempts) for j in stored] == [
        ("board", f"b:{rec.id}:1", "pending", rec.id, 0), ("ai", f"a:{rec.id}:2", "pending", rec.id, 0)
    ]
    assert stored[0].payload == {"upto": 1} and stored[0].due_at.utcoffset() == timedelta(0)
    (action,) = await store.actions(rec.id)
    assert action.story == {"en": "Ana played", "es": "Ana jugó"}
    # a refused commit inserts no job
    with pytest.raises(VersionConflict):
        await store.commit_move(rec.id, rec.version, 0, {"t": 2}, False, {}, jobs=[NewJob("board", "other", "x")])
    assert len(await store.jobs(rec.id)) == 2 and len(await store.actions(rec.id)) == 1
    # the same key planned again is not doubled
    await store.commit_move(rec.id, new.version, 1, {"t": 2}, False, {"turn": 2}, jobs=jobs)
    assert len(await store.jobs(rec.id)) == 2
    assert [a.story for a in await store.actions(rec.id, since=1)] == [None]


async def test_raw_json_state_is_written_as_is(store):
    rec = await started(store)
    raw = RawJSON('{"turn":7,"big":[1,2,3]}', {"turn": 7, "big": [1, 2, 3]})
    new = await store.commit_move(rec.id, rec.version, 0, {"t": 1}, False, raw)
    assert new.state == {"turn": 7, "big": [1, 2, 3]}
    assert (await store.get(rec.id)).state == {"turn": 7, "big": [1, 2, 3]}


async def test_update_commits_jobs_too(store):
    rec = await started(store)
    await store.update(rec.id, rec.version, status="abandoned", jobs=[NewJob("board", "end", "m:board")])
    (j,) = await store.jobs(rec.id)
    assert j.key == "end" and j.match_id == rec.id


async def test_claims_lease_order_lanes_and_settle(store):
    assert await store.add_jobs([job("a1", "A"), job("a2", "A"), job("b1", "B"), job("late", "C", T0 + timedelta(hours=1))], now=T0) == 4
    assert await store.add_jobs([job("a1", "A")], now=T0) == 0  # known key
    got = await store.claim_jobs("p1", T0, LEASE, 10)
    # one job per lane, the first of it; the job not yet due waits
    assert sorted(j.key for j in got) == ["a1", "b1"]
    assert all(j.claimed_by == "p1" and j.attempts == 1 and j.claimed_until == T0 + LEASE for j in got)
    assert await store.claim_jobs("p2", T0, LEASE, 10) == []  # leased, and a2 waits behind a1
    a1 = next(j for j in got if j.key == "a1")
    b1 = next(j for j in got if j.key == "b1")
    assert not await store.finish_job(a1.id, "p2", T0)  # not the lease holder
    assert await store.finish_job(a1.id, "p1", T0)
    assert not await store.finish_job(a1.id, "p1", T0)  # already done
    (a2,) = await store.claim_jobs("p2", T0, LEASE, 10)
    assert a2.key == "a2"
    # a retry keeps the lane: nothing behind it runs before it
    await store.add_jobs([job("b2", "B")], now=T0)
    assert await store.retry_job(b1.id, "p1", T0 + timedelta(seconds=5), "Discord 503")
    assert await store.claim_jobs("p1", T0 + timedelta(seconds=1), LEASE, 10) == []
    (again,) = await store.claim_jobs("p1", T0 + timedelta(seconds=5), LEASE, 10)
    assert again.key == "b1" and again.attempts == 2 and again.last_error == "Discord 503"
    assert await store.fail_job(again.id, "p1", T0, "gave up")
    (b2,) = await store.claim_jobs("p1", T0 + timedelta(seconds=5), LEASE, 10)
    assert b2.key == "b2"
    failed = await store.jobs(status="failed")
    assert [(j.key, j.last_error) for j in failed] == [("b1", "gave up")]
    # the due time of the pending work: a timer, or a lease running out (a2's, taken at T0); a job
    # behind its lane's first one does not count (it comes with that one's finish)
    assert await store.next_due() == T0 + LEASE
    await store.add_jobs([job("a3", "A", T0 - timedelta(hours=1))], now=T0)  # due long ago, behind a2
    assert await store.next_due() == T0 + LEASE
    assert await store.finish_job(a2.id, "p2", T0) and await store.finish_job(b2.id, "p1", T0)
    assert await store.next_due() == T0 - timedelta(hours=1)  # a3 heads its lane now
    (a3,) = await store.claim_jobs("p1", T0, LEASE, 10)
    assert await store.finish_job(a3.id, "p1", T0)
    assert await store.next_due() == T0 + timedelta(hours=1)


async def test_an_expired_lease_is_claimed_again_and_the_old_holder_cannot_finish(store):
    await store.add_jobs([job("x")], now=T0)
    (first,) = await store.claim_jobs("dead", T0, LEASE, 1)
    assert await store.claim_jobs("alive", T0 + LEASE - timedelta(seconds=1), LEASE, 1) == []
    (second,) = await store.claim_jobs("alive", T0 + LEASE, LEASE, 1)
    assert second.id == first.id and second.attempts == 2 and second.claimed_by == "alive"
    assert not await store.finish_job(first.id, "dead", T0)
    assert await store.finish_job(first.id, "alive", T0)
    assert await store.next_due() is None


async def test_the_lease_holder_extends_it_and_nobody_else_can(store):
    await store.add_jobs([job("x")], now=T0)
    (j,) = await store.claim_jobs("p1", T0, LEASE, 1)
    assert not await store.extend_lease(j.id, "p2", T0 + 2 * LEASE)
    assert await store.extend_lease(j.id, "p1", T0 + 2 * LEASE)
    assert await store.claim_jobs("p2", T0 + LEASE, LEASE, 1) == []  # still held
    (again,) = await store.claim_jobs("p2", T0 + 2 * LEASE, LEASE, 1)
    assert again.claimed_by == "p2" and not await store.extend_lease(j.id, "p1", T0 + 3 * LEASE)


async def test_release_claims_frees_a_dead_process_s_jobs(store):
    await store.add_jobs([job("x"), job("y", "other")], now=T0)
    await store.claim_jobs("old", T0, LEASE, 5)
    assert await store.release_claims("someone-else") == 0
    assert await store.release_claims() == 2
    assert len(await store.claim_jobs("new", T0, LEASE, 5)) == 2


async def test_two_stores_claiming_at_once_never_share_a_job(url):
    a, b = await open_store(url), await open_store(url)
    try:
        await a.add_jobs([job(f"k{i}", f"lane{i}") for i in range(40)], now=T0)
        got_a, got_b = [], []

        async def drain(store, got, owner):
            while batch := await store.claim_jobs(owner, T0, LEASE, 3):
                got += [j.id for j in batch]
                for j in batch:
                    assert await store.finish_job(j.id, owner, T0)

        await asyncio.gather(drain(a, got_a, "a"), drain(b, got_b, "b"))
        assert sorted(got_a + got_b) == sorted({*got_a, *got_b}) and len(got_a + got_b) == 40
    finally:
        await a.close()
        await b.close()


async def test_notes_merge_per_person_and_never_touch_the_version(store):
    rec = await started(store)
    assert await store.notes(rec.id) == {}
    assert await store.set_note(rec.id, 11, {"prefs": ["king", "thief"]}) == {"prefs": ["king", "thief"]}
    assert await store.set_note(rec.id, 11, {"dm_closed": True}) == {"prefs": ["king", "thief"], "dm_closed": True}
    assert await store.set_note(rec.id, 11, {"prefs": None}) == {"dm_closed": True}  # None removes
    await store.set_note(rec.id, 0, {"board_upto": 3})
    assert await store.notes(rec.id) == {11: {"dm_closed": True}, 0: {"board_upto": 3}}
    assert (await store.get(rec.id)).version == rec.version
    # notes written at once all stay
    await asyncio.gather(*(store.set_note(rec.id, 22, {f"k{i}": i}) for i in range(10)))
    assert (await store.notes(rec.id))[22] == {f"k{i}": i for i in range(10)}
    with pytest.raises(ValueError):
        await store.set_note(rec.id, 11, ["not", "an", "object"])


async def test_people_remember_their_language(store):
    assert await store.locales([1, 2]) == {}
    await store.set_locale(1, "es")
    await store.set_locale(2, "en")
    await store.set_locale(1, "en")
    assert await store.locales([1, 2, 3]) == {1: "en", 2: "en"}
    assert await store.locales([]) == {}


async def test_old_done_jobs_are_purged_failed_ones_stay(store):
    await store.add_jobs([job("old", "a"), job("new", "b"), job("bad", "c")], now=T0)
    claimed = {j.key: j for j in await store.claim_jobs("p", T0, LEASE, 5)}
    await store.finish_job(claimed["old"].id, "p", T0)
    await store.finish_job(claimed["new"].id, "p", T0 + timedelta(days=8))
    await store.fail_job(claimed["bad"].id, "p", T0, "gave up")
    assert await store.purge_jobs(T0 + timedelta(days=7)) == 1
    assert sorted(j.key for j in await store.jobs()) == ["bad", "new"]


async def test_a_job_writes_its_notes_and_next_jobs_with_its_finish_only_while_it_holds_the_lease(store):
    rec = await started(store)
    await store.add_jobs([job("first", match_id=rec.id)], now=T0)
    (claimed,) = await store.claim_jobs("me", T0, LEASE)
    # another process cannot finish it (no lease): nothing of what it would write lands
    assert not await store.finish_job(claimed.id, "other", T0, notes={(rec.id, 11): {"told": 1}}, jobs=[job("next")])
    assert await store.notes(rec.id) == {} and [j.key for j in await store.jobs()] == ["first"]
    await store.set_note(rec.id, 11, {"keep": True, "gone": 1})
    done = await store.finish_job(
        claimed.id, "me", T0, notes={(rec.id, 11): {"told": 1, "gone": None}, (rec.id, 0): {"board": 3}}, jobs=[job("next", "l2")],
    )
    assert done
    assert await store.notes(rec.id) == {11: {"keep": True, "told": 1}, 0: {"board": 3}}
    assert {j.key: j.status for j in await store.jobs()} == {"first": "done", "next": "pending"}
    # finished already: a second finish writes nothing more
    assert not await store.finish_job(claimed.id, "me", T0, notes={(rec.id, 0): {"board": 4}})
    assert (await store.notes(rec.id))[0] == {"board": 3}


# -- a write hands its jobs to its own process (HandOff) ----------------------------------------------


def hand_now(owner: str = "me"):
    from bot.store import HandOff
    from bot.store.base import utcnow

    now = utcnow() - timedelta(milliseconds=50)  # offered before the write (its jobs are due at the write's time)
    return HandOff(owner, now, now + LEASE)


async def test_a_move_leases_to_its_process_the_jobs_that_head_their_lane_with_the_notes_and_players(store):
    rec = await started(store)
    await store.set_note(rec.id, 0, {"board_upto": 3})
    await store.set_person(rec.user_ids[0], {"channel_pings": True})
    await store.add_jobs([NewJob("board", "older-board", f"m{rec.id}:board", {}, None, rec.id)])  # still pending
    later = datetime.now(UTC) + timedelta(hours=1)
    planned = [
        NewJob("turn", "t1", f"m{rec.id}:seat1", {}),  # its lane is free: handed
        NewJob("board", "b1", f"m{rec.id}:board", {}),  # waits behind the older board: not handed
        NewJob("clock", "c1", "c1", {}, later),  # not due yet: not handed
    ]
    hand = hand_now()
    await store.commit_move(rec.id, rec.version, 0, {"t": 1}, False, None, jobs=planned, hand=hand)
    assert [(j.key, j.claimed_by, j.attempts) for j in hand.jobs] == [("t1", "me", 1)]
    assert hand.notes == {0: {"board_upto": 3}}
    assert hand.people[rec.user_ids[0]].settings == {"channel_pings": True} and set(hand.people) == set(rec.user_ids)
    # the job handed is leased: another process's claim does not get it; the older board is due
    other = await store.claim_jobs("other", hand.now, LEASE, 10)
    assert {j.key for j in other} == {"older-board"}


async def test_without_a_hand_nothing_is_leased_and_a_refused_move_hands_nothing(store):
    rec = await started(store)
    new = await store.commit_move(rec.id, rec.version, 0, {"t": 1}, False, None, jobs=[NewJob("turn", "t1", "L1", {})])
    assert [j.claimed_by for j in await store.jobs(rec.id)] == [None]
    hand = hand_now()
    with pytest.raises(VersionConflict):
        await store.commit_move(rec.id, rec.version, 0, {"t": 2}, False, None, jobs=[NewJob("turn", "t2", "L2", {})], hand=hand)
    assert hand.jobs == [] and [j.key for j in await store.jobs(rec.id)] == ["t1"]
    # update and change hand theirs too
    hand = hand_now()
    new = await store.update(rec.id, new.version, meta={"x": 1}, jobs=[NewJob("notice", "n1", "N", {})], hand=hand)
    assert [j.key for j in hand.jobs] == ["n1"] and hand.notes == {}
    hand = hand_now()
    await store.change(rec.id, new.version, None, meta={"x": 2}, jobs=[NewJob("notice", "n2", "N2", {})], hand=hand)
    assert [j.key for j in hand.jobs] == ["n2"]


async def test_a_finish_hands_on_the_next_job_of_its_lane_and_what_it_planned_that_is_due(store):
    now = hand_now().now
    await store.add_jobs([job("a1", "A", now), job("a2", "A", now), job("b1", "B", now)], now=now)
    (a1, b1) = await store.claim_jobs("me", now, LEASE, 10)
    assert (a1.key, b1.key) == ("a1", "b1")
    hand = hand_now()
    planned = [job("n1", "N", None), job("n2", "N2", now + timedelta(hours=1))]
    assert await store.finish_job(a1.id, "me", hand.now, jobs=planned, hand=hand)
    assert sorted(j.key for j in hand.jobs) == ["a2", "n1"] and all(j.claimed_by == "me" for j in hand.jobs)
    # a finish of a job whose lease was lost hands nothing
    hand = hand_now()
    assert not await store.finish_job(b1.id, "someone else", hand.now, hand=hand)
    assert hand.jobs == []


async def test_the_notes_of_several_matches_come_in_one_read(store):
    a = await started(store)
    b = await started(store, channel=a.channel_id + 1)
    await store.set_note(a.id, 0, {"board_upto": 2})
    await store.set_note(a.id, 7, {"prefs": ["x"]})
    assert await store.notes_of([a.id, b.id, 999_999]) == {a.id: {0: {"board_upto": 2}, 7: {"prefs": ["x"]}}, b.id: {}, 999_999: {}}
    assert await store.notes_of([]) == {}


async def test_a_finish_that_fails_midway_writes_nothing(store):
    """Every end of ``finish_jobs`` is one transaction: a note that cannot be written (no such
    match) leaves the jobs pending and leased, on both back ends (and on SQLite's writer thread)."""
    now = hand_now().now
    await store.add_jobs([job("f1", "F", now), job("f2", "G", now)], now=now)
    f1, f2 = await store.claim_jobs("me", now, LEASE, 10)
    from bot.store import JobEnd

    with pytest.raises(Exception):  # noqa: B017 (the back ends raise their own integrity errors)
        await store.finish_jobs("me", now, [JobEnd(f1.id), JobEnd(f2.id, {(987_654, 1): {"prefs": ["x"]}})])
    assert {j.key: (j.status, j.claimed_by) for j in await store.jobs()} == {"f1": ("pending", "me"), "f2": ("pending", "me")}
    assert await store.finish_jobs("me", now, [JobEnd(f1.id), JobEnd(f2.id)]) == [True, True]


def test_a_statement_that_would_wait_on_the_writer_thread_is_refused():
    import asyncio as aio

    from bot.store.sqlite import _drive

    async def waits():
        await aio.sleep(0)

    with pytest.raises(RuntimeError):
        _drive(waits())
