"""Every legal place reachable on a picture: when a placement menu needs more than one page, each
page comes with a picture of the area its places are in, each place lettered as in the menu, tile
numbers on the picture's edges. Tried on a 400-set Carcassonne marathon after 300 tiles (greedy
AI, seed 7), the gallery's sprawling random table and a 6-player match; and on Cities' lettered
neighbourhood. Pages' pictures are written at 400 px under $PARTIDA_PICS for review."""

from __future__ import annotations

import os
import random
from functools import lru_cache
from pathlib import Path

import pytest
from PIL import Image

from render import carcassonne as R
from render.common import clear_caches, recording, seen_scale
from tests.render.gallery import NAMES, carcassonne_states, save

PICS = Path(os.environ.get("PARTIDA_PICS", "/tmp/partida-pics/after"))
PER_PAGE = 23  # the bot's page of places (bot/games/carcassonne.py PAGE)
MAX_PHONE_H = 900  # a page picture seen 400 px wide


@lru_cache(maxsize=1)
def marathon_view():
    """Sets=400 (28,800 tiles), 4 players, 300 tiles laid by the greedy AI (seed 7)."""
    from engines.carcassonne import GAME
    from engines.carcassonne.ai import GreedyPlayer

    s = GAME.new_state(4, GAME.parse_options({"sets": 400}), 7, None)
    p, rng = GreedyPlayer(), random.Random(7)
    for _ in range(300):
        seat = GAME.to_move(s)[0]
        GAME.step(s, seat, p.choose(GAME, s, seat, rng))
    return GAME.view(s, GAME.to_move(s)[0])


def _view(key: str):
    if key == "marathon400":
        return marathon_view()
    from engines.carcassonne import GAME

    s = carcassonne_states()[key]
    return GAME.view(s, GAME.to_move(s)[0])


def _lettered(img: Image.Image, xy: tuple[int, int], cell: int = 44) -> bool:
    """A letter box is drawn there: white paper and dark ink within the letter's box."""
    x, y = xy
    box = img.crop((x - cell // 3, y - cell // 4, x + cell // 3, y + cell // 4)).convert("RGB")
    colours = dict((c, n) for n, c in box.getcolors(1 << 16))
    white = colours.get((255, 255, 255), 0)
    ink = sum(n for c, n in colours.items() if max(c) < 60)
    return white >= 20 and ink >= 10


def test_the_marathon_has_more_places_than_one_menu():
    assert len(R.legal_cells(marathon_view())) > R.MENU_MAX  # else this file tests nothing


@pytest.mark.parametrize("key", ["marathon400", "marathon", "mid_6p"])
def test_every_place_of_every_page_is_lettered_on_its_picture(key):
    view = _view(key)
    legal = R.legal_cells(view)
    pages = R.place_pages(view, PER_PAGE)
    labels = R.place_labels(view, PER_PAGE)
    flat = [c for page in pages for c in page]
    assert sorted(flat) == sorted(legal) and len(set(flat)) == len(flat)  # each place on one page
    assert all(len(page) <= PER_PAGE for page in pages)
    if len(legal) > R.MENU_MAX:  # the letters run on page after page: A-W, X-AT, ...
        assert [labels[c] for c in flat] == [R.letters(i) for i in range(len(flat))]
    for i, page in enumerate(pages):
        clear_caches()
        with recording() as rec:
            img, where = R.turn_image(view, NAMES[:4], "en", page=i, per_page=PER_PAGE)
        save(f"carc_page_{key}_{i + 1}", img, PICS)
        assert set(where) == {labels[c] for c in page}, (key, i)
        assert img.height * seen_scale(img.width) <= MAX_PHONE_H, (key, i, img.size)
        drawn = {t for _, t in rec.texts}
        places = {(round(x), round(y), t) for x, y, t in rec.places}
        for c in page:
            label = labels[c]
            x, y = where[label]
            assert 0 <= x < img.width and 0 <= y < img.height, (label, x, y)
            assert label in drawn and _lettered(img, (x, y)), (key, i, label)
            # its column number is on the top or bottom edge right above/below it, its row number on a side
            assert any(t == str(c[0]) and abs(px - x) <= 1 for px, _, t in places), (label, c)
            assert any(t == str(c[1]) and abs(py - y) <= 1 for _, py, t in places), (label, c)


def test_places_image_letters_any_set_of_places_even_far_apart():
    """A set spread over the whole marathon table still has every place drawn and lettered
    (in several panels if need be)."""
    view = marathon_view()
    cells = sorted(R.legal_cells(view))[::3]
    labels = R.place_labels(view)
    img, where = R.places_image(view, cells, NAMES[:4], "es", labels)
    assert set(where) == {labels[c] for c in cells}
    assert all(_lettered(img, where[labels[c]]) for c in cells)


def test_cities_neighbourhood_letters_every_place_of_the_menu():
    """Cities: the placement picture letters every legal space (a neighbourhood has at most 36,
    more than a page of the menu when most are free)."""
    from engines.ai import best_player
    from engines.match import Match
    from render import cities as C

    m = Match.create("cities", ["Ana", "Ben"], {}, seed=3)
    p, rng = best_player("cities"), random.Random(3)
    best = None
    for _ in range(400):
        if m.over:
            break
        seat = m.to_move()[0]
        legal = [m.game.encode(c) for c in m.game.legal(m.state, seat)]
        spaces = sorted({(a["x"], a["y"]) for a in legal if a.get("type") in ("build", "feature")})
        if best is None or len(spaces) > len(best[2]):
            best = (m.view(seat), seat, spaces)
        m.apply_code(seat, p.choose(m.game, m.state, seat, rng))
    view, seat, spaces = best
    assert len(spaces) >= 8
    labels = {c: R.letters(i) for i, c in enumerate(spaces)}
    where: dict[str, tuple[float, float]] = {}
    img = C.marked_hood_image(view, seat, labels, where=where)
    assert set(where) == set(labels.values())
    for label, (x, y) in where.items():
        assert 0 <= x < img.width and 0 <= y < img.height
        px = img.getpixel((int(x) - 4, int(y) + 4))
        assert px[:3] != C.UI["panel"], label  # the lettered disc is there


def test_the_first_page_holds_the_places_nearest_the_players_meeples_and_the_last_tile():
    """Where people play on a huge table: the first page is the places nearest the mover's own
    meeples (not farmers) and the last tile laid, read from the view alone, as many as its picture
    shows legibly; the later pages are areas of the table."""
    view = marathon_view()
    pages = R.place_pages(view, PER_PAGE)
    anchors = R.play_anchors(view)
    me = view["viewer"]
    assert (view["last"]["x"], view["last"]["y"]) in anchors
    assert any(any(m["seat"] == me and not m["farmer"] for m in t["meeples"]) for t in view["board"])
    assert len(anchors) >= 2  # the mover has a meeple on the table: it counts too
    for x, y in anchors[:-1]:
        tile = next(t for t in view["board"] if (t["x"], t["y"]) == (x, y))
        assert any(m["seat"] == me and not m["farmer"] for m in tile["meeples"])

    def dist(c):
        return min(abs(c[0] - a[0]) + abs(c[1] - a[1]) for a in anchors)

    rest = [c for page in pages[1:] for c in page]
    assert min(map(dist, R.legal_cells(view))) == min(map(dist, pages[0]))  # the nearest place is on it
    assert 8 <= len(pages[0]) <= PER_PAGE
    assert sum(map(dist, pages[0])) / len(pages[0]) < sum(map(dist, rest)) / len(rest) / 2
    # only what the player sees: the same pages from the view stripped to the table, the last
    # tile, the viewer and the places
    seen = {k: view[k] for k in ("board", "last", "viewer", "legal")}
    assert R.place_pages(seen, PER_PAGE) == pages
