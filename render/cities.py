"""Pictures for Cities, drawn only from an engine *view* dict (see engines.cities and docs/cities.md).

* :func:`board_png` - the table: the four rows (what is left, face-down items as "?", workers),
  the achievement board with its rings, and every neighbourhood with its spaces, stacked buildings
  (the height as a big number on a stack of layers), features and claimed achievements, plus the
  scores. A seat view and the public view give the same bytes (nothing in Cities is private).
* :func:`hood_png` - one neighbourhood alone, larger (the turn preview).
* :func:`turn_png` - the one picture of a turn DM (the table with the since-your-last-turn marks).
* The header tells the star holder, the bag and the last move in words (:func:`last_words`); a
  legend at the bottom explains the letters and marks; at game over a ranking replaces the rows.
  Seats are told by a shape each (circle, square, diamond, hexagon) with their number, not colour alone.

Original flat art, made to be read at 400 px wide on a phone (no text under 20 px on the 800 px
board, 10 px once shown 400 px wide): every space carries its letter (R B G Y city colours, P park,
W water) besides its colour, buildings their colour letter and height (one label, "R3", on the
board's 48 px spaces), features a white badge with a letter (water and park designs numbered 1-4, M monument,
* wild), so nothing depends on telling colours apart. Static component data (names, tile layouts)
comes from :mod:`engines.cities.components`. Texts: catalogs/<lang>/cities.po (English, Spanish, Portuguese).
"""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from catalogs import lookup
from engines.cities.components import (
    DESIGN_BG,
    DESIGN_INDEX,
    DESIGNS,
    FEATURE_DESIGN,
    FEATURE_INDEX,
    ROTATED,
    SPACE_LETTERS,
    SPACE_TYPES,
    TILE_INDEX,
)
from render.common import (
    PALETTE,
    UI,
    corners,
    encode_png,
    ink_for,
    legible,
    marker,
    mix,
    new_canvas,
    pill,
    text,
    text_width,
    wrap,
)

W = 800
MARGIN = 14

SPACE_FILL = {
    "red": mix(PALETTE["red"], (255, 255, 255), 0.55),
    "blue": mix(PALETTE["blue"], (255, 255, 255), 0.6),
    "green": mix(PALETTE["green"], (255, 255, 255), 0.6),
    "yellow": mix(PALETTE["yellow"], (255, 255, 255), 0.45),
    "park": (120, 170, 90),
    "water": (70, 150, 215),
}
BUILD_FILL = {c: PALETTE[c] for c in ("red", "blue", "green", "yellow")}
LETTER = dict(zip(SPACE_TYPES, SPACE_LETTERS, strict=True))
#: Seat colours, apart under typical vision and simulated deuteranopia, protanopia and tritanopia
#: (worst pairwise CIE76 distance >= 28: tests/render/test_colour_blind.py); each seat also has
#: its own shape (:data:`SEAT_SHAPES`) with its number inside, so no seat is told by colour alone.
SEAT_COLOURS = [(255, 200, 60), (86, 180, 233), (192, 96, 64), (192, 224, 160)]
SEAT_SHAPES = ("circle", "square", "diamond", "hexagon")


def seat_token(d: ImageDraw.ImageDraw, seat: int, cx: float, cy: float, size: int, low: int, what: str = "seat token") -> None:
    """A seat's marker: its shape in its colour, outlined, with its number inside."""
    import math

    colour = SEAT_COLOURS[seat % 4]
    shape = SEAT_SHAPES[seat % 4]
    r = size / 2
    edge = (20, 20, 20)
    if shape == "circle":
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=colour, outline=edge, width=2)
    elif shape == "square":
        q = r * 0.9
        d.rectangle((cx - q, cy - q, cx + q, cy + q), fill=colour, outline=edge, width=2)
    elif shape == "diamond":
        q = r * 1.12
        d.polygon([(cx, cy - q), (cx + q, cy), (cx, cy + q), (cx - q, cy)], fill=colour, outline=edge, width=2)
    else:
        pts = [(cx + r * math.cos(math.radians(60 * i)), cy + r * math.sin(math.radians(60 * i))) for i in range(6)]
        d.polygon(pts, fill=colour, outline=edge, width=2)
    marker(size, what)
    text(d, (cx, cy), str(seat + 1), max(low, 20), ink_for(colour), anchor="mm", bold=True)

DOMAIN = "cities"  # the words: catalogs/<lang>/cities.po ("pic." keys, and the components' "name." keys)


def _t(lang: str, key: str, **kw: Any) -> str:
    """A text of the pictures in ``lang`` (English when the language has none), its plural form
    chosen by its count, formatted with ``kw``."""
    text = lookup(lang, "pic." + key, kw, domain=DOMAIN) or lookup("en", "pic." + key, kw, domain=DOMAIN) or key
    return text.format(**kw)


def legend_lines(lang: str) -> list[str]:
    """The legend's lines: the rows, the space letters, the marks, the rings."""
    return [_t(lang, f"legend.{k}") for k in range(1, 5)]


def name(key: str, lang: str = "en") -> str:
    """A component in words (a card, an achievement, a board, a feature design or feature tile,
    ``colour:red``, ``space:park``); tile ids name themselves."""
    if lookup("en", "name." + key, {}, domain=DOMAIN) is None and key in FEATURE_INDEX:
        key = DESIGNS[FEATURE_DESIGN[FEATURE_INDEX[key]]]
    return lookup(lang, "name." + key, {}, domain=DOMAIN) or lookup("en", "name." + key, {}, domain=DOMAIN) or key


def _who(names: list[str], seat: int | None, lang: str) -> str:
    if seat is None:
        return "-"
    return names[seat] if seat < len(names) else _t(lang, "seat", n=seat + 1)


def _feature_mark(fid: str) -> str:
    d = DESIGN_INDEX.get(fid) if fid in DESIGN_INDEX else FEATURE_DESIGN[FEATURE_INDEX[fid]]
    design = DESIGNS[d]
    if design == "monument":
        return "M"
    if design == "wild":
        return "*"
    same_bg = [k for k in range(len(DESIGNS)) if DESIGN_BG[k] == DESIGN_BG[d]]
    return str(same_bg.index(d) + 1)


# ---------------------------------------------------------------------------------------------
# Pieces of drawing


def _space(d: ImageDraw.ImageDraw, box: tuple[int, int, int, int], sp: dict[str, Any], low: int = 10) -> None:
    """One space; ``low`` is the smallest text size the picture may use (the phone floor)."""
    x0, y0, x1, y1 = box
    s = x1 - x0
    kind = sp["type"]
    fill = SPACE_FILL[kind]
    d.rectangle(box, fill=fill, outline=mix(fill, (0, 0, 0), 0.35))
    ink = ink_for(fill)
    height = sp.get("height") or 0
    feature = sp.get("feature")
    if kind in ("park", "water") or not height:
        text(d, (x0 + 3, y0 + 1), LETTER[kind], max(low, s // 4), mix(ink, fill, 0.35), anchor="la", bold=True)
    if feature and not height:
        r = max(s * 0.3, low * 0.8)
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2 + s * 0.08
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(250, 250, 245), outline=(40, 40, 40))
        marker(2 * r, "feature badge")
        text(d, (cx, cy), _feature_mark(feature), max(low, int(r * 1.3)), (30, 30, 30), anchor="mm", bold=True)
    if height:
        colour = BUILD_FILL[sp["colour"]]
        edge = mix(colour, (0, 0, 0), 0.45)
        pad = max(3, s // 9)
        step = max(2, s // 14)
        # a stack of layers, offset up-left: the taller the stack, the more layers show
        for k in range(height):
            off = (height - 1 - k) * step
            bx0, by0 = x0 + pad + off, y0 + pad + off
            d.rectangle((bx0, by0, bx0 + s - 2 * pad - (height - 1) * step, by0 + s - 2 * pad - (height - 1) * step),
                        fill=mix(colour, (255, 255, 255), 0.12 * (height - 1 - k)), outline=edge, width=2)
        top = x0 + pad, y0 + pad, x1 - pad - (height - 1) * step, y1 - pad - (height - 1) * step
        tink = ink_for(colour)
        cx, cy = (top[0] + top[2]) / 2, (top[1] + top[3]) / 2
        if s // 4 >= low:  # room for the colour letter in the corner and a big height
            text(d, (cx, cy + s * 0.06), str(height), max(low, int(s * 0.42)), tink, anchor="mm", bold=True)
            text(d, (top[0] + 3, top[1] + 1), LETTER[sp["colour"]], max(low, s // 4), tink, anchor="la", bold=True)
        else:  # a small space: colour letter and height as one label ("R3")
            text(d, (cx, cy), LETTER[sp["colour"]] + str(height), max(low, int(s * 0.34)), tink, anchor="mm", bold=True)
        if feature:  # a wild space under a building: a badge in the bottom-right corner
            r = max(s * 0.18, low * 0.6)
            cx, cy = x1 - r - 1, y1 - r - 1
            d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(250, 250, 245), outline=(40, 40, 40))
            marker(2 * r, "wild badge under a building")
            text(d, (cx, cy + r * 0.15), _feature_mark(feature), max(low, int(r * 1.3)), (30, 30, 30), anchor="mm",
                 bold=True)


def _hood(player: dict[str, Any], cols: int, rows: int, cell: int, low: int = 10,
          new: tuple[set[tuple[int, int]], set[tuple[int, int]]] = (set(), set())) -> Image.Image:
    """A neighbourhood drawn on a grid of ``cols`` x ``rows`` tiles of 2x2 spaces of ``cell`` px;
    ``new``: (tiles, spaces) to mark with corners."""
    tiles = player.get("tiles") or []
    img = Image.new("RGB", (cols * 2 * cell, rows * 2 * cell), UI["panel"])
    if not tiles:
        return img
    d = ImageDraw.Draw(img)
    xs = [t["x"] for t in tiles]
    ys = [t["y"] for t in tiles]
    w = (max(xs) - min(xs) + 1) * 2 * cell
    h = (max(ys) - min(ys) + 1) * 2 * cell
    ox = (img.width - w) // 2 - 2 * min(xs) * cell
    oy = (img.height - h) // 2 - 2 * min(ys) * cell
    for sp in player.get("spaces") or []:
        x, y = ox + sp["x"] * cell, oy + sp["y"] * cell
        _space(d, (x, y, x + cell - 1, y + cell - 1), sp, low)
    for t in tiles:  # tile edges, thicker than space edges
        x, y = ox + 2 * t["x"] * cell, oy + 2 * t["y"] * cell
        d.rectangle((x, y, x + 2 * cell - 1, y + 2 * cell - 1), outline=UI["bg"], width=3)
    new_tiles, new_spaces = new
    for tx, ty in sorted(new_tiles):
        x, y = ox + 2 * tx * cell, oy + 2 * ty * cell
        corners(d, (x + 2, y + 2, x + 2 * cell - 3, y + 2 * cell - 3))
    for sx, sy in sorted(new_spaces):
        x, y = ox + sx * cell, oy + sy * cell
        corners(d, (x + 1, y + 1, x + cell - 2, y + cell - 2))
    return img


def hood_image(player: dict[str, Any], size: int = 360, max_size: tuple[int, int] = (3, 3)) -> Image.Image:
    """One neighbourhood on a square of ``size`` pixels (a tile grid of the largest allowed size)."""
    tiles = player.get("tiles") or []
    img = Image.new("RGB", (size, size), UI["panel"])
    if not tiles:
        return img
    d = ImageDraw.Draw(img)
    xs = [t["x"] for t in tiles]
    ys = [t["y"] for t in tiles]
    span = max(max(max_size), max(xs) - min(xs) + 1, max(ys) - min(ys) + 1)
    cell = size // (2 * span)
    w = (max(xs) - min(xs) + 1) * 2 * cell
    h = (max(ys) - min(ys) + 1) * 2 * cell
    ox = (size - w) // 2 - 2 * min(xs) * cell
    oy = (size - h) // 2 - 2 * min(ys) * cell
    for sp in player.get("spaces") or []:
        x, y = ox + sp["x"] * cell, oy + sp["y"] * cell
        _space(d, (x, y, x + cell - 1, y + cell - 1), sp)
    for t in tiles:  # tile edges, thicker than space edges
        x, y = ox + 2 * t["x"] * cell, oy + 2 * t["y"] * cell
        d.rectangle((x, y, x + 2 * cell - 1, y + 2 * cell - 1), outline=UI["bg"], width=3)
    return img


def _mini_tile(d: ImageDraw.ImageDraw, x: int, y: int, s: int, tile: str, low: int = 8) -> None:
    spaces = ROTATED[TILE_INDEX[tile]][0]
    half = s // 2
    for q, st in enumerate(spaces):
        kind = SPACE_TYPES[st]
        bx, by = x + (q & 1) * half, y + (q >> 1) * half
        fill = SPACE_FILL[kind]
        d.rectangle((bx, by, bx + half - 1, by + half - 1), fill=fill, outline=mix(fill, (0, 0, 0), 0.35))
        text(d, (bx + half / 2, by + half / 2), LETTER[kind], max(low, half // 2), ink_for(fill), anchor="mm", bold=True)


def _item(img: Image.Image, d: ImageDraw.ImageDraw, row: str, item: str, x: int, y: int, h: int, lang: str,
          low: int = 8) -> int:
    """Draw one row item at (x, y) of height h; returns its width."""
    if row == "A":
        label = name(item, lang)
        w = SLOT_W - 12
        d.rounded_rectangle((x, y, x + w, y + h), radius=6, fill=(245, 240, 225), outline=(90, 80, 60))
        words = label.split()
        if len(words) > 1 and len(label) > 11:  # two lines, as large as they fit
            half = (len(words) + 1) // 2
            for k, line in enumerate((" ".join(words[:half]), " ".join(words[half:]))):
                text(d, (x + w / 2, y + h * (0.3 + 0.4 * k)), line, max(low, 20), (30, 30, 30), anchor="mm",
                     bold=True, max_width=w - 8)
        else:
            text(d, (x + w / 2, y + h / 2), label, max(low, 22), (30, 30, 30), anchor="mm", bold=True, max_width=w - 8)
        return w
    if row == "B":
        _mini_tile(d, x, y, h, item, low)
        return h
    if row == "C":
        design = DESIGNS[FEATURE_DESIGN[FEATURE_INDEX[item]]]
        bg = DESIGN_BG[DESIGN_INDEX[design]]
        fill = SPACE_FILL["water"] if bg == 5 else SPACE_FILL["park"] if bg == 4 else (175, 175, 175)
        d.rectangle((x, y, x + h, y + h), fill=fill, outline=(40, 40, 40))
        r = h * 0.32
        d.ellipse((x + h / 2 - r, y + h / 2 - r, x + h / 2 + r, y + h / 2 + r), fill=(250, 250, 245), outline=(40, 40, 40))
        text(d, (x + h / 2, y + h / 2), _feature_mark(item), max(low, int(r * 1.3)), (30, 30, 30), anchor="mm", bold=True)
        return h
    s = min(int(h * 0.7), (SLOT_W - 12) // 4 - 4)  # four pieces fit a slot
    colour = BUILD_FILL[item]
    d.rectangle((x, y + (h - s) // 2, x + s, y + (h - s) // 2 + s), fill=colour, outline=mix(colour, (0, 0, 0), 0.45), width=2)
    text(d, (x + s / 2, y + h / 2), LETTER[item], max(low, int(s * 0.6)), ink_for(colour), anchor="mm", bold=True)
    return s


def _hidden(d: ImageDraw.ImageDraw, x: int, y: int, h: int, label: str = "?") -> int:
    w = max(h, 14 * len(label) + 10)
    d.rounded_rectangle((x, y, x + w, y + h), radius=6, fill=(70, 70, 90), outline=(150, 150, 170))
    text(d, (x + w / 2, y + h / 2), label, int(h * 0.5), (230, 230, 240), anchor="mm", bold=True)
    return w


# ---------------------------------------------------------------------------------------------
# The board


ROW_H = 76
LABEL_W = 56
SLOT_W = (W - 2 * MARGIN - LABEL_W) // 4
CELL = 48  # a neighbourhood space on the board: its letters are the phone floor (20 px at 800 px)
LINE_H = 26


def _pack(items: list[str], size: int, max_width: int, sep: str = " · ") -> list[str]:
    """Whole items joined with ``sep`` into as few lines of ``max_width`` as they fit (an item is
    never split across lines)."""
    lines: list[str] = []
    cur = ""
    for it in items:
        cand = cur + sep + it if cur else it
        if cur and text_width(cand, size) > max_width:
            lines.append(cur)
            cur = it
        else:
            cur = cand
    if cur:
        lines.append(cur)
    return lines


def _pack_tight(items: list[str], size: int, max_width: int, sep: str = " · ") -> list[str]:
    """Items whose order means nothing (the scoring cards) in as few lines as they fit: the widest
    first, each on the first line with room for it (languages with longer names stay short)."""
    lines: list[str] = []
    for it in sorted(items, key=lambda t: -text_width(t, size)):
        for k, line in enumerate(lines):
            if text_width(line + sep + it, size) <= max_width:
                lines[k] = line + sep + it
                break
        else:
            lines.append(it)
    return lines


def _panel_lines(p: dict[str, Any], view: dict[str, Any], lang: str, size: int,
                 width: int) -> list[tuple[str, tuple[int, int, int]]]:
    """The text under a neighbourhood: score parts, points per scoring card, achievements."""
    score = p["score"]
    parts = [f"{_t(lang, 'parts.' + k)} {score[k]}" for k in ("achievements", "cards", "water", "park", "monuments")]
    out = [(line, UI["muted"]) for line in _pack(parts, size, width)]
    cards = [f"{name(c, lang)} {pts}" for c, pts in score.get("per_card", {}).items()]
    out += [(line, UI["text"]) for line in _pack_tight(cards, size, width)]
    achs = [name(a, lang) for a in p.get("achievements") or []]
    pending = view.get("pending") or {}
    if pending and pending.get("seat") == p["seat"]:
        items = [*([pending["tile"]] if pending.get("tile") else []), *pending.get("features", []),
                 *(LETTER[c] for c in pending.get("pieces", []))]
        hold = _t(lang, "holding", items=" ".join(name(i, lang) for i in items))
        out += [(line, UI["text"]) for line in _pack(hold.split(" "), size, width, " ")]
    if achs:
        out += [(line, UI["good"]) for line in _pack(["★ " + achs[0], *achs[1:]], size, width)]
    new = sum(len(marks) for marks in _new_in(view, p["seat"]))
    if new:
        line = _t(lang, "new_since", n=new)
        out += [(ln, UI["text"]) for ln in _pack(line.split(" "), size, width, " ")]
    return out


def _new_in(view: dict[str, Any], seat: int) -> tuple[set[tuple[int, int]], set[tuple[int, int]]]:
    """(tiles, spaces) of ``seat``'s neighbourhood new since the viewer's last turn (the catch-up
    picture adds ``since`` to the view: [seat, "tile" | "space", x, y])."""
    tiles, spaces = set(), set()
    for who, what, x, y in view.get("since") or ():
        if who == seat:
            (tiles if what == "tile" else spaces).add((x, y))
    return tiles, spaces


def _thing(item: str, lang: str) -> str:
    """A card, feature or achievement by name; a city tile as "a city tile" (its id means nothing
    on the picture)."""
    return _t(lang, "a_tile") if item in TILE_INDEX else name(item, lang)


def last_words(view: dict[str, Any], names: list[str], lang: str) -> str:
    """The last move in words ("Carla put Tree on space (-4, 1)"), or "" before the first."""
    last = view.get("last")
    if not last:
        return ""
    who = _who(names, last.get("seat"), lang)
    act = last.get("action")
    if act == "take":
        items = last.get("items") or []
        words = [name("colour:" + i, lang) if last.get("row") == "D" else _thing(i, lang) for i in items]
        return _t(lang, "last_take", name=who, slot=int(last.get("slot", 0)) + 1, row=last.get("row", "?"),
                                     items=", ".join(words) or "?")
    if act == "tile":
        return _t(lang, "last_tile", name=who, tile=last["tile"], x=last["x"], y=last["y"])
    if act == "feature":
        return _t(lang, "last_feature", name=who, feature=name(last["feature"], lang), x=last["x"], y=last["y"])
    if act == "build":
        return _t(lang, "last_build", name=who, colour=name("colour:" + last["colour"], lang), x=last["x"], y=last["y"],
                                      height=last["height"])
    if act == "decline":
        item = last.get("item", "?")
        return _t(lang, "last_decline", name=who, item=name("colour:" + item, lang) if item in BUILD_FILL else _thing(item, lang))
    if act == "start":
        return _t(lang, "last_start", name=who, tile=last.get("tile", "?"))
    return ""


RES_HEAD, RES_ROW = 80, 40
RES_PARTS = ("achievements", "cards", "water", "park", "monuments")


def _results(img: Image.Image, d: ImageDraw.ImageDraw, view: dict[str, Any], names: list[str], lang: str,
             y: int, low: int) -> int:
    """Game over: the players best first (ties share a place) with their points by kind. Returns
    the bottom."""
    players = view["players"]
    n = len(players)
    total = {p["seat"]: p["score"]["total"] for p in players}
    order = sorted(total, key=lambda s: (-total[s], s))
    winners = set(view.get("winner") or [])
    d.rounded_rectangle((MARGIN, y, W - MARGIN, y + RES_HEAD + RES_ROW * n + 8), 10, fill=UI["panel"])
    text(d, (MARGIN + 12, y + 24), _t(lang, "res_head"), 26, UI["accent"], anchor="lm", bold=True)
    heads = _t(lang, "res_cols").split("|")
    xs = [W - MARGIN - 50 - 88 * k for k in range(len(heads) - 1, -1, -1)]
    for x, head in zip(xs, heads, strict=True):
        text(d, (x, y + 60), head, max(low, 20), UI["muted"], anchor="mm", max_width=86)
    y += RES_HEAD
    place, prev = 0, None
    by_seat = {p["seat"]: p for p in players}
    for k, s in enumerate(order):
        if total[s] != prev:
            place, prev = k + 1, total[s]
        ink = UI["good"] if s in winners else UI["text"]
        cy = y + RES_ROW / 2
        text(d, (MARGIN + 12, cy), f"{place}.", 22, ink, anchor="lm", bold=True)
        seat_token(d, s, MARGIN + 60, cy, 30, low, "seat")
        text(d, (MARGIN + 84, cy), _who(names, s, lang), 22, ink, anchor="lm", bold=True, max_width=xs[0] - 50 - MARGIN - 84)
        score = by_seat[s]["score"]
        for x, key in zip(xs, RES_PARTS, strict=False):
            v = score.get(key, 0)
            text(d, (x, cy), str(v) if v else "–", 22, UI["text"] if v else UI["muted"], anchor="mm")
        text(d, (xs[-1], cy), str(total[s]), 24, ink, anchor="mm", bold=True)
        y += RES_ROW
    return y + 16


def board_image(view: dict[str, Any], names: list[str], lang: str = "en") -> Image.Image:
    with legible(W) as low:
        return _board(view, names, lang, low)


def _board(view: dict[str, Any], names: list[str], lang: str, low: int) -> Image.Image:
    n = view["seats"]
    max_size = tuple(view.get("max_size") or (3, 3))
    # neighbourhoods: two a row when a 3x3 one fits half the width, else one a row (the long variant)
    cols = 2 if max(max_size) * 2 * CELL <= (W - 3 * MARGIN) // 2 - 8 else 1
    pw = (W - (cols + 1) * MARGIN) // cols
    grids = {}
    for p in view["players"]:
        if cols == 2:  # the full width, and only as many tile rows as the neighbourhood has yet
            ts = p.get("tiles") or [{"x": 0, "y": 0}]
            grids[p["seat"]] = (max(max_size), max(x["y"] for x in ts) - min(x["y"] for x in ts) + 1)
        else:  # 5x3 or 3x5, as the neighbourhood already lies
            ts = p.get("tiles") or [{"x": 0, "y": 0}]
            tall = (max(x["y"] for x in ts) - min(x["y"] for x in ts)) > (max(x["x"] for x in ts) - min(x["x"] for x in ts))
            big, small = max(max_size), min(max_size)
            grids[p["seat"]] = (small, big) if tall else (big, small)
    lines = {p["seat"]: _panel_lines(p, view, lang, low,
                                     pw - 20 if cols == 2 or grids[p["seat"]][0] * 2 * CELL > pw / 2
                                     else pw - grids[p["seat"]][0] * 2 * CELL - 36)
             for p in view["players"]}

    def panel_h(seat: int) -> int:
        gw, gh = grids[seat]
        side = cols == 1 and gw * 2 * CELL <= pw / 2  # the text beside a tall neighbourhood
        body = max(gh * 2 * CELL, len(lines[seat]) * LINE_H) if side else gh * 2 * CELL + 8 + len(lines[seat]) * LINE_H
        return 44 + body + 12

    panel_rows = [[p["seat"] for p in view["players"] if p["seat"] // cols == r] for r in range((n + cols - 1) // cols)]
    row_hs = [max(panel_h(s) for s in seats) for seats in panel_rows]
    # header: round and who is to move; the star and the bag beside it, or on a second line
    title = _t(lang, "round", r=view["round"], n=view["rounds"])
    over = view["phase"] == "over"
    if over:
        win = view.get("winner") or []
        msg = _t(lang, "over") + " · " + _t(lang, "wins", names=" & ".join(_who(names, s, lang) for s in win))
        info = ""
    else:
        mover = (view.get("to_move") or [None])[0]
        msg = _t(lang, "to_move", name=_who(names, mover, lang))
        if view["phase"] == "start":
            msg += " · " + _t(lang, "start")
        info = _t(lang, "star", name=_who(names, view.get("star"), lang)) + " · " + _t(lang, "bag", n=view.get("bag", 0))
    line_h = 56
    # under the title: the star and the bag, then the last move in words (wrapped, up to 2 lines)
    info_lines = [(info, UI["muted"])] if info else []
    if view.get("since"):  # the catch-up picture: what the white corners mean, once
        info_lines.append((_t(lang, "since_head"), UI["text"]))
    last = last_words(view, names, lang)
    if last:
        info_lines += [(ln, UI["text"]) for ln in wrap(_t(lang, "last", what=last), low, W - 2 * MARGIN)[:2]]
    header_h = line_h + LINE_H * len(info_lines) + (8 if info_lines else 0)
    # the legend of letters and marks, at the bottom (the rows' line only while there are rows)
    items = [item for k, item in enumerate(legend_lines(lang)) if not (over and k == 0)]
    legend = [ln for item in items for ln in wrap(item, low, W - 2 * MARGIN)]
    legend_h = LINE_H * len(legend) + 12
    # with an odd number of neighbourhoods in two columns, the legend takes the empty place
    # beside the last one when it fits there (a shorter picture)
    beside: list[str] = []
    if cols == 2 and len(panel_rows[-1]) == 1:
        beside = [ln for item in items for ln in wrap(item, low, pw - 20)]
        if LINE_H * len(beside) + 12 <= row_hs[-1]:
            legend_h = 0
        else:
            beside = []
    # at game over the ranking comes first, in place of the rows (nothing is left to take)
    rows_h = 4 * (ROW_H + 8) if not over else RES_HEAD + RES_ROW * n + 16
    board_h = 3 * 40 + 12
    H = header_h + rows_h + board_h + sum(h + 10 for h in row_hs) + legend_h + MARGIN
    img = new_canvas(W, H)
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, W, header_h), fill=UI["panel"])
    x = MARGIN + text(d, (MARGIN, line_h / 2), title, 26, UI["text"], anchor="lm", bold=True) + 16
    pill(img, (x, line_h // 2), msg, 22, UI["accent"], anchor="lm", max_width=W - x - MARGIN)
    for k, (line, ink) in enumerate(info_lines):
        text(d, (MARGIN, line_h + LINE_H * k + LINE_H / 2), line, low, ink, anchor="lm", max_width=W - 2 * MARGIN)
    if not beside:
        ly = H - MARGIN - legend_h + 6
        d.line((MARGIN, ly - 4, W - MARGIN, ly - 4), fill=UI["line"], width=1)
        for k, line in enumerate(legend):
            text(d, (MARGIN, ly + LINE_H * k + LINE_H / 2), line, low, UI["muted"], anchor="lm", max_width=W - 2 * MARGIN)
    else:
        lx, ly = MARGIN + pw + MARGIN + 10, H - MARGIN - row_hs[-1] - 10 + 6
        for k, line in enumerate(beside):
            text(d, (lx, ly + LINE_H * k + LINE_H / 2), line, low, UI["muted"], anchor="lm", max_width=pw - 20)
    # rows (A cards, B tiles, C features, D pieces: the row letter in front)
    y = header_h + 8
    ih = ROW_H - 16
    if over:
        y = _results(img, d, view, names, lang, y, low)
    for row in view["rows"] if not over else []:
        r = row["row"]
        d.rounded_rectangle((MARGIN, y, W - MARGIN, y + ROW_H), radius=8, fill=UI["panel"])
        text(d, (MARGIN + LABEL_W / 2 - 2, y + ROW_H / 2), r, 34, UI["accent"], anchor="mm", bold=True)
        for k, slot in enumerate(row["slots"]):
            sx = MARGIN + LABEL_W + k * SLOT_W
            d.line((sx - 4, y + 6, sx - 4, y + ROW_H - 6), fill=UI["line"], width=1)
            ix = sx
            iy = y + 8
            for item in slot["items"]:
                if ix > sx + SLOT_W - 20:
                    break
                ix += _item(img, d, r, item, ix, iy, ih, lang, low) + 4
            for _ in range(slot.get("hidden", 0)):
                ix += _hidden(d, ix, iy, ih) + 4
            if slot.get("star") and slot.get("worker") is None:
                ix += _hidden(d, ix, iy, ih, _t(lang, "draw2")) + 4
            if slot.get("star"):
                text(d, (sx + SLOT_W - 10, y + 16), "★", 24, UI["accent"], anchor="rm")
            w = slot.get("worker")
            if w is not None:
                seat_token(d, w, sx + SLOT_W - 26, y + ROW_H - 22, 34, low, "worker")
        y += ROW_H + 8
    # achievement board: rings with their points; a claimed ring takes its player's colour and number
    for a in view["board"]["achievements"]:
        text(d, (MARGIN, y + 18), name(a["id"], lang), 22, UI["text"], anchor="lm", bold=True, max_width=300)
        rx = 330
        for ring in a["rings"]:
            seat = ring["seat"]
            fill = (90, 90, 100) if ring["covered"] else SEAT_COLOURS[seat % 4] if seat is not None else UI["panel_hi"]
            d.ellipse((rx, y + 1, rx + 34, y + 35), fill=fill, outline=UI["line"], width=2)
            marker(34, "achievement ring")
            label = "x" if ring["covered"] else str(ring["value"])
            text(d, (rx + 17, y + 18), label, max(low, 20), ink_for(fill), anchor="mm", bold=True)
            if seat is not None:  # who claimed it: the seat's own marker beside the ring
                seat_token(d, seat, rx + 52, y + 18, 26, low, "ring owner")
            rx += 70
        y += 40
    y += 12
    # neighbourhoods
    for r, seats in enumerate(panel_rows):
        for p in (view["players"][s] for s in seats):
            col = p["seat"] % cols
            px = MARGIN + col * (pw + MARGIN)
            py = y
            ph = row_hs[r]
            colour = SEAT_COLOURS[p["seat"] % 4]
            d.rounded_rectangle((px, py, px + pw, py + ph), radius=10, fill=UI["panel"],
                                outline=colour if p["seat"] in (view.get("to_move") or []) else UI["line"], width=3)
            score = p["score"]
            seat_token(d, p["seat"], px + 23, py + 21, 30, low, "seat")
            text(d, (px + 46, py + 21), _who(names, p["seat"], lang), 24, UI["text"], anchor="lm", bold=True,
                 max_width=pw - 170)
            text(d, (px + pw - 10, py + 21), _t(lang, "pts", n=score["total"]), 26, UI["accent"], anchor="rm", bold=True)
            gw, gh = grids[p["seat"]]
            hood = _hood(p, gw, gh, CELL, low, _new_in(view, p["seat"]))
            side = cols == 1 and hood.width <= pw / 2
            hx = px + 10 if side else px + (pw - hood.width) // 2
            img.paste(hood, (hx, py + 44))
            tx, ty = (hx + hood.width + 16, py + 44) if side else (px + 10, py + 44 + hood.height + 8)
            for k, (line, ink) in enumerate(lines[p["seat"]]):
                text(d, (tx, ty + k * LINE_H + LINE_H / 2), line, low, ink, anchor="lm", max_width=px + pw - 10 - tx)
        y += row_hs[r] + 10
    return img


def board_png(view: dict[str, Any], names: list[str], lang: str = "en") -> bytes:
    """The table picture (PNG bytes). ``names[i]`` is seat i's display name."""
    return encode_png(board_image(view, names, lang))


def hood_png(view: dict[str, Any], seat: int, size: int = 480) -> bytes:
    """One neighbourhood alone (e.g. the turn preview), ``size`` pixels square."""
    player = view["players"][seat]
    return encode_png(hood_image(player, size, tuple(view.get("max_size") or (3, 3))))  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------------------
# Turn steps (bot/games/cities.py): candidate places lettered, the rotations of a city tile


def marked_hood_image(view: dict[str, Any], seat: int, marks: dict[tuple[int, int], str] | None = None,
                      unit: str = "space", focus: tuple[int, int] | None = None, size: int = 400,
                      caption: str | None = None, min_span: int | None = None,
                      window: tuple[int, int, int, int] | None = None, axes: bool = True,
                      where: dict[str, tuple[float, float]] | None = None) -> Image.Image:
    """One neighbourhood with letters on the places the mover may choose (all of them, whatever
    page of the menu they are on: a neighbourhood has at most 36 spaces); ``where`` (a dict to
    fill) gets each label's centre on the picture.

    ``marks`` maps a place to its label: space coordinates (``unit="space"``) or tile cells
    (``unit="tile"``: free cells drawn as dashed outlines with the letter in the middle). ``focus``
    (a space, or a tile cell) gets a thick frame: the item just previewed there. ``caption`` is a
    line of text under the picture; ``min_span`` (tiles) zooms in on a small neighbourhood;
    ``window`` (tile cells x0, y0, x1, y1, inclusive) draws only that part of it. Axis numbers
    (space coordinates; ``axes``) run along the top and left, so
    typed moves' (x, y) can be read off the picture."""
    marks = marks or {}
    player = view["players"][seat]
    tiles = player.get("tiles") or []
    spaces = player.get("spaces") or []
    if window is not None:
        wx0, wy0, wx1, wy1 = window
        tiles = [t for t in tiles if wx0 <= t["x"] <= wx1 and wy0 <= t["y"] <= wy1]
        spaces = [sp for sp in spaces if wx0 <= sp["x"] // 2 <= wx1 and wy0 <= sp["y"] // 2 <= wy1]
    cells = [(t["x"], t["y"]) for t in tiles] + ([window[:2], window[2:]] if window is not None else [])
    if unit == "tile":
        cells += list(marks)
    if focus is not None and unit == "tile":
        cells.append(focus)
    if not cells:
        cells = [(0, 0)]
    max_size = tuple(view.get("max_size") or (3, 3))
    xs = [c[0] for c in cells]
    ys = [c[1] for c in cells]
    span = max(max(max_size) if min_span is None else min_span, max(xs) - min(xs) + 1, max(ys) - min(ys) + 1)
    axis = 26 if axes else 0
    cap_h = 44 if caption else 0
    cell = (size - axis - 6) // (2 * span)
    img = Image.new("RGB", (size, size + cap_h), UI["panel"])
    d = ImageDraw.Draw(img)
    w = (max(xs) - min(xs) + 1) * 2 * cell
    h = (max(ys) - min(ys) + 1) * 2 * cell
    ox = axis + (size - axis - w) // 2 - 2 * min(xs) * cell
    oy = axis + (size - axis - h) // 2 - 2 * min(ys) * cell
    for sp in spaces:
        x, y = ox + sp["x"] * cell, oy + sp["y"] * cell
        _space(d, (x, y, x + cell - 1, y + cell - 1), sp)
    for t in tiles:
        x, y = ox + 2 * t["x"] * cell, oy + 2 * t["y"] * cell
        d.rectangle((x, y, x + 2 * cell - 1, y + 2 * cell - 1), outline=UI["bg"], width=3)
    # axis numbers (space coordinates)
    for sx in range(2 * min(xs), 2 * max(xs) + 2) if axes else ():
        text(d, (ox + sx * cell + cell / 2, axis / 2), str(sx), 15, UI["muted"], anchor="mm", bold=True)
    for sy in range(2 * min(ys), 2 * max(ys) + 2) if axes else ():
        text(d, (axis / 2, oy + sy * cell + cell / 2), str(sy), 15, UI["muted"], anchor="mm", bold=True)
    accent = UI["accent"]
    for (mx, my), label in marks.items():
        if unit == "tile":
            x, y, s = ox + 2 * mx * cell, oy + 2 * my * cell, 2 * cell
            for k in range(0, s, 12):  # a dashed outline
                d.line((x + k, y + 2, x + min(k + 6, s), y + 2), fill=accent, width=3)
                d.line((x + k, y + s - 3, x + min(k + 6, s), y + s - 3), fill=accent, width=3)
                d.line((x + 2, y + k, x + 2, y + min(k + 6, s)), fill=accent, width=3)
                d.line((x + s - 3, y + k, x + s - 3, y + min(k + 6, s)), fill=accent, width=3)
            r = max(16, cell // 3)
        else:
            x, y, s = ox + mx * cell, oy + my * cell, cell
            r = max(12, cell // 5)
        cx, cy = x + s - r - 1, y + s - r - 1  # bottom-right corner: the space letter and height stay visible
        if unit == "tile":
            cx, cy = x + s / 2, y + s / 2
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=accent, outline=(20, 20, 20), width=2)
        text(d, (cx, cy), label, int(r * 1.3), ink_for(accent), anchor="mm", bold=True)
        if where is not None:
            where[label] = (cx, cy)
    if focus is not None:
        fx, fy = focus
        s = 2 * cell if unit == "tile" else cell
        x, y = ox + fx * s, oy + fy * s
        d.rectangle((x - 2, y - 2, x + s + 1, y + s + 1), outline=(255, 255, 255), width=4)
        d.rectangle((x - 5, y - 5, x + s + 4, y + s + 4), outline=(20, 20, 20), width=2)
    if caption:
        text(d, (size / 2, size + cap_h / 2), caption, 26, UI["text"], anchor="mm", bold=True, max_width=size - 16)
    return img


def marked_hood_png(view: dict[str, Any], seat: int, marks: dict[tuple[int, int], str] | None = None,
                    unit: str = "space", focus: tuple[int, int] | None = None, size: int = 400,
                    caption: str | None = None) -> bytes:
    return encode_png(marked_hood_image(view, seat, marks, unit, focus, size, caption))


def rotations_png(views: list[tuple[str, dict[str, Any]]], seat: int, cell: tuple[int, int], size: int = 400) -> bytes:
    """Previews of a city tile laid on ``cell`` turned each legal way: ``views`` are (caption,
    previewed view) pairs, drawn in a 2-column sheet (one column for a single way). Each preview
    shows a window of 2x2 tiles: the new tile and the neighbours it touches most (large enough to
    read on a phone, where the sheet is shown about half size)."""
    tiles = {(t["x"], t["y"]) for t in views[0][1]["players"][seat]["tiles"]}
    cx, cy = cell
    windows = [(x0, y0, x0 + 1, y0 + 1) for y0 in (cy - 1, cy) for x0 in (cx - 1, cx)]
    window = max(windows, key=lambda w: sum(1 for x, y in tiles if w[0] <= x <= w[2] and w[1] <= y <= w[3]))
    pics = [marked_hood_image(v, seat, focus=cell, unit="tile", size=size, caption=c, min_span=2, window=window, axes=False)
            for c, v in views]
    cols = 1 if len(pics) == 1 else 2
    rows_n = (len(pics) + cols - 1) // cols
    pw, ph = pics[0].size
    gap = 8
    img = new_canvas(cols * pw + (cols - 1) * gap, rows_n * ph + (rows_n - 1) * gap)
    for k, p in enumerate(pics):
        img.paste(p, ((k % cols) * (pw + gap), (k // cols) * (ph + gap)))
    return encode_png(img)


def turn_image(view: dict[str, Any], names: list[str], lang: str = "en") -> Image.Image:
    """The one picture of a turn DM: the table as on the board (nothing in Cities is private),
    with what the others placed since the viewer's last turn marked (``view["since"]``, from the
    bot's ``mark_since``). The place step shows :func:`marked_hood_image` instead, every legal
    space lettered: no second copy of the board."""
    return board_image(view, names, lang)


def turn_png(view: dict[str, Any], names: list[str], lang: str = "en") -> bytes:
    """PNG bytes of :func:`turn_image`."""
    return encode_png(turn_image(view, names, lang))
