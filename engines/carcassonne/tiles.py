"""Static tile facts, loaded once from ``tiles.json`` and turned into lookup tables.

Geometry conventions (shared with the view and the docs):

* Sides are numbered clockwise 0-3 = N, E, S, W. ``x`` grows to the east, ``y`` grows to the
  south (screen order), so the northern neighbour of (x, y) is (x, y - 1).
* A rotation ``rot`` (0-3) turns the printed tile ``rot`` quarter turns clockwise: the printed
  north edge then faces side ``rot``.
* Each side has three *ports*: ``k = 0`` its left half, ``1`` its middle, ``2`` its right half,
  left/right as seen from the tile centre looking out (so the left half of N is its west half).
  Port ``p = side * 3 + k``. Across an edge, port (s, k) touches the neighbour's port
  ((s + 2) % 4, 2 - k).
* Features of a type are numbered: cities, then roads, then the monastery or ruins, then farms.
  Their ids on the tile are ``c0 c1 .. r0 r1 .. m | ruins f0 f1 ..`` and do not change with rotation.
"""

from __future__ import annotations

import json
from pathlib import Path

SIDES = "NESW"
HALVES = ("NL", "NR", "EL", "ER", "SL", "SR", "WL", "WR")
CITY, ROAD, FARM, MONASTERY, RUINS = range(5)
KIND_NAMES = ("city", "road", "farm", "monastery", "ruins")
EDGE_KINDS = {"C": 1, "R": 2, "F": 3}
EDGE_LETTERS = " CRF"
C_EDGE, R_EDGE, F_EDGE = 1, 2, 3
DX = (0, 1, 0, -1)
DY = (-1, 0, 1, 0)

_DATA = json.loads((Path(__file__).with_name("tiles.json")).read_text(encoding="utf-8"))
START_LETTER: str = _DATA["start"]

LETTERS: list[str] = list(_DATA["types"])
INDEX: dict[str, int] = {letter: i for i, letter in enumerate(LETTERS)}
MEDINA = INDEX["medina"]
START = INDEX[START_LETTER]
BASE_TYPES = [i for i, letter in enumerate(LETTERS) if _DATA["types"][letter]["count"] > 0]
COUNTS: list[int] = [_DATA["types"][letter]["count"] for letter in LETTERS]
PENNANT: list[bool] = [_DATA["types"][letter]["pennant"] for letter in LETTERS]

FKIND: list[tuple[int, ...]] = []  # per type: kind of each local feature
FID: list[tuple[str, ...]] = []  # per type: id of each local feature ("c0", "r1", "m", "ruins", "f0")
FINDEX: list[dict[str, int]] = []  # per type: id -> local feature index
NOPEN: list[tuple[int, ...]] = []  # per type: sides of each city/road feature (its open edges alone)
TOUCH: list[tuple[tuple[int, ...], ...]] = []  # per type: for each farm, the local cities it borders
HAS_MONASTERY: list[int] = []  # per type: local index of the monastery, or -1
HAS_RUINS: list[int] = []  # per type: local index of the ruins, or -1
EDGES: list[list[tuple[int, int, int, int]]] = []  # [type][rot] -> edge kind per board side
PORTS: list[list[tuple[int, ...]]] = []  # [type][rot] -> local feature at each of the 12 board ports
MASKS: list[list[tuple[int, ...]]] = []  # [type][rot] -> 12-bit port mask of each local feature
FITS: list[list[bytes]] = []  # [type][rot] -> 256 flags: does a frontier signature accept it
COMPAT: list[list[tuple[int, ...]]] = []  # [type][rot] -> signatures (other than 0) it fits
DROTS: list[tuple[int, ...]] = []  # per type: rotations with distinct results (others repeat them)
# per type and rotation: (the rotation in DROTS that looks the same, its local feature per local feature)
SAME_AS: list[list[tuple[int, tuple[int, ...]]]] = []
CITY_ROAD: list[tuple[int, ...]] = []  # per type: local indexes of its cities and roads
GEOMETRY: dict[str, dict] = {}  # per letter: data a renderer draws the tile from


def signature_fits(sig: int, edges: tuple[int, ...]) -> bool:
    """Does a frontier cell with edge constraints ``sig`` accept a tile showing ``edges``?"""
    for s in range(4):
        need = (sig >> (2 * s)) & 3
        if need and need != edges[s]:
            return False
    return True


def _build() -> None:
    for letter in LETTERS:
        d = _DATA["types"][letter]
        edges0 = tuple(EDGE_KINDS[c] for c in d["edges"])
        kinds: list[int] = []
        ids: list[str] = []
        sides: list[str] = []  # sides (cities/roads) or halves (farms) as text
        for i, c in enumerate(d["cities"]):
            kinds.append(CITY)
            ids.append(f"c{i}")
            sides.append(c)
        for i, r in enumerate(d["roads"]):
            kinds.append(ROAD)
            ids.append(f"r{i}")
            sides.append(r)
        mon = ruins = -1
        if d["monastery"]:
            mon = len(kinds)
            kinds.append(MONASTERY)
            ids.append("m")
            sides.append("")
        if d.get("ruins"):
            ruins = len(kinds)
            kinds.append(RUINS)
            ids.append("ruins")
            sides.append("")
        n_cities = len(d["cities"])
        first_farm = len(kinds)
        touches: list[tuple[int, ...]] = [()] * first_farm
        for i, f in enumerate(d["farms"]):
            kinds.append(FARM)
            ids.append(f"f{i}")
            sides.append(f["halves"])
            touches.append(tuple(f["cities"]))
            assert all(0 <= c < n_cities for c in f["cities"])
        # unrotated ports
        port0 = [-1] * 12
        for f, k in enumerate(kinds):
            if k in (CITY, ROAD):
                for ch in sides[f]:
                    s = SIDES.index(ch)
                    if k == CITY:
                        port0[s * 3] = port0[s * 3 + 1] = port0[s * 3 + 2] = f
                    else:
                        port0[s * 3 + 1] = f
            elif k == FARM:
                for h in sides[f].split():
                    s, half = divmod(HALVES.index(h), 2)
                    port0[s * 3 + (0 if half == 0 else 2)] = f
                    if edges0[s] == F_EDGE:
                        port0[s * 3 + 1] = f
        for s in range(4):
            e = edges0[s]
            if e == C_EDGE:
                assert kinds[port0[s * 3 + 1]] == CITY, letter
            elif e == R_EDGE:
                assert kinds[port0[s * 3 + 1]] == ROAD and kinds[port0[s * 3]] == FARM, letter
            else:
                assert port0[s * 3] == port0[s * 3 + 1] == port0[s * 3 + 2] >= 0, letter
        assert all(p >= 0 for p in port0), letter
        t_edges, t_ports, t_masks, t_fits, t_compat = [], [], [], [], []
        keys: dict = {}
        drots = []
        t_same: list[tuple[int, tuple[int, ...]]] = []
        for rot in range(4):
            edges = tuple(edges0[(s - rot) % 4] for s in range(4))
            ports = tuple(port0[((p // 3 - rot) % 4) * 3 + p % 3] for p in range(12))
            masks = tuple(sum(1 << p for p in range(12) if ports[p] == f) for f in range(len(kinds)))
            fits = bytes(1 if signature_fits(sig, edges) else 0 for sig in range(256))
            compat = tuple(sig for sig in range(1, 256) if fits[sig])
            t_edges.append(edges)
            t_ports.append(ports)
            t_masks.append(masks)
            t_fits.append(fits)
            t_compat.append(compat)
            key = frozenset((kinds[f], masks[f]) for f in range(len(kinds)))
            if key not in keys:
                keys[key] = rot
                drots.append(rot)
            same = keys[key]
            same_feature = tuple(
                next(g for g in range(len(kinds)) if kinds[g] == kinds[f] and t_masks[same][g] == masks[f])
                for f in range(len(kinds))
            )
            t_same.append((same, same_feature))
        FKIND.append(tuple(kinds))
        FID.append(tuple(ids))
        FINDEX.append({fid: i for i, fid in enumerate(ids)})
        NOPEN.append(tuple(len(sides[f]) if kinds[f] in (CITY, ROAD) else 0 for f in range(len(kinds))))
        TOUCH.append(tuple(touches))
        HAS_MONASTERY.append(mon)
        HAS_RUINS.append(ruins)
        EDGES.append(t_edges)
        PORTS.append(t_ports)
        MASKS.append(t_masks)
        FITS.append(t_fits)
        COMPAT.append(t_compat)
        DROTS.append(tuple(drots))
        SAME_AS.append(t_same)
        CITY_ROAD.append(tuple(f for f, k in enumerate(kinds) if k in (CITY, ROAD)))
        feats = []
        for f, k in enumerate(kinds):
            item: dict = {"id": ids[f], "kind": KIND_NAMES[k]}
            if k in (CITY, ROAD):
                item["sides"] = list(sides[f])
            elif k == FARM:
                item["halves"] = sides[f].split()
                item["borders"] = [ids[c] for c in touches[f]]
            feats.append(item)
        GEOMETRY[letter] = {
            "edges": d["edges"],
            "pennant": d["pennant"],
            "count": d["count"],
            "features": feats,
        }


_build()
