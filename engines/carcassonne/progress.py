"""Carcassonne: turns left, from the public view (issue 21's pace forecast): one turn per tile, the
tile in play and those in the bag (a tile that fits nowhere is replaced within the same turn)."""

from __future__ import annotations

from typing import Any

from ..progress import Progress, finished, rotation


def progress(game: Any, state: Any, actions: int | None = None) -> Progress:
    v = game.view(state, None)
    n = len(v["scores"])
    if not v["to_move"]:
        return finished(n)
    left = v["tiles_left"] + (1 if v.get("tile") else 0)
    placed = max(0, len(v["board"]) - 1)
    first = v["to_move"][0]
    order = rotation(first, n)
    per = [0.0] * n
    for i in range(left):
        per[order[i % n]] += 1
    return Progress(placed / (placed + left) if placed + left else 1.0, tuple(per), 0.0, order)
