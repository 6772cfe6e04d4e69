"""Cities: turns left, from the public view (issue 21's pace forecast): one turn per worker (a
worker and the items it took); every round hands each seat the same workers, the rounds are fixed,
and the start tiles are one pick each."""

from __future__ import annotations

from typing import Any

from ..progress import Progress, finished, rotation
from . import workers_per_seat


def progress(game: Any, state: Any, actions: int | None = None) -> Progress:
    v = game.view(state, None)
    n = v["seats"]
    if not v["to_move"]:
        return finished(n)
    w = workers_per_seat(n)
    later_rounds = v["rounds"] - v["round"]
    start = 1 if v["phase"] == "start" else 0
    per = tuple(
        float(p["workers_left"] + later_rounds * w + start) for p in sorted(v["players"], key=lambda p: p["seat"])
    )
    total = v["rounds"] * w * n + (n if v["phase"] == "start" else 0)
    first = v["to_move"][0]
    return Progress(1.0 - sum(per) / total if total else 1.0, per, 0.0, rotation(first, n))
