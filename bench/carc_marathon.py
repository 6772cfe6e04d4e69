"""Carcassonne levels on a marathon table: from a mid-game position of a big match, the rest played
by two levels; win rates with 95% confidence intervals, margins and decision times.

Per seed: a ``--sets``-set 2-player match is played by the greedy player up to ``--upto`` tiles
on the table (every decision seeded from the match seed and the action number, as the bot does),
then played out twice from that same position - A in seat 0, then A in seat 1 (B in the other) -
so each position counts once for each side and the lead at the position cancels out.

Two figures per pair of levels:
- "rest": who scored more from the position on (final score minus the score at the position,
  the final scoring included) - the part of the match the two levels played;
- "match": first place in the whole match (at ~900 of 1,008 tiles the lead is often decisive, so
  this one drifts to 50% for any pair of levels).
A shared first place (or an equal rest) counts half. No asserts - figures only.

    python bench/carc_marathon.py strong greedy --pairs 30 --seed 20000
    python bench/carc_marathon.py greedy greedy --pairs 30 --seed 20000   # the mirror
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.tournament import percentile, wilson  # noqa: E402
from engines import ai, registry  # noqa: E402
from engines.carcassonne.ai import ExpectimaxPlayer, GreedyPlayer  # noqa: E402
from engines.search import LEVEL_SECONDS  # noqa: E402


def position(game, sets: int, upto: int, seed: int):
    """The greedy self-play match of ``seed`` once ``upto`` tiles are on the table."""
    state = game.new_state(2, game.parse_options({"sets": sets}), seed, None)
    greedy = GreedyPlayer()
    k = 0
    while len(state.tt) < upto and (movers := game.to_move(state)):
        seat = movers[0]
        game.step(state, seat, greedy.choose(game, state, seat, random.Random(f"{seed}/{k}")))
        k += 1
    return state, k


def play_out(game, state, k0: int, seed: int, players: list, a_seat: int, times: list[float], its: list[int],
             cpu: list[float]):
    k = k0
    while movers := game.to_move(state):
        seat = movers[0]
        rng = random.Random(f"{seed}/{k}")
        t, c = time.perf_counter(), time.process_time()
        code = players[seat].choose(game, state, seat, rng)
        if seat == a_seat:
            times.append(time.perf_counter() - t)
            cpu.append(time.process_time() - c)
            stats = getattr(players[seat], "stats", None)
            if stats is not None and getattr(players[seat], "searching", False):
                its.append(stats.iterations)
        game.check(state, seat, code)
        game.step(state, seat, code)
        k += 1
    return game.result(state)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a", help="the kind measured")
    ap.add_argument("b", help="the kind it plays against")
    ap.add_argument("--pairs", type=int, default=30, help="positions (each played twice, seats swapped)")
    ap.add_argument("--sets", type=int, default=14)
    ap.add_argument("--upto", type=int, default=900, help="tiles on the table at the position")
    ap.add_argument("--seed", type=int, default=20000)
    ap.add_argument("--seconds", type=float, help="time budget per decision (default: the level's)")
    ap.add_argument("--iterations", type=int, help="iteration budget per decision (reproducible)")
    ap.add_argument("--prepass-share", type=float, help="A's share of the budget for its first look at every placement (tuning)")
    ap.add_argument("--progress", action="store_true", help="print a line per game")
    args = ap.parse_args()
    game = registry.get("carcassonne")
    rest_wins = match_wins = 0.0
    rest_margins: list[float] = []
    times: list[float] = []
    its: list[int] = []
    cpu: list[float] = []
    games = 0
    start = time.perf_counter()
    for g in range(args.pairs):
        seed = args.seed + g
        pos, k0 = position(game, args.sets, args.upto, seed)
        at = list(pos.scores)
        for a_seat in (0, 1):
            b_seat = 1 - a_seat
            players = [None, None]
            players[a_seat] = ai.player("carcassonne", args.a, seconds=args.seconds, iterations=args.iterations)
            if args.prepass_share is not None:
                players[a_seat] = ExpectimaxPlayer(seconds=args.seconds or LEVEL_SECONDS[args.a], iterations=args.iterations,
                                                   prepass_share=args.prepass_share)
            players[b_seat] = ai.player("carcassonne", args.b, seconds=args.seconds, iterations=args.iterations)
            res = play_out(game, game.clone(pos), k0, seed, players, a_seat, times, its, cpu)
            rest = (res.scores[a_seat] - at[a_seat]) - (res.scores[b_seat] - at[b_seat])
            rest_margins.append(rest)
            rest_wins += 1.0 if rest > 0 else 0.5 if rest == 0 else 0.0
            first = res.ranking[0]
            if a_seat in first:
                match_wins += 1.0 / len(first)
            games += 1
            if args.progress:
                print(f"  seed {seed} A in seat {a_seat}: at {len(pos.tt)} tiles {at}, final {list(res.scores)}, "
                      f"rest margin {rest:+d}; rest wins {rest_wins:g}/{games}", flush=True)
    times.sort()
    cpu.sort()
    rlo, rhi = wilson(rest_wins, games)
    mlo, mhi = wilson(match_wins, games)
    budget = f"iterations={args.iterations}" if args.iterations else f"seconds={args.seconds}" if args.seconds else "level default"
    print(
        f"carcassonne 2p sets={args.sets} from {args.upto} tiles, {args.a} vs {args.b} ({budget}), "
        f"seeds {args.seed}-{args.seed + args.pairs - 1}, {games} games: "
        f"rest won {rest_wins:g}/{games} = {rest_wins / games:.0%} (95% CI {rlo:.0%}-{rhi:.0%}), "
        f"mean rest margin {sum(rest_margins) / games:+.1f}; "
        f"match first {match_wins:g}/{games} = {match_wins / games:.0%} (95% CI {mlo:.0%}-{mhi:.0%}); "
        f"A decision p50 {percentile(times, 0.5) * 1000:.0f} ms p99 {percentile(times, 0.99) * 1000:.0f} ms "
        f"max {times[-1] * 1000:.0f} ms (CPU p50 {percentile(cpu, 0.5) * 1000:.0f} ms p99 {percentile(cpu, 0.99) * 1000:.0f} ms) "
        f"over {len(times)} decisions"
        + (f" (median {percentile(sorted(its), 0.5):.0f} placements looked at)" if its else "")
        + f"; {time.perf_counter() - start:.0f} s, load average {os.getloadavg()[0]:.1f}"
    )


if __name__ == "__main__":
    main()
