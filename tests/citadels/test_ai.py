"""The heuristic player: legal, reproducible, and much stronger than random."""

import random

import pytest

from engines.ai import RandomPlayer, best_player, play_out, players_for
from engines.citadels import GAME
from engines.citadels.ai import HeuristicPlayer

ALT = {
    "rank1": "witch",
    "rank2": "tax_collector",
    "rank3": "wizard",
    "rank4": "emperor",
    "rank5": "abbot",
    "rank6": "alchemist",
    "rank7": "navigator",
    "rank8": "diplomat",
}


def heuristic_wins(games: int, options: dict, first_seed: int = 1000) -> int:
    """One heuristic seat (rotating) against three random seats, 4-player games."""
    opts = GAME.parse_options(options)
    wins = 0
    for g in range(games):
        seat = g % 4
        players = [RandomPlayer()] * 4
        players[seat] = HeuristicPlayer()
        st = GAME.new_state(4, opts, first_seed + g, None)
        play_out(GAME, st, players, random.Random(g))
        if seat in GAME.result(st).ranking[0]:
            wins += 1
    return wins


def test_registered_as_best_player():
    assert isinstance(best_player("citadels"), HeuristicPlayer)
    kinds = list(players_for("citadels"))
    assert kinds[0] == "heuristic" and kinds[-1] == "random" and {"easy", "normal", "strong"} <= set(kinds)


def test_heuristic_beats_three_random_players_in_80_percent_of_100_games():
    assert heuristic_wins(100, {}) >= 80


def test_heuristic_beats_random_with_dark_city_and_alternate_characters():
    assert heuristic_wins(40, {"dark_city": True, **ALT}, first_seed=5000) >= 32


@pytest.mark.parametrize("n", [2, 3, 8])
def test_heuristic_only_plays_legal_moves_and_is_reproducible(n):
    def run():
        st = GAME.new_state(n, GAME.parse_options({"dark_city": True}), 77, None)
        rng = random.Random(3)
        h = HeuristicPlayer()
        moves = []
        while GAME.to_move(st):
            seat = GAME.to_move(st)[0]
            code = h.choose(GAME, st, seat, rng)
            GAME.check(st, seat, code)
            GAME.step(st, seat, code)
            moves.append(code)
        return moves, GAME.result(st)

    assert run() == run()
