"""The table's costs: an undo replays the log from the seed; stats read the stored aggregates.

Prints, per game, the time an undo takes at the end of a whole AI-vs-AI match (the replay of the
log without the last action, in the worker thread that runs it, plus the store's transaction), and
the time /partida stats takes over N finished matches of one server, each rated once by its
``rate`` job (``bot/core/ratings.py``): two calls, both reading a few stored rows.

    python bench/table.py [--matches 30] [--sets 1]

``--sets`` is Carcassonne's number of tile sets (a marathon match: --sets 40 for ~2,800 tiles).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


async def play_out(svc, mid: int, rng: random.Random) -> None:
    from engines.ai import RandomPlayer

    player = RandomPlayer()
    while (m := await svc.get(mid)).record.status == "active":
        seat = m.to_move()[0]
        code = player.choose(m.game, m.state, seat, rng)
        await svc.move(mid, m.record.version, ("user", m.record.seats[seat]["user_id"]), m.game.encode(code))


async def main(matches: int, sets: int) -> None:
    from bot.core import jobs as declared
    from bot.core.ratings import Rater
    from bot.core.service import MatchService
    from bot.core.stats import guild_stats
    from bot.core.table import Table
    from bot.store import open_store
    from engines.ai import RandomPlayer

    with tempfile.TemporaryDirectory() as tmp:
        store = await open_store(f"sqlite:///{tmp}/bench.sqlite3")
        svc = MatchService(store)
        table = Table(svc)
        channel = 1
        print(f"{'game':<14}{'actions':>9}{'undo (ms)':>12}")
        games = [("lost-cities", {}), ("citadels", {}), ("carcassonne", {"sets": sets} if sets > 1 else {})]
        for game, options in games:
            m = await svc.new_lobby(1, channel, game, 1, "p1", options, "en")
            for uid in (2, 3):
                m = await svc.join(m.record.id, None, uid, f"p{uid}")
                if game == "lost-cities":
                    break
            m = await svc.start(m.record.id, None, 1, seed=7)
            mid = m.record.id
            rng = random.Random(1)
            # play to the last action before the end: the undo then replays nearly the whole log
            while True:
                m = await svc.get(mid)
                seat = m.to_move()[0]
                code = RandomPlayer().choose(m.game, m.state, seat, rng)
                after = m.game.clone(m.state)
                m.game.step(after, seat, code)
                if m.game.is_over(after):
                    break
                await svc.move(mid, m.record.version, ("user", m.record.seats[seat]["user_id"]), m.game.encode(code))
            n = len(await store.actions(mid))
            rec = (await svc.get(mid)).record
            last = (await store.actions(mid))[-1]
            uid = rec.seats[last.seat]["user_id"]
            p = await table.undo_plan(mid, uid)
            t0 = time.perf_counter()
            await table.take_back(mid, uid, approved_by=[] if p.reason is None else p.voters)
            ms = (time.perf_counter() - t0) * 1000
            print(f"{game:<14}{n:>9}{ms:>12.1f}")
            await table.abandon(mid, 1)
            channel += 1
        # stats over finished matches
        for i in range(matches):
            m = await svc.new_lobby(1, 1000 + i, "lost-cities", 1, "p1", {"rounds": 1}, "en")
            m = await svc.join(m.record.id, None, 2, "p2")
            m = await svc.start(m.record.id, None, 1, seed=i)
            await play_out(svc, m.record.id, random.Random(i))
        rater = Rater(svc)
        for job in [j for j in await store.jobs() if j.kind == declared.RATE]:
            await rater.on_rate(job)
        times = []
        for _ in range(2):
            t0 = time.perf_counter()
            figures = await guild_stats(store, 1)
            times.append((time.perf_counter() - t0) * 1000)
        print(f"stats over {sum(figures.matches.values())} finished matches: first {times[0]:.1f} ms, second {times[1]:.1f} ms")
        per = [p.average for p in figures.players if p.average is not None]
        print(f"players {len(figures.players)}, average time per action (bench clock) {statistics.mean(per) * 1000:.1f} ms")
        await store.close()


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--matches", type=int, default=30)
    ap.add_argument("--sets", type=int, default=1)
    a = ap.parse_args()
    asyncio.run(main(a.matches, a.sets))
