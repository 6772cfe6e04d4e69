"""The searching Cities players: they decide from what the seat can see - the hidden parts of
the table (deck and bag order, face-down items) are dealt anew before the search looks."""

import random

import pytest

from engines import ai
from engines.cities import GAME
from engines.cities.ai import CitiesSearch, HeuristicPlayer, StrongPlayer
from engines.search import ISMCTS
from tests.ai.helpers import checked_moves, cities_position, cities_take_position

position = cities_position


@pytest.mark.parametrize(("seed", "steps", "seats"), [(1, 4, 2), (2, 11, 3), (3, 30, 4)])
def test_the_decision_does_not_change_when_the_hidden_parts_do(seed, steps, seats):
    st = position(seed, steps, seats)
    seat = GAME.to_move(st)[0]
    others = [GAME.redeal(st, None, random.Random(salt)) for salt in (1, 2)]
    assert all(GAME.view(o, seat) == GAME.view(st, seat) for o in others)
    assert all(GAME.dump(o) != GAME.dump(st) for o in others)  # something hidden did change
    choices = []
    for s in (st, *others):
        p = StrongPlayer(seconds=None, iterations=15, place="search")  # the former ISMCTS for placements too
        choices.append((p.choose(GAME, s, seat, random.Random(4)), p.stats.visits))
    assert choices[0] == choices[1] == choices[2]
    assert sum(choices[0][1].values()) == 15  # every iteration went through one root action
    # the levels as they are (placements planned, takes drafted) decide the same on every deal
    level = [StrongPlayer(seconds=None, iterations=15).choose(GAME, s, seat, random.Random(4)) for s in (st, *others)]
    assert level[0] == level[1] == level[2]


def test_determinisations_agree_with_the_view_and_differ_in_what_is_hidden():
    st = position(4, 9, seats=3)
    seat = GAME.to_move(st)[0]
    view = GAME.view(st, seat)
    sample = CitiesSearch().determiniser(GAME, view, seat, st)
    rng = random.Random(1)
    bags = set()
    for _ in range(4):
        d = sample(rng)
        assert GAME.view(d, seat) == view
        assert GAME.legal(d, seat) == GAME.legal(st, seat)
        assert sorted(d.bag) == sorted(st.bag)
        bags.add(tuple(d.bag))
    assert len(bags) == 4


def test_the_valuation_of_a_table_matches_the_heuristics_valuation_of_the_view():
    """The playouts value a table as the heuristic values a view: same numbers for the same seat."""
    from engines.cities.ai import _Context, _TableContext, hood_from_view

    st = position(6, 25, seats=2)
    for seat in range(2):
        view = GAME.view(st, seat)
        a = _Context(view, seat)
        b = _TableContext(st, seat)
        assert (a.cards, a.late) == (b.cards, b.late)
        assert [(n, v) for _, n, v in a.open] == [(n, v) for _, n, v in b.open]
        assert a.value(hood_from_view(view["players"][seat])) == pytest.approx(b.value(st.hoods[seat]))


def test_levels_and_a_short_reproducible_match():
    kinds = ai.players_for("cities")
    assert {"easy", "normal", "strong", "heuristic", "random"} <= set(kinds)
    assert isinstance(ai.player("cities", "strong"), ISMCTS)

    def run():
        return checked_moves(GAME, position(9, 0), [StrongPlayer(seconds=None, iterations=5), HeuristicPlayer()], 30)

    assert run() == run()


def test_the_heuristics_valuation_is_one_member_of_the_fitted_family():
    """The fitted evaluation's terms with the heuristic's weights give the heuristic's value, so the
    fit (bench/cities_eval_fit.py) only moves weights of terms the heuristic already reads."""
    from engines.cities.ai import HEURISTIC_WEIGHTS, WEIGHTS, _Context, _FitContext, hood_from_view

    for seed, steps, seats in ((6, 25, 2), (7, 60, 4), (8, 90, 3)):
        st = position(seed, steps, seats)
        for seat in range(seats):
            view = GAME.view(st, seat)
            h = hood_from_view(view["players"][seat])
            heuristic = _Context(view, seat).value(h)
            assert _FitContext(view, seat).fit(seats, HEURISTIC_WEIGHTS).value(h) == pytest.approx(heuristic)
    assert WEIGHTS[2] != HEURISTIC_WEIGHTS  # the fitted weights are not the heuristic's


take_position = cities_take_position


@pytest.mark.parametrize("seats", [2, 4])
def test_a_draft_decision_reads_only_the_view_and_spends_its_rollouts_on_the_legal_takes(seats):
    st = take_position(11, seats)
    seat = GAME.to_move(st)[0]
    legal = GAME.legal(st, seat)
    choices = []
    for s in (st, GAME.redeal(st, None, random.Random(3))):
        p = StrongPlayer(seconds=None, iterations=120)
        choices.append((p.choose(GAME, s, seat, random.Random(5)), p.stats.visits))
    assert choices[0] == choices[1]
    code, visits = choices[0]
    assert code in legal and set(visits) == set(legal)
    assert sum(visits.values()) == 120
    assert max(visits.values()) - min(visits.values()) <= 1  # every candidate is rolled out as often


def test_the_searching_seat_can_value_the_star_slot_apart_from_the_heuristic():
    from engines.cities.ai import _Context, _star_valued, hood_from_view

    st = position(12, 0, 4)
    p, rng = HeuristicPlayer(), random.Random(12)
    while st.phase != 1 or st.workers[3][3] >= 0 or st.round < 1 or st.round == st.rounds - 1:
        seat = GAME.to_move(st)[0]
        GAME.step(st, seat, p.choose(GAME, st, seat, rng))
    seat = GAME.to_move(st)[0]
    view = GAME.view(st, seat)
    codes = [("take", r, k) for r in range(4) for k in range(4) if st.workers[r][k] < 0]
    h = hood_from_view(view["players"][seat])
    heuristic = dict((c, v) for v, c in HeuristicPlayer.take_values(view, _Context(view, seat), h, codes, random.Random(1)))
    starless = dict((c, v) for v, c in _star_valued(0.0).take_values(view, _Context(view, seat), h, codes, random.Random(1)))
    assert heuristic[("take", 3, 3)] - starless[("take", 3, 3)] == pytest.approx(sum(HeuristicPlayer.STAR))
    assert all(heuristic[c] == starless[c] for c in codes if c != ("take", 3, 3))

