"""Fit the weights of the Cities evaluation (engines/cities/ai.py, ``WEIGHTS``) on heuristic
self-play: at sampled take decisions, each seat's points now and the terms of what its
neighbourhood may still become; least squares (ridge) of the points each seat still scored by the
end - relative to the other seats - on the same difference of the terms, early and late.

    python bench/cities_eval_fit.py --seats 2 --matches 300 --seed 40000

Prints the mean squared error of the heuristic's own weights and of the fitted ones (on the
fitting positions and on held-out matches) and the fitted ``WEIGHTS`` row.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engines.cities import GAME  # noqa: E402
from engines.cities.ai import NAMES, NTERMS, WEIGHTS, HeuristicPlayer, _TableContext, now_and_terms  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from carc_eval_fit import solve  # noqa: E402


def samples(seats: int, matches: int, seed: int, every: int) -> tuple[list[list[float]], list[float]]:
    rows, ys = [], []
    for g in range(matches):
        st = GAME.new_state(seats, GAME.parse_options({}), seed + g, None)
        p = HeuristicPlayer()
        rng = random.Random(seed + g)
        taken = []
        k = 0
        while GAME.to_move(st):
            seat = GAME.to_move(st)[0]
            if st.phase == 1 and k % every == g % every:  # a take decision
                ach = GAME.achievement_points(st)
                per = []
                late = 0.0
                for q in range(seats):
                    ctx = _TableContext(st, q)
                    now, terms = now_and_terms(st.hoods[q], ctx.cards, ctx.open, 15 if st.long else 9, ctx.rounds_left)
                    per.append((ach[q] + now, terms))
                    late = ctx.late
                taken.append((per, late))
            GAME.step(st, seat, p.choose(GAME, st, seat, rng))
            k += 1
        final = GAME.scores(st)
        for per, late in taken:
            for a in range(seats):
                others = [q for q in range(seats) if q != a]
                m = len(others)
                d = [per[a][1][t] - sum(per[q][1][t] for q in others) / m for t in range(NTERMS)]
                y = (final[a] - per[a][0]) - sum(final[q] - per[q][0] for q in others) / m
                rows.append(d + [x * late for x in d])
                ys.append(y)
    return rows, ys


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seats", type=int, default=2)
    ap.add_argument("--matches", type=int, default=300)
    ap.add_argument("--seed", type=int, default=40000)
    ap.add_argument("--held-out", type=int, default=60, help="matches after the fitting ones, for the check")
    ap.add_argument("--every", type=int, default=2)
    ap.add_argument("--ridge", type=float, default=1.0)
    args = ap.parse_args()
    rows, ys = samples(args.seats, args.matches, args.seed, args.every)
    test_rows, test_ys = samples(args.seats, args.held_out, args.seed + args.matches, args.every)
    m = 2 * NTERMS
    ata = [[sum(r[i] * r[j] for r in rows) for j in range(m)] for i in range(m)]
    for i in range(m):
        ata[i][i] += args.ridge
    atb = [sum(r[i] * y for r, y in zip(rows, ys, strict=True)) for i in range(m)]
    w = solve(ata, atb)

    def mse(weights, rs, ys_):
        return sum((y - sum(wi * xi for wi, xi in zip(weights, r, strict=True))) ** 2 for r, y in zip(rs, ys_, strict=True)) / len(ys_)

    key = 2 if args.seats == 2 else 4
    cur = list(WEIGHTS[key][0]) + list(WEIGHTS[key][1])
    heur = [0.3, 0.8, 0.35, 0.08, 0, 0, 0, 0, -0.8, 0, -0.08, 0, 0, 0]
    print(f"{args.seats} seats: {len(ys)} samples ({args.matches} matches), held out {len(test_ys)} ({args.held_out})")
    for label, wts in (("zero", [0.0] * m), ("heuristic", heur), ("current", cur), ("fitted", w)):
        print(f"  mean sq. error {label:9s}: fit {mse(wts, rows, ys):7.1f}  held out {mse(wts, test_rows, test_ys):7.1f}")
    for t in range(NTERMS):
        print(f"  {NAMES[t]:22s} early {w[t]:+.3f}  late change {w[NTERMS + t]:+.3f}")
    print(f"    {key}: (")
    print("        (" + ", ".join(f"{x:.3f}" for x in w[:NTERMS]) + "),")
    print("        (" + ", ".join(f"{x:.3f}" for x in w[NTERMS:]) + "),")
    print("    ),")


if __name__ == "__main__":
    main()
