"""Lost Cities endgames: strong-level variants finish the same late positions against normal.

Screening aid for issue 22 (the ``endgame`` option of PairedLostCitiesSearch): a change that acts
only near the end of a round is measured faster on the ends of rounds than on whole matches.
For each seed, a 2-player, 3-round match is played by cheap searches (the normal level's tree
with ``--reach`` iterations a decision, seeded) and a snapshot taken in every round when the deck
first holds ``--deck`` cards or fewer at a seat's play phase. From each snapshot every variant
(as seat A = the seat to move there) finishes the round against the normal level (0.1 s), with
the same seeded random numbers per action as bench/tournament.py; the result is A's value at the
end of the round (the searches' win chance from the totals) and A's point margin of the round.
The variants are compared pair by pair with the first one, on the same snapshots (paired means
and standard errors).

    nice -n 10 taskset -c 0 .venv/bin/python bench/lost_cities_endgame.py --seed 5000 --seeds 50 \
        --variant committed='{}' --variant eg3='{"endgame": 3}'

Variants are keyword options of PairedLostCitiesSearch (the strong level's 0.3 s unless set), and
``"cheat": D`` (a diagnostic, a ceiling): with D cards or fewer in the deck, A sees the true
state - the other hand and the deck order - and plays the exact solver's best action
(engines/lost_cities/endgame.py, ``cheat_stalls`` pile draws, default 1), the strong level
before that; ``"seehand": true`` (another ceiling): the strong search with the other hand
shown to it (every deal gives the other seat its true hand; only the deck order is sampled).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engines import registry  # noqa: E402
from engines.lost_cities import DRAW_DECK, endgame, fast  # noqa: E402
from engines.lost_cities.ai import NormalPlayer, PairedLostCitiesSearch  # noqa: E402
from engines.search import LEVEL_SECONDS  # noqa: E402


class Cheat:
    """A diagnostic player: the strong search, and with ``deck`` cards or fewer left the exact
    solver's best action on the true state (it sees the other hand and the deck order)."""

    def __init__(self, deck: int, stalls: int = 1, **opts) -> None:
        self.deck = deck
        self.stalls = stalls
        self.strong = PairedLostCitiesSearch(**opts)

    def choose(self, game, state, seat, rng):
        view = game.view(state, seat)
        if view["deck"] > self.deck:
            return self.strong.choose(game, state, seat, rng)
        s = fast.from_state(state)
        values = endgame.Solver(seat, self.stalls, memo=False).root_values(s)
        best = max(values.values())
        legal = game.legal(state, seat)
        for a in ([DRAW_DECK] if DRAW_DECK in values else []) + legal:  # ties: the deck, then the first
            if values.get(a) == best:
                return a
        raise AssertionError("no action")


class SeeHand(PairedLostCitiesSearch):
    """A diagnostic: the strong search dealing the other seat its true hand (``remember`` fed
    with the whole hand instead of the cards seen taken)."""

    def __init__(self, **opts) -> None:
        super().__init__(remember=True, **opts)

    def choose(self, game, state, seat, rng):
        view = game.view(state, seat)
        other = game.view(state, 1 - seat)["hand"]
        known = [[], []]
        known[1 - seat] = list(other)
        view["known"] = known
        return self.search(game, view, game.legal(state, seat), seat, rng)


def snapshots(game, seed: int, deck: int, reach: int) -> list:
    """The match's late positions: one per round, at the first play phase with ``deck`` or fewer cards left."""
    state = game.new_state(2, game.parse_options({"rounds": 3}), seed, None)
    players = [NormalPlayer(seconds=None, iterations=reach) for _ in (0, 1)]
    out = []
    taken_round = -1
    k = 0
    while movers := game.to_move(state):
        seat = movers[0]
        view = game.view(state, seat)
        if view["phase"] == "play" and view["deck"] <= deck and view["round"] != taken_round:
            out.append(game.clone(state))
            taken_round = view["round"]
        code = players[seat].choose(game, state, seat, random.Random(f"{seed}/reach/{k}"))
        game.step(state, seat, code)
        k += 1
    return out


def finish(game, state, a_player, seed: int, idx: int) -> tuple[float, int, list[float]]:
    """Play the round out from ``state``: seat to move = A, the other seat normal (0.1 s). Returns A's
    value and point margin at the end of the round and A's decision times."""
    state = game.clone(state)
    a_seat = game.to_move(state)[0]
    b = NormalPlayer()
    start_round = game.view(state, None)["round"]
    times = []
    k = 0
    while movers := game.to_move(state):
        view = game.view(state, None)
        if view["round"] != start_round:
            break
        seat = movers[0]
        rng = random.Random(f"{seed}/{idx}/{k}")
        t = time.perf_counter()
        code = (a_player if seat == a_seat else b).choose(game, state, seat, rng)
        if seat == a_seat:
            times.append(time.perf_counter() - t)
        game.step(state, seat, code)
        k += 1
        if k > 400:
            break
    view = game.view(state, None)
    rs = view["round_scores"]
    last = rs[-1]
    margin = last[a_seat] - last[1 - a_seat]
    t = [sum(r[p] for r in rs) for p in (0, 1)]
    left = view["rounds"] - len(rs)
    scale = 6.0 + 25.0 * math.sqrt(left)
    value = 1.0 / (1.0 + math.exp(-(t[a_seat] - t[1 - a_seat]) / scale))
    return value, margin, times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=5000)
    ap.add_argument("--seeds", type=int, default=50)
    ap.add_argument("--deck", type=int, default=6, help="snapshot when the deck first has this many cards or fewer")
    ap.add_argument("--reach", type=int, default=100, help="iterations a decision of the searches that reach the snapshots")
    ap.add_argument("--variant", action="append", default=[], metavar="NAME=JSON")
    args = ap.parse_args()
    game = registry.get("lost-cities")
    variants = []
    for v in args.variant or ["committed={}"]:
        name, _, raw = v.partition("=")
        variants.append((name, json.loads(raw or "{}")))
    print(f"# {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, cores {sorted(os.sched_getaffinity(0))}, load "
          + " ".join(f"{x:.1f}" for x in os.getloadavg()), flush=True)
    res: dict[str, list[tuple[float, int]]] = {n: [] for n, _ in variants}
    times: dict[str, list[float]] = {n: [] for n, _ in variants}
    idx = 0
    for seed in range(args.seed, args.seed + args.seeds):
        for st in snapshots(game, seed, args.deck, args.reach):
            line = []
            for name, opts in variants:
                opts = dict(opts)
                opts.setdefault("seconds", LEVEL_SECONDS["strong"])
                if opts.pop("seehand", False):
                    player = SeeHand(**opts)
                elif "cheat" in opts:
                    deck = opts.pop("cheat")
                    player = Cheat(deck, opts.pop("cheat_stalls", 1), **opts)
                else:
                    player = PairedLostCitiesSearch(**opts, name=name)
                v, m, ts = finish(game, st, player, seed, idx)
                res[name].append((v, m))
                times[name].extend(ts)
                line.append(f"{name} {v:.3f} {m:+d}")
            idx += 1
            print(f"  seed {seed} pos {idx}: " + ", ".join(line), flush=True)
    base = variants[0][0]
    n = len(res[base])
    for name, _ in variants:
        vs = res[name]
        ts = sorted(times[name])
        p50 = ts[len(ts) // 2] * 1000 if ts else float("nan")
        p99 = ts[min(len(ts) - 1, math.ceil(0.99 * len(ts)) - 1)] * 1000 if ts else float("nan")
        mv = sum(v for v, _ in vs) / n
        mm = sum(m for _, m in vs) / n
        extra = ""
        if name != base:
            dv = [vs[i][0] - res[base][i][0] for i in range(n)]
            dm = [vs[i][1] - res[base][i][1] for i in range(n)]

            def se(d):
                mu = sum(d) / n
                return math.sqrt(sum((x - mu) ** 2 for x in d) / max(n - 1, 1) / n)

            better = sum(1 for x in dm if x > 0)
            worse = sum(1 for x in dm if x < 0)
            extra = (f"; vs {base}: value {sum(dv) / n:+.4f} (se {se(dv):.4f}), margin {sum(dm) / n:+.2f} (se {se(dm):.2f}),"
                     f" margin better in {better}, worse in {worse} of {n}")
        print(f"{name}: {n} positions, mean value {mv:.4f}, mean margin {mm:+.2f}, A decisions p50/p99 {p50:.0f}/{p99:.0f} ms"
              f" over {len(ts)}{extra}", flush=True)


if __name__ == "__main__":
    main()
