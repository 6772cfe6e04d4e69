"""Lost Cities: turns left, from the public view (issue 21's pace forecast).

A turn plays or discards a card, then draws one; a round ends when the deck is empty. So the
round has about ``deck / (1 - p)`` turns left, where p is the share of draws taken from a discard
pile (estimated from this round's table, starting from 5%); every later round starts with the
whole deck but the hands.
"""

from __future__ import annotations

import math
from typing import Any

from ..progress import Progress, finished, rotation

PRIOR_P, PRIOR_WEIGHT = 0.05, 10


def progress(game: Any, state: Any, actions: int | None = None) -> Progress:
    v = game.view(state, None)
    n = len(v["hand_sizes"])
    if not v["to_move"]:
        return finished(n)
    on_table = sum(len(c) for side in v["expeditions"] for c in side.values()) + sum(len(p) for p in v["discards"].values())
    total = v["deck"] + sum(v["hand_sizes"]) + on_table
    round_deck = total - 8 * n  # the deck as a round starts (hands of eight dealt)
    from_deck = (v["round"] - 1) * round_deck + round_deck - v["deck"]  # draws from the deck so far
    turns_done = from_deck  # without the log: no draw from a pile
    if actions is not None:
        turns_done = max(from_deck, actions // 2)
    pile_draws = turns_done - from_deck
    p = min(0.8, (pile_draws + PRIOR_P * PRIOR_WEIGHT) / (turns_done + PRIOR_WEIGHT))
    now = v["deck"] / (1 - p) + (0.5 if v["phase"] == "draw" else 0.0)
    later = (v["rounds"] - v["round"]) * round_deck / (1 - p)
    left = now + later
    done_before = turns_done
    spread = math.sqrt(left * p) / (1 - p)
    per = tuple(left / n for _ in range(n))
    return Progress(done_before / (done_before + left), per, spread, rotation(v["to_move"][0], n))
