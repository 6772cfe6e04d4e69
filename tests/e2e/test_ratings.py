"""Issue 21: a finished match is rated once, even when the bot process is SIGKILLed after rating it
and before its ``rate`` job was marked done (the job runs again after the restart and rates
nothing twice); ``/partida stats`` and ``/partida leaderboard`` then read the stored ratings."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import sys

from bot.core import jobs as declared
from bot.core.ratings import person_key
from bot.core.service import MatchService
from bot.store import open_store
from engines.lost_cities.ai import HeuristicPlayer


async def _play_to_the_end(db: str, guild: int, channel: int, people: tuple[int, int]) -> int:
    """A one-round match played in the store, as the bot would have; its jobs are left to the bot."""
    store = await open_store(f"sqlite:///{db}")
    try:
        svc = MatchService(store)
        m = await svc.new_lobby(guild, channel, "lost-cities", people[0], "ana", {"rounds": 1}, "en")
        m = await svc.join(m.record.id, None, people[1], "ben")
        m = await svc.start(m.record.id, m.record.version, people[0], seed=8)
        mid, me, rng = m.record.id, HeuristicPlayer(), random.Random(8)
        while (m := await svc.get(mid)).record.status == "active":
            seat = m.to_move()[0]
            await svc.move(mid, m.record.version, ("user", people[seat]), m.game.encode(me.choose(m.game, m.state, seat, rng)))
        return mid
    finally:
        await store.close()


async def _read(db: str, mid: int):
    store = await open_store(f"sqlite:///{db}")
    try:
        (job,) = [j for j in await store.jobs(mid) if j.kind == declared.RATE]
        return job, await store.rated(mid), await store.scope_totals(0)
    finally:
        await store.close()


async def test_a_match_is_rated_once_though_the_bot_dies_after_rating_it(standin, bot_process, tmp_path):
    ana, ben = standin.user("ana"), standin.user("ben")
    db = str(tmp_path / "ratings.sqlite3")
    mid = await _play_to_the_end(db, standin.guild_id, standin.channel_id("general"), (ana.id, ben.id))
    env = {
        **os.environ, "DISCORD_TOKEN": standin.token, "DATABASE_URL": f"sqlite:///{db}", "LOG_LEVEL": "WARNING",
        "RENDER_PROCESSES": "0", "PARTIDA_CRASH_AT": "rate",
    }
    proc = bot_process([sys.executable, "-m", "bot"], env=env, cwd=os.getcwd())
    with contextlib.suppress(RuntimeError):  # it may die at the crash point before it connected
        await proc.start()
    await standin.wait_until(lambda: not proc.running, 20, "the bot to die after rating the match")
    await proc.kill()
    job, rated, totals = await _read(db, mid)
    assert rated and job.status == "pending" and totals == {"lost-cities": 1}  # rated; the job not done
    proc.env.pop("PARTIDA_CRASH_AT")
    await proc.start()
    for _ in range(200):
        job, rated, totals = await _read(db, mid)
        if job.status == "done":
            break
        await asyncio.sleep(0.05)
    assert job.status == "done" and job.attempts >= 2, (job, proc.log()[-2000:])
    assert totals == {"lost-cities": 1}  # the second run rated nothing
    store = await open_store(f"sqlite:///{db}")
    try:
        for uid in (ana.id, ben.id):
            rows = await store.player_ratings(person_key(uid))
            assert sorted(r.scope for r in rows) == [0, standin.guild_id] and all(r.matches == 1 for r in rows)
    finally:
        await store.close()
    r = await ana.slash("general", "partida stats")
    await r.wait_done()
    assert "Lost Cities: 1 match\n" in r.text() + "\n" and f"<@{ana.id}>: 1 played" in r.text()
    r = await ben.slash("general", "partida leaderboard")
    await r.wait_done()
    assert not r.ephemeral and r.text().count("1 match,") == 2 and "2. " in r.text()
