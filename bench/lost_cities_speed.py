"""Lost Cities random playouts per second: the compact engine (the reference the bot plays on)
against the fast path (engines/lost_cities/fast.py) and the playouts of the optional compiled build
(engines/lost_cities/native.py, built by ``./dev compile``; without the build the same rows run
its source as plain Python and say so), side by side, interleaved run by run in one process, with
and without a state copy per action. No asserts - figures only.

    python bench/lost_cities_speed.py [--seconds 1] [--repeat 6] [--core 0] [--rounds 3] [--purple]
    python bench/lost_cities_speed.py --dealt ...     # rounds of play from dealt positions
    python bench/lost_cities_speed.py --search [--positions 40] [--core 0]

A playout deals a fresh seeded match (``GAME.new_state`` / ``fast.new_match``: the same deal)
and plays it to the end, every action uniformly random among the legal ones. The compact engine is driven through the public Game calls (``to_move``,
``legal``, ``step``: what bench/engines.py measures); the fast path through its own
``step``, which returns the next legal actions (the seat to move is ``s[TURN]``), and so the
native module (``native.step``; ``native.random_playout`` is its loop over ``step``). With a copy,
every action is applied to a fresh copy (``GAME.clone`` / ``fast.clone`` / ``native.clone``), as a search that
keeps the parent state pays. Both play the same matches for the same seeds and random draws
(legal actions come in the same order; tests/lost_cities/test_fast.py, test_native.py). Each run measures one
(engine, copy) pair for ``--seconds``; the pairs take turns, ``--repeat`` times, and the table
prints the median and the range of each.

``--search``: the strong level's search (0.3 s a decision) on the compact engine
(``LostCitiesSearch``, the reference), on the fast path (``FastLostCitiesSearch``, what the
levels use without the build) and on native.py's states (``NativeLostCitiesSearch``, what they
use with it), taking turns on the same positions (the states after 0, 15, 30, ... heuristic moves
of seeded matches); prints the iterations per decision of each. The three make the same choices
for the same iterations (tests/ai).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournament import pin  # noqa: E402

from engines.lost_cities import GAME, Info, fast, native  # noqa: E402
from engines.rng import Rng  # noqa: E402

POOL: list = []  # --dealt: seeded one-round deals, made before any timing (compact states)
FAST_POOL: list = []
NATIVE_POOL: list = []


def compact_playout(options, seed: int, rnd, copy: bool) -> int:
    state = GAME.clone(POOL[seed % len(POOL)]) if POOL else GAME.new_state(2, options, seed, None)
    legal, step, to_move, clone = GAME.legal, GAME.step, GAME.to_move, GAME.clone
    steps = 0
    while movers := to_move(state):
        seat = movers[0]
        actions = legal(state, seat)
        if copy:
            state = clone(state)
        step(state, seat, actions[int(rnd() * len(actions))])
        steps += 1
    return steps


def fast_playout(options, seed: int, rnd, copy: bool) -> int:
    s = fast.clone(FAST_POOL[seed % len(FAST_POOL)]) if FAST_POOL else fast.new_match(6 if options.purple else 5, options.rounds, seed)
    step, clone = fast.step, fast.clone
    actions = fast.legal(s)
    steps = 0
    if copy:
        while actions:
            s = clone(s)
            actions = step(s, actions[int(rnd() * len(actions))])
            steps += 1
    else:
        while actions:
            actions = step(s, actions[int(rnd() * len(actions))])
            steps += 1
    return steps


def fused_playout(options, seed: int, rnd, copy: bool) -> int:
    if FAST_POOL:
        return fast.random_playout(fast.clone(FAST_POOL[seed % len(FAST_POOL)]), rnd)
    return fast.random_playout(fast.new_match(6 if options.purple else 5, options.rounds, seed), rnd)


def native_match(options, seed: int):
    if NATIVE_POOL:
        return native.clone(NATIVE_POOL[seed % len(NATIVE_POOL)])
    m = Info(6 if options.purple else 5, options.rounds)
    m.rng = Rng(seed)
    return native.new_match(m)


def native_playout(options, seed: int, rnd, copy: bool) -> int:
    s = native_match(options, seed)
    step, clone = native.step, native.clone
    actions = native.legal(s)
    steps = 0
    if copy:
        while actions:
            s = clone(s)
            actions = step(s, actions[int(rnd() * len(actions))])
            steps += 1
    else:
        while actions:
            actions = step(s, actions[int(rnd() * len(actions))])
            steps += 1
    return steps


def native_fused(options, seed: int, rnd, copy: bool) -> int:
    return native.random_playout(native_match(options, seed), rnd)


def measure(run, options, seconds: float, copy: bool) -> tuple[float, float]:
    """Matches/s and actions/s of one run (CPU time of this process, and wall time)."""
    rnd = random.Random(12345).random
    matches = steps = 0
    start = time.perf_counter()
    cpu0 = time.process_time()
    while time.perf_counter() - start < seconds:
        steps += run(options, matches, rnd, copy)
        matches += 1
    cpu = time.process_time() - cpu0
    return matches / cpu, steps / cpu


def search_iterations(positions: int, seconds: float) -> None:
    from engines.lost_cities.ai import (
        FastLostCitiesSearch,
        HeuristicPlayer,
        LostCitiesSearch,
        NativeLostCitiesSearch,
    )
    from engines.search import ISMCTS

    adapters = (("compact", LostCitiesSearch), ("fast path", FastLostCitiesSearch),
                ("compiled" if native.COMPILED else "native, plain", NativeLostCitiesSearch))
    its: dict[str, list[int]] = {label: [] for label, _ in adapters}
    heuristic = HeuristicPlayer()
    done = 0
    seed = 0
    while done < positions:
        state = GAME.new_state(2, GAME.parse_options({}), 70_000 + seed, None)
        rng = random.Random(seed)
        k = 0
        while GAME.to_move(state) and done < positions:
            seat = GAME.to_move(state)[0]
            if k % 15 == 0 and len(GAME.legal(state, seat)) > 1:
                order = adapters[done % 3:] + adapters[: done % 3]  # each search first in turn
                for label, adapter in order:
                    player = ISMCTS(adapter(), seconds=seconds, prior_weight=5.0, depth=2)
                    player.choose(GAME, state, seat, random.Random(k))
                    its[label].append(player.stats.iterations)
                done += 1
            GAME.step(state, seat, heuristic.choose(GAME, state, seat, rng))
            k += 1
        seed += 1
    base = statistics.median(its["compact"])
    print(f"strong search, {seconds:g} s a decision, {positions} positions (seeds 70000.., every 15th heuristic move), "
          "the searches taking turns on each position")
    for label, values in its.items():
        med = statistics.median(values)
        print(f"{label:<18} iterations per decision: median {med:.0f}, mean {statistics.mean(values):.0f}, "
              f"range {min(values)}-{max(values)}   {med / base:.2f}x")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=1.0)
    ap.add_argument("--repeat", type=int, default=6)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--purple", action="store_true")
    ap.add_argument("--core", type=int, help="pin to one core (as taskset -c CORE)")
    ap.add_argument("--dealt", action="store_true",
                    help="rounds of play from dealt positions: one-round matches, each playout starts from a copy of one of "
                    "1,000 seeded deals made before the timing (the deal itself not timed)")
    ap.add_argument("--search", action="store_true", help="iterations per decision of the strong search, before and now")
    ap.add_argument("--positions", type=int, default=40)
    ap.add_argument("--budget", type=float, default=0.3, help="seconds a decision for --search")
    args = ap.parse_args()
    cores = pin(args.core)
    if args.search:
        print(f"# {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {cores}, load average "
              + " ".join(f"{x:.1f}" for x in os.getloadavg()))
        search_iterations(args.positions, args.budget)
        return
    if args.dealt:
        args.rounds = 1
    options = GAME.parse_options({"rounds": args.rounds, "purple": args.purple})
    if args.dealt:
        POOL.extend(GAME.new_state(2, options, seed, None) for seed in range(1000))
        FAST_POOL.extend(fast.from_state(st) for st in POOL)
        NATIVE_POOL.extend(native.from_fast(f) for f in FAST_POOL)
    build = "compiled" if native.COMPILED else "plain"
    engines = (("compact (reference)", compact_playout), ("fast: step", fast_playout), ("fast: random_playout", fused_playout),
               (f"{build}: step", native_playout), (f"{build}: random_playout", native_fused))
    rates: dict[tuple[str, bool], list[tuple[float, float]]] = {}
    for _ in range(max(args.repeat, 1)):
        for copy in (False, True):
            for label, run in engines:
                if copy and run in (fused_playout, native_fused):
                    continue
                rates.setdefault((label, copy), []).append(measure(run, options, args.seconds, copy))
    print(f"# {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {cores}, load average "
          + " ".join(f"{x:.1f}" for x in os.getloadavg())
          + f"; {args.rounds}-round matches{', purple' if args.purple else ''}"
          + (", from copies of 1,000 dealt positions (deal not timed)" if args.dealt else ", each dealt from its seed")
          + f"; native.py {'compiled (mypyc)' if native.COMPILED else 'as plain Python (no build)'}"
          + "; per CPU second of this process, "
          f"median (range) of {args.repeat} interleaved runs of {args.seconds:g} s")
    print(f"{'engine':<24} {'copy per action':<16} {'matches/s':>22} {'actions/s':>26} {'speed-up':>9}")
    for copy in (False, True):
        base = statistics.median(m for m, _ in rates[(engines[0][0], copy)])
        for label, _run in engines:
            runs = rates.get((label, copy))
            if runs is None:
                continue
            ms, acts = [m for m, _ in runs], [a for _, a in runs]
            med = statistics.median(ms)
            print(f"{label:<24} {'yes' if copy else 'no':<16} {med:>8.0f} ({min(ms):.0f}-{max(ms):.0f})"
                  f" {statistics.median(acts):>12.0f} ({min(acts):.0f}-{max(acts):.0f}) {med / base:>8.2f}x")


if __name__ == "__main__":
    main()
