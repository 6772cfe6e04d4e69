"""The searching Lost Cities players: they decide from the view alone, reproducibly, legally."""

import random

import pytest

from engines import ai
from engines.ai import RandomPlayer, play_out
from engines.lost_cities import GAME, fast
from engines.lost_cities.ai import (
    FastLostCitiesSearch,
    HeuristicPlayer,
    LostCitiesSearch,
    NormalPlayer,
    StrongPlayer,
)
from engines.search import ISMCTS
from tests.ai.helpers import checked_moves


def position(seed, steps, rounds=3):
    """A state after `steps` heuristic moves of a seeded match."""
    st = GAME.new_state(2, GAME.parse_options({"rounds": rounds}), seed, None)
    h, rng = HeuristicPlayer(), random.Random(seed)
    for _ in range(steps):
        seat = GAME.to_move(st)[0]
        GAME.step(st, seat, h.choose(GAME, st, seat, rng))
    return st


def scramble_hidden(st, seat, salt):
    """The same position for `seat`, with what it cannot see changed: the other hand and the deck
    dealt again from the same cards, and another seed for the later rounds."""
    d = GAME.dump(st)
    opp = 1 - seat
    hidden = d["hands"][opp] + d["deck_top_last"]
    random.Random(salt).shuffle(hidden)
    n = len(d["hands"][opp])
    d["hands"][opp], d["deck_top_last"] = hidden[:n], hidden[n:]
    d["rng"] = {"seed": 10_000 + salt, "n": salt}
    return GAME.load(d)


@pytest.mark.parametrize(("seed", "steps"), [(1, 0), (2, 9), (3, 40), (4, 101)])
def test_the_decision_does_not_change_when_the_hidden_state_does(seed, steps):
    st = position(seed, steps)
    seat = GAME.to_move(st)[0]
    others = [scramble_hidden(st, seat, salt) for salt in (1, 2)]
    assert all(GAME.view(o, seat) == GAME.view(st, seat) for o in others)
    assert all(GAME.dump(o) != GAME.dump(st) for o in others)  # the hidden parts really differ
    choices = []
    for s in (st, *others):
        p = StrongPlayer(seconds=None, iterations=40)
        choices.append((p.choose(GAME, s, seat, random.Random(7)), p.stats.visits))
    assert choices[0] == choices[1] == choices[2]


def test_the_determinisations_agree_with_the_view_and_vary():
    st = position(5, 30)
    seat = GAME.to_move(st)[0]
    view = GAME.view(st, seat)
    sample = LostCitiesSearch().determiniser(GAME, view, seat)
    rng = random.Random(1)
    deals = set()
    for _ in range(5):
        d = sample(rng)
        assert GAME.view(d, seat) == view
        assert sorted(GAME.legal(d, seat)) == sorted(GAME.legal(st, seat))
        deals.add(tuple(d.hands[1 - seat]))
    assert len(deals) == 5


def test_same_seed_same_choice_and_statistics_other_seed_may_differ():
    st = position(6, 20)
    seat = GAME.to_move(st)[0]
    runs = []
    for seed in (3, 3, 4):
        p = NormalPlayer(seconds=None, iterations=60)
        runs.append((p.choose(GAME, st, seat, random.Random(seed)), p.stats.visits))
    assert runs[0] == runs[1]
    assert runs[0][1] != runs[2][1]
    assert sum(runs[0][1].values()) == 60


def test_levels_are_registered_for_the_bot():
    kinds = ai.players_for("lost-cities")
    assert {"easy", "normal", "strong", "heuristic", "random"} <= set(kinds)
    assert kinds["easy"] is HeuristicPlayer and kinds["heuristic"] is HeuristicPlayer
    assert isinstance(ai.player("lost-cities", "strong"), ISMCTS) and ai.player("lost-cities", "strong").seconds == 0.3
    assert ai.player("lost-cities", "normal").seconds == 0.1
    fixed = ai.player("lost-cities", "strong", iterations=5)
    assert fixed.iterations == 5 and fixed.seconds is None
    with pytest.raises(KeyError):
        ai.player("lost-cities", "grandmaster")


def test_a_whole_match_of_search_players_is_legal_and_reproducible():
    def run():
        st = GAME.new_state(2, GAME.parse_options({"rounds": 1}), 8, None)
        codes = checked_moves(GAME, st, [StrongPlayer(seconds=None, iterations=6), NormalPlayer(seconds=None, iterations=3)])
        return codes, GAME.result(st)

    assert run() == run()


def test_a_small_search_beats_random_in_one_round_matches():
    wins = 0
    for seed in range(4):
        st = GAME.new_state(2, GAME.parse_options({"rounds": 1}), 100 + seed, None)
        a = seed % 2
        players = [RandomPlayer(), RandomPlayer()]
        players[a] = StrongPlayer(seconds=None, iterations=6)
        play_out(GAME, st, players, random.Random(seed))
        scores = GAME.result(st).scores
        wins += scores[a] > scores[1 - a]
    assert wins == 4


@pytest.mark.parametrize(("seed", "steps", "rounds"), [(1, 0, 3), (2, 9, 3), (3, 40, 3), (4, 101, 3), (5, 200, 3), (7, 85, 3), (8, 150, 3), (9, 60, 1)])
def test_the_fast_search_chooses_as_the_compact_one_with_the_same_statistics(seed, steps, rounds):
    """The levels search on the fast state; on the same iterations and rng it makes the same
    choice with the same visit counts as the search on the compact engine (its reference)."""
    st = position(seed, steps, rounds)
    seat = GAME.to_move(st)[0]
    runs = []
    for adapter in (LostCitiesSearch, FastLostCitiesSearch):
        p = ISMCTS(adapter(), seconds=None, iterations=150, prior_weight=5.0, depth=2)
        runs.append((p.choose(GAME, st, seat, random.Random(seed)), p.stats.visits))
    assert runs[0] == runs[1]
    assert sum(runs[0][1].values()) == 150
    assert isinstance(StrongPlayer().adapter, FastLostCitiesSearch) and isinstance(NormalPlayer().adapter, FastLostCitiesSearch)


def test_the_fast_determinisations_agree_with_the_view_and_vary():
    st = position(5, 31)
    seat = GAME.to_move(st)[0]
    view = GAME.view(st, seat)
    sample = FastLostCitiesSearch().determiniser(GAME, view, seat)
    rng = random.Random(1)
    deals = set()
    for _ in range(5):
        d = fast.to_state(sample(rng))
        assert GAME.view(d, seat) == view
        assert sorted(GAME.legal(d, seat)) == sorted(GAME.legal(st, seat))
        assert sorted(d.hands[1 - seat] + d.cards_in_deck) == sorted(st.hands[1 - seat] + st.cards_in_deck)
        deals.add(tuple(d.hands[1 - seat]))
    assert len(deals) == 5


def test_the_fused_policy_playout_plays_the_policy_moves():
    search = FastLostCitiesSearch()
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
        search.playout(GAME, b, search.horizon(GAME, b), rng_b)
        assert a == b and rng_a.random() == rng_b.random()
        assert a[fast.DN] == 0


def _native_modules():
    """engines/lost_cities/native.py as imported (compiled when built) and its source as plain Python."""
    import importlib.util
    from pathlib import Path

    from engines.lost_cities import native

    spec = importlib.util.spec_from_file_location("lost_cities_native_source_ai", Path(native.__file__).with_name("native.py"))
    source = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(source)
    return [pytest.param(native, id="imported"), pytest.param(source, id="source")]


NATIVE_MODULES = _native_modules()


@pytest.mark.parametrize("mod", NATIVE_MODULES)
@pytest.mark.parametrize(("seed", "steps", "rounds"), [(1, 0, 3), (3, 40, 3), (5, 200, 3), (8, 150, 3), (9, 60, 1)])
def test_the_native_search_chooses_as_the_fast_one_with_the_same_statistics(mod, seed, steps, rounds, monkeypatch):
    """On native.py's states (compiled or not) the search makes the same choice with the same
    visit counts as on the fast path, for the same iterations and rng; the levels use it when the
    compiled build is there."""
    from engines.lost_cities import ai as lc_ai
    from engines.lost_cities import native

    monkeypatch.setattr(lc_ai, "native", mod)
    st = position(seed, steps, rounds)
    seat = GAME.to_move(st)[0]
    runs = []
    for adapter in (FastLostCitiesSearch, lc_ai.NativeLostCitiesSearch):
        p = ISMCTS(adapter(), seconds=None, iterations=150, prior_weight=5.0, depth=2)
        runs.append((p.choose(GAME, st, seat, random.Random(seed)), p.stats.visits))
    assert runs[0] == runs[1]
    assert sum(runs[0][1].values()) == 150
    assert lc_ai.LEVEL_SEARCH is (lc_ai.NativeLostCitiesSearch if native.COMPILED else FastLostCitiesSearch)


@pytest.mark.parametrize("mod", NATIVE_MODULES)
def test_the_native_policy_playout_plays_as_the_fast_one(mod):
    """native.policy_playout: the same moves and draws of the rng as FastLostCitiesSearch.playout,
    from determinised samples of many positions (some between a play and its draw), with the
    policy's random moves on (epsilon 0.1) and at a high rate (0.6)."""
    from engines.lost_cities import native

    for eps in (0.1, 0.6):
        search = FastLostCitiesSearch(epsilon=eps)
        for seed in range(16):
            st = position(seed, 7 * seed + seed % 2)
            seat = GAME.to_move(st)[0]
            sample = search.determiniser(GAME, GAME.view(st, seat), seat)(random.Random(seed))
            a = fast.clone(sample)
            b = mod.from_fast(fast.clone(sample))
            rng_a, rng_b = random.Random(seed), random.Random(seed)
            search.playout(GAME, a, 0, rng_a)
            mod.policy_playout(b, rng_b.random, eps)
            assert rng_a.random() == rng_b.random()
            assert a[fast.DN] == 0 and b.dn == 0
            assert GAME.dump(fast.to_state(mod.to_fast(b))) == GAME.dump(fast.to_state(a))
            assert native.to_fast(native.from_fast(a)) == a  # masks, counts and all agree
