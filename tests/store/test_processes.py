"""Several processes over one store: leases renewed by a live holder, taken over from a dead one,
PostgreSQL's claim skipping rows another transaction holds, lanes kept in order under racing
claimers, and migrations numbered with gaps (run against SQLite and PostgreSQL, see conftest.py)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest

from bot.store import NewJob, open_store, parse_database_url
from bot.store.migrate import Migration, check_applied, order_migrations
from tests.store.conftest import require_pg

T0 = datetime(2030, 1, 1, 12, 0, tzinfo=UTC)
LEASE = timedelta(seconds=10)


def job(key: str, lane: str = "l") -> NewJob:
    return NewJob("test", key, lane, {}, T0, None)


async def test_a_renewed_lease_is_kept_and_a_dead_holders_is_taken_over(url):
    alive, dead, other = await open_store(url), await open_store(url), await open_store(url)
    try:
        await alive.add_jobs([job("kept", "A"), job("orphan", "B")], now=T0)
        (kept,) = await alive.claim_jobs("alive", T0, LEASE, 1)
        (orphan,) = await dead.claim_jobs("dead", T0, LEASE, 1)
        assert {kept.key, orphan.key} == {"kept", "orphan"}
        later = T0 + LEASE - timedelta(seconds=1)
        # the live holder renews; the dead one does not (and cannot renew someone else's job)
        assert await alive.extend_leases("alive", [kept.id], later + LEASE) == 1
        assert await alive.extend_leases("alive", [orphan.id], later + LEASE) == 0
        after = T0 + LEASE + timedelta(seconds=1)
        taken = await other.claim_jobs("other", after, LEASE, 10)
        assert [(j.id, j.attempts, j.claimed_by) for j in taken] == [(orphan.id, 2, "other")]
        # the dead holder's late renewal and finish change nothing; the taker finishes it
        assert await dead.extend_leases("dead", [orphan.id], after + LEASE) == 0
        assert not await dead.finish_job(orphan.id, "dead", after)
        assert await other.finish_job(orphan.id, "other", after)
        assert await alive.finish_job(kept.id, "alive", after)
        assert [j.status for j in await other.jobs()] == ["done", "done"]
        assert await alive.extend_leases("alive", [], after) == 0
    finally:
        for s in (alive, dead, other):
            await s.close()


async def test_racing_claimers_take_each_job_once_and_keep_lane_order(url):
    stores = [await open_store(url) for _ in range(4)]
    try:
        await stores[0].add_jobs([job(f"{lane}-{i}", f"lane{lane}") for i in range(5) for lane in range(12)], now=T0)
        order: list[tuple[str, str]] = []  # (owner, key) in the order they finished

        async def drain(store, owner):
            idle = 0
            while idle < 3:
                batch = await store.claim_jobs(owner, T0, LEASE, 4)
                idle = 0 if batch else idle + 1
                for j in batch:
                    await asyncio.sleep(0)
                    order.append((owner, j.key))
                    assert await store.finish_job(j.id, owner, T0)
                if not batch:
                    await asyncio.sleep(0.01)

        await asyncio.gather(*(drain(s, f"p{i}") for i, s in enumerate(stores)))
        keys = [k for _, k in order]
        assert sorted(keys) == sorted({*keys}) and len(keys) == 60  # every job once
        for lane in range(12):
            mine = [int(k.split("-")[1]) for k in keys if k.startswith(f"{lane}-")]
            assert mine == sorted(mine)  # a lane's jobs ran one after the other, in order
        if url.startswith("postgres"):  # several processes' back end: the work was shared (SQLite
            # serves one process through one writer, where one claimer may drain everything)
            assert len({o for o, _ in order}) > 1
    finally:
        for s in stores:
            await s.close()


async def test_postgres_claim_skips_rows_locked_by_another_transaction(url):
    if not url.startswith("postgresql"):
        pytest.skip("FOR UPDATE SKIP LOCKED is PostgreSQL's")
    await require_pg()
    import asyncpg

    store = await open_store(url)
    parsed = parse_database_url(url)
    conn = await asyncpg.connect(parsed.target, server_settings={"search_path": parsed.options["schema"]})
    try:
        await store.add_jobs([job("held", "A"), job("free", "B")], now=T0)
        async with conn.transaction():
            # another process in the middle of claiming 'held': its row is locked until it commits
            await conn.execute("SELECT id FROM jobs WHERE key = 'held' FOR UPDATE")
            got = await asyncio.wait_for(store.claim_jobs("p", T0, LEASE, 10), 5)  # never waits on the lock
            assert [j.key for j in got] == ["free"]
        (held,) = await store.claim_jobs("p", T0, LEASE, 10)
        assert held.key == "held"
    finally:
        await conn.close()
        await store.close()


def test_migrations_numbered_with_gaps_apply_and_a_late_lower_number_still_applies():
    mig = {n: Migration(n, f"m{n}", "") for n in (1, 2, 3, 5)}
    known = order_migrations([mig[5], mig[1], mig[2]])
    assert [m.version for m in known] == [1, 2, 5]
    assert [m.version for m in check_applied({1: "m1", 2: "m2"}, known)] == [5]
    # 0003 merged after a database already has 0005: it is applied then
    assert [m.version for m in check_applied({1: "m1", 2: "m2", 5: "m5"}, order_migrations(list(mig.values())))] == [3]
    with pytest.raises(RuntimeError, match="share the number"):
        order_migrations([mig[2], Migration(2, "other", "")])


async def test_a_running_job_keeps_its_lease_past_the_lease_time(url):
    """The scheduler renews the lease of a job that runs longer than a lease: no other process
    takes it over meanwhile, and it runs once."""
    from bot.core.scheduler import Scheduler

    mine, other = await open_store(url), await open_store(url)
    runs: list[int] = []
    release = asyncio.Event()

    async def slow(job) -> None:
        runs.append(job.id)
        await release.wait()

    sched = Scheduler(mine, {"test": slow}, owner="mine", lease=timedelta(seconds=0.3), poll=0.05)
    try:
        await mine.add_jobs([NewJob("test", "slow", "l", {}, None, None)])
        sched.start()
        await asyncio.wait_for(_until(lambda: runs), 5)
        for _ in range(8):  # 1.2 s: four leases' worth
            await asyncio.sleep(0.15)
            assert await other.claim_jobs("other", datetime.now(UTC), timedelta(seconds=0.3), 5) == []
        release.set()
        for _ in range(500):  # the end is recorded just after the handler returns
            (job,) = await other.jobs()
            if job.status != "pending":
                break
            await asyncio.sleep(0.01)
        assert job.status == "done" and job.attempts == 1 and runs == [job.id]
    finally:
        await sched.stop()
        await mine.close()
        await other.close()


async def _until(predicate) -> None:
    while not predicate():
        await asyncio.sleep(0.01)
