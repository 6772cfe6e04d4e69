"""The illustrated Carcassonne guide of ``/partida rules``: a turn (a small real table of engine
moves) and scoring (the examples' points asked of the engine under each rules edition). The words
come from the game's own module (bot/games/carcassonne.py, ``GUIDE``), passed in as ``t``."""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from render.common import UI, text
from render.guides import MARGIN, W, arrow, canvas, caption, title


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


def _carc_turn(t: dict[str, str], lang: str) -> Image.Image:
    from render import carcassonne as R

    _, mine = _carc_views()
    img = canvas(760)
    y = title(img, t["cc1_title"])
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


def _carc_score(t: dict[str, str], lang: str) -> Image.Image:
    from engines.carcassonne.tiles import GEOMETRY
    from render import carcassonne as R

    view = {"geometry": GEOMETRY}
    points = carc_example_points()
    img = canvas(900)
    y = title(img, t["cc2_title"])
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


def guide_images(t: dict[str, str], lang: str) -> list[Image.Image]:
    return [_carc_turn(t, lang), _carc_score(t, lang)]
