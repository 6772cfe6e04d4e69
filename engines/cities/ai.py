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

import math
import random
from typing import Any

from ..search import level_player
from .components import (
    ACHIEVEMENTS,
    BOARDS,
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
        best, best_v = None, -1e9
        for v, code in self.take_values(view, ctx, h, legal, rng):
            if v > best_v:
                best, best_v = code, v
        return best

    @staticmethod
    def take_values(view: dict, ctx: _Context, h: Hood, legal: list[Any], rng: random.Random) -> list[tuple[float, Any]]:
        """Each row slot with its value (in the order of ``legal``)."""
        rows = {r["row"]: r["slots"] for r in view["rows"]}
        base = ctx.value(h)
        rounds_left = view["rounds"] - view["round"] + 1
        out = []
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
            out.append((v, code))
        return out


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


# -- search (issue 14) ---------------------------------------------------------------------------
#
# Cities has no private hands: what a seat cannot see is the order of the decks and the bag, the
# face-down items of the rows and those removed unseen. A determinisation is the table with exactly
# those parts dealt anew by the engine's own ``redeal`` (the conformance suite checks that no view
# changes under it), so the search copies the table but never keeps a hidden part of it.
# The root actions are the heuristic's best few; a playout lets every seat play one more turn -
# row slots at random, items placed where the heuristic's valuation likes them best - and the
# position is valued as the heuristic values a neighbourhood, for every seat, plus the
# achievements already claimed; the margin over the best other seat becomes the reward.


class _TableContext(_Context):
    """The heuristic's valuation with its inputs (cards, open achievements, progress) read from a
    determinised table instead of a view."""

    def __init__(self, s: Any, seat: int) -> None:  # noqa: D107 - the base reads a view instead
        self.cards = list(s.cards[seat])
        self.long = s.long
        self.open = []
        for a, ach in enumerate(BOARDS[s.board]["achievements"]):
            rings = s.rings[a]
            if seat in rings:
                continue
            vacant = [ach["values"][pos] for pos, r in enumerate(rings) if r == -1]
            if vacant:
                self.open.append((ACHIEVEMENT_COUNTERS[ach["id"]], ach.get("need", 1), vacant[0]))
        self.late = min(s.round + 1, s.rounds) / s.rounds


class CitiesSearch:
    needs_table = True  # it copies the table and deals every hidden part of the copy anew

    def __init__(self, shortlist: int = 5, scale: float = 4.0) -> None:
        self.shortlist = shortlist
        self.scale = scale
        self._heuristic = HeuristicPlayer()
        self._ranked: list[Any] = []

    def determiniser(self, game: Any, view: dict, seat: int, table: Any):
        base = game.redeal(table, seat, random.Random(0))  # from here on no hidden part is the real one

        def sample(rng: random.Random) -> Any:
            return game.redeal(base, seat, rng)

        return sample

    def candidates(self, game: Any, view: dict, seat: int, legal: list, rng: random.Random) -> list:
        """The heuristic's best root actions (its own first)."""
        if view["phase"] not in ("take", "place"):
            self._ranked = list(legal)
            return legal
        ctx = _Context(view, seat)
        h = hood_from_view(view["players"][seat])
        if view["phase"] == "take":
            scored = HeuristicPlayer.take_values(view, ctx, h, legal, random.Random(rng.getrandbits(32)))
        else:
            pending = view["pending"] or {}
            tile = TILE_INDEX[pending["tile"]] if pending.get("tile") else -1
            base = ctx.value(h)
            scored = [(ctx.value_after(h, code, base, tile), code) for code in legal]
        order = sorted(range(len(scored)), key=lambda i: (-scored[i][0], i))
        self._ranked = [scored[i][1] for i in order]
        return self._ranked[: self.shortlist]

    def prior(self, game: Any, view: dict, seat: int, legal: list, rng: random.Random) -> dict:
        allowed = set(legal)
        order = [c for c in self._ranked if c in allowed] or list(legal)
        return {c: 1.0 / (1 + i) for i, c in enumerate(order[: self.shortlist])}

    def horizon(self, game: Any, s: Any) -> int:
        return s.turns + s.n  # every seat plays one more turn

    def stop(self, game: Any, s: Any, mark: int) -> bool:
        return s.turns >= mark

    def policy(self, game: Any, s: Any, seat: int, legal: list, rng: random.Random) -> Any:
        if len(legal) == 1 or legal[0][0] in ("start", "take"):
            return legal[int(rng.random() * len(legal))]
        return self._heuristic._place(_TableContext(s, seat), s.hoods[seat], legal, s.p_tile)

    def evaluate(self, game: Any, s: Any, root_seat: int) -> list[float]:
        n = s.n
        if not game.to_move(s):
            worth = [float(x) for x in game.scores(s)]
        else:
            ach = game.achievement_points(s)
            worth = [ach[p] + _TableContext(s, p).value(s.hoods[p]) for p in range(n)]
        out = []
        for p in range(n):
            other = max(worth[q] for q in range(n) if q != p)
            out.append(1.0 / (1.0 + math.exp(-(worth[p] - other) / self.scale)))
        return out


# Measured (docs/benchmarks.md), default budgets against the heuristic: two players 60% (12/20),
# four players 41% first (13/32, fair share 25%), wide intervals; at 40 iterations a decision
# 5/10 two-player games whether the playouts took slots at random (kept) or like the heuristic,
# one lap or two; at the real budget heuristic takes bought 21 iterations and 4/20 four-player
# games where the random takes won 11/20 on the same seeds. The heuristic's choice is not given
# extra weight at the end (prior_final 0): a gate of 30% of the iterations made every choice the
# heuristic's own. A better evaluation (fitted on self-play, as Carcassonne's) is the next step.
NormalPlayer = level_player("normal", CitiesSearch, prior_weight=8.0, depth=1)
StrongPlayer = level_player("strong", CitiesSearch, prior_weight=8.0, depth=1)

PLAYERS = {"heuristic": HeuristicPlayer, "easy": HeuristicPlayer, "normal": NormalPlayer, "strong": StrongPlayer}
