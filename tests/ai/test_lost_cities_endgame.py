"""The perfect-information end of round (engines/lost_cities/endgame.py) and the strong search's
``endgame`` option that solves it per determinisation."""

import random

import pytest

from engines.lost_cities import CARD_IDS, CARD_NAMES, DISCARD, DRAW_DECK, DRAW_PILE, GAME, endgame, fast
from engines.lost_cities.ai import PairedLostCitiesSearch, StrongPlayer
from engines.lost_cities.endgame import Solver, margin, solve

_COLS = ["yellow", "blue", "white", "green", "red"]


def known(hand0, exps0, deck_top_first, hand1=None, exps1=None, tops=None, phase="play", turn=0):
    """A round-1-of-3 position with everything given: seat 0's hand and expeditions, the deck (top
    first), the other hand (default: 8 cards of the rest), every card left over on its colour's
    discard pile (``tops``: a pile's top card). Returns the compact state."""
    tops = tops or {}
    exps1 = exps1 or {}
    used = set(hand0) | set(deck_top_first) | set(hand1 or []) | set(tops.values())
    used |= {c for e in list(exps0.values()) + list(exps1.values()) for c in e}
    rest = [c for c in CARD_NAMES[:60] if c not in used]
    if hand1 is None:
        random.Random(7).shuffle(rest)
        hand1, rest = rest[:8], rest[8:]
    piles = {c: [x for x in rest if x.startswith(c + "-")] + ([tops[c]] if c in tops else []) for c in _COLS}
    return GAME.load({
        "colours": 5, "rounds": 3, "round": 0, "hands": [hand0, hand1],
        "exps": [[exps0.get(c, []) for c in _COLS], [exps1.get(c, []) for c in _COLS]],
        "piles": [piles[c] for c in _COLS], "deck_top_last": list(reversed(deck_top_first)), "turn": turn,
        "phase": phase, "just": -1, "round_scores": [], "starters": [0], "rng": {"seed": 1, "n": 0},
        "setup": None, "last": None,
    })


def late(seed, deck):
    """A position of a seeded random one-round match at a play phase with ``deck`` cards left
    (every draw from the deck, so the deck runs down; plays and discards at random)."""
    rnd = random.Random(seed)
    s = fast.new_match(5, 1, seed)
    while True:
        acts = fast.legal(s)
        if s[1] == 0 and s[2] <= deck:
            return s
        fast.step(s, acts[0] if s[1] == 1 else acts[int(rnd.random() * len(acts))], False)


def brute(s, root, stalls, cache):
    """Plain minimax over every play, discard and draw (no pruning, no table)."""
    vals = []
    for a in tuple(s[5 + s[0]]):
        s1 = fast.clone(s)
        for d in tuple(fast.step(s1, a, False)):
            if d != DRAW_DECK and not stalls:
                continue
            s2 = fast.clone(s1)
            fast.step(s2, d, False)
            vals.append(margin(s2, root, cache) if s2[2] == 0 else brute(s2, root, stalls - (d != DRAW_DECK), cache))
    return max(vals) if s[0] == root else min(vals)


def brute_root(s, root, stalls):
    out = {}
    for a in tuple(s[5 + root]):
        s1 = fast.clone(s)
        best = None
        for d in tuple(fast.step(s1, a, False)):
            if d != DRAW_DECK and not stalls:
                continue
            s2 = fast.clone(s1)
            fast.step(s2, d, False)
            v = margin(s2, root, {}) if s2[2] == 0 else brute(s2, root, stalls - (d != DRAW_DECK), {})
            best = v if best is None else max(best, v)
        out[a] = best
    return out


@pytest.mark.parametrize("seed", range(8))
def test_the_solver_matches_plain_minimax(seed):
    for deck in (1, 2):
        s = late(seed, deck)
        root = s[0]
        for stalls in (0, 1, 2) if deck == 1 else (0, 1):
            want = brute_root(s, root, stalls)
            for memo in (False, True):
                assert solve(s, root, stalls, memo=memo) == want, (deck, stalls, memo)
        # pruning is exact without pile draws (a dead card's discard is one move)
        assert solve(s, root, 0, prune=True) == brute_root(s, root, 0)


def test_the_solver_leaves_the_state_as_it_was():
    s = late(3, 2)
    before = [list(x) if isinstance(x, list) else x for x in s]
    solve(s, s[0], 1)
    assert [list(x) if isinstance(x, list) else x for x in s] == before


def test_the_last_turn_plays_the_card_worth_most():
    # yellow at 5 (two wagers): the 9 adds 27 points, the blue 2 would open a losing expedition
    st = known(["yellow-9", "blue-2", "white-3", "green-3", "red-3", "red-4", "green-4", "white-4"],
               {"yellow": ["yellow-w1", "yellow-w2", "yellow-5"]}, ["blue-10"])
    s = fast.from_state(st)
    values = solve(s, 0, 0)
    best = max(values, key=values.get)
    assert best == CARD_IDS["yellow-9"]
    assert values[best] - values[CARD_IDS["white-3"] + DISCARD] == 27


def test_a_pile_draw_buys_the_turn_that_plays_another_card():
    # seat 0 has played yellow-6 and draws with 2 cards in the deck: from the deck, the other seat
    # takes the last card before seat 0 plays yellow-7; a pile draw (a stall) leaves the deck as it
    # is and seat 0 gets that turn
    st = known(["yellow-6", "yellow-7", "blue-2", "white-2", "green-2", "red-2", "red-3", "white-3"],
               {"yellow": ["yellow-5"]}, ["blue-9", "blue-10"], tops={"green": "green-3"})
    y6 = CARD_IDS["yellow-6"]
    GAME.step(st, 0, y6)
    s = fast.from_state(st)
    assert s[1] == 1 and s[2] == 2
    deck_only = Solver(0, 0).root_values(s)
    assert set(deck_only) == {DRAW_DECK}
    values = Solver(0, 1).root_values(s)
    pile = DRAW_PILE + _COLS.index("green")
    assert values[pile] == values[DRAW_DECK] + 7  # the yellow 7 played
    # the strong search with the endgame solver takes the pile; the loop guard stops it
    p = PairedLostCitiesSearch(seconds=None, iterations=400, endgame=2)
    took = p.choose(GAME, st, 0, random.Random(1))
    assert took != DRAW_DECK and took in GAME.legal(st, 0)
    guard = PairedLostCitiesSearch(seconds=None, iterations=400, endgame=2, max_stalls=0)
    assert guard.choose(GAME, st, 0, random.Random(1)) == DRAW_DECK
    # the level as committed draws from the deck with 2 cards left
    assert StrongPlayer(seconds=None, iterations=400).choose(GAME, st, 0, random.Random(1)) == DRAW_DECK


def test_the_solver_stops_when_told_the_time_is_up():
    s = late(4, 3)
    with pytest.raises(endgame.OutOfTime):
        Solver(s[0], 1, out_of_time=lambda: True).root_values(s)


@pytest.mark.parametrize(("seed", "deck"), [(1, 1), (2, 2), (3, 3), (5, 3)])
def test_the_endgame_search_is_legal_and_reproducible(seed, deck):
    st = GAME.new_state(2, GAME.parse_options({"rounds": 3}), seed, None)
    rng = random.Random(seed)
    while GAME.view(st, None)["deck"] > deck or GAME.view(st, None)["phase"] != "play":
        seat = GAME.to_move(st)[0]
        legal = GAME.legal(st, seat)
        GAME.step(st, seat, DRAW_DECK if DRAW_DECK in legal else legal[int(rng.random() * len(legal))])
    seat = GAME.to_move(st)[0]
    runs = []
    for s in (11, 11):
        p = PairedLostCitiesSearch(seconds=None, iterations=120, endgame=3)
        runs.append((p.choose(GAME, st, seat, random.Random(s)), p.stats.visits, p.stats.iterations))
    assert runs[0][0] in GAME.legal(st, seat)
    assert runs[0] == runs[1]
    assert runs[0][2] > 0


def test_a_whole_endgame_strong_versus_normal_match_ends():
    from engines.lost_cities.ai import NormalPlayer

    st = GAME.new_state(2, GAME.parse_options({"rounds": 1}), 3, None)
    players = [PairedLostCitiesSearch(seconds=None, iterations=60, endgame=3), NormalPlayer(seconds=None, iterations=40)]
    k = 0
    while movers := GAME.to_move(st):
        seat = movers[0]
        GAME.step(st, seat, players[seat].choose(GAME, st, seat, random.Random(k)))
        k += 1
        assert k < 1500
