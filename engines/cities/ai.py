"""Cities AI players. They read only their seat's view and their legal actions.

The heuristic player rebuilds its own neighbourhood from the view and values it with the game's
scorer: points now (its scoring cards, water and park areas, monuments, achievements it would
claim at the end of the turn) plus a little for what the neighbourhood may still become (pieces
placed, free room to build, roomy water and park areas, cards it could still fill). Placements
are chosen greedily by that value; declining is chosen when every placement would lower it. A
row slot is valued by placing its items greedily on a copy of the neighbourhood; a face-down
item counts as an average one.
"""

from __future__ import annotations

import random
from typing import Any

from .components import (
    ACHIEVEMENTS,
    CARD_INDEX,
    CARDS,
    COLOURS,
    DESIGN_BG,
    DESIGN_POINTS,
    FEATURE_DESIGN,
    FEATURE_INDEX,
    MAX_HEIGHT,
    TILE_INDEX,
    WILD,
)
from .scoring import ACHIEVEMENT_COUNTERS, CARD_COUNTERS, Hood, area_points

_HIDDEN_VALUE = {"A": 2.5, "B": 2.0, "C": 1.0}
_CARD_VP = tuple(c["vp"] for c in CARDS)


def hood_from_view(player: dict[str, Any]) -> Hood:
    h = Hood()
    for t in player["tiles"]:
        h.add_tile(TILE_INDEX[t["tile"]], t["x"], t["y"], t["rot"])
    for sp in player["spaces"]:
        i = h.cells[(sp["x"], sp["y"])]
        if sp["feature"]:
            h.fid[i] = FEATURE_INDEX[sp["feature"]]
            h.feat[i] = FEATURE_DESIGN[h.fid[i]]
        if sp["height"]:
            h.height[i] = sp["height"]
            h.colour[i] = COLOURS.index(sp["colour"])
    return h


class HeuristicPlayer:
    name = "heuristic"

    def choose(self, game: Any, state: Any, seat: int, rng: random.Random) -> Any:
        view = game.view(state, seat)
        legal = game.legal(state, seat)
        if len(legal) == 1:
            return legal[0]
        if view["phase"] == "start":
            return legal[0]
        me = view["players"][seat]
        ctx = _Context(view, seat)
        h = hood_from_view(me)
        if view["phase"] == "take":
            return self._take(view, ctx, h, legal, rng)
        pending = view["pending"] or {}
        tile = TILE_INDEX[pending["tile"]] if pending.get("tile") else -1
        return self._place(ctx, h, legal, tile)

    # -- placing -------------------------------------------------------------------------------------

    def _place(self, ctx: _Context, h: Hood, legal: list[Any], tile: int) -> Any:
        base = ctx.value(h)
        best, best_v = None, -1e9
        for code in legal:
            v = ctx.value_after(h, code, base, tile)
            if v > best_v:
                best, best_v = code, v
        return best

    # -- taking ----------------------------------------------------------------------------------------

    def _take(self, view: dict, ctx: _Context, h: Hood, legal: list[Any], rng: random.Random) -> Any:
        rows = {r["row"]: r["slots"] for r in view["rows"]}
        base = ctx.value(h)
        rounds_left = view["rounds"] - view["round"] + 1
        best, best_v = None, -1e9
        for code in legal:
            _, r, k = code
            row = "ABCD"[r]
            slot = rows[row][k]
            v = _HIDDEN_VALUE.get(row, 0.0) * slot["hidden"]
            items = slot["items"]
            if row == "A":
                for c in items:
                    ci = CARD_INDEX[c]
                    v += _CARD_VP[ci] * (CARD_COUNTERS[ci](h) + 0.6 * rounds_left)
            elif row == "B":
                for t in items:
                    v += ctx.best_tile_gain(h, TILE_INDEX[t], base) + 1.0
            elif row == "C":
                v += ctx.greedy_gain(h, [("f", FEATURE_INDEX[f]) for f in items], base)
            else:
                if slot.get("star"):
                    v += 1.2 + 0.4 * (rounds_left > 1)
                else:
                    v += ctx.greedy_gain(h, [("p", COLOURS.index(c)) for c in items], base)
            v += rng.random() * 0.01
            if v > best_v:
                best, best_v = code, v
        return best


class _Context:
    """What the value of a neighbourhood depends on: our cards, the achievements still open."""

    def __init__(self, view: dict, seat: int) -> None:
        me = view["players"][seat]
        self.cards = [CARD_INDEX[c] for c in me["cards"]]
        self.long = view["long"]
        self.open: list[tuple[Any, int, int]] = []  # (counter, need, value of the next ring)
        for a in view["board"]["achievements"]:
            if any(r["seat"] == seat for r in a["rings"]):
                continue
            vacant = [r["value"] for r in a["rings"] if r["seat"] is None and not r["covered"]]
            if vacant:
                self.open.append((ACHIEVEMENT_COUNTERS[a["id"]], ACHIEVEMENTS[a["id"]].get("need", 1), vacant[0]))
        self.late = view["round"] / view["rounds"]

    def value(self, h: Hood) -> float:
        v = 0.0
        for c in self.cards:
            v += _CARD_VP[c] * CARD_COUNTERS[c](h)
        for counter, need, pts in self.open:
            n = counter(h)
            if n >= need:
                v += pts
            elif need > 1:
                v += pts * 0.3 * n / need
        # water and park areas: points now, plus room for more different features
        seen: set[int] = set()
        stype, feat, nbrs = h.stype, h.feat, h.nbrs
        for i in range(len(stype)):
            t = stype[i]
            if t < 4 or i in seen:
                continue
            seen.add(i)
            area = [i]
            k = 0
            while k < len(area):
                for j in nbrs[area[k]]:
                    if stype[j] == t and j not in seen:
                        seen.add(j)
                        area.append(j)
                k += 1
            designs = {feat[j] for j in area if feat[j] >= 0}
            free = sum(1 for j in area if feat[j] < 0)
            v += area_points(len(designs))
            if len(designs) < 4 and free:
                v += (1 - self.late) * 0.8 * min(free, 4 - len(designs))
        height = h.height
        room = 0
        for i in h.city:
            d = feat[i]
            if d >= 0:
                v += DESIGN_POINTS[d]
                if d != WILD:
                    continue
            room += MAX_HEIGHT - height[i]
            v += 0.35 * height[i]
        v += (1 - self.late) * 0.08 * room
        return v

    def value_after(self, h: Hood, code: Any, base: float, tile: int = -1) -> float:
        kind = code[0]
        if kind.startswith("decline"):
            return base
        g = h.clone()
        _apply(g, code, tile)
        return self.value(g)

    def best_tile_gain(self, h: Hood, tile: int, base: float) -> float:
        best = -1e9
        for tx, ty in h.tile_spots(self.long):
            for rot in range(4):
                g = h.clone()
                g.add_tile(tile, tx, ty, rot)
                best = max(best, self.value(g) - base)
        return max(best, 0.0)

    def greedy_gain(self, h: Hood, items: list[tuple[str, int]], base: float) -> float:
        g = h
        cur = base
        for kind, x in items:
            best_g, best_v = None, cur
            for code in _placements(g, kind, x):
                gg = g.clone()
                _apply(gg, code)
                v = self.value(gg)
                if v > best_v:
                    best_g, best_v = gg, v
            if best_g is not None:
                g, cur = best_g, best_v
        return cur - base


def _placements(h: Hood, kind: str, x: int) -> list[Any]:
    out = []
    if kind == "f":
        bg = DESIGN_BG[FEATURE_DESIGN[x]]
        for i, (sx, sy) in enumerate(h.xy):
            if h.feat[i] < 0 and (h.stype[i] == bg if bg >= 0 else h.stype[i] < 4 and not h.height[i]):
                out.append(("feature", x, sx, sy))
        return out
    for i in h.city:
        fe = h.feat[i]
        if fe >= 0 and fe != WILD:
            continue
        ht = h.height[i]
        if (ht == 0 and (h.stype[i] == x or fe == WILD)) or (0 < ht < MAX_HEIGHT and h.colour[i] == x):
            out.append(("build", x, *h.xy[i]))
    return out


def _apply(h: Hood, code: Any, tile: int = -1) -> None:
    kind = code[0]
    if kind == "tile":
        h.add_tile(tile, code[1], code[2], code[3])
    elif kind == "feature":
        i = h.cells[(code[2], code[3])]
        h.fid[i] = code[1]
        h.feat[i] = FEATURE_DESIGN[code[1]]
    elif kind == "build":
        i = h.cells[(code[2], code[3])]
        h.height[i] += 1
        h.colour[i] = code[1]


PLAYERS = {"heuristic": HeuristicPlayer}
