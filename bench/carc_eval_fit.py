"""Fit the weights of the Carcassonne evaluation (engines/carcassonne/ai.py, ``Evaluator``) on
greedy-vs-greedy matches: at sampled positions, the terms of each seat's expected final score;
least squares of the final margin still to come on the difference of the terms, early and late.

    python bench/carc_eval_fit.py --matches 300 --seed 70000
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engines.carcassonne import GAME  # noqa: E402
from engines.carcassonne.ai import NAMES, NTERMS, WEIGHTS, Evaluator, GreedyPlayer  # noqa: E402


def solve(a: list[list[float]], b: list[float]) -> list[float]:
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        piv = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[piv] = m[piv], m[c]
        for r in range(n):
            if r != c and m[c][c]:
                f = m[r][c] / m[c][c]
                for k in range(c, n + 1):
                    m[r][k] -= f * m[c][k]
    return [m[i][n] / m[i][i] if m[i][i] else 0.0 for i in range(n)]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--matches", type=int, default=300)
    ap.add_argument("--seed", type=int, default=70000)
    ap.add_argument("--every", type=int, default=3)
    ap.add_argument("--ridge", type=float, default=1.0)
    ap.add_argument("--own-share", type=float, default=0.55, help="Evaluator's own_share")
    args = ap.parse_args()
    rows, ys = [], []
    for g in range(args.matches):
        st = GAME.new_state(2, GAME.parse_options({}), args.seed + g, None)
        p = GreedyPlayer()
        rng = random.Random(g)
        samples = []
        k = 0
        while GAME.to_move(st):
            seat = GAME.to_move(st)[0]
            if k % args.every == g % args.every:
                left = len(st.pile)
                ev = Evaluator(sorted(st.pile), 2, own_share=args.own_share)
                comp = ev.components(GAME, st, left)
                late = 1.0 - min(1.0, left / 71.0)
                samples.append((list(st.scores), comp, late))
            GAME.step(st, seat, p.choose(GAME, st, seat, rng))
            k += 1
        final = st.scores
        for scores, comp, late in samples:
            for a in (0, 1):
                o = 1 - a
                d = [comp[a][t] - comp[o][t] for t in range(NTERMS)]
                rows.append(d + [x * late for x in d])
                ys.append((final[a] - final[o]) - (scores[a] - scores[o]))
    m = 2 * NTERMS
    ata = [[sum(r[i] * r[j] for r in rows) for j in range(m)] for i in range(m)]
    for i in range(m):
        ata[i][i] += args.ridge
    atb = [sum(r[i] * y for r, y in zip(rows, ys, strict=True)) for i in range(m)]
    w = solve(ata, atb)

    def sse(weights):
        return sum((y - sum(wi * xi for wi, xi in zip(weights, r, strict=True))) ** 2 for r, y in zip(rows, ys, strict=True)) / len(ys)

    cur = list(WEIGHTS[0]) + list(WEIGHTS[1])
    print(f"{len(ys)} samples; mean sq. error: zero {sse([0.0] * m):.1f}, current {sse(cur):.1f}, fitted {sse(w):.1f}")
    for t in range(NTERMS):
        print(f"  {NAMES[t]:12s} early {w[t]:+.2f}  late change {w[NTERMS + t]:+.2f}")
    print("WEIGHTS = (")
    print("    (" + ", ".join(f"{x:.2f}" for x in w[:NTERMS]) + "),")
    print("    (" + ", ".join(f"{x:.2f}" for x in w[NTERMS:]) + "),")
    print(")")


if __name__ == "__main__":
    main()
