"""Cities AI players: legal, reproducible, honest (view + legal only), and the heuristic beats random."""

import random

import pytest

from engines import ai, registry
from engines.ai import RandomPlayer, play_out
from engines.cities.ai import HeuristicPlayer, StrongPlayer, hood_from_view
from tests.ai.helpers import cities_position, cities_take_position

GAME = registry.get("cities")


def test_heuristic_beats_random_in_two_player_games():
    # bench/cities.py measures the rate over 200 games; here a small sample must be nearly clean
    options = GAME.parse_options({})
    wins = 0
    for seed in range(10):
        state = GAME.new_state(2, options, seed, None)
        h = seed % 2
        players = [None, None]
        players[h], players[1 - h] = HeuristicPlayer(), RandomPlayer()
        play_out(GAME, state, players, random.Random(seed))
        wins += GAME.result(state).ranking[0] == (h,)
    assert wins >= 9, f"heuristic won {wins}/10"


def test_the_heuristic_is_the_default_and_its_choices_are_legal_and_reproducible():
    assert list(ai.players_for("cities")) == ["heuristic", "easy", "normal", "strong", "random"]
    runs = []
    for _ in range(2):
        state = GAME.new_state(3, GAME.parse_options({}), 9, None)
        players = [HeuristicPlayer(), RandomPlayer(), HeuristicPlayer()]
        rng = random.Random(3)
        codes = []
        while GAME.to_move(state) and len(codes) < 120:
            seat = GAME.to_move(state)[0]
            code = players[seat].choose(GAME, state, seat, rng)
            assert code in GAME.legal(state, seat)
            GAME.step(state, seat, code)
            codes.append(code)
        runs.append(codes)
    assert runs[0] == runs[1]


def test_the_heuristic_sees_only_the_view():
    """Changing what the seat cannot see (deck orders, the bag) does not change its choice."""
    state = GAME.new_state(4, GAME.parse_options({}), 21, None)
    rng = random.Random(0)
    for _ in range(40):  # into the first round
        seat = GAME.to_move(state)[0]
        GAME.step(state, seat, RandomPlayer().choose(GAME, state, seat, rng))
    seat = GAME.to_move(state)[0]
    other = GAME.clone(state)
    for deck in (other.deck_cards, other.deck_tiles, other.deck_features, other.bag):
        random.Random(5).shuffle(deck)
    a = HeuristicPlayer().choose(GAME, state, seat, random.Random(1))
    b = HeuristicPlayer().choose(GAME, other, seat, random.Random(1))
    assert a == b


def test_the_neighbourhood_rebuilt_from_the_view_is_the_real_one():
    state = GAME.new_state(2, GAME.parse_options({}), 2, None)
    play_out(GAME, state, [RandomPlayer(), RandomPlayer()], random.Random(2))
    for p in range(2):
        h = hood_from_view(GAME.view(state, p)["players"][p])
        real = state.hoods[p]
        assert (h.xy, h.stype, h.feat, h.height, h.colour) == (real.xy, real.stype, real.feat, real.height, real.colour)


# -- the strong level (issue 22): the draft with refreshed own values, planned placements ----------


position = cities_position


take_position = cities_take_position


def test_the_strong_level_takes_the_one_slot_worth_having():
    """A constructed draft: every slot emptied but one holding three pieces (the star space
    taken): the strong level takes the pieces."""
    st = take_position(13, 2)
    seat = GAME.to_move(st)[0]
    pieces = next(items for items in st.rows[3][:3] if len(items) >= 3)[:3]
    for r in range(4):
        for k in range(4):
            if st.workers[r][k] < 0:
                st.rows[r][k] = []
    free = [k for k in range(3) if st.workers[3][k] < 0]
    st.rows[3][free[-1]] = list(pieces)
    if st.workers[3][3] < 0:  # the other seat stands on the star space (the heuristic's values prize it)
        st.workers[3][3] = 1 - seat
        st.used[1 - seat][3] += 1
        st.left[1 - seat] -= 1
    p = StrongPlayer(seconds=None, iterations=200)
    assert p.choose(GAME, st, seat, random.Random(1)) == ("take", 3, free[-1])


@pytest.mark.parametrize("seed", [21, 22, 23])
def test_a_planned_turn_ends_at_least_as_well_as_the_heuristics_turn(seed):
    """Placements are planned to the end of the turn (the heuristic's first choice among those
    planned, its greedy rest among the continuations): the turn never ends lower by the
    heuristic's own valuation than the heuristic's turn from the same position (without the
    round's look-ahead, ``look=0``, which may trade some of it for what the round still offers)."""
    from engines.cities.ai import _Context, hood_from_view

    st = position(seed, 0, 2)
    p, rng = HeuristicPlayer(), random.Random(seed)
    checked = 0
    while GAME.to_move(st) and checked < 6:
        seat = GAME.to_move(st)[0]
        if st.phase == 2 and len(st.p_pieces) + len(st.p_feats) >= 2:
            view = GAME.view(st, seat)
            ctx = _Context(view, seat)
            ends = []
            for player in (HeuristicPlayer(), StrongPlayer(seconds=None, iterations=10, look=0.0)):
                s = GAME.clone(st)
                while s.phase == 2 and s.turn == seat:
                    GAME.step(s, seat, player.choose(GAME, s, seat, random.Random(0)))
                ends.append(ctx.value(hood_from_view(GAME.view(s, seat)["players"][seat])))
            assert ends[1] >= ends[0] - 1e-9
            checked += 1
        GAME.step(st, seat, p.choose(GAME, st, seat, rng))
    assert checked == 6


def test_after_a_take_the_context_holds_the_card_and_the_neighbourhood_the_items():
    from engines.cities.ai import _after_take, _Context, hood_from_view

    st = GAME.new_state(2, GAME.parse_options({}), 14, None)
    while st.phase != 1:  # the starting tiles
        seat = GAME.to_move(st)[0]
        GAME.step(st, seat, GAME.legal(st, seat)[0])
    seat = GAME.to_move(st)[0]
    view = GAME.view(st, seat)
    ctx = _Context(view, seat)
    h = hood_from_view(view["players"][seat])
    card_slot = tile_slot = piece_slot = 0  # a new round: every slot is free
    ctx2, h2 = _after_take(view, ctx, h, ("take", 0, card_slot))
    assert ctx2.cards == ctx.cards + [st.rows[0][card_slot][0]] and h2 is h
    ctx2, h2 = _after_take(view, ctx, h, ("take", 1, tile_slot))
    assert ctx2 is ctx and len(h2.tiles) == len(h.tiles) + 1 and len(h.tiles) == len(view["players"][seat]["tiles"])
    ctx2, h2 = _after_take(view, ctx, h, ("take", 3, piece_slot))
    assert sum(h.height) <= sum(h2.height) <= sum(h.height) + len(st.rows[3][piece_slot])
    assert ctx.value(h2) >= ctx.value(h)
    assert _after_take(view, ctx, h, ("take", 3, 3)) == (None, h)  # the star space shows nothing
