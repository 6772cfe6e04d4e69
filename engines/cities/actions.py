"""The actions of Cities: their JSON models (what a player sends), the internal codes the rules
work on, and the translation between the two.

Internal codes are tuples: ``("start", t)``, ``("take", row, slot)``, ``("tile", tx, ty, rot)``,
``("feature", f, x, y)``, ``("build", colour, x, y)``, ``("decline_tile", t)``,
``("decline_feature", f)``, ``("decline_piece", colour)``.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from ..core import BadAction, StrictModel
from ..tokens import Arg, Codec, Decl
from .components import COLOURS, FEATURE_IDS, FEATURE_INDEX, N_START, TILE_IDS, TILE_INDEX
from .state import ROWS


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


TAKE_CODES = tuple(tuple(("take", r, k) for k in range(4)) for r in range(4))
KINDS = {"start": 2, "take": 3, "tile": 4, "feature": 4, "build": 4,
          "decline_tile": 2, "decline_feature": 2, "decline_piece": 2}


def well_formed(code: Any) -> bool:
    """A code of the right kind, length and integer ranges (what decode() can produce)."""
    if not isinstance(code, tuple) or not code or code[0] not in KINDS or len(code) != KINDS[code[0]]:
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


def encode(code: Any) -> dict[str, Any]:
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


def decode(a: dict[str, Any]) -> Any:
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


def describe(code: Any) -> str:
    a = encode(code)
    return " ".join(f"{v}" if k == "type" else f"{k}={v}" for k, v in a.items())


# -- one declaration per action: tokens and the keys of its words ---------------------------------
#
# The compact token a Discord button carries (engines/tokens.py); never change one, tokens live in
# Discord messages: ``S.<tile>``, ``K.<row><slot>``, ``T.<x>.<y>.<rot>``, ``F.<feature>.<x>.<y>``,
# ``B.<colour>.<x>.<y>``, ``X.t.<tile>`` / ``X.f.<feature>`` / ``X.p.<colour>``.

_XY = r"-?\d{1,3}"
_COLOUR = "red|blue|green|yellow"
DECLS: tuple[Decl, ...] = (
    Decl("start", "S", (Arg("tile", r"S\d"),), "", "start_btn"),
    Decl("take", "K", (Arg("row", "[A-D]"), Arg("slot", "[0-3]", "int", sep="")), "s_take", ""),
    Decl("tile", "T", (Arg("x", _XY, "int"), Arg("y", _XY, "int"), Arg("rot", "[0-3]", "int")), "", "l_tile"),
    Decl("feature", "F", (Arg("feature", r"[a-z]+-\d{1,2}"), Arg("x", _XY, "int"), Arg("y", _XY, "int")), "", "confirm"),
    Decl("build", "B", (Arg("colour", _COLOUR), Arg("x", _XY, "int"), Arg("y", _XY, "int")), "", "confirm"),
    Decl("decline", "X.t", (Arg("tile", r"[A-Za-z0-9-]{1,12}"),), "", "decline"),
    Decl("decline", "X.f", (Arg("feature", r"[A-Za-z0-9-]{1,12}"),), "", "decline"),
    Decl("decline", "X.p", (Arg("piece", r"[A-Za-z0-9-]{1,12}"),), "", "decline"),
)
CODEC = Codec(DECLS)
to_token = CODEC.to_token
from_token = CODEC.from_token
