"""Seat markers on a phone: every meeple's seat mark and every seat marker (Cities workers, ring
owners and panels, Citadels' crown) is at least 8 px once the picture is shown 400 px wide; seat
colours stay apart under deuteranopia, protanopia and tritanopia; and seats differ in shape too.

Each picture looked at here is also written at 400 px as a sheet of four (typical vision,
deuteranopia, protanopia, tritanopia) under $PARTIDA_PICS (default /tmp/partida-pics/after), named
``NAME@400-vision.png``; the same sheets of the code before this change are made with
``python -m tests.render.gallery DIR`` run on the older commit.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageFilter

from render import carcassonne as C
from render import cities as Y
from render.common import MIN_MARKER_SEEN, clear_caches, ink_for, recording, seen_scale
from tests.render.colour_vision import vision_sheet, worst_pair
from tests.render.gallery import gallery, phone

PICS = Path(os.environ.get("PARTIDA_PICS", "/tmp/partida-pics/after"))
SEATS_APART = 28  # seat colours: further apart than the 20 of "clearly different" (the old set: 26.3)
SEAT_MARKERS = {"seat mark", "worker", "ring owner", "seat", "crown"}


def _phone_meeple(seat: int, size: int = C.MIN_MEEPLE, angle: int = 0) -> Image.Image:
    """A seat's meeple as the phone shows it on the 800 px board: half size, on the field."""
    spr = C.meeple_sprite(C.seat_colour(seat), size, angle, seat)
    ground = Image.new("RGBA", spr.size, C.FIELD + (255,))
    ground.alpha_composite(spr)
    return phone(ground.convert("RGB"), round(size * seen_scale(C.W)))


def _mark_extent(seat: int, angle: int = 0) -> tuple[int, int, int]:
    """(width, height, pixels) of the seat mark's ink on the phone-sized meeple: pixels near the
    mark's ink colour inside the meeple's body (its outline ring left out)."""
    size = C.MIN_MEEPLE
    colour = C.seat_colour(seat)
    spr = C.meeple_sprite(colour, size, angle, seat)
    body = spr.getchannel("A").point(lambda a: 255 if a == 255 else 0).filter(ImageFilter.MinFilter(7))
    small = round(size * seen_scale(C.W))
    body = body.resize((small, small), Image.Resampling.BOX).point(lambda a: 255 if a > 200 else 0)
    img = _phone_meeple(seat, size, angle)
    ink = ink_for(colour)
    near = Image.new("L", img.size, 0)
    px = img.load()
    for y in range(img.height):
        for x in range(img.width):
            if body.getpixel((x, y)) and sum(abs(px[x, y][i] - ink[i]) for i in range(3)) < 150:
                near.putpixel((x, y), 255)
    box = near.getbbox()
    if box is None:
        return (0, 0, 0)
    return (box[2] - box[0], box[3] - box[1], near.histogram()[255])


@pytest.mark.parametrize("seat", range(len(C.SEAT_COLOURS)))
def test_each_meeple_seat_mark_is_8px_on_a_phone(seat):
    """Measured in pixels on the smallest meeple the board draws, scaled to 400 px."""
    for angle in (0, 90):  # standing, and lying (a farmer)
        w, h, n = _mark_extent(seat, angle)
        assert max(w, h) >= MIN_MARKER_SEEN and n >= 12, (seat, angle, w, h, n)


def test_seat_marks_differ_in_shape_on_a_phone():
    """Same colour for every seat: the phone-sized meeples still differ in many pixels."""
    grey = (128, 128, 128)
    small = round(C.MIN_MEEPLE * seen_scale(C.W))
    imgs = [phone(C.meeple_sprite(grey, C.MIN_MEEPLE, 0, s).convert("L"), small) for s in range(len(C.SEAT_MARKS))]
    for i in range(len(imgs)):
        for j in range(i + 1, len(imgs)):
            diff = ImageChops.difference(imgs[i], imgs[j]).point(lambda v: 255 if v > 60 else 0)
            assert diff.histogram()[255] >= 6, (C.SEAT_MARKS[i], C.SEAT_MARKS[j])


@pytest.mark.parametrize(("game", "colours"), [("Carcassonne meeples", C.SEAT_COLOURS), ("Cities seats", Y.SEAT_COLOURS)])
def test_seat_colours_stay_apart_for_every_vision(game, colours):
    d, a, b, v = worst_pair({f"seat {i + 1}": c for i, c in enumerate(colours)})
    assert d >= SEATS_APART, f"{game}: {a} and {b} are {d:.1f} apart for {v}"


def test_cities_seats_have_a_shape_each():
    assert len(set(Y.SEAT_SHAPES)) == len(Y.SEAT_SHAPES) >= len(Y.SEAT_COLOURS)


_BOARDS = gallery(("carc", "cit", "cities"))
_WITH_SEATS = sorted(n for n in _BOARDS if n.endswith("_en") and ("_board_" in n or "_catchup_" in n or "_hand_" in n or "_turn_" in n))


@pytest.mark.parametrize("name", _WITH_SEATS)
def test_every_seat_marker_drawn_is_8px_on_a_phone(name):
    clear_caches()
    with recording() as rec:
        img = _BOARDS[name]()
    PICS.mkdir(parents=True, exist_ok=True)
    vision_sheet(img).save(PICS / f"{name}@400-vision.png")
    seats = [(s, w) for s, w in rec.markers if w in SEAT_MARKERS]
    if name.startswith(("carc_board", "carc_catchup", "carc_turn", "cities_")):
        assert seats, f"{name}: no seat marker recorded: the measure is broken"
    scale = seen_scale(img.width)
    for size, what in seats:
        assert size * scale >= MIN_MARKER_SEEN, f"{name}: {what} of {size:.1f} px is {size * scale:.1f} px on a phone"
