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


@lru_cache(maxsize=2)
def marathon(bare: bool = False):
    """(seat view with the names, legal actions) after 300 tiles of a 400-set, 4-player match;
    ``bare``: then on until the seat to move has no meeple left."""
    from engines.carcassonne.ai import GreedyPlayer

    s = GAME.new_state(4, GAME.parse_options({"sets": 400}), 7, None)
    p, rng = GreedyPlayer(), random.Random(7)
    for n in range(400):
        seat = GAME.to_move(s)[0]
        if n >= 300 and (not bare or GAME.view(s, seat)["meeples"][seat] == 0):
            break
        GAME.step(s, seat, p.choose(GAME, s, seat, rng))
    seat = GAME.to_move(s)[0]
    return {**GAME.view(s, seat), "names": NAMES}, GAME.legal_json(s, seat)


def _menu(controls) -> dict[str, tuple[int, int]]:
    """Letter -> place of the places a select offers ("Place X", value at.x.y, or P.x.y.r when the
    pick lays the tile at once: one way to turn it there and no meeple to put)."""
    out = {}
    for ch in controls.select:
        if ch.token.startswith(("at.", "P.")):
            x, y = ch.token.split(".")[1:3]
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


def test_a_place_with_nothing_left_to_choose_is_laid_by_its_pick_and_the_others_take_one_tap_more():
    """Late in the marathon nobody has a meeple left: a place with one way to turn the tile is laid
    by picking it (its value is the move, Undo is the safety net); a place with several ways shows
    the first large, the others small, and one button per way lays it."""
    view, legal = marathon(bare=True)
    assert view["meeples"][view["viewer"]] == 0
    ui = CarcassonneUI()
    by_cell: dict[tuple[int, int], set[str]] = {}
    for a in legal:
        by_cell.setdefault((a["x"], a["y"]), set()).add(ui.token(a))
    pages = R.place_pages(view, PAGE)
    lays = waits = 0
    for n in range(len(pages)):
        c = ui.controls(view, legal, "en", None if n == 0 else paging.value("pg", n))
        for ch in c.select:
            if not ch.token.startswith(("at.", "P.")):
                continue
            cell = tuple(int(v) for v in ch.token.split(".")[1:3])
            action = ui.pick_action(ch.token)
            if len(by_cell[cell]) == 1:  # one move there: the pick is that move
                assert action is not None and ui.token(action) in by_cell[cell] and "at once" in ch.description
                lays += 1
            else:  # several: the pick opens the place, where each move is one button
                assert action is None and ch.token.startswith("at.")
                step = ui.controls(view, legal, "en", ch.token)
                assert {b.token for b in step.buttons} >= {t for t in by_cell[cell] if t.count(".") == 3}
                waits += 1
    assert lays and waits  # else this tests nothing
    assert ui.pick_action("at.1.2") is None and ui.pick_action("pg~1") is None and ui.pick_action("rt.1.2.3") is None


def test_the_preview_of_a_place_names_it_with_the_menus_letter():
    """A place of a later page keeps its page letter on the preview's title, as in the step's text."""
    from render.common import recording

    assert R.PER_PAGE == PAGE  # the preview letters places with the menu's page size
    view, legal = marathon()
    ui = CarcassonneUI()
    labels = R.place_labels(view, PAGE)
    x, y = R.place_pages(view, PAGE)[-1][0]
    with recording() as rec:
        c = ui.controls(view, legal, "en", f"at.{x}.{y}")
    letter = labels[(x, y)]
    assert f"**{letter}**" in c.text
    assert any(t.startswith(f"Place {letter}:") for _, t in rec.texts), [t for _, t in rec.texts][:3]


def test_any_other_page_is_one_pick_away_and_named_by_its_letters_and_area():
    """With three pages or more, a second select offers every other page: its letters as its
    picture letters them and where its places lie (x and y as on the pictures' edges)."""
    view, legal = marathon()
    ui = CarcassonneUI()
    pages = R.place_pages(view, PAGE)
    labels = R.place_labels(view, PAGE)
    assert len(pages) > 2  # else this tests nothing
    for n in range(len(pages)):
        c = ui.controls(view, legal, "en", paging.value("pg", n))
        assert len(c.more_selects) == 1 and len(c.select) <= 25
        _placeholder, jumps = c.more_selects[0]
        assert [ch.token for ch in jumps] == [paging.value("pg", i) for i in range(len(pages)) if i != n]
        for ch in jumps:
            i = paging.parse(ch.token)[1]
            shown = sorted((labels[cell] for cell in pages[i]), key=lambda a: (len(a), a))
            assert ch.label == f"Page {i + 1}: places {shown[0]}–{shown[-1]}"
            xs, ys = [cell[0] for cell in pages[i]], [cell[1] for cell in pages[i]]
            want = "nearest your meeples and the last tile" if i == 0 else f"x {min(xs)} to {max(xs)} · y {min(ys)} to {max(ys)}"
            assert ch.description == want
        # picking one shows that page and its own picture
        if n == 0:
            last = ui.controls(view, legal, "en", jumps[-1].token)
            assert set(_menu(last).values()) == set(pages[-1]) and last.picture
