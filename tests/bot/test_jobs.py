"""The work after a move as durable jobs, with a fake Discord and a test clock (no sleeping):
retries, store errors, an unloadable match, the story after a restart, standing orders."""

from __future__ import annotations

import logging
import sqlite3
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

import discord
import pytest

from bot.core.scheduler import Scheduler
from bot.core.service import Change, MatchService, Stale
from bot.discord.posting import Presenter
from bot.discord.wiring import wire
from bot.store import NewJob, open_store
from tests.store.conftest import url  # noqa: F401  (SQLite and PostgreSQL)


class Clock:
    def __init__(self) -> None:
        self.t = datetime(2030, 5, 1, 9, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += timedelta(seconds=seconds)


class FakeDiscord:
    """Records what the bot sends; ``fail[where]`` holds errors to raise on the next sends there."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, object, dict]] = []  # ("dm", user id, kwargs) | ("channel", id, kwargs)
        self.fail: dict[str, list[Exception]] = {"dm": [], "channel": []}
        self.closed_dms: set[int] = set()
        self.nonces: set[str] = set()

    def _send(self, where: str, who: object):
        async def send(content=None, **kwargs):
            if self.fail[where]:
                raise self.fail[where].pop(0)
            if where == "dm" and who in self.closed_dms:
                raise discord.Forbidden(SimpleNamespace(status=403, reason="Forbidden"), {"code": 50007, "message": "Cannot send messages to this user"})
            if kwargs.get("nonce") in self.nonces:  # as Discord: the same nonce returns the first message
                return SimpleNamespace(id=0)
            self.nonces.add(kwargs.get("nonce"))
            self.sent.append((where, who, {"content": content, **kwargs}))
            return SimpleNamespace(id=len(self.sent))

        return send

    def get_channel(self, cid):
        return SimpleNamespace(id=cid, name="general", guild=SimpleNamespace(name="Guild"), send=self._send("channel", cid))

    async def create_dm(self, user):
        return SimpleNamespace(send=self._send("dm", user.id))

    def dms(self, uid: int) -> list[dict]:
        return [kw for where, who, kw in self.sent if where == "dm" and who == uid]

    def boards(self) -> list[dict]:
        return [kw for where, _who, kw in self.sent if where == "channel" and any(f.filename == "board.png" for f in kw.get("files", []))]


@pytest.fixture
async def env(url):  # noqa: F811
    store = await open_store(url)
    clock = Clock()
    service = MatchService(store)
    fake = FakeDiscord()
    after = wire(Presenter(fake, service), service, clock=clock, with_timers=False).after
    yield SimpleNamespace(store=store, service=service, fake=fake, after=after, clock=clock)
    await store.close()


async def lost_cities(service, ai=False, channel=100):
    m = await service.new_lobby(1, channel, "lost-cities", 11, "Ana", {}, "en")
    m = await (service.add_ai(m.record.id, None, 11, "AI 1") if ai else service.join(m.record.id, None, 22, "Ben"))
    return await service.start(m.record.id, None, 11, seed=4)


async def whole_turn(service, mid, uid):
    m = await service.get(mid)
    seat = m.seat_of(uid)
    await service.move(mid, None, ("user", uid), {"type": "discard", "card": m.view(seat)["hand"][0]})
    return await service.move(mid, None, ("user", uid), {"type": "draw", "from": "deck"})


def http_error(status: int, cls=discord.HTTPException) -> Exception:
    return cls(SimpleNamespace(status=status, reason="x"), {"code": 0, "message": "boom"})


async def test_a_start_and_each_turn_are_told_once_and_the_board_once(env):
    m = await lost_cities(env.service)
    mid = m.record.id
    await env.after.scheduler.run_due()
    assert len(env.fake.dms(11)) == 1 and len(env.fake.boards()) == 1
    await whole_turn(env.service, mid, 11)
    await env.after.scheduler.run_due()
    assert len(env.fake.dms(22)) == 1 and len(env.fake.boards()) == 2
    notes = await env.store.notes(mid)
    assert notes[22]["seen_version"] == (await env.service.get(mid)).record.version  # what Ben was shown
    # planning the same work again (a restart sweep, a retried commit) does nothing twice
    for job in await env.store.jobs(mid):
        await env.store.add_jobs([NewJob(job.kind, job.key, job.lane, job.payload)])
    await env.after.start()
    await env.after.close()
    await env.after.scheduler.run_due()
    assert len(env.fake.dms(22)) == 1 and len(env.fake.boards()) == 2 and len(env.fake.dms(11)) == 1
    # the board's story came from the log: both of Ana's moves, in the channel's language
    story = env.fake.boards()[1]["content"]
    assert story.count("• ") == 2 and "Ana" in story
    assert all(j.status == "done" for j in await env.store.jobs(mid))


async def test_discord_5xx_and_429_on_a_dm_are_retried_with_backoff_and_retry_after(env, caplog):
    m = await lost_cities(env.service)
    env.fake.fail["dm"] = [http_error(503, discord.DiscordServerError), discord.RateLimited(40.0)]
    sched = env.after.scheduler
    await sched.run_due()
    assert env.fake.dms(11) == [] and len(env.fake.boards()) == 1  # the board lane is not held up
    (turn,) = [j for j in await env.store.jobs(m.record.id) if j.kind == "turn"]
    assert turn.status == "pending" and "DiscordServerError" in turn.last_error
    env.clock.advance(1.9)
    assert await sched.run_due() == 0  # backoff: 2 s after the first attempt
    env.clock.advance(0.2)
    await sched.run_due()  # 429 asking for 40 s
    (turn,) = [j for j in await env.store.jobs(m.record.id) if j.kind == "turn"]
    assert turn.status == "pending" and turn.due_at == env.clock() + timedelta(seconds=40)
    env.clock.advance(39)
    assert await sched.run_due() == 0
    env.clock.advance(1)
    await sched.run_due()
    assert len(env.fake.dms(11)) == 1
    (turn,) = [j for j in await env.store.jobs(m.record.id) if j.kind == "turn"]
    assert turn.status == "done" and turn.attempts == 3


async def test_after_n_attempts_a_job_is_failed_where_status_shows_it(env, caplog):
    m = await lost_cities(env.service)
    env.fake.fail = {where: [http_error(500, discord.DiscordServerError)] * 100 for where in ("dm", "channel")}
    sched = env.after.scheduler
    with caplog.at_level(logging.ERROR, logger="bot.core.scheduler"):
        for _ in range(sched.max_attempts + 1):
            await sched.run_due()
            env.clock.advance(sched.max_delay)
    failures = await env.after.failures(m.record.id)
    assert {kind for kind, _p, _e in failures} == {"turn", "board"}
    assert all("DiscordServerError" in e for _k, _p, e in failures)
    lines = [r for r in caplog.records if "failed after" in r.getMessage()]
    assert len(lines) == 2  # one line per job given up


async def test_a_store_error_in_an_ai_step_is_retried_and_the_match_goes_on(env):
    m = await lost_cities(env.service, ai=True)
    mid = m.record.id
    await whole_turn(env.service, mid, 11)
    real, calls = env.store.commit_move, []

    async def locked_once(*args, **kwargs):
        calls.append(1)
        if len(calls) == 1:
            raise sqlite3.OperationalError("database is locked")
        return await real(*args, **kwargs)

    env.store.commit_move = locked_once
    await env.after.scheduler.run_due()
    assert len(await env.store.actions(mid)) == 2  # the AI's move hit the lock
    env.clock.advance(2)
    await env.after.scheduler.run_due()
    assert len(await env.store.actions(mid)) == 4 and (await env.service.get(mid)).to_move() == (0,)
    ai_jobs = [j for j in await env.store.jobs(mid) if j.kind == "ai"]
    assert ai_jobs[0].attempts == 2 and all(j.status == "done" for j in ai_jobs)


async def test_a_match_that_cannot_be_loaded_does_not_stop_the_others(env, caplog):
    broken = await lost_cities(env.service, ai=True, channel=100)
    fine = await lost_cities(env.service, ai=True, channel=200)
    for m in (broken, fine):
        await whole_turn(env.service, m.record.id, 11)
    rec = await env.store.get(broken.record.id)
    await env.store.update(rec.id, rec.version, game="no-such-game")  # e.g. a game no longer shipped
    # a restart: the sweep plans an AI check for every active match, the broken one first; the jobs
    # the moves handed to the process that stopped wait out its leases (on SQLite the start frees them)
    env.clock.advance(env.after.scheduler.lease.total_seconds())
    fresh = MatchService(env.store)
    after = wire(Presenter(env.fake, fresh), fresh, clock=env.clock, with_timers=False).after
    with caplog.at_level(logging.ERROR, logger="bot.core.scheduler"):
        await after.start()
        await after.close()
        await after.scheduler.run_due()
    assert len(await env.store.actions(fine.record.id)) == 4  # its AI played on
    failed = await env.store.jobs(broken.record.id, "failed")
    assert failed and "no-such-game" in failed[0].last_error
    assert sum("failed" in r.getMessage() for r in caplog.records) == len(failed)


async def test_the_story_survives_a_restart(env):
    m = await lost_cities(env.service)
    mid = m.record.id
    await env.after.scheduler.run_due()
    await whole_turn(env.service, mid, 11)  # committed; the process dies before its jobs run
    env.clock.advance(env.after.scheduler.lease.total_seconds())  # the jobs it was handed wait out its leases
    fresh = MatchService(env.store)  # a new process: nothing in memory
    after = wire(Presenter(env.fake, fresh), fresh, clock=env.clock, with_timers=False).after
    await after.start()
    await after.close()
    await after.scheduler.run_due()
    story = env.fake.boards()[-1]["content"]
    actions = await env.store.actions(mid)
    assert [line for line in story.splitlines() if line.startswith("• ")] == [f"• {a.story['en']}" for a in actions]
    assert "Ana" in story and "discard" in story.lower()


async def test_standing_orders_set_mid_turn_leave_everyone_s_buttons_working(env):
    m = await env.service.new_lobby(1, 100, "citadels", 11, "Ana", {}, "en")
    m = await env.service.join(m.record.id, None, 22, "Ben")
    m = await env.service.join(m.record.id, None, 33, "Cy")
    m = await env.service.start(m.record.id, None, 11, seed=3)
    mid, v = m.record.id, m.record.version
    mover = m.to_move()[0]
    others = [s for s in range(3) if s != mover]
    uid = m.record.seats[others[0]]["user_id"]
    await env.service.set_prefs(mid, uid, ["king", "merchant", "architect"])
    assert (await env.service.get(mid)).record.version == v  # nobody's buttons went stale
    legal = m.game.legal_json(m.state, mover)
    result = await env.service.move(mid, v, ("user", m.record.seats[mover]["user_id"]), legal[0])  # a button drawn at v
    assert result.loaded.record.version == v + 1
    assert (await env.store.notes(mid))[uid] == {"prefs": ["king", "merchant", "architect"]}


async def test_two_player_citadels_discard_after_an_automatic_pick_reaches_its_player(env):
    m = await env.service.new_lobby(1, 100, "citadels", 11, "Ana", {}, "en")
    m = await env.service.join(m.record.id, None, 22, "Ben")
    m = await env.service.start(m.record.id, None, 11, seed=5)
    mid = m.record.id
    first = m.to_move()[0]
    second = 1 - first
    a_uid, b_uid = (m.record.seats[s]["user_id"] for s in (first, second))
    every = ["assassin", "thief", "magician", "king", "bishop", "merchant", "architect", "warlord", "queen", "witch",
             "tax_collector", "wizard", "emperor", "abbot", "alchemist", "navigator", "diplomat", "artist", "spy", "patrician"]
    await env.service.set_prefs(mid, b_uid, every)  # the second drafter's orders settle any pick
    await env.after.scheduler.run_due()
    assert len(env.fake.dms(a_uid)) == 1 and env.fake.dms(b_uid) == []
    loaded = await env.service.get(mid)
    pick = loaded.game.legal_json(loaded.state, first)[0]
    await env.service.move(mid, loaded.record.version, ("user", a_uid), pick)
    await env.after.scheduler.run_due()
    now = await env.service.get(mid)
    assert now.to_move() == (second,)  # the automatic pick was made; the discard is the same player's
    picks = [a for a in await env.store.actions(mid) if a.seat == second]
    assert len(picks) == 1 and picks[0].action["type"] == "draft"
    (dm,) = env.fake.dms(b_uid)  # told, with controls to set a character aside
    assert dm["view"] is not None and "Your turn" in dm["content"]
    # the draft is secret: the channel keeps the one post of the draft's start (a quiet channel)
    assert len(env.fake.boards()) == 1


async def test_the_scheduler_runs_each_lane_in_order_and_other_lanes_meanwhile(url):  # noqa: F811
    store = await open_store(url)
    clock = Clock()
    seen: list[str] = []

    async def handler(job):
        seen.append(job.key)
        if job.key == "a1" and seen.count("a1") == 1:
            raise Stale(None) from None  # not transient: failed at once, the lane goes on

    sched = Scheduler(store, {"t": handler}, clock=clock)
    await store.add_jobs([NewJob("t", k, lane) for k, lane in (("a1", "A"), ("a2", "A"), ("b1", "B"))], now=clock())
    await sched.run_due()
    assert seen.index("a1") < seen.index("a2") and "b1" in seen and seen.count("a1") == 1
    assert [j.status for j in await store.jobs()] == ["failed", "done", "done"]
    await store.close()


async def test_a_quiet_channel_no_post_per_secret_draft_pick(env):
    m = await env.service.new_lobby(1, 100, "citadels", 11, "Ana", {}, "en")
    for uid, name in ((22, "Ben"), (33, "Cy")):
        m = await env.service.join(m.record.id, None, uid, name)
    m = await env.service.start(m.record.id, None, 11, seed=3)
    mid = m.record.id
    await env.after.scheduler.run_due()
    assert len(env.fake.boards()) == 1  # the draft begins
    picks = 0
    while (loaded := await env.service.get(mid)).view(None)["phase"] == "draft":
        seat = loaded.to_move()[0]
        await env.service.move(mid, loaded.record.version, ("seat", seat), loaded.game.legal_json(loaded.state, seat)[0])
        picks += 1
        await env.after.scheduler.run_due()
        if (await env.service.get(mid)).view(None)["phase"] == "draft":
            assert len(env.fake.boards()) == 1, "a board was posted for a secret pick"
    assert picks >= 3 and len(env.fake.boards()) == 2  # one post when the draft is over
    story = [line for line in env.fake.boards()[-1]["content"].splitlines() if line.startswith("• ")]
    assert len(story) == picks  # every pick told, in public words (which character stays secret)
    # every person was told of each of their draft turns by DM all the same
    assert sum(len(env.fake.dms(u)) for u in (11, 22, 33)) >= picks


async def test_consecutive_ai_turns_share_one_board_post(env):
    m = await env.service.new_lobby(1, 100, "lost-cities", 11, "Ana", {}, "en")
    m = await env.service.add_ai(m.record.id, None, 11, "AI 1")
    m = await env.service.start(m.record.id, None, 11, seed=4)
    await env.after.scheduler.run_due()
    await whole_turn(env.service, m.record.id, 11)
    await env.after.scheduler.run_due()
    assert len(env.fake.boards()) == 2  # not one after Ana's turn and another after the AI's
    story = [line for line in env.fake.boards()[-1]["content"].splitlines() if line.startswith("• ")]
    assert len(story) == 4 and story[0].startswith("• Ana") and story[-1].startswith("• AI 1")


async def test_dms_speak_each_person_s_language_and_the_channel_the_match_s(env):
    await env.store.set_locale(22, "es")
    m = await lost_cities(env.service)  # the match (channel) language is English
    await env.after.scheduler.run_due()
    await whole_turn(env.service, m.record.id, 11)
    await env.after.scheduler.run_due()
    (ben_dm,) = env.fake.dms(22)
    (ana_dm,) = env.fake.dms(11)
    assert ben_dm["content"].startswith("Te toca") and ana_dm["content"].startswith("Your turn")
    assert "It is **Ben**'s turn." in env.fake.boards()[-1]["content"]  # named; his DM was his ping (issue 20)


async def test_standing_orders_kept_in_the_meta_by_an_older_version_still_work(env):
    m = await env.service.new_lobby(1, 100, "citadels", 11, "Ana", {}, "en")
    m = await env.service.join(m.record.id, None, 22, "Ben")
    m = await env.service.join(m.record.id, None, 33, "Cy")
    m = await env.service.start(m.record.id, None, 11, seed=3)
    seat = m.to_move()[0]
    uid = m.record.seats[seat]["user_id"]
    every = [c["character"] for c in m.game.legal_json(m.state, seat)]
    async def old_meta(loaded):  # as an older version kept them (written through the one commit path)
        return Change(fields={"meta": {**loaded.record.meta, "prefs": {str(uid): every}}})

    await env.service.commit(m.record.id, m.record.version, old_meta)
    await env.store.add_jobs([NewJob("turn", "old-turn", "x", {"version": m.record.version + 1, "seat": seat}, match_id=m.record.id)])
    await env.after.scheduler.run_due()
    (pick,) = await env.store.actions(m.record.id)
    assert pick.seat == seat and pick.action == {"type": "draft", "character": every[0]}
    assert env.fake.dms(uid) == []  # the orders picked: no DM asked for it


async def test_a_long_job_keeps_its_lease_while_it_runs(url):  # noqa: F811
    import asyncio

    store = await open_store(url)
    clock = Clock()
    renewed = asyncio.Event()

    async def slow(job):
        clock.advance(50)  # the job outlives its first lease (30 s) ...
        await asyncio.wait_for(renewed.wait(), 5)

    sched = Scheduler(store, {"t": slow}, clock=clock, lease=timedelta(seconds=0.3))
    real = store.extend_lease

    async def extend(job_id, owner, until):
        ok = await real(job_id, owner, until)
        renewed.set()
        return ok

    store.extend_lease = extend
    await store.add_jobs([NewJob("t", "long", "l")], now=clock())
    await sched.run_due()
    (job,) = await store.jobs()
    assert job.status == "done" and job.attempts == 1  # ... yet nobody else could take it meanwhile
    await store.close()


async def test_jobs_handed_over_together_end_in_one_transaction_and_a_failing_one_holds_none_back(url):  # noqa: F811
    from bot.core.scheduler import Finish
    from bot.store import HandOff

    store = await open_store(url)
    clock = Clock()
    later = clock() + timedelta(hours=1)

    async def quick(job):
        return Finish(jobs=[NewJob("q", f"next-{job.key}", f"n-{job.key}", {}, later)])

    async def broken(job):
        raise ValueError("a bug")

    sched = Scheduler(store, {"q": quick, "bad": broken}, clock=clock, together=("q", "bad"))
    calls = []
    real = store.finish_jobs

    async def counted(owner, now, ends, **kw):
        calls.append([e.job_id for e in ends])
        return await real(owner, now, ends, **kw)

    store.finish_jobs = counted
    await store.add_jobs([NewJob("q", "a", "A"), NewJob("bad", "b", "B"), NewJob("q", "c", "C")], now=clock())
    leased = await store.claim_jobs(sched.owner, clock(), sched.lease, 10)  # as a commit leases them
    sched.take(HandOff(sched.owner, clock(), clock() + sched.lease, jobs=leased))
    assert await sched.run_due() == 3
    by_key = {j.key: j for j in await store.jobs()}
    assert by_key["a"].status == by_key["c"].status == "done" and by_key["b"].status == "failed"
    assert calls == [[by_key["a"].id, by_key["c"].id]]  # the two that ended: one transaction
    assert {"next-a", "next-c"} <= set(by_key)  # what each planned is written with it
    await store.close()


async def test_a_job_queued_behind_its_lane_here_comes_with_that_lane_s_finish_not_a_claim(url):  # noqa: F811
    """What the next AI step of an AI step's own move does: planned in the lane the running step
    holds, it needs no claim; the running step's finish hands it on."""
    import asyncio

    store = await open_store(url)
    clock = Clock()
    release, ran = asyncio.Event(), []

    async def first(job):
        ran.append(job.key)
        await store.add_jobs([NewJob("t", "second", "L")], now=clock())  # queued behind this one
        sched.planned([NewJob("t", "second", "L")])
        await release.wait()

    async def handler(job):
        if job.key == "first":
            return await first(job)
        ran.append(job.key)

    sched = Scheduler(store, {"t": handler}, clock=clock, poll=30)
    claims = []
    real = store.claim_jobs

    async def counted(*args, **kwargs):
        got = await real(*args, **kwargs)
        claims.append([j.key for j in got])
        return got

    store.claim_jobs = counted
    await store.add_jobs([NewJob("t", "first", "L")], now=clock())
    sched.start()
    for _ in range(200):
        if ran:
            break
        await asyncio.sleep(0.01)
    for _ in range(50):  # the start's second look may come after the first job started (a busy machine)
        if len(claims) >= 2:
            break
        await asyncio.sleep(0.01)
    n = len(claims)
    release.set()
    for _ in range(200):
        if ran == ["first", "second"]:
            break
        await asyncio.sleep(0.01)
    await sched.stop()
    assert ran == ["first", "second"]
    # the start claimed the first (and looked once more); the second came with the first's finish
    assert claims[0] == ["first"] and not any(claims[1:]) and claims[n:] == [], claims
    await store.close()
