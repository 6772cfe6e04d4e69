"""Random-playout throughput per game, printed as a table.

Each playout builds a fresh seeded match and lets every seat pick uniformly among its legal
actions until the match ends, through the public engine interface (legal, step, to_move) - the
same calls the bot and the AI players make. With ``--copy`` every action is applied to a fresh
``clone`` of the state (what a search that keeps the parent state pays). Runs on one core; no
asserts, just figures. ``--repeat N`` measures N times and prints the best and the spread (the
machine may be shared).

    python bench/engines.py [--seconds 3] [--game lost-cities ...] [--copy] [--repeat 3] [--reference]

``--reference`` also measures the frozen Lost Cities engine kept for tests
(tests/lost_cities/reference_engine.py), interleaved run by run with the current one, so the two
are compared under the same load.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engines import registry  # noqa: E402

# Per game: (label, seats, options) of the configurations worth measuring.
CONFIGS = {
    "lost-cities": [("3-round match", 2, {}), ("3-round match, purple", 2, {"purple": True})],
    "carcassonne": [("2 players, 72 tiles", 2, {})],
    "citadels": [("6 players", 6, {}), ("4 players", 4, {})],
}


def playout(game, seats: int, options, seed: int, rng: random.Random) -> int:
    state = game.new_state(seats, options, seed, None)
    legal, step, to_move = game.legal, game.step, game.to_move
    rnd = rng.random
    steps = 0
    while movers := to_move(state):
        seat = movers[0]
        actions = legal(state, seat)
        step(state, seat, actions[int(rnd() * len(actions))])
        steps += 1
    return steps


def playout_copying(game, seats: int, options, seed: int, rng: random.Random) -> int:
    state = game.new_state(seats, options, seed, None)
    legal, step, to_move, clone = game.legal, game.step, game.to_move, game.clone
    rnd = rng.random
    steps = 0
    while movers := to_move(state):
        seat = movers[0]
        actions = legal(state, seat)
        state = clone(state)
        step(state, seat, actions[int(rnd() * len(actions))])
        steps += 1
    return steps


def measure(game, seats: int, raw_options, seconds: float, copy: bool = False) -> tuple[int, int, float]:
    options = game.parse_options(raw_options)
    rng = random.Random(12345)
    run = playout_copying if copy else playout
    matches = steps = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        steps += run(game, seats, options, matches, rng)
        matches += 1
    return matches, steps, elapsed


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--game", action="append")
    ap.add_argument("--copy", action="store_true", help="also measure with a state copy (clone) per action")
    ap.add_argument("--repeat", type=int, default=1, help="measure N times; print the best and the range")
    ap.add_argument("--reference", action="store_true", help="Lost Cities: compare with the frozen previous engine")
    args = ap.parse_args()
    if args.reference:
        compare_reference(args)
        return
    keys = args.game or registry.available()
    print(f"{'game':<14} {'configuration':<34} {'matches/s':>10} {'range (N runs)':>18} {'actions/s':>11} {'actions/match':>14}")
    for key in keys:
        game = registry.get(key)
        for label, seats, options in CONFIGS.get(key, [(f"{game.min_players} players", game.min_players, {})]):
            for copy in (False, True) if args.copy else (False,):
                runs = [measure(game, seats, options, args.seconds, copy) for _ in range(max(args.repeat, 1))]
                rates = sorted(m / e for m, _, e in runs)
                matches, steps, elapsed = max(runs, key=lambda r: r[0] / r[2])
                spread = f"{rates[0]:.0f}-{rates[-1]:.0f} ({len(rates)})"
                name = label + (", copy per action" if copy else "")
                print(
                    f"{key:<14} {name:<34} {matches / elapsed:>10.1f} {spread:>18} {steps / elapsed:>11.0f}"
                    f" {steps / max(matches, 1):>14.1f}"
                )


def compare_reference(args: argparse.Namespace) -> None:
    from tests.lost_cities import reference_engine

    engines = (("previous (reference)", reference_engine.GAME), ("compact (current)", registry.get("lost-cities")))
    rates: dict[tuple[str, bool], list[float]] = {}
    for _ in range(max(args.repeat, 1)):
        for label, game in engines:
            for copy in (False, True):
                matches, _steps, elapsed = measure(game, 2, {}, args.seconds, copy)
                rates.setdefault((label, copy), []).append(matches / elapsed)
    print(f"{'Lost Cities engine':<22} {'3-round matches/s':>18} {'with a copy per action':>24}   (best of {args.repeat})")
    for label, _game in engines:
        plain, copied = rates[(label, False)], rates[(label, True)]
        print(f"{label:<22} {max(plain):>18.0f} {max(copied):>24.0f}   range {min(plain):.0f}-{max(plain):.0f} / "
              f"{min(copied):.0f}-{max(copied):.0f}")


if __name__ == "__main__":
    main()
