"""Render+encode time and size of the Carcassonne pictures.

    .venv/bin/python bench/carcassonne_render.py [--n 10] [--sets 306] [--save DIR]

Boards: a finished 72-tile match (5 greedy players), and a seeded 306-set random 4-player match
(Cordoba-sized) stopped after 2,000 and after 22,000 placed tiles (a viewport around the last tile
plus the overview map). For each: the board picture, the hand picture of the player to move (with
the legal spots) and a placement preview. Prints cold time (first render, fills the tile caches),
p50 and max over --n renders, and the PNG size. The engine's view() time is printed apart.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engines.carcassonne import GAME  # noqa: E402
from engines.carcassonne.ai import GreedyPlayer  # noqa: E402
from render.carcassonne import board_png, hand_png, preview_png  # noqa: E402

NAMES = ["Ana", "Benedicto", "Carla García", "Dmitri", "Eve", "Fátima"]


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
        f"{label:34s} cold {cold:6.1f} ms  p50 {statistics.median(times):6.1f} ms  "
        f"max {max(times):6.1f} ms  size {len(data) / 1024:6.1f} KB"
    )
    return data


def greedy_match(stop: int | None = None) -> object:
    state = GAME.new_state(5, GAME.parse_options({}), 3, None)
    p, rng = GreedyPlayer(), random.Random(1)
    while (movers := GAME.to_move(state)) and (stop is None or len(GAME.view(state, None)["board"]) < stop):
        GAME.step(state, movers[0], p.choose(GAME, state, movers[0], rng))
    return state


def random_until(sets: int, marks: list[int]):
    """Yield (placed, state) of a seeded random 4-player match at each mark of placed tiles."""
    state = GAME.new_state(4, GAME.parse_options({"sets": sets}), 2024, None)
    rng = random.Random(7)
    placed = 1
    marks = sorted(marks)
    while marks and (movers := GAME.to_move(state)):
        legal = GAME.legal(state, movers[0])
        GAME.step(state, movers[0], legal[int(rng.random() * len(legal))])
        placed += 1
        if placed >= marks[0]:
            marks.pop(0)
            yield placed, state


def bench_state(tag: str, state, n: int, save: Path | None) -> None:
    t0 = time.perf_counter()
    pub = GAME.view(state, None)
    seat = (GAME.to_move(state) or (0,))[0]
    mine = GAME.view(state, seat)
    print(f"{tag}: {len(pub['board'])} tiles; engine view() {1000 * (time.perf_counter() - t0) / 2:.1f} ms each")
    board = run(f"  board {tag}", lambda: board_png(pub, NAMES[: len(pub['scores'])], "en"), n)
    if save:
        (save / f"carc_board_{tag}.png").write_bytes(board)
    if mine.get("legal"):
        hand = run(f"  hand  {tag}", lambda: hand_png(mine, None, "es"), n)
        p = mine["legal"][0]
        prev = run(f"  preview {tag}", lambda: preview_png(mine, None, "en", p["x"], p["y"], p["rot"], spots=p["meeples"]), n)
        if save:
            (save / f"carc_hand_{tag}.png").write_bytes(hand)
            (save / f"carc_preview_{tag}.png").write_bytes(prev)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=10)
    ap.add_argument("--sets", type=int, default=306)
    ap.add_argument("--save", type=Path, default=None, help="write the PNGs into this folder")
    args = ap.parse_args()
    if args.save:
        args.save.mkdir(parents=True, exist_ok=True)
    bench_state("40 tiles", greedy_match(40), args.n, args.save)
    bench_state("72 tiles (end)", greedy_match(), args.n, args.save)
    t0 = time.perf_counter()
    marks = [2000, 22000] if args.sets * 72 > 22000 else [2000]
    for placed, state in random_until(args.sets, marks):
        print(f"(random match reached {placed} tiles after {time.perf_counter() - t0:.1f} s)")
        bench_state(f"{placed} tiles", state, args.n, args.save)


if __name__ == "__main__":
    main()
