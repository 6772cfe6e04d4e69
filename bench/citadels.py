"""Citadels random playouts per second (goal: >= 200 six-player games/s on one core).

Every seat picks uniformly among its legal actions, through the public engine calls
(to_move, legal, step) that the bot and the AI players use. No asserts, just figures.

    python bench/citadels.py [--seconds 3]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engines.citadels import GAME  # noqa: E402
from engines.citadels.ai import HeuristicPlayer  # noqa: E402

ALT = {
    "rank1": "witch",
    "rank2": "tax_collector",
    "rank3": "wizard",
    "rank4": "emperor",
    "rank5": "abbot",
    "rank6": "alchemist",
    "rank7": "navigator",
    "rank8": "diplomat",
}
CONFIGS = [
    ("6 players, base", 6, {}),
    ("6 players, Dark City + alternates", 6, {"dark_city": True, **ALT}),
    ("4 players, base", 4, {}),
    ("8 players, Dark City", 8, {"dark_city": True}),
]


def measure(seats: int, raw: dict, seconds: float) -> tuple[int, int, float]:
    options = GAME.parse_options(raw)
    legal, step, to_move = GAME.legal, GAME.step, GAME.to_move
    rng = random.Random(1)
    rnd = rng.random
    games = steps = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        st = GAME.new_state(seats, options, games, None)
        while movers := to_move(st):
            seat = movers[0]
            acts = legal(st, seat)
            step(st, seat, acts[int(rnd() * len(acts))])
            steps += 1
        games += 1
    return games, steps, elapsed


def heuristic_rate(seconds: float) -> float:
    options = GAME.parse_options({})
    players = [HeuristicPlayer()] * 6
    rng = random.Random(2)
    games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        st = GAME.new_state(6, options, games, None)
        while movers := GAME.to_move(st):
            seat = movers[0]
            GAME.step(st, seat, players[seat].choose(GAME, st, seat, rng))
        games += 1
    return games / (time.perf_counter() - start)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0)
    args = ap.parse_args()
    print(f"{'configuration':<36} {'games/s':>9} {'actions/s':>10} {'actions/game':>13}")
    for label, seats, raw in CONFIGS:
        games, steps, elapsed = measure(seats, raw, args.seconds)
        print(f"{label:<36} {games / elapsed:>9.1f} {steps / elapsed:>10.0f} {steps / max(games, 1):>13.1f}")
    print(f"{'6 heuristic players (view per move)':<36} {heuristic_rate(args.seconds):>9.1f}")


if __name__ == "__main__":
    main()
