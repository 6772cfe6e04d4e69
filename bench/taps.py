"""Taps per turn on Discord, replayed through the real controls code (issue 20).

Seeded matches between the engine's AI players; at every move of a turn the move the AI chose is
looked for in the private turn controls exactly as a person sees them (``GameUI.controls`` with
the seat's view and legal actions, as bot/posting.py calls it): a button is 1 tap, a select pick
2 (open, choose), in any of the message's selects (``Controls.more_selects``). A select pick that is itself an action acts at once when the game says so
(``GameUI.pick_action``), else it leads to the controls ``controls(..., picked=value)`` draws and
the search goes on there. A move the controls carry as ``Controls.auto`` (ending the turn when it
is the only legal move, the person's setting on) costs nothing. A turn runs from the first move
of a seat to the move that ends its turn (the engine's ``Outcome.turn_ended``, else the seat to
move changing). No asserts, just figures: median and max taps per turn per game.

    python bench/taps.py [--quick] [--only carcassonne]

Runs against the checkout it lies in, so the same script measures the code before a change:
``git archive <commit> | tar -x -C /tmp/before``, copy this file to /tmp/before/bench/ and run it
there.
"""

from __future__ import annotations

import argparse
import heapq
import random
import re
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).absolute().parent.parent))  # the checkout this script lies in

from bot.games import ui_for  # noqa: E402
from engines.ai import best_player  # noqa: E402
from engines.match import Match  # noqa: E402

# (label, game, seats, options, matches, (skip moves, turns measured) for a marathon sample)
CONFIGS = [
    ("Lost Cities", "lost-cities", 2, {}, 3, None),
    ("Carcassonne 2p", "carcassonne", 2, {}, 2, None),
    ("Carcassonne 3p", "carcassonne", 3, {}, 1, None),
    ("Carcassonne 4p", "carcassonne", 4, {}, 1, None),
    ("Carcassonne 5p", "carcassonne", 5, {}, 1, None),
    ("Carcassonne 400-set marathon (turns 300-360, 4p)", "carcassonne", 4, {"sets": 400}, 1, (300, 60)),
    ("Citadels 4p", "citadels", 4, {}, 2, None),
    ("Citadels 7p", "citadels", 7, {}, 2, None),
    ("Cities 2p", "cities", 2, {}, 2, None),
    ("Cities 4p", "cities", 4, {}, 2, None),
]

_FRAG = re.compile(r"[A-Za-z]+|-?\d+")
_WAGER = re.compile(r"-w[1-3]$")  # Lost Cities: wagers of one colour are alike (one button for them)


def _alike(token: str) -> str:
    return _WAGER.sub("-w", token)


def _frags(s: str) -> set[str]:
    return set(_FRAG.findall(s))


def _controls(ui, view, legal, picked, auto_end):
    try:
        return ui.controls(view, legal, "en", picked, auto_end=auto_end)
    except TypeError:  # a presentation from before the auto_end parameter
        return ui.controls(view, legal, "en", picked)


def taps_for(ui, view, legal, target: str, auto_end: bool = True, budget: int = 400) -> int | None:
    """The fewest taps that reach the action ``target`` (its token) from the first controls."""
    target = _alike(target)
    root = _controls(ui, view, legal, None, auto_end)
    if _alike(getattr(root, "auto", None) or "") == target:
        return 0
    acts = getattr(ui, "pick_action", None)
    want = _frags(target)
    best: int | None = None
    heap: list[tuple[int, int, int, str | None]] = [(0, 0, 0, None)]
    seen: set[str | None] = set()
    n = 0
    cache = {None: root}
    while heap and budget > 0:
        cost, _rank, _n, picked = heapq.heappop(heap)
        if best is not None and cost + 1 >= best:
            break  # nothing from here can beat what was found
        if picked in seen:
            continue
        seen.add(picked)
        c = cache.get(picked) or _controls(ui, view, legal, picked, auto_end)
        budget -= 1
        if any(_alike(b.token) == target for b in c.buttons):
            best = cost + 1 if best is None else min(best, cost + 1)
            continue
        for o in [*c.select, *(o for _, more in getattr(c, "more_selects", []) for o in more)]:
            if _alike(o.token) == target and acts is not None and acts(o.token) is not None:
                best = cost + 2 if best is None else min(best, cost + 2)
            elif o.token not in seen:
                n += 1
                # the options that share most with the target first (the search stops early)
                heapq.heappush(heap, (cost + 2, -len(want & _frags(o.token)), n, o.token))
    return best


# Turns reported apart as well: Citadels' secret draft picks (one tap each) and its character turns
SPLIT = {"citadels": ("draft turns", ("draft", "discard_character"))}


def play(label: str, game: str, seats: int, options: dict, seed: int, sample, auto_end: bool) -> list[tuple[int, str]]:
    """(taps, the type of the turn's first move) of each measured turn."""
    ui = ui_for(game)
    names = [f"P{i + 1}" for i in range(seats)]
    m = Match.create(game, names, options, seed=seed)
    ai, rng = best_player(game), random.Random(seed)
    turns: list[tuple[int, str]] = []
    current = 0
    first = ""
    moves = 0
    skip, count = sample if sample else (0, None)
    while not m.over:
        seat = m.to_move()[0]
        code = ai.choose(m.game, m.state, seat, rng)
        measured = moves >= skip
        if measured:
            action = m.game.encode(code)
            first = first or action["type"]
            view = {**m.view(seat), "names": names}
            legal = m.game.legal_json(m.state, seat)
            t = taps_for(ui, view, legal, ui.token(action), auto_end)
            current += t if t is not None else 99
        out = m.apply_code(seat, code)
        moves += 1
        ended = out.turn_ended if out.turn_ended is not None else (m.over or m.to_move()[:1] != (seat,))
        if ended and measured:
            turns.append((current, first))
            current, first = 0, ""
            if count is not None and len(turns) >= count:
                break
    return turns


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="one match per configuration")
    ap.add_argument("--only", default="", help="only configurations whose game key contains this")
    ap.add_argument("--no-auto-end", action="store_true", help="the person's auto-end setting off")
    args = ap.parse_args()
    print(f"{'game':52} {'turns':>6} {'median':>7} {'mean':>6} {'max':>4}   s")
    for label, game, seats, options, matches, sample in CONFIGS:
        if args.only and args.only not in game:
            continue
        t0 = time.perf_counter()
        turns: list[tuple[int, str]] = []
        for k in range(1 if args.quick else matches):
            turns += play(label, game, seats, options, 1000 + 17 * k, sample, not args.no_auto_end)
        took = time.perf_counter() - t0
        parts = [(label, [t for t, _ in turns])]
        if game in SPLIT:
            name, kinds = SPLIT[game]
            parts.append((f"  of which {name}", [t for t, k in turns if k in kinds]))
            parts.append(("  of which the others", [t for t, k in turns if k not in kinds]))
        for name, taps in parts:
            print(f"{name:52} {len(taps):6d} {statistics.median(taps):7.1f} {statistics.fmean(taps):6.2f} {max(taps):4d}"
                  f"   {took:.0f}", flush=True)

if __name__ == "__main__":
    main()
