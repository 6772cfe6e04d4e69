"""Carcassonne engine figures through the public Game interface (legal, check, step, to_move).

Prints: random 2-player games per second; engine time per move (legal + check + step) around
72, 2,000 and 22,000 placed tiles of a seeded 306-set, 4-player random match; and the time of
that whole match (22,032 tiles). No asserts, just figures.

    python bench/carcassonne.py [--seconds 3] [--sets 306] [--skip-marathon]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engines import registry  # noqa: E402


def random_games(game, seconds: float) -> tuple[int, float]:
    options = game.parse_options({})
    rng = random.Random(1)
    games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_state(2, options, games, None)
        while movers := game.to_move(state):
            seat = movers[0]
            legal = game.legal(state, seat)
            game.step(state, seat, legal[int(rng.random() * len(legal))])
        games += 1
    return games, time.perf_counter() - start


def marathon(game, sets: int, seats: int, marks: tuple[int, ...]) -> tuple[dict[int, float], float, int, list[int]]:
    """Play a seeded random match; per mark, the mean move time over the 50 moves after it."""
    options = game.parse_options({"sets": sets})
    rng = random.Random(7)
    state = game.new_state(seats, options, 2024, None)
    per_move: dict[int, list[float]] = {m: [] for m in marks}
    clock = time.perf_counter
    start = clock()
    placed = 1
    while movers := game.to_move(state):
        seat = movers[0]
        t0 = clock()
        legal = game.legal(state, seat)
        code = legal[int(rng.random() * len(legal))]
        game.check(state, seat, code)
        game.step(state, seat, code)
        dt = clock() - t0
        placed += 1
        for m in marks:
            if m <= placed < m + 50:
                per_move[m].append(dt)
    total = clock() - start
    means = {m: (sum(v) / len(v) if v else float("nan")) for m, v in per_move.items()}
    return means, total, placed, list(game.result(state).scores)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--sets", type=int, default=306)
    ap.add_argument("--skip-marathon", action="store_true")
    args = ap.parse_args()
    game = registry.get("carcassonne")
    n, dt = random_games(game, args.seconds)
    print(f"random 2-player games: {n / dt:.1f} games/s ({n} in {dt:.1f} s)")
    if args.skip_marathon:
        return
    marks = (72, 2000, 22000)
    means, total, placed, scores = marathon(game, args.sets, 4, marks)
    for m in marks:
        print(f"move time around {m:>6} tiles placed: {means[m] * 1000:.3f} ms")
    print(f"{args.sets}-set match, 4 players: {placed} tiles on the table, {total:.1f} s, scores {scores}")


if __name__ == "__main__":
    main()
