"""AI levels against each other: win rates with 95% confidence intervals, decision times.

Player A (one seat) plays B in every other seat; A's seat rotates from match to match so each
seat is played equally (with ``--matches`` a multiple of the seat count). Match ``g`` uses the
seed ``--seed + g`` and every decision gets a ``random.Random`` seeded from the match seed and
the action number (as the bot does), so the same command prints the same results whenever the
search players have an iteration budget (``--iterations``); with a time budget (``--seconds``,
or the levels' own 0.1 s / 0.3 s) the count of iterations depends on the machine's load, so pin
the run to a core (``--core 0``, or ``taskset -c 0``) and say what else ran. No asserts - figures
only.

    python bench/tournament.py lost-cities strong normal --matches 60 --core 0
    python bench/tournament.py citadels strong normal --matches 60 --core 0     # 4 seats: A vs three B
    python bench/tournament.py all strong normal --matches 20 --core 0          # every game in turn
    python bench/tournament.py carcassonne normal random --matches 50 --iterations 20

Games: lost-cities, carcassonne, citadels, cities (underscores accepted), or ``all``. Seats: two
for Lost Cities and Carcassonne, four for Citadels and Cities, unless ``--seats`` says otherwise.
Kinds: random, easy (the game's heuristic; also heuristic / greedy), normal, strong (see
engines/ai.py ``players_for`` and each game's ai.py).

Seeds: the default ``--seed 40000`` starts a range that no tuning of any level used (tuning used
seeds below 10000 and the fitted Carcassonne evaluation 80000-80599; docs/benchmarks.md).

A "win" is first place alone; a shared first place counts half. With more than two seats the line
reads "A first in X% vs three B" (a fair share would be 1 / seats).
"""

from __future__ import annotations

import argparse
import math
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engines import ai, registry  # noqa: E402

DEFAULT_SEATS = {"lost-cities": 2, "carcassonne": 2, "citadels": 4, "cities": 4}
HELD_OUT_SEED = 40_000
_COUNT = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven"}


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval for a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return max(0.0, mid - half), min(1.0, mid + half)


def percentile(sorted_values: list[float], q: float) -> float:
    if not sorted_values:
        return float("nan")
    k = min(len(sorted_values) - 1, max(0, math.ceil(q * len(sorted_values)) - 1))
    return sorted_values[k]


def pin(core: int | None) -> str:
    """Pin this process to one core (Linux); returns a note of the cores it runs on."""
    if core is not None and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {core})
    if hasattr(os, "sched_getaffinity"):
        return "core " + ",".join(str(c) for c in sorted(os.sched_getaffinity(0)))
    return "cores not known"


def game_key(name: str) -> str:
    return name.replace("_", "-")


def make(game_key: str, kind: str, seconds: float | None, iterations: int | None, scale: float = 1.0):
    """A player of ``kind``; ``scale`` multiplies a searching level's own time budget (screening)."""
    p = ai.player(game_key, kind, seconds=seconds, iterations=iterations)
    if scale != 1.0 and seconds is None and iterations is None and getattr(p, "seconds", None):
        p.seconds *= scale
    return p


MAX_ACTIONS = 20_000  # a match still going after this many actions is stopped (a loop: a bug)


def play_match(game, seats: int, options, seed: int, players: list, times: list[float] | None, a_seat: int,
               iterations: list[int] | None = None, other_times: list[float] | None = None):
    """One seeded match; the decision times of A's seat go to ``times`` (and its search
    iterations to ``iterations``), those of the other seats to ``other_times``. Returns the
    result, or None for a match stopped after ``MAX_ACTIONS`` actions."""
    state = game.new_state(seats, options, seed, None)
    k = 0
    while movers := game.to_move(state):
        if k >= MAX_ACTIONS:
            return None
        seat = movers[0]
        rng = random.Random(f"{seed}/{k}")
        t = time.perf_counter()
        code = players[seat].choose(game, state, seat, rng)
        dt = time.perf_counter() - t
        if seat == a_seat:
            if times is not None:
                times.append(dt)
            stats = getattr(players[seat], "stats", None)
            if iterations is not None and stats is not None and stats.iterations:
                iterations.append(stats.iterations)
        elif other_times is not None:
            other_times.append(dt)
        game.check(state, seat, code)
        game.step(state, seat, code)
        k += 1
    return game.result(state)


def ms(values: list[float]) -> str:
    values = sorted(values)
    if not values:
        return "-"
    return f"{percentile(values, 0.5) * 1000:.0f}/{percentile(values, 0.99) * 1000:.0f} ms"


def tournament(key: str, a: str, b: str, matches: int, seats: int | None, raw: dict, seed: int,
               seconds: float | None, iterations: int | None, progress: bool = False, scale: float = 1.0) -> str:
    """Play the matches and return the summary line."""
    game = registry.get(key)
    seats = seats or DEFAULT_SEATS.get(key, game.min_players)
    options = game.parse_options(raw)
    wins = 0.0
    margins = []
    times: list[float] = []
    other: list[float] = []
    its: list[int] = []
    stopped: list[int] = []
    start = time.perf_counter()
    for g in range(matches):
        a_seat = g % seats
        players = [make(key, b, seconds, iterations, scale) for _ in range(seats)]
        players[a_seat] = make(key, a, seconds, iterations, scale)
        res = play_match(game, seats, options, seed + g, players, times, a_seat, its, other)
        if res is None:  # counted as a shared first place, and said in the summary
            stopped.append(seed + g)
            wins += 1.0 / seats
            if progress:
                print(f"  {key} match {g + 1} (seed {seed + g}): STOPPED after {MAX_ACTIONS} actions", flush=True)
            continue
        first = res.ranking[0]
        if a_seat in first:
            wins += 1.0 / len(first)
        best_other = max(s for i, s in enumerate(res.scores) if i != a_seat)
        margins.append(res.scores[a_seat] - best_other)
        if progress:
            print(f"  {key} match {g + 1} (seed {seed + g}): A in seat {a_seat}, scores {list(res.scores)}, "
                  f"A first so far {wins:g}/{g + 1}", flush=True)
    lo, hi = wilson(wins, matches)
    budget = f"iterations={iterations}" if iterations else f"seconds={seconds}" if seconds else "level budgets"
    if scale != 1.0 and not (iterations or seconds):
        budget += f" x{scale:g}"
    against = b if seats == 2 else f"{_COUNT.get(seats - 1, seats - 1)} {b}"
    share = "" if seats == 2 else f", fair share {1 / seats:.0%}"
    return (
        f"{key} {seats}p{' ' + str(raw) if raw else ''} seeds {seed}-{seed + matches - 1} ({budget}): "
        f"{a} first in {wins:g}/{matches} = {wins / max(matches, 1):.0%} vs {against} "
        f"(95% CI {lo:.0%}-{hi:.0%}{share}); mean margin over the best other {sum(margins) / max(len(margins), 1):+.1f}; "
        f"decision p50/p99 {a} {ms(times)} over {len(times)}, {b} {ms(other)} over {len(other)}"
        + (f"; STOPPED (loop?) seeds {stopped}" if stopped else "")
        + (f"; {a} searched {len(its)} decisions, median {percentile(sorted(its), 0.5):.0f} iterations" if its else "")
        + f"; {time.perf_counter() - start:.0f} s"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game", help="a game key, or 'all'")
    ap.add_argument("a", help="the kind measured (one seat)")
    ap.add_argument("b", help="the kind in every other seat")
    ap.add_argument("--matches", type=int, default=100)
    ap.add_argument("--seats", type=int, help="default: 2 (Lost Cities, Carcassonne) or 4 (Citadels, Cities)")
    ap.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help="a game option (one game only)")
    ap.add_argument("--seconds", type=float, help="time budget per decision for search players (default: the level's)")
    ap.add_argument("--iterations", type=int, help="iteration budget per decision for search players (reproducible)")
    ap.add_argument("--seed", type=int, default=HELD_OUT_SEED, help=f"first match seed (default {HELD_OUT_SEED}: held out of tuning)")
    ap.add_argument("--core", type=int, help="pin this process to one core (as taskset -c CORE)")
    ap.add_argument("--progress", action="store_true", help="print a line per match")
    ap.add_argument("--scale", type=float, default=1.0, help="multiply the levels' own time budgets (quick screening)")
    args = ap.parse_args()
    cores = pin(args.core)
    keys = registry.available() if args.game == "all" else [game_key(args.game)]
    raw = {}
    for o in args.option:
        key, _, value = o.partition("=")
        raw[key] = {"true": True, "false": False}.get(value, int(value) if value.isdigit() else value)
    if raw and len(keys) > 1:
        ap.error("--option needs one game")
    print(f"# {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {cores}, load average "
          + " ".join(f"{x:.1f}" for x in os.getloadavg()), flush=True)
    for key in keys:
        print(tournament(key, args.a, args.b, args.matches, args.seats, raw, args.seed, args.seconds,
                         args.iterations, args.progress, args.scale), flush=True)


if __name__ == "__main__":
    main()
