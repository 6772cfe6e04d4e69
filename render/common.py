"""Shared drawing helpers for every Partida picture (Lost Cities, Carcassonne, Citadels, ...).

Everything here is pure and deterministic: same inputs -> same pixels -> same bytes.

* Fonts: :func:`font` (cached) gives DejaVu Sans / Sans Bold from ``render/fonts/`` or the system,
  else Pillow's bundled FreeType font (``ImageFont.load_default(size=...)``, Pillow >= 10.1), which
  lacks accented letters: then :func:`prep` folds texts to ASCII ("Última" -> "Ultima") and bold is
  faked with a stroke. :func:`text` draws one line (optionally shrunk/ellipsized to a width);
  :func:`clean_text` drops characters the font cannot draw (emoji in Discord names, ...).
* Text fitting: :func:`text_size`, :func:`fit_size` (largest size that fits a width),
  :func:`ellipsize` (cut with "…"), :func:`wrap` (greedy word wrap).
* Colours: :func:`rgb`, :func:`mix`, :func:`ink_for` (black or white text for a background),
  :data:`PALETTE` (colour-blind-friendly, after Okabe & Ito) and :data:`UI` (dark table theme).
* Shapes: :func:`supersampled` renders a small sprite at 4x and scales it down (anti-aliased
  edges), :func:`rounded_sprite`, :func:`draw_symbol` (circle, sun, triangle, diamond, wave, star,
  square, hexagon, cross, coin, ...) and :func:`pill` (rounded label with text).
* Encoding: :func:`encode_png`, :func:`encode_webp`, :func:`new_canvas`.
"""

from __future__ import annotations

import contextlib
import io
import math
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

Color = tuple[int, int, int] | tuple[int, int, int, int]

_CACHES: list = []


def cached(maxsize: int = 256):
    """``functools.lru_cache`` that :func:`clear_caches` can empty (use it for sprites too)."""

    def deco(fn):
        wrapped = lru_cache(maxsize=maxsize)(fn)
        _CACHES.append(wrapped)
        return wrapped

    return deco


def clear_caches() -> None:
    """Forget every cached font, measure and sprite (e.g. after changing :data:`FONT_DIRS`)."""
    for c in _CACHES:
        c.cache_clear()


# ---------------------------------------------------------------------------------------------
# Colours

#: Colour-blind-friendly base colours (Okabe & Ito hues, tuned a little darker/brighter so white
#: or black text on them keeps a high contrast). Each game should still pair colours with shapes.
PALETTE: dict[str, tuple[int, int, int]] = {
    "yellow": (240, 200, 40),
    "blue": (0, 100, 178),
    "white": (238, 238, 232),
    "green": (0, 140, 100),
    "red": (213, 80, 0),
    "purple": (196, 106, 192),
    "sky": (86, 180, 233),
    "pink": (204, 121, 167),
    "orange": (230, 159, 0),
    "black": (30, 30, 30),
    "grey": (140, 140, 140),
}

#: A dark "table" theme used by the Partida pictures (Discord is mostly used in dark mode).
UI: dict[str, tuple[int, int, int]] = {
    "bg": (27, 38, 48),
    "panel": (38, 52, 64),
    "panel_hi": (52, 70, 86),
    "line": (70, 90, 108),
    "text": (240, 244, 248),
    "muted": (160, 175, 190),
    "good": (120, 225, 140),
    "bad": (255, 140, 128),
    "accent": (255, 200, 60),
    "highlight": (255, 255, 255),
}


def rgb(value: str | Sequence[int]) -> tuple[int, int, int]:
    """'#rrggbb', 'rrggbb', a PALETTE name or a 3/4-tuple -> an (r, g, b) tuple."""
    if isinstance(value, str):
        if value in PALETTE:
            return PALETTE[value]
        h = value.lstrip("#")
        if len(h) != 6:
            raise ValueError(f"not a colour: {value!r}")
        return (int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16))
    r, g, b = value[:3]
    return (int(r), int(g), int(b))


def mix(a: Sequence[int], b: Sequence[int], t: float) -> tuple[int, int, int]:
    """Linear blend: t=0 gives a, t=1 gives b."""
    return tuple(round(a[i] + (b[i] - a[i]) * t) for i in range(3))  # type: ignore[return-value]


def luminance(c: Sequence[int]) -> float:
    """WCAG relative luminance of an sRGB colour (0 black .. 1 white)."""

    def lin(v: float) -> float:
        v /= 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (lin(x) for x in c[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: Sequence[int], b: Sequence[int]) -> float:
    """WCAG contrast ratio (1..21)."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def ink_for(bg: Sequence[int], dark: Sequence[int] = (20, 20, 20), light: Sequence[int] = (255, 255, 255)):
    """The text colour (dark or light) with the higher contrast on ``bg``."""
    return tuple(dark) if contrast(bg, dark) >= contrast(bg, light) else tuple(light)


# ---------------------------------------------------------------------------------------------
# Legibility on a phone
#
# Discord shows a picture at most ~400 px wide on a phone, so a picture W px wide is seen at
# min(1, 400 / W) of its size. No text may be seen smaller than 10 px and no marker (meeple,
# numbered spot, symbol that carries meaning) smaller than 8 px. :func:`legible` tells the helpers
# the width of the picture being drawn, so that shrinking a text to fit never goes below the floor
# (it is ellipsized instead); :func:`recording` lets a test collect every text size and marker
# size a renderer really used.

PHONE_W = 400
MIN_TEXT_SEEN = 10
MIN_MARKER_SEEN = 8

_FLOOR: ContextVar[int] = ContextVar("partida_text_floor", default=8)
_RECORD: ContextVar[list | None] = ContextVar("partida_record", default=None)
_SCALE: ContextVar[int] = ContextVar("partida_scale", default=1)


def seen_scale(width: int) -> float:
    """How much a picture ``width`` px wide is scaled on a phone (1 when it is narrow enough)."""
    return min(1.0, PHONE_W / max(1, width))


def text_floor(width: int) -> int:
    """Smallest font size (px) a picture ``width`` px wide may use."""
    return math.ceil(MIN_TEXT_SEEN / seen_scale(width))


def marker_floor(width: int) -> int:
    """Smallest marker size (px) a picture ``width`` px wide may use."""
    return math.ceil(MIN_MARKER_SEEN / seen_scale(width))


@contextlib.contextmanager
def legible(width: int) -> Iterator[int]:
    """While drawing a picture ``width`` px wide: texts fitted to a width never shrink below the
    phone floor. Yields the floor."""
    floor = text_floor(width)
    token = _FLOOR.set(floor)
    try:
        yield floor
    finally:
        _FLOOR.reset(token)


def floor() -> int:
    """The smallest text size allowed for the picture being drawn (see :func:`legible`)."""
    return _FLOOR.get()


class Record:
    """What a renderer drew: ``texts`` [(size px, text)], ``markers`` [(size px, what)] and
    ``places`` [(x, y, text)]: where each text was drawn straight on the picture (not inside a
    sprite), to test a layout (what comes first)."""

    def __init__(self) -> None:
        self.texts: list[tuple[float, str]] = []
        self.markers: list[tuple[float, str]] = []
        self.places: list[tuple[float, float, str]] = []

    def y_of(self, s: str) -> float:
        """The top-most y at which a text containing ``s`` was drawn on the picture."""
        ys = [y for _, y, t in self.places if s in t]
        if not ys:
            raise KeyError(s)
        return min(ys)


@contextlib.contextmanager
def recording() -> Iterator[Record]:
    """Collect the size of every text and marker drawn (for the legibility tests). Clear the
    sprite caches first (:func:`clear_caches`), or cached sprites are not drawn again."""
    rec = Record()
    token = _RECORD.set([rec])
    try:
        yield rec
    finally:
        _RECORD.reset(token)


def marker(size: float, what: str) -> None:
    """Note a marker of ``size`` px (in the coordinates of the picture) for :func:`recording`."""
    rec = _RECORD.get()
    if rec:
        rec[0].markers.append((size / _SCALE.get(), what))


def _note_text(size: float, s: str, xy: tuple[float, float] | None = None) -> None:
    rec = _RECORD.get()
    if rec and s.strip():
        rec[0].texts.append((size / _SCALE.get(), s))
        if xy is not None and _SCALE.get() == 1:
            rec[0].places.append((xy[0], xy[1], s))


# ---------------------------------------------------------------------------------------------
# Fonts and text


#: Where a full TrueType font is looked for: first ``render/fonts/`` (shipped with the package;
#: pyproject's package-data already includes ``*.ttf``), then the usual DejaVu install paths. When
#: none is found we fall back to Pillow's bundled font, which has no accented letters, so texts are
#: then folded to plain ASCII ("vacía" -> "vacia") instead of showing empty boxes.
FONT_DIRS: list[Path] = [
    Path(__file__).resolve().parent / "fonts",
    Path("/usr/share/fonts/truetype/dejavu"),
    Path("/usr/share/fonts/dejavu"),
    Path("/usr/share/fonts/TTF"),
    Path("/usr/local/share/fonts"),
]
FONT_REGULAR = ("DejaVuSans.ttf",)
FONT_BOLD = ("DejaVuSans-Bold.ttf",)


def _find(names: tuple[str, ...]) -> str | None:
    for d in FONT_DIRS:
        for n in names:
            p = d / n
            if p.is_file():
                return str(p)
    return None


@cached(1)
def font_files() -> tuple[str | None, str | None]:
    """(regular, bold) TrueType paths in use; (None, None) means Pillow's bundled font."""
    reg = _find(FONT_REGULAR)
    return (reg, _find(FONT_BOLD) if reg else None)


def full_unicode() -> bool:
    """True when a real TrueType font (with accents, Spanish punctuation, ...) is available."""
    return font_files()[0] is not None


@cached(128)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """A font at ``size`` pixels (cached): DejaVu Sans (Bold) when found, else Pillow's bundled
    font (``ImageFont.load_default(size=...)``)."""
    size = max(1, int(size))
    reg, bld = font_files()
    path = bld if bold and bld else reg
    if path:
        return ImageFont.truetype(path, size)
    return ImageFont.load_default(size=size)  # type: ignore[return-value]


def _stroke(size: int, bold: bool) -> int:
    """Fake-bold stroke width, used only when no real bold face is available."""
    if not bold or font_files()[1]:
        return 0
    return max(1, round(size / 28))


_ASCII = str.maketrans({"–": "-", "—": "-", "×": "x", "¿": "", "¡": "", "’": "'", "“": '"', "”": '"'})


def prep(s: str) -> str:
    """The text as it will be drawn: unchanged with a full font; with Pillow's bundled font,
    accents are dropped and a few symbols replaced so nothing shows as a box."""
    if full_unicode():
        return s
    return _fold(s)[0]


_MARKS = {"\u0301": "acute", "\u0300": "grave", "\u0303": "tilde", "\u0308": "diaeresis"}


@cached(2048)
def _fold(s: str) -> tuple[str, tuple[tuple[int, str], ...]]:
    """ASCII-folded text and the accents to draw by hand: ((index in folded text, mark), ...)."""
    out: list[str] = []
    marks: list[tuple[int, str]] = []
    for ch in s.translate(_ASCII):
        parts = unicodedata.normalize("NFKD", ch)
        base = [p for p in parts if not unicodedata.combining(p)]
        out.extend(base)
        if len(base) == 1:
            marks.extend((len(out) - 1, _MARKS[p]) for p in parts if p in _MARKS)
    return "".join(out), tuple(marks)


def _draw_marks(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    s: str,
    size: int,
    fill: Color,
    anchor: str,
    bold: bool,
) -> None:
    """With the bundled font (no accented glyphs), draw acute/grave/tilde/diaeresis marks over
    the folded letters so Spanish still reads right ("Última", "vacía", "Ñ")."""
    base, marks = _fold(s)
    if not marks:
        return
    f = font(size, bold)
    length = f.getlength(base)
    ox = xy[0] - {"l": 0, "m": length / 2, "r": length}.get(anchor[0], 0)
    va = "l" + anchor[1]
    a = size * 0.2
    lw = max(1, round(size / (11 if bold else 14)))
    for i, mark in marks:
        x = ox + f.getlength(base[:i])
        x0, y0, x1, _ = draw.textbbox((x, xy[1]), base[i], font=f, anchor=va)
        if base[i].islower() and base[i] not in "ij":  # i/j: the mark goes above the dot
            y0 = draw.textbbox((x, xy[1]), "o", font=f, anchor=va)[1]
        cx, top = (x0 + x1) / 2, y0 - size * (0.07 if base[i].islower() else 0.1)
        if mark == "acute":
            draw.line((cx - a * 0.3, top, cx + a * 0.35, top - a * 0.9), fill=fill, width=lw)
        elif mark == "grave":
            draw.line((cx + a * 0.3, top, cx - a * 0.35, top - a * 0.9), fill=fill, width=lw)
        elif mark == "tilde":
            pts = [
                (cx - a * 0.8 + a * 1.6 * t / 10, top - a * 0.45 - math.sin(t / 10 * 2 * math.pi) * a * 0.25)
                for t in range(11)
            ]
            draw.line(pts, fill=fill, width=lw, joint="curve")
        else:
            r = max(1.0, size * 0.055)
            for dx in (-a * 0.4, a * 0.4):
                draw.ellipse((cx + dx - r, top - a * 0.5 - r, cx + dx + r, top - a * 0.5 + r), fill=fill)


@cached(4096)
def _has_glyph(ch: str) -> bool:
    if ch.isspace():
        return True
    return _glyph_pixels(ch) != _glyph_pixels("\ue000")  # private use: surely the .notdef box


@cached(4096)
def _glyph_pixels(ch: str) -> bytes:
    im = Image.new("L", (48, 48))
    ImageDraw.Draw(im).text((8, 8), ch, font=font(24), fill=255)
    return im.tobytes()


def clean_text(s: str, replacement: str = "") -> str:
    """Drop (or replace) characters the bundled font cannot draw, e.g. emoji in player names."""
    s = prep(s)
    out = "".join(ch if _has_glyph(ch) else replacement for ch in s)
    return " ".join(out.split()) if out.strip() else out.strip()


@cached(4096)
def text_size(s: str, size: int, bold: bool = False) -> tuple[int, int]:
    """(width, height) of ``s`` drawn at ``size`` (height is the ink height of the line)."""
    x0, y0, x1, y1 = font(size, bold).getbbox(prep(s), stroke_width=_stroke(size, bold))
    return (x1 - x0, y1 - y0)


@cached(8192)
def text_width(s: str, size: int, bold: bool = False) -> int:
    """Width of ``s`` drawn at ``size``: remembered, as a picture measures the same labels, names and
    numbers many times (fitting, ellipsizing, centring) and every picture after it does again."""
    return int(font(size, bold).getlength(prep(s))) + 2 * _stroke(size, bold)


def text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    s: str,
    size: int,
    fill: Color,
    anchor: str = "la",
    bold: bool = False,
    max_width: int | None = None,
) -> int:
    """Draw one line; returns the width used. ``anchor`` as in Pillow ("la", "mm", "rs", ...).

    With ``max_width`` the text is first shrunk (down to 60 % of ``size``) then ellipsized to fit.
    """
    if max_width is not None:
        low = max(floor() * _SCALE.get(), int(size * 0.6))
        size = fit_size(s, max_width, size, min(size, low), bold)
        s = ellipsize(s, size, max_width, bold)
    _note_text(size, s, xy)
    x, y = xy
    ix, iy = math.floor(x), math.floor(y)
    mask, ox, oy = _text_mask(prep(s), size, bold, anchor, round(x - ix, 3), round(y - iy, 3))
    draw.bitmap((ix + ox, iy + oy), mask, fill=fill)
    if not full_unicode():
        _draw_marks(draw, xy, s, size, fill, anchor, bold)
    return text_width(s, size, bold)


@cached(2048)
def _text_mask(s: str, size: int, bold: bool, anchor: str, fx: float, fy: float) -> tuple[Image.Image, int, int]:
    """``s`` rasterised once (the coverage of its glyphs, stroke included) with where it goes
    relative to the anchor's whole pixel; drawing it again is one masked fill. The fraction of the
    anchor's position is part of the key, so the glyphs land exactly as Pillow would draw them."""
    f, sw = font(size, bold), _stroke(size, bold)
    x0, y0, x1, y1 = f.getbbox(s, anchor=anchor, stroke_width=sw)
    x0, y0, x1, y1 = math.floor(x0) - 2, math.floor(y0) - 2, math.ceil(x1) + 2, math.ceil(y1) + 2
    mask = Image.new("L", (max(1, x1 - x0), max(1, y1 - y0)))
    ImageDraw.Draw(mask).text((-x0 + fx, -y0 + fy), s, font=f, fill=255, anchor=anchor, stroke_width=sw, stroke_fill=255)
    return mask, x0, y0


def fit_size(s: str, max_width: int, size: int, min_size: int = 8, bold: bool = False) -> int:
    """The largest font size <= ``size`` (and >= ``min_size``) at which ``s`` fits ``max_width``."""
    while size > min_size and text_width(s, size, bold) > max_width:
        size -= 1
    return size


def ellipsize(s: str, size: int, max_width: int, bold: bool = False) -> str:
    """``s`` cut at the end with "…" so it fits ``max_width`` (unchanged if it already fits)."""
    if text_width(s, size, bold) <= max_width:
        return s
    lo, hi = 0, len(s)
    while lo < hi:  # longest prefix that fits with the ellipsis
        mid = (lo + hi + 1) // 2
        if text_width(s[:mid].rstrip() + "…", size, bold) <= max_width:
            lo = mid
        else:
            hi = mid - 1
    return s[:lo].rstrip() + "…"


def wrap(s: str, size: int, max_width: int, bold: bool = False) -> list[str]:
    """Greedy word wrap into lines no wider than ``max_width`` (a too-long word is ellipsized)."""
    lines: list[str] = []
    cur = ""
    for word in s.split():
        cand = f"{cur} {word}" if cur else word
        if text_width(cand, size, bold) <= max_width:
            cur = cand
            continue
        if cur:
            lines.append(cur)
        cur = word if text_width(word, size, bold) <= max_width else ellipsize(word, size, max_width, bold)
    if cur:
        lines.append(cur)
    return lines


# ---------------------------------------------------------------------------------------------
# Anti-aliased sprites and symbols

SS = 4  # supersampling factor for sprites


def supersampled(
    w: int, h: int, paint: Callable[[ImageDraw.ImageDraw, int], None], scale: int = SS
) -> Image.Image:
    """An RGBA ``w`` x ``h`` sprite painted at ``scale``x by ``paint(draw, scale)`` then scaled
    down, which gives smooth edges to shapes Pillow draws without anti-aliasing. Cache the result
    at the call site (sprites are usually reused many times)."""
    big = Image.new("RGBA", (w * scale, h * scale), (0, 0, 0, 0))
    token = _SCALE.set(scale)
    try:
        paint(ImageDraw.Draw(big), scale)
    finally:
        _SCALE.reset(token)
    return big.reduce(scale)  # box filter: exact average of scale x scale samples, fast


@cached(512)
def rounded_sprite(
    w: int, h: int, radius: int, fill: Color, outline: Color | None = None, width: int = 0
) -> Image.Image:
    """A smooth rounded rectangle (RGBA sprite, transparent corners)."""

    def paint(d: ImageDraw.ImageDraw, s: int) -> None:
        d.rounded_rectangle(
            (0, 0, w * s - 1, h * s - 1), radius * s, fill=fill, outline=outline, width=width * s
        )

    return supersampled(w, h, paint)


def paste(canvas: Image.Image, sprite: Image.Image, xy: tuple[int, int]) -> None:
    """Alpha-composite an RGBA sprite onto an RGB or RGBA canvas at integer ``xy``."""
    canvas.paste(sprite, (int(xy[0]), int(xy[1])), sprite)


def _regular(cx: float, cy: float, r: float, n: int, rot: float = -90.0) -> list[tuple[float, float]]:
    return [
        (
            cx + r * math.cos(math.radians(rot + 360 * i / n)),
            cy + r * math.sin(math.radians(rot + 360 * i / n)),
        )
        for i in range(n)
    ]


def _star(cx: float, cy: float, r: float, points: int = 5, inner: float = 0.45) -> list[tuple[float, float]]:
    pts = []
    for i in range(points * 2):
        rr = r if i % 2 == 0 else r * inner
        a = math.radians(-90 + 180 * i / points)
        pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    return pts


SYMBOLS = (
    "circle",
    "sun",
    "triangle",
    "diamond",
    "wave",
    "star",
    "square",
    "hexagon",
    "cross",
    "coin",
    "drop",
)


def draw_symbol(
    d: ImageDraw.ImageDraw,
    name: str,
    box: tuple[float, float, float, float],
    fill: Color,
    bg: Color | None = None,
    note: bool = True,
) -> None:
    """Draw a simple flat symbol filling ``box`` (x0, y0, x1, y1). ``bg`` is the colour under it
    (used to cut holes, e.g. the coin's inner ring). Best used inside :func:`supersampled`.
    ``note=False``: a secondary cue on a marker already measured (not a marker itself)."""
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    r = min(x1 - x0, y1 - y0) / 2
    if note:
        marker(2 * r, "symbol " + name)
    hole = bg if bg is not None else (0, 0, 0, 0)
    if name == "circle":
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill)
    elif name == "sun":
        core = r * 0.55
        d.ellipse((cx - core, cy - core, cx + core, cy + core), fill=fill)
        for i in range(8):
            a = math.radians(i * 45)
            ca, sa = math.cos(a), math.sin(a)
            d.line(
                (cx + ca * r * 0.72, cy + sa * r * 0.72, cx + ca * r, cy + sa * r),
                fill=fill,
                width=max(1, int(r * 0.2)),
            )
    elif name == "triangle":  # a mountain
        d.polygon([(cx, cy - r * 0.9), (cx + r, cy + r * 0.8), (cx - r, cy + r * 0.8)], fill=fill)
    elif name == "diamond":
        d.polygon([(cx, cy - r), (cx + r * 0.75, cy), (cx, cy + r), (cx - r * 0.75, cy)], fill=fill)
    elif name == "wave":
        w = max(1, int(r * 0.22))
        for k in (-0.45, 0.25):
            pts = [
                (cx - r + 2 * r * t / 24, cy + k * r + math.sin(t / 24 * 2 * math.pi) * r * 0.28)
                for t in range(25)
            ]
            d.line(pts, fill=fill, width=w, joint="curve")
    elif name == "star":
        d.polygon(_star(cx, cy + r * 0.06, r), fill=fill)
    elif name == "square":
        q = r * 0.82
        d.rectangle((cx - q, cy - q, cx + q, cy + q), fill=fill)
    elif name == "hexagon":
        d.polygon(_regular(cx, cy, r, 6, 0), fill=fill)
    elif name == "cross":
        w = max(1, int(r * 0.38))
        q = r * 0.78
        d.line((cx - q, cy - q, cx + q, cy + q), fill=fill, width=w)
        d.line((cx - q, cy + q, cx + q, cy - q), fill=fill, width=w)
    elif name == "coin":
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill)
        ri = r * 0.72
        d.ellipse((cx - ri, cy - ri, cx + ri, cy + ri), outline=hole, width=max(1, int(r * 0.12)))
        rs = r * 0.34
        d.polygon(_star(cx, cy + rs * 0.08, rs, 4, 0.4), fill=hole)
    elif name == "drop":  # a flame / volcano drop: circle with a point on top
        d.ellipse((cx - r * 0.68, cy - r * 0.2, cx + r * 0.68, cy + r), fill=fill)
        d.polygon([(cx, cy - r), (cx + r * 0.64, cy + r * 0.3), (cx - r * 0.64, cy + r * 0.3)], fill=fill)
    else:
        raise ValueError(f"unknown symbol {name!r}")


def pill(
    canvas: Image.Image,
    xy: tuple[int, int],
    s: str,
    size: int,
    fill: Color,
    ink: Color | None = None,
    anchor: str = "la",
    pad: int | None = None,
    bold: bool = True,
    max_width: int | None = None,
) -> tuple[int, int, int, int]:
    """A rounded label with text. ``anchor``: 'l'/'m'/'r' + 'a'/'m' for the box position
    relative to ``xy``. With ``max_width`` (of the whole label) the text is shrunk (to 60 %) and
    then ellipsized to fit. Returns the box (x0, y0, x1, y1)."""
    pad = pad if pad is not None else max(4, size // 3)
    if max_width is not None:
        extra = 2 * pad + size // 3
        size = fit_size(s, max_width - extra, size, min(size, max(floor(), int(size * 0.6))), bold)
        s = ellipsize(s, size, max_width - extra, bold)
    tw = text_width(s, size, bold)
    w, h = tw + 2 * pad + size // 3, int(size * 1.35)
    x, y = xy
    x -= {"l": 0, "m": w // 2, "r": w}[anchor[0]]
    y -= {"a": 0, "m": h // 2, "s": h, "d": h}[anchor[1]]
    paste(canvas, rounded_sprite(w, h, h // 2, tuple(fill)), (x, y))
    d = ImageDraw.Draw(canvas)
    text(d, (x + w / 2, y + h / 2), s, size, ink or ink_for(fill), anchor="mm", bold=bold)
    return (x, y, x + w, y + h)


def corners(d: ImageDraw.ImageDraw, box: tuple[float, float, float, float], edge: Color = (20, 20, 20)) -> None:
    """White corner brackets edged in ``edge`` inside ``box``: "new since your last turn" on the
    catch-up pictures. A shape apart from a full frame (the last move), so it is told without hue."""
    x0, y0, x1, y1 = box
    arm = max(6, int(x1 - x0) // 3)
    lw = max(3, int(x1 - x0) // 16)
    h = lw // 2
    for ox, oy, dx, dy in ((x0, y0, 1, 1), (x1, y0, -1, 1), (x0, y1, 1, -1), (x1, y1, -1, -1)):
        for colour, w in ((edge, lw + 2), ((255, 255, 255), lw)):
            d.line((ox, oy + dy * h, ox + dx * arm, oy + dy * h), fill=colour, width=w)
            d.line((ox + dx * h, oy, ox + dx * h, oy + dy * arm), fill=colour, width=w)


def frame(
    d: ImageDraw.ImageDraw,
    box: tuple[float, float, float, float],
    radius: int,
    color: Color,
    width: int,
    dashed: bool = False,
) -> None:
    """An outline around ``box`` (drawn outside it by ``width``); dashed draws 4 dashed sides."""
    x0, y0, x1, y1 = box
    if not dashed:
        d.rounded_rectangle(
            (x0 - width, y0 - width, x1 + width, y1 + width), radius + width, outline=color, width=width
        )
        return
    dash = 14
    for ax, ay, bx, by in ((x0, y0, x1, y0), (x1, y0, x1, y1), (x1, y1, x0, y1), (x0, y1, x0, y0)):
        length = math.hypot(bx - ax, by - ay)
        n = max(1, int(length // (2 * dash)))
        for i in range(n + 1):
            t0, t1 = (2 * i * dash) / length, min(1.0, (2 * i + 1) * dash / length)
            if t0 >= 1:
                break
            d.line(
                (ax + (bx - ax) * t0, ay + (by - ay) * t0, ax + (bx - ax) * t1, ay + (by - ay) * t1),
                fill=color,
                width=width,
            )


# ---------------------------------------------------------------------------------------------
# Canvas and encoding


def new_canvas(w: int, h: int, bg: Color = UI["bg"]) -> Image.Image:
    return Image.new("RGB", (int(w), int(h)), tuple(bg))


def encode_png(img: Image.Image, palette: bool = True, compress_level: int = 3) -> bytes:
    """PNG bytes (no metadata, deterministic), optimize=False.

    ``palette=True`` first reduces flat art to 256 colours (no dithering): for a 1200x1600 board
    that is ~3x smaller and ~2x faster to encode than RGB, with no visible change. Use
    ``palette=False`` for photos or smooth gradients."""
    if palette and img.mode in ("RGB", "RGBA"):
        img = to_palette(img)
    buf = io.BytesIO()
    img.save(buf, "PNG", optimize=False, compress_level=compress_level)
    return buf.getvalue()


def to_palette(img: Image.Image, step: int = 2) -> Image.Image:
    """``img`` in 256 colours, without dithering. The palette is chosen (fast octree) from every
    ``step``-th pixel of every ``step``-th row, then the whole picture is mapped to it: flat art
    keeps its colours (any area wider than ``step`` pixels is sampled) and the octree is built over
    a quarter of the pixels. Measured on the Lost Cities pictures: 3-5 ms instead of 4-12 ms, and
    the mean error per channel no higher than the octree's over every pixel (bench/render.py)."""
    if img.mode != "RGB":  # with transparency: the octree over every pixel, as before
        return img.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    sample = img.resize((max(1, img.width // step), max(1, img.height // step)), Image.Resampling.NEAREST)
    chosen = sample.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    return img.quantize(palette=chosen, dither=Image.Dither.NONE)


def encode_webp(img: Image.Image, lossless: bool = True, quality: int = 80) -> bytes:
    """WebP bytes (smaller than PNG for flat art; Discord shows WebP inline too)."""
    buf = io.BytesIO()
    img.save(buf, "WEBP", lossless=lossless, quality=quality, method=2 if lossless else 4)
    return buf.getvalue()


def join_nonempty(parts: Iterable[str], sep: str = "  ·  ") -> str:
    return sep.join(p for p in parts if p)
