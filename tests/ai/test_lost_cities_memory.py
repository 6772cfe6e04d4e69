"""The search's memory of the piles (``remember``): the cards the other seat was seen taking from a
discard pile are dealt into its hand in every determinisation; only the rest is sampled."""

import random

import pytest

from engines.lost_cities import CARD_IDS, DISCARD, GAME, fast, native
from engines.lost_cities.ai import (
    FastLostCitiesSearch,
    LostCitiesSearch,
    NativeLostCitiesSearch,
    PairedLostCitiesSearch,
    StrongPlayer,
)


def position_with_takes(seed, need):
    """A state of a seeded match of random moves, in a play phase, where the seat to move sees the
    other seat holding at least ``need`` cards it took from the piles."""
    st = GAME.new_state(2, GAME.parse_options({"rounds": 3}), seed, None)
    rng = random.Random(seed)
    while GAME.to_move(st):
        seat = GAME.to_move(st)[0]
        view = GAME.view(st, seat)
        if view["phase"] == "play" and len(view["known"][1 - seat]) >= need:
            return st, seat, view
        legal = GAME.legal(st, seat)
        GAME.step(st, seat, legal[int(rng.random() * len(legal))])
    raise AssertionError("no such position")  # pragma: no cover


def other_hand_and_deck(kind, s, opp):
    """(the other hand's cards, the deck's cards) of a determinisation of each adapter's kind."""
    if kind is LostCitiesSearch:
        return s.hands[opp], s.cards_in_deck
    f = native.to_fast(s) if kind is NativeLostCitiesSearch else s
    return [d - DISCARD for d in f[fast.HAND + opp] if d >= DISCARD], list(f[fast.DECK][: f[fast.DN]])


def unseen(view):
    """The cards the viewer cannot see (the other hand and the deck), by the view alone."""
    seen = set(view["hand"])
    for col in view["colours"]:
        seen.update(view["discards"][col])
        for p in (0, 1):
            seen.update(view["expeditions"][p][col])
    return {CARD_IDS[c] for c in CARD_IDS if CARD_IDS[c] < len(view["colours"]) * 12 and c not in seen}


KINDS = [LostCitiesSearch, FastLostCitiesSearch, NativeLostCitiesSearch]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize(("seed", "need"), [(11, 2), (12, 3)])
def test_with_remember_every_deal_holds_the_known_cards_and_adds_up(kind, seed, need):
    st, seat, view = position_with_takes(seed, need)
    opp = 1 - seat
    known = {CARD_IDS[c] for c in view["known"][opp]}
    assert known <= set(st.hands[opp])  # the truth, which the deals must agree with
    hidden = unseen(view)
    sample = kind(remember=True).determiniser(GAME, view, seat)
    rng = random.Random(seed)
    rests = set()
    for _ in range(12):
        hand, deck = other_hand_and_deck(kind, sample(rng), opp)
        assert known <= set(hand)
        assert len(hand) == view["hand_sizes"][opp] and len(deck) == view["deck"]
        assert sorted(hand + deck) == sorted(hidden)  # every unseen card once, nothing else
        rests.add(frozenset(set(hand) - known))
    assert len(rests) > 6  # the rest of the hand is still sampled


@pytest.mark.parametrize("kind", KINDS)
def test_without_remember_the_known_cards_are_not_forced_into_the_hand(kind):
    st, seat, view = position_with_takes(11, 2)
    opp = 1 - seat
    known = {CARD_IDS[c] for c in view["known"][opp]}
    sample = kind().determiniser(GAME, view, seat)
    rng = random.Random(5)
    hands = [set(other_hand_and_deck(kind, sample(rng), opp)[0]) for _ in range(12)]
    assert sum(known <= h for h in hands) < 6  # uniform deals: the known cards are often missing


@pytest.mark.parametrize("kind", KINDS)
def test_without_remember_the_deals_are_those_of_a_view_without_the_key(kind):
    """remember off reads nothing of "known" (the deals, random draw for random draw, are those
    of the view without it), and remember on with nothing known deals the same as off."""
    st, seat, view = position_with_takes(12, 1)
    bare = {k: v for k, v in view.items() if k != "known"}
    empty = {**view, "known": [[], []]}
    deals = []
    for adapter, v in ((kind(), view), (kind(), bare), (kind(remember=True), empty), (kind(remember=True), view)):
        rng = random.Random(3)
        sample = adapter.determiniser(GAME, v, seat)
        deals.append([other_hand_and_deck(kind, sample(rng), 1 - seat) for _ in range(4)])
    assert deals[0] == deals[1] == deals[2]
    assert deals[3] != deals[0]


def test_the_paired_search_passes_remember_to_its_adapter_and_plays_legally():
    assert PairedLostCitiesSearch(remember=True).adapter.remember is True
    assert PairedLostCitiesSearch().adapter.remember is False
    assert StrongPlayer().adapter.remember is False and StrongPlayer(remember=True).adapter.remember is True
    st, seat, view = position_with_takes(11, 2)
    p = StrongPlayer(seconds=None, iterations=300, remember=True)
    a = p.choose(GAME, st, seat, random.Random(1))
    assert a in GAME.legal(st, seat)
    assert p.choose(GAME, st, seat, random.Random(1)) == a and p.stats.iterations >= 300
