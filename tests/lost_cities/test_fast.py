"""The fast path (engines/lost_cities/fast.py) against today's compact engine, which stays the
reference: the same seed and the same actions give the same states, legal lists (in the same
order) and results, step by step, over many seeded random matches; the fused random playout and
the copies play the same matches."""

import json
import random

import pytest

from engines.lost_cities import CARD_NAMES, GAME, fast

from .helpers import dump, round_setup


def same(f, state):
    assert dump(fast.to_state(f)) == dump(state)
    movers = GAME.to_move(state)
    assert fast.legal(f) == (GAME.legal(state, movers[0]) if movers else [])
    if movers:  # the running score of the round (once the match is over, scores() gives totals)
        assert f[fast.TURN] == movers[0]
        totals = [sum(r[p] for r in GAME.round_scores(state)) for p in (0, 1)]
        assert [fast.score(f, p) for p in (0, 1)] == [GAME.scores(state)[p] - totals[p] for p in (0, 1)]


def play_both(state, f, rng):
    """Random actions from the compact engine's legal list, applied to both, compared after each."""
    steps = 0
    acts = fast.legal(f)
    while GAME.to_move(state):
        seat = GAME.to_move(state)[0]
        legal = GAME.legal(state, seat)
        assert list(acts) == legal
        code = legal[int(rng.random() * len(legal))]
        GAME.step(state, seat, code)
        acts = fast.step(f, code)
        steps += 1
        same(f, state)
    assert acts == () and f[fast.PHASE] == fast.OVER
    assert GAME.result(fast.to_state(f)) == GAME.result(state)
    return steps


def test_layout_constants_match_the_literals_in_step():
    # step and the fused playouts write the indices as numbers
    assert (fast.TURN, fast.PHASE, fast.DN, fast.DECK, fast.INFO) == (0, 1, 2, 3, 4)
    assert (fast.HAND, fast.NP, fast.PM, fast.HM, fast.EXP, fast.PILE) == (5, 7, 9, 11, 13, 25)
    assert (fast.PMASK, fast.JBIT, fast.LAST, fast.LASTDRAW, fast.SIZE) == (31, 32, 33, 34, 35)


@pytest.mark.parametrize("seed", range(60))
def test_seeded_random_matches_step_by_step(seed):
    opts = GAME.parse_options({"purple": seed % 3 == 0, "rounds": 1 + seed % 3})
    state = GAME.new_state(2, opts, 1000 + seed, None)
    f = fast.from_state(state)
    same(f, state)
    assert play_both(state, f, random.Random(seed)) > 80


def test_explicit_setup_matches_step_by_step():
    rng = random.Random(5)
    rounds = []
    for _ in range(3):
        cards = list(CARD_NAMES[:60])
        rng.shuffle(cards)
        rounds.append(round_setup(cards[:8], cards[8:16], cards[16:]))
    setup = {"rounds": rounds}
    state = GAME.new_state(2, GAME.parse_options({"rounds": 3}), None, json.loads(json.dumps(setup)))
    play_both(state, fast.from_state(state), random.Random(9))


@pytest.mark.parametrize("seed", range(40))
def test_fused_random_playout_plays_the_same_match(seed):
    opts = GAME.parse_options({"purple": seed % 4 == 1, "rounds": 1 + seed % 3})
    state = GAME.new_state(2, opts, 2000 + seed, None)
    # start from a position mid-match, sometimes between the play and the draw of a turn
    rng = random.Random(seed)
    for _ in range(seed * 7):
        seat = GAME.to_move(state)[0]
        legal = GAME.legal(state, seat)
        GAME.step(state, seat, legal[int(rng.random() * len(legal))])
    f = fast.from_state(state)
    steps = 0
    rnd = random.Random(seed).random
    while GAME.to_move(state):
        seat = GAME.to_move(state)[0]
        legal = GAME.legal(state, seat)
        GAME.step(state, seat, legal[int(rnd() * len(legal))])
        steps += 1
    assert fast.random_playout(f, random.Random(seed).random) == steps
    assert dump(fast.to_state(f)) == dump(state)


def test_a_clone_plays_on_alone():
    state = GAME.new_state(2, GAME.parse_options({}), 11, None)
    f = fast.from_state(state)
    rng = random.Random(11)
    acts = fast.legal(f)
    for _ in range(50):
        acts = fast.step(f, acts[int(rng.random() * len(acts))])
    before = dump(fast.to_state(f))
    copy = fast.clone(f)
    fast.random_playout(copy, rng.random)
    assert dump(fast.to_state(f)) == before
    assert dump(fast.to_state(copy)) != before
    # and the copied state plays on like the compact engine
    state = fast.to_state(f)
    play_both(GAME.load(dump(state)), fast.clone(f), random.Random(3))


def test_without_round_end_the_state_waits_at_the_end_of_the_round():
    state = GAME.new_state(2, GAME.parse_options({"rounds": 2}), 4, None)
    f = fast.from_state(state)
    rng = random.Random(4)
    acts = fast.legal(f)
    while acts:
        acts = fast.step(f, acts[int(rng.random() * len(acts))], round_end=False)
    assert f[fast.DN] == 0 and f[fast.INFO].round == 0 and f[fast.INFO].round_scores == ()
    assert fast.score(f, 0) != 0 or fast.score(f, 1) != 0


def test_the_fast_shuffle_deals_as_the_match_rng():
    from engines.rng import Rng

    for seed in range(200):
        a, b = Rng(seed, seed % 7), Rng(seed, seed % 7)
        cards = list(range(60 + 12 * (seed % 2)))
        a.shuffle(cards)
        assert fast.shuffled(b, len(cards)) == cards
        assert a == b
    for n in (0, 1, 2, 3, 17, 44, 52, 72):
        x, y = list(range(n)), list(range(n))
        r1, r2 = random.Random(n), random.Random(n)
        r1.shuffle(x)
        fast.shuffle(r2, y)
        assert x == y and r1.random() == r2.random()


@pytest.mark.parametrize("seed", range(30))
def test_a_new_fast_match_is_the_engine_s_deal(seed):
    purple, rounds = seed % 2 == 1, 1 + seed % 3
    state = GAME.new_state(2, GAME.parse_options({"purple": purple, "rounds": rounds}), seed, None)
    f = fast.new_match(6 if purple else 5, rounds, seed)
    same(f, state)
    assert play_both(state, f, random.Random(seed)) > 80
