"""AI players."""

import random

from engines import ai, registry
from engines.ai import RandomPlayer, play_out
from engines.lost_cities.ai import HeuristicPlayer


def test_heuristic_lost_cities_beats_random_in_90_percent_of_200_matches():
    game = registry.get("lost-cities")
    options = game.parse_options({})
    wins = 0
    for seed in range(200):
        state = game.new_state(2, options, seed, None)
        h = seed % 2  # alternate who starts
        players = [None, None]
        players[h], players[1 - h] = HeuristicPlayer(), RandomPlayer()
        play_out(game, state, players, random.Random(seed))
        scores = game.result(state).scores
        wins += scores[h] > scores[1 - h]
    assert wins >= 180, f"heuristic won {wins}/200"


def test_players_for_lists_the_best_first_and_random():
    kinds = ai.players_for("lost-cities")
    assert list(kinds)[0] == "heuristic" and "random" in kinds
    assert isinstance(ai.best_player("lost-cities"), HeuristicPlayer)


def test_ai_choices_are_legal_and_reproducible():
    game = registry.get("lost-cities")
    runs = []
    for _ in range(2):
        state = game.new_state(2, game.parse_options({"rounds": 1}), 9, None)
        players = [HeuristicPlayer(), RandomPlayer()]
        rng = random.Random(3)
        codes = []
        while game.to_move(state):
            seat = game.to_move(state)[0]
            code = players[seat].choose(game, state, seat, rng)
            assert code in game.legal(state, seat)
            game.step(state, seat, code)
            codes.append(code)
        runs.append(codes)
    assert runs[0] == runs[1]
