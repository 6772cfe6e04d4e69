"""Build Cities scenarios: explicit setups and hand-made neighbourhoods."""

from __future__ import annotations

from engines.cities import GAME, State
from engines.cities.components import COLOURS, FEATURE_DESIGN, FEATURE_INDEX, TILE_INDEX
from engines.cities.scoring import Hood
from engines.match import Match

NAMES = ["ana", "ben", "cris", "dani"]


def hood(tiles, features=None, stacks=None) -> Hood:
    """tiles: [(tile id, tx, ty, rot)]; features: {(x, y): feature id}; stacks: {(x, y): (colour, height)}."""
    h = Hood()
    for t, tx, ty, rot in tiles:
        h.add_tile(TILE_INDEX[t], tx, ty, rot)
    for (x, y), f in (features or {}).items():
        i = h.cells[(x, y)]
        h.fid[i] = FEATURE_INDEX[f]
        h.feat[i] = FEATURE_DESIGN[h.fid[i]]
    for (x, y), (c, ht) in (stacks or {}).items():
        i = h.cells[(x, y)]
        h.colour[i] = COLOURS.index(c)
        h.height[i] = ht
    return h


def scenario(n=2, long=False, board="sydney", **setup) -> Match:
    return Match.create("cities", NAMES[:n], {"long": long, "board": board}, setup={"board": board, **setup})


def pick_starts(m: Match, tiles=("S1", "S2", "S3", "S4")) -> None:
    """Every seat picks a starting tile, in the rule's order, the i-th picker taking tiles[i]."""
    for t in tiles[: len(m.seats)]:
        m.apply(m.to_move()[0], {"type": "start", "tile": t})


def act(m: Match, action: dict) -> None:
    m.apply(m.to_move()[0], action)


def take(m: Match, row: str, slot: int) -> None:
    act(m, {"type": "take", "row": row, "slot": slot})


def legal_json(m: Match) -> list[dict]:
    return m.legal(m.to_move()[0])


def state(m: Match) -> State:
    return m.state


def dump(m: Match) -> dict:
    return GAME.dump(m.state)
