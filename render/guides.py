"""Illustrated rules guides for ``/partida rules``: per game and language, 2-4 annotated pictures
(how a turn goes, how scoring works) drawn with the games' own card and tile art, numbered steps,
arrows and labels. 800 px wide like the boards, so every text is at least 10 px on a phone.

* :func:`guide_images` (PIL images) and :func:`guide_pngs` (PNG bytes) for a game key of
  :data:`GAMES` and "en" / "es".

The examples are drawn from small views built here (Carcassonne's from a few engine moves), never
from a live match. Rules facts are the rulebooks'; the wording is ours.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from PIL import Image, ImageDraw

from render.common import UI, encode_png, legible, mix, new_canvas, paste, pill, text, wrap

GAMES = ("lost-cities", "carcassonne", "citadels")
W = 800
MARGIN = 24
ARROW = (255, 200, 60)

TEXTS: dict[str, dict[str, str]] = {
    "en": {
        "lc1_title": "Lost Cities · your turn in two steps",
        "lc1_play": "Play a card on your expedition of its colour: higher than the last one",
        "lc1_discard": "…or discard it face up on its colour's pile",
        "lc1_draw": "Then draw: from the deck, or the top card of any pile (not the one you just discarded)",
        "lc1_hand": "Your hand",
        "lc1_exp": "Your expedition",
        "lc1_pile": "Discard pile",
        "lc1_deck": "Deck",
        "lc2_title": "Lost Cities · how an expedition scores",
        "lc2_rule": "(sum of the numbers − 20) × (1 + wagers), +20 with 8 or more cards",
        "lc2_a": "{cards} = {sum} → ({sum} − 20) × {mult} = {points}",
        "lc2_b": "{cards} = {sum} → {sum} − 20 = {points}: a started expedition costs 20",
        "lc2_c": "A colour you never start scores 0. The round ends with the last deck card.",
        "cc1_title": "Carcassonne · your turn",
        "cc1_tile": "1. You draw a tile",
        "cc1_place": "2. Lay it next to the table: every touching edge must match (city, road, field). Letters mark where it fits",
        "cc1_meeple": "3. You may put a meeple on one part of it nobody holds yet (numbers)",
        "cc2_title": "Carcassonne · scoring",
        "cc2_road": "Finished road: 1 point a tile",
        "cc2_city": "Finished city: 2 a tile and 2 a shield",
        "cc2_mon": "Monastery with all 8 neighbours: 9",
        "cc2_editions": "Rules edition {eds}: {n}",
        "cc2_end": "At the end, open roads, cities and monasteries score 1 a tile (a shield 1) and farmers score their fields. The meeple goes back when its part is finished.",
        "cit1_title": "Citadels · a round",
        "cit1_draft": "1. Starting with the crown, each player secretly picks a character",
        "cit1_call": "2. Characters are called in rank order: 1, 2, 3… the one who holds it plays its turn",
        "cit1_power": "Each character has a power: the Assassin (1) makes one lose its turn, the King (4) takes the crown…",
        "cit2_title": "Citadels · your turn",
        "cit2_income": "1. Take 2 gold or draw 2 cards and keep 1",
        "cit2_build": "2. Build at most one district from your hand: pay its cost in gold",
        "cit2_score": "The round a city reaches 8 districts is the last. Points: district costs, +3 for all five colours, +4 first complete city (+2 the others), special districts",
        "gold": "gold",
        "cards": "cards",
        "city": "Your city",
    },
    "es": {
        "lc1_title": "Lost Cities · tu turno en dos pasos",
        "lc1_play": "Juega una carta en tu expedición de su color: mayor que la última",
        "lc1_discard": "…o descártala boca arriba en la pila de su color",
        "lc1_draw": "Después roba: del mazo o la carta de arriba de cualquier pila (no la que acabas de descartar)",
        "lc1_hand": "Tu mano",
        "lc1_exp": "Tu expedición",
        "lc1_pile": "Pila de descarte",
        "lc1_deck": "Mazo",
        "lc2_title": "Lost Cities · cómo puntúa una expedición",
        "lc2_rule": "(suma de los números − 20) × (1 + apuestas), +20 con 8 cartas o más",
        "lc2_a": "{cards} = {sum} → ({sum} − 20) × {mult} = {points}",
        "lc2_b": "{cards} = {sum} → {sum} − 20 = {points}: empezar una expedición cuesta 20",
        "lc2_c": "Un color que no empiezas puntúa 0. La ronda acaba con la última carta del mazo.",
        "cc1_title": "Carcassonne · tu turno",
        "cc1_tile": "1. Robas una loseta",
        "cc1_place": "2. Ponla junto al tablero: cada borde que toca debe coincidir (ciudad, camino, campo). Las letras marcan dónde cabe",
        "cc1_meeple": "3. Puedes poner un meeple en una parte suya que nadie ocupe (números)",
        "cc2_title": "Carcassonne · puntuación",
        "cc2_road": "Camino terminado: 1 punto por loseta",
        "cc2_city": "Ciudad terminada: 2 por loseta y 2 por escudo",
        "cc2_mon": "Monasterio con sus 8 vecinas: 9",
        "cc2_editions": "Reglas de la edición {eds}: {n}",
        "cc2_end": "Al final, caminos, ciudades y monasterios abiertos dan 1 por loseta (y 1 por escudo) y los granjeros puntúan sus campos. El meeple vuelve cuando su parte se termina.",
        "cit1_title": "Ciudadelas · una ronda",
        "cit1_draft": "1. Empezando por quien tiene la corona, cada jugador elige en secreto un personaje",
        "cit1_call": "2. Los personajes se llaman por rango: 1, 2, 3… quien lo tiene juega su turno",
        "cit1_power": "Cada personaje tiene un poder: el Asesino (1) hace perder el turno a otro, el Rey (4) toma la corona…",
        "cit2_title": "Ciudadelas · tu turno",
        "cit2_income": "1. Toma 2 de oro o roba 2 cartas y quédate con 1",
        "cit2_build": "2. Construye como mucho un distrito de tu mano: paga su coste en oro",
        "cit2_score": "La ronda en que una ciudad llega a 8 distritos es la última. Puntos: coste de los distritos, +3 por los cinco colores, +4 la primera ciudad completa (+2 las demás), distritos especiales",
        "gold": "oro",
        "cards": "cartas",
        "city": "Tu ciudad",
    },
}


def _t(lang: str) -> dict[str, str]:
    return TEXTS.get(lang, TEXTS["en"])


# -- annotation helpers -----------------------------------------------------------------------------


def arrow(d: ImageDraw.ImageDraw, a: tuple[float, float], b: tuple[float, float], colour=ARROW, width: int = 5) -> None:
    """A straight arrow from ``a`` to ``b`` with a filled head at ``b``."""
    ang = math.atan2(b[1] - a[1], b[0] - a[0])
    head = 18
    base = (b[0] - head * math.cos(ang), b[1] - head * math.sin(ang))
    d.line((a, base), fill=colour, width=width)
    left = (base[0] + head * 0.55 * math.sin(ang), base[1] - head * 0.55 * math.cos(ang))
    right = (base[0] - head * 0.55 * math.sin(ang), base[1] + head * 0.55 * math.cos(ang))
    d.polygon([b, left, right], fill=colour)


def caption(d: ImageDraw.ImageDraw, xy: tuple[float, float], s: str, width: int, size: int = 22, colour=UI["text"], bold: bool = False) -> int:
    """Word-wrapped text from its top-left corner; returns the bottom."""
    x, y = xy
    for line in wrap(s, size, width, bold):
        text(d, (x, y), line, size, colour, anchor="la", bold=bold)
        y += int(size * 1.3)
    return int(y)


def _title(img: Image.Image, s: str) -> int:
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, W, 60), fill=UI["panel"])
    text(d, (MARGIN, 30), s, 28, UI["accent"], anchor="lm", bold=True, max_width=W - 2 * MARGIN)
    return 76


def _canvas(h: int) -> Image.Image:
    return new_canvas(W, h)


# -- Lost Cities ------------------------------------------------------------------------------------


def _lc_turn(lang: str) -> Image.Image:
    from render.lost_cities import card_back, empty_slot, hand_card, table_card

    t = _t(lang)
    img = _canvas(700)
    y = _title(img, t["lc1_title"])
    d = ImageDraw.Draw(img)
    cw, ch = 120, 84
    # the hand on top, the expedition (left) and the pile (right) below it
    hx, hy = (W - 110) // 2, y + 30
    text(d, (hx, hy - 8), t["lc1_hand"], 22, UI["muted"], anchor="ls")
    paste(img, hand_card("blue-8", lang, 110, 150), (hx, hy))
    ex, ey = 70, y + 220
    text(d, (ex, ey - 8), t["lc1_exp"], 22, UI["muted"], anchor="ls")
    for k, card in enumerate(("blue-3", "blue-5")):
        paste(img, table_card(card, cw, ch, 40), (ex, ey + k * 40))
    px, py = W - 70 - cw, ey
    text(d, (px + cw, py - 8), t["lc1_pile"], 22, UI["muted"], anchor="rs")
    paste(img, empty_slot("blue", cw, ch), (px, py))
    arrow(d, (hx - 6, hy + 110), (ex + cw + 10, ey + 30))
    arrow(d, (hx + 116, hy + 110), (px - 10, py + 30), colour=mix(ARROW, UI["bg"], 0.35))
    cy = ey + 40 + ch + 20
    pill(img, (MARGIN, cy + 14), "1", 24, ARROW, anchor="lm")
    caption(d, (MARGIN + 40, cy), t["lc1_play"], W // 2 - MARGIN - 60, 22)
    caption(d, (W // 2 + 20, cy), t["lc1_discard"], W // 2 - MARGIN - 20, 22, UI["muted"])
    # step 2: draw
    by = cy + 110
    pill(img, (MARGIN, by + 30), "2", 24, ARROW, anchor="lm")
    paste(img, card_back(44, 62), (MARGIN + 44, by))
    text(d, (MARGIN + 96, by + 31), t["lc1_deck"], 22, UI["muted"], anchor="lm")
    bottom = caption(d, (MARGIN + 200, by), t["lc1_draw"], W - MARGIN - 200 - MARGIN, 22)
    return img.crop((0, 0, W, max(bottom, by + 70) + 16))


def _lc_points(cards: tuple[str, ...]) -> tuple[int, int, int]:
    """(sum of the numbers, multiplier, points) of an expedition, the points asked of the engine."""
    from engines.lost_cities import CARD_IDS, RANK, expedition_score

    codes = [CARD_IDS[c] for c in cards]
    wagers = sum(1 for c in codes if RANK[c] == 0)
    return sum(RANK[c] for c in codes), 1 + wagers, expedition_score(codes)


def _lc_score(lang: str) -> Image.Image:
    from render.lost_cities import table_card

    t = _t(lang)
    img = _canvas(700)
    y = _title(img, t["lc2_title"])
    d = ImageDraw.Draw(img)
    y = caption(d, (MARGIN, y), t["lc2_rule"], W - 2 * MARGIN, 24, UI["accent"], bold=True) + 16
    cw, ch = 120, 84
    for k, (col, key, dy) in enumerate(((LC_GOOD, "lc2_a", 60), (LC_BAD, "lc2_b", 20))):
        yy = y if k == 0 else y + (len(LC_GOOD) - 1) * 40 + ch + 50
        for i, card in enumerate(col):
            paste(img, table_card(card, cw, ch, 40), (MARGIN + 20, yy + i * 40))
        total, mult, points = _lc_points(col)
        numbers = " + ".join(c.rpartition("-")[2] for c in col if not c.rpartition("-")[2].startswith("w"))
        shown = f"+{points}" if points > 0 else str(points).replace("-", "−")
        text(d, (MARGIN + 20 + cw / 2, yy + (len(col) - 1) * 40 + ch + 22), shown, 28,
             UI["good"] if points > 0 else UI["bad"], anchor="mm", bold=True)
        words = t[key].format(cards=numbers, sum=total, mult=mult, points=str(points).replace("-", "−"))
        caption(d, (MARGIN + 170, yy + dy), words, W - MARGIN - 170 - MARGIN, 22)
        if k == 1:
            caption(d, (MARGIN + 170, yy + 90), t["lc2_c"], W - MARGIN - 170 - MARGIN, 20, UI["muted"])
            bottom = yy + (len(col) - 1) * 40 + ch + 44
    return img.crop((0, 0, W, bottom))


# the two example expeditions of the scoring picture
LC_GOOD = ("green-w1", "green-4", "green-6", "green-7", "green-9")
LC_BAD = ("red-2", "red-3")


# -- Carcassonne ------------------------------------------------------------------------------------


def _carc_views() -> tuple[dict[str, Any], dict[str, Any]]:
    """A small real table (a few engine moves, first legal choice each time) and the mover's view."""
    from engines.carcassonne import GAME

    s = GAME.new_state(2, GAME.parse_options({}), 11, None)
    for _ in range(3):
        seat = GAME.to_move(s)[0]
        # the first legal move without a meeple, read as JSON actions (the engine's code is its own)
        action = next(a for a in map(GAME.encode, GAME.legal(s, seat)) if a.get("meeple") is None)
        GAME.step(s, seat, GAME.decode(action))
    seat = GAME.to_move(s)[0]
    return GAME.view(s, None), GAME.view(s, seat)


def _carc_turn(lang: str) -> Image.Image:
    from render import carcassonne as R

    t = _t(lang)
    _, mine = _carc_views()
    img = _canvas(760)
    y = _title(img, t["cc1_title"])
    d = ImageDraw.Draw(img)
    # 1. the drawn tile
    tile = mine["tile"]
    img.paste(R.tile_image(mine, tile, 0, 110), (MARGIN, y + 10))
    caption(d, (MARGIN + 130, y + 14), t["cc1_tile"] + ": " + R.tile_words(mine, tile, lang), W - MARGIN - 130 - MARGIN, 22)
    # 2. the table with the places lettered
    spots = R.legal_cells(mine)
    labels = R.place_labels(mine)
    cells = [(b["x"], b["y"]) for b in mine["board"]] + list(spots)
    x0, y0 = min(c[0] for c in cells), min(c[1] for c in cells)
    cols, rows = max(c[0] for c in cells) - x0 + 1, max(c[1] for c in cells) - y0 + 1
    cell = min(80, (W - 2 * MARGIN - 260) // cols, 330 // rows)
    top = y + 150
    fr = R.Frame(x0, y0, cols, rows, cell, MARGIN, top)
    R._draw_cells(img, mine, fr, last=None, spots=spots, labels=labels)
    bx = MARGIN + cols * cell + 24
    caption(d, (bx, top), t["cc1_place"], W - bx - MARGIN, 22)
    arrow(d, (MARGIN + 55, y + 125), (MARGIN + 55, top - 6))
    # 3. a meeple spot preview
    first = next(p for p in mine["legal"] if p["meeples"])
    py = top + rows * cell + 30
    one = R.Frame(first["x"], first["y"], 1, 1, 200, MARGIN, py)
    markers = [(fid, i + 1) for i, fid in enumerate(first["meeples"])]
    R._draw_cells(img, mine, one, last=None, ghost=(tile, first["x"], first["y"], first["rot"]), markers=markers)
    caption(d, (MARGIN + 224, py + 20), t["cc1_meeple"], W - MARGIN - 224 - MARGIN, 22)
    return img.crop((0, 0, W, min(img.height, py + 220)))


def _rot_for(view: dict[str, Any], tile: str, kind: str, sides: set[str]) -> int:
    """The rotation (quarter turns clockwise) at which ``tile``'s ``kind`` feature covers ``sides``."""
    order = "NESW"
    for rot in range(4):
        for f in view["geometry"][tile]["features"]:
            if f["kind"] == kind and {order[(order.index(x) + rot) % 4] for x in f["sides"]} == sides:
                return rot
    raise ValueError(f"{tile} has no {kind} on {sides}")


# The scoring examples, as setups of the engine: the tiles already on the table (x, y, tile, the
# sides its feature covers, meeple feature or None) and the tile whose laying finishes the feature.
# The points are the engine's, under each rules edition.
CARC_ROAD = ((0, 0, "A", "road", {"E"}, None), (1, 0, "U", "road", {"W", "E"}, "r0"), (2, 0, "A", "road", {"W"}, None))
CARC_CITY = ((0, 0, "E", "city", {"S"}, "c0"), (0, 1, "E", "city", {"N"}, None))
EDITIONS = (1, 2, 3)


def _carc_setup(view: dict[str, Any], example) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    board = []
    for x, y, tile, kind, sides, meeple in example:
        entry: dict[str, Any] = {"tile": tile, "x": x, "y": y, "rot": _rot_for(view, tile, kind, sides)}
        if meeple:
            entry["meeple"] = {"seat": 0, "feature": meeple}
        board.append(entry)
    return board[:-1], board[-1]


def carc_points(board: list[dict[str, Any]], last: dict[str, Any], rules: int) -> int:
    """The points the engine gives when ``last`` is laid (no meeple) on ``board``, under ``rules``:
    what the finished feature scores."""
    from engines.carcassonne import GAME

    filler = "B" if last["tile"] != "B" else "U"
    s = GAME.new_state(2, GAME.parse_options({"rules": rules}), 0,
                       {"pile": [last["tile"], filler], "board": board})
    seat = GAME.to_move(s)[0]
    action = {"type": "place", "x": last["x"], "y": last["y"], "rot": last["rot"], "meeple": None}
    out = GAME.step(s, seat, GAME.decode(action))
    return sum(e.data["points"] for e in out.events if e.kind == "scored" and e.data.get("complete"))


def _monastery_ring(view: dict[str, Any]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """A monastery (tile B, a meeple on it) and its eight neighbours, each fitting the table as the
    engine checks it (its setup refuses a tile that does not fit); the last one finishes it."""
    from engines.carcassonne import GAME
    from engines.core import BadSetup

    board: list[dict[str, Any]] = [{"tile": "B", "x": 0, "y": 0, "rot": 0, "meeple": {"seat": 0, "feature": "m"}}]
    ring = [(0, -1), (-1, -1), (-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1)]  # each touches one laid
    opts = GAME.parse_options({})
    for x, y in ring[:-1]:
        for tile in _RING_TILES:
            entry = next((e for rot in range(4) if _fits(GAME, opts, board + [e := {"tile": tile, "x": x, "y": y, "rot": rot}], BadSetup)), None)
            if entry is not None:
                board.append(entry)
                break
        else:  # pragma: no cover - the tile set always has fitting tiles
            raise ValueError(f"no tile fits at ({x}, {y})")
    x, y = ring[-1]  # the last one finishes the monastery: a legal move of the engine's
    for tile in _RING_TILES:
        try:
            s = GAME.new_state(2, opts, 0, {"pile": [tile, "B"], "board": board})
        except BadSetup:
            continue
        legal = [a for a in map(GAME.encode, GAME.legal(s, GAME.to_move(s)[0]))
                 if a.get("type") == "place" and (a["x"], a["y"]) == (x, y) and a.get("meeple") is None]
        if legal:
            return board, {"tile": tile, "x": x, "y": y, "rot": legal[0]["rot"]}
    raise ValueError(f"no tile fits at ({x}, {y})")  # pragma: no cover


_RING_TILES = "EUVDKJHILNOPQRSTWXFGCA"


def _fits(game, opts, board, bad) -> bool:
    try:
        game.new_state(2, opts, 0, {"pile": ["B"], "board": board})
    except bad:
        return False
    return True


def _points_words(d, xy, caption_xy, points: dict[int, int], words: str, t: dict[str, str], width: int) -> None:
    """The points under the current edition, big, the rule beside them and, under it, the other
    editions' points where they differ."""
    text(d, xy, f"= {points[3]}", 30, UI["good"], anchor="lm", bold=True)
    y = caption(d, caption_xy, words, width, 22)
    others: dict[int, list[int]] = {}
    for ed in EDITIONS:
        if points[ed] != points[3]:
            others.setdefault(points[ed], []).append(ed)
    for n, eds in others.items():
        y = caption(d, (caption_xy[0], y + 2), t["cc2_editions"].format(eds=", ".join(map(str, eds)), n=n), width, 20, UI["muted"])


def carc_example_points() -> dict[str, dict[int, int]]:
    """Each scoring example's points under each rules edition, asked of the engine."""
    from engines.carcassonne.tiles import GEOMETRY

    view = {"geometry": GEOMETRY}
    out = {}
    for name, (board, last) in (("road", _carc_setup(view, CARC_ROAD)), ("city", _carc_setup(view, CARC_CITY)),
                                ("monastery", _monastery_ring(view))):
        out[name] = {ed: carc_points(board, last, ed) for ed in EDITIONS}
    return out


def _carc_score(lang: str) -> Image.Image:
    from engines.carcassonne.tiles import GEOMETRY
    from render import carcassonne as R

    t = _t(lang)
    view = {"geometry": GEOMETRY}
    points = carc_example_points()
    img = _canvas(900)
    y = _title(img, t["cc2_title"])
    d = ImageDraw.Draw(img)
    s = 86
    tx = MARGIN + 3 * s + 130
    # a finished road between two monasteries: end - straight - end
    board, last = _carc_setup(view, CARC_ROAD)
    for i, e in enumerate([*board, last]):
        img.paste(R.tile_image(view, e["tile"], e["rot"], s), (MARGIN + i * s, y + 10))
    _points_words(d, (MARGIN + 3 * s + 16, y + 10 + s / 2), (tx, y + 20), points["road"], t["cc2_road"], t, W - tx - MARGIN)
    # a finished city of two tiles facing each other
    y2 = y + s + 40
    board, last = _carc_setup(view, CARC_CITY)
    for e in [*board, last]:
        img.paste(R.tile_image(view, e["tile"], e["rot"], s), (MARGIN + s, y2 + e["y"] * s))
    _points_words(d, (MARGIN + 3 * s + 16, y2 + s), (tx, y2 + s - 30), points["city"], t["cc2_city"], t, W - tx - MARGIN)
    # a monastery with its eight neighbours
    y3 = y2 + 2 * s + 30
    m = s // 2
    board, last = _monastery_ring(view)
    for e in [*board, last]:
        img.paste(R.tile_image(view, e["tile"], e["rot"], m), (MARGIN + s // 2 + (e["x"] + 1) * m, y3 + (e["y"] + 1) * m))
    _points_words(d, (MARGIN + 3 * s + 16, y3 + 3 * m / 2), (tx, y3 + 3 * m / 2 - 14), points["monastery"], t["cc2_mon"], t,
                  W - tx - MARGIN)
    bottom = caption(d, (MARGIN, y3 + 3 * m + 30), t["cc2_end"], W - 2 * MARGIN, 20, UI["muted"])
    return img.crop((0, 0, W, bottom + 16))


# -- Citadels ---------------------------------------------------------------------------------------


def _cit_round(lang: str) -> Image.Image:
    from engines.citadels.cards import RANK
    from render import citadels as C

    t = _t(lang)
    img = _canvas(560)
    y = _title(img, t["cit1_title"])
    d = ImageDraw.Draw(img)
    paste(img, C.crown(48, 36), (MARGIN, y + 4))
    y = caption(d, (MARGIN + 64, y), t["cit1_draft"], W - 2 * MARGIN - 64, 22) + 16
    chars = ["assassin", "thief", "magician", "king", "bishop", "merchant", "architect", "warlord"]
    tw, th, gap = 140, 70, 12
    for i, ch in enumerate(chars):
        x = MARGIN + (i % 5) * (tw + gap)
        yy = y + (i // 5) * (th + 20)
        paste(img, C.character_tile(ch, RANK[ch], lang if lang in C.TEXTS else "en", tw, th, ""), (x, yy))
    yb = y + 2 * (th + 20)
    arrow(d, (MARGIN, yb + 6), (W - MARGIN, yb + 6))
    y = caption(d, (MARGIN, yb + 24), t["cit1_call"], W - 2 * MARGIN, 22) + 10
    bottom = caption(d, (MARGIN, y), t["cit1_power"], W - 2 * MARGIN, 20, UI["muted"])
    return img.crop((0, 0, W, bottom + 16))


def _cit_turn(lang: str) -> Image.Image:
    from render import citadels as C

    t = _t(lang)
    lg = lang if lang in C.TEXTS else "en"
    img = _canvas(700)
    y = _title(img, t["cit2_title"])
    d = ImageDraw.Draw(img)
    y = caption(d, (MARGIN, y), t["cit2_income"], W - 2 * MARGIN, 22) + 10
    paste(img, C.coin(22, "2"), (MARGIN + 20, y))
    text(d, (MARGIN + 76, y + 22), t["gold"], 22, UI["text"], anchor="lm")
    text(d, (MARGIN + 200, y + 22), "/", 30, UI["muted"], anchor="mm")
    paste(img, C.card_icon(32, 44), (MARGIN + 250, y))
    paste(img, C.card_icon(32, 44), (MARGIN + 290, y))
    text(d, (MARGIN + 340, y + 22), "→ 1", 24, UI["text"], anchor="lm", bold=True)
    y += 70
    y = caption(d, (MARGIN, y), t["cit2_build"], W - 2 * MARGIN, 22) + 12
    card = C.district_card("castle", "yellow", 4, 4, False, lg, 150, 110)
    paste(img, card, (MARGIN + 20, y))
    paste(img, C.coin(18, "4"), (MARGIN + 200, y + 36))
    arrow(d, (MARGIN + 250, y + 55), (MARGIN + 380, y + 55))
    text(d, (MARGIN + 400, y - 4), t["city"], 22, UI["muted"], anchor="la")
    for i, (kind, colour, cost) in enumerate((("temple", "blue", 1), ("market", "green", 2))):
        paste(img, C.district_card(kind, colour, cost, cost, False, lg, 150, 110), (MARGIN + 400 + i * 160 - (0 if i == 0 else 0), y + 24))
    y += 150
    bottom = caption(d, (MARGIN, y), t["cit2_score"], W - 2 * MARGIN, 20, UI["muted"])
    return img.crop((0, 0, W, bottom + 16))


_GUIDES: dict[str, tuple[Callable[[str], Image.Image], ...]] = {
    "lost-cities": (_lc_turn, _lc_score),
    "carcassonne": (_carc_turn, _carc_score),
    "citadels": (_cit_round, _cit_turn),
}


def guide_images(game: str, lang: str = "en") -> list[Image.Image]:
    """The guide's pictures for ``game`` (a key of :data:`GAMES`) in ``lang`` ("en"/"es")."""
    if game not in _GUIDES:
        raise KeyError(f"no guide for {game!r}")
    with legible(W):
        return [draw(lang if lang in TEXTS else "en") for draw in _GUIDES[game]]


def guide_pngs(game: str, lang: str = "en") -> list[bytes]:
    """The guide's pictures as PNG bytes (attach them to the /partida rules answer)."""
    return [encode_png(img) for img in guide_images(game, lang)]


__all__ = ["GAMES", "TEXTS", "guide_images", "guide_pngs"]
