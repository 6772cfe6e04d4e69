"""Two bot processes over one PostgreSQL database: the guild lives on shard 1 (process B), the DMs
arrive on shard 0 (process A). A Citadels draft is played by DM and a Lost Cities match across
both processes (lobbies and one turn in the guild, the other turns by DM). Mid-match B is
SIGKILLed while it holds the leases of the jobs its last move planned (the ``job`` crash point:
claimed, nothing done yet); A takes them over once the lease (2 s here) ran out, and the match goes
on. Checked: the logs are whole (no gap, nothing twice, the snapshot is the log replayed), each
board version is posted once, each turn told once, every job done exactly once, no job failed,
and every interaction reached the shard Discord routes it to.
"""

from __future__ import annotations

import asyncio
import os
import random
import socket
import sys
import uuid

import pytest

from bot.core.health import check as health_check
from bot.store import open_store
from engines import registry
from engines.match import Match
from tests.standin import BotProcess, StandIn, patch_discord
from tests.store.conftest import PG_URL, drop_schema, require_pg

from .helpers import controls, is_board, take_turn, turn_button, wait_change

LEASE = 2.0


@pytest.fixture
async def sharded():
    server = StandIn(shard_count=2, guild_shard=1)
    await server.start()
    with patch_discord(server.api_url, server.gateway_url):
        try:
            yield server
        finally:
            await server.stop()
    assert server.violations == [], "the bot sent requests Discord would reject:\n" + server.format_violations()


@pytest.fixture
async def pg_url():
    await require_pg()
    schema = f"partida_e2e_{os.getpid()}_{uuid.uuid4().hex[:10]}"
    try:
        yield f"{PG_URL}{'&' if '?' in PG_URL else '?'}schema={schema}"
    finally:
        await drop_schema(schema)


def process(standin, url: str, shard: int, health: str = "", **extra: str) -> BotProcess:
    env = {
        **{k: v for k, v in os.environ.items() if k != "PARTIDA_CRASH_AT"}, "DISCORD_TOKEN": standin.token, "DATABASE_URL": url, "LOG_LEVEL": "WARNING",
        "RENDER_PROCESSES": "0", "SHARD_COUNT": "2", "SHARD_IDS": str(shard), "BOT_PROCESSES": "2",
        "JOB_LEASE_SECONDS": str(LEASE), "JOB_POLL_SECONDS": "1", "HEALTH_FILE": health, **extra,
    }
    return BotProcess(standin, [sys.executable, "-m", "bot"], env=env, cwd=os.getcwd(), shards=[shard])


def await_later(jobs: list) -> list:
    """A turn's timers (reminders, deadline), planned hours ahead and not yet due."""
    from datetime import UTC, datetime

    now = datetime.now(UTC)
    return [j for j in jobs if j.status == "pending" and not j.claimed_by and j.due_at > now]


async def due(store) -> list:
    """Pending jobs due by now (a turn's timers, due hours ahead, stay planned: not work left)."""
    from datetime import UTC, datetime

    now = datetime.now(UTC)
    return [j for j in await store.jobs(status="pending") if j.due_at <= now or j.claimed_by]


async def settled(store, timeout: float = 20.0) -> None:
    """Wait until no job due now is pending (every process is idle)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while await due(store):
        if loop.time() > end:
            raise TimeoutError(f"jobs still pending: {await due(store)}")
        await asyncio.sleep(0.1)


async def check_log_is_whole(store, match_id: int) -> int:
    rec = await store.get(match_id)
    actions = await store.actions(match_id)
    assert [a.idx for a in actions] == list(range(len(actions)))  # no gap, nothing twice
    log = {
        "format": 1, "game": rec.game, "seats": [s["name"] for s in rec.seats], "options": rec.options,
        "seed": rec.seed, "setup": rec.setup, "actions": [{"seat": a.seat, "action": a.action} for a in actions],
    }
    game = registry.get(rec.game)
    assert game.dump(Match.from_log(log).state) == game.dump(game.resume(rec.state, rec.tail))
    return len(actions)


def versions_of(messages, prefixes: tuple[str, ...]) -> list[str]:
    """The match:version each message's controls were drawn for (``p:t:`` a board's button,
    ``p:s:``/``p:d:`` a turn's controls): one per message that has any."""
    out = []
    for m in messages:
        ids = [c for c in m.custom_ids() if c.startswith(prefixes)]
        if ids:
            out.append(":".join(ids[0].split(":")[2:4]))
    return out


async def test_two_processes_one_killed_mid_match_nothing_lost_or_doubled(sharded, pg_url, tmp_path):
    standin = sharded
    a = process(standin, pg_url, 0, health=str(tmp_path / "a.alive"))
    b = process(standin, pg_url, 1)
    store = await open_store(pg_url)
    try:
        await a.start(30)
        await b.start(30)
        await standin.wait_commands(20)  # A (shard 0) synced them; B did not
        assert standin.command_syncs == 1
        rng = random.Random(3)

        # -- a Citadels draft by DM: the lobby in the guild (B), the picks in DMs (A) --------------
        cit = [standin.user(n) for n in ("ana", "ben", "cara", "dan")]
        standin.create_channel("citadels")
        r = await cit[0].slash("citadels", "partida new", game="citadels", options="post=new")
        lobby = r.message
        for p in cit[1:]:
            await p.click(standin.messages_by_id[lobby.id], label="Join")
            await standin.wait_until(lambda p=p: p.mention in standin.messages_by_id[lobby.id].content, 10, "a guest")
        r = await cit[0].click(standin.messages_by_id[lobby.id], label="Start")
        await r.wait(lambda x: "started" in x.content, 10)
        cit_id = (await store.active_in_channel(standin.channel_id("citadels"))).id
        picked: set = set()

        def draft_dm():
            for p in cit:
                for m in p.dms():
                    pick = next((c for c in m.custom_ids() if c.startswith("p:d:") and c.split(":", 4)[4].startswith(("dr-", "dc-"))), None)
                    if pick and m.id not in picked:
                        return p, m, pick
            return None

        async def drafted() -> int:
            return sum(1 for x in await store.actions(cit_id) if x.action.get("type") == "draft")

        while await drafted() < 4:  # everybody picks a character from the buttons of a DM
            p, m, pick = await standin.wait_until(draft_dm, 15, "a draft DM")
            picked.add(m.id)
            r = await p.click(m, pick)
            assert r.record.shard == 0  # a DM: shard 0, process A
            await standin.wait_until(lambda m=m: standin.messages_by_id[m.id].edits > 0, 10, "the pick to be answered")
        await settled(store)

        # -- Lost Cities: lobby in the guild (B), turns by DM (A) -----------------------------------
        eve, fay = standin.user("eve"), standin.user("fay")
        people = {eve.id: eve, fay.id: fay}
        lc = standin.create_channel("lost-cities")
        r = await eve.slash(lc, "partida new", game="lost-cities", options="rounds=1 post=new")
        assert r.record.shard == 1  # the guild: shard 1, process B
        lobby = r.message
        await fay.click(lobby, label="Join")
        await standin.wait_until(lambda: fay.mention in standin.messages_by_id[lobby.id].content, 10, "fay")
        r = await eve.click(standin.messages_by_id[lobby.id], label="Start")
        await r.wait(lambda x: "started" in x.content, 10)
        lc_id = (await store.active_in_channel(lc)).id
        handled: set = set()

        async def mover():
            rec = await store.get(lc_id)
            state = registry.get(rec.game).resume(rec.state, rec.tail)
            return people[rec.seats[registry.get(rec.game).to_move(state)[0]]["user_id"]], rec.version

        async def dm_turn():
            person, version = await mover()
            msg = await standin.wait_until(
                lambda: next((m for m in person.dms() if any(c.startswith(f"p:d:{lc_id}:{version}:") for c in m.custom_ids()) and m.id not in handled), None),
                15, f"{person.name}'s turn DM")
            handled.add(msg.id)
            await take_turn(standin, person, msg, rng)

        turns = 0
        for _ in range(2):
            await dm_turn()
            turns += 1
        await settled(store)

        # -- B is restarted to die at its next job: it serves one turn in the guild ---------------
        await b.kill()
        b.log_path.unlink(missing_ok=True)
        b = process(standin, pg_url, 1, PARTIDA_CRASH_AT="job:1")
        await b.start(30)
        host = socket.gethostname()
        for _attempt in range(3):  # A polls too: should it win the race for the jobs, B plays again
            person, version = await mover()
            board = next(m for m in reversed(standin.messages_in(lc)) if is_board(m))
            r = await person.click(board, turn_button(board))
            assert r.record.shard == 1
            await r.wait_done(10)
            msg = r.messages[-1]
            before = msg.content  # one button per card: discard one
            await person.click(msg, next(b_["custom_id"] for b_ in controls(msg)[1] if ":x." in b_["custom_id"]))
            msg = await wait_change(standin, msg, before)
            draw = next(b_["custom_id"] for b_ in controls(msg)[1] if b_["custom_id"].endswith(":d.deck"))
            await person.click(msg, draw, wait=False)  # the draw ends the turn: B commits, claims its jobs, dies
            turns += 1
            try:
                await asyncio.wait_for(b.proc.wait(), 5)
                break
            except TimeoutError:
                await settled(store)
        assert b.proc.returncode == -9, "B was not killed at its job"
        await standin.wait_disconnected(5, shards=[1])
        held = [j for j in await store.jobs(lc_id, "pending") if (j.claimed_by or "").startswith(f"{host}:{b.proc.pid}:")]
        assert held, "B died holding no lease"
        # A takes them over once the lease ran out: the board is posted, the next player told
        await settled(store, timeout=LEASE + 15)
        for j in held:
            (done,) = [x for x in await store.jobs(lc_id) if x.id == j.id]
            assert done.status == "done" and done.attempts == 2 and not done.claimed_by.startswith(f"{host}:{b.proc.pid}:")

        # -- the match goes on, by DM, with A alone -----------------------------------------------
        for _ in range(2):
            await dm_turn()
            turns += 1
        await settled(store)

        # -- nothing lost, nothing twice ------------------------------------------------------------
        lc_actions = await check_log_is_whole(store, lc_id)
        assert lc_actions == 2 * turns  # every whole turn: play or discard, then draw
        await check_log_is_whole(store, cit_id)
        for channel in (lc, standin.channel_id("citadels")):
            boards = versions_of([m for m in standin.messages_in(channel) if is_board(m)], ("p:t:",))
            assert boards and len(boards) == len(set(boards)), boards  # each board once
        for p in (eve, fay, *cit):
            told = versions_of(p.dms(), ("p:s:", "p:d:"))  # one DM per turn told
            assert len(told) == len(set(told)), (p.name, told)
            assert told or p not in (eve, fay)
        jobs = await store.jobs()
        assert not [j for j in jobs if j.status != "done" and j not in await_later(jobs)]
        # only the jobs B died holding ran a second time
        assert sorted(j.id for j in jobs if j.attempts > 1) == sorted(j.id for j in held)
        # A says it is alive (connected, the database answers): what compose's health check runs
        await standin.wait_until(lambda: (tmp_path / "a.alive").exists(), 20, "A's health file")
        assert health_check(str(tmp_path / "a.alive"), 60)[0]
        # Discord's routing: guild interactions on shard 1, DM ones on shard 0
        for rec in standin.interactions.values():
            assert rec.shard == (1 if rec.guild_id else 0)
    finally:
        await store.close()
        for proc in (a, b):
            if proc.running:
                await proc.kill()
            proc.log_path.unlink(missing_ok=True)
