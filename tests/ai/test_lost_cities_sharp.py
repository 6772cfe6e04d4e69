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


def test_with_value_late_the_last_turn_plays_the_extension_worth_most():
    hand = ["yellow-4", "blue-10", "white-2", "green-2", "red-2", "red-3", "white-3"]
    exps = {"yellow": ["yellow-3"], "blue": ["blue-8"]}
    s = fast.from_state(made(hand, exps, 2))  # one turn left: blue-10 is worth 10, yellow-4 only 4
    legal = fast.legal(s)
    closest = SHARP.policy(GAME, fast.clone(s), 0, legal, random.Random(1))
    valued = SharpLostCitiesSearch(epsilon=0.0, value_late=True).policy(GAME, fast.clone(s), 0, legal, random.Random(1))
    assert closest == CARD_IDS["yellow-4"] and valued == CARD_IDS["blue-10"]
    # with two turns left both are played, the lower first
    s = fast.from_state(made(hand, exps, 4))
    valued = SharpLostCitiesSearch(epsilon=0.0, value_late=True).policy(GAME, fast.clone(s), 0, fast.legal(s), random.Random(1))
    assert valued == CARD_IDS["yellow-4"]


def test_with_last_extend_the_last_draws_race_the_deck_against_extending_pile_tops_only():
    from tests.ai.test_lost_cities_search import PairedLostCitiesSearch

    hand = ["yellow-7", "yellow-8", "blue-2", "white-2", "green-2", "red-2", "red-3"]
    # yellow-6 extends the yellow expedition (yellow-5); red-9 on the red pile extends nothing of seat 0's
    st = made(hand, {"yellow": ["yellow-5"]}, 2, phase="draw", tops={"yellow": "yellow-6", "red": "red-9"})
    assert DRAW_PILE + 4 in GAME.legal(st, 0)
    p = PairedLostCitiesSearch(seconds=None, iterations=200, last_extend=True)
    choice = p.choose(GAME, st, 0, random.Random(1))
    assert set(p.stats.visits) == {DRAW_DECK, DRAW_PILE + 0} and p.stats.iterations > 0
    assert choice in (DRAW_DECK, DRAW_PILE + 0)
    # nothing extends: the deck, unsearched
    st = made(hand, {"yellow": ["yellow-9"]}, 2, phase="draw", tops={"yellow": "yellow-6", "red": "red-9"})
    assert p.choose(GAME, st, 0, random.Random(1)) == DRAW_DECK and p.stats.iterations == 0


def test_a_whole_match_of_the_sharp_search_with_last_extend_ends_in_bounded_steps():
    from engines.ai import play_out
    from engines.lost_cities.ai import NormalPlayer, PairedLostCitiesSearch

    for a in (0, 1):
        st = GAME.new_state(2, GAME.parse_options({"rounds": 3}), 43100 + a, None)
        players = [NormalPlayer(seconds=None, iterations=8), NormalPlayer(seconds=None, iterations=8)]
        players[a] = PairedLostCitiesSearch(seconds=None, iterations=20, adapter=SharpLostCitiesSearch(value_late=True),
                                            last_extend=True)
        steps = play_out(GAME, st, players, random.Random(a), max_steps=1500)
        assert 3 * 40 < steps < 1500 and not GAME.to_move(st)
