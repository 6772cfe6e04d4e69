"""The searching Carcassonne players: they decide from the view alone (never the pile order)."""

import random

import pytest

from engines import ai
from engines.carcassonne import GAME
from engines.carcassonne.ai import CarcassonneSearch, GreedyPlayer, StrongPlayer
from engines.search import ISMCTS


def position(seed, steps, seats=2):
    st = GAME.new_state(seats, GAME.parse_options({}), seed, None)
    p, rng = GreedyPlayer(), random.Random(seed)
    for _ in range(steps):
        seat = GAME.to_move(st)[0]
        GAME.step(st, seat, p.choose(GAME, st, seat, rng))
    return st


def scramble_hidden(st, salt):
    """The same table with the draw pile in another order and another seed."""
    d = GAME.dump(st)
    random.Random(salt).shuffle(d["pile"])
    d["rng"] = {"seed": 5000 + salt, "n": salt}
    return GAME.load(d)


@pytest.mark.parametrize(("seed", "steps"), [(1, 0), (2, 15), (3, 40)])
def test_the_decision_does_not_change_when_the_pile_order_does(seed, steps):
    st = position(seed, steps)
    seat = GAME.to_move(st)[0]
    others = [scramble_hidden(st, salt) for salt in (1, 2)]
    assert all(GAME.view(o, seat) == GAME.view(st, seat) for o in others)
    assert all(GAME.dump(o)["pile"] != GAME.dump(st)["pile"] for o in others)
    choices = []
    for s in (st, *others):
        p = StrongPlayer(seconds=None, iterations=12)
        choices.append((p.choose(GAME, s, seat, random.Random(4)), p.stats.visits))
    assert choices[0] == choices[1] == choices[2]


def test_determinisations_show_the_same_view_and_legal_actions():
    st = position(4, 21, seats=3)
    seat = GAME.to_move(st)[0]
    view = GAME.view(st, seat)
    sample = CarcassonneSearch().determiniser(GAME, view, seat)
    rng = random.Random(1)
    piles = set()
    for _ in range(4):
        d = sample(rng)
        assert GAME.view(d, seat) == view
        assert GAME.legal(d, seat) == GAME.legal(st, seat)
        assert sorted(GAME.dump(d)["pile"]) == sorted(GAME.dump(st)["pile"])
        piles.add(tuple(GAME.dump(d)["pile"]))
    assert len(piles) == 4


def test_levels_and_a_short_reproducible_match():
    kinds = ai.players_for("carcassonne")
    assert {"easy", "normal", "strong", "greedy", "random"} <= set(kinds)
    assert isinstance(ai.player("carcassonne", "normal"), ISMCTS)

    def run():
        st = position(9, 0)
        players = [StrongPlayer(seconds=None, iterations=4), GreedyPlayer()]
        codes = []
        for k in range(16):
            seat = GAME.to_move(st)[0]
            code = players[seat].choose(GAME, st, seat, random.Random(k))
            GAME.check(st, seat, code)
            GAME.step(st, seat, code)
            codes.append(code)
        return codes

    assert run() == run()
