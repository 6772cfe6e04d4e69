"""Pictures for Cities, drawn only from an engine *view* dict (see engines.cities and docs/cities.md).

* :func:`board_png` - the table: the four rows (what is left, face-down items as "?", workers),
  the achievement board with its rings, and every neighbourhood with its spaces, stacked buildings
  (the height as a big number on a stack of layers), features and claimed achievements, plus the
  scores. A seat view and the public view give the same bytes (nothing in Cities is private).
* :func:`hood_png` - one neighbourhood alone, larger (the turn preview).

Original flat art, made to be read at 400 px wide on a phone: every space carries its letter
(R B G Y city colours, P park, W water) besides its colour, buildings their colour letter and
height, features a white badge with a letter (water and park designs numbered 1-4, M monument,
* wild), so nothing depends on telling colours apart. Static component data (names, tile layouts)
comes from :mod:`engines.cities.components`. Texts in English ("en") and Spanish ("es").
"""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

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
    name,
)
from render.common import PALETTE, UI, encode_png, ink_for, mix, new_canvas, pill, text

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
SEAT_COLOURS = [(255, 200, 60), (86, 180, 233), (204, 121, 167), (150, 220, 120)]

TEXTS: dict[str, dict[str, str]] = {
    "en": {
        "round": "Round {r}/{n}",
        "to_move": "{name} to move",
        "start": "choosing starting tiles",
        "over": "Game over",
        "wins": "{names} wins",
        "star": "star: {name}",
        "bag": "bag {n}",
        "rows": {"A": "A cards", "B": "B tiles", "C": "C features", "D": "D pieces"},
        "hidden": "?",
        "draw2": "+2 ?",
        "pts": "{n} VP",
        "breakdown": "rings {a} · cards {c} · water {w} · park {p} · monuments {m}",
        "holding": "holding: {items}",
        "seat": "Player {n}",
    },
    "es": {
        "round": "Ronda {r}/{n}",
        "to_move": "le toca a {name}",
        "start": "eligiendo losetas iniciales",
        "over": "Fin de la partida",
        "wins": "gana {names}",
        "star": "estrella: {name}",
        "bag": "bolsa {n}",
        "rows": {"A": "A cartas", "B": "B losetas", "C": "C características", "D": "D piezas"},
        "hidden": "?",
        "draw2": "+2 ?",
        "pts": "{n} PV",
        "breakdown": "logros {a} · cartas {c} · agua {w} · parque {p} · monumentos {m}",
        "holding": "tiene: {items}",
        "seat": "Jugador {n}",
    },
}


def _t(lang: str) -> dict[str, Any]:
    return TEXTS.get(lang, TEXTS["en"])


def _who(names: list[str], seat: int | None, lang: str) -> str:
    if seat is None:
        return "-"
    return names[seat] if seat < len(names) else _t(lang)["seat"].format(n=seat + 1)


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


def _space(d: ImageDraw.ImageDraw, box: tuple[int, int, int, int], sp: dict[str, Any]) -> None:
    x0, y0, x1, y1 = box
    s = x1 - x0
    kind = sp["type"]
    fill = SPACE_FILL[kind]
    d.rectangle(box, fill=fill, outline=mix(fill, (0, 0, 0), 0.35))
    ink = ink_for(fill)
    height = sp.get("height") or 0
    feature = sp.get("feature")
    if kind in ("park", "water") or not height:
        text(d, (x0 + 3, y0 + 1), LETTER[kind], max(10, s // 4), mix(ink, fill, 0.35), anchor="la", bold=True)
    if feature:
        r = s * 0.3
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2 + (s * 0.08 if not height else 0)
        if height:  # a wild space under a building: a small badge in the corner
            r = s * 0.18
            cx, cy = x1 - r - 1, y0 + r + 1
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(250, 250, 245), outline=(40, 40, 40))
        text(d, (cx, cy), _feature_mark(feature), max(10, int(r * 1.3)), (30, 30, 30), anchor="mm", bold=True)
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
        text(d, (cx, cy + s * 0.06), str(height), max(10, int(s * 0.42)), tink, anchor="mm", bold=True)
        text(d, (top[0] + 3, top[1] + 1), LETTER[sp["colour"]], max(10, s // 4), tink, anchor="la", bold=True)


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


def _mini_tile(d: ImageDraw.ImageDraw, x: int, y: int, s: int, tile: str) -> None:
    spaces = ROTATED[TILE_INDEX[tile]][0]
    half = s // 2
    for q, st in enumerate(spaces):
        kind = SPACE_TYPES[st]
        bx, by = x + (q & 1) * half, y + (q >> 1) * half
        fill = SPACE_FILL[kind]
        d.rectangle((bx, by, bx + half - 1, by + half - 1), fill=fill, outline=mix(fill, (0, 0, 0), 0.35))
        text(d, (bx + half / 2, by + half / 2), LETTER[kind], max(8, half // 2), ink_for(fill), anchor="mm", bold=True)


def _item(img: Image.Image, d: ImageDraw.ImageDraw, row: str, item: str, x: int, y: int, h: int, lang: str) -> int:
    """Draw one row item at (x, y) of height h; returns its width."""
    if row == "A":
        label = name(item, lang)
        w = SLOT_W - 12
        d.rounded_rectangle((x, y, x + w, y + h), radius=6, fill=(245, 240, 225), outline=(90, 80, 60))
        words = label.split()
        if len(words) > 1 and len(label) > 11:  # two lines, as large as they fit
            half = (len(words) + 1) // 2
            for k, line in enumerate((" ".join(words[:half]), " ".join(words[half:]))):
                text(d, (x + w / 2, y + h * (0.3 + 0.4 * k)), line, 17, (30, 30, 30), anchor="mm",
                     bold=True, max_width=w - 8)
        else:
            text(d, (x + w / 2, y + h / 2), label, 18, (30, 30, 30), anchor="mm", bold=True, max_width=w - 8)
        return w
    if row == "B":
        _mini_tile(d, x, y, h, item)
        return h
    if row == "C":
        design = DESIGNS[FEATURE_DESIGN[FEATURE_INDEX[item]]]
        bg = DESIGN_BG[DESIGN_INDEX[design]]
        fill = SPACE_FILL["water"] if bg == 5 else SPACE_FILL["park"] if bg == 4 else (175, 175, 175)
        d.rectangle((x, y, x + h, y + h), fill=fill, outline=(40, 40, 40))
        r = h * 0.32
        d.ellipse((x + h / 2 - r, y + h / 2 - r, x + h / 2 + r, y + h / 2 + r), fill=(250, 250, 245), outline=(40, 40, 40))
        text(d, (x + h / 2, y + h / 2), _feature_mark(item), int(r * 1.3), (30, 30, 30), anchor="mm", bold=True)
        return h
    s = int(h * 0.7)
    colour = BUILD_FILL[item]
    d.rectangle((x, y + (h - s) // 2, x + s, y + (h - s) // 2 + s), fill=colour, outline=mix(colour, (0, 0, 0), 0.45), width=2)
    text(d, (x + s / 2, y + h / 2), LETTER[item], int(s * 0.6), ink_for(colour), anchor="mm", bold=True)
    return s


def _hidden(d: ImageDraw.ImageDraw, x: int, y: int, h: int, label: str = "?") -> int:
    w = max(h, 14 * len(label) + 10)
    d.rounded_rectangle((x, y, x + w, y + h), radius=6, fill=(70, 70, 90), outline=(150, 150, 170))
    text(d, (x + w / 2, y + h / 2), label, int(h * 0.5), (230, 230, 240), anchor="mm", bold=True)
    return w


# ---------------------------------------------------------------------------------------------
# The board


ROW_H = 66
SLOT_W = (W - 2 * MARGIN - 112) // 4
HOOD = 372
PANEL_H = HOOD + 128


def board_image(view: dict[str, Any], names: list[str], lang: str = "en") -> Image.Image:
    t = _t(lang)
    n = view["seats"]
    panels_rows = (n + 1) // 2
    header_h = 56
    rows_h = 4 * (ROW_H + 8)
    board_h = 3 * 32 + 16
    H = header_h + rows_h + board_h + panels_rows * (PANEL_H + 10) + MARGIN
    img = new_canvas(W, H)
    d = ImageDraw.Draw(img)
    # header
    d.rectangle((0, 0, W, header_h), fill=UI["panel"])
    title = t["round"].format(r=view["round"], n=view["rounds"])
    x = MARGIN + text(d, (MARGIN, header_h / 2), title, 26, UI["text"], anchor="lm", bold=True) + 16
    if view["phase"] == "over":
        win = view.get("winner") or []
        msg = t["over"] + " · " + t["wins"].format(names=" & ".join(_who(names, s, lang) for s in win))
        pill(img, (x, header_h // 2), msg, 20, UI["accent"], anchor="lm", max_width=W - x - MARGIN)
    else:
        mover = (view.get("to_move") or [None])[0]
        msg = t["to_move"].format(name=_who(names, mover, lang))
        if view["phase"] == "start":
            msg += " · " + t["start"]
        x = pill(img, (x, header_h // 2), msg, 20, UI["accent"], anchor="lm", max_width=W - x - 220)[2] + 12
        info = t["star"].format(name=_who(names, view.get("star"), lang)) + " · " + t["bag"].format(n=view.get("bag", 0))
        text(d, (W - MARGIN, header_h / 2), info, 17, UI["muted"], anchor="rm", max_width=W - x - MARGIN)
    # rows
    y = header_h + 8
    for row in view["rows"]:
        r = row["row"]
        d.rounded_rectangle((MARGIN, y, W - MARGIN, y + ROW_H), radius=8, fill=UI["panel"])
        word = t["rows"][r].split(" ", 1)[1]
        text(d, (MARGIN + 10, y + ROW_H * 0.36), r, 28, UI["accent"], anchor="lm", bold=True)
        text(d, (MARGIN + 10, y + ROW_H * 0.76), word, 14, UI["text"], anchor="lm", max_width=96)
        for k, slot in enumerate(row["slots"]):
            sx = MARGIN + 112 + k * SLOT_W
            d.line((sx - 4, y + 6, sx - 4, y + ROW_H - 6), fill=UI["line"], width=1)
            ix = sx
            ih = ROW_H - 16
            iy = y + 8
            for item in slot["items"]:
                if ix > sx + SLOT_W - 20:
                    break
                ix += _item(img, d, r, item, ix, iy, ih if r != "A" else ih, lang) + 4
            for _ in range(slot.get("hidden", 0)):
                ix += _hidden(d, ix, iy, ih) + 4
            if slot.get("star") and slot.get("worker") is None:
                ix += _hidden(d, ix, iy, ih, t["draw2"]) + 4
            if slot.get("star"):
                text(d, (sx + SLOT_W - 10, y + 12), "★", 18, UI["accent"], anchor="rm")
            w = slot.get("worker")
            if w is not None:
                colour = SEAT_COLOURS[w % 4]
                cx, cy = sx + SLOT_W - 22, y + ROW_H - 18
                d.ellipse((cx - 13, cy - 13, cx + 13, cy + 13), fill=colour, outline=(20, 20, 20), width=2)
                text(d, (cx, cy), str(w + 1), 16, ink_for(colour), anchor="mm", bold=True)
        y += ROW_H + 8
    # achievement board
    for a in view["board"]["achievements"]:
        text(d, (MARGIN, y + 15), name(a["id"], lang), 20, UI["text"], anchor="lm", bold=True, max_width=300)
        rx = 330
        for ring in a["rings"]:
            seat = ring["seat"]
            fill = (90, 90, 100) if ring["covered"] else SEAT_COLOURS[seat % 4] if seat is not None else UI["panel_hi"]
            d.ellipse((rx, y + 2, rx + 26, y + 28), fill=fill, outline=UI["line"], width=2)
            label = "x" if ring["covered"] else str(ring["value"])
            text(d, (rx + 13, y + 15), label, 15, ink_for(fill), anchor="mm", bold=True)
            if seat is not None:
                text(d, (rx + 30, y + 15), str(seat + 1), 13, UI["muted"], anchor="lm")
            rx += 50
        y += 32
    y += 16
    # neighbourhoods
    pw = (W - 3 * MARGIN) // 2
    max_size = tuple(view.get("max_size") or (3, 3))
    pending = view.get("pending") or {}
    for p in view["players"]:
        col, rown = p["seat"] % 2, p["seat"] // 2
        px = MARGIN + col * (pw + MARGIN)
        py = y + rown * (PANEL_H + 10)
        colour = SEAT_COLOURS[p["seat"] % 4]
        d.rounded_rectangle((px, py, px + pw, py + PANEL_H), radius=10, fill=UI["panel"],
                            outline=colour if p["seat"] in (view.get("to_move") or []) else UI["line"], width=3)
        score = p["score"]
        d.ellipse((px + 8, py + 8, px + 32, py + 32), fill=colour)
        text(d, (px + 20, py + 20), str(p["seat"] + 1), 15, ink_for(colour), anchor="mm", bold=True)
        text(d, (px + 40, py + 20), _who(names, p["seat"], lang), 19, UI["text"], anchor="lm", bold=True, max_width=pw - 150)
        text(d, (px + pw - 10, py + 20), t["pts"].format(n=score["total"]), 22, UI["accent"], anchor="rm", bold=True)
        hood = hood_image(p, HOOD - 8, max_size)  # type: ignore[arg-type]
        img.paste(hood, (px + (pw - hood.width) // 2, py + 38))
        ty = py + 38 + hood.height + 6
        br = t["breakdown"].format(a=score["achievements"], c=score["cards"], w=score["water"], p=score["park"],
                                   m=score["monuments"])
        text(d, (px + 10, ty + 10), br, 15, UI["muted"], anchor="lm", max_width=pw - 20)
        cards = [f"{name(c, lang)} {pts}" for c, pts in score.get("per_card", {}).items()]
        half = (len(cards) + 1) // 2
        for k, part in enumerate((cards[:half], cards[half:])):
            if part or k == 0:
                text(d, (px + 10, ty + 34 + 22 * k), ", ".join(part) or "-", 16, UI["text"], anchor="lm",
                     max_width=pw - 20)
        achs = " · ".join(name(a, lang) for a in p.get("achievements") or [])
        if pending and pending.get("seat") == p["seat"]:
            items = [*([pending["tile"]] if pending.get("tile") else []), *pending.get("features", []),
                     *(LETTER[c] for c in pending.get("pieces", []))]
            achs = t["holding"].format(items=" ".join(name(i, lang) for i in items)) + ("  " + achs if achs else "")
        if achs:
            text(d, (px + 10, ty + 80), "★ " + achs, 16, UI["good"], anchor="lm", max_width=pw - 20)
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
                      window: tuple[int, int, int, int] | None = None, axes: bool = True) -> Image.Image:
    """One neighbourhood with letters on the places the mover may choose.

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
