"""Render+encode time and size of the Citadels pictures (4- and 8-player boards, a hand).

    .venv/bin/python bench/citadels_render.py [--n 30] [--save DIR]

The views come from seeded games played by the heuristic AI: "mid" after 3 rounds, "late" at
the end of the game (full cities, Dark City districts). The first render of each view fills the
font and sprite caches and is reported as "cold"; p50/p99 (ms) are over --n warm renders.
With --save the pictures are written to DIR to look at.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engines.ai import best_player  # noqa: E402
from engines.match import Match  # noqa: E402
from render.citadels import board_png, hand_png  # noqa: E402

NAMES = ["Ana", "Benjamín", "Carla", "Dmitri el Grande", "Eva", "Fátima", "Gus", "Hugo"]


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(p / 100 * (len(xs) - 1)))]


def game(n: int, rounds: int | None) -> Match:
    opts = {"dark_city": True}
    if n == 8:
        opts["rank9"] = "queen"
    m = Match.create("citadels", NAMES[:n], opts, seed=n)
    ai, rng = best_player("citadels"), random.Random(n)
    while not m.over and (rounds is None or m.view(None)["round"] <= rounds):
        seat = m.to_move()[0]
        m.apply_code(seat, ai.choose(m.game, m.state, seat, rng))
    return m


def run(label: str, fn, n: int, save: Path | None) -> None:
    t0 = time.perf_counter()
    data = fn()
    cold = (time.perf_counter() - t0) * 1000
    times = []
    for _ in range(n):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000)
    print(f"{label:<22} cold {cold:6.1f} ms   p50 {pct(times, 50):6.1f} ms   p99 {pct(times, 99):6.1f} ms   {len(data) / 1024:6.1f} KB")
    if save:
        (save / f"{label.replace(' ', '_')}.png").write_bytes(data)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=30)
    ap.add_argument("--save", type=Path, default=None)
    args = ap.parse_args()
    if args.save:
        args.save.mkdir(parents=True, exist_ok=True)
    for n in (4, 8):
        for stage, rounds in (("mid", 3), ("late", None)):
            m = game(n, rounds)
            v = m.view(None)
            run(f"board {n}p {stage}", lambda v=v, m=m: board_png(v, m.seats, "es"), args.n, args.save)
        seat = m.to_move()[0] if m.to_move() else 0
        hv = m.view(seat)
        run(f"hand {n}p", lambda hv=hv: hand_png(hv, "en"), args.n, args.save)


if __name__ == "__main__":
    main()
