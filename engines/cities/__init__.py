"""Cities (Phil Walker-Harding and Steve Finn, Devir 2024) for 2-4 players.

Rules summary (our words): each player grows a neighbourhood (barrio) of 2x2-space city tiles,
at most 3x3 tiles (3x5 in the long two-player variant). Each round the board shows four rows:
A scoring cards, B city tiles, C feature tiles in groups 2/1/1/1+1, D building pieces in groups
4/3/3 plus the star space (2 pieces drawn from the bag). From the star holder, clockwise, players
put one worker at a time on a row slot and take what lies there: at most one worker per row per
round with 3-4 players; with 2 players 8 workers each, exactly two per row. A card is kept; a
tile is placed at once, edge-adjacent, any rotation; each feature goes on a free space of its
background (water, park, or an empty city space for grey ones); each piece goes on a city space
of its colour or on a stack of its colour, at most 4 high; a wild feature makes its space any
colour, fixed by the first piece. What cannot or will not be placed is removed from the game.
At the end of a turn the player claims every achievement now met (ring on the highest vacant
value). After the last round: rings + cards (per occurrence) + each water and park area by its
different features (1/3/6/10) + 2 per monument; ties go to achievement points, then are shared.

A turn is several actions: ``take`` a row slot, then one ``tile`` / ``feature`` / ``build`` /
``decline`` action per item taken, so ``legal()`` lists concrete placements. See docs/cities.md.

Internal codes are tuples: ``("start", t)``, ``("take", row, slot)``, ``("tile", tx, ty, rot)``,
``("feature", f, x, y)``, ``("build", colour, x, y)``, ``("decline_tile", t)``,
``("decline_feature", f)``, ``("decline_piece", colour)``.
"""

from __future__ import annotations

import copy
import random
from typing import Annotated, Any, Literal

from pydantic import Field

from ..core import (
    BadAction,
    BadOptions,
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
from .components import (
    ACHIEVEMENTS,
    BOARD_IDS,
    BOARDS,
    CARD_IDS,
    CARD_INDEX,
    CARDS,
    CITY_IDS,
    COLOURS,
    DESIGN_BG,
    DESIGNS,
    FEATURE_DESIGN,
    FEATURE_IDS,
    FEATURE_INDEX,
    MAX_HEIGHT,
    MONUMENT,
    N_START,
    PIECES_PER_COLOUR,
    ROTATED,
    SPACE_TYPES,
    START_IDS,
    TILE_IDS,
    TILE_INDEX,
    WILD,
)
from .scoring import ACHIEVEMENT_COUNTERS, CARD_COUNTERS, Hood, end_points, fits

ROWS = "ABCD"
ROW_A, ROW_B, ROW_C, ROW_D = range(4)
STAR_SLOT = 3
STAR_DRAW = 2
START, TAKE, PLACE, OVER = range(4)
PHASES = ("start", "take", "place", "over")
COVERED = -2
# positions of face-down items: (row, slot) -> index in the slot's item list
HIDDEN = {(ROW_A, 3): 0, (ROW_B, 3): 0, (ROW_C, 3): 1}
ROUNDS = 8
ROUNDS_2P = 4
ROUNDS_LONG = 7


# -- options and actions --------------------------------------------------------------------------


class Options(StrictModel):
    long: bool = Field(False, description="Long 2-player variant: 7 rounds, neighbourhoods up to 3x5 tiles")
    board: Literal[BOARD_IDS] | None = Field(None, description="City achievement board (random when unset)")  # type: ignore[valid-type]


class StartPick(StrictModel):
    type: Literal["start"]
    tile: str


class Take(StrictModel):
    type: Literal["take"]
    row: Literal["A", "B", "C", "D"]
    slot: int = Field(ge=0, le=3)


class PlaceTile(StrictModel):
    type: Literal["tile"]
    x: int
    y: int
    rot: int = Field(ge=0, le=3)


class PlaceFeature(StrictModel):
    type: Literal["feature"]
    feature: str
    x: int
    y: int


class Build(StrictModel):
    type: Literal["build"]
    colour: Literal["red", "blue", "green", "yellow"]
    x: int
    y: int


class Decline(StrictModel):
    type: Literal["decline"]
    tile: str | None = None
    feature: str | None = None
    piece: Literal["red", "blue", "green", "yellow"] | None = None


Action = Annotated[StartPick | Take | PlaceTile | PlaceFeature | Build | Decline, Field(discriminator="type")]


# -- state ----------------------------------------------------------------------------------------


class State:
    __slots__ = (
        "n", "long", "rounds", "round", "phase", "turn", "star", "first", "board", "rings",
        "deck_cards", "deck_tiles", "deck_features", "bag", "rows", "workers", "used", "left",
        "p_tile", "p_feats", "p_pieces", "hoods", "cards", "start_left", "pick_order", "removed",
        "last", "rng", "turns", "dirty",
    )

    def __init__(self, n: int) -> None:
        self.n = n
        self.long = False
        self.rounds = ROUNDS
        self.round = 0
        self.phase = START
        self.turn = 0
        self.star = 0  # the start player of the round being played
        self.first = 0
        self.board = 0
        self.rings: list[list[int]] = []  # per achievement: seat per ring space, -1 vacant, -2 covered
        # decks: the top is the END of each list
        self.deck_cards: list[int] = []
        self.deck_tiles: list[int] = []
        self.deck_features: list[int] = []
        self.bag: list[int] = []
        self.rows: list[list[list[int]]] = [[[] for _ in range(4)] for _ in range(4)]
        self.workers: list[list[int]] = [[-1] * 4 for _ in range(4)]
        self.used: list[list[int]] = [[0] * 4 for _ in range(n)]
        self.left: list[int] = [0] * n
        self.p_tile = -1
        self.p_feats: list[int] = []
        self.p_pieces: list[int] = []
        self.hoods: list[Hood] = [Hood() for _ in range(n)]
        self.cards: list[list[int]] = [[] for _ in range(n)]
        self.start_left: list[int] = list(range(N_START))
        self.pick_order: list[int] = []
        # removed from the game (public): declined or unplaceable items, 3-player leftovers
        self.removed: dict[str, list[int]] = {k: [] for k in _REMOVED}
        self.last: dict[str, Any] | None = None
        self.rng: Rng | None = None
        self.turns = 0
        # per seat: has the neighbourhood changed since its last achievement check?
        self.dirty: list[bool] = [True] * n


_KEYS = ("cards", "tiles", "features", "pieces")
_REMOVED = (*_KEYS, "hidden_cards", "hidden_tiles", "hidden_features")


def _shuffled(r: random.Random, items: Any) -> list[int]:
    rnd = r.random
    return [x for _, x in sorted((rnd(), x) for x in items)]


def workers_per_seat(n: int) -> int:
    return 8 if n == 2 else 4


def per_row(n: int) -> int:
    return 2 if n == 2 else 1


# -- the game -------------------------------------------------------------------------------------


class Cities(Game[State]):
    key = "cities"
    name = "Cities"
    names = {"en": "Cities", "es": "Cities"}
    min_players = 2
    max_players = 4
    Options = Options
    Action = Action

    # -- setup ---------------------------------------------------------------------------------

    def new_state(self, n_seats: int, options: Options, seed: int | None, setup: Any) -> State:
        self.check_seats(n_seats)
        if options.long and n_seats != 2:
            raise BadOptions("long_needs_two", "the long variant is for 2 players only")
        s = State(n_seats)
        s.long = options.long
        s.rounds = ROUNDS_LONG if options.long else (ROUNDS_2P if n_seats == 2 else ROUNDS)
        if setup is not None:
            board, first, cards, tiles, features, bag = self._check_setup(setup, n_seats, options)
        else:
            rng = s.rng = Rng(seed if seed is not None else 0)
            board = BOARD_IDS.index(options.board) if options.board else rng.randrange(len(BOARDS))
            first = rng.randrange(n_seats)
            # one generator seeded from the stored Rng shuffles the four decks (sorting by random
            # keys: the same uniform shuffle as random.shuffle, five times faster)
            sub = random.Random(rng.randrange(2**62))
            cards, tiles, features, bag = (
                _shuffled(sub, items) for items in (
                    range(len(CARD_IDS)),
                    range(N_START, len(TILE_IDS)),
                    range(len(FEATURE_IDS)),
                    [c for c in range(4) for _ in range(PIECES_PER_COLOUR)],
                )
            )
        s.board = board
        s.first = s.star = s.turn = first
        s.deck_cards = cards[::-1]
        s.deck_tiles = tiles[::-1]
        s.deck_features = features[::-1]
        s.bag = bag[::-1]
        middle_covered = n_seats == 2
        s.rings = [[-1, COVERED if middle_covered else -1, -1] for _ in range(3)]
        # starting tiles: from the player to the right of the first player, counter-clockwise
        s.pick_order = [(first - 1 - k) % n_seats for k in range(n_seats)]
        s.phase = START
        self._deal(s)
        return s

    def _check_setup(self, setup: Any, n: int, options: Options) -> tuple:
        """{"board": id, "first": seat, "cards": [...], "tiles": [...], "features": [...],
        "bag": [colours]}: every key optional; each list is the top of its deck (first = drawn
        first), the rest follows in catalogue order (the bag: red, blue, green, yellow in turn)."""
        if not isinstance(setup, dict):
            raise BadSetup("bad_setup", 'the setup must be an object like {"board": "venice", "first": 0, "cards": [...], "tiles": [...], "features": [...], "bag": [...]}')
        unknown = set(setup) - {"board", "first", "cards", "tiles", "features", "bag"}
        if unknown:
            raise BadSetup("bad_setup", f"unknown setup keys: {', '.join(sorted(unknown))}")
        board_id = setup.get("board", options.board or BOARD_IDS[0])
        if board_id not in BOARD_IDS:
            raise BadSetup("bad_setup", f"unknown board {board_id!r}; boards: {', '.join(BOARD_IDS)}")
        if options.board and board_id != options.board:
            raise BadSetup("bad_setup", f"the setup board {board_id!r} differs from the board option {options.board!r}")
        first = setup.get("first", 0)
        if not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < n:
            raise BadSetup("bad_setup", f"setup 'first' must be a seat from 0 to {n - 1}")

        def order(key: str, index: dict[str, int], pool: list[int], what: str) -> list[int]:
            given = setup.get(key, [])
            if not isinstance(given, list) or not all(isinstance(x, str) for x in given):
                raise BadSetup("bad_setup", f"setup '{key}' must be a list of {what} ids")
            out = []
            for x in given:
                i = index.get(x)
                if i is None or i not in pool:
                    raise BadSetup("bad_setup", f"setup '{key}': {x!r} is not a {what}")
                out.append(i)
            if len(set(out)) != len(out):
                raise BadSetup("bad_setup", f"setup '{key}' lists a {what} twice")
            taken = set(out)
            return out + [i for i in pool if i not in taken]

        cards = order("cards", CARD_INDEX, list(range(len(CARD_IDS))), "scoring card")
        tiles = order("tiles", TILE_INDEX, list(range(N_START, len(TILE_IDS))), "city tile")
        features = order("features", FEATURE_INDEX, list(range(len(FEATURE_IDS))), "feature tile")
        given = setup.get("bag", [])
        if not isinstance(given, list) or any(c not in COLOURS for c in given):
            raise BadSetup("bad_setup", f"setup 'bag' must be a list of colours ({', '.join(COLOURS)})")
        bag = [COLOURS.index(c) for c in given]
        for c in range(4):
            if bag.count(c) > PIECES_PER_COLOUR:
                raise BadSetup("bad_setup", f"setup 'bag' holds more than {PIECES_PER_COLOUR} {COLOURS[c]} pieces")
        rest = [PIECES_PER_COLOUR - bag.count(c) for c in range(4)]
        while any(rest):
            for c in range(4):
                if rest[c]:
                    bag.append(c)
                    rest[c] -= 1
        return BOARD_IDS.index(board_id), first, cards, tiles, features, bag

    def _deal(self, s: State) -> None:
        """Lay out the four rows of a round and hand out the workers."""
        rows = s.rows

        def pop(deck: list[int], k: int) -> list[int]:
            out = deck[len(deck) - k:][::-1] if k <= len(deck) else deck[::-1]
            del deck[max(0, len(deck) - k):]
            return out

        rows[ROW_A] = [pop(s.deck_cards, 1) for _ in range(4)]
        rows[ROW_B] = [pop(s.deck_tiles, 1) for _ in range(4)]
        rows[ROW_C] = [pop(s.deck_features, 2), pop(s.deck_features, 1), pop(s.deck_features, 1), pop(s.deck_features, 2)]
        rows[ROW_D] = [pop(s.bag, 4), pop(s.bag, 3), pop(s.bag, 3), []]
        s.workers = [[-1] * 4 for _ in range(4)]
        s.used = [[0] * 4 for _ in range(s.n)]
        s.left = [workers_per_seat(s.n)] * s.n

    # -- queries -------------------------------------------------------------------------------

    def to_move(self, s: State) -> tuple[int, ...]:
        if s.phase == OVER:
            return ()
        if s.phase == START:
            return (s.pick_order[0],)
        return (s.turn,)

    def _tile_ok(self, s: State, seat: int, tx: int, ty: int) -> str | None:
        h = s.hoods[seat]
        if (tx, ty) in h.tcells:
            return "cell_taken"
        tc = h.tcells
        if not ((tx + 1, ty) in tc or (tx - 1, ty) in tc or (tx, ty + 1) in tc or (tx, ty - 1) in tc):
            return "not_adjacent"
        if not fits(h.spans_after(tx, ty), s.long):
            return "too_big"
        return None

    @staticmethod
    def _feature_ok(h: Hood, f: int, i: int | None) -> str | None:
        if i is None:
            return "no_space"
        if h.feat[i] >= 0:
            return "space_has_feature"
        bg = DESIGN_BG[FEATURE_DESIGN[f]]
        if bg < 0:
            if h.stype[i] >= 4:
                return "grey_on_city"
            if h.height[i]:
                return "space_built"
            return None
        if h.stype[i] != bg:
            return "wrong_background"
        return None

    @staticmethod
    def _piece_ok(h: Hood, c: int, i: int | None) -> str | None:
        if i is None:
            return "no_space"
        if h.stype[i] >= 4:
            return "not_city"
        feat = h.feat[i]
        if feat >= 0 and feat != WILD:
            return "space_has_feature"
        height = h.height[i]
        if height == 0:
            if h.stype[i] != c and feat != WILD:
                return "wrong_colour"
            return None
        if h.colour[i] != c:
            return "wrong_colour"
        if height >= MAX_HEIGHT:
            return "too_high"
        return None

    def legal(self, s: State, seat: int) -> list[Any]:
        if s.phase == OVER or seat not in self.to_move(s):
            return []
        if s.phase == START:
            return [("start", t) for t in s.start_left]
        if s.phase == TAKE:
            cap = per_row(s.n)
            used = s.used[seat]
            out = []
            for r in range(4):
                if used[r] < cap:
                    w = s.workers[r]
                    out += [t for t, k in zip(_TAKES[r], w, strict=True) if k < 0]
            return out
        h = s.hoods[seat]
        if s.p_tile >= 0:
            spots = h.tile_spots(s.long)
            if not spots:
                return [("decline_tile", s.p_tile)]
            return [("tile", tx, ty, rot) for tx, ty in spots for rot in range(4)]
        out = []
        feat, stype, height, xy = h.feat, h.stype, h.height, h.xy
        if s.p_feats:
            # one pass over the spaces; the spaces of each held feature in space order
            held = list(dict.fromkeys(s.p_feats))
            by_f: dict[int, list[Any]] = {f: [] for f in held}
            bgs = [(f, DESIGN_BG[FEATURE_DESIGN[f]]) for f in held]
            for i in range(len(stype)):
                if feat[i] >= 0:
                    continue
                st = stype[i]
                for f, bg in bgs:
                    if st == bg or (bg < 0 and st < 4 and not height[i]):
                        x, y = xy[i]
                        by_f[f].append(("feature", f, x, y))
            for f in held:
                out += by_f[f]
                out.append(("decline_feature", f))
            return out
        colour = h.colour
        held_c = list(dict.fromkeys(s.p_pieces))
        by_c: dict[int, list[Any]] = {c: [] for c in held_c}
        for i in h.city:
            ht = height[i]
            if ht == 0:
                fe = feat[i]
                if fe < 0:
                    lst = by_c.get(stype[i])
                    if lst is not None:
                        x, y = xy[i]
                        lst.append(("build", stype[i], x, y))
                elif fe == WILD:
                    x, y = xy[i]
                    for c in held_c:
                        by_c[c].append(("build", c, x, y))
            elif ht < MAX_HEIGHT:  # a stack: never on a monument, maybe on a wild space
                lst = by_c.get(colour[i])
                if lst is not None:
                    x, y = xy[i]
                    lst.append(("build", colour[i], x, y))
        for c in held_c:
            out += by_c[c]
            out.append(("decline_piece", c))
        return out

    def check(self, s: State, seat: int, code: Any) -> None:
        if not _well_formed(code):
            raise BadAction("bad_action", "not a Cities action")
        kind = code[0]
        if s.phase == OVER:
            raise IllegalAction("game_over", "the match is over")
        if seat not in self.to_move(s):
            raise IllegalAction("not_your_turn", "it is not your turn", seat=self.to_move(s)[0])
        if s.phase == START:
            if kind != "start":
                raise IllegalAction("must_pick_start", "first pick your starting tile")
            if code[1] not in s.start_left:
                raise IllegalAction("start_not_offered", f"{TILE_IDS[code[1]]} is not one of the starting tiles left",
                                    tile=TILE_IDS[code[1]])
            return
        if kind == "start":
            raise IllegalAction("start_done", "the starting tiles are already chosen")
        if s.phase == TAKE:
            if kind != "take":
                raise IllegalAction("must_take", "first put a worker on a row slot to take what lies there")
            _, r, k = code
            row = ROWS[r]
            if s.workers[r][k] >= 0:
                raise IllegalAction("slot_taken", f"row {row} slot {k + 1} is already taken", row=row, slot=k + 1)
            cap = per_row(s.n)
            if s.used[seat][r] >= cap:
                if cap == 1:
                    raise IllegalAction("row_used", f"you already have a worker in row {row} this round", row=row)
                raise IllegalAction("row_used_twice", f"you already have two workers in row {row} this round", row=row)
            return
        # PLACE
        if kind == "take":
            raise IllegalAction("must_place", "first place or decline what you took")
        h = s.hoods[seat]
        if kind in ("tile", "decline_tile"):
            if s.p_tile < 0:
                raise IllegalAction("no_tile", "you have no city tile to place")
            if kind == "decline_tile":
                if code[1] != s.p_tile:
                    raise IllegalAction("not_pending", f"you are not holding {TILE_IDS[code[1]]}", item=TILE_IDS[code[1]])
                if h.tile_spots(s.long):
                    raise IllegalAction("tile_fits", "the city tile fits in your neighbourhood: place it")
                return
            _, tx, ty, _rot = code
            why = self._tile_ok(s, seat, tx, ty)
            if why:
                raise IllegalAction(why, _TILE_REASONS[why].format(x=tx, y=ty, size="3x5" if s.long else "3x3"),
                                    x=tx, y=ty, size="3x5" if s.long else "3x3")
            return
        if kind in ("feature", "decline_feature"):
            f = code[1]
            if f not in s.p_feats:
                raise IllegalAction("not_pending", f"you are not holding {FEATURE_IDS[f]}", item=FEATURE_IDS[f])
            if kind == "decline_feature":
                return
            _, _, x, y = code
            why = self._feature_ok(h, f, h.cells.get((x, y)))
            if why:
                design = DESIGNS[FEATURE_DESIGN[f]]
                raise IllegalAction(why, _FEATURE_REASONS[why].format(x=x, y=y, design=design), x=x, y=y, design=design)
            return
        c = code[1]
        if c not in s.p_pieces:
            raise IllegalAction("not_pending", f"you are not holding a {COLOURS[c]} piece", item=COLOURS[c])
        if kind == "decline_piece":
            return
        _, _, x, y = code
        why = self._piece_ok(h, c, h.cells.get((x, y)))
        if why:
            raise IllegalAction(why, _PIECE_REASONS[why].format(x=x, y=y, colour=COLOURS[c], max=MAX_HEIGHT),
                                x=x, y=y, colour=COLOURS[c], max=MAX_HEIGHT)

    # -- applying ------------------------------------------------------------------------------

    def step(self, s: State, seat: int, code: Any) -> Outcome:
        kind = code[0]
        events: list[Event] = []
        revealed = False
        if kind == "start":
            t = code[1]
            s.start_left.remove(t)
            s.hoods[seat].add_tile(t, 0, 0, 0)
            s.pick_order.pop(0)
            events.append(Event("start_pick", seat, {"tile": TILE_IDS[t]}))
            s.last = {"seat": seat, "action": "start", "tile": TILE_IDS[t]}
            if not s.pick_order:
                s.removed["tiles"].extend(s.start_left)
                s.start_left = []
                s.phase = TAKE
                s.turn = s.star
            return Outcome(events, False, turn_ended=True)
        h = s.hoods[seat]
        if kind == "take":
            _, r, k = code
            items = s.rows[r][k]
            s.rows[r][k] = []
            s.workers[r][k] = seat
            s.used[seat][r] += 1
            s.left[seat] -= 1
            revealed = (r, k) in HIDDEN
            if r == ROW_A:
                s.cards[seat].extend(items)
                names = [CARD_IDS[i] for i in items]
            elif r == ROW_B:
                if items:
                    s.p_tile = items[0]
                names = [TILE_IDS[i] for i in items]
            elif r == ROW_C:
                s.p_feats = list(items)
                names = [FEATURE_IDS[i] for i in items]
            else:
                if k == STAR_SLOT:
                    items = s.bag[len(s.bag) - STAR_DRAW:][::-1]
                    del s.bag[max(0, len(s.bag) - STAR_DRAW):]
                    revealed = True
                s.p_pieces = list(items)
                names = [COLOURS[i] for i in items]
            events.append(Event("took", seat, {"row": ROWS[r], "slot": k, "items": names}))
            s.last = {"seat": seat, "action": "take", "row": ROWS[r], "slot": k, "items": names}
        elif kind == "tile":
            _, tx, ty, rot = code
            t = s.p_tile
            h.add_tile(t, tx, ty, rot)
            s.dirty[seat] = True
            s.p_tile = -1
            events.append(Event("placed_tile", seat, {"tile": TILE_IDS[t], "x": tx, "y": ty, "rot": rot}))
            s.last = {"seat": seat, "action": "tile", "tile": TILE_IDS[t], "x": tx, "y": ty, "rot": rot}
        elif kind == "feature":
            _, f, x, y = code
            i = h.cells[(x, y)]
            h.feat[i] = FEATURE_DESIGN[f]
            s.dirty[seat] = True
            h.fid[i] = f
            s.p_feats.remove(f)
            events.append(Event("placed_feature", seat, {"feature": FEATURE_IDS[f], "x": x, "y": y}))
            s.last = {"seat": seat, "action": "feature", "feature": FEATURE_IDS[f], "x": x, "y": y}
        elif kind == "build":
            _, c, x, y = code
            i = h.cells[(x, y)]
            h.height[i] += 1
            s.dirty[seat] = True
            h.colour[i] = c
            s.p_pieces.remove(c)
            events.append(Event("built", seat, {"colour": COLOURS[c], "x": x, "y": y, "height": h.height[i]}))
            s.last = {"seat": seat, "action": "build", "colour": COLOURS[c], "x": x, "y": y, "height": h.height[i]}
        else:
            item = code[1]
            if kind == "decline_tile":
                s.p_tile = -1
                s.removed["tiles"].append(item)
                label = TILE_IDS[item]
            elif kind == "decline_feature":
                s.p_feats.remove(item)
                s.removed["features"].append(item)
                label = FEATURE_IDS[item]
            else:
                s.p_pieces.remove(item)
                s.removed["pieces"].append(item)
                label = COLOURS[item]
            events.append(Event("declined", seat, {"item": label}))
            s.last = {"seat": seat, "action": "decline", "item": label}
        if s.p_tile >= 0 or s.p_feats or s.p_pieces:
            s.phase = PLACE
            return Outcome(events, revealed, turn_ended=False)
        revealed |= self._end_turn(s, seat, events)
        return Outcome(events, revealed, turn_ended=True)

    def _end_turn(self, s: State, seat: int, events: list[Event]) -> bool:
        """Claim achievements, pass the turn; end the round (and the game) when no worker is left.
        Returns True when new items were revealed (a new round dealt)."""
        s.phase = TAKE
        s.turns += 1
        self._claim(s, seat, events)
        n = s.n
        for k in range(1, n + 1):
            nxt = (seat + k) % n
            if s.left[nxt]:
                s.turn = nxt
                return False
        # end of the round: the worker nearest the star space takes the star
        star = next(w for w in reversed(s.workers[ROW_D]) if w >= 0)
        leftovers: dict[str, list[int]] = {"cards": [], "tiles": [], "features": [], "pieces": []}
        hidden = 0
        for r, key in enumerate(_KEYS):
            for k in range(4):
                hid = HIDDEN.get((r, k))
                for j, x in enumerate(s.rows[r][k]):
                    if j == hid:  # never turned up: it leaves the game face down
                        s.removed["hidden_" + key].append(x)
                        hidden += 1
                    else:
                        leftovers[key].append(x)
                        s.removed[key].append(x)
                s.rows[r][k] = []
        left_ids = {key: [_item_id(r, x) for x in leftovers[key]] for r, key in enumerate(_KEYS)}
        left_ids["hidden"] = hidden
        events.append(Event("round_end", None, {"round": s.round + 1, "star": star, "removed": left_ids}))
        s.round += 1
        s.star = star
        s.turn = star
        if s.round >= s.rounds:
            s.phase = OVER
            events.append(Event("game_over", None, self.result(s).to_json()))
            return True  # the leftovers' hidden faces are shown
        self._deal(s)
        events.append(Event("round_start", None, {"round": s.round + 1, "star": star}))
        return True

    def _claim(self, s: State, seat: int, events: list[Event]) -> None:
        if not s.dirty[seat]:
            return  # nothing new to meet: the last check saw this very neighbourhood
        s.dirty[seat] = False
        board = BOARDS[s.board]["achievements"]
        h = s.hoods[seat]
        for a, ach in enumerate(board):
            rings = s.rings[a]
            if seat in rings or -1 not in rings:
                continue
            if ACHIEVEMENT_COUNTERS[ach["id"]](h) >= ach.get("need", 1):
                pos = rings.index(-1)
                rings[pos] = seat
                events.append(Event("claimed", seat, {"achievement": ach["id"], "points": ach["values"][pos]}))

    # -- scores --------------------------------------------------------------------------------

    def achievement_points(self, s: State) -> list[int]:
        pts = [0] * s.n
        for a, ach in enumerate(BOARDS[s.board]["achievements"]):
            for pos, seat in enumerate(s.rings[a]):
                if seat >= 0:
                    pts[seat] += ach["values"][pos]
        return pts

    def breakdown(self, s: State) -> list[dict[str, Any]]:
        """Per seat: points from achievements, cards (and each card), water, park, monuments, total."""
        ach = self.achievement_points(s)
        out = []
        for seat in range(s.n):
            h = s.hoods[seat]
            per_card = {CARD_IDS[c]: CARD_COUNTERS[c](h) * CARDS_VP[c] for c in s.cards[seat]}
            rest = end_points(h)
            cards = sum(per_card.values())
            total = ach[seat] + cards + rest["water"] + rest["park"] + rest["monuments"]
            out.append({"achievements": ach[seat], "cards": cards, **rest, "total": total, "per_card": per_card})
        return out

    def scores(self, s: State) -> list[int]:
        return [b["total"] for b in self.breakdown(s)]

    def result(self, s: State) -> Result | None:
        if s.phase != OVER:
            return None
        b = self.breakdown(s)
        totals = [x["total"] for x in b]
        ach = [x["achievements"] for x in b]
        ranking = rank_by(totals, ach)
        top = [p for p in range(s.n) if totals[p] == max(totals)]
        if len(top) == 1:
            tiebreak = "none needed"
        elif len(ranking[0]) == 1:
            tiebreak = "equal points: most achievement points wins"
        else:
            tiebreak = "equal points and achievement points: the win is shared"
        return Result(scores=tuple(totals), ranking=ranking, tiebreak=tiebreak, details={"breakdown": b})

    # -- views ---------------------------------------------------------------------------------

    def view(self, s: State, seat: int | None) -> dict[str, Any]:
        rows = []
        for r in range(4):
            slots = []
            for k in range(4):
                items = s.rows[r][k]
                hidden_pos = HIDDEN.get((r, k))
                shown = [x for j, x in enumerate(items) if j != hidden_pos]
                slot = {
                    "slot": k,
                    "items": [_item_id(r, x) for x in shown],
                    "hidden": len(items) - len(shown),
                    "worker": s.workers[r][k] if s.workers[r][k] >= 0 else None,
                }
                if r == ROW_D and k == STAR_SLOT:
                    slot["star"] = True
                    slot["draws"] = STAR_DRAW
                slots.append(slot)
            rows.append({"row": ROWS[r], "slots": slots})
        board = BOARDS[s.board]
        b = self.breakdown(s)
        players = []
        for p in range(s.n):
            h = s.hoods[p]
            players.append({
                "seat": p,
                "tiles": [{"tile": TILE_IDS[t], "x": tx, "y": ty, "rot": rot} for t, tx, ty, rot in h.tiles],
                "spaces": [
                    {
                        "x": x, "y": y, "type": SPACE_TYPES[h.stype[i]],
                        "feature": FEATURE_IDS[h.fid[i]] if h.fid[i] >= 0 else None,
                        "design": DESIGNS[h.feat[i]] if h.feat[i] >= 0 else None,
                        "colour": COLOURS[h.colour[i]] if h.height[i] else None,
                        "height": h.height[i],
                    }
                    for i, (x, y) in enumerate(h.xy)
                ],
                "cards": [CARD_IDS[c] for c in s.cards[p]],
                "achievements": [a["id"] for k, a in enumerate(board["achievements"]) if p in s.rings[k]],
                "workers_left": s.left[p],
                "workers_by_row": dict(zip(ROWS, s.used[p], strict=True)),
                "score": b[p],
            })
        pending = None
        if s.phase == PLACE:
            pending = {
                "seat": s.turn,
                "tile": TILE_IDS[s.p_tile] if s.p_tile >= 0 else None,
                "features": [FEATURE_IDS[f] for f in s.p_feats],
                "pieces": [COLOURS[c] for c in s.p_pieces],
            }
        res = self.result(s)
        return {
            "game": self.key,
            "viewer": seat,
            "seats": s.n,
            "long": s.long,
            "max_size": [5, 3] if s.long else [3, 3],
            "round": min(s.round + 1, s.rounds),
            "rounds": s.rounds,
            "phase": PHASES[s.phase],
            "to_move": list(self.to_move(s)),
            "star": s.star,
            "first": s.first,
            "start_tiles": [TILE_IDS[t] for t in s.start_left] if s.phase == START else [],
            "board": {
                "id": board["id"],
                "achievements": [
                    {
                        "id": a["id"],
                        "need": a.get("need", 1),
                        "rings": [
                            {"value": a["values"][pos], "seat": w if w >= 0 else None, "covered": w == COVERED}
                            for pos, w in enumerate(s.rings[k])
                        ],
                    }
                    for k, a in enumerate(board["achievements"])
                ],
            },
            "rows": rows,
            "players": players,
            "pending": pending,
            "bag": len(s.bag),
            "decks": {"cards": len(s.deck_cards), "tiles": len(s.deck_tiles), "features": len(s.deck_features)},
            "removed": {
                **{key: [_item_id(r, x) for x in s.removed[key]] for r, key in enumerate(_KEYS)},
                "hidden": sum(len(s.removed["hidden_" + key]) for key in _KEYS[:3]),
            },
            "last": dict(s.last) if s.last else None,
            "winner": list(res.ranking[0]) if res else None,
        }

    # -- JSON ----------------------------------------------------------------------------------

    def encode(self, code: Any) -> dict[str, Any]:
        kind = code[0]
        if kind == "start":
            return {"type": "start", "tile": TILE_IDS[code[1]]}
        if kind == "take":
            return {"type": "take", "row": ROWS[code[1]], "slot": code[2]}
        if kind == "tile":
            return {"type": "tile", "x": code[1], "y": code[2], "rot": code[3]}
        if kind == "feature":
            return {"type": "feature", "feature": FEATURE_IDS[code[1]], "x": code[2], "y": code[3]}
        if kind == "build":
            return {"type": "build", "colour": COLOURS[code[1]], "x": code[2], "y": code[3]}
        if kind == "decline_tile":
            return {"type": "decline", "tile": TILE_IDS[code[1]]}
        if kind == "decline_feature":
            return {"type": "decline", "feature": FEATURE_IDS[code[1]]}
        return {"type": "decline", "piece": COLOURS[code[1]]}

    def decode(self, a: dict[str, Any]) -> Any:
        kind = a.get("type")
        if kind == "start":
            t = TILE_INDEX.get(a.get("tile"))
            if t is None or t >= N_START:
                raise BadAction("unknown_tile", f"there is no starting tile {a.get('tile')!r}", tile=a.get("tile"))
            return ("start", t)
        if kind == "take":
            return ("take", ROWS.index(a["row"]), int(a["slot"]))
        if kind == "tile":
            return ("tile", int(a["x"]), int(a["y"]), int(a["rot"]))
        if kind == "feature":
            f = FEATURE_INDEX.get(a.get("feature"))
            if f is None:
                raise BadAction("unknown_feature", f"there is no feature tile {a.get('feature')!r}", feature=a.get("feature"))
            return ("feature", f, int(a["x"]), int(a["y"]))
        if kind == "build":
            return ("build", COLOURS.index(a["colour"]), int(a["x"]), int(a["y"]))
        if kind == "decline":
            given = [k for k in ("tile", "feature", "piece") if a.get(k) is not None]
            if len(given) != 1:
                raise BadAction("bad_decline", "decline exactly one item: a tile, a feature or a piece")
            if given[0] == "tile":
                t = TILE_INDEX.get(a["tile"])
                if t is None or t < N_START:
                    raise BadAction("unknown_tile", f"there is no city tile {a['tile']!r}", tile=a["tile"])
                return ("decline_tile", t)
            if given[0] == "feature":
                f = FEATURE_INDEX.get(a["feature"])
                if f is None:
                    raise BadAction("unknown_feature", f"there is no feature tile {a['feature']!r}", feature=a["feature"])
                return ("decline_feature", f)
            return ("decline_piece", COLOURS.index(a["piece"]))
        raise BadAction("bad_action", f"unknown action type {kind!r}")

    def describe(self, code: Any) -> str:
        a = self.encode(code)
        return " ".join(f"{v}" if k == "type" else f"{k}={v}" for k, v in a.items())

    def dump(self, s: State) -> dict[str, Any]:
        return {
            "v": 1,
            "seats": s.n,
            "long": s.long,
            "rounds": s.rounds,
            "round": s.round,
            "phase": PHASES[s.phase],
            "turn": s.turn,
            "star": s.star,
            "first": s.first,
            "board": BOARD_IDS[s.board],
            "rings": [list(r) for r in s.rings],
            "deck_cards": [CARD_IDS[i] for i in s.deck_cards],
            "deck_tiles": [TILE_IDS[i] for i in s.deck_tiles],
            "deck_features": [FEATURE_IDS[i] for i in s.deck_features],
            "bag": [COLOURS[i] for i in s.bag],
            "rows": [[[_item_id(r, x) for x in slot] for slot in s.rows[r]] for r in range(4)],
            "workers": [list(w) for w in s.workers],
            "used": [list(u) for u in s.used],
            "left": list(s.left),
            "pending": {
                "tile": TILE_IDS[s.p_tile] if s.p_tile >= 0 else None,
                "features": [FEATURE_IDS[f] for f in s.p_feats],
                "pieces": [COLOURS[c] for c in s.p_pieces],
            },
            "hoods": [
                {
                    "tiles": [[TILE_IDS[t], tx, ty, rot] for t, tx, ty, rot in h.tiles],
                    "features": [[h.xy[i][0], h.xy[i][1], FEATURE_IDS[h.fid[i]]] for i in range(len(h.xy)) if h.fid[i] >= 0],
                    "stacks": [[h.xy[i][0], h.xy[i][1], COLOURS[h.colour[i]], h.height[i]]
                               for i in range(len(h.xy)) if h.height[i]],
                }
                for h in s.hoods
            ],
            "cards": [[CARD_IDS[c] for c in cs] for cs in s.cards],
            "start_left": [TILE_IDS[t] for t in s.start_left],
            "pick_order": list(s.pick_order),
            "removed": {key: [_item_id(_ROW_OF[key], x) for x in s.removed[key]] for key in _REMOVED},
            "last": dict(s.last) if s.last else None,
            "rng": s.rng.to_json() if s.rng else None,
            "turns": s.turns,
            "dirty": list(s.dirty),
        }

    def load(self, d: dict[str, Any]) -> State:
        s = State(d["seats"])
        s.long = d["long"]
        s.rounds = d["rounds"]
        s.round = d["round"]
        s.phase = PHASES.index(d["phase"])
        s.turn = d["turn"]
        s.star = d["star"]
        s.first = d["first"]
        s.board = BOARD_IDS.index(d["board"])
        s.rings = [list(r) for r in d["rings"]]
        s.deck_cards = [CARD_INDEX[i] for i in d["deck_cards"]]
        s.deck_tiles = [TILE_INDEX[i] for i in d["deck_tiles"]]
        s.deck_features = [FEATURE_INDEX[i] for i in d["deck_features"]]
        s.bag = [COLOURS.index(c) for c in d["bag"]]
        s.rows = [[[_item_index(r, x) for x in slot] for slot in d["rows"][r]] for r in range(4)]
        s.workers = [list(w) for w in d["workers"]]
        s.used = [list(u) for u in d["used"]]
        s.left = list(d["left"])
        p = d["pending"]
        s.p_tile = TILE_INDEX[p["tile"]] if p["tile"] else -1
        s.p_feats = [FEATURE_INDEX[f] for f in p["features"]]
        s.p_pieces = [COLOURS.index(c) for c in p["pieces"]]
        s.hoods = []
        for hd in d["hoods"]:
            h = Hood()
            for t, tx, ty, rot in hd["tiles"]:
                h.add_tile(TILE_INDEX[t], tx, ty, rot)
            for x, y, f in hd["features"]:
                i = h.cells[(x, y)]
                h.fid[i] = FEATURE_INDEX[f]
                h.feat[i] = FEATURE_DESIGN[h.fid[i]]
            for x, y, c, ht in hd["stacks"]:
                i = h.cells[(x, y)]
                h.colour[i] = COLOURS.index(c)
                h.height[i] = ht
            s.hoods.append(h)
        s.cards = [[CARD_INDEX[c] for c in cs] for cs in d["cards"]]
        s.start_left = [TILE_INDEX[t] for t in d["start_left"]]
        s.pick_order = list(d["pick_order"])
        rm = d["removed"]
        s.removed = {key: [_item_index(_ROW_OF[key], x) for x in rm[key]] for key in _REMOVED}
        s.last = dict(d["last"]) if d["last"] else None
        s.rng = Rng.from_json(d["rng"]) if d["rng"] else None
        s.turns = d["turns"]
        s.dirty = list(d["dirty"])
        return s

    def clone(self, s: State) -> State:
        c = State.__new__(State)
        for name in State.__slots__:
            setattr(c, name, getattr(s, name))
        c.rings = [r[:] for r in s.rings]
        c.deck_cards = s.deck_cards[:]
        c.deck_tiles = s.deck_tiles[:]
        c.deck_features = s.deck_features[:]
        c.bag = s.bag[:]
        c.rows = [[slot[:] for slot in row] for row in s.rows]
        c.workers = [w[:] for w in s.workers]
        c.used = [u[:] for u in s.used]
        c.left = s.left[:]
        c.p_feats = s.p_feats[:]
        c.p_pieces = s.p_pieces[:]
        c.hoods = [h.clone() for h in s.hoods]
        c.cards = [cs[:] for cs in s.cards]
        c.start_left = s.start_left[:]
        c.pick_order = s.pick_order[:]
        c.removed = {k: v[:] for k, v in s.removed.items()}
        c.dirty = s.dirty[:]
        c.last = dict(s.last) if s.last else None
        c.rng = Rng(s.rng.seed, s.rng.n) if s.rng else None
        return c


    def redeal(self, s: State, seat: int | None, rng: Any) -> State:
        """Deal anew what nobody sees (Cities has no private hands): each deck's order together with
        the face-down items of its row and the face-down leftovers removed unseen, the bag's order
        and the randomness state. The conformance suite checks every view is unchanged by it."""
        t = self.clone(s)
        kinds = ((t.deck_cards, "hidden_cards"), (t.deck_tiles, "hidden_tiles"), (t.deck_features, "hidden_features"))
        for r, (deck, gone) in enumerate(kinds):
            holders: list[tuple[list[int], int]] = [(deck, i) for i in range(len(deck))]
            holders += [(t.removed[gone], i) for i in range(len(t.removed[gone]))]
            for (row, k), j in HIDDEN.items():
                if row == r and len(t.rows[row][k]) > j:
                    holders.append((t.rows[row][k], j))
            items = [lst[i] for lst, i in holders]
            rng.shuffle(items)
            for (lst, i), item in zip(holders, items, strict=True):
                lst[i] = item
        rng.shuffle(t.bag)
        t.rng = Rng(rng.randrange(2**32), rng.randrange(100)) if t.rng else None
        return t

def _well_formed(code: Any) -> bool:
    """A code of the right kind, length and integer ranges (what decode() can produce)."""
    if not isinstance(code, tuple) or not code or code[0] not in _KINDS or len(code) != _KINDS[code[0]]:
        return False
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in code[1:]):
        return False
    kind = code[0]
    if kind == "start":
        return 0 <= code[1] < N_START
    if kind == "take":
        return 0 <= code[1] < 4 and 0 <= code[2] < 4
    if kind == "tile":
        return 0 <= code[3] < 4
    if kind in ("feature", "decline_feature"):
        return 0 <= code[1] < len(FEATURE_IDS)
    if kind in ("build", "decline_piece"):
        return 0 <= code[1] < 4
    return N_START <= code[1] < len(TILE_IDS)  # decline_tile


_TAKES = tuple(tuple(("take", r, k) for k in range(4)) for r in range(4))
_KINDS = {"start": 2, "take": 3, "tile": 4, "feature": 4, "build": 4,
          "decline_tile": 2, "decline_feature": 2, "decline_piece": 2}
CARDS_VP = tuple(c["vp"] for c in CARDS)

_TILE_REASONS = {
    "cell_taken": "there is already a tile at ({x}, {y})",
    "not_adjacent": "({x}, {y}) does not touch a tile of your neighbourhood along an edge",
    "too_big": "a tile at ({x}, {y}) would make your neighbourhood bigger than {size} tiles",
}
_FEATURE_REASONS = {
    "no_space": "your neighbourhood has no space ({x}, {y})",
    "space_has_feature": "space ({x}, {y}) already has a feature tile",
    "grey_on_city": "a {design} goes only on an empty city space, and ({x}, {y}) is not a city space",
    "space_built": "a {design} goes only on an empty city space, and ({x}, {y}) has a building",
    "wrong_background": "a {design} does not go on space ({x}, {y}): it needs a space of its background",
}
_PIECE_REASONS = {
    "no_space": "your neighbourhood has no space ({x}, {y})",
    "not_city": "buildings go only on city spaces, and ({x}, {y}) is not one",
    "space_has_feature": "space ({x}, {y}) holds a feature tile: no building there",
    "wrong_colour": "a {colour} piece goes on a {colour} city space, a wild space or a {colour} building, not on ({x}, {y})",
    "too_high": "the building at ({x}, {y}) is already {max} high",
}


_ROW_OF = {key: r for r, key in enumerate(_KEYS)} | {"hidden_" + key: r for r, key in enumerate(_KEYS[:3])}


def _item_id(r: int, x: int) -> str:
    if r == ROW_A:
        return CARD_IDS[x]
    if r == ROW_B:
        return TILE_IDS[x]
    if r == ROW_C:
        return FEATURE_IDS[x]
    return COLOURS[x]


def _item_index(r: int, x: str) -> int:
    if r == ROW_A:
        return CARD_INDEX[x]
    if r == ROW_B:
        return TILE_INDEX[x]
    if r == ROW_C:
        return FEATURE_INDEX[x]
    return COLOURS.index(x)


def preview(view: dict[str, Any], action: dict[str, Any]) -> dict[str, Any]:
    """A copy of ``view`` with one placement (a legal ``tile`` / ``feature`` / ``build`` action of
    the seat holding the items) drawn into that seat's neighbourhood, for a "preview before
    confirming" picture. It only moves what the view already shows; legality is the engine's
    (``legal`` lists what may be previewed). Other actions return an unchanged copy."""
    out = copy.deepcopy(view)
    pending = out.get("pending") or {}
    seat = pending.get("seat")
    if seat is None:
        return out
    player = out["players"][seat]
    kind = action.get("type")
    if kind == "tile" and pending.get("tile"):
        t = TILE_INDEX[pending["tile"]]
        tx, ty, rot = action["x"], action["y"], action["rot"]
        player["tiles"].append({"tile": pending["tile"], "x": tx, "y": ty, "rot": rot})
        for q, st in enumerate(ROTATED[t][rot]):
            player["spaces"].append({"x": 2 * tx + (q & 1), "y": 2 * ty + (q >> 1), "type": SPACE_TYPES[st],
                                     "feature": None, "design": None, "colour": None, "height": 0})
        pending["tile"] = None
        return out
    spaces = {(sp["x"], sp["y"]): sp for sp in player["spaces"]}
    sp = spaces.get((action.get("x"), action.get("y")))
    if sp is None:
        return out
    if kind == "feature" and action.get("feature") in pending.get("features", []):
        sp["feature"] = action["feature"]
        sp["design"] = DESIGNS[FEATURE_DESIGN[FEATURE_INDEX[action["feature"]]]]
        pending["features"].remove(action["feature"])
    elif kind == "build" and action.get("colour") in pending.get("pieces", []):
        sp["colour"] = action["colour"]
        sp["height"] = sp["height"] + 1
        pending["pieces"].remove(action["colour"])
    return out


GAME = Cities()

__all__ = ["GAME", "Cities", "State", "preview", "ACHIEVEMENTS", "CITY_IDS", "START_IDS", "MONUMENT"]
