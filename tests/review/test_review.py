"""engines/review.py: a planted blunder per game is among the player's three costliest decisions
(issue 21). Each match is played by the easy AI with one decision of seat 0 replaced by a blunder;
the review sees the match only through its log and each player's views."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from engines.ai import play_out, player
from engines.match import Match
from engines.review import _strong, review

Plant = Callable[[Any, Any, int, list, Any], Any]  # (game, state, index, legal, easy choice) -> blunder or None


def _match_with(key: str, n: int, seed: int, plant: Plant, options: dict | None = None) -> tuple[Match, int]:
    m = Match.create(key, [f"p{i}" for i in range(n)], options or {}, seed=seed)
    rng = random.Random(seed)
    easy = [player(key, "easy") for _ in range(n)]
    planted = None
    while not m.over:
        s = m.to_move()[0]
        code = easy[s].choose(m.game, m.state, s, rng)
        if s == 0 and planted is None:
            legal = m.game.legal(m.state, s)
            blunder = plant(m.game, m.state, len(m.actions), legal, code)
            if blunder is not None:
                assert blunder in legal and blunder != code
                planted, code = len(m.actions), blunder
        m.apply_code(s, code)
    assert planted is not None, "the blunder found no place in this match"
    return m, planted


def _worst(game, state, seat: int, candidates: list, samples: int = 4) -> Any:
    """The candidate that does worst for ``seat`` when played out on the real deal (the test's
    oracle: it may look at everything, the review may not)."""
    def value(code) -> float:
        total = 0.0
        for k in range(samples):
            s = game.clone(state)
            game.step(s, seat, code)
            play_out(game, s, [player(game.key, "easy") for _ in range(len(game.scores(s)))], random.Random(k))
            sc = game.result(s).scores
            total += sc[seat] - max(sc[q] for q in range(len(sc)) if q != seat)
        return total

    return min(candidates, key=value)


def _assert_named(m: Match, planted: int, **kw) -> None:
    found = review(m, seats=[0], seed=1, **kw)[0]
    assert planted in [d.index for d in found], (planted, [(d.index, d.played, d.best, round(d.points, 1)) for d in found])
    d = next(d for d in found if d.index == planted)
    assert d.points > 0 and d.played == m.actions[planted]["action"] and d.best != d.played
    assert d.view["viewer"] == 0 and d.view == m.game.view(Match.from_log({**m.to_log(), "actions": m.actions[:planted]}).state, 0)


@pytest.mark.slow
def test_lost_cities_discarding_the_card_an_expedition_needed():
    def plant(game, state, i, legal, code):
        action = game.encode(code)
        if i < 30 or action["type"] != "play":
            return None
        colour = action["card"].split("-")[0]
        if len(game.view(state, 0)["expeditions"][0][colour]) < 2:
            return None
        return game.code_of({"type": "discard", "card": action["card"]})

    m, planted = _match_with("lost-cities", 2, 4, plant, {"rounds": 1})
    _assert_named(m, planted, budget=1e9, samples=8)


@pytest.mark.slow
def test_citadels_the_draft_pick_that_does_worst():
    # (the Assassin naming a character out of the round is not shown: a face-up one is no legal
    # target, and the strong AI at the review's budget itself names a character the player set
    # aside - docs/review-plans-pace-ratings.md)
    def plant(game, state, i, legal, code):
        if i < 20 or not any(isinstance(c, tuple) and c[0] == "draft" for c in legal):
            return None
        return _worst(game, state, 0, [c for c in legal if c != code], samples=16)

    m, planted = _match_with("citadels", 2, 2, plant)
    _assert_named(m, planted, budget=1e9, samples=16)


@pytest.mark.slow
def test_carcassonne_the_placement_that_does_worst():
    # (the planted follower into a city the play-outs rate worst cost about one point: not a
    # blunder the review must find; the worst of 25 placements is)
    def plant(game, state, i, legal, code):
        if i < 10:
            return None
        others = [c for c in legal if c != code]
        random.Random(i).shuffle(others)
        return _worst(game, state, 0, others[:25], samples=4) if len(others) > 5 else None

    m, planted = _match_with("carcassonne", 2, 3, plant)
    _assert_named(m, planted, budget=1e9, samples=6)


def _cities_match(seed: int) -> tuple[Match, int]:
    """Seat 0 plays as the review's strong player does (its own random numbers; the hidden parts
    dealt anew, so from its view only), seat 1 the easy AI; in the last round seat 0's first city
    tile that the strong player places where it scores 3+ points right away (it completes an area
    or what a card or achievement counts) goes where it scores the fewest instead."""
    m = Match.create("cities", ["p0", "p1"], {}, seed=seed)
    game = m.game
    rng = random.Random(seed)
    strong, easy = _strong(game), player("cities", "easy")
    planted = None
    while not m.over:
        s = m.to_move()[0]
        if s == 1:
            m.apply_code(1, easy.choose(game, m.state, 1, rng))
            continue
        hidden = game.redeal(m.state, 0, random.Random(f"x{len(m.actions)}"))
        code = game.canonical(m.state, strong.choose(game, hidden, 0, rng))
        view = game.view(m.state, 0)
        if planted is None and code[0] == "tile" and view["round"] == view["rounds"]:
            now = game.scores(m.state)[0]
            gain = {}
            for c in game.legal(m.state, 0):
                after = game.clone(m.state)
                game.step(after, 0, c)
                gain[c] = game.scores(after)[0] - now
            low = min(gain.values())
            if gain[code] == max(gain.values()) >= low + 3:
                planted, code = len(m.actions), min(c for c in gain if gain[c] == low)
        m.apply_code(0, code)
    assert planted is not None, "no tile to misplace in this match"
    return m, planted


@pytest.mark.slow
@pytest.mark.parametrize("seed", [13, 11])
def test_cities_the_tile_that_leaves_an_area_short(seed):
    # (seed 11: the planted rotation leaves a water area one space short of the lake of 3+ spaces
    # the player's Lakes card counts, 3 points. Seed 1 planted 4 points of achievement rings until
    # the strong level of 2026-12-04, whose last-round tiles there no longer score 3+ right away;
    # seed 13 is the first such match since.) The player
    # otherwise plays as well as the reviewer: with the easy AI's takes in their place, the
    # draft's costlier slips outrank a misplaced tile (a tile rarely moves more than 3-4 points).
    m, planted = _cities_match(seed)
    _assert_named(m, planted, budget=1e9, samples=6)
