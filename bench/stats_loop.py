"""/partida stats over many finished matches: how long the first call takes and how long it holds
the event loop (the longest gap a 1 ms ticker sees while it runs).

One Carcassonne match is played to its end by random players; its final row is copied into N
finished matches of one server (SQLite in a temporary directory); then ``guild_stats`` runs twice
(first: every result computed from its final state; second: results cached).

    python bench/stats_loop.py [--matches 1000]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


async def ticker(stalls: list[float], stop: asyncio.Event) -> None:
    loop = asyncio.get_running_loop()
    last = loop.time()
    while not stop.is_set():
        await asyncio.sleep(0.001)
        now = loop.time()
        stalls.append((now - last) * 1000)
        last = now


async def main(matches: int, keep: str | None) -> None:
    from bot.core.service import MatchService
    from bot.core.stats import _RESULTS, guild_stats
    from bot.store import open_store
    from engines.ai import RandomPlayer

    with tempfile.TemporaryDirectory() as tmp:
        tmp = keep or tmp
        store = await open_store(f"sqlite:///{tmp}/bench.sqlite3")
        svc = MatchService(store)
        m = await svc.new_lobby(1, 1, "carcassonne", 1, "p1", {}, "en")
        m = await svc.join(m.record.id, None, 2, "p2")
        m = await svc.start(m.record.id, None, 1, seed=3)
        rng, player = random.Random(3), RandomPlayer()
        while (m := await svc.get(m.record.id)).record.status == "active":
            seat = m.to_move()[0]
            code = player.choose(m.game, m.state, seat, rng)
            await svc.move(m.record.id, m.record.version, ("user", m.record.seats[seat]["user_id"]), m.game.encode(code))
        final = m.record
        for i in range(matches):
            rec = await store.create_match(1, 1000 + i, final.game, 1, final.seats, final.options, "en", {})
            await store.update(rec.id, rec.version, status="finished", seed=final.seed, state=final.state)
        sys.setswitchinterval(0.001)  # as the bot sets it (bot/client.py)
        for label in ("first call", "results cached"):
            stalls: list[float] = []
            stop = asyncio.Event()
            tick = asyncio.create_task(ticker(stalls, stop))
            await asyncio.sleep(0.01)
            t0 = time.perf_counter()
            if label == "results cached":  # the store's part alone, for the record
                t1 = time.perf_counter()
                await store.finished_in_guild(1)
                read_ms = (time.perf_counter() - t1) * 1000
                print(f"  store read of the rows: {read_ms:.0f} ms")
                t0 = time.perf_counter()
            figures = await guild_stats(store, 1)
            took = (time.perf_counter() - t0) * 1000
            stop.set()
            await tick
            print(f"{label}: {sum(figures.matches.values())} finished matches, {took:.0f} ms, longest event-loop stall {max(stalls):.0f} ms")
        _RESULTS.clear()
        svc.close()
        await store.close()


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--matches", type=int, default=1000)
    ap.add_argument("--keep", help="build the database in this directory and keep it")
    a = ap.parse_args()
    asyncio.run(main(a.matches, a.keep))
