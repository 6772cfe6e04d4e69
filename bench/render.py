"""Render+encode time and size of the Lost Cities pictures.

    .venv/bin/python bench/render.py [--n 50] [--webp]

Prints p50/p99 (ms) over --n renders and the byte size, for the board (every sample view) and
the hand. The first render of each sample is a warm-up (fills the font and card-sprite caches)
and is reported separately as "cold".
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from render.common import encode_webp  # noqa: E402
from render.lost_cities import board_image, board_png, hand_image, hand_png  # noqa: E402
from tests.render.samples import NAMES, SAMPLES, public  # noqa: E402


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(p / 100 * (len(xs) - 1)))]


def run(label: str, fn, n: int) -> None:
    t0 = time.perf_counter()
    data = fn()
    cold = (time.perf_counter() - t0) * 1000
    times = []
    for _ in range(n):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000)
    print(
        f"{label:28s} cold {cold:6.1f} ms  p50 {statistics.median(times):6.1f} ms  "
        f"p99 {pct(times, 99):6.1f} ms  size {len(data) / 1024:6.1f} KB"
    )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=50)
    ap.add_argument("--webp", action="store_true", help="also time lossless WebP encoding")
    args = ap.parse_args()
    for name, make in SAMPLES.items():
        view = make()
        pub = public(view)
        run(f"board {name} en", lambda v=pub: board_png(v, NAMES, "en"), args.n)
        run(f"hand  {name} es", lambda v=view: hand_png(v, "es"), args.n)
        if args.webp:
            run(f"board {name} webp", lambda v=pub: encode_webp(board_image(v, NAMES, "en")), args.n)
            run(f"hand  {name} webp", lambda v=view: encode_webp(hand_image(v, "es")), args.n)


if __name__ == "__main__":
    main()
