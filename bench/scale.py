"""Scale-out load test: N concurrent Lost Cities matches served by P bot processes (one shard each)
over one PostgreSQL database, simulated people clicking at random intervals, one process SIGKILLed
and restarted mid-run. Not a test: it prints figures (see docs/benchmarks.md).

    python bench/scale.py [--matches 2000] [--processes 4] [--duration 180] [--think 240]

What it does:
- a fresh database ``partida_scale`` on the local PostgreSQL (127.0.0.1:5432, trust auth), so
  ``pg_stat_database`` counts only this run's transactions;
- the Discord stand-in (this process) with P shards; N matches started directly in the store
  (2 players each, DMs closed, as people who play from the channel), each with a message holding
  its move buttons;
- P bot processes (``python -m bot``, ``SHARD_COUNT=P``, ``SHARD_IDS=i``, ``BOT_PROCESSES=P``,
  Discord's global limit of 50 requests/s shared), pinned with ``taskset`` to the last core; this
  process (stand-in and people) is pinned to core 0. PostgreSQL is a shared system service and is
  not pinned;
- the stand-in has one guild, so each match's clicks are delivered to shard (match % P), as
  Discord would for N guilds spread over P shards;
- each match's player to move waits a random think time (exponential, mean ``--think`` s; a
  second, shorter one between playing a card and drawing), picks a random legal move on their own
  copy of the match and clicks its button; a click the bot confirms is applied to the copy; a refused
  or unanswered click (the process was down) makes the person look again (their copy is re-read);
- at 40% of the run process 1 is SIGKILLed, restarted 5 s later.

Printed: moves/s; click -> initial response p50/p99 (stand-in's clock); lost moves (a move the bot
confirmed that is not in the log: must be 0); duplicated moves (log entries beyond one per version,
or a log that does not replay to the stored state: must be 0); jobs run twice (a board posted twice
for one match version: must be 0); jobs taken over after the kill; memory per process (RSS) and per
active match; PostgreSQL transactions per move (``xact_commit`` delta / moves); the peak rate of
rate-limited requests the stand-in saw (Discord's global limit: 50/s).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import os
import random
import shutil
import signal
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

PG_ADMIN = os.environ.get("PARTIDA_BENCH_PG", "postgresql://postgres@127.0.0.1:5432/test")
DB = "partida_scale"


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def rss_kb(pid: int) -> tuple[int, int]:
    """(VmRSS, VmHWM) in kB."""
    out = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(("VmRSS", "VmHWM")):
                out[line.split(":")[0]] = int(line.split()[1])
    return out.get("VmRSS", 0), out.get("VmHWM", 0)


async def xact_commits(conn) -> int:
    return await conn.fetchval("SELECT xact_commit FROM pg_stat_database WHERE datname = $1", DB)


async def main(args: argparse.Namespace) -> None:
    import asyncpg

    from bot.games import ui_for
    from bot.store import open_store
    from engines import registry
    from tests.standin import StandIn

    logging.disable(logging.WARNING)
    cores = sorted(os.sched_getaffinity(0))
    bot_cores = str(cores[-1]) if len(cores) > 1 else str(cores[0])
    if len(cores) > 1:
        os.sched_setaffinity(0, {cores[0]})
    taskset = shutil.which("taskset")

    admin = await asyncpg.connect(PG_ADMIN)
    await admin.execute(f"DROP DATABASE IF EXISTS {DB} WITH (FORCE)")
    await admin.execute(f"CREATE DATABASE {DB}")
    url = PG_ADMIN.rsplit("/", 1)[0] + "/" + DB
    store = await open_store(url)

    P, N = args.processes, args.matches
    standin = StandIn(shard_count=P, spec_check=args.spec)
    standin.initial_response_limit = 60  # measure rather than fail under load
    await standin.start()
    stamps: list[tuple[float, str]] = []  # (time, path) of every request that counts against the global limit
    handle = standin._handle

    nonces: dict[tuple[str, str], int] = {}  # (path, nonce) -> sends: Discord returns the first message again
    nonce_of: dict[int, str] = {}  # message id -> the nonce it was sent with

    async def counted(request, method, path, body, *rest, **kw):
        if not path.startswith(("/interactions/", "/webhooks/")):
            stamps.append((time.monotonic(), path))
        response = await handle(request, method, path, body, *rest, **kw)
        if method == "POST" and isinstance(body, dict) and body.get("nonce") and body.get("enforce_nonce"):
            key = (path, str(body["nonce"]))
            nonces[key] = nonces.get(key, 0) + 1
            with contextlib.suppress(Exception):
                nonce_of[int(json.loads(response.body)["id"])] = str(body["nonce"])
        return response

    standin._handle = counted

    # a click waits on a future resolved by the stand-in's edit of the clicked message (success) or
    # a follow-up to the interaction (a refusal): no polling, whatever the number of matches
    waiting: dict[int, asyncio.Future] = {}
    apply_edit, new_message = standin._apply_edit, standin._new_message

    def edited(msg, *a, **kw):
        apply_edit(msg, *a, **kw)
        fut = waiting.pop(msg.id, None)
        if fut is not None and not fut.done():
            fut.set_result("ok")

    def created(channel_id, body, files, *, interaction=None, **kw):
        msg = new_message(channel_id, body, files, interaction=interaction, **kw)
        if interaction is not None and interaction.source_message_id in waiting:
            fut = waiting.pop(interaction.source_message_id)
            if not fut.done():
                fut.set_result("refused")
        return msg

    standin._apply_edit, standin._new_message = edited, created

    # -- N started matches, straight into the store -------------------------------------------------
    game, ui = registry.get("lost-cities"), ui_for("lost-cities")
    opts = game.parse_options({})
    t_setup = time.perf_counter()
    matches: list[dict] = []
    sem = asyncio.Semaphore(16)

    async def make(i: int) -> None:
        ch = standin.create_channel(f"table-{i}")
        a, b = standin.user(f"a{i}", dms_open=False), standin.user(f"b{i}", dms_open=False)
        seats = [{"user_id": a.id, "ai": None, "name": a.name}, {"user_id": b.id, "ai": None, "name": b.name}]
        state = game.new_state(2, opts, 1000 + i, None)
        async with sem:
            rec = await store.create_match(standin.guild_id, ch, "lost-cities", a.id, seats, opts.model_dump(mode="json"), "en")
            rec = await store.update(rec.id, rec.version, status="active", seed=1000 + i, state=game.dump(state))
            for p in (a, b):  # they play from the channel: nobody tries to DM them
                await store.set_note(rec.id, p.id, {"dm_closed": True})
        hand = standin._new_message(ch, {"content": "your turn"}, [])
        matches.append({"i": i, "id": rec.id, "ch": ch, "people": [a, b], "hand": hand, "v0": rec.version,
                        "ver": rec.version, "state": state, "confirmed": [], "shard": i % P})

    await asyncio.gather(*(make(i) for i in range(N)))
    matches.sort(key=lambda m: m["i"])
    setup_s = time.perf_counter() - t_setup

    # -- P bot processes, one shard each ----------------------------------------------------------
    tmp = Path(tempfile.mkdtemp())
    env = {
        **{k: v for k, v in os.environ.items() if k != "PARTIDA_CRASH_AT"}, **standin.env(),
        "DISCORD_TOKEN": standin.token, "DATABASE_URL": url, "LOG_LEVEL": "WARNING", "RENDER_PROCESSES": str(args.render_processes),
        "SHARD_COUNT": str(P), "BOT_PROCESSES": str(P), "GLOBAL_RATE_LIMIT": str(args.rate_limit),
        "JOB_LEASE_SECONDS": str(args.lease), "JOB_POLL_SECONDS": "2",
    }
    procs: dict[int, asyncio.subprocess.Process] = {}
    logs: dict[int, Path] = {}

    async def start(shard: int) -> None:
        logs[shard] = tmp / f"bot-{shard}.log"
        argv = [sys.executable, "-m", "bot"]
        if taskset:
            argv = [taskset, "-c", bot_cores, *argv]
        with open(logs[shard], "ab") as out:
            procs[shard] = await asyncio.create_subprocess_exec(
                *argv, env={**env, "SHARD_IDS": str(shard)}, stdout=out, stderr=asyncio.subprocess.STDOUT)
        await standin.wait_until(lambda: shard in standin._live or procs[shard].returncode is not None, 120, f"shard {shard}")
        if procs[shard].returncode is not None:
            raise RuntimeError(f"bot {shard} exited:\n{logs[shard].read_text()[-3000:]}")

    for shard in range(P):
        await start(shard)
    await asyncio.sleep(2)
    base_rss = {s: rss_kb(p.pid)[0] for s, p in procs.items()}
    x0 = await xact_commits(admin)
    load0 = os.getloadavg()[0]

    # -- people click ------------------------------------------------------------------------------
    counts = {"ok": 0, "refused": 0, "unanswered": 0, "undelivered": 0}
    latencies: list[float] = []
    t0 = time.monotonic()
    deadline = t0 + args.duration

    def row(cid: str) -> list[dict]:
        return [{"type": 1, "components": [{"type": 2, "style": 2, "label": "move", "custom_id": cid}]}]

    resyncs = 0  # this script's own reads while clicking (subtracted from the bot's transactions)

    async def resync(m: dict) -> None:
        nonlocal resyncs
        resyncs += 1
        rec = await store.get(m["id"])
        m["ver"], m["state"] = rec.version, game.resume(rec.state, rec.tail)

    async def click(m: dict, person, action: dict) -> str:
        cid = f"p:d:{m['id']}:{m['ver']}:{ui.token(action)}"
        hand = m["hand"]
        rec = standin.new_interaction(person, 3, {"custom_id": cid, "component_type": 2}, m["ch"], message=hand)
        rec.payload["message"] = {**hand.raw, "components": row(cid)}
        fut = waiting[hand.id] = asyncio.get_running_loop().create_future()
        try:
            await standin.send_interaction(rec, shard=m["shard"], timeout=1.0)
        except TimeoutError:
            waiting.pop(hand.id, None)
            return "undelivered"  # that shard's process is down: the person tries again later
        try:
            result = await asyncio.wait_for(fut, 30)  # then the person gives up and looks at the board again
        except TimeoutError:
            waiting.pop(hand.id, None)
            result = "unanswered"
        if rec.initial_at is not None:
            latencies.append((rec.initial_at - rec.created_at) * 1000)
        return result

    async def pause(seconds: float) -> None:
        await asyncio.sleep(max(0.0, min(seconds, deadline - time.monotonic())))

    async def person_loop(m: dict) -> None:
        rng = random.Random(m["i"])
        await pause(rng.uniform(0, args.think))
        while time.monotonic() < deadline:
            state = m["state"]
            seat = game.to_move(state)[0]
            legal = game.legal_json(state, seat)
            plays = [a for a in legal if a.get("type") == "play"]
            action = rng.choice(plays if plays and rng.random() < 0.6 else legal)
            result = await click(m, m["people"][seat], action)
            counts[result] += 1
            if result != "ok" and os.environ.get("SCALE_DEBUG"):
                print(f"{time.monotonic() - t0:6.1f} s shard {m['shard']} {result}", file=sys.stderr)
            if result == "ok":
                m["confirmed"].append((m["ver"], seat, action))
                game.step(state, seat, game.code_of(action))
                m["ver"] += 1
                if game.is_over(state):
                    return
                nxt = game.to_move(state)[0]
                await pause(rng.expovariate(1 / (args.think if nxt != seat else args.think / 10)))
            else:
                await pause(rng.uniform(1, 3))  # look again at the board
                await resync(m)

    async def killer() -> None:
        await asyncio.sleep(args.duration * 0.4)
        victim = 1 % P
        procs[victim].send_signal(signal.SIGKILL)
        await procs[victim].wait()
        killed_at = time.monotonic() - t0
        await asyncio.sleep(5)
        t = time.monotonic()
        await start(victim)
        if os.environ.get("SCALE_DEBUG"):
            print(f"logs in {tmp}", file=sys.stderr)
        print(f"process {victim} SIGKILLed at {killed_at:.0f} s, restarted after 5 s, connected in {time.monotonic() - t:.1f} s")

    await asyncio.gather(killer(), *(person_loop(m) for m in matches))
    wall = args.duration  # clicks still in flight at the deadline were answered within it
    load1 = os.getloadavg()[0]
    moves = counts["ok"]

    # -- settle: every job done --------------------------------------------------------------------
    # (a reminder or deadline due later is not work left: only jobs due by now count)
    settle_t = time.monotonic()
    looks = 0  # this script's own reads of the jobs: not the bot's transactions (subtracted below)

    async def due_now() -> list:
        nonlocal looks
        looks += 1
        now = datetime.now(UTC)
        return [j for j in await store.jobs(status="pending") if j.due_at <= now]

    while await due_now() and time.monotonic() - settle_t < 180:
        await asyncio.sleep(1)
    pending = len(await due_now())
    settle_s = time.monotonic() - settle_t
    end_rss = {s: rss_kb(p.pid) for s, p in procs.items()}
    await asyncio.sleep(1.5)  # PostgreSQL's statistics are flushed about once a second
    x1 = await xact_commits(admin)

    # -- what was confirmed vs what the log says ---------------------------------------------------
    lost = dup = 0
    touched = 0
    for m in matches:
        if not m["confirmed"]:
            continue
        touched += 1
        rec = await store.get(m["id"])
        log = await store.actions(m["id"])
        by_idx = {a.idx: a for a in log}
        for ver, seat, action in m["confirmed"]:
            a = by_idx.get(ver - m["v0"])
            if a is None or a.seat != seat or a.action != game.encode(game.code_of(action)):
                lost += 1
        if len(log) != rec.version - m["v0"] or [a.idx for a in log] != list(range(len(log))):
            dup += abs(len(log) - (rec.version - m["v0"])) or 1
        replay = game.new_state(2, opts, rec.seed, None)
        for a in log:
            game.step(replay, a.seat, game.decode(a.action))
        if game.dump(replay) != game.dump(game.resume(rec.state, rec.tail)):
            dup += 1
    boards_twice = resent = boards = 0
    for m in matches:
        seen: dict[str, str | None] = {}
        for msg in standin.messages_in(m["ch"]):
            if "board.png" in msg.files:
                boards += 1
                key = next((c for c in msg.custom_ids() if c.startswith("p:t:")), msg.content)
                if key in seen:
                    same = seen[key] is not None and seen[key] == nonce_of.get(msg.id)
                    resent += same  # the same nonce again: Discord returns the first message
                    boards_twice += not same
                seen[key] = nonce_of.get(msg.id)
    jobs = await store.jobs()
    taken_over = sum(1 for j in jobs if j.attempts > 1)
    failed = sum(1 for j in jobs if j.status == "failed")
    peak = 0
    if stamps:
        times = [t for t, _ in stamps]
        j = 0
        for i, t in enumerate(times):
            while times[j] < t - 1.0:
                j += 1
            peak = max(peak, i - j + 1)

    for p in procs.values():
        if p.returncode is None:
            p.terminate()
    for p in procs.values():
        await p.wait()
    await standin.stop()
    await store.close()
    await admin.close()

    print(f"{N} concurrent Lost Cities matches, {P} bot processes (shards), one PostgreSQL; think time {args.think} s "
          f"(mean), {args.duration} s of clicking; setup {setup_s:.0f} s")
    print(f"bot processes pinned to core {bot_cores}, stand-in + people to core {cores[0]} (taskset); PostgreSQL unpinned; "
          f"machine load average {load0:.1f} at the start of the clicking, {load1:.1f} at its end ({os.cpu_count()} cores)")
    print(f"clicks: {counts}; {touched} matches moved")
    print(f"moves/s                                  {moves / wall:8.1f}   ({moves} moves in {wall:.0f} s)")
    print(f"click -> initial response p50 / p99 (ms) {statistics.median(latencies):8.1f} / {pct(latencies, 99):.1f}")
    print(f"lost moves                               {lost:8d}")
    print(f"duplicated moves                         {dup:8d}")
    print(f"jobs run twice (a board posted twice)    {boards_twice:8d}   ({boards} boards posted; {resent} re-sent with the "
          "same nonce after the kill, which Discord answers with the first message)")
    print(f"jobs taken over after the kill           {taken_over:8d}   (attempts > 1; failed jobs: {failed}; "
          f"still pending: {pending}, settled in {settle_s:.0f} s)")
    own = looks + resyncs  # this script's reads (the settle loop's looks, the people's re-reads)
    print(f"PostgreSQL transactions per move         {(x1 - x0 - own) / max(1, moves):8.1f}   ({x1 - x0} xact_commit,"
          f" of which {own} this script's own reads, not counted)")
    per_proc = [rss for rss, _ in end_rss.values()]
    print(f"memory per process, RSS (MB)             {statistics.mean(per_proc) / 1024:8.1f}   "
          f"(peak {max(h for _, h in end_rss.values()) / 1024:.0f} MB; idle after start {statistics.mean(base_rss.values()) / 1024:.0f} MB)")
    grown = sum(per_proc) - sum(base_rss.values())
    print(f"memory per active match (kB)             {grown / max(1, touched):8.1f}   (RSS growth over the run / matches moved)")
    print(f"peak rate-limited requests/s at Discord  {peak:8d}   (global limit {args.rate_limit:.0f}/s; "
          f"{len(stamps)} such requests)")


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--matches", type=int, default=2000)
    ap.add_argument("--processes", type=int, default=4)
    ap.add_argument("--duration", type=float, default=180.0, help="seconds of clicking")
    ap.add_argument("--think", type=float, default=240.0, help="mean seconds a person waits before a turn")
    ap.add_argument("--lease", type=float, default=10.0, help="JOB_LEASE_SECONDS of the bot processes")
    ap.add_argument("--rate-limit", type=float, default=50.0, help="GLOBAL_RATE_LIMIT shared by the processes")
    ap.add_argument("--render-processes", type=int, default=1, help="RENDER_PROCESSES of each bot process")
    ap.add_argument("--spec", action="store_true", help="check requests against Discord's spec (costs CPU)")
    asyncio.run(main(ap.parse_args()))
