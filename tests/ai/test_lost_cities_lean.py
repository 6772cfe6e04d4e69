"""The search's leaning (``lean``): an unseen card that would still extend an expedition the other
seat opened is dealt to its hand ``lean`` times as readily as another unseen card."""

import random

import pytest

from engines.lost_cities import CARD_IDS, GAME, RANK, SLOTS
from engines.lost_cities.ai import (
    FastLostCitiesSearch,
    LostCitiesSearch,
    NativeLostCitiesSearch,
    StrongPlayer,
    deal,
)

from .test_lost_cities_memory import other_hand_and_deck, unseen

KINDS = [LostCitiesSearch, FastLostCitiesSearch, NativeLostCitiesSearch]


def opened_position(seed):
    """A play-phase state of a seeded match of random moves where the other seat has opened at
    least two expeditions that unseen cards could still extend."""
    st = GAME.new_state(2, GAME.parse_options({"rounds": 3}), seed, None)
    rng = random.Random(seed)
    while GAME.to_move(st):
        seat = GAME.to_move(st)[0]
        view = GAME.view(st, seat)
        if view["phase"] == "play":
            inv = LostCitiesSearch(lean=3.0).leanings(view, seat, sorted(unseen(view)))
            if sum(1 for x in inv if x < 1) >= 6:
                return st, seat, view
        legal = GAME.legal(st, seat)
        GAME.step(st, seat, legal[int(rng.random() * len(legal))])
    raise AssertionError("no such position")  # pragma: no cover


def test_without_leanings_a_deal_is_one_shuffle_split_as_before():
    cards = list(range(40))
    hand, deck = deal(random.Random(9), cards, 8, None)
    expect = cards[:]
    random.Random(9).shuffle(expect)
    assert (hand, deck) == (expect[:8], expect[8:])
    assert cards == list(range(40))  # the caller's list is left alone


def test_leaned_cards_are_dealt_to_the_hand_more_often_and_the_deck_stays_a_fair_shuffle():
    cards = list(range(40))
    leaned = set(range(10))
    inv = [1 / 3 if c in leaned else 1.0 for c in cards]
    rng = random.Random(4)
    in_hand = dict.fromkeys(cards, 0)
    deck_top_leaned = 0
    n = 3000
    for _ in range(n):
        hand, deck = deal(rng, cards, 8, inv)
        assert len(hand) == 8 and sorted(hand + deck) == cards
        for c in hand:
            in_hand[c] += 1
        deck_top_leaned += deck[0] in leaned
    rate_leaned = sum(in_hand[c] for c in leaned) / (len(leaned) * n)
    rate_other = sum(in_hand[c] for c in cards if c not in leaned) / ((len(cards) - len(leaned)) * n)
    assert rate_leaned > 2 * rate_other  # about 2.6x for a weight of 3 here; 1x if the weights were ignored
    # the deck holds what the hand did not take, in an order that does not favour the leaned cards:
    # its top card is leaned about as often as leaned cards are in the deck
    left = len(leaned) * (1 - rate_leaned) / (len(cards) - 8)
    assert abs(deck_top_leaned / n - left) < 0.03
    assert deal(random.Random(1), cards, 8, inv) == deal(random.Random(1), cards, 8, inv)  # reproducible


def test_leanings_mark_the_cards_above_the_other_seats_opened_expeditions():
    st, seat, view = opened_position(21)
    opp = 1 - seat
    hidden = sorted(unseen(view))
    inv = LostCitiesSearch(lean=4.0).leanings(view, seat, hidden)
    for c, x in zip(hidden, inv, strict=True):
        col = view["colours"][c // SLOTS]
        played = [RANK[CARD_IDS[p]] for p in view["expeditions"][opp][col]]
        extends = bool(played) and (RANK[c] > max(played) or RANK[c] == max(played) == 0)
        assert x == (0.25 if extends else 1.0), (c, played)
    assert LostCitiesSearch().leanings(view, seat, hidden) is None  # lean 1: plain shuffles


@pytest.mark.parametrize("kind", KINDS)
def test_every_determiniser_deals_the_same_leaned_hands(kind):
    st, seat, view = opened_position(22)
    opp = 1 - seat
    ref = LostCitiesSearch(lean=3.0).determiniser(GAME, view, seat)
    sample = kind(lean=3.0).determiniser(GAME, view, seat)
    r1, r2 = random.Random(3), random.Random(3)
    hidden = unseen(view)
    for _ in range(10):
        hand, deck = other_hand_and_deck(kind, sample(r1), opp)
        ref_hand, ref_deck = other_hand_and_deck(LostCitiesSearch, ref(r2), opp)
        assert sorted(hand) == sorted(ref_hand) and list(deck) == list(ref_deck)
        assert sorted(hand + list(deck)) == sorted(hidden)


def test_a_leaning_strong_level_chooses_legal_reproducible_moves():
    st, seat, view = opened_position(23)
    a = StrongPlayer(seconds=None, iterations=300, lean=3.0).choose(GAME, st, seat, random.Random(8))
    b = StrongPlayer(seconds=None, iterations=300, lean=3.0).choose(GAME, st, seat, random.Random(8))
    assert a == b and a in GAME.legal(st, seat)
