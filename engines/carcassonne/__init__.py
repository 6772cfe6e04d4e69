"""Carcassonne (Klaus-Jürgen Wrede) base game: 72 tiles, 2-6 players, 7 meeples each.

Rules summary (our words): the start tile lies face up; in turn each player draws a tile and adds
it to the table so that it touches at least one tile and every touching edge matches (city to
city, road to road, field to field). A tile that fits nowhere is set aside and another is drawn.
The player may then put one meeple from their supply on a feature of the tile just placed (a
road, a city, the monastery or a field) unless that feature, through its connections, already
holds a meeple. A finished road (1 point per tile), city (2 per tile and per pennant) or
monastery (9, once its 8 neighbours are all placed) scores at once for the player(s) with most
meeples on it, and those meeples go back. At the end unfinished features score 1 per tile / per
pennant / per tile around the monastery, and farmers score their fields. Option ``rules`` picks
the 1st, 2nd or 3rd (current) edition farm and 2-tile-city scoring; ``sets`` shuffles N copies of
the tile set for marathon tables; ``medina`` adds the Medina Azahara tile (see docs/carcassonne.md).

Incremental model: the table keeps its open frontier (empty cells next to tiles, bucketed by the
edges they require) and a union-find of features (open edges, tiles, pennants, meeples, cities a
farm borders), so a move costs the same on the 10th tile as on the 22,000th.

Action codes: ``(x, y, rot, feature_id | None)`` to place the current tile, ``("medina_use",)``
and ``("choose", letter)`` for the Medina Azahara archaeologist.
"""

from __future__ import annotations

import copy
from typing import Annotated, Any, Literal

from pydantic import Field

from ..core import (
    BadAction,
    BadSetup,
    Event,
    Game,
    IllegalAction,
    Outcome,
    Result,
    StrictModel,
    rank_by,
)
from ..rng import Rng
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
    FINDEX,
    FITS,
    FKIND,
    GEOMETRY,
    HAS_MONASTERY,
    HAS_RUINS,
    INDEX,
    KIND_NAMES,
    LETTERS,
    MASKS,
    MEDINA,
    MONASTERY,
    NOPEN,
    PENNANT,
    PORTS,
    ROAD,
    RUINS,
    SAME_AS,
    START,
    TOUCH,
)

MEEPLES = 7
ARCHAEOLOGIST_USES = 4
PLACE, CHOOSE, OVER = 0, 1, 2
PHASES = ("place", "choose", "over")
USE = ("medina_use",)
NEIGHBOURS8 = ((-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1))
KIND_KEYS = ("city", "road", "farm", "monastery")
_DRAW_EVENTS = ("drawn", "tile_set_aside", "medina_drawn")
MAX_XY = 100_000  # no table of 400 tile sets reaches this far from the start tile


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


# -- options and actions --------------------------------------------------------------------------


class Options(StrictModel):
    rules: Literal[1, 2, 3] = Field(3, description="Scoring edition: 3 current, 2 or 1 (older farm and 2-tile city rules)")
    sets: int = Field(1, ge=1, le=400, description="Copies of the 72-tile set in the draw pile (marathon tables)")
    medina: bool = Field(False, description="Shuffle in the Medina Azahara tile (archaeologist)")


class Place(StrictModel):
    type: Literal["place"]
    x: int
    y: int
    rot: int = Field(ge=0, le=3)
    meeple: str | None = None


class MedinaUse(StrictModel):
    type: Literal["medina_use"]


class Choose(StrictModel):
    type: Literal["choose"]
    tile: str


Action = Annotated[Place | MedinaUse | Choose, Field(discriminator="type")]


# -- state ----------------------------------------------------------------------------------------


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


class Carcassonne(Game[State]):
    key = "carcassonne"
    name = "Carcassonne"
    names = {"en": "Carcassonne", "es": "Carcassonne"}
    min_players = 2
    max_players = 6
    Options = Options
    Action = Action
    variants = ({}, {"rules": 1}, {"rules": 2, "medina": True}, {"medina": True, "sets": 2})

    # -- setup ---------------------------------------------------------------------------------

    def new_state(self, n_seats: int, options: Options, seed: int | None, setup: Any) -> State:
        self.check_seats(n_seats)
        s = State(n_seats, options.rules, options.sets, options.medina)
        if setup is not None:
            pile, board, rng_seed = self._check_setup(setup, options)
            s.rng = Rng(rng_seed)
            s.pile = list(reversed(pile))
            if board is None:
                self._put(s, START, 0, 0, 0)
            else:
                self._setup_board(s, board)
        else:
            s.rng = Rng(seed if seed is not None else 0)
            pile = []
            for t in BASE_TYPES:
                pile.extend([t] * (COUNTS[t] * options.sets))
            pile.remove(START)
            if options.medina:
                pile.append(MEDINA)
            s.rng.shuffle(pile)
            s.pile = pile
            self._put(s, START, 0, 0, 0)
        events: list[Event] = []
        self._start_turn(s, 0, events)
        return s

    def _check_setup(self, setup: Any, options: Options) -> tuple[list[int], list | None, int]:
        """Setup: a list of tile ids (top of the pile first), or {"pile": [...], "board": [...],
        "rng": int}. Board entries: {"tile", "x", "y", "rot", "meeple": {"seat", "feature"}}.
        The pile and the board together may not hold more tiles of a kind than the tile set."""
        board = None
        rng_seed = 0
        if isinstance(setup, dict):
            unknown = set(setup) - {"pile", "board", "rng"}
            if unknown:
                raise BadSetup("bad_setup", f"unknown setup keys: {', '.join(sorted(unknown))}")
            raw = setup.get("pile", [])
            board = setup.get("board")
            rng_seed = setup.get("rng", 0)
            if not _is_int(rng_seed):
                raise BadSetup("bad_setup", "setup 'rng' must be an integer")
            if board is not None and (not isinstance(board, list) or not board):
                raise BadSetup("bad_setup", "setup 'board' must be a non-empty list of placed tiles")
        else:
            raw = setup
        if not isinstance(raw, list):
            raise BadSetup("bad_setup", 'the setup must be a list of tile ids (top first) or {"pile": [...], "board": [...]}')
        pile = [self._setup_tile(tid, options) for tid in raw]
        used = list(pile)
        if board is None:
            used.append(START)
        else:
            used += [self._setup_tile(e.get("tile") if isinstance(e, dict) else None, options) for e in board]
        available = {t: COUNTS[t] * options.sets for t in BASE_TYPES}
        available[MEDINA] = 1 if options.medina else 0
        for t in sorted(set(used)):
            if used.count(t) > available[t]:
                raise BadSetup(
                    "too_many_tiles", f"the setup holds {used.count(t)} {LETTERS[t]} tiles; the tile set has {available[t]}",
                    tile=LETTERS[t], count=used.count(t), available=available[t],
                )
        return pile, board, rng_seed

    @staticmethod
    def _setup_tile(tid: Any, options: Options) -> int:
        t = INDEX.get(tid) if isinstance(tid, str) else None
        if t is None:
            raise BadSetup("unknown_tile", f"unknown tile {str(tid)[:20]!r}; tiles are A-X and 'medina'", tile=str(tid)[:20])
        if t == MEDINA and not options.medina:
            raise BadSetup("medina_off", "the setup holds the Medina tile but the 'medina' option is off")
        return t

    def _setup_board(self, s: State, board: list) -> None:
        """Lay the setup board in order, by the rules of play: each tile fits where it goes and a
        meeple only goes on a feature of that tile that holds no meeple yet."""
        for k, entry in enumerate(board):
            t = INDEX[entry["tile"]]
            x, y, rot, meeple = entry.get("x"), entry.get("y"), entry.get("rot", 0), entry.get("meeple")
            if set(entry) - {"tile", "x", "y", "rot", "meeple"}:
                raise BadSetup("bad_setup", f"board entry {k}: only 'tile', 'x', 'y', 'rot' and 'meeple'")
            if not (_is_int(x) and _is_int(y) and abs(x) <= MAX_XY and abs(y) <= MAX_XY):
                raise BadSetup("bad_setup", f"board entry {k}: 'x' and 'y' must be integers within ±{MAX_XY}")
            if t == MEDINA or not _is_int(rot) or not 0 <= rot <= 3:
                raise BadSetup("bad_setup", f"board entry {k}: bad tile or rotation (0-3)")
            if (x, y) in s.pos:
                raise BadSetup("bad_setup", f"board entry {k}: there is already a tile at ({x}, {y})")
            if k and ((x, y) not in s.fsig or not FITS[t][rot][s.fsig[(x, y)]]):
                raise BadSetup("bad_setup", f"board entry {k}: {entry['tile']} does not fit at ({x}, {y}) rotation {rot}")
            f = None
            if meeple is not None:
                seat = meeple.get("seat") if isinstance(meeple, dict) else None
                feature = meeple.get("feature") if isinstance(meeple, dict) else None
                f = FINDEX[t].get(feature) if isinstance(feature, str) else None
                if not _is_int(seat) or f is None:
                    raise BadSetup("bad_setup", f"board entry {k}: a meeple needs a 'seat' and a 'feature' of the tile")
                if not 0 <= seat < s.n or s.supply[seat] == 0:
                    raise BadSetup("bad_setup", f"board entry {k}: bad seat or no meeple left")
                if k and MASKS[t][rot][f] & self.occupied_ports(s, x, y):
                    raise BadSetup(
                        "bad_setup", f"board entry {k}: that {KIND_NAMES[FKIND[t][f]]} already holds a meeple"
                    )
            i = self._put(s, t, x, y, rot)
            if f is not None:
                self._add_meeple(s, i, f, seat)
        for i in s.tmee:
            for f, _seat in s.tmee[i]:
                r = s.find(s.base[i] + f)
                k = s.kind[r]
                if (k in (CITY, ROAD) and s.open[r] == 0) or (k == MONASTERY and s.mon[i] == 9):
                    raise BadSetup("bad_setup", "the setup board has a meeple on a finished feature")

    # -- the table -----------------------------------------------------------------------------

    def _put(self, s: State, t: int, x: int, y: int, rot: int) -> int:
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

    def _add_meeple(self, s: State, i: int, f: int, seat: int) -> None:
        r = s.find(s.base[i] + f)
        m = s.mee[r]
        if m is None:
            s.mee[r] = [(i, f, seat)]
        else:
            m.append((i, f, seat))
        s.tmee.setdefault(i, []).append((f, seat))
        s.supply[seat] -= 1

    def _return_meeple(self, s: State, i: int, f: int, seat: int, events: list[Event]) -> None:
        lst = s.tmee[i]
        lst.remove((f, seat))
        if not lst:
            del s.tmee[i]
        s.supply[seat] += 1
        events.append(Event("meeple_returned", seat, {"x": s.tx[i], "y": s.ty[i], "feature": FID[s.tt[i]][f]}))

    def fits_anywhere(self, s: State, t: int) -> bool:
        buckets = s.buckets
        for rot in DROTS[t]:
            fits = FITS[t][rot]
            for sig in buckets:
                if fits[sig]:
                    return True
        return False

    def occupied_ports(self, s: State, x: int, y: int) -> int:
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

    def placements(self, s: State, seat: int, t: int | None = None) -> list[tuple[int, int, int, list[str]]]:
        """Distinct legal placements of tile ``t`` (default: the current tile) with the meeple
        spots each allows: [(x, y, rot, [feature ids])]."""
        t = s.current if t is None else t
        out = []
        can = s.supply[seat] > 0
        occ_cache: dict[tuple[int, int], int] = {}
        buckets = s.buckets
        for rot in DROTS[t]:
            masks = MASKS[t][rot]
            fids = FID[t]
            for sig in COMPAT[t][rot]:
                b = buckets.get(sig)
                if not b:
                    continue
                for cell in b:
                    spots: list[str] = []
                    if can:
                        occ = occ_cache.get(cell)
                        if occ is None:
                            occ = occ_cache[cell] = self.occupied_ports(s, cell[0], cell[1])
                        spots = [fids[f] for f, m in enumerate(masks) if not m & occ]
                    out.append((cell[0], cell[1], rot, spots))
        return out

    # -- queries -------------------------------------------------------------------------------

    def to_move(self, s: State) -> tuple[int, ...]:
        return () if s.phase == OVER else (s.turn,)

    def can_use_archaeologist(self, s: State, seat: int) -> bool:
        a = s.arch
        return (
            a is not None and a[0] == seat and s.phase == PLACE and seat == s.turn and a[3] < s.turn_no
            and s.arch_used != s.turn_no and bool(s.pile)
        )

    def legal(self, s: State, seat: int) -> list[Any]:
        if s.phase == OVER or seat != s.turn:
            return []
        if s.phase == CHOOSE:
            return [("choose", LETTERS[t]) for t in dict.fromkeys(s.hand)]
        # the same walk as placements(), inlined and flattened: this is the hot path of playouts
        out: list[Any] = [USE] if self.can_use_archaeologist(s, seat) else []
        t = s.current
        buckets = s.buckets
        fids = FID[t]
        can = s.supply[seat] > 0
        occ_cache: dict[tuple[int, int], int] = {}
        occupied_ports = self.occupied_ports
        append = out.append
        for rot in DROTS[t]:
            spots = tuple(zip(fids, MASKS[t][rot], strict=True))
            for sig in COMPAT[t][rot]:
                b = buckets.get(sig)
                if not b:
                    continue
                for cell in b:
                    x, y = cell
                    append((x, y, rot, None))
                    if can:
                        occ = occ_cache.get(cell)
                        if occ is None:
                            occ = occ_cache[cell] = occupied_ports(s, x, y)
                        for fid, m in spots:
                            if not m & occ:
                                append((x, y, rot, fid))
        return out

    def canonical(self, s: State, code: Any) -> Any:
        """A symmetric tile turned to a rotation that looks like another is listed once, under the
        first such rotation: read the same move that way (the meeple on the matching feature)."""
        if not (isinstance(code, tuple) and len(code) == 4 and s.phase == PLACE and s.current >= 0):
            return code
        x, y, rot, fid = code
        if not isinstance(rot, int) or isinstance(rot, bool) or not 0 <= rot <= 3:
            return code
        t = s.current
        same, features = SAME_AS[t][rot]
        if same == rot:
            return code
        f = FINDEX[t].get(fid) if isinstance(fid, str) else None
        if fid is not None and f is None:
            return (x, y, same, fid)  # check() names the unknown feature
        return (x, y, same, None if f is None else FID[t][features[f]])

    def check(self, s: State, seat: int, code: Any) -> None:
        if not isinstance(code, tuple) or not code:
            raise BadAction("bad_action", "not a Carcassonne action")
        if s.phase == OVER:
            raise IllegalAction("game_over", "the match is over")
        if seat != s.turn:
            raise IllegalAction("not_your_turn", "it is not your turn", seat=s.turn)
        if code == USE:
            if s.phase != PLACE:
                raise IllegalAction("must_choose", "first choose which tile to play")
            a = s.arch
            if a is None or a[0] != seat:
                raise IllegalAction("no_archaeologist", "you have no archaeologist on the Medina Azahara ruins")
            if a[3] >= s.turn_no:
                raise IllegalAction("archaeologist_not_ready", "the archaeologist can dig from your next turn on")
            if s.arch_used == s.turn_no:
                raise IllegalAction("archaeologist_used", "the archaeologist already dug this turn")
            if not s.pile:
                raise IllegalAction("pile_empty", "there are no tiles left to draw")
            return
        if len(code) == 2 and code[0] == "choose":
            if s.phase != CHOOSE:
                raise IllegalAction("nothing_to_choose", "there is no choice of tiles now")
            t = INDEX.get(code[1]) if isinstance(code[1], str) else None
            if t is None or t not in s.hand:
                raise IllegalAction("not_in_hand", f"{code[1]!r} is not one of your tiles", tile=code[1])
            return
        if len(code) != 4:
            raise BadAction("bad_action", "not a Carcassonne action")
        x, y, rot, fid = code
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in (x, y, rot)) or not 0 <= rot <= 3:
            raise BadAction("bad_action", "x, y must be integers and rot 0-3")
        if s.phase != PLACE:
            raise IllegalAction("must_choose", "first choose which tile to play")
        t = s.current
        sig = s.fsig.get((x, y))
        if sig is None:
            if (x, y) in s.pos:
                raise IllegalAction("cell_taken", f"there is already a tile at ({x}, {y})", x=x, y=y)
            raise IllegalAction("not_adjacent", f"({x}, {y}) touches no tile", x=x, y=y)
        if not FITS[t][rot][sig]:
            raise IllegalAction(
                "edges_mismatch", f"tile {LETTERS[t]} with rotation {rot} does not match its neighbours at ({x}, {y})",
                tile=LETTERS[t], x=x, y=y, rot=rot,
            )
        if fid is None:
            return
        f = FINDEX[t].get(fid) if isinstance(fid, str) else None
        if f is None:
            raise IllegalAction("no_such_feature", f"tile {LETTERS[t]} has no feature {fid!r}", tile=LETTERS[t], feature=fid)
        if s.supply[seat] <= 0:
            raise IllegalAction("no_meeples", "you have no meeples left")
        if MASKS[t][rot][f] & self.occupied_ports(s, x, y):
            raise IllegalAction(
                "feature_occupied", f"that {KIND_NAMES[FKIND[t][f]]} already holds a meeple", feature=fid,
                kind=KIND_NAMES[FKIND[t][f]],
            )

    # -- applying ------------------------------------------------------------------------------

    def step(self, s: State, seat: int, code: Any) -> Outcome:
        events: list[Event] = []
        if code == USE:
            return self._use_archaeologist(s, seat, events)
        if code[0] == "choose":
            return self._choose(s, seat, INDEX[code[1]], events)
        x, y, rot, fid = code
        t = s.current
        i = self._put(s, t, x, y, rot)
        events.append(Event("placed", seat, {"tile": LETTERS[t], "x": x, "y": y, "rot": rot, "meeple": fid}))
        if fid is not None:
            f = FINDEX[t][fid]
            self._add_meeple(s, i, f, seat)
            if FKIND[t][f] == RUINS:
                s.arch = [seat, 0, i, s.turn_no]
        if t == MEDINA:
            events.append(Event("medina_placed", seat, {"x": x, "y": y, "archaeologist": fid is not None}))
        s.last = {"seat": seat, "tile": LETTERS[t], "x": x, "y": y, "rot": rot, "meeple": fid}
        # finished roads and cities
        base = s.base[i]
        seen = []
        for f in CITY_ROAD[t]:
            r = s.find(base + f)
            if s.open[r] == 0 and r not in seen:
                seen.append(r)
                self._score_feature(s, r, True, events)
        # finished monasteries (this tile's or its neighbours')
        pos = s.pos
        for dx, dy in ((0, 0), *NEIGHBOURS8):
            j = pos.get((x + dx, y + dy))
            if j is not None and s.mon.get(j) == 9:
                node = s.base[j] + HAS_MONASTERY[s.tt[j]]
                if s.mee[node]:
                    self._score_monastery(s, j, node, events)
        s.current = -1
        s.turn_no += 1
        self._start_turn(s, (seat + 1) % s.n, events)
        return Outcome(events, any(e.kind in _DRAW_EVENTS for e in events))

    def _use_archaeologist(self, s: State, seat: int, events: list[Event]) -> Outcome:
        a = s.arch
        a[1] += 1
        s.arch_used = s.turn_no
        events.append(Event("archaeologist_used", seat, {"uses": a[1], "left": ARCHAEOLOGIST_USES - a[1]}))
        t = self._draw(s, seat, events, extra=True)
        if a[1] >= ARCHAEOLOGIST_USES:
            i = a[2]
            s.arch = None
            f = HAS_RUINS[MEDINA]
            s.mee[s.base[i] + f] = None
            self._return_meeple(s, i, f, seat, events)
        if t >= 0:
            s.hand = [s.current, t]
            s.phase = CHOOSE
        return Outcome(events, True)

    def _choose(self, s: State, seat: int, t: int, events: list[Event]) -> Outcome:
        hand = list(s.hand)
        hand.remove(t)
        other = hand[0]
        at = s.rng.randrange(len(s.pile) + 1)
        s.pile.insert(at, other)
        s.current = t
        s.hand = []
        s.phase = PLACE
        events.append(Event("chose", seat, {"tile": LETTERS[t], "returned": LETTERS[other]}))
        return Outcome(events, False)

    def _draw(self, s: State, seat: int, events: list[Event], extra: bool = False) -> int:
        """Draw until a tile fits; -1 when the pile runs out. The Medina is kept aside."""
        pile = s.pile
        while pile:
            t = pile.pop()
            if t == MEDINA:
                s.med_holder = seat
                events.append(Event("medina_drawn", seat, {"tile": "medina"}))
                continue
            if self.fits_anywhere(s, t):
                events.append(Event("drawn", seat, {"tile": LETTERS[t], "extra": extra}))
                return t
            s.set_aside.append(t)
            events.append(Event("tile_set_aside", seat, {"tile": LETTERS[t]}))
        return -1

    def _start_turn(self, s: State, seat: int, events: list[Event]) -> None:
        s.turn = seat
        s.phase = PLACE
        # a Medina drawn on an earlier turn must be placed now
        if s.med_holder == seat and self._medina_now(s, seat, events):
            return
        t = self._draw(s, seat, events)
        if t >= 0:
            s.current = t
            return
        # the pile is empty: a Medina just drawn is played at once, one held by another player
        # gets its holder one last turn, otherwise the game is over
        if s.med_holder == seat and self._medina_now(s, seat, events):
            return
        if s.med_holder >= 0:
            self._start_turn(s, s.med_holder, events)
            return
        self._end_game(s, events)

    def _medina_now(self, s: State, seat: int, events: list[Event]) -> bool:
        """The holder must place the Medina now; False if it fits nowhere (then it is set aside)."""
        s.med_holder = -1
        if self.fits_anywhere(s, MEDINA):
            s.current = MEDINA
            events.append(Event("medina_to_place", seat, {}))
            return True
        s.set_aside.append(MEDINA)
        events.append(Event("tile_set_aside", seat, {"tile": "medina"}))
        return False

    # -- scoring -------------------------------------------------------------------------------

    @staticmethod
    def _majority(meeples: list[tuple[int, int, int]], n: int) -> list[int]:
        count = [0] * n
        for m in meeples:
            count[m[2]] += 1
        top = max(count)
        return [p for p in range(n) if count[p] == top] if top else []

    def feature_points(self, s: State, r: int, complete: bool) -> int:
        k = s.kind[r]
        tiles = len(s.tiles[r])
        if k == ROAD:
            return tiles
        if complete and not (s.rules < 3 and tiles == 2):
            return 2 * (tiles + s.pen[r])
        return tiles + s.pen[r]

    def _award(self, s: State, seats: list[int], points: int, k: int) -> None:
        for p in seats:
            s.scores[p] += points
            s.by_kind[p][k] += points

    def _score_feature(self, s: State, r: int, complete: bool, events: list[Event]) -> None:
        meeples = s.mee[r]
        if not meeples:
            return
        winners = self._majority(meeples, s.n)
        points = self.feature_points(s, r, complete)
        k = s.kind[r]
        self._award(s, winners, points, k)
        events.append(Event("scored", None, {
            "feature": KIND_NAMES[k], "seats": winners, "points": points, "tiles": len(s.tiles[r]),
            "pennants": s.pen[r], "complete": complete,
        }))
        if complete:
            s.mee[r] = None
            for i, f, seat in sorted(meeples):
                self._return_meeple(s, i, f, seat, events)

    def _score_monastery(self, s: State, i: int, node: int, events: list[Event]) -> None:
        meeples = s.mee[node]
        points = s.mon[i]
        seat = meeples[0][2]
        self._award(s, [seat], points, MONASTERY)
        complete = points == 9
        events.append(Event("scored", None, {
            "feature": "monastery", "seats": [seat], "points": points, "x": s.tx[i], "y": s.ty[i], "complete": complete,
        }))
        if complete:
            s.mee[node] = None
            self._return_meeple(s, i, meeples[0][1], seat, events)

    def _end_game(self, s: State, events: list[Event]) -> None:
        s.phase = OVER
        s.current = -1
        before = list(s.scores)
        roots: dict[int, None] = {}
        farms: dict[int, None] = {}
        mons = []
        for i in sorted(s.tmee):
            for f, _seat in s.tmee[i]:
                k = FKIND[s.tt[i]][f]
                node = s.base[i] + f
                if k in (CITY, ROAD):
                    roots[s.find(node)] = None
                elif k == FARM:
                    farms[s.find(node)] = None
                elif k == MONASTERY:
                    mons.append((i, node))
        for r in sorted(roots):
            self._score_feature(s, r, False, events)
        for i, node in mons:
            self._score_monastery(s, i, node, events)
        farm_events = self._score_farms(s, sorted(farms))
        events.extend(farm_events)
        s.final = {"end_points": [s.scores[p] - before[p] for p in range(s.n)]}
        res = self.result(s)
        events.append(Event("game_over", None, res.to_json()))

    def _score_farms(self, s: State, farms: list[int]) -> list[Event]:
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
                self._award(s, winners, 4, FARM)
                events.append(Event("scored", None, {"feature": "farm", "seats": winners, "points": 4, "cities": 1, "rules": 1}))
            return events
        credited: list[set[int]] = [set() for _ in range(n)]
        for r in farms:
            winners = self._majority(s.mee[r], n)
            cities = done_cities(r)
            if s.rules == 3:
                points = 3 * len(cities)
                self._award(s, winners, points, FARM)
                events.append(Event("scored", None, {
                    "feature": "farm", "seats": winners, "points": points, "cities": len(cities), "rules": 3,
                }))
            else:
                for p in winners:
                    new = [c for c in cities if c not in credited[p]]
                    credited[p].update(new)
                    self._award(s, [p], 3 * len(new), FARM)
                    events.append(Event("scored", None, {
                        "feature": "farm", "seats": [p], "points": 3 * len(new), "cities": len(new), "rules": 2,
                    }))
        return events

    # -- views and results ---------------------------------------------------------------------

    def view(self, s: State, seat: int | None) -> dict[str, Any]:
        board = []
        for i in range(len(s.tt)):
            t = s.tt[i]
            ms = s.tmee.get(i)
            board.append({
                "x": s.tx[i], "y": s.ty[i], "tile": LETTERS[t], "rot": s.tr[i],
                "meeples": [
                    {"seat": p, "feature": FID[t][f], "farmer": FKIND[t][f] == FARM} for f, p in ms
                ] if ms else [],
            })
        legal = None
        mine = seat is not None and seat == s.turn and s.phase != OVER
        if mine and s.phase == PLACE:
            legal = [{"x": x, "y": y, "rot": r, "meeples": spots} for x, y, r, spots in self.placements(s, seat)]
        a = s.arch
        res = self.result(s)
        return {
            "game": self.key,
            "rules": s.rules,
            "sets": s.sets,
            "phase": PHASES[s.phase],
            "to_move": list(self.to_move(s)),
            "viewer": seat,
            "board": board,
            "tile": LETTERS[s.current] if s.current >= 0 and s.phase == PLACE else None,
            "hand": [LETTERS[t] for t in s.hand],
            "legal": legal,
            "can_use_archaeologist": mine and self.can_use_archaeologist(s, seat),
            "scores": list(s.scores),
            "points_by_kind": [dict(zip(KIND_KEYS, row, strict=True)) for row in s.by_kind],
            "meeples": list(s.supply),
            "tiles_left": len(s.pile),
            "set_aside": [LETTERS[t] for t in s.set_aside],
            "last": dict(s.last) if s.last else None,
            "medina": {
                "enabled": s.medina,
                "holder": s.med_holder if s.med_holder >= 0 else None,
                "archaeologist": {"seat": a[0], "uses": a[1], "left": ARCHAEOLOGIST_USES - a[1],
                                  "x": s.tx[a[2]], "y": s.ty[a[2]]} if a else None,
            },
            "geometry": GEOMETRY,
            "winner": list(res.ranking[0]) if res else None,
        }

    def scores(self, s: State) -> list[int]:
        return list(s.scores)

    def result(self, s: State) -> Result | None:
        if s.phase != OVER:
            return None
        ranking = rank_by(s.scores)
        tie = any(len(place) > 1 for place in ranking)
        return Result(
            scores=tuple(s.scores),
            ranking=ranking,
            tiebreak="equal scores share the place" if tie else "none needed",
            details={
                "points_by_kind": [dict(zip(KIND_KEYS, row, strict=True)) for row in s.by_kind],
                "end_points": list((s.final or {}).get("end_points", [])),
                "tiles_placed": len(s.tt),
                "set_aside": len(s.set_aside),
            },
        )

    # -- JSON ----------------------------------------------------------------------------------

    def encode(self, code: Any) -> dict[str, Any]:
        if code == USE:
            return {"type": "medina_use"}
        if code[0] == "choose":
            return {"type": "choose", "tile": code[1]}
        x, y, rot, fid = code
        return {"type": "place", "x": x, "y": y, "rot": rot, "meeple": fid}

    def decode(self, action: dict[str, Any]) -> Any:
        kind = action.get("type")
        if kind == "place":
            fid = action.get("meeple")
            try:
                code = (int(action["x"]), int(action["y"]), int(action["rot"]), fid)
            except (KeyError, TypeError, ValueError):
                raise BadAction("bad_action", "a placement needs integer x, y and rot") from None
            if fid is not None and not isinstance(fid, str):
                raise BadAction("bad_action", "meeple must be a feature id or null")
            return code
        if kind == "medina_use":
            return USE
        if kind == "choose":
            tile = action.get("tile")
            if tile not in INDEX:
                raise BadAction("unknown_tile", f"there is no tile {tile!r}", tile=tile)
            return ("choose", tile)
        raise BadAction("bad_action", f"unknown action type {kind!r}")

    def describe(self, code: Any) -> str:
        if code == USE:
            return "use the archaeologist"
        if code[0] == "choose":
            return f"choose tile {code[1]}"
        x, y, rot, fid = code
        return f"place at ({x}, {y}) rot {rot}" + (f" meeple on {fid}" if fid else "")

    def redeal(self, s: State, seat: int | None, rng: Any) -> State:
        """Deal anew what nobody sees: the order of the pile and the randomness state."""
        new = self.clone(s)
        rng.shuffle(new.pile)
        new.rng = Rng(rng.randrange(2**32), rng.randrange(100))
        return new

    def dump(self, s: State) -> dict[str, Any]:
        return {
            "v": 1,
            "seats": s.n,
            "rules": s.rules,
            "sets": s.sets,
            "medina": s.medina,
            "rng": s.rng.to_json(),
            "pile": [LETTERS[t] for t in s.pile],
            "tiles": [[LETTERS[s.tt[i]], s.tx[i], s.ty[i], s.tr[i]] for i in range(len(s.tt))],
            "meeples": [[i, FID[s.tt[i]][f], p] for i in s.tmee for f, p in s.tmee[i]],
            "supply": list(s.supply),
            "scores": list(s.scores),
            "by_kind": [list(r) for r in s.by_kind],
            "turn": s.turn,
            "turn_no": s.turn_no,
            "phase": s.phase,
            "current": LETTERS[s.current] if s.current >= 0 else None,
            "hand": [LETTERS[t] for t in s.hand],
            "set_aside": [LETTERS[t] for t in s.set_aside],
            "med_holder": s.med_holder,
            "arch": list(s.arch) if s.arch else None,
            "arch_used": s.arch_used,
            "last": dict(s.last) if s.last else None,
            "final": s.final,
        }

    def load(self, data: dict[str, Any]) -> State:
        s = State(data["seats"], data["rules"], data["sets"], data["medina"])
        s.rng = Rng.from_json(data["rng"])
        s.pile = [INDEX[t] for t in data["pile"]]
        for letter, x, y, rot in data["tiles"]:
            self._put(s, INDEX[letter], x, y, rot)
        for i, fid, p in data["meeples"]:
            self._add_meeple(s, i, FINDEX[s.tt[i]][fid], p)
        s.supply = list(data["supply"])
        s.scores = list(data["scores"])
        s.by_kind = [list(r) for r in data["by_kind"]]
        s.turn = data["turn"]
        s.turn_no = data["turn_no"]
        s.phase = data["phase"]
        s.current = INDEX[data["current"]] if data["current"] is not None else -1
        s.hand = [INDEX[t] for t in data["hand"]]
        s.set_aside = [INDEX[t] for t in data["set_aside"]]
        s.med_holder = data["med_holder"]
        s.arch = list(data["arch"]) if data["arch"] else None
        s.arch_used = data["arch_used"]
        s.last = dict(data["last"]) if data["last"] else None
        s.final = data["final"]
        return s

    def clone(self, s: State) -> State:
        """An independent copy (much faster than load(dump(...)) on big tables)."""
        c = State.__new__(State)
        for name in State.__slots__:
            setattr(c, name, getattr(s, name))
        c.rng = Rng(s.rng.seed, s.rng.n)
        for name in ("pile", "tt", "tr", "tx", "ty", "base", "parent", "size", "kind", "open", "pen",
                     "supply", "scores", "hand", "set_aside"):
            setattr(c, name, list(getattr(s, name)))
        c.pos = dict(s.pos)
        c.tiles = [None if x is None else x.copy() for x in s.tiles]
        c.cities = [None if x is None else x.copy() for x in s.cities]
        c.mee = [None if x is None else list(x) for x in s.mee]
        c.mon = dict(s.mon)
        c.fsig = dict(s.fsig)
        c.buckets = {k: dict(v) for k, v in s.buckets.items()}
        c.tmee = {k: list(v) for k, v in s.tmee.items()}
        c.by_kind = [list(r) for r in s.by_kind]
        c.arch = list(s.arch) if s.arch else None
        c.last = dict(s.last) if s.last else None
        c.final = copy.deepcopy(s.final)
        return c


GAME = Carcassonne()
