"""AI players behind one interface for every game.

An AI is honest: it looks at the match only through ``game.view(state, seat)`` and
``game.legal(state, seat)`` - the same information the person in that seat would have - and
returns one legal action code. Its own randomness comes from the ``random.Random`` it is given,
so a self-play match with a fixed seed is reproducible.
"""

from __future__ import annotations

import importlib
import random
from typing import Any, Protocol

from .core import Code, Game


class Player(Protocol):
    name: str

    def choose(self, game: Game, state: Any, seat: int, rng: random.Random) -> Code: ...


class RandomPlayer:
    """Picks uniformly among the legal actions."""

    name = "random"

    def choose(self, game: Game, state: Any, seat: int, rng: random.Random) -> Code:
        legal = game.legal(state, seat)
        return legal[int(rng.random() * len(legal))]


def players_for(game_key: str) -> dict[str, type]:
    """AI kinds available for a game: 'random' always, plus what the game package offers
    in its ``ai`` module as ``PLAYERS`` (the first listed there is the game's best player)."""
    out: dict[str, type] = {}
    from .registry import _MODULES

    try:
        mod = importlib.import_module(_MODULES[game_key] + ".ai")
        out.update(mod.PLAYERS)
    except ModuleNotFoundError:
        pass
    out["random"] = RandomPlayer
    return out


def best_player(game_key: str) -> Player:
    return next(iter(players_for(game_key).values()))()


def play_out(game: Game, state: Any, players: list[Player], rng: random.Random, max_steps: int = 1_000_000) -> int:
    """Play a state to the end in place; returns the number of actions applied."""
    steps = 0
    while steps < max_steps:
        movers = game.to_move(state)
        if not movers:
            return steps
        seat = movers[0]
        code = players[seat].choose(game, state, seat, rng)
        game.step(state, seat, code)
        steps += 1
    raise RuntimeError(f"match did not end within {max_steps} actions")
