"""Carcassonne actions: one declaration per action (engines/tokens.py) gives its JSON keys, the compact token the
Discord buttons carry (``to_token``/``from_token``) and the keys of its words in the bot; and what
a meeple's spot is (``feature_kind``), so nobody outside the engine reads the feature ids.

Tokens (never change them: they live in Discord messages): ``P.X.Y.R`` (lay the tile, no meeple),
``P.X.Y.R.F`` (a meeple on feature F), ``M`` (dig with the Medina archaeologist), ``C.T`` (keep
tile T after a dig).
"""

from __future__ import annotations

from ..tokens import Arg, Codec, Decl
from .tiles import GEOMETRY

# -- what a feature id names -----------------------------------------------------------------------

# A feature's id on a tile is ``c0 c1 .. r0 .. m | ruins f0 f1 ..`` (engines/carcassonne/tiles.py);
# the kind of each id, as the tile geometry names it.
_ID_KIND = {"c": "city", "r": "road", "f": "farm", "m": "monastery"}


def feature_kind(fid: str, tile: str | None = None) -> str:
    """The kind of feature ``fid`` of ``tile`` ("city", "road", "farm", "monastery", "ruins"):
    from the tile's geometry when the tile is known, else from the id scheme of the tiles."""
    if tile is not None and tile in GEOMETRY:
        for f in GEOMETRY[tile]["features"]:
            if f["id"] == fid:
                return f["kind"]
    if fid == "ruins":
        return "ruins"
    return _ID_KIND.get(fid[:1], "") if fid else ""


def is_farmer(fid: str | None, tile: str | None = None) -> bool:
    """Does a meeple on ``fid`` lie in a field (a farmer)?"""
    return bool(fid) and feature_kind(fid, tile) == "farm"  # type: ignore[arg-type]


# -- one declaration per action --------------------------------------------------------------------

_XY = r"-?\d{1,6}"
DECLS: tuple[Decl, ...] = (
    Decl("place", "P", (Arg("x", _XY, "int"), Arg("y", _XY, "int"), Arg("rot", "[0-3]", "int"),
                        Arg("meeple", r"c\d|r\d|f\d|m|ruins", optional=True)), "s_place", "d_place"),
    Decl("medina_use", "M", (), "d_dig", "dig"),
    Decl("choose", "C", (Arg("tile", "[A-X]|medina"),), "d_choose", "play_tile"),
)
CODEC = Codec(DECLS)
BY_TYPE = {d.type: d for d in DECLS}
to_token = CODEC.to_token
from_token = CODEC.from_token


__all__ = ["BY_TYPE", "CODEC", "DECLS", "feature_kind", "from_token", "is_farmer", "to_token"]
