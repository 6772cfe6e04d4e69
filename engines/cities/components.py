"""The Cities component set as data: Partida's own design, loaded from ``data/*.json``.

Static facts only (no match state), so pictures and the bot may import them to name and draw
components by id. Indices used inside the engine:

* space types: 0-3 the city colours red, blue, green, yellow; 4 park; 5 water;
* tiles: 0-3 the starting tiles ``S1``-``S4``, then the 32 city tiles ``T01``-``T32``;
* feature designs: index into ``DESIGNS``; feature tiles: index into ``FEATURE_IDS``
  (``<design>-<n>``);
* scoring cards: index into ``CARDS``; boards: index into ``BOARDS``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

_DATA = Path(__file__).with_name("data")


def _load(name: str) -> Any:
    with open(_DATA / name, encoding="utf-8") as f:
        return json.load(f)


_BUILDINGS = _load("buildings.json")
_TILES = _load("tiles.json")
_FEATURES = _load("features.json")
_CARDS = _load("cards.json")
_BOARDS = _load("achievements.json")

COLOURS: tuple[str, ...] = tuple(c["id"] for c in _BUILDINGS["colours"])
COLOUR_LETTERS: tuple[str, ...] = tuple(c["letter"] for c in _BUILDINGS["colours"])
PIECES_PER_COLOUR: int = _BUILDINGS["per_colour"]
MAX_HEIGHT: int = _BUILDINGS["max_height"]
SPACE_TYPES: tuple[str, ...] = tuple(s["id"] for s in _BUILDINGS["spaces"])
SPACE_LETTERS: tuple[str, ...] = tuple(s["letter"] for s in _BUILDINGS["spaces"])
PARK = SPACE_TYPES.index("park")
WATER = SPACE_TYPES.index("water")
assert SPACE_TYPES[:4] == COLOURS and (PARK, WATER) == (4, 5)

# -- tiles ---------------------------------------------------------------------------------------

START_IDS: tuple[str, ...] = tuple(t["id"] for t in _TILES["start"])
CITY_IDS: tuple[str, ...] = tuple(t["id"] for t in _TILES["city"])
TILE_IDS: tuple[str, ...] = START_IDS + CITY_IDS
TILE_INDEX: dict[str, int] = {t: i for i, t in enumerate(TILE_IDS)}
# spaces of each tile at rotation 0: top-left, top-right, bottom-left, bottom-right
TILE_SPACES: tuple[tuple[int, ...], ...] = tuple(
    tuple(SPACE_TYPES.index(s) for s in t["spaces"]) for t in (*_TILES["start"], *_TILES["city"])
)
N_START = len(START_IDS)


def rotate(spaces: tuple[int, ...], rot: int) -> tuple[int, ...]:
    """The 2x2 layout turned ``rot`` quarter turns clockwise ([a b / c d] -> [c a / d b])."""
    for _ in range(rot % 4):
        a, b, c, d = spaces
        spaces = (c, a, d, b)
    return spaces


# ROTATED[tile][rot] -> the four space types, in the order (dx, dy) = (0,0), (1,0), (0,1), (1,1)
ROTATED: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(rotate(sp, r) for r in range(4)) for sp in TILE_SPACES
)

# -- feature tiles ---------------------------------------------------------------------------------

GREY = "grey"
DESIGNS: tuple[str, ...] = tuple(d["id"] for d in _FEATURES["designs"])
DESIGN_INDEX: dict[str, int] = {d: i for i, d in enumerate(DESIGNS)}
# background per design: the space type it goes on (WATER, PARK) or -1 for grey (empty city space)
DESIGN_BG: tuple[int, ...] = tuple(
    {"water": WATER, "park": PARK, GREY: -1}[d["background"]] for d in _FEATURES["designs"]
)
DESIGN_POINTS: tuple[int, ...] = tuple(d.get("points", 0) for d in _FEATURES["designs"])
MONUMENT = DESIGN_INDEX["monument"]
WILD = next(i for i, d in enumerate(_FEATURES["designs"]) if d.get("wild"))
FEATURE_IDS: tuple[str, ...] = tuple(
    f"{d['id']}-{k + 1}" for d in _FEATURES["designs"] for k in range(d["count"])
)
FEATURE_INDEX: dict[str, int] = {f: i for i, f in enumerate(FEATURE_IDS)}
FEATURE_DESIGN: tuple[int, ...] = tuple(DESIGN_INDEX[f.rsplit("-", 1)[0]] for f in FEATURE_IDS)

# -- scoring cards and achievement boards -----------------------------------------------------------

CARDS: tuple[dict[str, Any], ...] = tuple(_CARDS["cards"])
CARD_IDS: tuple[str, ...] = tuple(c["id"] for c in CARDS)
CARD_INDEX: dict[str, int] = {c: i for i, c in enumerate(CARD_IDS)}
BOARDS: tuple[dict[str, Any], ...] = tuple(_BOARDS["boards"])
BOARD_IDS: tuple[str, ...] = tuple(b["id"] for b in BOARDS)
ACHIEVEMENTS: dict[str, dict[str, Any]] = {a["id"]: a for b in BOARDS for a in b["achievements"]}

# -- names -----------------------------------------------------------------------------------------

_NAMES: dict[str, dict[str, str]] = {}
_TEXTS: dict[str, dict[str, str]] = {}
for _c in _BUILDINGS["colours"]:
    _NAMES["colour:" + _c["id"]] = _c["name"]
for _s in _BUILDINGS["spaces"]:
    _NAMES["space:" + _s["id"]] = _s["name"]
for _d in _FEATURES["designs"]:
    _NAMES[_d["id"]] = _d["name"]
for _c in CARDS:
    _NAMES[_c["id"]] = _c["name"]
    _TEXTS[_c["id"]] = _c["text"]
for _b in BOARDS:
    _NAMES[_b["id"]] = _b["name"]
    for _a in _b["achievements"]:
        _NAMES[_a["id"]] = _a["name"]
        _TEXTS[_a["id"]] = _a["text"]


def name(key: str, lang: str = "en") -> str:
    """Display name of a component id: a card, an achievement, a board, a feature design or tile
    (``boat-3`` -> Boat), ``colour:red`` or ``space:park``; tile ids name themselves."""
    entry = _NAMES.get(key)
    if entry is None and key in FEATURE_INDEX:
        entry = _NAMES[DESIGNS[FEATURE_DESIGN[FEATURE_INDEX[key]]]]
    if entry is None:
        return key
    return entry.get(lang) or entry["en"]


def text(key: str, lang: str = "en") -> str:
    """The rule text of a scoring card or an achievement."""
    entry = _TEXTS.get(key)
    if entry is None:
        return ""
    return entry.get(lang) or entry["en"]
