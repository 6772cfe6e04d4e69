"""The work after a move through real discord.py and the Discord stand-in: Discord answering a DM
with 5xx and 429, and a race inside a slash command."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest

from bot.core.settings import load_settings
from bot.discord.client import Partida
from bot.store import VersionConflict

from .helpers import controls


class Clock:
    """Real time plus whatever the test lets pass."""

    def __init__(self) -> None:
        self.offset = timedelta()

    def __call__(self) -> datetime:
        return datetime.now(UTC) + self.offset


@pytest.fixture
async def bot(standin, tmp_path):
    clock = Clock()
    settings = load_settings(render_processes=0, discord_token=standin.token, database_url=f"sqlite:///{tmp_path}/p.sqlite3")
    client = Partida(settings, clock=clock)
    await standin.run_client(client)
    await standin.wait_commands()
    client.test_clock = clock
    return client


async def start_lost_cities(standin, ana, ben):
    resp = await ana.slash("general", "partida new", game="lost-cities", options="post=new")
    await ben.click(resp.message, label="Join")
    await standin.wait_until(lambda: ben.mention in standin.messages_by_id[resp.message.id].content, 10, "ben joined")
    r = await ana.click(standin.messages_by_id[resp.message.id], label="Start")
    await r.wait(lambda x: "started" in x.content)


async def job_where(bot, pred, timeout=10.0):
    for _ in range(int(timeout / 0.02)):
        found = [j for j in await bot.store.jobs(1) if pred(j)]
        if found:
            return found[0]
        await asyncio.sleep(0.02)
    raise TimeoutError(f"no such job: {await bot.store.jobs(1)}")


def turn_dms(person):
    return [m for m in person.dms() if "Your turn" in m.content]


async def test_a_dm_answered_with_5xx_and_429_is_retried_and_lands_once(standin, bot):
    ana, ben = standin.user("ana"), standin.user("ben")
    path = standin.dm_path(ana)
    standin.fail_next("POST", path, 503)  # discord.py gives up at once on a 503: the job retries
    standin.fail_next("POST", path, 429, retry_after=45.0)  # longer than the bot sleeps inside a request
    await start_lost_cities(standin, ana, ben)
    sched = bot.after.scheduler
    await standin.wait_until(lambda: [s for m, p, s in standin.requests if p == path.strip("^$")] == [503], 10, "the 503")
    bot.test_clock.offset += timedelta(seconds=3)  # past the 2 s backoff
    sched.wake()
    await standin.wait_until(lambda: [s for m, p, s in standin.requests if p == path.strip("^$")] == [503, 429], 10, "the 429")
    assert turn_dms(ana) == []
    turn = await job_where(bot, lambda j: j.kind == "turn" and (j.last_error or "").startswith("RateLimited"))
    assert turn.status == "pending" and turn.attempts == 2
    bot.test_clock.offset += timedelta(seconds=30)
    sched.wake()
    await asyncio.sleep(0.2)
    assert turn_dms(ana) == []  # not before retry_after
    bot.test_clock.offset += timedelta(seconds=16)  # retry_after has passed
    sched.wake()
    await standin.wait_until(lambda: turn_dms(ana), 10, "ana's turn DM")
    assert len(turn_dms(ana)) == 1 and controls(turn_dms(ana)[0])[1]
    statuses = [s for m, p, s in standin.requests if p == path.strip("^$")]
    assert statuses == [503, 429, 200]
    # the board was never held up by the DM's troubles
    assert len([m for m in standin.messages_in("general") if "board.png" in m.files]) == 1


async def test_a_stale_race_inside_partida_play_is_answered(standin, bot):
    ana, ben = standin.user("ana"), standin.user("ben")
    await start_lost_cities(standin, ana, ben)
    store = bot.store
    real = store.commit_move

    async def someone_else_first(match_id, expected_version, *args, **kwargs):
        store.commit_move = real  # once: as if a standing order had committed a move a moment before
        raise VersionConflict(expected_version + 1, expected_version)

    store.commit_move = someone_else_first
    rec = await store.get(1)
    hand = bot.service.load(rec).view(0)["hand"]
    r = await ana.slash("general", "partida play", move=f"x.{hand[0]}")
    await r.wait_done()
    assert "out of date" in r.text() and r.ephemeral
    await asyncio.sleep(0.2)
    assert len(r.messages) == 1  # answered once (the cog's handler, not again by the tree's)
    assert await store.actions(1) == []


async def test_a_dm_that_never_gets_through_is_given_up_and_status_says_so(standin, bot):
    ana, ben = standin.user("ana"), standin.user("ben", locale="es-ES")
    standin.fail_next("POST", standin.dm_path(ana), 503, times=100)
    await start_lost_cities(standin, ana, ben)
    sched = bot.after.scheduler
    for attempt in range(1, sched.max_attempts + 1):
        await job_where(bot, lambda j, a=attempt: j.kind == "turn" and j.attempts >= a and j.claimed_by is None or j.status == "failed")
        bot.test_clock.offset += timedelta(seconds=sched.max_delay)
        sched.wake()
    turn = await job_where(bot, lambda j: j.kind == "turn" and j.status == "failed")
    assert turn.attempts == sched.max_attempts and "503" in turn.last_error
    r = await ben.slash("general", "partida status")
    await r.wait_done()
    assert "No he podido avisar a ana" in r.text() and "503" in r.text()
    # the match itself goes on: ana can still play from the board's button
    r = await ana.slash("general", "partida hand")
    await r.wait_done()
    assert controls(r.messages[-1])[1]
