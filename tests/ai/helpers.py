"""What the AI tests share."""

from __future__ import annotations

import random
from typing import Any

from engines import registry
from engines.cities.ai import HeuristicPlayer


def checked_moves(game: Any, state: Any, players: list[Any], moves: int | None = None) -> list[Any]:
    """Let ``players[seat]`` choose for each seat in turn (decision ``k`` seeded with ``k``), every
    choice checked by the engine before it is applied, for ``moves`` moves or to the end; returns
    the codes chosen (two runs from equal states must give equal lists)."""
    codes: list[Any] = []
    while game.to_move(state) and (moves is None or len(codes) < moves):
        seat = game.to_move(state)[0]
        code = players[seat].choose(game, state, seat, random.Random(len(codes)))
        game.check(state, seat, code)
        game.step(state, seat, code)
        codes.append(code)
    return codes


def cities_position(seed: int, steps: int, seats: int = 2) -> Any:
    """A Cities state after ``steps`` heuristic moves from the deal of ``seed``."""
    game = registry.get("cities")
    st = game.new_state(seats, game.parse_options({}), seed, None)
    p, rng = HeuristicPlayer(), random.Random(seed)
    for _ in range(steps):
        seat = game.to_move(st)[0]
        game.step(st, seat, p.choose(game, st, seat, rng))
    return st


def cities_take_position(seed: int, seats: int) -> Any:
    """A Cities draft decision from the deal of ``seed``, after every seat's first two turns, with
    at least three slots to choose from."""
    game = registry.get("cities")
    st = cities_position(seed, 0, seats)
    p, rng = HeuristicPlayer(), random.Random(seed)
    while st.phase != 1 or st.turns < 2 * seats or len(game.legal(st, game.to_move(st)[0])) < 3:
        seat = game.to_move(st)[0]
        game.step(st, seat, p.choose(game, st, seat, rng))
    return st
