"""Move-commit latency of the match store (goal: p99 <= 5 ms).

    .venv/bin/python bench/store.py                      # SQLite (temp file, WAL) + PostgreSQL if reachable
    .venv/bin/python bench/store.py --matches 200 --moves 20 --concurrency 8 --synchronous full
    PARTIDA_BENCH_PG_URL=postgresql://postgres@127.0.0.1:5432/test .venv/bin/python bench/store.py

Each match is created, started, then gets ``--moves`` commit_move calls with a snapshot of about
``--state-bytes`` of JSON. Moves go round-robin over the matches (like many channels playing at
once); with --concurrency N, N tasks commit at the same time. Only commit_move is timed.
PostgreSQL runs in a throw-away schema that is dropped afterwards.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.store import open_store  # noqa: E402

GOAL_P99_MS = 5.0


def snapshot(move: int, size: int) -> dict:
    """A state-like document: hands, piles and a log tail, padded to about ``size`` bytes of JSON."""
    cards = [{"suit": s, "rank": r} for s in "rgbwy" for r in range(2, 11)]
    state = {"turn": move, "rng": {"seed": 123456789, "n": move}, "hands": [cards[:8], cards[8:16]]}
    state["piles"] = {s: [c for c in cards if c["suit"] == s][: move % 9] for s in "rgbwy"}
    state["deck"] = cards[16:]
    filler = max(0, size - len(str(state)))
    state["notes"] = "x" * filler
    return state


def percentile(sorted_ms: list[float], p: float) -> float:
    k = min(len(sorted_ms) - 1, max(0, round(p / 100 * (len(sorted_ms) - 1))))
    return sorted_ms[k]


async def run(
    url: str, label: str, matches: int, moves: int, concurrency: int, state_bytes: int
) -> list[float]:
    store = await open_store(url)
    try:
        seats = [{"user_id": 1000 + i, "ai": None, "name": f"p{i}"} for i in range(2)]
        recs = {}
        for m in range(matches):
            rec = await store.create_match(1, 10_000 + m, "lost-cities", 1000, seats, {}, "en")
            recs[m] = await store.update(
                rec.id, rec.version, status="active", seed=m, state=snapshot(0, state_bytes)
            )
        latencies: list[float] = []
        cpu: list[float] = []
        queue = [m for _ in range(moves) for m in range(matches)]  # round-robin over matches
        busy: set[int] = set()  # a match is driven by one task at a time (like the bot's per-match lock)

        async def worker(jobs: list[int]) -> None:
            for m in jobs:
                while m in busy:
                    await asyncio.sleep(0)
                busy.add(m)  # no await since the check: atomic under asyncio
                rec = recs[m]
                state = snapshot(rec.version, state_bytes)
                t0, c0 = time.perf_counter(), time.process_time()
                recs[m] = await store.commit_move(
                    rec.id, rec.version, rec.version % 2, {"play": rec.version}, False, state
                )
                latencies.append((time.perf_counter() - t0) * 1000)
                cpu.append((time.process_time() - c0) * 1e6)  # the whole process: the writer's thread too
                busy.discard(m)

        t_start = time.perf_counter()
        await asyncio.gather(*(worker(queue[i::concurrency]) for i in range(concurrency)))
        elapsed = time.perf_counter() - t_start
        # Sanity: every log is complete.
        for m in (0, matches - 1):
            log = await store.actions(recs[m].id)
            assert [a.idx for a in log] == list(range(moves)), f"broken log for match {m}"
    finally:
        await store.close()
    lat = sorted(latencies)
    p50, p99 = percentile(lat, 50), percentile(lat, 99)
    verdict = "OK" if p99 <= GOAL_P99_MS else f"OVER the {GOAL_P99_MS} ms goal"
    print(
        f"{label:<34} commits={len(lat):5d}  p50={p50:6.2f} ms  p90={percentile(lat, 90):6.2f} ms"
        f"  p99={p99:6.2f} ms  max={lat[-1]:7.2f} ms  mean={statistics.fmean(lat):5.2f} ms"
        f"  {len(lat) / elapsed:7.0f} commits/s  -> {verdict}"
    )
    if concurrency == 1:  # with commits overlapping, one commit's CPU cannot be told from another's
        print(f"{'':<34} process CPU per commit (concurrency 1): mean {statistics.fmean(cpu):.0f} us")
    return lat


async def pg_reachable(url: str) -> str | None:
    try:
        import asyncpg

        conn = await asyncpg.connect(url, timeout=3)
        await conn.close()
        return None
    except Exception as e:  # noqa: BLE001 - only reported
        return f"{type(e).__name__}: {e}"


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--matches", type=int, default=200)
    ap.add_argument("--moves", type=int, default=20)
    ap.add_argument("--concurrency", type=int, default=1)
    ap.add_argument("--state-bytes", type=int, default=3000)
    ap.add_argument("--synchronous", default="normal", choices=["off", "normal", "full", "extra"])
    ap.add_argument(
        "--pg-url",
        default=os.environ.get("PARTIDA_BENCH_PG_URL", "postgresql://postgres@127.0.0.1:5432/test"),
    )
    ap.add_argument("--no-pg", action="store_true")
    args = ap.parse_args()
    common = (args.matches, args.moves, args.concurrency, args.state_bytes)
    print(
        f"{args.matches} matches x {args.moves} moves, ~{args.state_bytes} B snapshots, concurrency {args.concurrency}"
    )

    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{tmp}/bench.sqlite3?synchronous={args.synchronous}"
        await run(url, f"SQLite WAL synchronous={args.synchronous}", *common)

    if args.no_pg:
        return
    why = await pg_reachable(args.pg_url)
    if why:
        print(f"PostgreSQL skipped: not reachable at {args.pg_url} ({why})")
        return
    schema = f"partida_bench_{os.getpid()}_{uuid.uuid4().hex[:8]}"
    sep = "&" if "?" in args.pg_url else "?"
    try:
        await run(f"{args.pg_url}{sep}schema={schema}", "PostgreSQL", *common)
    finally:
        import asyncpg

        conn = await asyncpg.connect(args.pg_url)
        await conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        await conn.close()


if __name__ == "__main__":
    asyncio.run(main())
