"""A review of a finished match (issue 21): each player's costliest decisions. Pure, no I/O.

For every decision a player took (a position with more than one legal action), computed from
that player's view only:

* the strong AI's choice: the game's ``strong`` player (with an iteration budget, so a review is
  reproducible) asked on a copy of the position in which everything the player could not see is
  dealt anew (``Game.redeal``): its view, and so its answer, are the player's own, and the real
  hidden cards cannot reach it;
* when the player did something else, the estimated loss: both actions are played out from the
  same ``samples`` fresh deals of the hidden parts (common random numbers), every seat then played
  by the game's fast ``easy`` AI to the end of the match; the loss is the difference of the mean
  final margin (the player's score minus the best other score: points) and of the win chance.

The three costliest decisions per player are returned with the view to draw, ranked by the loss
the play-outs are sure of (the mean less one standard error: a slip measured on a few noisy deals
does not outrank a sure one). ``budget`` bounds the CPU seconds of a review: the choices are asked
first, then every decision gets the same number of deals in a first pass cut to fit part of what
is left (at least ``MIN_SAMPLES``), and the rest goes, ``STEP`` deals at a time, to the decisions
that may still be among a seat's ``top``.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any

from .ai import play_out, player
from .core import Code, Game
from .match import Match

AI_ITERATIONS = 100  # the strong player's budget per decision (iterations; Carcassonne: placements)
CARCASSONNE_CANDIDATES = 6
# Cities takes: rollouts of the round's draft (cheap: ~25 us each); at 100 the strong player's pick
# among 16 slots is close to a coin toss between the good ones
CITIES_DRAFT_ROLLOUTS = 2000
SAMPLES = 16
MIN_SAMPLES = 4
FIRST_SHARE = 0.6  # of the budget left after the choices: the first pass over every decision
STEP = 4  # deals added at a time to a decision still in contention
MORE = 4  # a decision in contention gets at most MORE x samples deals
BUDGET = 25.0  # CPU seconds


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of a player: ``index`` of the action in the log, the ``view`` the player had
    (to draw), what they ``played`` and what the strong AI would have played (JSON actions), and
    the estimated loss: ``points`` of final margin and ``win_chance`` (0-1), means over ``samples``
    deals, and ``spread``, the standard error of ``points``."""

    index: int
    seat: int
    view: dict[str, Any]
    played: dict[str, Any]
    best: dict[str, Any]
    points: float
    win_chance: float
    samples: int
    spread: float = 0.0  # the standard error of ``points`` over the samples


@dataclass
class _Point:
    index: int
    seat: int
    state: Any
    played: Code
    best: Code


def _strong(game: Game) -> Any:
    budget = CARCASSONNE_CANDIDATES if game.key == "carcassonne" else AI_ITERATIONS
    ai = player(game.key, "strong", iterations=budget)
    if game.key == "cities":
        ai.draft_iterations = CITIES_DRAFT_ROLLOUTS
    return ai


def _replay(match: Match) -> tuple[Game, Any, list[tuple[int, Code]]]:
    game = match.game
    state = game.new_state(len(match.seats), match.options, match.seed, match.setup)
    codes = []
    for entry in match.actions:
        code = game.canonical(state, game.code_of(entry["action"]))
        codes.append((entry["seat"], code))
        game.step(state, entry["seat"], code)
    return game, game.new_state(len(match.seats), match.options, match.seed, match.setup), codes


def _outcome(game: Game, state: Any, seat: int) -> tuple[float, float]:
    res = game.result(state)
    scores = res.scores
    margin = scores[seat] - max(scores[q] for q in range(len(scores)) if q != seat)
    first = res.ranking[0]
    return float(margin), (1.0 / len(first) if seat in first else 0.0)


def _diffs(game: Game, point: _Point, ks: range, seed: int, n: int) -> list[tuple[float, float]]:
    """Per deal ``k`` of ``ks`` (a fresh deal of what the player could not see), the AI's action
    minus the played one: (final margin, win), both played out by the easy AI from that deal."""
    out = []
    for k in ks:
        deal = random.Random(f"{seed}/{point.index}/{k}")
        base = game.redeal(point.state, point.seat, deal)
        got = []
        for code in (point.best, point.played):
            s = game.clone(base)
            game.step(s, point.seat, code)
            play_out(game, s, [player(game.key, "easy") for _ in range(n)], random.Random(f"{seed}/{point.index}/{k}/p"))
            got.append(_outcome(game, s, point.seat))
        out.append((got[0][0] - got[1][0], got[0][1] - got[1][1]))
    return out


def _mean_se(xs: list[float]) -> tuple[float, float]:
    """The mean and its standard error."""
    m = sum(xs) / len(xs)
    if len(xs) < 2:
        return m, abs(m)
    var = sum((x - m) ** 2 for x in xs) / (len(xs) - 1)
    return m, (var / len(xs)) ** 0.5


def review(
    match: Match,
    seats: list[int] | None = None,
    *,
    budget: float = BUDGET,
    seed: int = 0,
    top: int = 3,
    samples: int = SAMPLES,
) -> dict[int, list[Decision]]:
    """The ``top`` costliest decisions of each of ``seats`` (default: all) in a finished match,
    costliest first (decisions that lost nothing are left out)."""
    start = time.process_time()
    game, state, codes = _replay(match)
    seats = list(range(len(match.seats))) if seats is None else list(seats)
    ai = _strong(game)
    points: list[_Point] = []
    for i, (seat, code) in enumerate(codes):
        if seat in seats and len(game.legal(state, seat)) > 1:
            rng = random.Random(f"{seed}/{i}")
            hidden = game.redeal(state, seat, rng)  # the player's view, and nothing they could not see
            best = game.canonical(hidden, ai.choose(game, hidden, seat, rng))
            if best != code:
                points.append(_Point(i, seat, game.clone(state), code, best))
        game.step(state, seat, code)
    if not points:
        return {s: [] for s in seats}
    n = len(match.seats)
    # first pass: every decision the same number of deals, cut to fit part of what is left (the
    # first decision's first deal tells what a play-out costs)
    t = time.process_time()
    diffs = [_diffs(game, points[0], range(1), seed, n)] + [[] for _ in points[1:]]
    cost = [max(time.process_time() - t, 1e-4) / 2] * len(points)  # CPU seconds a play-out, per decision
    left = budget - (time.process_time() - start)
    k = max(MIN_SAMPLES, min(samples, int(FIRST_SHARE * left / (len(points) * 2 * cost[0]))))
    for j, p in enumerate(points):
        t = time.process_time()
        had = len(diffs[j])
        diffs[j] += _diffs(game, p, range(had, k), seed, n)
        cost[j] = max(time.process_time() - t, 1e-4) / (2 * max(k - had, 1)) if k > had else cost[j]
    # second pass: what is left goes to the decisions that may still be among a seat's ``top``
    # (a loss measured on few deals is noisy: Cities margins move by ten points from deal to deal)
    while True:
        contenders = [j for j in _contenders(points, diffs, top) if len(diffs[j]) < MORE * samples]
        spent = False
        for j in contenders:
            if time.process_time() - start + 2 * STEP * cost[j] > budget:
                continue
            diffs[j] += _diffs(game, points[j], range(len(diffs[j]), len(diffs[j]) + STEP), seed, n)
            spent = True
        if not spent:
            break
    found: dict[int, list[Decision]] = {s: [] for s in seats}
    for p, d in zip(points, diffs, strict=True):
        pts, se = _mean_se([x[0] for x in d])
        win = sum(x[1] for x in d) / len(d)
        if pts <= 0 and win <= 0:
            continue  # the play-outs found the player's move as good
        found[p.seat].append(
            Decision(
                p.index, p.seat, game.view(p.state, p.seat), game.encode(p.played), game.encode(p.best),
                pts, win, len(d), se,
            )
        )
    return {s: sorted(ds, key=_rank)[:top] for s, ds in found.items()}


def _rank(d: Decision) -> tuple[float, float, int]:
    """Costliest first by the loss the play-outs are sure of: the mean less one standard error."""
    return (-(d.points - d.spread), -d.win_chance, d.index)


def _contenders(points: list[_Point], diffs: list[list[tuple[float, float]]], top: int) -> list[int]:
    """The decisions (indices into ``points``) whose loss may still place them among their
    seat's ``top``: the mean plus one standard error reaches the ``top``-th best lower end."""
    bounds: dict[int, list[tuple[float, float, int]]] = {}
    for j, (p, d) in enumerate(zip(points, diffs, strict=True)):
        m, se = _mean_se([x[0] for x in d])
        bounds.setdefault(p.seat, []).append((m - se, m + se, j))
    out = []
    for b in bounds.values():
        lows = sorted((lo for lo, _hi, _j in b), reverse=True)
        bar = max(lows[top - 1], 0.0) if len(lows) >= top else 0.0
        out += [j for lo, hi, j in b if hi >= bar and hi > 0]
    return sorted(out)
