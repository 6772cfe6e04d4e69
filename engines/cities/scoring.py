"""A neighbourhood (barrio) and the one scorer of every scoring card and achievement.

A neighbourhood is a grid of spaces in *space coordinates*: the tile at tile cell ``(tx, ty)``
covers the spaces ``(2tx .. 2tx+1, 2ty .. 2ty+1)``; the starting tile is at tile cell ``(0, 0)``.

Conditions are small JSON dicts (see ``data/cards.json``) compiled once into functions
``hood -> occurrences``. A card scores ``vp x occurrences``; an achievement is met when the
occurrences reach its ``need``. Kinds:

* ``count``    spaces matching ``filter`` (a building is a space with a stack), ``// per``;
* ``pieces``   building pieces (of ``colour``) ``// per``;
* ``set``      the fewest spaces matching any one of ``items`` (complete sets);
* ``adjacent`` spaces matching ``filter`` with at least ``min`` (1) orthogonal neighbours matching ``to``;
* ``runs``     maximal straight lines (rows and columns) of ``length``+ consecutive matching spaces;
* ``squares``  2x2 squares of matching spaces (overlapping squares count);
* ``areas``    orthogonally connected groups of matching spaces, ``min_size``+ spaces and
  ``min_designs``+ different feature designs;
* ``tiles``    placed tiles with ``min``+ matching spaces and ``distinct_colours``+ building colours;
* ``designs``  different feature designs of a ``background`` (water / park) in the neighbourhood.

A space filter has any of: ``space`` (city, park, water or a city colour: a built space has its
building's colour, an empty wild space counts as every colour), ``building`` (true: it holds a
stack), ``colour`` (the building's colour), ``height`` / ``min_height`` / ``max_height``,
``feature`` (water, park, monument, wild, any, none, or a design id), ``empty`` (a city space with
no building and no feature other than a wild tile: a wild space counts as an empty city space).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .components import (
    ACHIEVEMENTS,
    CARDS,
    COLOURS,
    DESIGN_BG,
    DESIGN_INDEX,
    DESIGN_POINTS,
    PARK,
    ROTATED,
    SPACE_TYPES,
    WATER,
    WILD,
)

AREA_POINTS = (0, 1, 3, 6, 10)  # by different features in one water or park area (4 or more: 10)


def area_points(designs: int) -> int:
    return AREA_POINTS[min(designs, 4)]


class Hood:
    """One player's neighbourhood. Per space ``i``: ``stype`` (0-3 colour, 4 park, 5 water),
    ``feat`` (feature design or -1), ``fid`` (feature tile or -1), ``height`` and ``colour`` of
    its stack (0 / -1 when none), ``tile_of`` (index into ``tiles``), ``xy`` and ``nbrs``."""

    __slots__ = ("cells", "xy", "stype", "feat", "fid", "height", "colour", "tile_of", "nbrs",
                 "tiles", "tcells", "bbox", "city")

    def __init__(self) -> None:
        self.cells: dict[tuple[int, int], int] = {}
        self.xy: list[tuple[int, int]] = []
        self.stype: list[int] = []
        self.feat: list[int] = []
        self.fid: list[int] = []
        self.height: list[int] = []
        self.colour: list[int] = []
        self.tile_of: list[int] = []
        self.nbrs: list[tuple[int, ...]] = []
        self.tiles: list[tuple[int, int, int, int]] = []  # (tile, tx, ty, rot)
        self.tcells: dict[tuple[int, int], int] = {}
        self.bbox: tuple[int, int, int, int] | None = None  # min tx, max tx, min ty, max ty
        self.city: list[int] = []  # indices of city spaces

    def clone(self) -> Hood:
        h = Hood.__new__(Hood)
        h.cells = self.cells.copy()
        h.xy = self.xy[:]
        h.stype = self.stype[:]
        h.feat = self.feat[:]
        h.fid = self.fid[:]
        h.height = self.height[:]
        h.colour = self.colour[:]
        h.tile_of = self.tile_of[:]
        h.nbrs = self.nbrs[:]
        h.tiles = self.tiles[:]
        h.tcells = self.tcells.copy()
        h.bbox = self.bbox
        h.city = self.city[:]
        return h

    def add_tile(self, tile: int, tx: int, ty: int, rot: int) -> None:
        k = len(self.tiles)
        self.tiles.append((tile, tx, ty, rot))
        self.tcells[(tx, ty)] = k
        if self.bbox is None:
            self.bbox = (tx, tx, ty, ty)
        else:
            a, b, c, d = self.bbox
            self.bbox = (a if a < tx else tx, b if b > tx else tx, c if c < ty else ty, d if d > ty else ty)
        cells, nbrs, xy, city = self.cells, self.nbrs, self.xy, self.city
        i = len(xy)
        layout = ROTATED[tile][rot]
        self.stype.extend(layout)
        self.feat.extend((-1, -1, -1, -1))
        self.fid.extend((-1, -1, -1, -1))
        self.height.extend((0, 0, 0, 0))
        self.colour.extend((-1, -1, -1, -1))
        self.tile_of.extend((k, k, k, k))
        x0, y0 = 2 * tx, 2 * ty
        for q in range(4):
            x = x0 + (q & 1)
            y = y0 + (q >> 1)
            cells[(x, y)] = i
            xy.append((x, y))
            mine = []
            for p in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)):
                j = cells.get(p)
                if j is not None:
                    mine.append(j)
                    nbrs[j] = (*nbrs[j], i)
            nbrs.append(tuple(mine))
            if layout[q] < 4:
                city.append(i)
            i += 1

    def spans_after(self, tx: int, ty: int) -> tuple[int, int]:
        """Width and height in tiles if a tile were added at (tx, ty)."""
        a, b, c, d = self.bbox
        return max(b, tx) - min(a, tx) + 1, max(d, ty) - min(c, ty) + 1

    def tile_spots(self, long: bool) -> list[tuple[int, int]]:
        """Empty tile cells edge-adjacent to a tile, within 3x3 tiles (3x5 either way if long)."""
        a, b, c, d = self.bbox
        w, h = b - a + 1, d - c + 1
        tcells = self.tcells
        out = set()
        for (tx, ty) in tcells:
            for cell in ((tx + 1, ty), (tx - 1, ty), (tx, ty + 1), (tx, ty - 1)):
                if cell in tcells or cell in out:
                    continue
                x, y = cell
                nw = w + (x < a or x > b)
                nh = h + (y < c or y > d)
                if (nw <= 3 and nh <= 3) or (long and ((nw <= 5 and nh <= 3) or (nw <= 3 and nh <= 5))):
                    out.add(cell)
        return sorted(out)

    def pieces(self) -> int:
        return sum(self.height)


def fits(span: tuple[int, int], long: bool) -> bool:
    w, h = span
    if long:
        return (w <= 5 and h <= 3) or (w <= 3 and h <= 5)
    return w <= 3 and h <= 3


# -- filters ----------------------------------------------------------------------------------------
# A filter compiles to Python source over the space arrays (st type, ft feature design, ht height,
# co building colour), so counting matching spaces is one list comprehension, not a call per test.

Pred = Callable[[Hood, int], bool]
FILTER_KEYS = {"space", "building", "colour", "height", "min_height", "max_height", "feature", "empty"}


def filter_expr(f: dict[str, Any], v: str = "i") -> str:
    """Python expression true when space ``v`` matches filter ``f``."""
    unknown = set(f) - FILTER_KEYS
    if unknown or not f:
        raise ValueError(f"bad filter {f!r}")
    terms = []
    if "space" in f:
        sp = f["space"]
        if sp == "city":
            terms.append(f"st[{v}] < 4")
        elif sp in ("park", "water"):
            terms.append(f"st[{v}] == {SPACE_TYPES.index(sp)}")
        else:
            c = COLOURS.index(sp)  # a built space has its building's colour; an empty wild space is any colour
            terms.append(f"(st[{v}] < 4 and ((co[{v}] == {c}) if ht[{v}] else (st[{v}] == {c} or ft[{v}] == {WILD})))")
    if "building" in f:
        terms.append(f"ht[{v}] > 0" if f["building"] else f"ht[{v}] == 0")
    if "colour" in f:
        terms.append(f"co[{v}] == {COLOURS.index(f['colour'])}")
    if "height" in f:
        terms.append(f"ht[{v}] == {int(f['height'])}")
    if "min_height" in f:
        terms.append(f"ht[{v}] >= {int(f['min_height'])}")
    if "max_height" in f:
        terms.append(f"0 < ht[{v}] <= {int(f['max_height'])}")
    if "feature" in f:
        fe = f["feature"]
        if fe == "any":
            terms.append(f"ft[{v}] >= 0")
        elif fe == "none":
            terms.append(f"ft[{v}] < 0")
        elif fe in ("water", "park"):
            bg = WATER if fe == "water" else PARK
            designs = tuple(d for d, b in enumerate(DESIGN_BG) if b == bg)
            terms.append(f"ft[{v}] in {designs!r}")
        else:
            terms.append(f"ft[{v}] == {DESIGN_INDEX[fe]}")
    if f.get("empty"):
        terms.append(f"(st[{v}] < 4 and ht[{v}] == 0 and (ft[{v}] < 0 or ft[{v}] == {WILD}))")
    return " and ".join(terms)


_HEAD = "    st = h.stype; ft = h.feat; ht = h.height; co = h.colour\n"


def _build(src: str) -> Callable:
    ns: dict[str, Any] = {}
    exec(src, ns)  # the source is made here from validated filters, never from player input
    return ns["fn"]


def compile_filter(f: dict[str, Any]) -> Pred:
    return _build(f"def fn(h, i):\n{_HEAD}    return {filter_expr(f)}\n")


def compile_matching(f: dict[str, Any]) -> Callable[[Hood], list[int]]:
    return _build(f"def fn(h):\n{_HEAD}    return [i for i in range(len(st)) if {filter_expr(f)}]\n")


# -- condition kinds --------------------------------------------------------------------------------

Counter = Callable[[Hood], int]
KINDS = ("count", "pieces", "set", "adjacent", "runs", "squares", "areas", "tiles", "designs")


def compile_cond(cond: dict[str, Any]) -> Counter:
    """The occurrences of a condition; ``per`` (any kind) counts one per ``per`` occurrences."""
    per = int(cond.get("per", 1))
    if per > 1 and cond.get("kind") not in ("count", "pieces"):
        inner = _compile(cond)
        return lambda h: inner(h) // per
    return _compile(cond)


def _compile(cond: dict[str, Any]) -> Counter:
    kind = cond.get("kind")
    if kind == "count":
        m = compile_matching(cond["filter"])
        per = int(cond.get("per", 1))
        return lambda h: len(m(h)) // per
    if kind == "pieces":
        per = int(cond.get("per", 1))
        if "colour" in cond:
            c = COLOURS.index(cond["colour"])
            return lambda h: sum(hh for hh, cc in zip(h.height, h.colour, strict=True) if cc == c) // per
        return lambda h: sum(h.height) // per
    if kind == "set":
        ms = [compile_matching(f) for f in cond["items"]]
        return lambda h: min(len(m(h)) for m in ms)
    if kind == "adjacent":
        need = int(cond.get("min", 1))
        return _build(
            f"def fn(h):\n{_HEAD}    nb = h.nbrs; n = 0\n"
            f"    for i in range(len(st)):\n"
            f"        if {filter_expr(cond['filter'])}:\n"
            f"            k = 0\n"
            f"            for j in nb[i]:\n"
            f"                if {filter_expr(cond['to'], 'j')}:\n"
            f"                    k += 1\n"
            f"            if k >= {need}:\n"
            f"                n += 1\n"
            f"    return n\n"
        )
    if kind == "runs":
        mf = compile_matching(cond["filter"])
        length = int(cond["length"])

        def runs(h: Hood) -> int:
            m = {h.xy[i] for i in mf(h)}
            n = 0
            for (x, y) in m:
                if (x - 1, y) not in m:
                    k = 1
                    while (x + k, y) in m:
                        k += 1
                    n += k >= length
                if (x, y - 1) not in m:
                    k = 1
                    while (x, y + k) in m:
                        k += 1
                    n += k >= length
            return n

        return runs
    if kind == "squares":
        mf = compile_matching(cond["filter"])

        def squares(h: Hood) -> int:
            m = {h.xy[i] for i in mf(h)}
            return sum(1 for (x, y) in m if (x + 1, y) in m and (x, y + 1) in m and (x + 1, y + 1) in m)

        return squares
    if kind == "areas":
        mf = compile_matching(cond["filter"])
        size = int(cond.get("min_size", 1))
        designs = int(cond.get("min_designs", 0))

        def areas(h: Hood) -> int:
            m = mf(h)
            return sum(1 for a in _areas(h, set(m), m)
                       if len(a) >= size and len({h.feat[i] for i in a if h.feat[i] >= 0}) >= designs)

        return areas
    if kind == "tiles":
        mf = compile_matching(cond["filter"])
        need = int(cond.get("min", 1))
        colours = int(cond.get("distinct_colours", 0))

        def tiles(h: Hood) -> int:
            per: dict[int, list[int]] = {}
            for i in mf(h):
                per.setdefault(h.tile_of[i], []).append(i)
            return sum(1 for sp in per.values()
                       if len(sp) >= need and len({h.colour[i] for i in sp if h.colour[i] >= 0}) >= colours)

        return tiles
    if kind == "designs":
        bg = WATER if cond["background"] == "water" else PARK
        return lambda h: len({d for d in h.feat if d >= 0 and DESIGN_BG[d] == bg})
    raise ValueError(f"unknown condition kind {kind!r}")


def _areas(h: Hood, members: set[int], order: list[int] | None = None) -> list[list[int]]:
    """Connected groups of ``members``, each listed from its lowest space (``order``: the members
    in ascending order when the caller already has them)."""
    out = []
    seen: set[int] = set()
    nbrs = h.nbrs
    for start in order if order is not None else sorted(members):
        if start in seen:
            continue
        seen.add(start)
        area = [start]
        k = 0
        while k < len(area):
            for j in nbrs[area[k]]:
                if j in members and j not in seen:
                    seen.add(j)
                    area.append(j)
            k += 1
        out.append(area)
    return out


def nature_areas(h: Hood) -> list[tuple[int, list[int], int]]:
    """Every water and park area as (space type, spaces, points by its different features)."""
    out = []
    for t in (WATER, PARK):
        members = {i for i, st in enumerate(h.stype) if st == t}
        for a in _areas(h, members):
            d = len({h.feat[i] for i in a if h.feat[i] >= 0})
            out.append((t, a, area_points(d)))
    return out


def end_points(h: Hood) -> dict[str, int]:
    """Water areas, park areas and monuments (the parts of the final score not from cards/rings)."""
    water = park = 0
    for t, _a, pts in nature_areas(h):
        if t == WATER:
            water += pts
        else:
            park += pts
    monuments = sum(DESIGN_POINTS[d] for d in h.feat if d >= 0)
    return {"water": water, "park": park, "monuments": monuments}


# Every card and achievement, compiled once.
CARD_COUNTERS: tuple[Counter, ...] = tuple(compile_cond(c["cond"]) for c in CARDS)
ACHIEVEMENT_COUNTERS: dict[str, Counter] = {a: compile_cond(d["cond"]) for a, d in ACHIEVEMENTS.items()}
