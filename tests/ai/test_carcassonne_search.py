"""The searching Carcassonne players: they decide from the view alone (never the pile order)."""

import random

import pytest

from engines import ai
from engines.carcassonne import GAME
from engines.carcassonne import ai as ai_module
from engines.carcassonne.ai import (
    Evaluator,
    ExpectimaxPlayer,
    GreedyPlayer,
    NormalPlayer,
    Replies,
    StrongPlayer,
    _remaining,
    _tie,
    greedy_values,
    state_from_view,
)
from engines.carcassonne.board import copy_for_put
from engines.carcassonne.tiles import CITY, INDEX
from tests.ai.helpers import checked_moves


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


@pytest.mark.parametrize("level", [NormalPlayer, StrongPlayer])
@pytest.mark.parametrize(("seed", "steps"), [(1, 0), (2, 15), (3, 40)])
def test_the_decision_does_not_change_when_the_pile_order_does(seed, steps, level):
    st = position(seed, steps)
    seat = GAME.to_move(st)[0]
    others = [scramble_hidden(st, salt) for salt in (1, 2)]
    assert all(GAME.view(o, seat) == GAME.view(st, seat) for o in others)
    assert all(GAME.dump(o)["pile"] != GAME.dump(st)["pile"] for o in others)
    choices = []
    for s in (st, *others):
        p = level(seconds=None, iterations=6)
        choices.append((p.choose(GAME, s, seat, random.Random(4)), p.stats.visits))
    assert choices[0] == choices[1] == choices[2]
    assert len(choices[0][1]) == min(6, len(GAME.legal(st, seat)))  # six placements looked at


def test_the_table_rebuilt_from_a_view_shows_that_view_and_the_same_legal_actions():
    """What the search starts from: the table of the view, plus the remaining tiles by count (the
    public multiset) - put back as a pile, it is the real table up to the pile's order."""
    st = position(4, 21, seats=3)
    seat = GAME.to_move(st)[0]
    view = GAME.view(st, seat)
    rebuilt = state_from_view(GAME, view)
    assert rebuilt.pile == []  # nothing hidden in it
    rebuilt.pile = _remaining(view)
    assert sorted(rebuilt.pile) == sorted(st.pile)
    assert GAME.view(rebuilt, seat) == view
    assert GAME.legal(rebuilt, seat) == GAME.legal(st, seat)


def test_levels_and_a_short_reproducible_match():
    kinds = ai.players_for("carcassonne")
    assert {"easy", "normal", "strong", "greedy", "random"} <= set(kinds)
    for level, seconds in (("normal", 0.1), ("strong", 0.3)):
        p = ai.player("carcassonne", level)
        assert isinstance(p, ExpectimaxPlayer) and p.searching and p.seconds == seconds

    def run():
        return checked_moves(GAME, position(9, 0), [StrongPlayer(seconds=None, iterations=4), GreedyPlayer()], 16)

    assert run() == run()


def table(board, pile):
    return GAME.new_state(2, GAME.parse_options({}), None, {"board": board, "pile": pile})


def test_a_city_closes_only_if_some_remaining_tile_fits_its_open_cell():
    # the start tile's city opens to the north; seat 0 holds it
    st = table([{"tile": "D", "x": 0, "y": 0, "rot": 0, "meeple": {"seat": 0, "feature": "c0"}}], ["U"])
    r = st.find(st.base[0])
    fitting = Evaluator([INDEX["E"]] * 10, 2)
    none_fit = Evaluator([INDEX["U"]] * 10, 2)
    assert fitting.close_chance(st, r, 10) > 0.9
    assert none_fit.close_chance(st, r, 10) == 0.0
    assert fitting.close_chance(st, r, 0) == 0.0  # no draws left
    # so the city is worth more to its holder when it can close
    assert fitting.scores(GAME, st, 10)[0] > none_fit.scores(GAME, st, 10)[0]


def _searcher_parts(st, seat, remaining):
    p = ExpectimaxPlayer(seconds=None, iterations=50)
    view = GAME.view(st, seat)
    base = state_from_view(GAME, view)
    base.pile = sorted(remaining)
    ev = Evaluator(base.pile, 2)
    types = sorted(ev.counts.items())
    return p, base, ev, types


def test_the_lookahead_counts_the_opponents_best_answer():
    # seat 1 holds a city open to the north; seat 0 lays a straight road; every tile left is
    # a one-sided city (E), so seat 1 will close its city on the next turn
    st = table([{"tile": "D", "x": 0, "y": 0, "rot": 0, "meeple": {"seat": 1, "feature": "c0"}}], ["U", "E", "E"])
    legal = GAME.legal(st, 0)
    code = next(c for c in legal if c[3] is None)
    remaining = [INDEX["E"]] * 2
    p, base, ev, types = _searcher_parts(st, 0, remaining)
    after = GAME.clone(base)
    GAME.lay(after, 0, code, [])
    static = p._margin(ev.scores(GAME, after, 1), 0, 2)
    looked = p._value(GAME, base, 0, 1, code, types, 2, ev)
    # the finished city scores 4 for seat 1 (2 tiles x 2) instead of an uncertain future
    assert looked < static - 1.0


def test_it_closes_its_own_city_when_it_can():
    # seat 0 holds the start tile's city; the tile in hand (E) can close it
    st = table([{"tile": "D", "x": 0, "y": 0, "rot": 0, "meeple": {"seat": 0, "feature": "c0"}}], ["E", "U", "U"])
    p = StrongPlayer(seconds=None, iterations=40)
    code = p.choose(GAME, st, 0, random.Random(2))
    after = GAME.clone(st)
    GAME.step(after, 0, code)
    assert after.scores[0] == 4


# -- the incremental lookahead (marathon tables, issue 22) ----------------------------------------


def _rebuilt(st, seat):
    view = GAME.view(st, seat)
    base = state_from_view(GAME, view)
    base.pile = _remaining(view)
    return base


def _positions():
    """Small and big tables, the three scoring editions."""
    out = [position(seed, steps) for seed, steps in ((11, 5), (12, 30), (13, 60))]
    for seed, rules, steps in ((14, 1, 40), (15, 2, 70)):
        st = GAME.new_state(2, GAME.parse_options({"rules": rules, "sets": 2}), seed, None)
        p = GreedyPlayer()
        for k in range(steps):
            seat = GAME.to_move(st)[0]
            GAME.step(st, seat, p.choose(GAME, st, seat, random.Random(k)))
        out.append(st)
    st = GAME.new_state(2, GAME.parse_options({"sets": 6}), 16, None)
    p = GreedyPlayer()
    for k in range(330):
        seat = GAME.to_move(st)[0]
        GAME.step(st, seat, p.choose(GAME, st, seat, random.Random(k)))
    return [*out, st]


@pytest.fixture(scope="module")
def positions():
    return _positions()


def test_the_next_seats_answers_kept_up_to_date_are_the_ones_worked_out_afresh(positions):
    """``Replies`` values again only the cells a placement of ours changed; its answer must be as
    good (by greedy's own value) as the best of every placement on the table after ours."""
    checked = 0
    for st in positions:
        seat = GAME.to_move(st)[0]
        nxt = 1 - seat
        base = _rebuilt(st, seat)
        remaining = base.pile
        base.pile = remaining[:-1]
        types = sorted(set(remaining))
        replies = Replies(base, nxt, types)
        greedy = GreedyPlayer()
        legal = GAME.legal(st, seat)
        for code in random.Random(len(st.tt)).sample(legal, min(12, len(legal))):
            d = copy_for_put(base, code[0], code[1])
            GAME.lay(d, seat, code, [])
            if d.supply[nxt] != replies.supply:
                continue  # the search works this case out afresh
            cells = replies.touched(code, d)
            for t in types:
                reply, value = replies.answer(d, t, cells)
                afresh = greedy_values(greedy, d, nxt, t, d.buckets)
                if not afresh:
                    assert reply is None
                    continue
                assert value == pytest.approx(max(v for _, v in afresh), abs=1e-9)
                assert (reply, value) in [(c, pytest.approx(v, abs=1e-9)) for c, v in afresh]
                checked += 1
    assert checked > 500


def test_the_evaluation_kept_between_tables_of_a_search_is_the_one_worked_out_afresh(positions):
    """``Evaluator.start`` keeps feature shapes (open cells, cities along a field) between the
    tables of one search; every value must equal that of a fresh evaluator."""
    checked = 0
    for st in positions:
        seat = GAME.to_move(st)[0]
        nxt = 1 - seat
        base = _rebuilt(st, seat)
        remaining = base.pile
        left = len(remaining) - 1
        ev = Evaluator(remaining, 2)
        ev.start(base)
        rng = random.Random(len(st.tt))
        legal = GAME.legal(st, seat)
        for code in rng.sample(legal, min(10, len(legal))):
            d = copy_for_put(base, code[0], code[1])
            GAME.lay(d, seat, code, [])
            tables = [d]
            for t in sorted(set(remaining))[:6]:
                d.current, d.turn = t, nxt
                answers = GAME.legal(d, nxt)
                if answers:
                    reply = rng.choice(answers)
                    e = copy_for_put(d, reply[0], reply[1])
                    GAME.lay(e, nxt, reply, [])
                    tables.append(e)
            d.current, d.turn = -1, seat
            for s in tables:
                assert ev.scores(GAME, s, left) == pytest.approx(Evaluator(remaining, 2).scores(GAME, s, left), abs=1e-9)
                checked += 1
    assert checked > 200


def test_the_incremental_lookahead_values_each_candidate_as_a_full_pass_does(positions):
    """Each placement the search looked at gets the value of the plain lookahead: every tile the
    next seat may draw, greedy's best answer over the whole table (ties by ``_tie``), evaluated on a
    full copy by a fresh evaluator."""
    for st in positions[:4]:
        seat = GAME.to_move(st)[0]
        nxt = 1 - seat
        fast = ExpectimaxPlayer(seconds=None, iterations=5)
        fast.choose(GAME, st, seat, random.Random(1))
        base = _rebuilt(st, seat)
        remaining = base.pile
        left = len(remaining)
        greedy = GreedyPlayer()
        for code, value in fast.stats.visits.items():
            d = GAME.clone(base)
            GAME.lay(d, seat, code, [])
            d.pile = remaining[:-1]
            total = weight = 0
            for t in sorted(set(remaining)):
                c = remaining.count(t)
                rows = [(-v, _tie(r), r) for r, v in greedy_values(greedy, d, nxt, t, d.buckets)]
                e = d
                if rows:
                    e = GAME.clone(d)
                    e.current = t
                    GAME.lay(e, nxt, min(rows)[2], [])
                sc = Evaluator(remaining, 2).scores(GAME, e, left - 1)
                total += c * (sc[seat] - sc[nxt])
                weight += c
            assert value == pytest.approx(total / weight, abs=1e-9)


def test_an_answer_table_carried_over_from_an_earlier_turn_is_the_one_worked_out_afresh():
    """``Replies`` starts from the table of an earlier turn of the same match and values again only
    what the tiles laid since reach: every row (value, placement) must be the fresh table's."""
    carried = 0
    for sets, rules, seed, steps in ((1, 3, 21, (8, 10, 12, 30, 32)), (6, 3, 22, (300, 302, 304)), (2, 2, 23, (50, 52, 60))):
        st = GAME.new_state(2, GAME.parse_options({"sets": sets, "rules": rules}), seed, None)
        p = GreedyPlayer()
        ai_module._KEPT.clear()
        for k in range(max(steps) + 1):
            seat = GAME.to_move(st)[0]
            if k in steps:
                base = _rebuilt(st, seat)
                types = sorted(set(base.pile))
                base.pile = base.pile[:-1]
                if k == steps[1] and ai_module._KEPT:  # as if the deadline had cut the last table short
                    last = ai_module._KEPT[-1]
                    for t in list(last.tables)[::2]:
                        del last.tables[t]
                warm = Replies(base, 1 - seat, types)
                kept = list(ai_module._KEPT)
                ai_module._KEPT.clear()
                cold = Replies(base, 1 - seat, types)
                assert not cold.carried
                assert warm.tables == cold.tables
                carried += warm.carried
                ai_module._KEPT[:] = kept
            GAME.step(st, seat, p.choose(GAME, st, seat, random.Random(k)))
    assert carried >= 4  # of 8 (the others crossed a threshold: the seat's meeples)


def test_the_fields_along_a_city_are_those_whose_recorded_cities_include_it(positions):
    """``Replies.farms_of`` walks the city's own tiles; it must find exactly the fields whose
    ``State.cities`` hold a part of that city."""
    checked = 0
    for st in positions:
        replies = Replies(st, 0, [])
        index: dict = {}
        for r in range(len(st.parent)):
            if st.cities[r] and st.parent[r] == r:
                for c in {st.find(c) for c in st.cities[r]}:
                    index.setdefault(c, set()).add(r)
        for r in range(len(st.parent)):
            if st.parent[r] == r and st.kind[r] == CITY:
                assert set(replies.farms_of(r)) == index.get(r, set())
                checked += 1
    assert checked > 50
