"""The illustrated Cities guide of ``/partida rules``: a turn (take a row slot, then place what it
held in your neighbourhood) and how a neighbourhood scores. Drawn from a seeded match of the
engine's AI players, never a live one; the area points are the engine's. The words come from the
game's own module (bot/games/cities.py, ``GUIDE``), passed in as ``t``."""

from __future__ import annotations

from functools import cache
from typing import Any

from PIL import Image, ImageDraw

from render.common import UI, pill
from render.guides import ARROW, MARGIN, W, canvas, caption, title


@cache
def _views() -> tuple[dict[str, Any], dict[str, Any], list[str]]:
    """(a view at a take early in round 2, the view at the end of the match, the names) of a
    seeded two-player match between the engine's AI players."""
    import random

    from engines.ai import best_player
    from engines.match import Match

    names = ["Ana", "Ben"]
    m = Match.create("cities", names, seed=7)
    ai, rng = best_player("cities"), random.Random(7)
    take = None
    while not m.over:
        seat = m.to_move()[0]
        v = m.view(None)
        if take is None and v.get("round", 1) >= 2 and any(a["type"] == "take" for a in m.legal(seat)):
            take = m.view(seat)
        m.apply_code(seat, ai.choose(m.game, m.state, seat, rng))
    return take, m.view(None), names


def _rows_crop(view: dict[str, Any], names: list[str], lang: str) -> Image.Image:
    """The top of the table picture: the header and the four rows (what a worker takes)."""
    from render.cities import ROW_H, board_image

    img = board_image(view, names, lang)
    top = img.height
    # the rows lie under the header (56 or 90 px): keep the header and four rows
    for header in (56, 90):
        top = header + 4 * (ROW_H + 8) + 8
        if top < img.height:
            break
    return img.crop((0, 0, W, min(img.height, top)))


HOOD = 560  # the neighbourhoods' size: their letters stay readable when a phone halves the guide


def _cities_take(t: dict[str, str], lang: str) -> Image.Image:
    take, _, names = _views()
    rows = _rows_crop(take, names, lang)
    img = canvas(1200)
    y = title(img, t["ci1_title"])
    d = ImageDraw.Draw(img)
    pill(img, (MARGIN, y + 14), "1", 24, ARROW, anchor="lm")
    y = caption(d, (MARGIN + 40, y), t["ci1_take"], W - 2 * MARGIN - 40, 22) + 8
    y = caption(d, (MARGIN + 40, y), t["ci1_rows"], W - 2 * MARGIN - 40, 20, UI["muted"]) + 10
    img.paste(rows, (0, y))
    return img.crop((0, 0, W, y + rows.height + 8))


def _cities_place(t: dict[str, str], lang: str) -> Image.Image:
    from render.cities import marked_hood_image

    take, _, _ = _views()
    img = canvas(1200)
    y = title(img, t["ci1_place_title"])
    d = ImageDraw.Draw(img)
    pill(img, (MARGIN, y + 14), "2", 24, ARROW, anchor="lm")
    y = caption(d, (MARGIN + 40, y), t["ci1_place"], W - 2 * MARGIN - 40, 22) + 12
    hood = marked_hood_image(take, take["viewer"], size=HOOD, axes=False)
    img.paste(hood, ((W - hood.width) // 2, y))
    return img.crop((0, 0, W, y + hood.height + 16))


def _cities_score(t: dict[str, str], lang: str) -> Image.Image:
    from engines.cities.components import DESIGN_POINTS, MONUMENT
    from engines.cities.scoring import AREA_POINTS
    from render.cities import marked_hood_image

    _, over, names = _views()
    img = canvas(1400)
    y = title(img, t["ci2_title"])
    d = ImageDraw.Draw(img)
    best = max(over["players"], key=lambda p: p["score"]["total"])
    hood = marked_hood_image(over, best["seat"], size=HOOD, axes=False,
                             caption=f"{names[best['seat']]} · {best['score']['total']}")
    img.paste(hood, ((W - hood.width) // 2, y))
    yy = y + hood.height + 14
    yy = caption(d, (MARGIN, yy), t["ci2_cards"], W - 2 * MARGIN, 22) + 8
    areas = " / ".join(str(p) for p in AREA_POINTS[1:])
    yy = caption(d, (MARGIN, yy), t["ci2_areas"].format(points=areas, n=len(AREA_POINTS) - 1), W - 2 * MARGIN, 22) + 8
    yy = caption(d, (MARGIN, yy), t["ci2_monuments"].format(n=DESIGN_POINTS[MONUMENT]), W - 2 * MARGIN, 22) + 8
    bottom = caption(d, (MARGIN, yy), t["ci2_end"], W - 2 * MARGIN, 20, UI["muted"])
    return img.crop((0, 0, W, bottom + 16))


def guide_images(t: dict[str, str], lang: str) -> list[Image.Image]:
    return [_cities_take(t, lang), _cities_place(t, lang), _cities_score(t, lang)]
