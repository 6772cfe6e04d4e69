"""render.common helpers: colours, text fitting, symbols, encoding."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageDraw

from render import common as c


def test_rgb_and_ink():
    assert c.rgb("#ff8000") == (255, 128, 0)
    assert c.rgb("blue") == c.PALETTE["blue"]
    with pytest.raises(ValueError):
        c.rgb("#12")
    assert c.ink_for((250, 250, 250)) == (20, 20, 20)
    assert c.ink_for((10, 10, 60)) == (255, 255, 255)
    assert c.contrast((0, 0, 0), (255, 255, 255)) == pytest.approx(21, rel=1e-3)


def test_fit_and_ellipsize():
    s = "Maximiliano de la Fuente y Ortega"
    size = c.fit_size(s, 200, 40, 8)
    assert c.text_width(s, size) <= 200 or size == 8
    cut = c.ellipsize(s, 30, 150)
    assert cut.endswith("…") and c.text_width(cut, 30) <= 150
    assert c.ellipsize("ok", 30, 500) == "ok"
    lines = c.wrap("uno dos tres cuatro cinco seis siete ocho", 24, 160)
    assert len(lines) > 1 and all(c.text_width(line, 24) <= 160 for line in lines)


def test_clean_text_drops_emoji():
    assert c.clean_text("Ana 🎲") == "Ana"
    if c.full_unicode():
        assert c.clean_text("José Ñúñez") == "José Ñúñez"
    else:
        assert c.clean_text("José Ñúñez") == "Jose Nunez"


@pytest.mark.parametrize("name", c.SYMBOLS)
def test_symbols_draw_something(name):
    spr = c.supersampled(
        40, 40, lambda d, s: c.draw_symbol(d, name, (2 * s, 2 * s, 38 * s, 38 * s), (255, 0, 0), bg=(0, 0, 0))
    )
    assert spr.size == (40, 40)
    assert spr.getchannel("A").getbbox() is not None


def test_encoders_round_trip():
    img = c.new_canvas(300, 200)
    d = ImageDraw.Draw(img)
    c.text(d, (10, 10), "Ronda 2/3 · Última", 30, (255, 255, 255), bold=True)
    c.pill(img, (150, 150), "le toca", 24, c.UI["accent"], anchor="mm")
    for data in (c.encode_png(img), c.encode_png(img, palette=False)):
        out = Image.open(io.BytesIO(data))
        assert out.size == (300, 200)
    assert c.encode_png(img) == c.encode_png(img.copy())
    assert Image.open(io.BytesIO(c.encode_webp(img))).size == (300, 200)


@pytest.fixture
def bundled_font_only(monkeypatch):
    """Pretend no TrueType font is installed (like python:3.11-slim): Pillow's bundled font."""
    monkeypatch.setattr(c, "FONT_DIRS", [])
    c.clear_caches()
    yield
    monkeypatch.undo()
    c.clear_caches()


def test_fallback_font_folds_accents(bundled_font_only):
    assert not c.full_unicode()
    assert c.prep("Última jugada: vacía – ¿sí?") == "Ultima jugada: vacia - si?"
    assert c.clean_text("José Ñúñez 🎲") == "Jose Nunez"


def test_lost_cities_renders_with_fallback_font(bundled_font_only):
    from render.lost_cities import board_png, hand_png
    from tests.render.samples import NAMES, SAMPLES, public

    view = SAMPLES["mid_long"]()
    for lang in ("en", "es"):
        board = Image.open(io.BytesIO(board_png(public(view), NAMES, lang)))
        hand = Image.open(io.BytesIO(hand_png(view, lang)))
        assert board.size[0] == 800 and hand.size[0] == 600


def test_fallback_font_draws_accents_by_hand(bundled_font_only):
    def draw(s: str) -> bytes:
        img = c.new_canvas(300, 60)
        c.text(ImageDraw.Draw(img), (10, 30), s, 30, (255, 255, 255), anchor="lm", bold=True)
        return img.tobytes()

    assert draw("vacía") != draw("vacia")
    assert draw("año") != draw("ano")
    assert draw("plain") == draw("plain")


def _error(img: Image.Image, reduced: Image.Image) -> tuple[float, float]:
    """Mean error per channel, and the share of pixels off by more than 12 in some channel."""
    from PIL import ImageChops, ImageStat

    diff = ImageChops.difference(img, reduced.convert("RGB"))
    far = diff.convert("L").point(lambda v: 255 if v > 12 else 0)
    return sum(ImageStat.Stat(diff).mean) / 3, ImageStat.Stat(far).mean[0] / 255


def test_palette_from_a_sample_keeps_the_pictures_colours():
    """encode_png chooses its 256 colours from a quarter of the pixels: the real pictures lose no
    more than with the octree over every pixel, and a flat colour however small its area (a 3x3
    marker) keeps its exact value."""
    from render.lost_cities import board_image, turn_image
    from tests.render.samples import NAMES, SAMPLES, public

    for make in SAMPLES.values():
        view = make()
        for img in (turn_image(view, NAMES, "en"), board_image(public(view), NAMES, "es")):
            full = img.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
            mean, far = _error(img, c.to_palette(img))
            assert mean <= _error(img, full)[0] + 0.15
            assert far < 0.0005
    img = Image.new("RGB", (300, 200), (240, 236, 228))
    ImageDraw.Draw(img).rectangle((101, 51, 103, 53), fill=(200, 30, 160))
    assert c.to_palette(img).convert("RGB").getpixel((102, 52)) == (200, 30, 160)
    decoded = Image.open(io.BytesIO(c.encode_png(img)))
    assert decoded.mode == "P" and decoded.convert("RGB").getpixel((102, 52)) == (200, 30, 160)


def test_cached_text_draws_what_pillow_draws():
    """text() rasterises a line once and fills its mask after: the same pixels as Pillow's own
    drawing, for any anchor, weight and fractional position, on RGB and on RGBA sprites."""
    cases = [("Ronda 1/3", 26, False, "la", (10, 10)), ("Mazo: 38", 22, True, "mm", (150.5, 40.25)),
             ("José Ñúñez", 30, True, "rs", (290.7, 90.5)), ("-83", 18, False, "lm", (3.333, 70.9))]
    for mode, bg in (("RGB", (24, 30, 40)), ("RGBA", (0, 0, 0, 0))):
        for s, size, bold, anchor, xy in cases:
            ours, theirs = Image.new(mode, (300, 120), bg), Image.new(mode, (300, 120), bg)
            for _ in range(2):  # the second draw comes from the cache
                c.text(ImageDraw.Draw(ours), xy, s, size, (250, 200, 60), anchor=anchor, bold=bold)
            sw = c._stroke(size, bold)
            for _ in range(2):
                ImageDraw.Draw(theirs).text(xy, c.prep(s), font=c.font(size, bold), fill=(250, 200, 60), anchor=anchor,
                                            stroke_width=sw, stroke_fill=(250, 200, 60))
            assert ours.tobytes() == theirs.tobytes(), (mode, s)
