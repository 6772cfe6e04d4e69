"""engines/*/progress.py: turns left per game, from the public view only (issue 21)."""

from __future__ import annotations

import random

import pytest

from engines import registry
from engines.ai import player
from engines.progress import progress

CASES = [
    ("lost-cities", 2, {"rounds": 1}),
    ("lost-cities", 2, {}),
    ("carcassonne", 3, {}),
    ("citadels", 2, {}),
    ("citadels", 5, {}),
    ("cities", 2, {}),
    ("cities", 4, {}),
]


def _play(key: str, n: int, options: dict, seed: int):
    """Play a seeded match with the easy AI; yields (turns taken so far, state) at each turn start."""
    game = registry.get(key)
    state = game.new_state(n, game.parse_options(options), seed, None)
    rng = random.Random(seed)
    seats = [player(key, "easy") for _ in range(n)]
    turns, last = 0, None
    while game.to_move(state):
        s = game.to_move(state)[0]
        if s != last:
            yield turns, state
            turns, last = turns + 1, s
        game.step(state, s, seats[s].choose(game, state, s, rng))
    yield turns, state


@pytest.mark.parametrize(("key", "n", "options"), CASES)
def test_turns_left_track_the_match_and_read_the_public_view_only(key, n, options):
    game = registry.get(key)
    estimates = []
    for turns, state in _play(key, n, options, seed=3):
        p = progress(game, state)
        # a copy with every hidden part dealt anew gives the same estimate
        same = progress(game, game.redeal(state, None, random.Random(turns)))
        assert same == p
        assert len(p.remaining) == n and all(x >= 0 for x in p.remaining) and 0.0 <= p.done <= 1.0
        estimates.append((turns, p))
    total = estimates[-1][0]
    last = estimates[-1][1]
    assert last.turns_left == 0 and last.done == 1.0
    start, half = estimates[0][1], next(p for t, p in estimates if t >= total // 2)
    # the estimates at the start and half-way are near the turns that were really left
    tolerance = {"lost-cities": 0.15, "carcassonne": 0.0, "cities": 0.1, "citadels": 0.6}[key]
    for t, p in ((0, start), (total // 2, half)):
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
