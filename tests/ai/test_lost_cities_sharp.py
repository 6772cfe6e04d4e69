"""The strong level's sharper playout policy (issue 22): its three rules against the levels' policy
on made positions, and its playouts."""

import random

from engines.lost_cities import CARD_IDS, CARD_NAMES, DISCARD, DRAW_DECK, DRAW_PILE, GAME, fast
from engines.lost_cities.ai import FastLostCitiesSearch, SharpLostCitiesSearch
from tests.ai.test_lost_cities_search import made, position

LEVELS = FastLostCitiesSearch(epsilon=0.0)
SHARP = SharpLostCitiesSearch(epsilon=0.0)
JUNK = ["blue-2", "white-2", "green-2", "red-2", "red-3"]


def choices(st):
    """The levels' policy's choice and the sharp one's for seat 0 (to move) on the fast state."""
    s = fast.from_state(st)
    legal = fast.legal(s)
    return (LEVELS.policy(GAME, fast.clone(s), 0, legal, random.Random(1)),
            SHARP.policy(GAME, fast.clone(s), 0, legal, random.Random(1)))


def test_late_in_the_round_it_plays_a_far_extension_the_levels_policy_discards():
    hand = ["yellow-9", "blue-4", *JUNK]  # yellow-9 is 6 above the yellow expedition's top
    exps = {"yellow": ["yellow-3"]}
    levels, sharp = choices(made(hand, exps, 2))  # one turn left: play it
    assert levels >= DISCARD and sharp == CARD_IDS["yellow-9"]
    levels, sharp = choices(made(hand, exps, 10))  # five turns left for one card: not yet
    assert levels >= DISCARD and sharp >= DISCARD


def test_a_wager_opens_only_on_strong_backing():
    weak = ["yellow-w1", "yellow-2", "yellow-3", "yellow-10", *JUNK[:3]]  # numbers 15
    levels, sharp = choices(made(weak, {}, 30))
    assert levels == CARD_IDS["yellow-w1"] and sharp == CARD_IDS["yellow-2"]
    strong = ["yellow-w1", "yellow-8", "yellow-9", "yellow-10", *JUNK[:3]]  # numbers 27
    levels, sharp = choices(made(strong, {}, 30))
    assert levels == sharp == CARD_IDS["yellow-w1"]


def test_late_in_the_round_it_draws_a_far_extension_from_a_pile():
    hand = ["yellow-5", "blue-4", *JUNK]
    exps = {"yellow": ["yellow-3"], "blue": ["blue-3"]}
    # the yellow pile's top, yellow-9, extends yellow by a step of 6 (the levels' policy takes 2 at most)
    late = made(hand, exps, 2, phase="draw", tops={"yellow": "yellow-9"})
    levels, sharp = choices(late)
    assert levels == DRAW_DECK and sharp == DRAW_PILE + 0
    early = made(hand, exps, 20, phase="draw", tops={"yellow": "yellow-9"})
    assert choices(early) == (DRAW_DECK, DRAW_DECK)


def test_its_playout_plays_its_policy_to_the_end_of_the_round_and_keeps_every_card():
    search = SharpLostCitiesSearch()
    for seed in range(12):
        st = position(seed, 7 * seed)
        seat = GAME.to_move(st)[0]
        sample = search.determiniser(GAME, GAME.view(st, seat), seat)(random.Random(seed))
        a, b = fast.clone(sample), fast.clone(sample)
        rng_a, rng_b = random.Random(seed), random.Random(seed)
        engine = search.engine
        while engine.to_move(a):
            mover = engine.to_move(a)[0]
            engine.step(a, mover, search.policy(GAME, a, mover, engine.legal(a, mover), rng_a))
        search.playout(GAME, b, 0, rng_b)
        assert a == b and rng_a.random() == rng_b.random()
        assert b[fast.DN] == 0
        cards = [d - DISCARD for p in (0, 1) for d in b[fast.HAND + p][b[fast.NP + p]:]]
        for i in range(fast.EXP, fast.PILE + 5):
            cards += list(b[i])
        assert sorted(cards) == sorted(CARD_IDS[c] for c in CARD_NAMES[:60])


def test_its_playout_stops_at_the_cap():
    st = position(3, 10)
    seat = GAME.to_move(st)[0]
    search = SharpLostCitiesSearch(cap=5)
    s = search.determiniser(GAME, GAME.view(st, seat), seat)(random.Random(1))
    dn = s[fast.DN]
    search.playout(GAME, s, 0, random.Random(2))
    assert dn - 3 <= s[fast.DN] < dn and s[fast.DN] > 0  # five actions: two or three draws
