"""Lost Cities: how much do the other seat's moves tell about its hand? Figures only.

A diagnostic for issue 22. The strong level deals the hidden hand uniformly from the unseen cards;
shown the true hand it beats normal far more often (bench/lost_cities_endgame.py, "seehand"). This
measures whether the moves the other seat made this round could close part of that gap: each deal
of its hand is weighted by how likely its play decisions of the round were under a model of it,
P(move | hand) = (1 - eps) [the playout policy picks the move] + eps / (legal moves), with its hand
before each turn rebuilt backwards from the dealt one (the played card back in, the drawn card
out: a pile draw's card is known, a deck draw's is one of the hand's other cards at random).

Positions: seeded 2-player, 3-round matches between two normal searches (``--reach`` iterations a
decision), at every play decision that follows the other seat's turn. For each, ``--deals``
deals; printed per model: the weighted share of the other hand's unseen cards a deal gets right
(uniform deals: the chance level; the true hand: 1.0), the log-loss per position of the per-card
probabilities, and the effective sample size as a share of the deals. ``--turns 1``: only the
other seat's last turn as evidence.

    nice -n 10 taskset -c 0 .venv/bin/python bench/lost_cities_inference.py --seed 7300 --seeds 5
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engines import registry  # noqa: E402
from engines.lost_cities import CARD_IDS, CARD_NAMES, COLOUR_OF, DISCARD, DRAW_DECK, DRAW_PILE, SLOTS  # noqa: E402
from engines.lost_cities.ai import LostCitiesSearch, NormalPlayer, _starters, deal  # noqa: E402


def positions(game, seed: int, reach: int) -> list:
    """(view of the seat to play, the other hand's cards, the round's moves so far) after each of
    the other seat's turns; the moves as (seat, phase, code)."""
    state = game.new_state(2, game.parse_options({"rounds": 3}), seed, None)
    players = [NormalPlayer(seconds=None, iterations=reach) for _ in (0, 1)]
    out, moves, rnd, k = [], [], 1, 0
    while movers := game.to_move(state):
        seat = movers[0]
        view = game.view(state, seat)
        if view["round"] != rnd:
            moves, rnd = [], view["round"]
        if view["phase"] == "play" and view["last"] and view["last"]["seat"] != seat:
            out.append((view, [CARD_NAMES[d - DISCARD] for d in state.dh[1 - seat]], list(moves)))
        code = players[seat].choose(game, state, seat, random.Random(f"{seed}/{k}"))
        moves.append((seat, view["phase"], code))
        game.step(state, seat, code)
        k += 1
    return out


def turns(game, view: dict, seat: int, moves: list) -> list:
    """The other seat's turns this round, replayed from the moves: per turn the state before its
    play (its hand empty), its play code, the card, and the card it then took from a pile (None: the deck)."""
    ncol = len(view["colours"])
    opp = 1 - seat
    exps = [[[] for _ in range(ncol)] for _ in (0, 1)]
    piles = [[] for _ in range(ncol)]
    dn = ncol * SLOTS - 16
    out: list = []
    for who, phase, code in moves:
        if phase == "play":
            if who == opp:
                b = game.load({
                    "colours": ncol, "rounds": view["rounds"], "round": view["round"] - 1, "hands": [[], []],
                    "exps": [[[CARD_NAMES[c] for c in e] for e in exps[p]] for p in (0, 1)],
                    "piles": [[CARD_NAMES[c] for c in p] for p in piles], "deck_top_last": [], "turn": opp,
                    "phase": "play", "just": -1, "round_scores": view["round_scores"],
                    "starters": _starters(view["round_scores"], len(view["round_scores"])),
                    "rng": {"seed": 0, "n": 0}, "setup": None, "last": None})
                b.dn = dn
                out.append([b, code, code % DISCARD, None])
            c = code % DISCARD
            (exps[who][COLOUR_OF[c]] if code < DISCARD else piles[COLOUR_OF[c]]).append(c)
        elif code == DRAW_DECK:
            dn -= 1
        else:
            c = piles[code - DRAW_PILE].pop()
            if who == opp:
                out[-1][3] = c
    return out


def weigh(search: LostCitiesSearch, game, view: dict, seat: int, moves: list, deals: int, eps: float | None,
          last: int, rng: random.Random) -> tuple[list, list[float], list[int], list[int], int]:
    """``deals`` uniform deals of the other hand and each one's weight (all 1 when ``eps`` is None)."""
    _, unknown, known, n = search.hidden(game, view, seat)
    ts = turns(game, view, seat, moves)[-last:] if eps is not None else []
    opp = 1 - seat
    from_piles = {t[3] for t in ts if t[3] is not None}
    hands, weights = [], []
    search.epsilon = 0.0
    for _ in range(deals):
        dealt, _ = deal(rng, unknown, n, None)
        hand = known + dealt
        w = 1.0
        for b, code, card, drawn in reversed(ts):
            if drawn is not None:
                hand.remove(drawn)
            else:
                pool = [c for c in hand if c not in from_piles]
                hand.remove(pool[int(rng.random() * len(pool))])
            hand.append(card)
            s = game.clone(b)
            pm = s.pm[opp]
            s.dh[opp] = [c + DISCARD for c in hand]
            s.plays[opp] = [c for c in hand if pm >> c & 1]
            legal = game.legal(s, opp)
            w *= (1 - eps) * (search.policy(game, s, opp, legal, rng) == code) + eps / len(legal)
        hands.append(dealt)
        weights.append(w)
    return hands, weights, unknown, known, n


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=7300)
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--reach", type=int, default=300, help="iterations a decision of the normal searches that play the matches")
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--every", type=int, default=2, help="use every k-th position")
    ap.add_argument("--eps", type=float, action="append", default=[], help="the model's random-move share (repeatable)")
    ap.add_argument("--turns", type=int, default=99, help="the other seat's last turns used as evidence")
    args = ap.parse_args()
    game = registry.get("lost-cities")
    t0 = time.perf_counter()
    pos = [p for s in range(args.seed, args.seed + args.seeds) for p in positions(game, s, args.reach)][:: args.every]
    print(f"{len(pos)} positions from seeds {args.seed}-{args.seed + args.seeds - 1} ({time.perf_counter() - t0:.0f} s)")
    search = LostCitiesSearch(remember=True)
    for eps in [None, *(args.eps or [0.6, 0.3])]:
        rng = random.Random(1)
        right = loss = ess = 0.0
        n_pos = 0
        for view, truth, moves in pos:
            seat = view["viewer"]
            hands, w, unknown, known, n = weigh(search, game, view, seat, moves, args.deals, eps, args.turns, rng)
            total = sum(w)
            if n == 0 or total == 0:
                continue
            true = {CARD_IDS[c] for c in truth} - set(known)
            share = dict.fromkeys(unknown, 0.0)
            got = 0.0
            for dealt, x in zip(hands, w, strict=True):
                got += x * len(true & set(dealt))
                for c in dealt:
                    share[c] += x
            right += got / total / n
            for c in unknown:
                p = (share[c] / total * args.deals + 0.5) / (args.deals + 1)
                loss -= math.log(p if c in true else 1 - p)
            ess += total * total / sum(x * x for x in w) / len(w)
            n_pos += 1
        name = "uniform" if eps is None else f"eps {eps}, last {args.turns} turns"
        print(f"{name:>24}: cards right {right / n_pos:.3f}  log-loss {loss / n_pos:.2f}  ESS {ess / n_pos:.2f}  ({n_pos} positions)")


if __name__ == "__main__":
    main()
