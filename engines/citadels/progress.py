"""Citadels: turns left, from the public view (issue 21's pace forecast).

A round is a draft (one pick each, two with 2-3 players; in a 2-player draft a pick and its
discard are one turn) and then one turn per character called. The match ends with the round in
which a city reaches the districts that end the game, so the rounds left are estimated from the
leading city's pace of building (drawn towards a usual pace while few rounds are played).
"""

from __future__ import annotations

from typing import Any

from ..progress import Progress, finished, rotation


def progress(game: Any, state: Any, actions: int | None = None) -> Progress:
    v = game.view(state, None)
    n = len(v["players"])
    if not v["to_move"]:
        return finished(n)
    k = 2 if n <= 3 else 1  # characters per seat
    # turns per seat in a round: the draft picks and the character turns, less the turns that run
    # into one (a seat's last pick and its first character, its two characters called one after
    # the other): measured with the easy AI, about 6 a round with 2 players, 11 with 3, 2n with more
    per_round = {2: 3.0, 3: 3.7}.get(n, 2.0)
    prior_rate = 1.8 if k == 2 else 1.0  # the leader's districts a round (two characters each build)
    if v["phase"] == "draft":
        order = v["draft"]["order"][v["draft"]["step_index"]:]
        draft_turns = [0.0] * n
        for i, s in enumerate(order):
            if i == 0 or order[i - 1] != s:
                draft_turns[s] += 1
        now = [d + per_round - k for d in draft_turns]
        done_now = per_round * n - sum(now)
    else:
        called = len(v["revealed"])
        left = max(1.0, (k * n - called) * (per_round - k) / k)
        now = [left / n] * n
        done_now = per_round * n - left
    built = max(len(p["city"]) for p in v["players"])
    need = v["districts_to_end"] - built
    if any(p["complete"] for p in v["players"]) or need <= 0:
        later = 0.0
    else:
        # the leader's districts a round, drawn towards the prior (two rounds' worth)
        rate = min(3.0, max(0.6, (built + 2 * prior_rate) / (v["round"] - 1 + 2)))
        later = max(0.0, need / rate - 0.5)
    remaining = tuple(x + later * per_round for x in now)
    done = (v["round"] - 1) * per_round * n + done_now
    spread = (0.3 * later + 0.3) * per_round * n if later else 0.5
    first = v["to_move"][0]
    return Progress(done / (done + sum(remaining)), remaining, spread, rotation(first, n))
