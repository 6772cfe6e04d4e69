"""The table of a Cities match: its constants, the ``State`` (mutable, copied by ``clone``), the
ids of the items in each row, and the state's JSON form (``dump`` / ``load``)."""

from __future__ import annotations

from typing import Any

from ..rng import Rng
from .components import (
    BOARD_IDS,
    CARD_IDS,
    CARD_INDEX,
    COLOURS,
    FEATURE_DESIGN,
    FEATURE_IDS,
    FEATURE_INDEX,
    N_START,
    TILE_IDS,
    TILE_INDEX,
)
from .scoring import Hood

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
        self.removed: dict[str, list[int]] = {k: [] for k in REMOVED}
        self.last: dict[str, Any] | None = None
        self.rng: Rng | None = None
        self.turns = 0
        # per seat: has the neighbourhood changed since its last achievement check?
        self.dirty: list[bool] = [True] * n


KEYS = ("cards", "tiles", "features", "pieces")
REMOVED = (*KEYS, "hidden_cards", "hidden_tiles", "hidden_features")
ROW_OF = {key: r for r, key in enumerate(KEYS)} | {"hidden_" + key: r for r, key in enumerate(KEYS[:3])}


def workers_per_seat(n: int) -> int:
    return 8 if n == 2 else 4


def per_row(n: int) -> int:
    return 2 if n == 2 else 1

def item_id(r: int, x: int) -> str:
    if r == ROW_A:
        return CARD_IDS[x]
    if r == ROW_B:
        return TILE_IDS[x]
    if r == ROW_C:
        return FEATURE_IDS[x]
    return COLOURS[x]


def item_index(r: int, x: str) -> int:
    if r == ROW_A:
        return CARD_INDEX[x]
    if r == ROW_B:
        return TILE_INDEX[x]
    if r == ROW_C:
        return FEATURE_INDEX[x]
    return COLOURS.index(x)




def dump(s: State) -> dict[str, Any]:
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
        "rows": [[[item_id(r, x) for x in slot] for slot in s.rows[r]] for r in range(4)],
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
        "removed": {key: [item_id(ROW_OF[key], x) for x in s.removed[key]] for key in REMOVED},
        "last": dict(s.last) if s.last else None,
        "rng": s.rng.to_json() if s.rng else None,
        "turns": s.turns,
        "dirty": list(s.dirty),
    }

def load(d: dict[str, Any]) -> State:
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
    s.rows = [[[item_index(r, x) for x in slot] for slot in d["rows"][r]] for r in range(4)]
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
    s.removed = {key: [item_index(ROW_OF[key], x) for x in rm[key]] for key in REMOVED}
    s.last = dict(d["last"]) if d["last"] else None
    s.rng = Rng.from_json(d["rng"]) if d["rng"] else None
    s.turns = d["turns"]
    s.dirty = list(d["dirty"])
    return s


def clone(s: State) -> State:
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


