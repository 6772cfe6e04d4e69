"""Cities figures, printed (no asserts): random playouts per second, the heuristic AI against
random players, and balance statistics of Partida's own component set from AI self-play.

    python bench/cities.py [--seconds 3] [--duel 200] [--balance 40] [--skip-balance]

* playouts: fresh seeded matches where every seat picks uniformly among its legal actions
  (legal, step, to_move: the calls the bot and the AI make), per configuration;
* duel: heuristic against random, 2 players, seats alternating; and one heuristic among three
  random players;
* balance: heuristic self-play, 4 and 2 players: per scoring card its points per holder and how
  often it was taken when offered face up; per achievement how often it was claimed; per starting
  tile and per seat (turn order) the win rate; the share of points by source. "taken at take #"
  is when in its round a face-up card was taken on average (1 = the round's first take): early
  means the AI wanted it.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engines import registry  # noqa: E402
from engines.ai import RandomPlayer, play_out  # noqa: E402
from engines.cities import ROW_A  # noqa: E402
from engines.cities.ai import CitiesSearch, HeuristicPlayer, StrongPlayer  # noqa: E402
from engines.cities.components import ACHIEVEMENTS, BOARDS, CARD_IDS, TILE_IDS  # noqa: E402
from engines.search import ISMCTS  # noqa: E402

GAME = registry.get("cities")
CONFIGS = [("4 players", 4, {}), ("3 players", 3, {}), ("2 players", 2, {}), ("2 players, long", 2, {"long": True})]


def playout(seats: int, options, seed: int, rng: random.Random) -> int:
    state = GAME.new_state(seats, options, seed, None)
    legal, step, to_move = GAME.legal, GAME.step, GAME.to_move
    rnd = rng.random
    steps = 0
    while movers := to_move(state):
        seat = movers[0]
        actions = legal(state, seat)
        step(state, seat, actions[int(rnd() * len(actions))])
        steps += 1
    return steps


def bench_playouts(seconds: float) -> None:
    # games per CPU second (process time) is what one free core does; the wall-clock rate also
    # counts time lost to other processes on a shared machine
    print(f"{'random playouts':<22} {'games/s':>8} {'games/cpu-s':>12} {'actions/cpu-s':>14} {'actions/game':>13}")
    for label, seats, raw in CONFIGS:
        options = GAME.parse_options(raw)
        rng = random.Random(1)
        games = steps = 0
        start, cpu0 = time.perf_counter(), time.process_time()
        while (elapsed := time.perf_counter() - start) < seconds:
            steps += playout(seats, options, games, rng)
            games += 1
        cpu = time.process_time() - cpu0
        print(f"{label:<22} {games / elapsed:>8.0f} {games / cpu:>12.0f} {steps / cpu:>14.0f} {steps / games:>13.0f}")


def duel(games: int) -> None:
    options = GAME.parse_options({})
    wins = ties = 0
    margins = []
    start = time.perf_counter()
    for seed in range(games):
        state = GAME.new_state(2, options, seed, None)
        h = seed % 2
        players = [None, None]
        players[h], players[1 - h] = HeuristicPlayer(), RandomPlayer()
        play_out(GAME, state, players, random.Random(seed))
        res = GAME.result(state)
        wins += res.ranking[0] == (h,)
        ties += len(res.ranking[0]) > 1
        margins.append(res.scores[h] - res.scores[1 - h])
    took = time.perf_counter() - start
    print(f"\nheuristic vs random, 2 players: won {wins}/{games} ({100 * wins / games:.1f}%), shared {ties}, "
          f"mean margin {statistics.mean(margins):+.1f} VP ({took / games:.2f} s/game)")
    wins = 0
    n4 = max(1, games // 4)
    for seed in range(n4):
        state = GAME.new_state(4, options, seed, None)
        h = seed % 4
        players = [RandomPlayer() for _ in range(4)]
        players[h] = HeuristicPlayer()
        play_out(GAME, state, players, random.Random(seed))
        wins += h in GAME.result(state).ranking[0]
    print(f"one heuristic among 3 random, 4 players: first {wins}/{n4} ({100 * wins / n4:.1f}%)")


def balance(games: int, seats: int) -> None:
    options = GAME.parse_options({})
    card_points: dict[str, list[int]] = defaultdict(list)
    card_pick: dict[str, list[int]] = defaultdict(list)  # when in the round a face-up card was taken
    ach_claims: dict[str, int] = defaultdict(int)
    ach_games: dict[str, int] = defaultdict(int)
    start_wins: dict[str, list[int]] = defaultdict(list)
    order_wins = [0.0] * seats
    sources: dict[str, int] = defaultdict(int)
    totals = []
    t0 = time.perf_counter()
    for seed in range(games):
        state = GAME.new_state(seats, options, 10_000 + seed, None)
        players = [HeuristicPlayer() for _ in range(seats)]
        rng = random.Random(seed)
        seen_round, takes = -1, 0
        while GAME.to_move(state):
            if state.round != seen_round:
                seen_round, takes = state.round, 0
            seat = GAME.to_move(state)[0]
            code = players[seat].choose(GAME, state, seat, rng)
            if code[0] == "take":
                if code[1] == ROW_A and code[2] < 3:
                    card_pick[CARD_IDS[state.rows[ROW_A][code[2]][0]]].append(takes)
                takes += 1
            GAME.step(state, seat, code)
        res = GAME.result(state)
        winners = res.ranking[0]
        b = res.details["breakdown"]
        for p in range(seats):
            for cid, pts in b[p]["per_card"].items():
                card_points[cid].append(pts)
            for key in ("achievements", "cards", "water", "park", "monuments"):
                sources[key] += b[p][key]
            totals.append(b[p]["total"])
            start = TILE_IDS[state.hoods[p].tiles[0][0]]
            start_wins[start].append(1 if p in winners else 0)
            # order: 0 = the first player of the match
            order_wins[(p - state.first) % seats] += 1 / len(winners) if p in winners else 0
        board = BOARDS[state.board]
        for k, a in enumerate(board["achievements"]):
            ach_games[a["id"]] += 1
            ach_claims[a["id"]] += sum(1 for w in state.rings[k] if w >= 0)
    took = time.perf_counter() - t0
    print(f"\nbalance: {games} heuristic self-play games, {seats} players ({took / games:.2f} s/game); "
          f"mean score {statistics.mean(totals):.1f}, stdev {statistics.pstdev(totals):.1f}")
    total = sum(sources.values()) or 1
    print("points by source: " + ", ".join(f"{k} {100 * v / total:.0f}%" for k, v in sources.items()))
    print("seat order win share: " + ", ".join(f"{i + 1}: {100 * w / games:.0f}%" for i, w in enumerate(order_wins)))
    print("starting tile win rate: " + ", ".join(
        f"{t} {100 * statistics.mean(w):.0f}% ({len(w)})" for t, w in sorted(start_wins.items())))
    print(f"\n{'scoring card':<20} {'VP/holder':>9} {'max':>4} {'held':>5} {'taken at take #':>16}")
    rows = []
    for cid in CARD_IDS:
        pts = card_points.get(cid, [])
        mean = statistics.mean(pts) if pts else 0.0
        pick = card_pick.get(cid)
        rows.append((mean, cid, max(pts) if pts else 0, len(pts), statistics.mean(pick) + 1 if pick else None))
    for mean, cid, mx, held, pick in sorted(rows, reverse=True):
        when = f"{pick:.1f}" if pick is not None else "-"
        print(f"{cid:<20} {mean:>9.1f} {mx:>4} {held:>5} {when:>16}")
    means = [r[0] for r in rows if r[3]]
    if means:
        print(f"card VP/holder: median {statistics.median(means):.1f}, spread {min(means):.1f}-{max(means):.1f}")
    print(f"\n{'achievement':<26} {'rings/game':>10} {'games':>6}")
    for aid in ACHIEVEMENTS:
        g = ach_games.get(aid, 0)
        if g:
            print(f"{aid:<26} {ach_claims[aid] / g:>10.2f} {g:>6}")


def bench_search(positions: int, seconds: float) -> None:
    """Work per second of a take decision, interleaved on the same positions (heuristic self-play,
    2 and 4 players): the former levels' ISMCTS (every seat plays one more turn through the engine,
    random takes, heuristic placements) against the draft rollouts of the levels (issue 22)."""
    print(f"\ntake decisions, {seconds} s each, {positions} positions per player count")
    for seats in (2, 4):
        former, draft = [], []
        for g in range(positions):
            state = GAME.new_state(seats, GAME.parse_options({}), 90_000 + g, None)
            p, rng = HeuristicPlayer(), random.Random(g)
            target = 8 + 5 * g
            while GAME.to_move(state) and (state.turns < target or state.phase != 1):
                seat = GAME.to_move(state)[0]
                GAME.step(state, seat, p.choose(GAME, state, seat, rng))
            seat = GAME.to_move(state)[0]
            old = ISMCTS(CitiesSearch(fitted=False), seconds=seconds, prior_weight=8.0, depth=1)
            old.choose(GAME, state, seat, random.Random(1))
            former.append(old.stats.iterations / old.stats.seconds)
            new = StrongPlayer(seconds=seconds)
            new.choose(GAME, state, seat, random.Random(1))
            draft.append(new.stats.iterations / new.stats.seconds)
        print(f"{seats} players: former playouts {statistics.median(former):.0f}/s, "
              f"draft rollouts {statistics.median(draft):.0f}/s (medians)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--duel", type=int, default=200, help="heuristic vs random 2-player games")
    ap.add_argument("--balance", type=int, default=40, help="heuristic self-play games per player count")
    ap.add_argument("--skip-balance", action="store_true")
    ap.add_argument("--search", type=int, default=0, help="take positions for the search speed figures")
    args = ap.parse_args()
    if args.search:
        bench_search(args.search, 0.3)
        return
    bench_playouts(args.seconds)
    if args.duel:
        duel(args.duel)
    if not args.skip_balance and args.balance:
        balance(args.balance, 4)
        balance(args.balance, 2)


if __name__ == "__main__":
    main()
