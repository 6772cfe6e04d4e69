"""Cities strong-level experiments (issue 22): a variant of ``CitiesPlayer`` (keyword arguments as
JSON) against the heuristic, on seeded matches; prints wins, the mean margin over the best other
seat, and, per phase, decision times (wall and CPU: a wall time far above the CPU time is the
process waiting for the core). Figures only.

    python bench/cities_lab.py --seats 2 --matches 100 --seed 100 --kw '{"place": "plan"}' [--seconds 0.1]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engines.cities import GAME  # noqa: E402
from engines.cities import ai as cai  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from tournament import percentile, wilson  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seats", type=int, default=2)
    ap.add_argument("--matches", type=int, default=100)
    ap.add_argument("--seed", type=int, default=100)
    ap.add_argument("--seconds", type=float, default=0.3)
    ap.add_argument("--level", default="strong")
    ap.add_argument("--vs", default="easy")
    ap.add_argument("--kw", default="{}")
    ap.add_argument("--progress", action="store_true")
    args = ap.parse_args()
    kw = json.loads(args.kw)
    n = args.seats
    wins = 0.0
    margins = []
    times: dict[str, list[float]] = {"take": [], "place": []}
    cpu: dict[str, list[float]] = {"take": [], "place": []}
    t0 = time.perf_counter()
    for g in range(args.matches):
        a = g % n
        players = [cai.PLAYERS[args.vs]() for _ in range(n)]
        players[a] = cai.PLAYERS[args.level](seconds=args.seconds, **kw)
        st = GAME.new_state(n, GAME.parse_options({}), args.seed + g, None)
        k = 0
        while movers := GAME.to_move(st):
            seat = movers[0]
            phase = st.phase
            t, c = time.perf_counter(), time.process_time()
            code = players[seat].choose(GAME, st, seat, random.Random(f"{args.seed + g}/{k}"))
            dt, dc = time.perf_counter() - t, time.process_time() - c
            if seat == a:
                times["take" if phase == 1 else "place"].append(dt)
                cpu["take" if phase == 1 else "place"].append(dc)
            GAME.step(st, seat, code)
            k += 1
        res = GAME.result(st)
        if a in res.ranking[0]:
            wins += 1 / len(res.ranking[0])
        margins.append(res.scores[a] - max(s for i, s in enumerate(res.scores) if i != a))
        if args.progress:
            print(f"  {g}: seat {a} {list(res.scores)} wins {wins:g}/{g + 1}", flush=True)
    lo, hi = wilson(wins, args.matches)
    tt = {k: sorted(v) for k, v in times.items()}
    cc = {k: sorted(v) for k, v in cpu.items()}
    every = sorted(times["take"] + times["place"])
    over = sum(1 for x in every if x > 1.1 * args.seconds)
    print(f"{n}p seeds {args.seed}-{args.seed + args.matches - 1} {args.level} {args.seconds}s {kw}: "
          f"{wins:g}/{args.matches} = {wins / args.matches:.0%} ({lo:.0%}-{hi:.0%}) margin {sum(margins) / len(margins):+.2f}; "
          + "; ".join(f"{k} wall p50/p99/max {percentile(v, .5) * 1000:.0f}/{percentile(v, .99) * 1000:.0f}/{v[-1] * 1000:.0f} ms, "
                      f"cpu p99/max {percentile(cc[k], .99) * 1000:.0f}/{cc[k][-1] * 1000:.0f} ms ({len(v)})" for k, v in tt.items())
          + f"; all decisions wall p99 {percentile(every, .99) * 1000:.0f} ms, {over} over budget + 10%"
          + f"; {time.perf_counter() - t0:.0f} s", flush=True)


if __name__ == "__main__":
    main()
