"""Carcassonne scoring: finished and unfinished roads, cities and monasteries, and farms by
edition (``rules`` 1, 2 or 3; see docs/carcassonne.md)."""

from __future__ import annotations

from ..core import Event
from .board import State, return_meeple
from .tiles import FARM, KIND_NAMES, MONASTERY, ROAD


def majority(meeples: list[tuple[int, int, int]], n: int) -> list[int]:
    count = [0] * n
    for m in meeples:
        count[m[2]] += 1
    top = max(count)
    return [p for p in range(n) if count[p] == top] if top else []


def feature_points(s: State, r: int, complete: bool) -> int:
    k = s.kind[r]
    tiles = len(s.tiles[r])
    if k == ROAD:
        return tiles
    if complete and not (s.rules < 3 and tiles == 2):
        return 2 * (tiles + s.pen[r])
    return tiles + s.pen[r]


def award(s: State, seats: list[int], points: int, k: int) -> None:
    for p in seats:
        s.scores[p] += points
        s.by_kind[p][k] += points


def score_feature(s: State, r: int, complete: bool, events: list[Event]) -> None:
    meeples = s.mee[r]
    if not meeples:
        return
    winners = majority(meeples, s.n)
    points = feature_points(s, r, complete)
    k = s.kind[r]
    award(s, winners, points, k)
    events.append(Event("scored", None, {
        "feature": KIND_NAMES[k], "seats": winners, "points": points, "tiles": len(s.tiles[r]),
        "pennants": s.pen[r], "complete": complete,
    }))
    if complete:
        s.mee[r] = None
        for i, f, seat in sorted(meeples):
            return_meeple(s, i, f, seat, events)


def score_monastery(s: State, i: int, node: int, events: list[Event]) -> None:
    meeples = s.mee[node]
    points = s.mon[i]
    seat = meeples[0][2]
    award(s, [seat], points, MONASTERY)
    complete = points == 9
    events.append(Event("scored", None, {
        "feature": "monastery", "seats": [seat], "points": points, "x": s.tx[i], "y": s.ty[i], "complete": complete,
    }))
    if complete:
        s.mee[node] = None
        return_meeple(s, i, meeples[0][1], seat, events)


def score_farms(s: State, farms: list[int]) -> list[Event]:
    """Farm scoring by edition; returns the events. ``farms`` = roots holding farmers."""
    n = s.n
    events: list[Event] = []
    city_done: dict[int, bool] = {}

    def done_cities(r: int) -> list[int]:
        out = []
        for c in s.cities[r] or ():
            cr = s.find(c)
            d = city_done.get(cr)
            if d is None:
                d = city_done[cr] = s.open[cr] == 0
            if d and cr not in out:
                out.append(cr)
        return sorted(out)

    if s.rules == 1:
        tally: dict[int, list[int]] = {}
        for r in farms:
            count = [0] * n
            for m in s.mee[r]:
                count[m[2]] += 1
            for c in done_cities(r):
                t = tally.setdefault(c, [0] * n)
                for p in range(n):
                    t[p] += count[p]
        for c in sorted(tally):
            top = max(tally[c])
            winners = [p for p in range(n) if tally[c][p] == top]
            award(s, winners, 4, FARM)
            events.append(Event("scored", None, {"feature": "farm", "seats": winners, "points": 4, "cities": 1, "rules": 1}))
        return events
    credited: list[set[int]] = [set() for _ in range(n)]
    for r in farms:
        winners = majority(s.mee[r], n)
        cities = done_cities(r)
        if s.rules == 3:
            points = 3 * len(cities)
            award(s, winners, points, FARM)
            events.append(Event("scored", None, {
                "feature": "farm", "seats": winners, "points": points, "cities": len(cities), "rules": 3,
            }))
        else:
            for p in winners:
                new = [c for c in cities if c not in credited[p]]
                credited[p].update(new)
                award(s, [p], 3 * len(new), FARM)
                events.append(Event("scored", None, {
                    "feature": "farm", "seats": [p], "points": 3 * len(new), "cities": len(new), "rules": 2,
                }))
    return events
