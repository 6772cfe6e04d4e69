"""How late the bot's event loop runs while AI seats search (bot/core/thinking.py).

A ticker coroutine asks to wake every 5 ms and records how late each wake-up is, while one
Thinker makes a series of strong decisions (0.3 s searches) for a 2-player Carcassonne match in
its middle game. Once with the search in a thread of this process (AI_PROCESSES=0, as before),
once in a worker process (AI_PROCESSES=1, the default). A late wake-up is what every click, store
answer and heartbeat of the process would wait. Figures only, no asserts.

    python bench/ai_loop.py [--decisions 8] [--game carcassonne] [--kind strong]

The worker process is not pinned: on a 2-core machine it runs on the other core.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.core.thinking import Thinker  # noqa: E402
from engines import ai, registry  # noqa: E402


def middle_game(key: str, seats: int, seed: int, moves: int):
    game = registry.get(key)
    state = game.new_state(seats, game.parse_options({}), seed, None)
    rng = random.Random(seed)
    easy = ai.player(key, "easy")
    for _ in range(moves):
        movers = game.to_move(state)
        if not movers:
            break
        seat = movers[0]
        game.step(state, seat, easy.choose(game, state, seat, rng))
    return game, state


async def measure(processes: int, key: str, kind: str, decisions: int, seats: int) -> dict:
    game, state = middle_game(key, seats, 11, 30)
    snapshot = game.dump(state)
    seat = game.to_move(state)[0]
    thinker = Thinker(processes)
    if processes:  # start the worker before measuring (the bot pays this once, at its first search)
        await thinker.choose(key, game, state, snapshot, seat, kind, "warm")
    late: list[float] = []
    running = True

    async def ticker() -> None:
        while running:
            t = time.perf_counter()
            await asyncio.sleep(0.005)
            late.append((time.perf_counter() - t - 0.005) * 1000)

    task = asyncio.create_task(ticker())
    t0 = time.perf_counter()
    for n in range(decisions):
        await thinker.choose(key, game, state, snapshot, seat, kind, f"11/{n}")
    wall = time.perf_counter() - t0
    running = False
    await task
    thinker.close()
    late.sort()
    return {
        "wakeups": len(late),
        "p50": statistics.median(late),
        "p99": late[min(len(late) - 1, int(0.99 * len(late)))],
        "max": late[-1],
        "per_decision": wall / decisions * 1000,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", default="carcassonne")
    ap.add_argument("--kind", default="strong")
    ap.add_argument("--seats", type=int, default=2)
    ap.add_argument("--decisions", type=int, default=8)
    a = ap.parse_args()
    print(f"{a.game} {a.kind}, {a.decisions} decisions, {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}")
    print("where           wake-ups  late p50   late p99   late max   ms/decision")
    for processes, label in ((0, "thread"), (1, "worker process")):
        r = asyncio.run(measure(processes, a.game, a.kind, a.decisions, a.seats))
        print(f"{label:<15} {r['wakeups']:>8}  {r['p50']:7.2f} ms {r['p99']:7.2f} ms {r['max']:7.2f} ms {r['per_decision']:9.0f}")


if __name__ == "__main__":
    main()
