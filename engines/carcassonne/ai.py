"""A greedy Carcassonne player. It uses only public information (the table, the scores, the
tile in hand, its legal actions) - never the order of the draw pile.

For each legal placement it works out, without changing the state, what the tile does to the
roads and cities it touches (merged open edges, tiles, pennants, meeples) and to the monasteries
around it. Each action gets a value: the points it makes us score now, minus those it gives the
best opponent, plus the change in the estimated worth of unfinished features we (or they) hold,
plus, for a meeple, the estimated worth of the feature it claims minus the cost of tying it up.
"""

from __future__ import annotations

import math
import random
import time
from itertools import zip_longest
from typing import Any

from ..search import LEVEL_SECONDS, Stats
from . import USE, Carcassonne, State
from .board import copy_for_put, occupied_ports
from .scoring import feature_points, score_farms
from .tiles import (
    BASE_TYPES,
    CITY,
    CITY_ROAD,
    COMPAT,
    COUNTS,
    DROTS,
    DX,
    DY,
    EDGES,
    FARM,
    FID,
    FITS,
    FKIND,
    HAS_MONASTERY,
    INDEX,
    LETTERS,
    MASKS,
    MEDINA,
    MONASTERY,
    NOPEN,
    PENNANT,
    PORTS,
    ROAD,
    RUINS,
    START,
    TOUCH,
)

NEIGHBOURS8 = ((-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1))


def _worth(kind: int, open_: int, tiles: int, pen: int, rules: int, tiles_left: int) -> float:
    """Estimated final worth of a road or city to the players who lead it."""
    if open_ == 0:
        if kind == ROAD:
            return tiles
        if rules < 3 and tiles == 2:
            return tiles + pen
        return 2 * (tiles + pen)
    base = tiles if kind == ROAD else tiles + pen
    if tiles_left < 4:
        return base
    # the fewer open edges, the likelier it closes (and a city doubles when it does)
    chance = 0.7 if open_ <= 1 else 0.45 if open_ == 2 else 0.2
    return base * (1 + chance) if kind == CITY else base + chance


class GreedyPlayer:
    name = "greedy"

    def choose(self, game: Carcassonne, state: State, seat: int, rng: random.Random) -> Any:
        legal = game.legal(state, seat)
        if len(legal) == 1:
            return legal[0]
        if USE in legal:
            return USE  # more choice never hurts
        if legal[0][0] == "choose":
            best, best_v = legal[0], -1e9
            for code in legal:
                v = self._best(game, state, seat, INDEX[code[1]], rng)[1]
                if v > best_v:
                    best, best_v = code, v
            return best
        return self._best(game, state, seat, state.current, rng, legal)[0]

    # -- evaluation ----------------------------------------------------------------------------

    def _best(self, game: Carcassonne, s: State, seat: int, t: int, rng: random.Random,
              legal: list | None = None) -> tuple[Any, float]:
        if legal is None:
            legal = []
            for x, y, rot, spots in game.placements(s, seat, t):
                legal.append((x, y, rot, None))
                legal.extend((x, y, rot, fid) for fid in spots)
        cache: dict[tuple[int, int, int], tuple] = {}
        memo: dict = {}
        best, best_v = None, -1e18
        for code in legal:
            if code == USE:
                continue
            x, y, rot, fid = code
            key = (x, y, rot)
            info = cache.get(key)
            if info is None:
                info = cache[key] = self._analyse(s, t, x, y, rot, seat, memo)
            v = self._value(s, t, seat, info, fid) + rng.random() * 1e-3
            if v > best_v:
                best, best_v = code, v
        return best, best_v

    def _analyse(self, s: State, t: int, x: int, y: int, rot: int, seat: int, memo: dict | None = None) -> tuple:
        """Groups of the tile's roads/cities after the placement, and monastery effects.

        ``memo``: a dict kept by the caller for one table (and pile size), where what depends on
        the cell alone (its neighbours' features, the monasteries around) is kept between tiles
        and rotations - the same result, computed once per cell."""
        n = s.n
        ports = PORTS[t][rot]
        cell = memo.get((x, y)) if memo is not None else None
        if cell is None:
            cell = self._cell(s, x, y)
            if memo is not None:
                memo[(x, y)] = cell
        facing, mon_gain, around = cell
        links: dict[int, list[int]] = {f: [] for f in CITY_ROAD[t]}
        for side, r in facing:
            links[ports[side * 3 + 1]].append(r)
        # local features sharing a neighbour feature become one group
        groups: list[tuple[list[int], set[int], int]] = []
        for f, roots in links.items():
            merged_f, merged_r, conn = [f], set(roots), len(roots)
            keep = []
            for g in groups:
                if g[1] & merged_r:
                    merged_f += g[0]
                    merged_r |= g[1]
                    conn += g[2]
                else:
                    keep.append(g)
            groups = keep + [(merged_f, merged_r, conn)]
        out = []
        tiles_left = len(s.pile)
        for fs, roots, conn in groups:
            kind = FKIND[t][fs[0]]
            open_ = sum(NOPEN[t][f] for f in fs) + sum(s.open[r] for r in roots) - 2 * conn
            tiles = 1 + sum(len(s.tiles[r]) for r in roots)
            pen = (1 if kind == CITY and PENNANT[t] else 0) + sum(s.pen[r] for r in roots)
            count = [0] * n
            before = [0.0] * n
            for r in roots:
                c = [0] * n
                for m in s.mee[r] or ():
                    c[m[2]] += 1
                    count[m[2]] += 1
                top = max(c)
                if top:
                    w = _worth(kind, s.open[r], len(s.tiles[r]), s.pen[r], s.rules, tiles_left)
                    for p in range(n):
                        if c[p] == top:
                            before[p] += w
            out.append((fs, kind, open_, tiles, pen, count, before))
        return out, mon_gain, around, (x, y, rot)

    @staticmethod
    def _cell(s: State, x: int, y: int) -> tuple:
        """An empty cell's neighbours: (side, root) of each road or city edge facing it, and the
        monasteries around it (what a tile laid there gives their holders; tiles around it)."""
        pos = s.pos
        facing = []
        for side in range(4):
            j = pos.get((x + DX[side], y + DY[side]))
            if j is None:
                continue
            jt, jr = s.tt[j], s.tr[j]
            o = (side + 2) % 4
            if EDGES[jt][jr][o] == 3:  # a field edge: a fitting tile shows a field too
                continue
            facing.append((side, s.find(s.base[j] + PORTS[jt][jr][o * 3 + 1])))
        n = s.n
        mon_gain = [0.0] * n
        around = 1
        for dx, dy in NEIGHBOURS8:
            j = pos.get((x + dx, y + dy))
            if j is None:
                continue
            around += 1
            if j in s.mon:
                m = s.mee[s.base[j] + HAS_MONASTERY[s.tt[j]]]
                if m:
                    mon_gain[m[0][2]] += 1.0 + (2.0 if s.mon[j] == 8 else 0.0)
        return tuple(facing), mon_gain, around

    def _value(self, s: State, t: int, seat: int, info: tuple, fid: str | None) -> float:
        groups, mon_gain, around, xyrot = info
        n = s.n
        tiles_left = len(s.pile)
        gain = list(mon_gain)
        f_meeple = FID[t].index(fid) if fid is not None else -1
        meeple_value = 0.0
        for fs, kind, open_, tiles, pen, count, before in groups:
            c = count
            mine = f_meeple in fs
            if mine:
                c = list(count)
                c[seat] += 1
            top = max(c)
            worth = _worth(kind, open_, tiles, pen, s.rules, tiles_left) if top else 0.0
            for p in range(n):
                gain[p] += (worth if top and c[p] == top else 0.0) - before[p]
            if mine:
                if open_ == 0:
                    meeple_value += 0.5  # scores and comes straight back
                else:
                    meeple_value -= self._meeple_cost(s, seat, tiles_left)
        if f_meeple >= 0:
            k = FKIND[t][f_meeple]
            if k == MONASTERY:
                gain[seat] += around + (0.0 if tiles_left < 4 else 0.5 * (9 - around))
                meeple_value -= self._meeple_cost(s, seat, tiles_left)
            elif k == FARM:
                meeple_value += self._farm_value(s, t, seat, f_meeple, *xyrot, tiles_left)
            elif k == RUINS:
                meeple_value += 3.0 if tiles_left > 12 else -2.0
        others = max(gain[p] for p in range(n) if p != seat)
        return gain[seat] - others + meeple_value

    @staticmethod
    def _meeple_cost(s: State, seat: int, tiles_left: int) -> float:
        left = s.supply[seat]
        if tiles_left < 2 * s.n:
            return 0.0
        return 1.0 + (3.0 if left <= 2 else 1.0 if left <= 4 else 0.0)

    @staticmethod
    def _farm_value(s: State, t: int, seat: int, f: int, x: int, y: int, rot: int, tiles_left: int) -> float:
        """Finished cities the field would border (through its neighbours), minus a farmer's cost."""
        ports = PORTS[t][rot]
        done: set[int] = set()
        unfinished = len(TOUCH[t][f])
        for side in range(4):
            j = s.pos.get((x + DX[side], y + DY[side]))
            if j is None:
                continue
            jp = PORTS[s.tt[j]][s.tr[j]]
            o = ((side + 2) % 4) * 3
            for k in (0, 2):
                if ports[side * 3 + k] != f:
                    continue
                r = s.find(s.base[j] + jp[o + 2 - k])
                if s.kind[r] != FARM:
                    continue
                for c in s.cities[r] or ():
                    cr = s.find(c)
                    if s.open[cr] == 0:
                        done.add(cr)
                    else:
                        unfinished += 1
        value = 3.0 * len(done) + 0.8 * min(unfinished, 4)
        # a farmer never comes back: only worth it for a clear gain or late in the game
        cost = 7.0 if tiles_left > 25 else 3.0
        return value - cost - (3.0 if s.supply[seat] <= 2 else 0.0)


# -- search (issue 14) ---------------------------------------------------------------------------
#
# What a seat cannot see in Carcassonne is the order of the draw pile (and the seed of later
# shuffles); which tiles remain is public: the match's tile set minus every tile on the table, in
# hand or set aside. The searching levels rebuild the table from the view (``state_from_view``)
# and reason over the remaining tiles by kind and count, never over an order.


_PHASES = ("place", "choose", "over")
_KINDS = ("city", "road", "farm", "monastery")


def _remaining(view: dict) -> list[int]:
    """The tiles not yet seen (sorted), from the view alone."""
    counts = [0] * len(LETTERS)
    for t in BASE_TYPES:
        counts[t] = COUNTS[t] * view["sets"]
    if view["medina"]["enabled"]:
        counts[MEDINA] += 1
    seen = [b["tile"] for b in view["board"]] + list(view["hand"]) + list(view["set_aside"])
    if view["tile"]:
        seen.append(view["tile"])
    for letter in seen:
        counts[INDEX[letter]] -= 1
    pool = [t for t in range(len(LETTERS)) for _ in range(max(counts[t], 0))]
    n = view["tiles_left"]
    if len(pool) != n:  # a table built from an explicit setup: keep the count right
        pool = (pool or [START]) * (n // max(len(pool), 1) + 1)
        pool = sorted(pool)[:n]
    return pool


def state_from_view(game: Carcassonne, view: dict) -> State:
    """The table a view shows, as an engine state with an empty pile (nothing hidden in it)."""
    board = view["board"]
    index = {(b["x"], b["y"]): i for i, b in enumerate(board)}
    med = view["medina"]
    arch = med.get("archaeologist")
    n = len(view["scores"])
    dump = {
        "v": 1,
        "seats": n,
        "rules": view["rules"],
        "sets": view["sets"],
        "medina": med["enabled"],
        "rng": {"seed": 0, "n": 0},
        "pile": [],
        "tiles": [[b["tile"], b["x"], b["y"], b["rot"]] for b in board],
        "meeples": [[i, m["feature"], m["seat"]] for i, b in enumerate(board) for m in b["meeples"]],
        "supply": list(view["meeples"]),
        "scores": list(view["scores"]),
        "by_kind": [[row[k] for k in _KINDS] for row in view["points_by_kind"]],
        "turn": view["to_move"][0] if view["to_move"] else 0,
        "turn_no": len(board),
        "phase": _PHASES.index(view["phase"]),
        "current": view["tile"],
        "hand": list(view["hand"]),
        "set_aside": list(view["set_aside"]),
        "med_holder": med["holder"] if med["holder"] is not None else -1,
        "arch": [arch["seat"], arch["uses"], index[(arch["x"], arch["y"])], 0] if arch else None,
        "arch_used": -1,
        "last": view["last"],
        "final": None,
    }
    return game.load(dump)


# -- expectimax (the normal and strong levels) ---------------------------------------------------
#
# Sampled playouts (the ISMCTS levels this replaced) gave a signal dominated by the random tile draw. Instead, for each
# shortlisted placement of ours, this player lays it on a table rebuilt from the view, then goes
# through every distinct tile the next player could draw (weighted by how many of that tile remain -
# the remaining multiset is public), lets that player answer with the greedy player's choice (the
# opponent model), and values the table reached with a static evaluation: the expected final scores
# (see ``Evaluator``) of the searching seat minus the best other seat. No sampling: the same view and
# budget always give the same choice.


NAMES = ("end_city", "end_road", "end_farm", "end_mon", "city_close", "city_open", "road_open", "road_close",
         "mon_fill", "farm_open", "meeples", "tied")
(T_END_CITY, T_END_ROAD, T_END_FARM, T_END_MON, T_CITY_CLOSE, T_CITY_OPEN, T_ROAD_OPEN, T_ROAD_CLOSE, T_MON_FILL,
 T_FARM_OPEN, T_MEEPLES, T_TIED) = range(len(NAMES))
NTERMS = len(NAMES)
# weights of the terms early in the match and their change towards the end (fitted: bench/carc_eval_fit.py)
WEIGHTS = (
    (0.99, 1.15, 0.78, 1.29, 1.40, -0.30, 0.73, -0.84, 0.12, 0.48, 2.24, -8.89),
    (-0.09, -0.28, 0.16, -0.35, -0.62, 0.47, 0.06, 0.99, 0.40, -0.02, 1.38, 9.31),
)


class Evaluator:
    """Expected final scores of every seat on a table, knowing which tiles remain (not their order).

    An unfinished road or city closes with the chance that each of its open cells gets a fitting
    tile in time (the share of remaining tiles that fit the cell, over the draws left); a
    monastery's empty neighbours fill the same way; a farm counts the finished cities it borders and
    the chance of the others finishing; meeples in hand are worth what they may still earn."""

    def __init__(self, remaining: list[int], n: int, own_share: float = 0.55, meeple: float = 1.0) -> None:
        self.n = n
        self.total = max(len(remaining), 1)
        counts: dict[int, int] = {}
        for t in remaining:
            counts[t] = counts.get(t, 0) + 1
        self.counts = counts
        self.own_share = own_share
        self.meeple = meeple
        self.weights = WEIGHTS
        self._fit: dict[int, float] = {}
        # with ``nbase`` set (tiles on the table the search starts from), what a feature's shape
        # decides is kept between the tables of one search: see ``_key``
        self.nbase: int | None = None
        self.nodes = 0
        self._cells: dict[tuple, list[tuple[int, int]]] = {}
        self._borders: dict[tuple, list[int]] = {}
        self._chance: dict[tuple[int, float], float] = {}  # (id of a kept open-cell list, draws) -> chance
        self._ctx_state: State | None = None
        self._ctx_len = 0
        self._ctx: tuple = (set(), {})

    def fit(self, sig: int) -> float:
        """The share of the remaining tiles that fit a frontier cell with signature ``sig``."""
        q = self._fit.get(sig)
        if q is None:
            k = 0
            for t, c in self.counts.items():
                ft = FITS[t]
                for rot in DROTS[t]:
                    if ft[rot][sig]:
                        k += c
                        break
            q = self._fit[sig] = k / self.total
        return q

    def _fill(self, s: State, cell: tuple[int, int], draws: float) -> float:
        sig = s.fsig.get(cell)
        if sig is None:  # not next to any tile yet: it must first be reached
            return 0.5 * (1.0 - 0.9 ** draws)
        q = self.fit(sig)
        return 1.0 - (1.0 - q) ** draws if q < 1.0 else 1.0

    def _key(self, s: State, r: int) -> tuple:
        """What identifies feature ``r``'s shape across the tables of one search: a root keeps its
        number, and its size (and open edges) only grow with what joins it; the tiles laid since the
        search's table (the same numbers on every branch) are named by type, cell and rotation."""
        return (r, s.size[r], s.open[r]) + self._context(s)[1].get(r, ())

    def _context(self, s: State) -> tuple[set[tuple[int, int]], dict[int, tuple]]:
        """For table ``s`` (kept while it is the last one asked about): ``changed_cells`` and, per
        feature holding a part of a tile laid since the search's table, those tiles."""
        if self._ctx_state is s and self._ctx_len == len(s.tt):
            return self._ctx
        changed: set[tuple[int, int]] = set()
        parts: dict[int, tuple] = {}
        for i in range(self.nbase or 0, len(s.tt)):
            x, y = s.tx[i], s.ty[i]
            changed.update(((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)))
            b = s.base[i]
            desc = (s.tt[i], x, y, s.tr[i])
            for r in {s.find(b + f) for f in range(len(FKIND[s.tt[i]]))}:
                parts[r] = parts.get(r, ()) + desc
        self._ctx_state, self._ctx_len, self._ctx = s, len(s.tt), (changed, parts)
        return self._ctx

    def start(self, base: State) -> None:
        """Keep feature shapes between the tables of a search from ``base`` (see ``_key``)."""
        self.nbase = len(base.tt)
        self.nodes = len(base.parent)

    def open_cells(self, s: State, r: int) -> list[tuple[int, int]]:
        """The empty cells along the open edges of road or city ``r``."""
        key = None
        if self.nbase is not None:
            key = self._key(s, r)
            cells = self._cells.get(key)
            if cells is not None:
                return cells
        found: dict[tuple[int, int], None] = {}
        pos = s.pos
        find = s.find
        for i in s.tiles[r]:
            t, rot, x, y = s.tt[i], s.tr[i], s.tx[i], s.ty[i]
            edges = EDGES[t][rot]
            ports = PORTS[t][rot]
            b = s.base[i]
            for side in range(4):
                if edges[side] == 3:
                    continue
                cell = (x + DX[side], y + DY[side])
                if cell in pos or cell in found:
                    continue
                if find(b + ports[side * 3 + 1]) == r:
                    found[cell] = None
        cells = list(found)
        if key is not None:
            self._cells[key] = cells
        return cells

    def changed_cells(self, s: State) -> set[tuple[int, int]]:
        """The empty cells whose edge signature differs from the search's table (next to a tile laid
        since), where a kept chance of filling must be worked out again."""
        return self._context(s)[0]

    def close_chance(self, s: State, r: int, tiles_left: int, changed: set | None = None) -> float:
        if s.open[r] == 0:
            return 1.0
        draws = tiles_left * self.own_share
        if draws <= 0:
            return 0.0
        cells = self.open_cells(s, r)
        keep = False
        if self.nbase is not None:
            if changed is None:
                changed = self.changed_cells(s)
            keep = changed.isdisjoint(cells)
            if keep:
                q = self._chance.get((id(cells), draws))
                if q is not None:
                    return q
        p = 1.0
        for cell in cells:
            p *= self._fill(s, cell, draws)
        # more open cells compete for the same few draws
        p *= 0.85 ** max(0, len(cells) - 1)
        if keep:
            self._chance[(id(cells), draws)] = p
        return p

    def borders(self, s: State, f: int) -> list[int]:
        """The distinct cities (roots) along field ``f``."""
        key = None
        if self.nbase is not None:
            key = self._key(s, f)
            roots = self._borders.get(key)
            if roots is not None and all(s.parent[c] == c for c in roots):
                return roots
        find = s.find
        roots = list(dict.fromkeys(find(c) for c in s.cities[f] or ()))
        # a root of the search's own table stays one on every branch unless something joins it;
        # a newer one may be another feature on another branch: not kept
        if key is not None and all(c < self.nodes for c in roots):
            self._borders[key] = roots
        return roots

    def farm_points(self, s: State, farms: list[int]) -> list[int]:
        """What ``score_farms`` would give each seat now for the fields ``farms`` (roots with
        farmers), from ``borders``."""
        n = s.n
        out = [0] * n
        done = {f: [c for c in self.borders(s, f) if s.open[c] == 0] for f in farms}
        if s.rules == 1:
            tally: dict[int, list[int]] = {}
            for f in farms:
                count = [0] * n
                for m in s.mee[f]:
                    count[m[2]] += 1
                for c in done[f]:
                    row = tally.setdefault(c, [0] * n)
                    for p in range(n):
                        row[p] += count[p]
            for row in tally.values():
                top = max(row)
                for p in range(n):
                    if row[p] == top:
                        out[p] += 4
            return out
        credited: list[set[int]] = [set() for _ in range(n)]
        for f in farms:
            count = [0] * n
            for m in s.mee[f]:
                count[m[2]] += 1
            top = max(count)
            if not top:
                continue
            for p in range(n):
                if count[p] == top:
                    if s.rules == 3:
                        out[p] += 3 * len(done[f])
                    else:
                        credited[p].update(done[f])
        if s.rules != 3:
            for p in range(n):
                out[p] += 3 * len(credited[p])
        return out

    def components(self, game: Carcassonne, s: State, tiles_left: int) -> list[list[float]]:
        """Per seat, the terms the expected final score is made of (see ``NAMES``)."""
        n = s.n
        comp = [[0.0] * NTERMS for _ in range(n)]
        close: dict[int, float] = {}
        farms: dict[int, None] = {}
        counted: set[int] = set()
        pos = s.pos
        soon = min(1.0, tiles_left / 20.0)
        changed = self.changed_cells(s) if self.nbase is not None else None
        for i, lst in s.tmee.items():
            for f, p in lst:
                r = s.find(s.base[i] + f)
                k = s.kind[r]
                if k in (CITY, ROAD):
                    if r in counted:
                        continue
                    counted.add(r)
                    pc = close.get(r)
                    if pc is None:
                        pc = close[r] = self.close_chance(s, r, tiles_left, changed)
                    tiles = len(s.tiles[r])
                    count = [0] * n
                    for m in s.mee[r]:
                        count[m[2]] += 1
                    top = max(count)
                    if k == ROAD:
                        terms = ((T_ROAD_OPEN, soon * min(s.open[r], 2)), (T_ROAD_CLOSE, pc * tiles))
                    else:
                        now = tiles + s.pen[r]
                        full = now if (s.rules < 3 and tiles == 2) else 2 * now
                        terms = ((T_CITY_CLOSE, pc * (full - now)), (T_CITY_OPEN, soon * (1.0 - pc) * min(s.open[r], 3)))
                    end_term = T_END_ROAD if k == ROAD else T_END_CITY
                    end_points = feature_points(s, r, False)
                    for q in range(n):
                        if count[q] == top:
                            cq = comp[q]
                            cq[end_term] += end_points
                            for term, v in terms:
                                cq[term] += v
                            cq[T_TIED] += soon * (1.0 - pc) * count[q]
                elif k == MONASTERY:
                    comp[p][T_END_MON] += s.mon[i]
                    x, y = s.tx[i], s.ty[i]
                    draws = tiles_left * 0.8
                    for dx, dy in NEIGHBOURS8:
                        c = (x + dx, y + dy)
                        if c not in pos:
                            comp[p][T_MON_FILL] += self._fill(s, c, draws)
                elif k == FARM:
                    if r in farms:
                        continue
                    farms[r] = None
                    if s.rules == 1:
                        continue
                    count = [0] * n
                    for m in s.mee[r]:
                        count[m[2]] += 1
                    top = max(count)
                    bonus = 0.0
                    for cr in self.borders(s, r):
                        if s.open[cr] == 0:
                            continue
                        pc = close.get(cr)
                        if pc is None:
                            pc = close[cr] = self.close_chance(s, cr, tiles_left, changed)
                        bonus += 3.0 * pc
                    for q in range(n):
                        if count[q] == top:
                            comp[q][T_FARM_OPEN] += bonus
        turns = tiles_left / n
        for p in range(n):
            k = s.supply[p]
            v = 0.0
            for j in range(k):
                if j >= turns:
                    break
                v += (2.0 if j < 2 else 1.2 if j < 4 else 0.6) * min(1.0, turns / 12.0)
            comp[p][T_MEEPLES] = v
        if farms and self.nbase is not None:
            points = self.farm_points(s, sorted(farms))
            for p in range(n):
                comp[p][T_END_FARM] = points[p]
        elif farms:
            # the farms as the final scoring would count them now (scored, then the points undone)
            scores, by_kind = s.scores, s.by_kind
            s.scores, s.by_kind = [0] * n, [[0, 0, 0, 0] for _ in range(n)]
            try:
                score_farms(s, sorted(farms))
                for p in range(n):
                    comp[p][T_END_FARM] = s.scores[p]
            finally:
                s.scores, s.by_kind = scores, by_kind
        return comp

    def scores(self, game: Carcassonne, s: State, tiles_left: int) -> list[float]:
        comp = self.components(game, s, tiles_left)
        w = self.weights
        late = 1.0 - min(1.0, tiles_left / 71.0)
        out = []
        for p in range(s.n):
            c = comp[p]
            v = s.scores[p]
            for k in range(NTERMS):
                v += (w[0][k] + w[1][k] * late) * c[k]
            out.append(v)
        return out


class Replies:
    """Greedy's answer to every tile the next seat may draw, kept up to date cheaply from one of our
    placements to the next (the marathon tables: issue 22).

    Greedy values every placement of the drawn tile on its own; a placement of ours changes only the
    values of placements that touch what it changed. So the values are worked out once on the table
    before our move (per tile type, sorted), and after each candidate placement of ours only the
    cells it can have changed are valued again: the cells within two steps of it (new frontier
    cells, edge signatures, monasteries around it), the cells next to a feature it joined or finished
    (their size, open edges, meeples and meeple spots), and, if it closes a city, the cells next to a
    field along that city (a farmer's value). The answer is the best of the revalued cells and of the
    untouched ones (the first of the sorted list outside the changed cells). Ties go to the smallest
    (x, y, rotation, meeple spot); greedy itself breaks them at random.

    The table itself is carried over from the last few searches (``_KEPT``): on the next turn of the
    same match, only the cells the tiles laid since can have changed are valued again, the same way
    (unless a threshold greedy reads - tiles left, the seat's meeples - was crossed). A table the
    deadline cut short is kept too: the next turn goes on from the tile types it got to."""

    def __init__(self, base: State, seat: int, types: list[int], deadline: float = math.inf) -> None:
        self.seat = seat
        self.supply = base.supply[seat]
        self.base = base
        self.tables: dict[int, list[tuple[float, tuple, tuple]]] = {}
        self.complete = False  # False: the deadline passed before every tile type was valued
        self._farms_of: dict[int, list[int]] = {}
        # frontier cells next to each feature (all ports facing the cell)
        near: dict[int, list[tuple[int, int]]] = {}
        find = base.find
        pos = base.pos
        for cell in base.fsig:
            x, y = cell
            for side in range(4):
                j = pos.get((x + DX[side], y + DY[side]))
                if j is None:
                    continue
                jb = base.base[j]
                jp = PORTS[base.tt[j]][base.tr[j]]
                o = ((side + 2) % 4) * 3
                for k in range(3):
                    r = find(jb + jp[o + k])
                    lst = near.get(r)
                    if lst is None:
                        near[r] = [cell]
                    elif lst[-1] != cell:
                        lst.append(cell)
        self.near = near
        self.bracket = self._bracket()
        # the values of an earlier table of the same match, where nothing laid since reaches
        earlier, cells = self._earlier()
        self.carried = earlier is not None
        buckets = base.buckets
        if earlier is not None:
            buckets = {}
            for cell in cells:
                sig = base.fsig.get(cell)
                if sig is not None:
                    buckets.setdefault(sig, {})[cell] = None
        greedy = GreedyPlayer()
        memo: dict = {}
        _KEPT.append(self)  # even unfinished: the next turn goes on from the tile types done
        del _KEPT[:-4]
        for t in types:
            if time.perf_counter() > deadline:
                return
            old = earlier.tables.get(t) if earlier is not None else None
            if old is None:
                rows = [(-v, _tie(code), code) for code, v in greedy_values(greedy, base, seat, t, base.buckets, memo)]
            else:
                rows = [(-v, _tie(code), code) for code, v in greedy_values(greedy, base, seat, t, buckets, memo)]
                rows += [row for row in old if (row[2][0], row[2][1]) not in cells]
            rows.sort()
            self.tables[t] = rows
        self.complete = True

    def _bracket(self) -> tuple:
        """What greedy's values read beyond the cells themselves: the thresholds on the tiles left
        and on the answering seat's meeples (``_worth``, ``_meeple_cost``, ``_farm_value``)."""
        s = self.base
        left = len(s.pile)
        m = self.supply
        return (s.n, s.rules, self.seat, left < 4, left < 2 * s.n, left > 12, left > 25, m > 0, m <= 2, m <= 4)

    def _earlier(self) -> tuple[Replies | None, set[tuple[int, int]]]:
        """A kept table of an earlier turn of this match for the same seat (its tiles the first ones
        of this table, the same thresholds; the tile types it got to) and the cells whose values the tiles laid since can have
        changed - as for a candidate of ours (``touched``), for each tile laid since."""
        s = self.base
        for e in reversed(_KEPT):
            es = e.base
            k = len(es.tt)
            if (k > len(s.tt) or e.bracket != self.bracket or not e.tables
                    or es.tt != s.tt[:k] or es.tx != s.tx[:k] or es.ty != s.ty[:k] or es.tr != s.tr[:k]):
                continue
            cells: set[tuple[int, int]] = set()
            roots: set[int] = set()
            closed: set[int] = set()
            for i in range(k, len(s.tt)):
                x, y = s.tx[i], s.ty[i]
                cells.update((x + dx, y + dy) for dx in range(-2, 3) for dy in range(-2, 3))
                t = s.tt[i]
                for f in range(len(FKIND[t])):
                    r = s.find(s.base[i] + f)
                    roots.add(r)
                    if FKIND[t][f] == CITY and s.open[r] == 0:
                        closed.add(r)
            for r in closed:  # a city closed: the farmers' value along it changes
                roots.update(self.farms_of(r))
            for r in roots:
                cells.update(self.near.get(r, ()))
            return e, cells
        return None, set()

    def farms_of(self, city: int) -> list[int]:
        """Fields along a city (roots on this table): the fields of the city's own tiles that touch
        its part of the tile - what ``State.cities`` records for each field."""
        out = self._farms_of.get(city)
        if out is None:
            s = self.base
            found: dict[int, None] = {}
            find = s.find
            for i in s.tiles[city] or ():
                t, b = s.tt[i], s.base[i]
                kinds = FKIND[t]
                for f, touch in enumerate(TOUCH[t]):
                    if kinds[f] == FARM and any(find(b + c) == city for c in touch):
                        found[find(b + f)] = None
            out = self._farms_of[city] = list(found)
        return out

    def touched(self, code: tuple, d: State) -> set[tuple[int, int]]:
        """The cells whose greedy values our placement ``code`` (giving table ``d``) can change."""
        s = self.base
        x, y, rot, _ = code
        t = s.current
        edges = EDGES[t][rot]
        roots: set[int] = set()
        cities: set[int] = set()
        for side in range(4):
            j = s.pos.get((x + DX[side], y + DY[side]))
            if j is None:
                continue
            jb = s.base[j]
            jp = PORTS[s.tt[j]][s.tr[j]]
            o = ((side + 2) % 4) * 3
            for k in range(3):
                r = s.find(jb + jp[o + k])
                roots.add(r)
                if k == 1 and edges[side] == CITY:
                    cities.add(r)
        if cities:
            i = d.pos[(x, y)]
            if any(d.open[d.find(d.base[i] + f)] == 0 for f in CITY_ROAD[t] if FKIND[t][f] == CITY):
                for r in cities:  # a city closed: the farmers' value along it changes
                    roots.update(self.farms_of(r))
        cells = {(x + dx, y + dy) for dx in range(-2, 3) for dy in range(-2, 3)}
        near = self.near
        for r in roots:
            lst = near.get(r)
            if lst:
                cells.update(lst)
        return cells

    def answer(self, d: State, t: int, cells: set[tuple[int, int]], memo: dict | None = None) -> tuple[tuple | None, float]:
        """Greedy's placement of tile ``t`` for the seat on table ``d`` (the base table and one
        placement of ours whose changed cells are ``cells``), and its greedy value."""
        best: tuple | None = None
        for row in self.tables[t]:
            if (row[2][0], row[2][1]) not in cells:
                best = row
                break
        fsig = d.fsig
        buckets = {}
        for cell in cells:
            sig = fsig.get(cell)
            if sig is not None:
                buckets.setdefault(sig, {})[cell] = None
        greedy = GreedyPlayer()
        for code, v in greedy_values(greedy, d, self.seat, t, buckets, memo):
            row = (-v, _tie(code), code)
            if best is None or row < best:
                best = row
        return (None, -math.inf) if best is None else (best[2], -best[0])


def _tie(code: tuple) -> tuple:
    """The order among placements of equal greedy value (greedy itself draws at random)."""
    return code[0], code[1], code[2], code[3] or ""


_KEPT: list[Replies] = []  # the last few answer tables (a new one starts from an earlier one of its match)


def greedy_values(greedy: GreedyPlayer, s: State, seat: int, t: int, buckets: dict,
                  memo: dict | None = None) -> list[tuple[tuple, float]]:
    """Greedy's value (without its random tie-break) of every legal placement of tile ``t`` by
    ``seat`` on the frontier cells of ``buckets`` (signature -> cells), in ``placements()`` order;
    ``memo`` as in ``GreedyPlayer._analyse``."""
    out: list[tuple[tuple, float]] = []
    meeple = s.supply[seat] > 0
    fids = FID[t]
    occ_cache: dict[tuple[int, int], int] = {}
    if memo is None:
        memo = {}
    for rot in DROTS[t]:
        features = tuple(zip(fids, MASKS[t][rot], strict=True))
        for sig in COMPAT[t][rot]:
            b = buckets.get(sig)
            if not b:
                continue
            for cell in b:
                x, y = cell
                info = greedy._analyse(s, t, x, y, rot, seat, memo)
                out.append(((x, y, rot, None), greedy._value(s, t, seat, info, None)))
                if meeple:
                    occ = occ_cache.get(cell)
                    if occ is None:
                        occ = occ_cache[cell] = occupied_ports(s, x, y)
                    for fid, m in features:
                        if not m & occ:
                            out.append(((x, y, rot, fid), greedy._value(s, t, seat, info, fid)))
    return out


STOP_AT = 0.92  # share of the time budget after which no new work starts


class ExpectimaxPlayer:
    """Our placement, then the next seat's greedy answer to each tile it may draw (weighted by the
    remaining counts), then ``Evaluator``. Candidates are greedy's ranking, best first; a time
    budget evaluates as many as fit, an iteration budget exactly that many (reproducible)."""

    searching = True
    name = "expectimax"

    def __init__(self, seconds: float | None = 0.3, iterations: int | None = None, shortlist: int = 40,
                 own_share: float = 0.55, meeple: float = 1.0, prepass: bool = True, incremental: bool = True,
                 prepass_share: float = 0.25, head: int = 2) -> None:
        if seconds is None and iterations is None:
            raise ValueError("a search needs a time or an iteration budget")
        self.seconds = seconds
        self.iterations = iterations
        self.shortlist = shortlist
        self.own_share = own_share
        self.meeple = meeple
        self.prepass = prepass
        self.incremental = incremental
        self.prepass_share = prepass_share
        self.head = head
        self.stats = Stats()
        self.marks: dict[str, float] = {}  # when each phase of the last search ended (perf_counter)

    def choose(self, game: Carcassonne, state: State, seat: int, rng: random.Random) -> Any:
        start = time.perf_counter()
        view = game.view(state, seat)
        legal = game.legal(state, seat)
        del state  # from here on: the view and the legal list only
        return self.search(game, view, legal, seat, rng, start)

    def search(self, game: Carcassonne, view: dict, legal: list, seat: int, rng: random.Random,
               start: float | None = None) -> Any:
        """The choice among ``legal``; the time budget counts from ``start`` (default: now)."""
        if start is None:
            start = time.perf_counter()
        self.stats = stats = Stats()
        if len(legal) == 1:
            stats.visits = {legal[0]: 0}
            return legal[0]
        srng = random.Random(rng.getrandbits(64))
        marks = self.marks = {"start": start, "search": time.perf_counter()}
        base = state_from_view(game, view)
        marks["rebuilt"] = time.perf_counter()
        remaining = _remaining(view)
        base.pile = remaining  # the public multiset, in a fixed (sorted) order: only its size is read
        greedy = GreedyPlayer()
        if USE in legal or legal[0][0] == "choose":
            return greedy.choose(game, base, seat, srng)
        # greedy's ranking of our placements
        cache: dict = {}
        scored = []
        for k, code in enumerate(legal):
            x, y, rot, fid = code
            info = cache.get((x, y, rot))
            if info is None:
                info = cache[(x, y, rot)] = greedy._analyse(base, base.current, x, y, rot, seat)
            scored.append((greedy._value(base, base.current, seat, info, fid), -k, code))
        scored.sort(reverse=True)
        marks["ranked"] = time.perf_counter()
        ev = Evaluator(remaining, base.n, self.own_share, self.meeple)
        if self.incremental:
            ev.start(base)
        n = base.n
        nxt = (seat + 1) % n
        tiles_left = len(remaining)
        greedy_order = [c for _, _, c in scored]
        types = sorted(ev.counts.items())
        # stop a little before the budget: what runs past the last check (scheduling on a busy
        # machine, the answer itself) must still land within it
        deadline = start + STOP_AT * self.seconds if self.seconds is not None else math.inf
        budget = min(self.shortlist, self.iterations if self.iterations is not None else len(legal))
        best, best_v = greedy_order[0], -math.inf
        values: dict = {}
        clock = time.perf_counter
        replies = None
        if clock() >= deadline:
            budget = 0
        elif types and self.incremental:
            base.pile = remaining[:-1]  # the next seat's answer comes with one tile fewer left
            replies = Replies(base, nxt, [t for t, _ in types], deadline)
            marks["answers"] = time.perf_counter()
            base.pile = remaining
            if not replies.complete:  # a huge table on a busy machine: greedy's choice
                budget = 0

        def look(code: Any) -> bool:
            """The lookahead on one candidate; False once the budget or the time is spent."""
            nonlocal best, best_v
            if len(values) >= budget or (values and clock() >= deadline):
                return False
            if replies is None:
                v = self._value(game, base, seat, nxt, code, types, tiles_left, ev, deadline)
            else:
                v = self._value_fast(game, base, seat, nxt, code, types, tiles_left, ev, replies, deadline)
            if v is None:  # out of time half-way (a huge table): keep what was finished
                return False
            values[code] = v
            if v > best_v + 1e-9:
                best, best_v = code, v
            return True

        # greedy's first choices first (all a busy machine may leave time for on a huge table) ...
        going = True
        for code in greedy_order[: self.head]:
            if not (going := look(code)):
                break
        marks["head"] = time.perf_counter()
        if going and self.prepass:
            # ... then a cheap first look at every placement (the table right after it, no answer),
            # so the lookahead also tries what greedy ranks low; the two rankings take turns
            static = []
            stop = min(deadline, clock() + self.prepass_share * self.seconds) if self.seconds is not None else math.inf
            for k, code in enumerate(legal):
                if clock() > stop:
                    break
                d = copy_for_put(base, code[0], code[1]) if self.incremental else game.clone(base)
                game.lay(d, seat, code, [])
                static.append((self._margin(ev.scores(game, d, tiles_left - 1 if tiles_left else 0), seat, n), -k, code))
            static.sort(reverse=True)
            order = []
            seen = set(values)
            for pair in zip_longest(greedy_order, [c for _, _, c in static]):
                for c in pair:
                    if c is not None and c not in seen:
                        seen.add(c)
                        order.append(c)
        else:
            order = greedy_order[self.head:]
        if going:
            for code in order:
                if not look(code):
                    break
        marks["end"] = time.perf_counter()
        stats.iterations = len(values)
        stats.visits = values
        stats.seconds = time.perf_counter() - start
        return best

    def _value(self, game: Carcassonne, base: State, seat: int, nxt: int, code: Any, types: list,
               tiles_left: int, ev: Evaluator, deadline: float = math.inf) -> float | None:
        """Our placement's expected margin after the next seat's greedy answer to each tile it
        may draw; None if the deadline passes first."""
        d = game.clone(base)
        game.lay(d, seat, code, [])
        n = d.n
        if tiles_left == 0:
            return self._margin(ev.scores(game, d, 0), seat, n)
        greedy = GreedyPlayer()
        tie = random.Random(0)
        total = 0.0
        weight = 0
        d.pile = base.pile[:-1]  # one tile fewer for the next seat's view of the game
        clock = time.perf_counter
        for t, c in types:
            if clock() > deadline:
                return None
            reply, _ = greedy._best(game, d, nxt, t, tie)
            if reply is None:
                sc = ev.scores(game, d, tiles_left - 1)
            else:
                e = game.clone(d)
                e.current = t
                game.lay(e, nxt, reply, [])
                sc = ev.scores(game, e, tiles_left - 1)
            total += c * self._margin(sc, seat, n)
            weight += c
        return total / weight

    def _value_fast(self, game: Carcassonne, base: State, seat: int, nxt: int, code: Any, types: list,
                    tiles_left: int, ev: Evaluator, replies: Replies, deadline: float = math.inf) -> float | None:
        """``_value`` with the next seat's answers from ``replies`` (the same greedy values, worked
        out again only where our placement changed them)."""
        d = copy_for_put(base, code[0], code[1])
        game.lay(d, seat, code, [])
        n = d.n
        d.pile = base.pile[:-1]
        if d.supply[nxt] != replies.supply:  # meeples came back to it: every meeple spot changes
            return self._value(game, base, seat, nxt, code, types, tiles_left, ev, deadline)
        cells = replies.touched(code, d)
        memo: dict = {}  # greedy's cell data on the table after our placement
        total = 0.0
        weight = 0
        clock = time.perf_counter
        for t, c in types:
            if clock() > deadline:
                return None
            reply, _ = replies.answer(d, t, cells, memo)
            if reply is None:
                sc = ev.scores(game, d, tiles_left - 1)
            else:
                e = copy_for_put(d, reply[0], reply[1])
                e.current = t
                game.lay(e, nxt, reply, [])
                sc = ev.scores(game, e, tiles_left - 1)
            total += c * self._margin(sc, seat, n)
            weight += c
        return total / weight

    @staticmethod
    def _margin(sc: list[float], seat: int, n: int) -> float:
        return sc[seat] - max(sc[q] for q in range(n) if q != seat)


def _level(level: str, seconds: float) -> type:
    class Level(ExpectimaxPlayer):
        name = level

        def __init__(self, seconds: float | None = seconds, iterations: int | None = None) -> None:
            super().__init__(seconds=seconds, iterations=iterations)

    Level.__name__ = Level.__qualname__ = f"{level.capitalize()}Player"
    return Level


# The levels: the one-turn expectimax above with the level's time budget. Measured 2026-12-03 at the
# default budgets against greedy, 2 players, pinned to one core (docs/benchmarks.md): strong 80%
# first (48/60, 95% CI 68-88%, seeds 5000-5059; mean margin +16.9) and 87% (52/60, CI 76-93%,
# seeds 8000-8059), normal 72% (29/40, CI 57-84%, seeds 6000-6039) and 92% (37/40, CI 80-97%, seeds
# 9000-9039); the mirror (greedy vs greedy) 47%, 48%, 52% and 42% on the same seeds; both 20/20 vs
# random. Decision p50/p99: strong 301/305 ms (a median of 14-16 placements looked at), normal
# 101/105 ms (4). The ISMCTS levels they replace (sampled meeple-less playouts; in the history
# before this expectimax) won 26-35%: their evaluation misled them, so they kept greedy's move.
# Issue 22 (2026-12-03, shared machine, core 0, nice 5): strong vs normal 70% first (42/60, CI
# 57-80%, seeds 31000-31059, p50/p99 280/316 ms); on a marathon table (sets=14 from 900 tiles,
# bench/carc_marathon.py, seeds 21000-21029) strong won the rest of the match against greedy in 63%
# (38/60, CI 51-74%), p50/p99 280/312 ms, a median of 5 placements looked at; seeds 21030-21059:
# 65% (39/60, CI 52-76%), p50/p99 278/348 ms, median 10 placements.
NormalPlayer = _level("normal", LEVEL_SECONDS["normal"])
StrongPlayer = _level("strong", LEVEL_SECONDS["strong"])

PLAYERS = {"greedy": GreedyPlayer, "easy": GreedyPlayer, "normal": NormalPlayer, "strong": StrongPlayer}
