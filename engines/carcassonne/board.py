"""The Carcassonne table: its state, the union-find of features, laying tiles and meeples, and
where a tile fits.

The table keeps its open frontier (empty cells next to tiles, bucketed by the edges they require)
and a union-find of features (open edges, tiles, pennants, meeples, cities a farm borders), so a
move costs the same on the 10th tile as on the 22,000th.
"""

from __future__ import annotations

from ..core import Event
from ..rng import Rng
from .tiles import (
    CITY,
    COMPAT,
    DROTS,
    DX,
    DY,
    EDGES,
    FARM,
    FID,
    FITS,
    FKIND,
    HAS_MONASTERY,
    MASKS,
    NOPEN,
    PENNANT,
    PORTS,
    ROAD,
    TOUCH,
)

MEEPLES = 7
NEIGHBOURS8 = ((-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1))
PLACE, CHOOSE, OVER = 0, 1, 2


class State:
    """Everything about a match. Per placed tile ``i``: ``tt/tr/tx/ty`` its type, rotation and
    cell, ``base[i]`` the first union-find node of its features (node = base + local index)."""

    __slots__ = (
        "n", "rules", "sets", "medina", "rng", "pile", "pos", "tt", "tr", "tx", "ty", "base",
        "parent", "size", "kind", "open", "tiles", "pen", "mee", "cities", "mon", "fsig", "buckets",
        "tmee", "supply", "scores", "by_kind", "turn", "turn_no", "phase", "current", "hand",
        "set_aside", "med_holder", "arch", "arch_used", "last", "final",
    )

    def __init__(self, n: int, rules: int, sets: int, medina: bool) -> None:
        self.n = n
        self.rules = rules
        self.sets = sets
        self.medina = medina
        self.rng = Rng(0)
        self.pile: list[int] = []  # top of the pile is the END of the list
        self.pos: dict[tuple[int, int], int] = {}
        self.tt: list[int] = []
        self.tr: list[int] = []
        self.tx: list[int] = []
        self.ty: list[int] = []
        self.base: list[int] = []
        # union-find over features; data is only meaningful at roots
        self.parent: list[int] = []
        self.size: list[int] = []
        self.kind: list[int] = []
        self.open: list[int] = []  # open edges (cities, roads)
        self.tiles: list[set[int] | None] = []  # distinct tiles (cities, roads)
        self.pen: list[int] = []  # pennants (cities)
        self.mee: list[list[tuple[int, int, int]] | None] = []  # meeples: (tile, local feature, seat)
        self.cities: list[set[int] | None] = []  # farms: city nodes they border
        self.mon: dict[int, int] = {}  # monastery tile -> tiles in its 3x3 square (itself included)
        # frontier: empty cell -> signature (2 bits per side: 0 free, else required edge kind)
        self.fsig: dict[tuple[int, int], int] = {}
        self.buckets: dict[int, dict[tuple[int, int], None]] = {}
        self.tmee: dict[int, list[tuple[int, int]]] = {}  # tile -> [(local feature, seat)]
        self.supply = [MEEPLES] * n
        self.scores = [0] * n
        self.by_kind = [[0, 0, 0, 0] for _ in range(n)]  # city, road, farm, monastery points
        self.turn = 0
        self.turn_no = 0
        self.phase = PLACE
        self.current = -1
        self.hand: list[int] = []
        self.set_aside: list[int] = []
        self.med_holder = -1  # seat holding the drawn, not yet placed Medina tile
        self.arch: list[int] | None = None  # [seat, uses, tile index, turn_no when placed]
        self.arch_used = -1  # turn_no of the last archaeologist use
        self.last: dict | None = None
        self.final: dict | None = None

    # -- union-find --------------------------------------------------------------------------

    def find(self, a: int) -> int:
        parent = self.parent
        root = a
        while parent[root] != root:
            root = parent[root]
        while parent[a] != root:
            parent[a], a = root, parent[a]
        return root

    def union(self, a: int, b: int) -> int:
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return ra
        size = self.size
        if size[ra] < size[rb]:
            ra, rb = rb, ra
        self.parent[rb] = ra
        size[ra] += size[rb]
        self.open[ra] += self.open[rb]
        self.pen[ra] += self.pen[rb]
        for attr in (self.tiles, self.cities):
            sb = attr[rb]
            if sb is not None:
                sa = attr[ra]
                if len(sa) < len(sb):
                    sa, sb = sb, sa
                sa |= sb
                attr[ra] = sa
                attr[rb] = None
        mb = self.mee[rb]
        if mb:
            ma = self.mee[ra]
            if ma:
                ma.extend(mb)
            else:
                self.mee[ra] = mb
            self.mee[rb] = None
        return ra


# -- the game -------------------------------------------------------------------------------------


# -- laying tiles and meeples -----------------------------------------------------------------------


def put(s: State, t: int, x: int, y: int, rot: int) -> int:
    """Lay tile type ``t`` (no checks, no scoring): features, unions, frontier, monasteries."""
    i = len(s.tt)
    base = len(s.parent)
    kinds = FKIND[t]
    nopen = NOPEN[t]
    touch = TOUCH[t]
    pennant = PENNANT[t]
    for f, k in enumerate(kinds):
        s.parent.append(base + f)
        s.size.append(1)
        s.kind.append(k)
        s.open.append(nopen[f])
        s.tiles.append({i} if k <= ROAD else None)
        s.pen.append(1 if k == CITY and pennant else 0)
        s.mee.append(None)
        s.cities.append({base + c for c in touch[f]} if k == FARM else None)
    s.tt.append(t)
    s.tr.append(rot)
    s.tx.append(x)
    s.ty.append(y)
    s.base.append(base)
    pos = s.pos
    pos[(x, y)] = i
    edges = EDGES[t][rot]
    ports = PORTS[t][rot]
    # join with the neighbours
    for side in range(4):
        j = pos.get((x + DX[side], y + DY[side]))
        if j is None:
            continue
        jb = s.base[j]
        jp = PORTS[s.tt[j]][s.tr[j]]
        o = ((side + 2) % 4) * 3
        e = edges[side]
        p = side * 3
        if e != 3:  # city or road: the middle ports join and two open edges close
            r = s.union(base + ports[p + 1], jb + jp[o + 1])
            s.open[r] -= 2
        if e != 1:  # road or field: the half-edge fields join
            s.union(base + ports[p], jb + jp[o + 2])
            s.union(base + ports[p + 2], jb + jp[o])
    # frontier
    fsig = s.fsig
    buckets = s.buckets
    old = fsig.pop((x, y), None)
    if old is not None:
        b = buckets[old]
        del b[(x, y)]
        if not b:
            del buckets[old]
    for side in range(4):
        cell = (x + DX[side], y + DY[side])
        if cell in pos:
            continue
        sig = fsig.get(cell)
        if sig is not None:
            b = buckets[sig]
            del b[cell]
            if not b:
                del buckets[sig]
        else:
            sig = 0
        sig |= edges[side] << (2 * ((side + 2) % 4))
        fsig[cell] = sig
        b = buckets.get(sig)
        if b is None:
            buckets[sig] = {cell: None}
        else:
            b[cell] = None
    # monasteries
    mon = s.mon
    around = 1
    for dx, dy in NEIGHBOURS8:
        j = pos.get((x + dx, y + dy))
        if j is not None:
            around += 1
            if j in mon:
                mon[j] += 1
    if HAS_MONASTERY[t] >= 0:
        mon[i] = around
    return i


def copy_for_put(s: State, x: int, y: int) -> State:
    """A copy of ``s`` on which one tile may be laid at (x, y) - ``put``, ``add_meeple`` and the
    scoring of what it finishes - without changing ``s``: a cheap stand-in for a full copy on big
    tables (the AI's lookahead). Only the per-feature sets and meeple lists of the features next to
    (x, y) are copied (the ones ``union`` and ``add_meeple`` change in place); the others stay
    shared, so the copy must not be changed any further than that one placement (copy the copy for
    the next one)."""
    c = State.__new__(State)
    for name in State.__slots__:
        setattr(c, name, getattr(s, name))
    for name in ("tt", "tr", "tx", "ty", "base", "parent", "size", "kind", "open", "pen", "tiles", "cities", "mee",
                 "supply", "scores"):
        setattr(c, name, list(getattr(s, name)))
    c.pos = dict(s.pos)
    c.mon = dict(s.mon)
    c.fsig = dict(s.fsig)
    c.buckets = {k: dict(v) for k, v in s.buckets.items()}
    c.tmee = {k: list(v) for k, v in s.tmee.items()}
    c.by_kind = [list(r) for r in s.by_kind]
    c.arch = list(s.arch) if s.arch else None
    pos = c.pos
    tiles, cities, mee = c.tiles, c.cities, c.mee
    for side in range(4):
        j = pos.get((x + DX[side], y + DY[side]))
        if j is None:
            continue
        jb = c.base[j]
        for f in range(len(FKIND[c.tt[j]])):
            r = c.find(jb + f)
            st = tiles[r]
            if st is not None:
                tiles[r] = st.copy()
            st = cities[r]
            if st is not None:
                cities[r] = st.copy()
            m = mee[r]
            if m is not None:
                mee[r] = list(m)
    return c


def add_meeple(s: State, i: int, f: int, seat: int) -> None:
    r = s.find(s.base[i] + f)
    m = s.mee[r]
    if m is None:
        s.mee[r] = [(i, f, seat)]
    else:
        m.append((i, f, seat))
    s.tmee.setdefault(i, []).append((f, seat))
    s.supply[seat] -= 1


def return_meeple(s: State, i: int, f: int, seat: int, events: list[Event]) -> None:
    lst = s.tmee[i]
    lst.remove((f, seat))
    if not lst:
        del s.tmee[i]
    s.supply[seat] += 1
    events.append(Event("meeple_returned", seat, {"x": s.tx[i], "y": s.ty[i], "feature": FID[s.tt[i]][f]}))


def fits_anywhere(s: State, t: int) -> bool:
    buckets = s.buckets
    for rot in DROTS[t]:
        fits = FITS[t][rot]
        for sig in buckets:
            if fits[sig]:
                return True
    return False


def occupied_ports(s: State, x: int, y: int) -> int:
    """12 bits: which ports of an empty cell touch a feature that already holds a meeple."""
    occ = 0
    pos = s.pos
    mee = s.mee
    find = s.find
    for side in range(4):
        j = pos.get((x + DX[side], y + DY[side]))
        if j is None:
            continue
        jb = s.base[j]
        jp = PORTS[s.tt[j]][s.tr[j]]
        o = ((side + 2) % 4) * 3
        # the neighbour's ports facing ours (its right half faces our left half); a city or
        # field edge has one feature on all three, so look each distinct node up once
        n0, n1, n2 = jb + jp[o + 2], jb + jp[o + 1], jb + jp[o]
        b0 = 1 if mee[find(n0)] else 0
        b1 = b0 if n1 == n0 else (1 if mee[find(n1)] else 0)
        b2 = b0 if n2 == n0 else (1 if mee[find(n2)] else 0)
        occ |= (b0 | b1 << 1 | b2 << 2) << (side * 3)
    return occ


def placements(s: State, t: int, meeple: bool, flat: bool = False) -> list[tuple]:
    """Distinct legal placements of tile ``t`` with the meeple spots each allows (none unless
    ``meeple``): [(x, y, rot, [feature ids])]. Each rotation that looks like another is left out.

    ``flat``: the same walk listed as action codes instead, (x, y, rot, None) and then
    (x, y, rot, feature id) per spot - what ``legal()`` returns. This is the hot path of playouts
    and AI search, hence plain loops and no list built per cell."""
    out: list[tuple] = []
    append = out.append
    occ_cache: dict[tuple[int, int], int] = {}
    buckets = s.buckets
    fids = FID[t]
    for rot in DROTS[t]:
        features = tuple(zip(fids, MASKS[t][rot], strict=True))
        for sig in COMPAT[t][rot]:
            b = buckets.get(sig)
            if not b:
                continue
            for cell in b:
                x, y = cell
                if flat:
                    append((x, y, rot, None))
                else:
                    spots: list[str] = []
                    append((x, y, rot, spots))
                if meeple:
                    occ = occ_cache.get(cell)
                    if occ is None:
                        occ = occ_cache[cell] = occupied_ports(s, x, y)
                    for fid, m in features:
                        if not m & occ:
                            if flat:
                                append((x, y, rot, fid))
                            else:
                                spots.append(fid)
    return out
