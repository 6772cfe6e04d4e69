"""AI levels against each other: win rates with 95% confidence intervals, decision times.

Player A (one seat) plays B in every other seat; A's seat rotates from match to match so each
seat order is played equally. Match ``g`` uses the seed ``--seed + g`` and every decision gets a
``random.Random`` seeded from the match seed and the action number (as the bot does), so the
same command prints the same results whenever the search players have an iteration budget
(``--iterations``); with a time budget (``--seconds``, the real levels) the count of iterations
depends on the machine's load. No asserts - figures only.

    python bench/tournament.py lost-cities strong heuristic --matches 100
    python bench/tournament.py citadels strong heuristic --seats 4 --matches 100 --iterations 300
    python bench/tournament.py carcassonne normal random --matches 50

A "win" is first place alone; a shared first place counts half. Kinds: random, heuristic, easy,
normal, strong (see engines/ai.py).
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engines import ai, registry  # noqa: E402


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


def make(game_key: str, kind: str, seconds: float | None, iterations: int | None):
    return ai.player(game_key, kind, seconds=seconds, iterations=iterations)


def play_match(game, seats: int, options, seed: int, players: list, times: list[float] | None, a_seat: int,
               iterations: list[int] | None = None):
    state = game.new_state(seats, options, seed, None)
    k = 0
    while movers := game.to_move(state):
        seat = movers[0]
        rng = random.Random(f"{seed}/{k}")
        t = time.perf_counter()
        code = players[seat].choose(game, state, seat, rng)
        if seat == a_seat and times is not None:
            times.append(time.perf_counter() - t)
            stats = getattr(players[seat], "stats", None)
            if iterations is not None and stats is not None and stats.iterations:
                iterations.append(stats.iterations)
        game.check(state, seat, code)
        game.step(state, seat, code)
        k += 1
    return game.result(state)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("a", help="the kind measured (one seat)")
    ap.add_argument("b", help="the kind in every other seat")
    ap.add_argument("--matches", type=int, default=100)
    ap.add_argument("--seats", type=int)
    ap.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    ap.add_argument("--seconds", type=float, help="time budget per decision for search players (default: the level's)")
    ap.add_argument("--iterations", type=int, help="iteration budget per decision for search players (reproducible)")
    ap.add_argument("--seed", type=int, default=1000)
    ap.add_argument("--progress", action="store_true", help="print a line per match")
    args = ap.parse_args()
    game = registry.get(args.game)
    seats = args.seats or game.min_players
    raw = {}
    for o in args.option:
        key, _, value = o.partition("=")
        raw[key] = {"true": True, "false": False}.get(value, int(value) if value.isdigit() else value)
    options = game.parse_options(raw)
    wins = 0.0
    margins = []
    times: list[float] = []
    its: list[int] = []
    start = time.perf_counter()
    for g in range(args.matches):
        a_seat = g % seats
        players = [make(args.game, args.b, args.seconds, args.iterations) for _ in range(seats)]
        players[a_seat] = make(args.game, args.a, args.seconds, args.iterations)
        res = play_match(game, seats, options, args.seed + g, players, times, a_seat, its)
        first = res.ranking[0]
        if a_seat in first:
            wins += 1.0 / len(first)
        best_other = max(s for i, s in enumerate(res.scores) if i != a_seat)
        margins.append(res.scores[a_seat] - best_other)
        if args.progress:
            print(f"  match {g + 1}: seat {a_seat} scores {list(res.scores)} wins so far {wins:g}", flush=True)
    n = args.matches
    lo, hi = wilson(wins, n)
    times.sort()
    budget = f"iterations={args.iterations}" if args.iterations else f"seconds={args.seconds}" if args.seconds else "level default"
    print(
        f"{args.game} {seats}p {dict(raw) or ''} {args.a} vs {args.b} ({budget}): "
        f"A first in {wins:g}/{n} = {wins / n:.0%} (95% CI {lo:.0%}-{hi:.0%}); "
        f"mean margin {sum(margins) / n:+.1f}; A decision p50 {percentile(times, 0.5) * 1000:.0f} ms "
        f"p99 {percentile(times, 0.99) * 1000:.0f} ms over {len(times)} decisions"
        + (f" (searched: {len(its)}, median {percentile(sorted(its), 0.5):.0f} iterations)" if its else "")
        + f"; {time.perf_counter() - start:.0f} s"
    )


if __name__ == "__main__":
    main()
