"""What the AI tests share."""

from __future__ import annotations

import random
from typing import Any


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
