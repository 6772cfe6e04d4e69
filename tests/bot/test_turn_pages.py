"""Every legal place of a multi-page Carcassonne placement menu is lettered on the picture that
comes with its page (issue 20): the bot's pages are render.carcassonne.place_pages, each page's
select holds exactly the places its picture letters, with the same letters, and paging to a page
shows that page's picture. Tried on a 400-set marathon after 300 tiles (greedy AI, seed 7)."""

from __future__ import annotations

import random
from functools import lru_cache

from bot.games import paging
from bot.games.carcassonne import PAGE, CarcassonneUI
from engines.carcassonne import GAME
from render import carcassonne as R

NAMES = ["Ana", "Ben", "Carla", "Dani"]


@lru_cache(maxsize=1)
def marathon():
    """(seat view with the names, legal actions) after 300 tiles of a 400-set, 4-player match."""
    from engines.carcassonne.ai import GreedyPlayer

    s = GAME.new_state(4, GAME.parse_options({"sets": 400}), 7, None)
    p, rng = GreedyPlayer(), random.Random(7)
    for _ in range(300):
        seat = GAME.to_move(s)[0]
        GAME.step(s, seat, p.choose(GAME, s, seat, rng))
    seat = GAME.to_move(s)[0]
    return {**GAME.view(s, seat), "names": NAMES}, GAME.legal_json(s, seat)


def _menu(controls) -> dict[str, tuple[int, int]]:
    """Letter -> place of the places a select offers ("Place X", value at.x.y)."""
    out = {}
    for ch in controls.select:
        if ch.token.startswith("at."):
            _, x, y = ch.token.split(".")
            out[ch.label.split()[-1]] = (int(x), int(y))
    return out


def test_each_page_of_places_comes_with_its_own_picture_lettering_exactly_its_places():
    view, legal = marathon()
    ui = CarcassonneUI()
    pages = R.place_pages(view, PAGE)
    assert len(pages) > 1  # else this tests nothing
    labels = R.place_labels(view, PAGE)
    seen: dict[str, tuple[int, int]] = {}
    for n in range(len(pages)):
        c = ui.controls(view, legal, "en", None if n == 0 else paging.value("pg", n))
        menu = _menu(c)
        assert set(menu.values()) == set(pages[n])  # the page's places, all of them
        assert all(labels[cell] == letter for letter, cell in menu.items())  # the picture's letters
        assert len(c.select) <= 25 and f"Page {n + 1} of {len(pages)}" in c.text
        _img, where = R.turn_image(view, NAMES, "en", n, PAGE)
        assert set(where) == set(menu)  # every place of the menu page lettered on its picture
        # the page's picture: the DM's turn picture for the first page, the step's own for the others
        page_png = ui.turn_png(view, NAMES, "en", page=n)
        assert page_png == (c.picture if n else R.turn_png(view, NAMES, "en", 0, PAGE))
        seen.update(menu)
    # every legal place is on some page, once, with its own letter
    assert sorted(seen.values()) == sorted(R.legal_cells(view)) and len(seen) == len(R.legal_cells(view))


def test_back_from_a_place_returns_to_the_page_that_holds_it():
    view, legal = marathon()
    ui = CarcassonneUI()
    pages = R.place_pages(view, PAGE)
    x, y = pages[-1][0]
    c = ui.controls(view, legal, "en", f"at.{x}.{y}")
    if any(ch.token.startswith("rt.") for ch in c.select):  # several ways to turn it: the last option goes back
        assert c.select[-1].token == paging.value("pg", len(pages) - 1)
    else:  # one way: the select is the page of places the place is on
        assert set(_menu(c).values()) == set(pages[-1])
