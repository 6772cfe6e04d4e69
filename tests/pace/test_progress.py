"""engines/*/progress.py: turns left per game, from the public view only (issue 21)."""

from __future__ import annotations

import random

import pytest

from engines import registry
from engines.ai import player
from engines.progress import progress

CASES = [
    ("lost-cities", 2, {"rounds": 1}),
    ("lost-cities", 2, {"rounds": 2, "level": "random"}),
    ("lost-cities", 2, {}),
    ("carcassonne", 3, {}),
    ("citadels", 2, {}),
    ("citadels", 5, {}),
    ("cities", 2, {}),
    ("cities", 4, {}),
]


def _play(key: str, n: int, options: dict, seed: int):
    """Play a seeded match with the easy AI (or ``level``); yields (turns taken so far, actions so
    far, state) at each turn start."""
    game = registry.get(key)
    options = dict(options)
    level = options.pop("level", "easy")
    state = game.new_state(n, game.parse_options(options), seed, None)
    rng = random.Random(seed)
    seats = [player(key, level) for _ in range(n)]
    turns, actions, last = 0, 0, None
    while game.to_move(state):
        s = game.to_move(state)[0]
        if s != last:
            yield turns, actions, state
            turns, last = turns + 1, s
        game.step(state, s, seats[s].choose(game, state, s, rng))
        actions += 1
    yield turns, actions, state


@pytest.mark.parametrize(("key", "n", "options"), CASES)
def test_turns_left_track_the_match_and_read_the_public_view_only(key, n, options):
    game = registry.get(key)
    estimates = []
    for turns, actions, state in _play(key, n, options, seed=3):
        p = progress(game, state, actions)
        # a copy with every hidden part dealt anew gives the same estimate
        same = progress(game, game.redeal(state, None, random.Random(turns)), actions)
        assert same == p
        assert len(p.remaining) == n and all(x >= 0 for x in p.remaining) and 0.0 <= p.done <= 1.0
        estimates.append((turns, p))
    total = estimates[-1][0]
    last = estimates[-1][1]
    assert last.turns_left == 0 and last.done == 1.0
    start, half = estimates[0][1], next(p for t, p in estimates if t >= total // 2)
    # the estimates at the start and half-way are near the turns that were really left
    tolerance = {"lost-cities": 0.15, "carcassonne": 0.0, "cities": 0.1, "citadels": 0.6}[key]
    # (random play draws from the piles far more than people do: nothing tells it at the start)
    for t, p in ((total // 2, half),) if "level" in options else ((0, start), (total // 2, half)):
        assert abs(p.turns_left - (total - t)) <= tolerance * (total - t) + n, (t, p, total)
    assert start.done < half.done < 1.0


def test_carcassonne_turns_left_are_the_tiles_in_turn_order():
    game = registry.get("carcassonne")
    state = game.new_state(3, game.parse_options({}), 1, None)
    p = progress(game, state)
    view = game.view(state, None)
    assert p.turns_left == view["tiles_left"] + 1 and p.spread == 0.0
    assert p.order[0] == view["to_move"][0] and sorted(p.order) == [0, 1, 2]
    assert max(p.remaining) - min(p.remaining) <= 1
