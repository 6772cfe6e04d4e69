"""Carcassonne (Klaus-Jürgen Wrede) base game: the rules of a turn, setups, views and the JSON
boundary. The table lives in board.py, scoring in scoring.py, the tile data in tiles.py; the rules
summary is in engines/carcassonne/__init__.py and docs/carcassonne.md.

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
from .board import (
    CHOOSE,
    NEIGHBOURS8,
    OVER,
    PLACE,
    State,
    add_meeple,
    fits_anywhere,
    occupied_ports,
    put,
    return_meeple,
)
from .board import placements as _placements
from .scoring import score_farms, score_feature, score_monastery
from .tiles import (
    BASE_TYPES,
    CITY,
    CITY_ROAD,
    COUNTS,
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
    ROAD,
    RUINS,
    SAME_AS,
    START,
)

ARCHAEOLOGIST_USES = 4
PHASES = ("place", "choose", "over")
USE = ("medina_use",)
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
                put(s, START, 0, 0, 0)
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
            put(s, START, 0, 0, 0)
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
                if k and MASKS[t][rot][f] & occupied_ports(s, x, y):
                    raise BadSetup(
                        "bad_setup", f"board entry {k}: that {KIND_NAMES[FKIND[t][f]]} already holds a meeple"
                    )
            i = put(s, t, x, y, rot)
            if f is not None:
                add_meeple(s, i, f, seat)
        for i in s.tmee:
            for f, _seat in s.tmee[i]:
                r = s.find(s.base[i] + f)
                k = s.kind[r]
                if (k in (CITY, ROAD) and s.open[r] == 0) or (k == MONASTERY and s.mon[i] == 9):
                    raise BadSetup("bad_setup", "the setup board has a meeple on a finished feature")







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
        codes = _placements(s, s.current, s.supply[seat] > 0, flat=True)
        return [USE, *codes] if self.can_use_archaeologist(s, seat) else codes

    def placements(self, s: State, seat: int, t: int | None = None) -> list[tuple[int, int, int, list[str]]]:
        """Distinct legal placements of tile ``t`` (default: the current tile) with the meeple
        spots each allows the seat: [(x, y, rot, [feature ids])]."""
        return _placements(s, s.current if t is None else t, s.supply[seat] > 0)

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
        if MASKS[t][rot][f] & occupied_ports(s, x, y):
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
        self.lay(s, seat, code, events)
        s.turn_no += 1
        self._start_turn(s, (seat + 1) % s.n, events)
        return Outcome(events, any(e.kind in _DRAW_EVENTS for e in events))

    def lay(self, s: State, seat: int, code: Any, events: list[Event]) -> None:
        """The placement half of a turn: lay the current tile (and the meeple), score what it
        finishes; no draw, the turn does not pass (the AI looks ahead with this)."""
        x, y, rot, fid = code
        t = s.current
        i = put(s, t, x, y, rot)
        events.append(Event("placed", seat, {"tile": LETTERS[t], "x": x, "y": y, "rot": rot, "meeple": fid}))
        if fid is not None:
            f = FINDEX[t][fid]
            add_meeple(s, i, f, seat)
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
                score_feature(s, r, True, events)
        # finished monasteries (this tile's or its neighbours')
        pos = s.pos
        for dx, dy in ((0, 0), *NEIGHBOURS8):
            j = pos.get((x + dx, y + dy))
            if j is not None and s.mon.get(j) == 9:
                node = s.base[j] + HAS_MONASTERY[s.tt[j]]
                if s.mee[node]:
                    score_monastery(s, j, node, events)
        s.current = -1

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
            return_meeple(s, i, f, seat, events)
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
            if fits_anywhere(s, t):
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
        if fits_anywhere(s, MEDINA):
            s.current = MEDINA
            events.append(Event("medina_to_place", seat, {}))
            return True
        s.set_aside.append(MEDINA)
        events.append(Event("tile_set_aside", seat, {"tile": "medina"}))
        return False

    # -- the end -------------------------------------------------------------------------------






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
            score_feature(s, r, False, events)
        for i, node in mons:
            score_monastery(s, i, node, events)
        farm_events = score_farms(s, sorted(farms))
        events.extend(farm_events)
        s.final = {"end_points": [s.scores[p] - before[p] for p in range(s.n)]}
        res = self.result(s)
        events.append(Event("game_over", None, res.to_json()))


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
            put(s, INDEX[letter], x, y, rot)
        for i, fid, p in data["meeples"]:
            add_meeple(s, i, FINDEX[s.tt[i]][fid], p)
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

    def heavy(self, s: State) -> bool:
        """More tiles than one base game's 72 (marathon boards: a legal-move scan looks at every
        open edge)."""
        return len(s.pos) + len(s.pile) > 100

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
