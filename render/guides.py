"""Shared drawing of the illustrated rules guides of ``/partida rules``: 2-4 annotated pictures a
game (how a turn goes, how scoring works) drawn with the game's own card and tile art, numbered
steps, arrows and labels. 800 px wide like the boards, so every text is at least 10 px on a phone.

Each game draws its own guide (``render/<game>_guide.py``, ``guide_images(t, lang)``) with the
words its own module holds (bot/games/<game>.py ``GUIDE``, asked through ``GameUI.guide_pngs``);
this module knows no game. The examples are drawn from small views or engine moves, never from a
live match. Rules facts are the rulebooks'; the wording is ours.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from PIL import Image, ImageDraw

from render.common import UI, encode_png, legible, new_canvas, text, wrap

W = 800
MARGIN = 24
ARROW = (255, 200, 60)


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


def title(img: Image.Image, s: str) -> int:
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, W, 60), fill=UI["panel"])
    text(d, (MARGIN, 30), s, 28, UI["accent"], anchor="lm", bold=True, max_width=W - 2 * MARGIN)
    return 76


def canvas(h: int) -> Image.Image:
    return new_canvas(W, h)


def images(draw: Callable[[], list[Image.Image]]) -> list[Image.Image]:
    """A guide's pictures, drawn legibly at the guides' width."""
    with legible(W):
        return draw()


def pngs(pictures: list[Image.Image]) -> list[bytes]:
    """The guide's pictures as PNG bytes (attach them to the /partida rules answer)."""
    return [encode_png(img) for img in pictures]


__all__ = ["ARROW", "MARGIN", "W", "arrow", "canvas", "caption", "images", "pngs", "title"]
