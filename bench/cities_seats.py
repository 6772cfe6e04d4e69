"""Cities turn order: per seat order (1 = the match's first player, n = the one to its right, who
picks the starting tile first) the win share with its 95% interval, the mean score and points by
source, how many rounds it opened (held the star), its start-tile pick and its mean take position
in a round - from self-play of one kind of player (figures only).

    python bench/cities_seats.py --seats 4 --matches 300 --seed 20000 [--player heuristic]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engines import ai  # noqa: E402
from engines.cities import GAME, TAKE  # noqa: E402
from engines.cities.ai import HeuristicPlayer  # noqa: E402
from engines.cities.components import TILE_IDS  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from tournament import wilson  # noqa: E402


class RandomStart(HeuristicPlayer):
    """The heuristic, but its starting tile drawn at random among those left (the heuristic takes
    the first one offered, so with it seat order and starting tile always go together)."""

    def choose(self, game, state, seat, rng):  # noqa: ANN001, ANN201
        legal = game.legal(state, seat)
        if legal[0][0] == "start":
            return legal[int(rng.random() * len(legal))]
        return super().choose(game, state, seat, rng)


def star_valued(base: type, constant: float, bonus: float) -> type:
    """The heuristic with another value for the star slot (an experiment on the AI, not the rules)."""
    return type("StarValued", (base,), {"STAR": (constant, bonus)})


SOURCES = ("achievements", "cards", "water", "park", "monuments", "total")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seats", type=int, default=4)
    ap.add_argument("--matches", type=int, default=300)
    ap.add_argument("--seed", type=int, default=20000)
    ap.add_argument("--player", default="heuristic")
    ap.add_argument("--iterations", type=int)
    ap.add_argument("--random-start", action="store_true", help="heuristic players drawing their starting tile at random")
    ap.add_argument("--star", help="heuristic only: the star slot's value 'constant,bonus' (the AI's is 1.2,0.4)")
    args = ap.parse_args()
    n = args.seats
    wins = [0.0] * n
    pts: list[dict[str, list[int]]] = [{k: [] for k in SOURCES} for _ in range(n)]
    opened = [0] * n
    take_pos: list[list[int]] = [[] for _ in range(n)]
    star_slot = [0] * n
    start_of: list[list[str]] = [[] for _ in range(n)]  # per order: the starting tile it picked
    start_won: dict[str, list[float]] = {}
    t0 = time.perf_counter()
    for g in range(args.matches):
        st = GAME.new_state(n, GAME.parse_options({}), args.seed + g, None)
        players = [ai.player("cities", args.player, iterations=args.iterations) for _ in range(n)]
        if args.random_start:
            players = [RandomStart() for _ in range(n)]
        if args.star:
            cls = star_valued(RandomStart if args.random_start else HeuristicPlayer, *map(float, args.star.split(",")))
            players = [cls() for _ in range(n)]
        first = st.first
        order = [(p - first) % n for p in range(n)]  # 0 = first player
        k = 0
        seen_round, pos = -1, 0
        while movers := GAME.to_move(st):
            seat = movers[0]
            if st.round != seen_round and st.phase == TAKE:
                seen_round, pos = st.round, 0
                opened[order[st.star]] += 1
            code = players[seat].choose(GAME, st, seat, random.Random(f"{args.seed + g}/{k}"))
            if code[0] == "take":
                take_pos[order[seat]].append(pos)
                pos += 1
                if code[1] == 3 and code[2] == 3:
                    star_slot[order[seat]] += 1
            GAME.step(st, seat, code)
            k += 1
        res = GAME.result(st)
        top = res.ranking[0]
        for p in range(n):
            o = order[p]
            if p in top:
                wins[o] += 1 / len(top)
            tile = TILE_IDS[st.hoods[p].tiles[0][0]]
            start_of[o].append(tile)
            start_won.setdefault(tile, []).append(1 / len(top) if p in top else 0.0)
            b = res.details["breakdown"][p]
            for key in SOURCES:
                pts[o][key].append(b[key])
    took = time.perf_counter() - t0
    m = args.matches
    who = f"heuristic, star slot valued {args.star}" if args.star else "heuristic" if args.random_start else args.player
    if args.random_start:
        who += " (random starting tile)"
    print(f"{m} {who} self-play matches, {n} players, seeds {args.seed}-{args.seed + m - 1} ({took / m:.2f} s/match)")
    print(f"{'order':>5} {'wins':>7} {'share':>6} {'95% CI':>10} {'score':>6} " + " ".join(f"{k[:5]:>6}" for k in SOURCES[:-1])
          + f" {'opened':>7} {'star slot':>9} {'take pos':>8}")
    for o in range(n):
        lo, hi = wilson(wins[o], m)
        print(f"{o + 1:>5} {wins[o]:>7g} {wins[o] / m:>6.0%} {lo:>4.0%}-{hi:<4.0%} {statistics.mean(pts[o]['total']):>6.1f} "
              + " ".join(f"{statistics.mean(pts[o][k]):>6.1f}" for k in SOURCES[:-1])
              + f" {opened[o] / m:>7.2f} {star_slot[o] / m:>9.2f} {statistics.mean(take_pos[o]) + 1:>8.2f}")
    rate = {t: statistics.mean(w) for t, w in start_won.items()}
    print("starting tile win share: " + ", ".join(f"{t} {rate[t]:.0%} ({len(start_won[t])})" for t in sorted(rate)))
    for o in range(n):
        mix = ", ".join(f"{t} {start_of[o].count(t)}" for t in sorted(rate))
        exp = statistics.mean(rate[t] for t in start_of[o])
        print(f"order {o + 1} picked: {mix}; the win share its tiles have over all seats: {exp:.0%}")


if __name__ == "__main__":
    main()
