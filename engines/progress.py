"""How far a match has come and how many turns are left (issue 21: the pace forecast).

Every game answers in its own package's ``progress.py`` with ``progress(game, state) -> Progress``,
read from the *public* view only (what anyone at the table sees), so a forecast built on it tells
nobody anything hidden. A *turn* is one stretch in which a seat must act before the match moves on
to someone else (Lost Cities: play then draw; Carcassonne: a tile and its follower; Citadels: a
draft pick, or a character's turn; Cities: a worker and what it took).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

from .core import Game
from .registry import _MODULES


@dataclass(frozen=True, slots=True)
class Progress:
    """``done``: share of the match played (0-1); ``remaining``: expected turns still to come per
    seat, the current one included; ``spread``: standard deviation of their sum (0: known);
    ``order``: the seats in the order they will take turns from now (repeating)."""

    done: float
    remaining: tuple[float, ...]
    spread: float
    order: tuple[int, ...]

    @property
    def turns_left(self) -> float:
        return sum(self.remaining)


def progress(game: Game, state: Any, actions: int | None = None) -> Progress:
    """The game's own estimate (its ``progress`` module); a finished match has none left.
    ``actions``: how many actions the match's log holds (public; some games estimate better)."""
    module = importlib.import_module(_MODULES[game.key] + ".progress")
    return module.progress(game, state, actions)


def rotation(first: int, n: int) -> tuple[int, ...]:
    """Seats clockwise from ``first``."""
    return tuple((first + i) % n for i in range(n))


def finished(n: int) -> Progress:
    return Progress(1.0, (0.0,) * n, 0.0, tuple(range(n)))
