"""CPU of a match review (issue 21, goal: a 2-player match reviewed in <= 30 s of CPU).

    ./dev python bench/review.py [--games lost-cities,carcassonne,citadels,cities] [--seeds 1,2] [--budget 25]

Each match is a seeded 2-player match played by the easy AI; ``engines.review.review`` then looks
at every decision of both players. Prints per match the decisions, how many the strong AI would
have played differently, the play-out samples each got, the CPU seconds (process time) and the
costliest decision found. Run pinned (``taskset -c 0``): the review is single-threaded.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engines.ai import player  # noqa: E402
from engines.match import Match  # noqa: E402
from engines.review import review  # noqa: E402

GOAL = 30.0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", default="lost-cities,carcassonne,citadels,cities")
    ap.add_argument("--seeds", default="1,2")
    ap.add_argument("--budget", type=float, default=25.0, help="the review's CPU budget (seconds)")
    args = ap.parse_args()
    for key in args.games.split(","):
        for seed in (int(s) for s in args.seeds.split(",")):
            m = Match.create(key, ["a", "b"], {}, seed=seed)
            rng = random.Random(seed)
            easy = [player(key, "easy"), player(key, "easy")]
            while not m.over:
                s = m.to_move()[0]
                m.apply_code(s, easy[s].choose(m.game, m.state, s, rng))
            t = time.process_time()
            found = review(m, budget=args.budget, seed=seed)
            cpu = time.process_time() - t
            worst = max((d for ds in found.values() for d in ds), key=lambda d: d.points, default=None)
            samples = worst.samples if worst else 0
            print(
                f"{key:<12} seed {seed}: {len(m.actions)} actions, CPU {cpu:5.1f} s (goal <= {GOAL:.0f} s: "
                f"{'ok' if cpu <= GOAL else 'ABOVE'}), {samples} play-out samples a decision; costliest: "
                + (f"action {worst.index} by seat {worst.seat}, {worst.points:.1f} points, {100 * worst.win_chance:.0f}% win chance" if worst else "none"),
                flush=True,
            )


if __name__ == "__main__":
    main()
