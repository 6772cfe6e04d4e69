"""AI players behind one interface for every game.

An AI is honest: it looks at the match only through ``game.view(state, seat)`` and
``game.legal(state, seat)`` - the same information the person in that seat would have - and
returns one legal action code. Its own randomness comes from the ``random.Random`` it is given,
so a self-play match with a fixed seed is reproducible.

Levels (issue 14): every game's ``ai`` module lists, in ``PLAYERS``, ``easy`` (the game's one-move
heuristic, also listed under its old name ``heuristic`` so stored seats keep working), ``normal``
and ``strong`` (information-set Monte Carlo tree search, engines/search.py - for Carcassonne a
one-turn expectimax, see its ai.py - with a time budget of 0.1 s and 0.3 s a decision). A seat's AI kind is one of these keys; :func:`player` builds one,
optionally with another budget (an iteration budget makes it reproducible).
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
    """The game's first listed kind: its fast heuristic (searching players take a time budget)."""
    return next(iter(players_for(game_key).values()))()


LEVELS = ("easy", "normal", "strong")


def player(game_key: str, kind: str, seconds: float | None = None, iterations: int | None = None) -> Player:
    """A player of the given kind ('random', 'heuristic', or a level). ``seconds``/``iterations``
    replace a searching player's budget (ignored by the others); with only ``iterations`` given
    the search has no time limit, so its choices are reproducible."""
    kinds = players_for(game_key)
    if kind not in kinds:
        raise KeyError(f"unknown AI kind {kind!r} for {game_key}; available: {', '.join(kinds)}")
    cls = kinds[kind]
    if getattr(cls, "searching", False) and (seconds is not None or iterations is not None):
        return cls(seconds=seconds, iterations=iterations)
    return cls()


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
