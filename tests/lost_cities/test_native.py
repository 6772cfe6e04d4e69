"""engines/lost_cities/native.py (the playouts an optional mypyc build compiles: ``./dev compile``)
against today's compact engine, which stays the reference: for the same seed and the same actions,
the same legal lists (in the same order), the same state after every action, the same round
scores and result, over seeded random matches. Each check runs on the module as imported (the
compiled one when it is built) and on its source run as plain Python."""

import importlib.machinery
import importlib.util
import json
import random
from pathlib import Path

import pytest

from engines.lost_cities import CARD_NAMES, GAME, Info, fast, native
from engines.rng import Rng

from .helpers import dump, round_setup

_spec = importlib.util.spec_from_file_location("lost_cities_native_source", Path(native.__file__).with_name("native.py"))
source = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(source)

MODULES = [pytest.param(native, id="imported"), pytest.param(source, id="source")]


def test_the_source_module_is_plain_python():
    assert source.COMPILED is False and source.__file__.endswith("native.py")
    # the imported module is the compiled one exactly when a shared library sits beside native.py
    here = Path(native.__file__).parent
    built = any((here / f"native{suffix}").exists() for suffix in importlib.machinery.EXTENSION_SUFFIXES)
    assert native.COMPILED is built


def test_tables_agree_with_the_engine():
    from engines.lost_cities import _DRAWS, CARD_IDS, COLOUR_OF, RANK

    for mod in (native, source):
        assert mod.CARD_IDS == CARD_IDS and mod.RANK == RANK and mod.COLOUR == COLOUR_OF
        assert [tuple(d) for d in mod.DRAWS] == _DRAWS


def same(mod, s, state):
    """The native state, as a compact State, equals the reference's; so do the legal actions and
    the running scores of the round."""
    assert dump(fast.to_state(mod.to_fast(s))) == dump(state)
    movers = GAME.to_move(state)
    assert mod.legal(s) == (GAME.legal(state, movers[0]) if movers else [])
    if movers:
        assert s.turn == movers[0]
        totals = [sum(r[p] for r in GAME.round_scores(state)) for p in (0, 1)]
        assert [mod.score(s, p) for p in (0, 1)] == [GAME.scores(state)[p] - totals[p] for p in (0, 1)]


def play_both(mod, state, s, rng):
    """Random actions from the reference's legal list, applied to both, compared after each."""
    steps = 0
    acts = mod.legal(s)
    while GAME.to_move(state):
        seat = GAME.to_move(state)[0]
        legal = GAME.legal(state, seat)
        assert list(acts) == legal
        code = legal[int(rng.random() * len(legal))]
        GAME.step(state, seat, code)
        acts = mod.step(s, code)
        steps += 1
        same(mod, s, state)
    assert acts == [] and s.phase == native.OVER
    assert GAME.result(fast.to_state(mod.to_fast(s))) == GAME.result(state)
    assert s.info.round_scores == tuple(tuple(r) for r in GAME.round_scores(state))
    return steps


def new_match(mod, colours, rounds, seed):
    m = Info(colours, rounds)
    m.rng = Rng(seed)
    return mod.new_match(m)


@pytest.mark.parametrize("mod", MODULES)
@pytest.mark.parametrize("seed", range(12))
def test_seeded_random_matches_step_by_step(mod, seed):
    purple, rounds = seed % 3 == 0, 1 + seed % 3
    state = GAME.new_state(2, GAME.parse_options({"purple": purple, "rounds": rounds}), 3000 + seed, None)
    s = new_match(mod, 6 if purple else 5, rounds, 3000 + seed)
    same(mod, s, state)
    assert play_both(mod, state, s, random.Random(seed)) > 80


@pytest.mark.parametrize("mod", MODULES)
def test_from_the_fast_path_mid_match_and_with_an_explicit_setup(mod):
    rng = random.Random(5)
    rounds = []
    for _ in range(3):
        cards = list(CARD_NAMES[:60])
        rng.shuffle(cards)
        rounds.append(round_setup(cards[:8], cards[8:16], cards[16:]))
    state = GAME.new_state(2, GAME.parse_options({"rounds": 3}), None, json.loads(json.dumps({"rounds": rounds})))
    for _ in range(37):  # stop between the play and the draw of a turn
        seat = GAME.to_move(state)[0]
        legal = GAME.legal(state, seat)
        GAME.step(state, seat, legal[int(rng.random() * len(legal))])
    assert dump(state)["phase"] == "draw"
    s = mod.from_fast(fast.from_state(state))
    same(mod, s, state)
    play_both(mod, state, s, random.Random(9))


@pytest.mark.parametrize("mod", MODULES)
@pytest.mark.parametrize("seed", range(6))
def test_random_playout_and_copies_play_the_same_match(mod, seed):
    opts = GAME.parse_options({"purple": seed % 2 == 1, "rounds": 1 + seed % 3})
    state = GAME.new_state(2, opts, 4000 + seed, None)
    rng = random.Random(seed)
    for _ in range(seed * 11):
        seat = GAME.to_move(state)[0]
        legal = GAME.legal(state, seat)
        GAME.step(state, seat, legal[int(rng.random() * len(legal))])
    s = mod.from_fast(fast.from_state(state))
    before = dump(state)
    # the reference, one action at a time
    rnd = random.Random(seed).random
    steps = 0
    while GAME.to_move(state):
        seat = GAME.to_move(state)[0]
        legal = GAME.legal(state, seat)
        GAME.step(state, seat, legal[int(rnd() * len(legal))])
        steps += 1
    # a copy per action, as a search pays
    c = mod.clone(s)
    rnd = random.Random(seed).random
    acts = mod.legal(c)
    while acts:
        c = mod.clone(c)
        acts = mod.step(c, acts[int(rnd() * len(acts))])
    assert dump(fast.to_state(mod.to_fast(c))) == dump(state)
    # the copies left the original alone; the fused playout plays the same match on it
    assert dump(fast.to_state(mod.to_fast(s))) == before
    assert mod.random_playout(s, random.Random(seed).random) == steps
    assert dump(fast.to_state(mod.to_fast(s))) == dump(state)
    assert mod.random_playout(s, random.Random(seed).random) == 0


@pytest.mark.parametrize("mod", MODULES)
def test_without_round_end_the_state_waits_at_the_end_of_the_round(mod):
    s = new_match(mod, 5, 2, 4)
    rng = random.Random(4)
    acts = mod.legal(s)
    while acts:
        acts = mod.step(s, acts[int(rng.random() * len(acts))], False)
    assert s.dn == 0 and s.info.round == 0 and s.info.round_scores == ()
    assert mod.score(s, 0) != 0 or mod.score(s, 1) != 0


def test_the_shuffle_deals_as_the_match_rng():
    for seed in range(100):
        a, b = Rng(seed, seed % 7), Rng(seed, seed % 7)
        cards = list(range(60 + 12 * (seed % 2)))
        a.shuffle(cards)
        assert native.shuffled(b, len(cards)) == cards and a == b
