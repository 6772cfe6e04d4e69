"""Cities AI players: legal, reproducible, honest (view + legal only), and the heuristic beats random."""

import random

from engines import ai, registry
from engines.ai import RandomPlayer, play_out
from engines.cities.ai import HeuristicPlayer, hood_from_view

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
