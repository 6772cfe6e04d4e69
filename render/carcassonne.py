"""Pictures for Carcassonne, drawn only from an engine *view* (see engines/carcassonne, docs/carcassonne.md).

800 px wide (seen at half size on a phone): no text under 20 px, no meeple under 34 px and no seat mark under 16 px
(tests/render/test_legibility.py); colours apart for colour-blind eyes, with a shape mark per seat
and patterns on the terrain (tests/render/test_colour_blind.py).

* :func:`board_png` - the public table for the channel: whose turn and the last move in words, a
  score strip (names, scores, meeples left), every tile (or, on a big table, a viewport around the
  last tile plus a small overview map), meeples in seat colours (farmers lying down), the last tile
  framed; at game over a table of points by kind, best first. It reads only public parts of the
  view (never ``legal``, ``viewer``, ``can_use_archaeologist``): every seat's view gives the same bytes.
* :func:`hand_png` - for the player to move: the same with the drawn tile in words and every place
  where it fits lettered A, B, ... (:func:`place_labels`, the letters of the bot's menu), framed so
  that all of them show.
* :func:`preview_png` - the table around one cell with the drawn tile laid there (outlined), its
  legal meeple spots numbered (the numbers of the buttons) or the chosen meeple drawn, and the other
  legal rotations in small.
* :func:`rotations_png` - one small panel per legal rotation at a cell, to compare them.
* :func:`place_pages` / :func:`place_labels` (``per_page``) - more than 25 places split into menu
  pages that are each a compact patch of the table, lettered page after page.
* :func:`places_image` - the area around any set of places, each lettered, tile numbers on the
  edges (far-apart places in separate panels); returns where each letter is drawn.
* :func:`turn_png` / :func:`turn_image` - the one picture of a turn DM: scores, the drawn tile,
  the tiles laid since the viewer's last turn, and the places of one menu page lettered.
* :func:`tile_words` - a tile in words ("a city corner with a shield and a curved road").

Original flat art built from each tile's geometry in the view: green fields with tufts, pale road
strips, sand cities with bricks and brown walls, blue pennant shields, a small red-roofed monastery,
grey ruins. Drawn tiles are cached per (tile, rotation, size). Texts: catalogs/<lang>/carcassonne.po (English, Spanish, Portuguese).
"""

from __future__ import annotations

import math
from typing import Any

from PIL import Image, ImageDraw, ImageFilter

from catalogs import lookup
from render.common import (
    UI,
    cached,
    clean_text,
    corners,
    draw_symbol,
    ellipsize,
    encode_png,
    ink_for,
    legible,
    marker,
    mix,
    new_canvas,
    paste,
    supersampled,
    text,
    wrap,
)

# -- colours --------------------------------------------------------------------------------------

# Terrain: apart in lightness as well as hue (dark field, light sand city, near-white road), so
# they stay apart for colour-blind eyes (tests/render/test_colour_blind.py); cities also carry a
# brick pattern and fields grass tufts, so shape tells them apart too.
FIELD = (64, 128, 56)
FIELD_EDGE = (48, 100, 42)
TUFT = (92, 156, 76)
ROAD = (245, 242, 232)
ROAD_EDGE = (118, 100, 74)
CITY = (238, 200, 128)
BRICK = (206, 164, 96)
WALL = (122, 72, 36)
PENNANT_FILL = (36, 84, 196)
MONASTERY_WALL = (242, 234, 214)
MONASTERY_ROOF = (176, 52, 40)
VILLAGE_ROOF = (104, 96, 92)
RUINS = (168, 166, 160)
EMPTY = (36, 50, 62)
SPOT = (255, 255, 255)
LAST = (255, 255, 255)  # the last tile's frame: white (never a seat's colour)
TURN = (120, 225, 140)  # whose turn: green arrow and outline in the score strip

#: Meeple colours by seat: apart for colour-blind eyes too (protanopia, deuteranopia, tritanopia:
#: tests/render/test_colour_blind.py), each with a contrasting ring against the table.
#: Chosen by the worst pairwise CIE76 distance under typical vision and simulated deuteranopia,
#: protanopia and tritanopia (>= 28; the old red read as black and the blue as the lilac for
#: protanopes). Orange-red and pink instead of red and lilac: they keep a lightness of their own.
SEAT_COLOURS: list[tuple[int, int, int]] = [
    (20, 70, 220),  # blue
    (213, 94, 0),  # vermilion (orange-red)
    (250, 200, 40),  # yellow
    (32, 32, 32),  # black
    (216, 96, 216),  # pink
    (244, 244, 244),  # white
]
#: A mark on each seat's meeples (and in the score strip), so seats differ in shape, not only hue.
SEAT_MARKS = ("circle", "triangle", "square", "diamond", "star", "cross")

DOMAIN = "carcassonne"  # the words: catalogs/<lang>/carcassonne.po ("pic.", "tile.", "kind.", "on.", "dir." keys)
KINDS = ("city", "road", "farm", "monastery", "ruins")


def _word(lang: str, key: str, **kw: Any) -> str:
    """A text of the catalogue in ``lang`` (English when the language has none), its plural form
    chosen by its count, formatted with ``kw``."""
    text = lookup(lang, key, kw, domain=DOMAIN) or lookup("en", key, kw, domain=DOMAIN) or key
    return text.format(**kw)


def _t(lang: str, key: str, **kw: Any) -> str:
    """A text of the pictures ("pic." keys)."""
    return _word(lang, "pic." + key, **kw)


def edition_words(n: int, lang: str) -> str:
    """"3rd edition rules", "reglas de la 3.ª edición", "regras da 3ª edição"."""
    return _word(lang, f"ed.{n}") if n in (1, 2, 3) else str(n)


def kind_name(kind: str, lang: str) -> str:
    """A tile part's kind in words: "city", "ciudad", "cidade"."""
    return _word(lang, f"kind.{kind}") if kind in KINDS else kind


def seat_colour(seat: int) -> tuple[int, int, int]:
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def tile_name(tile: str) -> str:
    return "Medina" if tile == "medina" else tile


def tile_words(view: dict[str, Any], tile: str, lang: str) -> str:
    """The tile in words, from its geometry: 'a city corner with a shield and a curved road',
    'un monasterio con un camino'..."""
    def w(key: str, **kw: Any) -> str:
        return _word(lang, "tile." + key, **kw)

    geo = (view.get("geometry") or {}).get(tile)
    if not geo:
        return tile_name(tile)
    feats = geo["features"]
    kinds = [f["kind"] for f in feats]
    if "ruins" in kinds:
        return w("ruins")
    main: list[str] = []
    extra: list[str] = []
    cities = [f for f in feats if f["kind"] == "city"]
    if len(cities) >= 2 and all(len(c["sides"]) == 1 for c in cities):
        main.append(w("city1x2"))
    for c in cities if not (len(cities) >= 2 and all(len(c["sides"]) == 1 for c in cities)) else []:
        idx = sorted(SIDE_INDEX[x] for x in c["sides"])
        if len(idx) == 4:
            key = "city4"
        elif len(idx) == 3:
            key = "city3"
        elif len(idx) == 2:
            key = "city_across" if idx[1] - idx[0] == 2 else "city_corner"
        else:
            key = "city1"
        main.append(w(key))
    shield = bool(cities and geo.get("pennant"))
    if "monastery" in kinds:
        main.insert(0, w("monastery"))
    roads = [f for f in feats if f["kind"] == "road"]
    ends = [r for r in roads if len(r["sides"]) == 1]
    if len(ends) >= 3:
        extra.append(w("cross", n=len(ends)))
    elif len(ends) == 1 and len(roads) == 1:
        extra.append(w("road_end"))
    else:
        for r in roads:
            if len(r["sides"]) == 2:
                a, b = (SIDE_INDEX[x] for x in r["sides"])
                extra.append(w("road_straight") if (a - b) % 2 == 0 else w("road_curve"))
    if not main:
        main, extra = extra[:1], extra[1:]
    if not main:
        return w("field")
    out = w("and").join(main)
    if shield and extra:
        return out + " " + w("pennant") + w("and") + w("and").join(extra)
    if shield:
        return out + " " + w("pennant")
    if extra:
        out += w("with") + w("and").join(extra)
    return out


MENU_MAX = 25  # Discord's select: up to 25 options; more places go on pages
PER_PAGE = 23  # places a menu page (bot/games/carcassonne.py PAGE: room for "previous" and "more")


def place_labels(view: dict[str, Any], per_page: int | None = None) -> dict[tuple[int, int], str]:
    """A short label per place where the drawn tile fits: A, B, ... Z, AA, AB, ... in the order the
    bot lists them (nearest to the last tile first, then top to bottom, left to right). With
    ``per_page`` and more than 25 places, in the order of :func:`place_pages` instead, so each
    page's letters run on (A-W, X-AT, ...) and each page's places lie close together."""
    cells = {(p["x"], p["y"]) for p in view.get("legal") or []}
    if per_page and len(cells) > MENU_MAX:
        order = [c for page in place_pages(view, per_page) for c in page]
    else:
        last = view.get("last")
        fx, fy = (last["x"], last["y"]) if last else (0, 0)
        order = sorted(cells, key=lambda c: (abs(c[0] - fx) + abs(c[1] - fy), c[1], c[0]))
    return {cell: letters(i) for i, cell in enumerate(order)}


def place_pages(view: dict[str, Any], per_page: int = 23) -> list[list[tuple[int, int]]]:
    """The legal places split into menu pages of at most ``per_page`` places each. The first page
    holds the places nearest to where the player is playing (:func:`near_first`: their meeples
    on the table and the last tile laid), as many as its picture shows legibly; the others are
    compact patches of the table (split in two along the longer side, again and again, in
    proportion to the pages each half gets), so that one picture per page shows its places large
    enough to read (:func:`places_image`). One page when they fit one menu (25)."""
    cells = sorted({(p["x"], p["y"]) for p in view.get("legal") or []}, key=lambda c: (c[1], c[0]))
    if len(cells) <= MENU_MAX:
        labels = place_labels(view)
        return [sorted(cells, key=lambda c: (len(labels[c]), labels[c]))] if cells else []
    first = near_first(view, cells, per_page)
    rest = [c for c in cells if c not in set(first)]
    by_halves = _pages_by_halves(rest, per_page)
    by_windows = _pages_by_windows(rest, per_page)
    return [first, *(by_windows if len(by_windows) < len(by_halves) else by_halves)]


def play_anchors(view: dict[str, Any]) -> list[tuple[int, int]]:
    """Where the player is playing, as their picture shows it: the tiles with their meeples
    standing on a city, road, monastery or ruins (a farmer lying in a field is left out: fields
    are the whole table), and the last tile laid."""
    me = view.get("viewer")
    out = [
        (t["x"], t["y"]) for t in view.get("board") or []
        if any(m.get("seat") == me and not m.get("farmer") for m in t.get("meeples") or [])
    ]
    last = _last_xy(view)
    return out + ([last] if last else [])


PHONE_H = 1800  # a turn picture's height at most (900 px seen 400 px wide)


def _near_room(view: dict[str, Any]) -> int:
    """The height left for the first page's panels in a turn picture no taller than PHONE_H: the
    top of :func:`_top` at its tallest for this many players (two lines of the last move, the
    score strip, the drawn tile and the table's map 200 px high, four lines of notes)."""
    n = len(view.get("scores") or [0, 0])
    score_h = ((n + (1 if n <= 3 else 2) - 1) // (1 if n <= 3 else 2)) * ROW_H
    top = 48 + 36 + 2 * 30 + 8 + score_h + (200 + 34 + 8) + 4 * 30 + 6
    return PHONE_H - MARGIN - top


def near_first(view: dict[str, Any], cells: list[tuple[int, int]], per_page: int) -> list[tuple[int, int]]:
    """The first menu page of a table with more places than one menu: the places nearest to the
    player's meeples and to the last tile (:func:`play_anchors`, tiles apart across and down),
    up to ``per_page``, as many as fit one picture (panels of nearby places side by side and
    stacked, no taller than one full panel). Only what the player sees orders them; every other
    place is on a later page."""
    anchors = play_anchors(view) or [(0, 0)]
    room = _near_room(view)
    order = sorted(cells, key=lambda c: (min(abs(c[0] - a[0]) + abs(c[1] - a[1]) for a in anchors), c[1], c[0]))
    page: list[tuple[int, int]] = []
    for c in order:
        if len(page) >= per_page:
            break
        if _panels_bottom(_panels([*page, c], 0, room), 0) <= room:
            page.append(c)
    return sorted(page, key=lambda c: (c[1], c[0]))


def _pages_by_windows(cells: list[tuple[int, int]], per_page: int) -> list[list[tuple[int, int]]]:
    """Greedy cover: from the top-left place still free, the panel-sized window holding the most
    free places (at most ``per_page``, nearest first) is the next page."""
    room_w = W - 2 * MARGIN - 2 * AXIS_W
    max_cols = room_w // MIN_PANEL_CELL - 2  # places' span, the panel's border of one tile aside
    max_rows = MAX_PANEL_H // MIN_PANEL_CELL - 2
    left = set(cells)
    pages: list[list[tuple[int, int]]] = []
    while left:
        sx, sy = min(left, key=lambda c: (c[1], c[0]))
        best: list[tuple[int, int]] = []
        band = [c for c in left if sy <= c[1] < sy + max_rows and sx - max_cols < c[0] < sx + max_cols]
        for x0 in range(sx - max_cols + 1, sx + 1):
            inside = [c for c in band if x0 <= c[0] < x0 + max_cols]
            inside.sort(key=lambda c: (abs(c[0] - sx) + abs(c[1] - sy), c[1], c[0]))
            inside = inside[:per_page]
            if len(inside) > len(best) and _fits_one_panel(inside):
                best = inside
        best = best or [(sx, sy)]
        pages.append(sorted(best, key=lambda c: (c[1], c[0])))
        left -= set(best)
    return pages


def _pages_by_halves(cells: list[tuple[int, int]], per_page: int) -> list[list[tuple[int, int]]]:
    k = -(-len(cells) // per_page)
    out: list[list[tuple[int, int]]] = []
    todo = _split(cells, k)
    while todo:  # a page too spread out for one panel is split again (a page more, none unreadable)
        page = todo.pop(0)
        if len(page) > 1 and not _fits_one_panel(page):
            todo[:0] = _split(page, 2)
        else:
            out.append(page)
    merged: list[list[tuple[int, int]]] = []
    for page in out:  # then two neighbouring pages become one where they fit together
        if merged and len(merged[-1]) + len(page) <= per_page and _fits_one_panel(merged[-1] + page):
            merged[-1] = sorted(merged[-1] + page, key=lambda c: (c[1], c[0]))
        else:
            merged.append(page)
    return merged


def _fits_one_panel(cells: list[tuple[int, int]]) -> bool:
    xs = [c[0] for c in cells]
    ys = [c[1] for c in cells]
    cols, rows = max(xs) - min(xs) + 3, max(ys) - min(ys) + 3
    return min((W - 2 * MARGIN - 2 * AXIS_W) // cols, MAX_PANEL_H // rows) >= MIN_PANEL_CELL


def _split(cells: list[tuple[int, int]], k: int) -> list[list[tuple[int, int]]]:
    if k <= 1:
        return [sorted(cells, key=lambda c: (c[1], c[0]))]
    xs = [c[0] for c in cells]
    ys = [c[1] for c in cells]
    axis = 0 if max(xs) - min(xs) >= max(ys) - min(ys) else 1
    cells = sorted(cells, key=lambda c: (c[axis], c[1 - axis]))
    k1 = k // 2
    n1 = len(cells) * k1 // k
    return _split(cells[:n1], k1) + _split(cells[n1:], k - k1)


def letters(i: int) -> str:
    """0 -> A, 25 -> Z, 26 -> AA, 701 -> ZZ, 702 -> AAA (spreadsheet columns)."""
    out = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        out = chr(65 + r) + out
    return out


# -- tile geometry (unit square, y down) ----------------------------------------------------------

SIDE_INDEX = {"N": 0, "E": 1, "S": 2, "W": 3}
SIDE_MID = ((0.5, 0.0), (1.0, 0.5), (0.5, 1.0), (0.0, 0.5))
HALF_POINT = {
    "NL": (0.25, 0.0), "NR": (0.75, 0.0), "EL": (1.0, 0.25), "ER": (1.0, 0.75),
    "SL": (0.75, 1.0), "SR": (0.25, 1.0), "WL": (0.0, 0.75), "WR": (0.0, 0.25),
}
Pt = tuple[float, float]


def turn(p: Pt, k: int) -> Pt:
    """A point of the unit tile turned ``k`` quarter turns clockwise."""
    u, v = p
    for _ in range(k % 4):
        u, v = 1.0 - v, u
    return (u, v)


def _bez(p0: Pt, c: Pt, p1: Pt, n: int = 18) -> list[Pt]:
    out = []
    for i in range(n + 1):
        t = i / n
        a, b, d = (1 - t) ** 2, 2 * t * (1 - t), t * t
        out.append((a * p0[0] + b * c[0] + d * p1[0], a * p0[1] + b * c[1] + d * p1[1]))
    return out


def _city_shape(sides: list[str]) -> tuple[list[Pt], list[list[Pt]], Pt, Pt]:
    """(outline polygon, wall polylines, meeple anchor, pennant spot) of a city on the printed tile."""
    idx = sorted(SIDE_INDEX[s] for s in sides)
    n = len(idx)
    if n == 4:
        return [(0, 0), (1, 0), (1, 1), (0, 1)], [], (0.5, 0.5), (0.24, 0.24)
    if n == 1:
        k = idx[0]
        wall = _bez((1, 0), (0.5, 0.62), (0, 0))
        poly, walls, anchor, pen = [(0, 0), (1, 0)] + wall, [wall], (0.5, 0.14), (0.2, 0.07)
    elif n == 2 and (idx[1] - idx[0]) == 2:
        k = 0 if idx == [1, 3] else 1
        top = _bez((0, 0), (0.5, 0.62), (1, 0))
        bottom = _bez((1, 1), (0.5, 0.38), (0, 1))
        poly, walls, anchor, pen = top + bottom, [top, bottom], (0.5, 0.5), (0.14, 0.5)
    elif n == 2:
        k = next(k for k in range(4) if {k % 4, (3 + k) % 4} == set(idx))
        wall = _bez((1, 0), (0.6, 0.6), (0, 1))
        poly, walls, anchor, pen = [(0, 0), (1, 0)] + wall, [wall], (0.3, 0.3), (0.66, 0.13)
    else:
        missing = ({0, 1, 2, 3} - set(idx)).pop()
        k = (missing - 2) % 4
        wall = _bez((1, 1), (0.5, 0.3), (0, 1))
        poly, walls, anchor, pen = [(0, 0), (1, 0), (1, 1)] + wall, [wall], (0.5, 0.34), (0.18, 0.16)
    return (
        [turn(p, k) for p in poly],
        [[turn(p, k) for p in w] for w in walls],
        turn(anchor, k),
        turn(pen, k),
    )


def _road_path(sides: list[str]) -> list[Pt]:
    idx = [SIDE_INDEX[s] for s in sides]
    if len(idx) == 1:
        return [SIDE_MID[idx[0]], (0.5, 0.5)]
    a, b = SIDE_MID[idx[0]], SIDE_MID[idx[1]]
    if (idx[0] - idx[1]) % 2 == 0:
        return [a, b]
    return _bez(a, (0.5, 0.5), b)


def _road_anchor(sides: list[str]) -> Pt:
    idx = [SIDE_INDEX[s] for s in sides]
    if len(idx) == 1:
        m = SIDE_MID[idx[0]]
        return (0.5 + (m[0] - 0.5) * 0.72, 0.5 + (m[1] - 0.5) * 0.72)
    if (idx[0] - idx[1]) % 2 == 0:
        return (0.5, 0.5)
    path = _road_path(sides)
    return path[len(path) // 2]


def _geo(view: dict[str, Any], tile: str) -> dict[str, Any]:
    return view["geometry"][tile]


_FIELD_ANCHORS: dict[str, dict[str, Pt]] = {}
_LABEL = 64


def _field_anchors(tile: str, geo: dict[str, Any]) -> dict[str, Pt]:
    """Where a farmer lies on each field of the printed tile: the deepest point of the field area
    (found by eroding a small label map of the tile)."""
    got = _FIELD_ANCHORS.get(tile)
    if got is not None:
        return got
    n = _LABEL
    lab = Image.new("L", (n, n), 0)
    d = ImageDraw.Draw(lab)
    for f in geo["features"]:
        if f["kind"] == "road":
            path = [(u * n, v * n) for u, v in _road_path(f["sides"])]
            d.line(path, fill=250, width=max(3, int(n * 0.16)), joint="curve")
    for f in geo["features"]:
        if f["kind"] == "city":
            poly, _, _, _ = _city_shape(f["sides"])
            d.polygon([(u * n, v * n) for u, v in poly], fill=251)
        elif f["kind"] in ("monastery", "ruins"):
            d.rectangle((0.3 * n, 0.26 * n, 0.7 * n, 0.74 * n), fill=252)
    roads = [f for f in geo["features"] if f["kind"] == "road"]
    if sum(1 for r in roads if len(r["sides"]) == 1) >= 2:
        d.rectangle((0.36 * n, 0.36 * n, 0.64 * n, 0.64 * n), fill=252)
    out: dict[str, Pt] = {}
    farms = [f for f in geo["features"] if f["kind"] == "farm"]
    for i, f in enumerate(farms):
        value = 10 + i
        for h in f["halves"]:
            hu, hv = HALF_POINT[h]
            # step inwards from the edge until we are on an unlabelled field pixel
            for step in range(1, 16):
                q = step / 32
                px = min(n - 1, max(0, int((hu + (0.5 - hu) * q) * n)))
                py = min(n - 1, max(0, int((hv + (0.5 - hv) * q) * n)))
                cur = lab.getpixel((px, py))
                if cur == value:
                    break
                if cur == 0:
                    ImageDraw.floodfill(lab, (px, py), value, thresh=0)
                    break
    for i, f in enumerate(farms):
        value = 10 + i
        mask = lab.point(lambda p, v=value: 255 if p == v else 0)
        ImageDraw.Draw(mask).rectangle((0, 0, n - 1, n - 1), outline=0, width=2)  # tile edges erode too
        last = mask
        while mask.getbbox() is not None:
            last = mask
            mask = mask.filter(ImageFilter.MinFilter(3))
        pts = [(x, y) for y in range(n) for x in range(n) if last.getpixel((x, y))]
        if not pts:
            hu, hv = HALF_POINT[f["halves"][0]]
            out[f["id"]] = (0.5 + (hu - 0.5) * 0.7, 0.5 + (hv - 0.5) * 0.7)
            continue
        cx = sum(p[0] for p in pts) / len(pts)
        cy = sum(p[1] for p in pts) / len(pts)
        bx, by = min(pts, key=lambda p: (p[0] - cx) ** 2 + (p[1] - cy) ** 2)
        out[f["id"]] = ((bx + 0.5) / n, (by + 0.5) / n)
    _FIELD_ANCHORS[tile] = out
    return out


def feature_anchor(view: dict[str, Any], tile: str, rot: int, fid: str) -> Pt:
    """Where a meeple stands on feature ``fid`` of ``tile`` laid with rotation ``rot`` (unit square)."""
    geo = _geo(view, tile)
    feat = next((f for f in geo["features"] if f["id"] == fid), None)
    if feat is None:
        return (0.5, 0.5)
    k = feat["kind"]
    if k == "city":
        p = _city_shape(feat["sides"])[2]
    elif k == "road":
        p = _road_anchor(feat["sides"])
    elif k == "farm":
        p = _field_anchors(tile, geo).get(fid, (0.5, 0.5))
    else:
        p = (0.5, 0.42)
    return turn(p, rot)


def direction(p: Pt, lang: str) -> str:
    dx, dy = p[0] - 0.5, p[1] - 0.5
    if math.hypot(dx, dy) < 0.13:
        return _word(lang, "dir.8")  # the centre
    ang = math.degrees(math.atan2(dx, -dy)) % 360  # 0 = north, clockwise
    return _word(lang, f"dir.{int((ang + 22.5) // 45) % 8}")


def spot_label(view: dict[str, Any], tile: str, rot: int, fid: str, lang: str) -> str:
    """'city (north)', 'campo (suroeste)', 'monastery'..."""
    geo = _geo(view, tile)
    feat = next((f for f in geo["features"] if f["id"] == fid), None)
    kind = feat["kind"] if feat else "road"
    name = kind_name(kind, lang)
    if kind in ("monastery", "ruins"):
        return name
    return f"{name} ({direction(feature_anchor(view, tile, rot, fid), lang)})"


def spot_where(view: dict[str, Any], tile: str, rot: int, fid: str, lang: str) -> str:
    """Where a meeple stands, with the article its language needs: 'on the city (north)', 'en el
    campo (suroeste)', 'no mosteiro'..."""
    geo = _geo(view, tile)
    feat = next((f for f in geo["features"] if f["id"] == fid), None)
    kind = feat["kind"] if feat else "road"
    where = _word(lang, f"on.{kind}") if kind in KINDS else kind
    if kind in ("monastery", "ruins"):
        return where
    return f"{where} ({direction(feature_anchor(view, tile, rot, fid), lang)})"


# -- drawing tiles ----------------------------------------------------------------------------------

TILE_SS = 3


_TILE_CACHE: dict[tuple[str, int, int], Image.Image] = {}


def tile_image(view: dict[str, Any], tile: str, rot: int, size: int) -> Image.Image:
    """The tile drawn ``size`` x ``size`` (RGB), turned ``rot`` quarter turns clockwise (buildings
    and pennants stay upright). Cached per (tile, rotation, size)."""
    key = (tile, rot % 4, size)
    img = _TILE_CACHE.get(key)
    if img is None:
        if len(_TILE_CACHE) > 2000:
            _TILE_CACHE.clear()
        img = _TILE_CACHE[key] = _draw_tile(_geo(view, tile), size, rot % 4)
    return img


def _draw_tile(geo: dict[str, Any], size: int, rot: int) -> Image.Image:
    s = size * TILE_SS
    img = Image.new("RGB", (s, s), FIELD)
    d = ImageDraw.Draw(img)

    def P(p: Pt) -> tuple[float, float]:
        q = turn(p, rot)
        return (q[0] * s, q[1] * s)

    feats = geo["features"]
    roads = [f for f in feats if f["kind"] == "road"]
    cities = [f for f in feats if f["kind"] == "city"]
    _tufts(d, s)
    rw = max(3, int(s * 0.11))
    edge = max(1, int(s * 0.022))
    for f in roads:
        d.line([P(p) for p in _road_path(f["sides"])], fill=ROAD_EDGE, width=rw + 2 * edge, joint="curve")
    for f in roads:
        path = [P(p) for p in _road_path(f["sides"])]
        d.line(path, fill=ROAD, width=rw, joint="curve")
        for q in (path[0], path[-1]):  # round the joints
            r = rw / 2
            if 0 < q[0] < s and 0 < q[1] < s:
                d.ellipse((q[0] - r, q[1] - r, q[0] + r, q[1] + r), fill=ROAD)
    if sum(1 for r in roads if len(r["sides"]) == 1) >= 2:  # a crossing: a little village
        _house(d, s, 0.5, 0.5, 0.26, VILLAGE_ROOF)
    wall_w = max(2, int(s * 0.05))
    for f in cities:
        poly, walls, _, pen = _city_shape(f["sides"])
        d.polygon([P(p) for p in poly], fill=CITY)
        _bricks(img, [P(p) for p in poly], s)
        for w in walls:
            d.line([P(p) for p in w], fill=WALL, width=wall_w, joint="curve")
        if geo.get("pennant"):
            _shield(d, P(pen), s * 0.17)
    for f in feats:
        if f["kind"] == "monastery":
            _monastery(d, s)
        elif f["kind"] == "ruins":
            _ruins(d, s)
    img = img.reduce(TILE_SS)
    d = ImageDraw.Draw(img, "RGBA")
    d.rectangle((0, 0, size - 1, size - 1), outline=(0, 0, 0, 70))
    return img


def _tufts(d: ImageDraw.ImageDraw, s: int) -> None:
    """Grass tufts scattered on the field (drawn first: roads and cities cover them)."""
    w = max(1, s // 70)
    for u, v in ((0.12, 0.2), (0.38, 0.1), (0.8, 0.16), (0.2, 0.62), (0.62, 0.36), (0.9, 0.58), (0.1, 0.9), (0.45, 0.8), (0.78, 0.88)):
        x, y, k = u * s, v * s, s * 0.035
        d.line((x - k, y - k, x, y + k * 0.4, x + k, y - k), fill=TUFT, width=w, joint="curve")


def _bricks(img: Image.Image, poly: list[tuple[float, float]], s: int) -> None:
    """A brick pattern inside a city's outline."""
    mask = Image.new("L", img.size, 0)
    ImageDraw.Draw(mask).polygon(poly, fill=255)
    img.paste(_brick_layer(s), (0, 0), mask)


@cached(64)
def _brick_layer(s: int) -> Image.Image:
    layer = Image.new("RGB", (s, s), CITY)
    d = ImageDraw.Draw(layer)
    bh, bw = s / 9, s / 5
    lw = max(1, s // 90)
    for row in range(10):
        y = row * bh
        d.line((0, y, s, y), fill=BRICK, width=lw)
        off = 0 if row % 2 == 0 else bw / 2
        for col in range(7):
            x = off + col * bw
            d.line((x, y, x, y + bh), fill=BRICK, width=lw)
    return layer


def _house(d: ImageDraw.ImageDraw, s: int, cx: float, cy: float, w: float, roof: tuple[int, int, int]) -> None:
    x0, x1 = (cx - w / 2) * s, (cx + w / 2) * s
    y0, y1 = (cy - w * 0.1) * s, (cy + w * 0.45) * s
    d.rectangle((x0, y0, x1, y1), fill=MONASTERY_WALL, outline=ROAD_EDGE, width=max(1, s // 90))
    d.polygon([((cx - w * 0.62) * s, y0 + 1), (cx * s, (cy - w * 0.6) * s), ((cx + w * 0.62) * s, y0 + 1)], fill=roof)


def _monastery(d: ImageDraw.ImageDraw, s: int) -> None:
    lw = max(1, s // 80)
    # body
    d.rectangle((0.3 * s, 0.44 * s, 0.7 * s, 0.74 * s), fill=MONASTERY_WALL, outline=(90, 70, 60), width=lw)
    # roof
    d.polygon([(0.24 * s, 0.46 * s), (0.5 * s, 0.26 * s), (0.76 * s, 0.46 * s)], fill=MONASTERY_ROOF, outline=(90, 30, 24))
    # cross on the roof
    d.line((0.5 * s, 0.12 * s, 0.5 * s, 0.27 * s), fill=(60, 40, 30), width=max(2, s // 45))
    d.line((0.44 * s, 0.17 * s, 0.56 * s, 0.17 * s), fill=(60, 40, 30), width=max(2, s // 45))
    # door
    d.rectangle((0.45 * s, 0.6 * s, 0.55 * s, 0.74 * s), fill=(92, 60, 40))
    d.ellipse((0.45 * s, 0.55 * s, 0.55 * s, 0.65 * s), fill=(92, 60, 40))


def _ruins(d: ImageDraw.ImageDraw, s: int) -> None:
    lw = max(1, s // 90)
    d.rectangle((0.2 * s, 0.66 * s, 0.8 * s, 0.74 * s), fill=RUINS, outline=(90, 88, 84), width=lw)
    for x, top in ((0.26, 0.34), (0.42, 0.46), (0.58, 0.3), (0.72, 0.52)):
        d.rectangle((x * s - 0.045 * s, top * s, x * s + 0.045 * s, 0.66 * s), fill=RUINS, outline=(90, 88, 84), width=lw)
    d.arc((0.26 * s, 0.22 * s, 0.58 * s, 0.5 * s), 180, 270, fill=(90, 88, 84), width=max(2, s // 40))


def _shield(d: ImageDraw.ImageDraw, c: tuple[float, float], w: float) -> None:
    x, y = c
    h = w * 1.15
    pts = [(x - w / 2, y - h / 2), (x + w / 2, y - h / 2), (x + w / 2, y + h * 0.05), (x, y + h / 2), (x - w / 2, y + h * 0.05)]
    d.polygon(pts, fill=PENNANT_FILL, outline=(250, 250, 250), width=max(1, int(w / 9)))
    d.line((x, y - h / 2 + w * 0.18, x, y + h / 2 - w * 0.22), fill=(250, 250, 250), width=max(1, int(w / 10)))


# -- meeples ---------------------------------------------------------------------------------------

_MEEPLE = [
    (0.5, 0.30), (0.78, 0.36), (0.99, 0.48), (0.95, 0.60), (0.70, 0.56), (0.88, 0.99), (0.60, 0.99),
    (0.5, 0.80), (0.40, 0.99), (0.12, 0.99), (0.30, 0.56), (0.05, 0.60), (0.01, 0.48), (0.22, 0.36),
]


#: The seat mark on a meeple's chest, as a fraction of the sprite: 0.5 keeps it at 8 px or more on
#: a phone for every meeple of :data:`MIN_MEEPLE` px or more on the 800 px pictures.
MARK_FRACTION = 0.58
MIN_MEEPLE = 36


def _mark_box(size: int) -> tuple[float, float, float]:
    """(centre x, centre y, radius) of the seat mark on a ``size`` px meeple sprite."""
    pad = max(2, size // 10)
    inner = size - 2 * pad
    return size / 2, pad + inner * 0.64, size * MARK_FRACTION / 2


@cached(256)
def meeple_sprite(colour: tuple[int, int, int], size: int, angle: int = 0, seat: int | None = None) -> Image.Image:
    """A meeple (RGBA, ``size`` px square) with a contrasting outline; ``angle`` in degrees
    (90 = lying down, a farmer); ``seat`` adds that seat's mark (see :data:`SEAT_MARKS`) on a round
    chest, half the sprite wide, so the seat reads by shape at a glance, not by colour alone."""
    pad = max(2, size // 10)
    inner = size - 2 * pad
    mx, my, mr = _mark_box(size)

    def paint(d: ImageDraw.ImageDraw, sc: int) -> None:
        o = pad * sc
        w = inner * sc
        d.polygon([(o + u * w, o + v * w) for u, v in _MEEPLE], fill=(255, 255, 255, 255))
        r = w * 0.17
        d.ellipse((o + w / 2 - r, o + w * 0.2 - r, o + w / 2 + r, o + w * 0.2 + r), fill=(255, 255, 255, 255))
        if seat is not None:  # the chest that carries the mark, with a rim of the seat's colour
            rr = (mr + size * 0.06) * sc
            d.ellipse((mx * sc - rr, my * sc - rr, mx * sc + rr, my * sc + rr), fill=(255, 255, 255, 255))

    marker(inner, "meeple")
    mask = supersampled(size, size, paint).getchannel("A")
    if angle:
        mask = mask.rotate(angle, resample=Image.Resampling.BICUBIC)
    halo = mask.filter(ImageFilter.MaxFilter(3 if size < 40 else 5))
    ring = meeple_ring(colour)
    out = Image.new("RGBA", (size, size), ring + (0,))
    out.putalpha(halo)
    body = Image.new("RGBA", (size, size), colour + (255,))
    out.paste(body, (0, 0), mask)
    if seat is not None:
        out.alpha_composite(_meeple_mark(seat, colour, size, angle))
    return out


def meeple_ring(colour: tuple[int, int, int]) -> tuple[int, int, int]:
    """The outline drawn around a meeple of ``colour``: light around dark meeples (black, red,
    blue: they would sink into a dark field), else dark."""
    from render.common import luminance

    return (235, 235, 235) if luminance(colour) < 0.2 else (20, 20, 20)


@cached(128)
def _meeple_mark(seat: int, colour: tuple[int, int, int], size: int, angle: int) -> Image.Image:
    """The seat's mark, on the meeple's chest, in black or white."""
    ink = ink_for(colour)
    mx, my, r = _mark_box(size)
    marker(2 * r, "seat mark")

    def paint(d: ImageDraw.ImageDraw, sc: int) -> None:
        draw_symbol(d, SEAT_MARKS[seat % len(SEAT_MARKS)], ((mx - r) * sc, (my - r) * sc, (mx + r) * sc, (my + r) * sc), ink, note=False)

    mark = supersampled(size, size, paint)
    return mark.rotate(angle, resample=Image.Resampling.BICUBIC) if angle else mark


@cached(64)
def spot_marker(n: int, size: int) -> Image.Image:
    """A numbered white disc with a dark ring: a meeple spot in the preview."""

    def paint(d: ImageDraw.ImageDraw, sc: int) -> None:
        d.ellipse((sc, sc, (size - 1) * sc, (size - 1) * sc), fill=(20, 20, 20, 235))
        m = 3 * sc
        d.ellipse((m, m, (size - 1) * sc - m + sc, (size - 1) * sc - m + sc), fill=(255, 255, 255, 245))

    marker(size, "meeple spot")
    img = supersampled(size, size, paint)
    text(ImageDraw.Draw(img), (size / 2, size / 2 + 1), str(n), int(size * 0.62), (20, 20, 20), anchor="mm", bold=True)
    return img


# -- the table ------------------------------------------------------------------------------------

W = 800  # seen at half size on a phone: texts of 20 px or more, meeples of 16 px or more
MARGIN = 16
MAX_BOARD_H = 1000
MIN_CELL = 44  # below this the public board becomes a viewport around the last tile
VIEW_CELL = 64
MAX_HAND_H = 1400  # the mover's picture may be taller: every legal place must show
MIN_HAND_CELL = 32


def _names(view: dict[str, Any], names: list[str] | None, lang: str) -> list[str]:
    n = len(view["scores"])
    out = []
    for i in range(n):
        raw = names[i] if names and i < len(names) else ""
        out.append(clean_text(raw, "") or _t(lang, "seat", n=i + 1))
    return out


def _extent(board: list[dict[str, Any]]) -> tuple[int, int, int, int]:
    xs = [b["x"] for b in board] or [0]
    ys = [b["y"] for b in board] or [0]
    return min(xs), min(ys), max(xs), max(ys)


class Frame:
    """Which cells are shown and where: cells x0..x0+cols-1, y0..y0+rows-1 at ``cell`` px."""

    def __init__(self, x0: int, y0: int, cols: int, rows: int, cell: int, left: int, top: int) -> None:
        self.x0, self.y0, self.cols, self.rows, self.cell, self.left, self.top = x0, y0, cols, rows, cell, left, top

    def xy(self, x: int, y: int) -> tuple[int, int]:
        return (self.left + (x - self.x0) * self.cell, self.top + (y - self.y0) * self.cell)

    def inside(self, x: int, y: int) -> bool:
        return self.x0 <= x < self.x0 + self.cols and self.y0 <= y < self.y0 + self.rows

    @property
    def width(self) -> int:
        return self.cols * self.cell

    @property
    def height(self) -> int:
        return self.rows * self.cell


def _choose_frame(
    ext: tuple[int, int, int, int], focus: tuple[int, int], width: int, max_h: int, min_cell: int, view_cell: int,
    max_cell: int = 124,
) -> tuple[int, int, int, int, int, bool]:
    """(x0, y0, cols, rows, cell, whole): the whole table (plus a one-cell border) when it fits at
    ``min_cell`` or more, else a viewport of ``view_cell`` cells centred on ``focus``."""
    x0, y0, x1, y1 = ext[0] - 1, ext[1] - 1, ext[2] + 1, ext[3] + 1
    cols, rows = x1 - x0 + 1, y1 - y0 + 1
    cell = min(max_cell, width // cols, max_h // rows)
    if cell >= min_cell:
        return x0, y0, cols, rows, cell, True
    cell = view_cell
    vc = min(cols, width // cell)
    vr = min(rows, max_h // cell)
    fx, fy = focus
    vx0 = min(max(fx - vc // 2, x0), x1 - vc + 1)
    vy0 = min(max(fy - vr // 2, y0), y1 - vr + 1)
    return vx0, vy0, vc, vr, cell, False


def _draw_cells(
    img: Image.Image,
    view: dict[str, Any],
    fr: Frame,
    *,
    last: tuple[int, int] | None,
    spots: set[tuple[int, int]] | None = None,
    ghost: tuple[str, int, int, int] | None = None,
    markers: list[tuple[str, int]] | None = None,
    ghost_meeple: tuple[str, int] | None = None,
    coords: bool = False,
    labels: dict[tuple[int, int], str] | None = None,
    since: set[tuple[int, int]] | None = None,
) -> None:
    """Tiles, meeples, last-tile frame, corners on the tiles laid since the viewer's last turn,
    legal spots, a ghost tile with markers, coordinates."""
    c = fr.cell
    d = ImageDraw.Draw(img)
    d.rectangle((fr.left, fr.top, fr.left + fr.width - 1, fr.top + fr.height - 1), fill=EMPTY)
    msize = max(MIN_MEEPLE, int(c * 0.42))
    arch = (view.get("medina") or {}).get("archaeologist")
    shown: list[dict[str, Any]] = []
    for b in view["board"]:
        x, y = b["x"], b["y"]
        if fr.inside(x, y):
            shown.append(b)
            paste_xy = fr.xy(x, y)
            img.paste(tile_image(view, b["tile"], b["rot"], c), paste_xy)
    # meeples after every tile (a lying farmer may overhang a little)
    for b in shown:
        if not b["meeples"]:
            continue
        px, py = fr.xy(b["x"], b["y"])
        for m in b["meeples"]:
            ax, ay = feature_anchor(view, b["tile"], b["rot"], m["feature"])
            angle = 0
            if m.get("farmer"):
                angle = 90
            elif m["feature"] == "ruins" and arch:
                angle = -90 * int(arch.get("uses", 0))
            spr = meeple_sprite(seat_colour(m["seat"]), msize, angle % 360, m["seat"])
            paste(img, spr, (px + ax * c - msize / 2, py + ay * c - msize / 2))
    da = ImageDraw.Draw(img, "RGBA")
    if spots:
        fs = max(20, min(40, int(c * 0.45)))
        for x, y in spots:
            if not fr.inside(x, y):
                continue
            px, py = fr.xy(x, y)
            da.rectangle((px + 2, py + 2, px + c - 3, py + c - 3), fill=(255, 255, 255, 60), outline=(255, 255, 255, 230), width=2)
            label = (labels or {}).get((x, y), "")
            if label:
                tw = d.textlength(label, font=_font(fs, True))
                bw, bh = max(tw + 8, fs * 1.15), fs * 1.2
                cx, cy = px + c / 2, py + c / 2
                da.rounded_rectangle((cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2), 5, fill=(255, 255, 255, 255), outline=(20, 20, 20, 255), width=2)
                marker(min(bw, bh), "place letter")
                text(d, (cx, cy + 1), label, fs, (20, 20, 20), anchor="mm", bold=True)
    if ghost:
        tile, gx, gy, rot = ghost
        if fr.inside(gx, gy):
            px, py = fr.xy(gx, gy)
            timg = tile_image(view, tile, rot, c)
            img.paste(timg, (px, py))
            lw = max(3, c // 22)
            d.rectangle((px - lw, py - lw, px + c + lw - 1, py + c + lw - 1), outline=(255, 255, 255), width=lw)
            ms = max(22, int(c * 0.17))
            for fid, n in markers or []:
                ax, ay = feature_anchor(view, tile, rot, fid)
                paste(img, spot_marker(n, ms), (px + ax * c - ms / 2, py + ay * c - ms / 2))
            if ghost_meeple:
                fid, seat = ghost_meeple
                geo = _geo(view, tile)
                farmer = any(f["id"] == fid and f["kind"] == "farm" for f in geo["features"])
                ax, ay = feature_anchor(view, tile, rot, fid)
                spr = meeple_sprite(seat_colour(seat), msize, 90 if farmer else 0, seat)
                paste(img, spr, (px + ax * c - msize / 2, py + ay * c - msize / 2))
    for sx, sy in sorted(since or ()):
        if fr.inside(sx, sy):
            px, py = fr.xy(sx, sy)
            corners(d, (px, py, px + c - 1, py + c - 1))
    if last and fr.inside(*last):
        px, py = fr.xy(*last)
        lw = max(3, c // 20)
        d.rectangle((px - 1, py - 1, px + c, py + c), outline=(20, 20, 20), width=1)
        d.rectangle((px, py, px + c - 1, py + c - 1), outline=LAST, width=lw)
    if coords:
        fs = max(13, min(20, int(c * 0.3)))
        step = 1 if c >= 34 else 2
        for i in range(0, fr.cols, step):
            x = fr.x0 + i
            cx = fr.left + i * c + c / 2
            text(d, (cx, fr.top - 6), str(x), fs, UI["muted"], anchor="ms")
            text(d, (cx, fr.top + fr.height + 6), str(x), fs, UI["muted"], anchor="ma")
        for j in range(0, fr.rows, step):
            y = fr.y0 + j
            cy = fr.top + j * c + c / 2
            text(d, (fr.left - 6, cy), str(y), fs, UI["muted"], anchor="rm")
            text(d, (fr.left + fr.width + 6, cy), str(y), fs, UI["muted"], anchor="lm")


def _font(size: int, bold: bool = False):
    from render.common import font

    return font(size, bold)


# -- overview map -----------------------------------------------------------------------------------

OV_FIELD, OV_CITY, OV_MON, OV_EMPTY, OV_LAST, OV_SPOT, OV_RUINS = range(7)
_OV_PALETTE = [FIELD, CITY, MONASTERY_ROOF, EMPTY, LAST, (255, 255, 255), RUINS]


@cached(64)
def _tile_class(tile: str, kinds: tuple[str, ...]) -> int:
    if "monastery" in kinds:
        return OV_MON
    if "ruins" in kinds:
        return OV_RUINS
    if "city" in kinds:
        return OV_CITY
    return OV_FIELD


def overview(
    view: dict[str, Any], box: int, fr: Frame | None, last: tuple[int, int] | None, spots: set[tuple[int, int]] | None
) -> Image.Image:
    """The whole table, one colour per tile (cities ochre, monasteries red, fields green), the
    last tile yellow, legal spots white, and the viewport framed."""
    ext = _extent(view["board"])
    x0, y0 = ext[0] - 1, ext[1] - 1
    cols, rows = ext[2] - x0 + 2, ext[3] - y0 + 2
    buf = bytearray([OV_EMPTY]) * (cols * rows)
    geos = view["geometry"]
    cls_cache: dict[str, int] = {}
    for b in view["board"]:
        t = b["tile"]
        k = cls_cache.get(t)
        if k is None:
            k = cls_cache[t] = _tile_class(t, tuple(f["kind"] for f in geos[t]["features"]))
        buf[(b["y"] - y0) * cols + (b["x"] - x0)] = k
    for sx, sy in spots or ():
        if 0 <= sx - x0 < cols and 0 <= sy - y0 < rows:
            buf[(sy - y0) * cols + (sx - x0)] = OV_SPOT
    small = Image.frombytes("P", (cols, rows), bytes(buf))
    pal: list[int] = []
    for col in _OV_PALETTE:
        pal.extend(col)
    small.putpalette(pal + [0] * (768 - len(pal)))
    scale = min(box / cols, box / rows)
    w, h = max(1, int(cols * scale)), max(1, int(rows * scale))
    big = small.convert("RGB").resize((w, h), Image.Resampling.NEAREST if scale >= 1 else Image.Resampling.BOX)
    d = ImageDraw.Draw(big)
    if last:
        lx, ly = (last[0] - x0 + 0.5) * scale, (last[1] - y0 + 0.5) * scale
        r = max(3, scale * 0.8)
        d.ellipse((lx - r, ly - r, lx + r, ly + r), fill=LAST, outline=(0, 0, 0))
    if fr is not None:
        d.rectangle(
            ((fr.x0 - x0) * scale, (fr.y0 - y0) * scale, (fr.x0 - x0 + fr.cols) * scale - 1, (fr.y0 - y0 + fr.rows) * scale - 1),
            outline=(255, 255, 255), width=2,
        )
    return big


# -- header and scores ------------------------------------------------------------------------------


def _last_xy(view: dict[str, Any]) -> tuple[int, int] | None:
    last = view.get("last")
    return (last["x"], last["y"]) if last else None


def _turn_line(view: dict[str, Any], names: list[str], lang: str) -> str:
    """Whose turn it is, or who won, in words."""
    if view["phase"] == "over":
        win = view.get("winner") or []
        who = " & ".join(names[s] for s in win)
        return _t(lang, "over") + (" — " + _t(lang, "wins" if len(win) == 1 else "win_many", names=who) if win else "")
    movers = [names[s] for s in view.get("to_move") or [] if 0 <= s < len(names)]
    return _t(lang, "to_move", name=", ".join(movers)) if movers else ""


def last_words(view: dict[str, Any], names: list[str], lang: str) -> str:
    """The last tile laid, in words (tile described, meeple spot named)."""
    last = view.get("last")
    if not last:
        return _t(lang, "no_last")
    name = names[last["seat"]] if 0 <= last["seat"] < len(names) else "?"
    tile = tile_words(view, last["tile"], lang)
    if last.get("meeple"):
        where = spot_where(view, last["tile"], last.get("rot", 0), last["meeple"], lang)
        return _t(lang, "last_meeple", name=name, tile=tile, where=where)
    return _t(lang, "last", name=name, tile=tile)


def _header_lines(view: dict[str, Any], names: list[str], lang: str) -> tuple[str, str, str]:
    """(tiles left and rules, whose turn, the last move) in words."""
    ed = view.get("rules", 3)
    edition = edition_words(ed, lang)
    parts = [_t(lang, "tiles_left", n=view["tiles_left"]), edition]
    if view.get("set_aside"):
        parts.append(_t(lang, "set_aside", n=len(view["set_aside"])))
    line2 = last_words(view, names, lang) if view["phase"] != "over" else ""
    return "  ·  ".join(parts), _turn_line(view, names, lang), line2


ROW_H = 50


def _score_rows(
    img: Image.Image, view: dict[str, Any], names: list[str], lang: str, x: int, y: int, width: int, you: int | None
) -> int:
    """The score strip: one row per seat (two columns when more than three seats). Returns the bottom."""
    d = ImageDraw.Draw(img)
    n = len(names)
    ncol = 1 if n <= 3 else 2
    colw = (width - (ncol - 1) * 12) // ncol
    rh = ROW_H
    per_col = (n + ncol - 1) // ncol
    to_move = set(view.get("to_move") or []) if view["phase"] != "over" else set()
    winners = set(view.get("winner") or [])
    holder = (view.get("medina") or {}).get("holder")
    for i in range(n):
        cx = x + (i // per_col) * (colw + 12)
        cy = y + (i % per_col) * rh
        bg = UI["panel_hi"] if i in to_move else UI["panel"]
        d.rounded_rectangle((cx, cy, cx + colw, cy + rh - 6), 10, fill=bg, outline=TURN if i in to_move else None, width=3)
        mid = cy + (rh - 6) / 2
        lx = cx + 6
        if i in to_move:  # an arrow: whose turn, not told by colour alone
            d.polygon([(lx, mid - 10), (lx + 14, mid), (lx, mid + 10)], fill=TURN)
            lx += 18
        paste(img, meeple_sprite(seat_colour(i), 38, 0, i), (lx, int(mid - 19)))
        score = str(view["scores"][i])
        sw = text(d, (cx + colw - 10, mid), score, 28, UI["text"], anchor="rm", bold=True)
        meeples = view["meeples"][i]
        mw = text(d, (cx + colw - 20 - sw, mid + 1), f"×{meeples}", 22, UI["muted"], anchor="rm")
        label = names[i] + (f" ({_t(lang, 'you')})" if you == i else "")
        if i in winners and view["phase"] == "over":
            label = "★ " + label
        if holder == i:
            label += " · " + _t(lang, "holds_medina")
        text(d, (lx + 44, mid), label, 24, UI["text"], anchor="lm", bold=i in to_move, max_width=cx + colw - lx - 44 - 30 - sw - mw)
    rows = per_col
    return y + rows * rh


def _results(img: Image.Image, view: dict[str, Any], names: list[str], lang: str, y: int) -> int:
    """Game over: points by kind, best first (ties share a place). Returns the bottom."""
    d = ImageDraw.Draw(img)
    rows = view.get("points_by_kind") or []
    n = len(names)
    order = sorted(range(n), key=lambda s: (-view["scores"][s], s))
    cols = _t(lang, "res_cols").split("|")
    d.rounded_rectangle((MARGIN, y, W - MARGIN, y + 76 + 40 * n + 8), 10, fill=UI["panel"])
    text(d, (MARGIN + 12, y + 24), _t(lang, "res_head"), 26, UI["accent"], anchor="lm", bold=True)
    xs = [W - MARGIN - 70 - 100 * k for k in range(4, -1, -1)]  # four kinds and the total
    for x, c in zip(xs, cols, strict=True):
        text(d, (x, y + 58), c, 20, UI["muted"], anchor="mm", max_width=96)
    y += 76
    place, prev = 0, None
    for k, s in enumerate(order):
        if view["scores"][s] != prev:
            place, prev = k + 1, view["scores"][s]
        b = rows[s] if s < len(rows) else {}
        ink = UI["good"] if place == 1 else UI["text"]
        cy = y + 20
        text(d, (MARGIN + 12, cy), f"{place}.", 22, ink, anchor="lm", bold=True)
        paste(img, meeple_sprite(seat_colour(s), MIN_MEEPLE, 0, s), (MARGIN + 42, int(cy - MIN_MEEPLE // 2)))
        text(d, (MARGIN + 80, cy), names[s], 22, ink, anchor="lm", bold=True, max_width=xs[0] - 60 - MARGIN - 80)
        for x, key in zip(xs, ("road", "city", "monastery", "farm"), strict=False):
            v = b.get(key, 0)
            text(d, (x, cy), str(v) if v else "–", 22, UI["text"] if v else UI["muted"], anchor="mm")
        text(d, (xs[-1], cy), str(view["scores"][s]), 24, ink, anchor="mm", bold=True)
        y += 40
    return y + 8


def results_height(n: int) -> int:
    return 76 + 40 * n + 8 + 16


def _top(
    view: dict[str, Any], names: list[str], lang: str, you: int | None, side: list[tuple[str, Image.Image]],
    note: str = "", note_max: int = 2,
) -> tuple[Image.Image, int]:
    """Title, tiles left, whose turn, the last move, the score strip, then the side panels (the
    drawn tile, the overview map) in a row, and an optional note line."""
    n = len(names)
    ncol = 1 if n <= 3 else 2
    # at game over the table of final scores (best first) comes right under the winner's name
    # instead of the score strip
    final = view["phase"] == "over" and bool(view.get("points_by_kind"))
    score_h = 0 if final else ((n + ncol - 1) // ncol) * ROW_H
    line1, turn, line2 = _header_lines(view, names, lang)
    lines2 = wrap(line2, 22, W - 2 * MARGIN)[:2] if line2 else []
    side_h = max((im.height + 34 for _, im in side), default=0)
    note_lines = wrap(note, 22, W - 2 * MARGIN)[:note_max] if note else []
    h = 48 + 36 + 30 * len(lines2) + 8 + score_h + (side_h + 8 if side else 0) + 30 * len(note_lines) + 6
    img = new_canvas(W, h)
    d = ImageDraw.Draw(img)
    tw = text(d, (MARGIN, 38), _t(lang, "title"), 30, UI["text"], anchor="ls", bold=True)
    text(d, (MARGIN + tw + 16, 36), line1, 20, UI["muted"], anchor="ls", max_width=W - 2 * MARGIN - tw - 16)
    y = 48
    if turn:
        if view["phase"] != "over":
            d.polygon([(MARGIN, y + 6), (MARGIN + 16, y + 16), (MARGIN, y + 26)], fill=TURN)
        text(d, (MARGIN + (24 if view["phase"] != "over" else 0), y + 16), turn, 26, TURN if view["phase"] != "over" else UI["accent"], anchor="lm", bold=True, max_width=W - 2 * MARGIN - 24)
    y += 36
    for ln in lines2:
        text(d, (MARGIN, y + 14), ln, 22, UI["text"], anchor="lm", max_width=W - 2 * MARGIN)
        y += 30
    y += 8
    if not final:
        y = _score_rows(img, view, names, lang, MARGIN, y, W - 2 * MARGIN, you)
    if side:
        x = MARGIN
        for title, im in side:
            text(d, (x, y + 22), title, 20, UI["muted"], anchor="ls", max_width=max(im.width, 200))
            img.paste(im, (x, y + 30))
            x += im.width + 24
        y += side_h + 8
    for ln in note_lines:
        text(d, (MARGIN, y + 14), ln, 22, UI["accent"], anchor="lm", max_width=W - 2 * MARGIN)
        y += 30
    return img, h


def _frame_for(cells: list[tuple[int, int]], max_h: int, min_cell: int) -> tuple[int, int, int, int, int] | None:
    """(x0, y0, cols, rows, cell) showing every cell of ``cells`` (the legal places already ring
    the table, so no border), or None when they do not fit at ``min_cell``."""
    xs = [c[0] for c in cells]
    ys = [c[1] for c in cells]
    x0, y0 = min(xs), min(ys)
    cols, rows = max(xs) - x0 + 1, max(ys) - y0 + 1
    cell = min(124, (W - 2 * MARGIN) // cols, max_h // rows)
    if cell < min_cell:
        return None
    return x0, y0, cols, rows, cell


def table_frame(
    view: dict[str, Any], spots: set[tuple[int, int]] | None = None, focus: tuple[int, int] | None = None,
) -> tuple[int, int, int, int, int, bool]:
    """(x0, y0, cols, rows, cell, whole) of the table shown: with ``spots`` (the mover's picture)
    a frame holding every place the tile fits when they fit at MIN_HAND_CELL, else the whole
    table or a viewport around ``focus`` / the last tile."""
    ext = _extent(view["board"])
    if spots:
        fit = _frame_for([(b["x"], b["y"]) for b in view["board"]] + list(spots), MAX_HAND_H, MIN_HAND_CELL)
        if fit is None:
            fit = _frame_for(list(spots), MAX_HAND_H, MIN_HAND_CELL)
        if fit is not None:
            x0, y0, cols, rows, cell = fit
            whole = x0 <= ext[0] and y0 <= ext[1] and x0 + cols > ext[2] and y0 + rows > ext[3]
            return x0, y0, cols, rows, cell, whole
    f = focus or _last_xy(view) or (0, 0)
    return _choose_frame(ext, f, W - 2 * MARGIN, MAX_BOARD_H, MIN_CELL, VIEW_CELL)


def _table(
    view: dict[str, Any], names: list[str] | None, lang: str, *, you: int | None = None,
    spots: set[tuple[int, int]] | None = None, show_tile: bool = False, focus: tuple[int, int] | None = None,
) -> Image.Image:
    nm = _names(view, names, lang)
    last = _last_xy(view)
    x0, y0, cols, rows, cell, whole = table_frame(view, spots, focus)
    side: list[tuple[str, Image.Image]] = []
    if show_tile:
        if view.get("tile"):
            side.append((_t(lang, "your_tile"), _tile_panel(view, [view["tile"]], lang)))
        elif view.get("hand"):
            side.append((_t(lang, "choose"), _tile_panel(view, view["hand"], lang)))
    board_fr = Frame(x0, y0, cols, rows, cell, 0, 0)
    if not whole:
        side.append((_t(lang, "overview"), overview(view, 200, board_fr, last, spots)))
    note = ""
    # tiles laid since the viewer's last turn (the catch-up picture adds them to the view): the
    # last one has the white frame, the others white corners; the caption counts them all
    laid = {(p[0], p[1]) for p in view.get("since") or ()}
    since = laid - {last}
    if spots:
        note = _t(lang, "spots", n=len(spots))
    elif laid:
        note = _t(lang, "since", n=len(laid))
    top, top_h = _top(view, nm, lang, you, side, note)
    over = view["phase"] == "over" and view.get("points_by_kind")
    res_h = results_height(len(nm)) if over else 0
    bw, bh = cols * cell, rows * cell
    left = (W - bw) // 2
    img = new_canvas(W, top_h + res_h + bh + 2 * MARGIN)
    img.paste(top, (0, 0))
    y = top_h
    if over:
        _results(img, view, nm, lang, y)
        y += res_h
    fr = Frame(x0, y0, cols, rows, cell, left, y + MARGIN)
    _draw_cells(img, view, fr, last=last, spots=spots, labels=place_labels(view) if spots else None, since=since)
    return img


def _tile_panel(view: dict[str, Any], tiles: list[str], lang: str) -> Image.Image:
    size = 130 if len(tiles) == 1 else 110
    one = len(tiles) == 1
    # one tile: its words beside it, wrapped into at most five lines (a three-sided city with a
    # shield and a crossroads needs the room)
    w = max(len(tiles) * size + (len(tiles) - 1) * 16, 340 if one else 0)
    img = new_canvas(w, size + (4 if len(tiles) == 1 else 34), UI["bg"])
    d = ImageDraw.Draw(img)
    for i, t in enumerate(tiles):
        x = i * (size + 16)
        img.paste(tile_image(view, t, 0, size), (x, 0))
        if len(tiles) == 1:
            lines = wrap(tile_words(view, t, lang), 20, w - size - 12)
            if len(lines) > 5:  # never a sentence that stops mid-way: the last line says it goes on
                lines = [*lines[:4], ellipsize(" ".join(lines[4:]), 20, w - size - 12)]
            for k, ln in enumerate(lines):
                text(d, (x + size + 12, 4 + 25 * k), ln, 20, UI["text"], anchor="la")
        else:
            text(d, (x + size / 2, size + 6), tile_name(t), 22, UI["text"], anchor="ma", bold=True)
    return img


# -- pictures of places, page by page (multi-page menus) and the one turn picture ---------------------

PAGE_CELL = 60  # a tile on a page picture: 30 px on a phone, its letter 13 px
AXIS_W, AXIS_H = 46, 30  # room for the coordinates on the picture's edges (20 px text)
PANEL_ROWS = 9  # rows of tiles in one panel at most


def _groups(cells: list[tuple[int, int]], max_cols: int, max_rows: int) -> list[list[tuple[int, int]]]:
    """``cells`` in groups whose bounding box fits ``max_cols`` x ``max_rows`` (nearest first),
    each drawn as one panel of the page picture."""
    left = sorted(cells, key=lambda c: (c[1], c[0]))
    out: list[list[tuple[int, int]]] = []
    while left:
        seed = left[0]
        group = [seed]
        x0 = x1 = seed[0]
        y0 = y1 = seed[1]
        for c in sorted(left[1:], key=lambda c: (abs(c[0] - seed[0]) + abs(c[1] - seed[1]), c[1], c[0])):
            nx0, nx1, ny0, ny1 = min(x0, c[0]), max(x1, c[0]), min(y0, c[1]), max(y1, c[1])
            if nx1 - nx0 + 1 <= max_cols and ny1 - ny0 + 1 <= max_rows:
                group.append(c)
                x0, x1, y0, y1 = nx0, nx1, ny0, ny1
        out.append(sorted(group, key=lambda c: (c[1], c[0])))
        taken = set(group)
        left = [c for c in left if c not in taken]
    return out


def _panel_frame(group: list[tuple[int, int]], max_cols: int, max_rows: int) -> tuple[int, int, int, int]:
    """(x0, y0, cols, rows): the group's box with a border of one tile where there is room."""
    xs = [c[0] for c in group]
    ys = [c[1] for c in group]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    cols, rows = x1 - x0 + 1, y1 - y0 + 1
    bx = min(2, max_cols - cols)
    by = min(2, max_rows - rows)
    return x0 - (bx + 1) // 2, y0 - (by + 1) // 2, cols + bx, rows + by


def _edge_coords(d: ImageDraw.ImageDraw, fr: Frame) -> None:
    """Column numbers (x) above and below the panel, row numbers (y) on both sides."""
    c = fr.cell
    for i in range(fr.cols):
        cx = fr.left + i * c + c / 2
        text(d, (cx, fr.top - 6), str(fr.x0 + i), 20, UI["muted"], anchor="ms", bold=True)
        text(d, (cx, fr.top + fr.height + 6), str(fr.x0 + i), 20, UI["muted"], anchor="ma", bold=True)
    for j in range(fr.rows):
        cy = fr.top + j * c + c / 2
        text(d, (fr.left - 8, cy), str(fr.y0 + j), 20, UI["muted"], anchor="rm", bold=True)
        text(d, (fr.left + fr.width + 8, cy), str(fr.y0 + j), 20, UI["muted"], anchor="lm", bold=True)


MAX_PANEL_CELL, MIN_PANEL_CELL = 80, 44
MAX_PANEL_H = 1000  # one panel for the whole set when it fits this high at MIN_PANEL_CELL or more

Panel = tuple[list[tuple[int, int]], Frame]


def _panels(cells: list[tuple[int, int]], top: int, room: int | None = None) -> list[Panel]:
    """Where the places go: one panel around them all (with a border of one tile) when it fits at
    MIN_PANEL_CELL or more, else groups of nearby places, one panel each, side by side and stacked
    (:func:`_shelves`): at PAGE_CELL, or with ``room`` (the height left for them) at the largest
    of PANEL_CELLS that fits it."""
    if not cells:
        return []
    room_w = W - 2 * MARGIN - 2 * AXIS_W
    xs = [c[0] for c in cells]
    ys = [c[1] for c in cells]
    cols, rows = max(xs) - min(xs) + 3, max(ys) - min(ys) + 3
    cell = min(MAX_PANEL_CELL, room_w // cols, MAX_PANEL_H // rows)
    if cell >= MIN_PANEL_CELL:
        fr = Frame(min(xs) - 1, min(ys) - 1, cols, rows, cell, (W - cols * cell) // 2, top + AXIS_H)
        return [(sorted(cells, key=lambda c: (c[1], c[0])), fr)]
    if room is not None:
        for size in PANEL_CELLS:
            out = _shelves(cells, top, size)
            if _panels_bottom(out, top) - top <= room:
                return out
    return _shelves(cells, top, PAGE_CELL)


PANEL_CELLS = (PAGE_CELL, 52, MIN_PANEL_CELL)  # tile sizes of panels side by side, largest first
PANEL_GAP = 8  # between two panels side by side, their row numbers aside


def _shelves(cells: list[tuple[int, int]], top: int, cell: int) -> list[Panel]:
    """Groups of nearby places, one panel each at ``cell`` px a tile: side by side while they fit
    the width (each with its row numbers on both sides), a new shelf under the tallest of the
    row; each shelf centred."""
    room_w = W - 2 * MARGIN - 2 * AXIS_W
    max_cols, max_rows = room_w // cell, PANEL_ROWS * PAGE_CELL // cell

    def width(box: tuple[int, int, int, int]) -> int:
        return box[2] * cell + 2 * AXIS_W + PANEL_GAP

    shelves: list[list[tuple[list[tuple[int, int]], tuple[int, int, int, int]]]] = [[]]
    for group in _groups(cells, max_cols, max_rows):
        box = _panel_frame(group, max_cols, max_rows)
        row = shelves[-1]
        if row and sum(width(b) for _, b in row) + width(box) > W - 2 * MARGIN:
            shelves.append(row := [])
        row.append((group, box))
    out: list[Panel] = []
    y = top
    for row in shelves:
        x = (W - sum(width(b) for _, b in row)) // 2
        for group, box in row:
            out.append((group, Frame(*box, cell, x + AXIS_W + PANEL_GAP // 2, y + AXIS_H)))
            x += width(box)
        y += max(b[3] for _, b in row) * cell + 2 * AXIS_H + 10
    return out


def _panels_bottom(panels: list[Panel], top: int) -> int:
    return max((fr.top + fr.height + AXIS_H + 10 for _, fr in panels), default=top)


def _draw_panels(
    img: Image.Image, view: dict[str, Any], panels: list[Panel], labels: dict[tuple[int, int], str],
    since: set[tuple[int, int]],
) -> dict[str, tuple[int, int]]:
    """Draw each panel's tiles with its places lettered and the tile numbers on its edges.
    Returns label -> centre of its letter."""
    last = _last_xy(view)
    where: dict[str, tuple[int, int]] = {}
    for group, fr in panels:
        _draw_cells(img, view, fr, last=last, spots=set(group), labels={c: labels[c] for c in group}, since=since)
        _edge_coords(ImageDraw.Draw(img), fr)
        for c in group:
            px, py = fr.xy(*c)
            where[labels[c]] = (px + fr.cell // 2, py + fr.cell // 2)
    return where


def places_image(
    view: dict[str, Any], cells: list[tuple[int, int]] | None, names: list[str] | None = None, lang: str = "en",
    labels: dict[tuple[int, int], str] | None = None, page: tuple[int, int] | None = None,
) -> tuple[Image.Image, dict[str, tuple[int, int]]]:
    """The part of the table around ``cells`` (the places of one menu page; None: every legal
    place) with each place lettered as in the menu (``labels``, default :func:`place_labels`),
    the tile numbers on the picture's edges (x above and below, y at the sides), the drawn tile,
    a small map of the whole table with the page's places in white, and the tiles laid since the
    viewer's last turn marked (``view["since"]``). Places far apart go in separate panels, so every
    place is drawn and lettered whatever the set. ``page`` = (page number from 0, pages) for the
    title. Returns the picture and where each letter is drawn (label -> (x, y) of its centre)."""
    with legible(W):
        return _places_image(view, cells, names, lang, labels, page)


def _places_image(
    view: dict[str, Any], cells: list[tuple[int, int]] | None, names: list[str] | None, lang: str,
    labels: dict[tuple[int, int], str] | None, page: tuple[int, int] | None,
) -> tuple[Image.Image, dict[str, tuple[int, int]]]:
    cells = sorted(legal_cells(view)) if cells is None else list(cells)
    labels = labels or place_labels(view)
    nm = _names(view, names, lang)
    last = _last_xy(view)
    laid = {(p[0], p[1]) for p in view.get("since") or ()}
    since = laid - {last}
    panels = _panels(cells, 0, _near_room(view))  # as drawn below, the top at its tallest
    side: list[tuple[str, Image.Image]] = []
    if view.get("tile"):
        side.append((_t(lang, "your_tile"), _tile_panel(view, [view["tile"]], lang)))
    ext = _extent(view["board"])
    whole = len(panels) == 1 and panels[0][1].inside(ext[0], ext[1]) and panels[0][1].inside(ext[2], ext[3])
    if not whole:  # where on the table this page's places are (white), when the panels do not show it all
        side.append((_t(lang, "overview"), overview(view, 200, panels[0][1] if len(panels) == 1 else None, last, set(cells))))
    ordered = sorted(cells, key=lambda c: (len(labels[c]), labels[c]))
    notes = []
    if ordered:
        first, final = labels[ordered[0]], labels[ordered[-1]]
        total = len(legal_cells(view))
        if page is not None and page[1] > 1:
            notes.append(_t(lang, "page", a=first, b=final, p=page[0] + 1, n=page[1], total=total))
        else:
            notes.append(_t(lang, "spots", n=total))
        notes.append(_t(lang, "edges"))
    if laid:
        notes.append(_t(lang, "since", n=len(laid)))
    top, top_h = _top(view, nm, lang, view.get("viewer"), side, " ".join(notes), note_max=4)
    panels = _panels(cells, top_h, PHONE_H - MARGIN - top_h)
    img = new_canvas(W, _panels_bottom(panels, top_h) + MARGIN)
    img.paste(top, (0, 0))
    return img, _draw_panels(img, view, panels, labels, since)


def turn_image(
    view: dict[str, Any], names: list[str] | None = None, lang: str = "en", page: int = 0, per_page: int = 23,
) -> tuple[Image.Image, dict[str, tuple[int, int]]]:
    """The one picture of a turn DM for the player to move: whose turn and the last move, the
    scores, the drawn tile, the tiles laid since the viewer's last turn (``view["since"]``, from
    the bot's ``mark_since``) and every place of menu page ``page`` lettered as in the menu
    (:func:`place_labels` with ``per_page``; :func:`place_pages` gives the pages), with tile
    numbers on the edges. Returns the picture and where each letter is drawn."""
    if not legal_cells(view):  # no place to choose (a tile to pick first, or not this seat's turn)
        with legible(W):
            img = _table(view, names, lang, you=view.get("viewer"), show_tile=True, focus=_last_xy(view))
        return img, {}
    pages = place_pages(view, per_page)
    if len(legal_cells(view)) > MENU_MAX:  # = place_labels(view, per_page), without paging twice
        labels = {c: letters(i) for i, c in enumerate(c for page in pages for c in page)}
    else:
        labels = place_labels(view)
    cells = pages[min(page, len(pages) - 1)] if pages else []
    return places_image(view, cells, names, lang, labels, (min(page, max(0, len(pages) - 1)), max(1, len(pages))))


def turn_png(view: dict[str, Any], names: list[str] | None = None, lang: str = "en", page: int = 0, per_page: int = 23) -> bytes:
    """PNG bytes of :func:`turn_image` (one picture per page of the place menu)."""
    return encode_png(turn_image(view, names, lang, page, per_page)[0])


# -- public API -------------------------------------------------------------------------------------


def board_image(view: dict[str, Any], names: list[str] | None, lang: str = "en") -> Image.Image:
    with legible(W):
        return _table(view, names, lang)


def board_png(view: dict[str, Any], names: list[str] | None, lang: str = "en") -> bytes:
    """The public table (same bytes for every viewer's view)."""
    return encode_png(board_image(view, names, lang))


def legal_cells(view: dict[str, Any]) -> set[tuple[int, int]]:
    return {(p["x"], p["y"]) for p in view.get("legal") or []}


def hand_image(view: dict[str, Any], names: list[str] | None = None, lang: str = "en") -> Image.Image:
    viewer = view.get("viewer")
    spots = legal_cells(view)
    with legible(W):
        return _table(view, names, lang, you=viewer, spots=spots or None, show_tile=True, focus=_last_xy(view))


def hand_png(view: dict[str, Any], names: list[str] | None = None, lang: str = "en") -> bytes:
    """For the player to move: the table with every place the drawn tile fits lettered (A, B, ...
    as in the bot's menu), and the tile."""
    return encode_png(hand_image(view, names, lang))


PREVIEW_W = 600


def _place_name(view: dict[str, Any], x: int, y: int, lang: str) -> str:
    label = place_labels(view, PER_PAGE).get((x, y))  # the menu's letter, pages or not
    return _t(lang, "place", label=label) if label else f"({x}, {y})"


def preview_image(
    view: dict[str, Any], names: list[str] | None, lang: str, x: int, y: int, rot: int,
    meeple: str | None = None, spots: list[str] | None = None, rots: list[int] | None = None,
) -> Image.Image:
    with legible(PREVIEW_W):
        return _preview_image(view, lang, x, y, rot, meeple, spots, rots)


THUMB_CELL = 44


def _preview_image(
    view: dict[str, Any], lang: str, x: int, y: int, rot: int, meeple: str | None, spots: list[str] | None,
    rots: list[int] | None = None,
) -> Image.Image:
    tile = view.get("tile") or "B"
    cell = 184  # the tile and its direct neighbours, large enough to read the spots on a phone
    cols, rows = 3, 3
    fr = Frame(x - cols // 2, y - rows // 2, cols, rows, cell, (PREVIEW_W - cols * cell) // 2, 84)
    others = [r for r in rots or [] if r != rot]
    strip = 3 * THUMB_CELL + 78 if others else 0
    img = new_canvas(PREVIEW_W, fr.top + fr.height + MARGIN + strip)
    d = ImageDraw.Draw(img)
    title = _t(lang, "preview", place=_place_name(view, x, y, lang), tile=tile_words(view, tile, lang), deg=90 * rot)
    text(d, (MARGIN, 36), title, 26, UI["text"], anchor="ls", bold=True, max_width=PREVIEW_W - 2 * MARGIN)
    viewer = view.get("viewer")
    if meeple:
        sub = _t(lang, "with_meeple", where=spot_where(view, tile, rot, meeple, lang))
    elif spots:
        sub = _t(lang, "meeple_spots")
    else:
        sub = ""
    text(d, (MARGIN, 70), sub, 22, UI["accent"], anchor="ls", max_width=PREVIEW_W - 2 * MARGIN)
    markers = [(fid, i + 1) for i, fid in enumerate(spots or [])] if not meeple else []
    _draw_cells(
        img, view, fr, last=_last_xy(view), ghost=(tile, x, y, rot), markers=markers,
        ghost_meeple=(meeple, viewer if viewer is not None else 0) if meeple else None,
    )
    if others:  # the other ways to turn it, small, to compare (chosen in the menu)
        top = fr.top + fr.height + MARGIN
        text(d, (MARGIN, top + 16), _t(lang, "other_rots"), 22, UI["muted"], anchor="lm", max_width=PREVIEW_W - 2 * MARGIN)
        pw, gap = 3 * THUMB_CELL, 16
        left = (PREVIEW_W - (len(others) * pw + (len(others) - 1) * gap)) // 2
        for i, r in enumerate(others):
            tf = Frame(x - 1, y - 1, 3, 3, THUMB_CELL, left + i * (pw + gap), top + 34)
            _draw_cells(img, view, tf, last=None, ghost=(tile, x, y, r))
            text(d, (tf.left + pw / 2, tf.top + pw + 4), f"{90 * r}°", 22, UI["accent"], anchor="ma", bold=True)
    return img


def preview_png(
    view: dict[str, Any], names: list[str] | None, lang: str, x: int, y: int, rot: int,
    meeple: str | None = None, spots: list[str] | None = None, rots: list[int] | None = None,
) -> bytes:
    """The table around (x, y) with the drawn tile laid there turned ``rot``: numbered meeple
    ``spots`` (feature ids, numbered from 1 in that order) or the chosen ``meeple``; with
    ``rots`` (the legal rotations there) the other ways to turn it, small, below."""
    return encode_png(preview_image(view, names, lang, x, y, rot, meeple, spots, rots))


ROT_W = 600


def rotations_image(view: dict[str, Any], lang: str, x: int, y: int, rots: list[int]) -> Image.Image:
    with legible(ROT_W):
        return _rotations_image(view, lang, x, y, rots)


def _rotations_image(view: dict[str, Any], lang: str, x: int, y: int, rots: list[int]) -> Image.Image:
    cell = 84
    pw = 3 * cell
    gap = 24
    n = max(1, len(rots))
    per_row = 1 if n == 1 else 2
    nrows = (n + per_row - 1) // per_row
    img = new_canvas(ROT_W, 56 + nrows * (pw + 48))
    d = ImageDraw.Draw(img)
    key = "rotations"
    text(d, (MARGIN, 38), _t(lang, key, place=_place_name(view, x, y, lang), n=len(rots)), 26, UI["text"], anchor="ls", bold=True, max_width=ROT_W - 2 * MARGIN)
    left = (ROT_W - (per_row * pw + (per_row - 1) * gap)) // 2
    for i, rot in enumerate(rots):
        top = 56 + (i // per_row) * (pw + 48)
        fr = Frame(x - 1, y - 1, 3, 3, cell, left + (i % per_row) * (pw + gap), top)
        _draw_cells(img, view, fr, last=None, ghost=(view.get("tile") or "B", x, y, rot), coords=False)
        text(d, (fr.left + pw / 2, top + pw + 6), f"{90 * rot}°", 26, UI["accent"], anchor="ma", bold=True)
    return img


def rotations_png(view: dict[str, Any], lang: str, x: int, y: int, rots: list[int]) -> bytes:
    """One 3x3 panel per rotation in ``rots`` with the drawn tile laid at (x, y), labelled in degrees."""
    return encode_png(rotations_image(view, lang, x, y, rots))


__all__ = [
    "SEAT_COLOURS", "board_image", "board_png", "feature_anchor", "hand_image", "hand_png", "legal_cells",
    "meeple_sprite", "overview", "place_pages", "places_image", "preview_image", "preview_png", "rotations_image",
    "rotations_png", "turn_image", "turn_png",
    "seat_colour", "spot_label", "tile_image", "ink_for", "mix", "place_labels", "tile_words", "last_words",
]
