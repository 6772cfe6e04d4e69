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

The three costliest decisions per player are returned with the view to draw. ``budget`` bounds
the CPU seconds of a review: the choices are asked first, then the number of samples per
decision is set so that the play-outs fit in what is left (at least ``MIN_SAMPLES``).
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
SAMPLES = 16
MIN_SAMPLES = 4
BUDGET = 25.0  # CPU seconds


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of a player: ``index`` of the action in the log, the ``view`` the player had
    (to draw), what they ``played`` and what the strong AI would have played (JSON actions), and
    the estimated loss: ``points`` of final margin and ``win_chance`` (0-1)."""

    index: int
    seat: int
    view: dict[str, Any]
    played: dict[str, Any]
    best: dict[str, Any]
    points: float
    win_chance: float
    samples: int


@dataclass
class _Point:
    index: int
    seat: int
    state: Any
    played: Code
    best: Code


def _strong(game: Game) -> Any:
    budget = CARCASSONNE_CANDIDATES if game.key == "carcassonne" else AI_ITERATIONS
    return player(game.key, "strong", iterations=budget)


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


def _values(game: Game, point: _Point, samples: int, seed: int, n: int) -> dict[Code, tuple[float, float]]:
    """Mean (margin, win) of the played action and the AI's, over ``samples`` deals of what the
    player could not see, the rest played by the easy AI."""
    totals = {point.played: [0.0, 0.0], point.best: [0.0, 0.0]}
    for k in range(samples):
        deal = random.Random(f"{seed}/{point.index}/{k}")
        base = game.redeal(point.state, point.seat, deal)
        for code in (point.played, point.best):
            s = game.clone(base)
            game.step(s, point.seat, code)
            play_out(game, s, [player(game.key, "easy") for _ in range(n)], random.Random(f"{seed}/{point.index}/{k}/p"))
            margin, win = _outcome(game, s, point.seat)
            totals[code][0] += margin
            totals[code][1] += win
    return {c: (m / samples, w / samples) for c, (m, w) in totals.items()}


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
    # the play-outs share what is left of the budget; the first decision tells what one costs
    t = time.process_time()
    first = _values(game, points[0], 1, seed, len(match.seats))
    one = max(time.process_time() - t, 1e-4) / 2
    left = budget - (time.process_time() - start)
    k = max(MIN_SAMPLES, min(samples, int(left / (len(points) * 2 * one))))
    found: dict[int, list[Decision]] = {s: [] for s in seats}
    for p in points:
        values = _values(game, p, k, seed, len(match.seats)) if (k > 1 or p is not points[0]) else first
        (m_played, w_played), (m_best, w_best) = values[p.played], values[p.best]
        if m_best - m_played <= 0 and w_best - w_played <= 0:
            continue  # the play-outs found the player's move as good
        found[p.seat].append(
            Decision(
                p.index, p.seat, game.view(p.state, p.seat), game.encode(p.played), game.encode(p.best),
                m_best - m_played, w_best - w_played, k,
            )
        )
    return {s: sorted(ds, key=lambda d: (-d.points, -d.win_chance, d.index))[:top] for s, ds in found.items()}
