"""Every picture is readable on a phone: Discord shows a picture at most 400 px wide there, so the
smallest text each renderer really draws, times the picture's phone scale, must be at least 10 px,
and the smallest marker (meeple, numbered or lettered spot, colour symbol, coin) at least 8 px.

The sizes are recorded while drawing (render.common.recording), so a text that a renderer shrinks
to fit a width is measured at the size it was finally drawn. Each picture is also written, full
size and at 400 px, under $PARTIDA_PICS (default /tmp/partida-pics/after) to be looked at.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from render.common import MIN_MARKER_SEEN, MIN_TEXT_SEEN, clear_caches, recording, seen_scale
from tests.render.gallery import gallery, save

PICS = Path(os.environ.get("PARTIDA_PICS", "/tmp/partida-pics/after"))
GALLERY = gallery(("lc", "carc", "cit", "cities", "guides"))


@pytest.mark.parametrize("name", sorted(GALLERY))
def test_smallest_text_and_marker_readable_at_400px(name):
    clear_caches()  # cached sprites would not be drawn (nor measured) again
    with recording() as rec:
        img = GALLERY[name]()
    save(name, img, PICS)
    scale = seen_scale(img.width)
    assert rec.texts, "the recorder saw no text: the measure is broken"
    size, what = min(rec.texts)
    assert size * scale >= MIN_TEXT_SEEN, f"{name}: {what!r} drawn at {size:.1f} px is {size * scale:.1f} px on a phone"
    if rec.markers:
        msize, mwhat = min(rec.markers)
        assert msize * scale >= MIN_MARKER_SEEN, f"{name}: {mwhat} of {msize:.1f} px is {msize * scale:.1f} px on a phone"


def test_the_recorder_sees_small_text_and_shrinking():
    """The measure itself: a tiny text and a text shrunk to fit are recorded at their drawn size."""
    from PIL import Image, ImageDraw

    from render.common import legible, text

    img = Image.new("RGB", (1200, 100))
    d = ImageDraw.Draw(img)
    with recording() as rec:
        text(d, (0, 0), "tiny", 12, (255, 255, 255))
        with legible(1200) as floor:
            text(d, (0, 50), "a rather long caption that cannot fit", 40, (255, 255, 255), max_width=200)
    assert rec.texts[0][0] == 12
    assert floor == 30 and rec.texts[1][0] == 30  # shrunk only to the phone floor, then cut with "…"
    assert rec.texts[1][1].endswith("…")
