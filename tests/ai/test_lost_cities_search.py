"""The searching Lost Cities players: they decide from the view alone, reproducibly, legally."""

import random
import time

import pytest

from engines import ai
from engines.ai import RandomPlayer, play_out
from engines.lost_cities import CARD_IDS, CARD_NAMES, DRAW_DECK, GAME, fast
from engines.lost_cities.ai import (
    FastLostCitiesSearch,
    HeuristicPlayer,
    LostCitiesSearch,
    NormalPlayer,
    PairedLostCitiesSearch,
    StrongPlayer,
    race,
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
    assert isinstance(ai.player("lost-cities", "strong"), ISMCTS) and ai.player("lost-cities", "strong").seconds == 1.0
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


# -- the strong level: paired flat Monte Carlo (issue 22) -----------------------------------------

_COLS = ["yellow", "blue", "white", "green", "red"]


def made(hand0, exps0, deck, phase="play", seed=1, tops=None):
    """Seat 0 to move in round 1 of 3 with the hand and expeditions given; the other hand (8 cards)
    and a deck of ``deck`` cards dealt at random from the rest; every other card in the discard
    piles (``tops``: a pile's top card)."""
    tops = tops or {}
    used = set(hand0) | {c for e in exps0.values() for c in e} | set(tops.values())
    rest = [c for c in CARD_NAMES[:60] if c not in used]
    random.Random(seed).shuffle(rest)
    hand1, dk, piled = rest[:8], rest[8:8 + deck], rest[8 + deck:]
    piles = {c: [x for x in piled if x.startswith(c + "-")] + ([tops[c]] if c in tops else []) for c in _COLS}
    return GAME.load({
        "colours": 5, "rounds": 3, "round": 0, "hands": [hand0, hand1],
        "exps": [[exps0.get(c, []) for c in _COLS], [[] for _ in _COLS]], "piles": [piles[c] for c in _COLS],
        "deck_top_last": dk, "turn": 0, "phase": phase, "just": -1, "round_scores": [], "starters": [0],
        "rng": {"seed": seed, "n": 0}, "setup": None, "last": None,
    })


def test_the_strong_level_is_the_paired_search_with_the_level_budget():
    p = ai.player("lost-cities", "strong")
    assert isinstance(p, PairedLostCitiesSearch) and p.seconds == 1.0 and p.iterations is None
    assert isinstance(p.adapter, FastLostCitiesSearch) and p.adapter.remember is False
    normal = ai.player("lost-cities", "normal")
    assert not isinstance(normal, PairedLostCitiesSearch) and normal.adapter.remember is False  # normal as it was


@pytest.mark.parametrize(("seed", "steps"), [(1, 0), (2, 9), (3, 40), (4, 101), (5, 200), (8, 150)])
def test_the_paired_search_returns_a_legal_action_reproducibly(seed, steps):
    st = position(seed, steps)
    seat = GAME.to_move(st)[0]
    runs = []
    for s in (11, 11, 12):
        p = StrongPlayer(seconds=None, iterations=200)
        runs.append((p.choose(GAME, st, seat, random.Random(s)), p.stats.visits, p.stats.iterations))
    assert runs[0][0] in GAME.legal(st, seat)
    assert runs[0] == runs[1]  # same seed: same choice, same statistics
    assert runs[0][2] >= 200 or len(GAME.legal(st, seat)) == 1 or GAME.view(st, seat)["deck"] <= 2


def test_the_paired_search_keeps_to_a_time_budget():
    st = position(3, 40)
    seat = GAME.to_move(st)[0]
    p = StrongPlayer(seconds=0.05)
    t = time.perf_counter()
    p.choose(GAME, st, seat, random.Random(1))
    assert time.perf_counter() - t < 0.05 + 0.03
    assert p.stats.iterations > 0 and p.batches >= 1


def test_with_two_cards_or_fewer_left_the_strong_level_draws_from_the_deck():
    # yellow-6 on the yellow pile extends seat 0's yellow expedition, and a pile draw keeps the
    # round going: without the rule the search takes from a pile here
    st = made(["yellow-7", "yellow-8", "blue-2", "white-2", "green-2", "red-2", "red-3"], {"yellow": ["yellow-5"]}, 2,
              phase="draw", tops={"yellow": "yellow-6"})
    assert GAME.to_move(st) == (0,) and GAME.view(st, 0)["deck"] == 2 and len(GAME.legal(st, 0)) == 6
    strong = StrongPlayer(seconds=None, iterations=300)
    assert strong.choose(GAME, st, 0, random.Random(1)) == DRAW_DECK
    assert strong.stats.iterations == 0
    free = PairedLostCitiesSearch(seconds=None, iterations=300, last_cards=-1)
    assert free.choose(GAME, st, 0, random.Random(1)) != DRAW_DECK
    # with three cards left the search decides
    st3 = made(["yellow-7", "yellow-8", "blue-2", "white-2", "green-2", "red-2", "red-3"], {"yellow": ["yellow-5"]}, 3,
               phase="draw", tops={"yellow": "yellow-6"})
    strong.choose(GAME, st3, 0, random.Random(1))
    assert strong.stats.iterations > 0


def test_successive_rejection_drops_a_clearly_losing_play():
    # yellow expedition at 5 with 6..10 in hand: playing the 10 now throws away 6-9 (about 30 points)
    st = made(["yellow-6", "yellow-7", "yellow-8", "yellow-9", "yellow-10", "blue-2", "white-2", "green-2"],
              {"yellow": ["yellow-4", "yellow-5"]}, 42)
    y10 = CARD_IDS["yellow-10"]
    y6 = CARD_IDS["yellow-6"]
    assert y10 in GAME.legal(st, 0)
    p = PairedLostCitiesSearch(seconds=None, iterations=1500)
    choice = p.choose(GAME, st, 0, random.Random(3))
    assert p.stats.visits[y10] < p.batches  # dropped before the end
    assert p.stats.visits[y6] == p.batches  # the natural play stays in the race
    assert choice != y10


def _race(means, anchor, sd=0.3, batches=400, seed=1, **kw):
    """``race`` on made-up values: action ``a`` is worth ``means[a]`` plus noise shared by the
    batch (the deal's luck) and noise of its own."""
    rng = random.Random(seed)
    shared = [0.0]

    def new_batch():
        shared[0] = rng.gauss(0, 1)

    def play(a):
        return means[a] + shared[0] + rng.gauss(0, sd)

    return race(list(means), anchor, new_batch, play, max_playouts=batches * len(means), **kw)


def test_race_drops_the_losing_actions_and_keeps_the_close_ones():
    means = {1: 0.0, 2: -1.0, 3: -0.02, 4: -2.0}
    choice, values, it, batches = _race(means, anchor=1)
    assert choice == 1
    assert len(values[2]) < 20 and len(values[4]) < 10  # dropped soon after the warm-up
    assert len(values[2]) >= 6 and len(values[4]) >= 6  # not before it
    assert len(values[3]) == batches == len(values[1])  # too close to tell: still in the race
    assert it == sum(len(v) for v in values.values())


def test_race_keeps_the_anchor_unless_another_action_is_clearly_better():
    # nothing is better than the anchor (3), yet by chance one of the others has the best mean
    means = dict.fromkeys(range(1, 9), 0.0)
    kept = 0
    for seed in range(20):
        choice, values, _, _ = _race(means, anchor=3, seed=seed, batches=60)
        best = max(values, key=lambda a: sum(values[a]) / max(len(values[a]), 1))
        kept += choice == 3 and best != 3
    assert kept >= 14
    # when one is clearly better, it replaces the anchor
    means[6] = 0.2
    assert all(_race(means, anchor=3, seed=seed, batches=60)[0] == 6 for seed in range(5))


def test_race_stops_at_the_clock_and_drops_an_unfinished_batch():
    calls = [0]

    def out_of_time():
        calls[0] += 1
        return calls[0] > 12  # read before each batch and each playout: out after the third batch's first playout

    n = [0]
    choice, values, it, batches = race([1, 2, 3, 4], 2, lambda: None, lambda a: n.__setitem__(0, n[0] + 1) or float(a),
                                       out_of_time=out_of_time)
    assert batches == 2 and all(len(v) == 2 for v in values.values())
    assert it == n[0] == 9  # the third batch's first playout counted, its values not kept
    assert choice == 2  # two batches, fewer than the warm-up: the anchor stays, though 4 was better in both
    # the clock is read before the first batch too
    assert race([1, 2], 1, lambda: None, lambda a: 1 / 0, out_of_time=lambda: True)[0] == 1


def test_a_whole_strong_versus_normal_match_ends_in_bounded_steps():
    for a in (0, 1):
        st = GAME.new_state(2, GAME.parse_options({"rounds": 3}), 43000 + a, None)
        players = [NormalPlayer(seconds=None, iterations=8), NormalPlayer(seconds=None, iterations=8)]
        players[a] = StrongPlayer(seconds=None, iterations=20)
        steps = play_out(GAME, st, players, random.Random(a), max_steps=1500)
        assert 3 * 40 < steps < 1500 and not GAME.to_move(st)


def test_the_paired_search_after_a_lead_tree_search_races_its_shortlist():
    st = position(3, 40)
    seat = GAME.to_move(st)[0]
    runs = []
    for _ in range(2):
        p = PairedLostCitiesSearch(seconds=None, iterations=300, lead=0.3, shortlist=3)
        runs.append((p.choose(GAME, st, seat, random.Random(5)), p.stats.visits, p.anchor))
    assert runs[0] == runs[1]
    choice, visits, anchor = runs[0]
    assert choice in GAME.legal(st, seat) and anchor in visits
    assert 2 <= len(visits) <= 5 < len(GAME.legal(st, seat))  # the tree's three best, its choice, the policy's move
