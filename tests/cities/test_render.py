"""Cities pictures: valid PNGs of phone-friendly width for 2-4 players, deterministic, the same for
a seat view and the public view, language and heights change the picture."""

import copy
import io
import random

import pytest
from PIL import Image

from engines.ai import RandomPlayer
from engines.cities import GAME
from engines.match import Match
from render.cities import W, board_png, hood_png

NAMES = ["Ana", "Ben", "Cris", "Dani"]


def _png(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return Image.open(io.BytesIO(data))


def _match(n, steps, long=False):
    m = Match.create("cities", NAMES[:n], {"long": long}, seed=n)
    rng = random.Random(n)
    p = RandomPlayer()
    for _ in range(steps):
        if m.over:
            break
        seat = m.to_move()[0]
        m.apply_code(seat, p.choose(GAME, m.state, seat, rng))
    return m


@pytest.mark.parametrize(("n", "steps", "long"), [(2, 0, False), (4, 150, False), (3, 10_000, False), (2, 120, True)])
def test_board_pictures_are_phone_sized_pngs(n, steps, long):
    m = _match(n, steps, long)
    data = board_png(m.view(None), m.seats, "en")
    img = _png(data)
    assert img.size[0] == W == 800 and 600 < img.size[1] < 2200
    assert len(data) < 400 * 1024
    assert board_png(m.view(None), m.seats, "en") == data  # deterministic
    assert board_png(m.view(0), m.seats, "en") == data  # nothing private in Cities
    assert board_png(m.view(None), m.seats, "es") != data


def test_a_taller_building_changes_the_picture_of_its_neighbourhood():
    m = _match(2, 60)
    view = m.view(None)
    player = view["players"][0]
    built = [sp for sp in player["spaces"] if sp["height"]]
    assert built
    a = hood_png(view, 0)
    taller = copy.deepcopy(view)
    sp = next(s for s in taller["players"][0]["spaces"] if s["height"] == built[0]["height"])
    sp["height"] = 1 if sp["height"] > 1 else 4
    assert hood_png(taller, 0) != a
    assert _png(a).size == (480, 480)


def test_the_catch_up_picture_marks_what_the_others_placed_since_the_last_turn():
    """Tiles and spaces placed since the viewer's last turn get white corners and their panel says
    how many (bot.games.cities.mark_since builds the marks from the log)."""
    from bot.games import ui_for
    from render.cities import board_image

    m = Match.create("cities", NAMES[:3], {}, seed=3)
    rng, p, log = random.Random(3), RandomPlayer(), []
    while len([x for x in log if x[1]["type"] in ("tile", "feature", "build")]) < 6:
        seat = m.to_move()[0]
        code = p.choose(m.game, m.state, seat, rng)
        m.apply_code(seat, code)
        log.append((seat, m.game.encode(code)))
    view = m.view(None)
    marked = ui_for("cities").mark_since(view, log)
    placed = [a for _, a in log if a["type"] in ("tile", "feature", "build")]
    assert len(marked["since"]) == len(placed)
    assert all(mk[1] == ("tile" if a["type"] == "tile" else "space") and mk[2:] == [a["x"], a["y"]]
               for mk, a in zip(marked["since"], placed, strict=True))
    assert ui_for("cities").mark_since(view, [(0, {"type": "take", "row": "A", "slot": 0})]) is view

    def white(img):
        return {c: n for n, c in img.convert("RGB").getcolors(1 << 24)}.get((255, 255, 255), 0)

    a, b = board_image(view, NAMES[:3], "en"), board_image(marked, NAMES[:3], "en")
    assert white(b) > white(a) + 100 * len(placed)
