"""Ratings and stored aggregates at scale (issue 21, goal: stats and leaderboard <= 100 ms).

    ./dev python bench/ratings.py                        # SQLite (temp file, WAL), 100,000 matches
    ./dev python bench/ratings.py --matches 20000 --backends postgres   # PARTIDA_BENCH_PG_URL

Fills the store with ``--matches`` finished matches rated through the real path (``ratings.record``:
one ``Store.record_result`` transaction each, openskill's update inside): ``--people`` people over
``--guilds`` servers, the four games, 2-4 seats, one seat in five an AI level. Then times, on the
biggest server and across servers, what ``/partida stats`` reads (``scope_totals`` +
``scope_players`` + the asker's ``player_ratings``) and what ``/partida leaderboard`` reads
(``leaderboard`` of one game), ``--repeat`` times each, and prints p50/p99/max in ms. The fill's
cost per match is printed too. PostgreSQL runs in a throw-away schema dropped afterwards.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.core import ratings  # noqa: E402
from bot.store import open_store  # noqa: E402
from bot.store.base import GLOBAL_SCOPE, FinishedMatch  # noqa: E402

GAMES = ("lost-cities", "carcassonne", "citadels", "cities")
LEVELS = ("random", "easy", "normal", "strong")
GOAL_MS = 100.0


def percentile(sorted_ms: list[float], p: float) -> float:
    return sorted_ms[min(len(sorted_ms) - 1, max(0, round(p / 100 * (len(sorted_ms) - 1))))]


def matches(n: int, people: int, guilds: int, seed: int):
    rng = random.Random(seed)
    # people belong to a server (a few play in two); servers are of uneven size (the first biggest)
    weights = [1.0 / (g + 1) for g in range(guilds)]
    for i in range(n):
        guild = 1 + rng.choices(range(guilds), weights)[0]
        game = GAMES[rng.randrange(len(GAMES))]
        k = 2 if game == "lost-cities" else rng.randint(2, 4)
        band = max(1, people // guilds)
        players: list[str] = []
        while len(players) < k:
            if rng.random() < 0.2:
                players.append(ratings.ai_key(rng.choice(LEVELS)))
            else:
                p = ratings.person_key(10_000 + (guild - 1) * band + rng.randrange(band + 20) % people)
                if p not in players:
                    players.append(p)
        rng.shuffle(players)
        places = [[p] for p in players]
        if k > 2 and rng.random() < 0.1:  # a tie for second
            places = [places[0], places[1] + places[2], *places[3:]]
        acts = {p: ratings.Acts(40, 39, rng.uniform(600, 40_000)) for p in players if p.startswith("u")}
        yield FinishedMatch(i + 1, game, guild, places), acts


async def timed(fn, repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        t = time.perf_counter()
        await fn()
        out.append((time.perf_counter() - t) * 1000)
    return sorted(out)


async def run(url: str, label: str, args) -> None:
    store = await open_store(url)
    try:
        t0 = time.perf_counter()
        for fin, acts in matches(args.matches, args.people, args.guilds, args.seed):
            await ratings.record(store, fin, acts)
        fill = time.perf_counter() - t0
        print(f"{label}: filled {args.matches:,} rated matches in {fill:.1f} s ({fill / args.matches * 1000:.2f} ms a match, rating included)")
        totals = await store.scope_totals(1)
        me = (await store.leaderboard("lost-cities", 1, limit=1))[0].player
        print(f"{label}: biggest server: {sum(totals.values()):,} matches {totals}")

        for scope, name in ((1, "server 1"), (GLOBAL_SCOPE, "all servers")):

            async def stats(scope=scope):
                await store.scope_totals(scope)
                await store.scope_players(scope, limit=10)
                await store.player_ratings(me, scope)

            async def board(scope=scope):
                await store.leaderboard("carcassonne", scope, limit=10)

            for what, fn in (("stats", stats), ("leaderboard", board)):
                ms = await timed(fn, args.repeat)
                ok = "ok" if percentile(ms, 99) <= GOAL_MS else "ABOVE GOAL"
                print(
                    f"{label}: {what:<11} {name:<11} p50 {statistics.median(ms):6.2f} ms  p99 {percentile(ms, 99):6.2f} ms"
                    f"  max {ms[-1]:6.2f} ms  (goal <= {GOAL_MS:.0f} ms: {ok})"
                )
    finally:
        await store.close()


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--matches", type=int, default=100_000)
    ap.add_argument("--people", type=int, default=5_000)
    ap.add_argument("--guilds", type=int, default=20)
    ap.add_argument("--repeat", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--backends", default="sqlite", help="sqlite, postgres or both (comma-separated)")
    args = ap.parse_args()
    backends = args.backends.split(",")
    if "sqlite" in backends:
        with tempfile.TemporaryDirectory() as tmp:
            await run(f"sqlite:///{Path(tmp) / 'ratings.sqlite3'}", "sqlite", args)
    if "postgres" in backends:
        import asyncpg

        base = os.environ.get("PARTIDA_BENCH_PG_URL", "postgresql://postgres@127.0.0.1:5432/test")
        schema = f"partida_bench_{uuid.uuid4().hex[:10]}"
        try:
            await run(f"{base}{'&' if '?' in base else '?'}schema={schema}", "postgres", args)
        finally:
            conn = await asyncpg.connect(base)
            try:
                await conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
            finally:
                await conn.close()


if __name__ == "__main__":
    asyncio.run(main())
