"""Colour-blind safety: seat colours and terrain stay apart for protanopes, deuteranopes and
tritanopes (Machado 2009 simulation, CIE76 distance), and they differ in shape or pattern too."""

from __future__ import annotations

import pytest

from render import carcassonne as C
from render import citadels as T
from render import lost_cities as L
from tests.render.colour_vision import VISIONS, delta_e, simulate, worst_pair

APART = 20  # clearly different colours at a glance
APART_WITH_SYMBOL = 14  # colours that also carry a distinct symbol on every card


def test_the_simulation_is_the_published_one():
    """Sanity of the measure: grey stays grey, red and green merge for deuteranopes but not for
    typical vision, blue and green merge for tritanopes less than for typical vision."""
    for v in VISIONS:
        r, g, b = simulate((128, 128, 128), v)
        assert abs(r - g) < 0.01 and abs(g - b) < 0.01
    red, green = (200, 60, 40), (90, 140, 40)
    assert delta_e(red, green) > 40 and delta_e(red, green, "deuteranopia") < 20


def test_carcassonne_seat_colours_are_apart_for_every_vision():
    seats = {f"seat {i}": c for i, c in enumerate(C.SEAT_COLOURS)}
    d, a, b, v = worst_pair(seats)
    assert d >= APART, f"{a} and {b} are {d:.1f} apart for {v}"


def test_carcassonne_terrain_is_apart_for_every_vision():
    terrain = {"field": C.FIELD, "city": C.CITY, "road": C.ROAD, "no tile": C.EMPTY}
    d, a, b, v = worst_pair(terrain)
    assert d >= APART, f"{a} and {b} are {d:.1f} apart for {v}"


def test_every_meeple_stands_out_on_every_terrain():
    """Its body or its ring differs from the field, city and road under it, for every vision."""
    for i, colour in enumerate(C.SEAT_COLOURS):
        ring = C.meeple_ring(colour)
        for name, ground in (("field", C.FIELD), ("city", C.CITY), ("road", C.ROAD)):
            for v in VISIONS:
                best = max(delta_e(colour, ground, v), delta_e(ring, ground, v))
                assert best >= APART, (i, name, v, round(best, 1))


def test_the_turn_mark_and_the_last_tile_frame_are_no_seat_colour():
    """They used to be the yellow of the yellow seat's meeples."""
    for mark in (C.TURN, C.LAST):
        for i, colour in enumerate(C.SEAT_COLOURS):
            worst = min(delta_e(mark, colour, v) for v in VISIONS)
            assert worst >= APART or (mark == C.LAST and i == 5), (mark, i, round(worst, 1))
    # the white seat and the white frame: the frame is a frame (a square outline), the seat a meeple
    assert C.LAST == (255, 255, 255)


def test_seats_differ_in_shape_not_only_colour():
    assert len(set(C.SEAT_MARKS)) == len(C.SEAT_MARKS) >= len(C.SEAT_COLOURS)
    grey = (128, 128, 128)
    sprites = [C.meeple_sprite(grey, 60, 0, seat).tobytes() for seat in range(len(C.SEAT_COLOURS))]
    assert len(set(sprites)) == len(sprites)  # same colour, different mark


def test_cities_and_fields_carry_a_pattern():
    from engines.carcassonne import GAME

    view = GAME.view(GAME.new_state(2, GAME.parse_options({}), 1, None), None)
    city = C.tile_image(view, "C", 0, 120)  # a whole city
    field = C.tile_image(view, "B", 0, 120)  # a monastery on a field
    assert C.BRICK in {c for _, c in city.getcolors(1 << 16)}
    assert C.TUFT in {c for _, c in field.getcolors(1 << 16)}
    assert C.BRICK not in {c for _, c in field.getcolors(1 << 16)}


@pytest.mark.parametrize(
    ("name", "colours", "symbols"),
    [("Lost Cities", L.CARD_FILL, L.SYMBOL), ("Citadels districts", T.FILL, T.SYMBOL)],
)
def test_card_colours_are_apart_and_each_has_its_own_symbol(name, colours, symbols):
    d, a, b, v = worst_pair(dict(colours))
    assert d >= APART_WITH_SYMBOL, f"{name}: {a} and {b} are {d:.1f} apart for {v}"
    assert set(symbols) == set(colours) and len(set(symbols.values())) == len(symbols)
