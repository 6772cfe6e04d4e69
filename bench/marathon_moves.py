"""What one move of a marathon table costs the store and the event loop (issue 18).

A 2-player Carcassonne match with ``--sets`` sets (400: 28,800 tiles) is played by the engine to
``--tiles`` tiles on the table, stored as an active match in a SQLite file (WAL), then ``--moves``
moves are committed through the bot's one commit path (``MatchService.move``, the random player's
legal choices) while a ticker on the event loop measures how late it wakes up (the loop's longest
stall). The same moves are made twice from the same position, in one run:

- ``every move``: the whole state written with each move (``snapshot_every=1``, as before);
- ``snapshots``: the action alone, the state every ``SNAPSHOT_EVERY`` moves (today's default).

Printed per row: bytes the move sent to the database (the action's and any snapshot's JSON), bytes
the process wrote (``wchar`` of /proc/self/io: WAL frames included, page-sized), the loop's longest
stall and its p99 over 1 ms ticks, and the commit's wall time p50/p99. No asserts - figures only.

    python bench/marathon_moves.py [--sets 400] [--tiles 300] [--moves 96]
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

from bot.core.service import SNAPSHOT_EVERY, MatchService  # noqa: E402
from bot.store import RawJSON, open_store  # noqa: E402
from bot.store.base import dumps  # noqa: E402
from engines import registry  # noqa: E402


def wchar() -> int:
    for line in Path("/proc/self/io").read_text().splitlines():
        if line.startswith("wchar:"):
            return int(line.split()[1])
    return 0


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))] if values else float("nan")


async def ticker(stop: asyncio.Event, lateness: list[float]) -> None:
    while not stop.is_set():
        t = time.perf_counter()
        await asyncio.sleep(0.001)
        lateness.append((time.perf_counter() - t - 0.001) * 1000)


async def run(path: str, snapshot_every: int, game, state, seed: int, moves: int) -> dict:
    store = await open_store(f"sqlite:///{path}")
    svc = MatchService(store, snapshot_every=snapshot_every)
    lobby = await svc.new_lobby(1, 10, "carcassonne", 1, "Ana", {"sets": ARGS.sets}, "en")
    lobby = await svc.join(lobby.record.id, None, 2, "Ben")
    rec = lobby.record
    dumped = game.dump(state)
    rec = await store.update(rec.id, rec.version, status="active", seed=seed, state=RawJSON(dumps(dumped), dumped))
    mid = rec.id
    rng = random.Random(seed)
    logical, commit_ms = 0, []
    stop, lateness = asyncio.Event(), []
    tick = asyncio.create_task(ticker(stop, lateness))
    w0 = wchar()
    for _ in range(moves):
        m = await svc.get(mid)
        seat = m.to_move()[0]
        legal = await svc.off_loop(m.game.legal, m.state, seat)
        action = m.game.encode(rng.choice(legal))
        t = time.perf_counter()
        done = await svc.move(mid, m.record.version, ("user", (1, 2)[seat]), action)
        commit_ms.append((time.perf_counter() - t) * 1000)
        logical += len(dumps(action))
        if not done.loaded.record.tail:  # this move wrote the whole state
            logical += len(dumps(m.game.dump(done.loaded.state)))
    written = wchar() - w0
    stop.set()
    await tick
    svc.close()
    await store.close()
    return {"logical": logical / moves, "written": written / moves, "stall": max(lateness), "stall99": pct(lateness, 99),
            "p50": statistics.median(commit_ms), "p99": pct(commit_ms, 99)}


async def main() -> None:
    game = registry.get("carcassonne")
    seed = 7
    state = game.new_state(2, game.parse_options({"sets": ARGS.sets}), seed, None)
    rng = random.Random(seed)
    t = time.perf_counter()
    while len(game.view(state, None)["board"]) < ARGS.tiles and not game.is_over(state):
        seat = game.to_move(state)[0]
        game.step(state, seat, rng.choice(game.legal(state, seat)))
    kb = len(dumps(game.dump(state))) / 1024
    print(f"Carcassonne {ARGS.sets} sets, 2 players, {len(game.view(state, None)['board'])} tiles on the table"
          f" (built in {time.perf_counter() - t:.1f} s), state {kb:.0f} KB of JSON; {ARGS.moves} moves per row")
    print(f"{'writes':<22} {'sent/move':>10} {'wchar/move':>11} {'loop stall max':>15} {'p99':>6} {'commit p50':>11} {'p99':>7}")
    with tempfile.TemporaryDirectory() as tmp:
        for name, every in (("every move", 1), (f"snapshot every {SNAPSHOT_EVERY}", SNAPSHOT_EVERY)):
            r = await run(f"{tmp}/{every}.db", every, game, game.clone(state), seed, ARGS.moves)
            print(f"{name:<22} {r['logical'] / 1024:>8.1f}KB {r['written'] / 1024:>9.1f}KB {r['stall']:>13.1f}ms"
                  f" {r['stall99']:>5.1f} {r['p50']:>9.1f}ms {r['p99']:>5.1f}ms")


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sets", type=int, default=400)
    ap.add_argument("--tiles", type=int, default=300)
    ap.add_argument("--moves", type=int, default=96)
    ARGS = ap.parse_args()
    asyncio.run(main())
