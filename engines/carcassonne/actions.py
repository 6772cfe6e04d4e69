"""Carcassonne actions: one declaration per action gives its JSON keys, the compact token the
Discord buttons carry (``to_token``/``from_token``) and the keys of its words in the bot; and what
a meeple's spot is (``feature_kind``), so nobody outside the engine reads the feature ids.

Tokens (never change them: they live in Discord messages): ``P.X.Y.R`` (lay the tile, no meeple),
``P.X.Y.R.F`` (a meeple on feature F), ``M`` (dig with the Medina archaeologist), ``C.T`` (keep
tile T after a dig).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from .tiles import GEOMETRY, INDEX

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


@dataclass(frozen=True)
class Arg:
    name: str  # the JSON key
    pattern: str  # the token's regular expression for it
    kind: str = "int"  # int | str
    optional: bool = False  # may be left out (JSON null): the token then has no part for it


@dataclass(frozen=True)
class Decl:
    type: str  # the JSON "type"
    token: str  # the token's head
    args: tuple[Arg, ...] = ()
    story: str = ""  # the key of the public story line in bot/games/carcassonne.py
    label: str = ""  # the key of the mover's button / menu label there


_XY = r"-?\d{1,6}"
DECLS: tuple[Decl, ...] = (
    Decl("place", "P", (Arg("x", _XY), Arg("y", _XY), Arg("rot", "[0-3]"),
                        Arg("meeple", r"c\d|r\d|f\d|m|ruins", "str", optional=True)), "s_place", "d_place"),
    Decl("medina_use", "M", (), "d_dig", "dig"),
    Decl("choose", "C", (Arg("tile", "[A-X]|medina", "str"),), "d_choose", "play_tile"),
)
BY_TYPE = {d.type: d for d in DECLS}
BY_TOKEN = {d.token: d for d in DECLS}


def _token_re(d: Decl) -> re.Pattern[str]:
    parts = [re.escape(d.token)]
    for a in d.args:
        part = rf"\.({a.pattern})"
        parts.append(f"(?:{part})?" if a.optional else part)
    return re.compile("^" + "".join(parts) + "$")


_TOKEN_RES = {d.type: _token_re(d) for d in DECLS}


def to_token(action: dict[str, Any]) -> str:
    """The compact token of a JSON action (at most 80 characters of [A-Za-z0-9_.-])."""
    d = BY_TYPE.get(action.get("type"))  # type: ignore[arg-type]
    if d is None:
        raise ValueError(f"not a Carcassonne action: {action!r}")
    parts = [d.token]
    for a in d.args:
        v = action.get(a.name)
        if v is None and a.optional:
            continue
        parts.append(str(int(v)) if a.kind == "int" else str(v))
    return ".".join(parts)


def from_token(token: str) -> dict[str, Any]:
    """The JSON action of a token; ValueError when it is not one."""
    if not isinstance(token, str):
        raise ValueError(token)
    d = BY_TOKEN.get(token.split(".", 1)[0])
    m = _TOKEN_RES[d.type].match(token) if d else None
    if d is None or m is None:
        raise ValueError(token)
    out: dict[str, Any] = {"type": d.type}
    for a, v in zip(d.args, m.groups(), strict=True):
        out[a.name] = (int(v) if a.kind == "int" else v) if v is not None else None
    if d.type == "choose" and out["tile"] not in INDEX:
        raise ValueError(token)
    return out


__all__ = ["BY_TYPE", "DECLS", "Decl", "feature_kind", "from_token", "is_farmer", "to_token"]
