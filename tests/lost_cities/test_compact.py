"""The compact engine against the frozen reference engine (tests/lost_cities/reference_engine.py):
the same seed or setup and the same actions give the same states, views, legal lists, events and
scores, step by step."""

import json
import random

import pytest

from engines.lost_cities import GAME
from tests.lost_cities import reference_engine as ref_module

from .helpers import round_setup

REF = ref_module.GAME


def without(d, key):
    """``d`` without ``key``: the frozen reference predates what the compact engine added since
    (the cards taken from the piles: "taken" in dumps, "known" in views; tests/lost_cities/test_known.py)."""
    assert key in d
    return {k: v for k, v in d.items() if k != key}


def same_everywhere(state, ref_state, outcome=None, ref_outcome=None):
    assert without(GAME.dump(state), "taken") == REF.dump(ref_state)
    for seat in (0, 1, None):
        assert without(GAME.view(state, seat), "known") == REF.view(ref_state, seat)
    for seat in (0, 1):
        assert GAME.legal(state, seat) == REF.legal(ref_state, seat)
    assert GAME.to_move(state) == REF.to_move(ref_state)
    assert GAME.scores(state) == REF.scores(ref_state)
    assert GAME.round_scores(state) == REF.round_scores(ref_state)
    assert GAME.result(state) == REF.result(ref_state)
    if outcome is not None:
        assert [e.to_json() for e in outcome.events] == [e.to_json() for e in ref_outcome.events]
        assert [e.public().to_json() for e in outcome.events] == [e.public().to_json() for e in ref_outcome.events]
        assert (outcome.revealed, outcome.turn_ended) == (ref_outcome.revealed, ref_outcome.turn_ended)


def play_both(state, ref_state, rng, check_every=1):
    steps = 0
    while REF.to_move(ref_state):
        seat = REF.to_move(ref_state)[0]
        legal = REF.legal(ref_state, seat)
        code = legal[int(rng.random() * len(legal))]
        GAME.check(state, seat, code)
        outcome, ref_outcome = GAME.step(state, seat, code), REF.step(ref_state, seat, code)
        steps += 1
        if steps % check_every == 0 or not REF.to_move(ref_state):
            same_everywhere(state, ref_state, outcome, ref_outcome)
    assert not GAME.to_move(state)
    return steps


@pytest.mark.parametrize(("seed", "purple", "rounds"), [(1, False, 3), (2, True, 2), (77, False, 1), (123456789, True, 3)])
def test_seeded_random_matches_are_identical_step_by_step(seed, purple, rounds):
    opts = GAME.parse_options({"purple": purple, "rounds": rounds})
    state = GAME.new_state(2, opts, seed, None)
    ref_state = REF.new_state(2, REF.parse_options({"purple": purple, "rounds": rounds}), seed, None)
    same_everywhere(state, ref_state)
    assert play_both(state, ref_state, random.Random(seed), check_every=3) > 100


def test_explicit_setup_matches_are_identical():
    rng = random.Random(5)
    rounds = []
    for _ in range(2):
        cards = list(ref_module.CARD_NAMES[:60])
        rng.shuffle(cards)
        rounds.append(round_setup(cards[:8], cards[8:16], cards[16:]))
    setup = {"rounds": rounds}
    opts = GAME.parse_options({"rounds": 2})
    state = GAME.new_state(2, opts, None, json.loads(json.dumps(setup)))
    ref_state = REF.new_state(2, REF.parse_options({"rounds": 2}), None, setup)
    same_everywhere(state, ref_state)
    play_both(state, ref_state, random.Random(9))


def test_dumps_of_either_engine_load_into_the_other_mid_match():
    """Stored snapshots keep working: a reference dump loads into the compact engine and plays on
    identically (and back)."""
    rng = random.Random(3)
    opts = GAME.parse_options({})
    ref_state = REF.new_state(2, REF.parse_options({}), 3, None)
    for i in range(400):
        seat = REF.to_move(ref_state)[0]
        legal = REF.legal(ref_state, seat)
        REF.step(ref_state, seat, legal[int(rng.random() * len(legal))])
        if i % 37 == 0:
            state = GAME.load(json.loads(json.dumps(REF.dump(ref_state))))
            same_everywhere(state, ref_state)
            back = REF.load(GAME.dump(state))
            assert REF.dump(back) == REF.dump(ref_state)
            # a clone and a reloaded copy play on exactly like the reference
            a, b = GAME.clone(state), REF.clone(ref_state)
            play_both(a, b, random.Random(i), check_every=25)
    assert opts.rounds == 3


def test_clone_is_independent_of_the_original():
    state = GAME.new_state(2, GAME.parse_options({}), 11, None)
    rng = random.Random(11)
    for _ in range(50):
        seat = GAME.to_move(state)[0]
        GAME.step(state, seat, GAME.legal(state, seat)[0])
    before = GAME.dump(state)
    copy = GAME.clone(state)
    while GAME.to_move(copy):
        seat = GAME.to_move(copy)[0]
        legal = GAME.legal(copy, seat)
        legal.append(-1)  # a caller changing the returned list changes nothing
        GAME.step(copy, seat, legal[int(rng.random() * (len(legal) - 1))])
    assert GAME.dump(state) == before
    assert GAME.dump(copy) != before
