"""Setting up a Cities match: the options, a new table (shuffled from a seed or laid out by a
test's ``setup``), and the four rows dealt at the start of every round."""

from __future__ import annotations

import random
from typing import Any, Literal

from pydantic import Field

from ..core import BadOptions, BadSetup, StrictModel
from ..rng import Rng
from .components import (
    BOARD_IDS,
    BOARDS,
    CARD_IDS,
    CARD_INDEX,
    COLOURS,
    FEATURE_IDS,
    FEATURE_INDEX,
    N_START,
    PIECES_PER_COLOUR,
    TILE_IDS,
    TILE_INDEX,
)
from .state import (
    COVERED,
    ROUNDS,
    ROUNDS_2P,
    ROUNDS_LONG,
    ROW_A,
    ROW_B,
    ROW_C,
    ROW_D,
    START,
    State,
    workers_per_seat,
)


class Options(StrictModel):
    long: bool = Field(False, description="Long 2-player variant: 7 rounds, neighbourhoods up to 3x5 tiles")
    board: Literal[BOARD_IDS] | None = Field(None, description="City achievement board (random when unset)")  # type: ignore[valid-type]



def _shuffled(r: random.Random, items: Any) -> list[int]:
    rnd = r.random
    return [x for _, x in sorted((rnd(), x) for x in items)]



def new_table(n_seats: int, options: Options, seed: int | None, setup: Any) -> State:
    """A new table (the seat count already checked by the game)."""
    if options.long and n_seats != 2:
        raise BadOptions("long_needs_two", "the long variant is for 2 players only")
    s = State(n_seats)
    s.long = options.long
    s.rounds = ROUNDS_LONG if options.long else (ROUNDS_2P if n_seats == 2 else ROUNDS)
    if setup is not None:
        board, first, cards, tiles, features, bag = check_setup(setup, n_seats, options)
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
    deal(s)
    return s


def check_setup(setup: Any, n: int, options: Options) -> tuple:
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

def deal(s: State) -> None:
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

