"""Cities: the board explains itself. A legend names every letter and mark the picture uses, the
header says who holds the star and what the bag holds in words, and a line tells the last move
in words for every kind of move a match makes."""

from __future__ import annotations

import random

import pytest

from engines.cities.components import SPACE_LETTERS
from render import cities as R
from render.common import recording

NAMES = ["Ana", "Ben", "Carla", "Dani"]


def _match_views(n: int, seed: int):
    from engines.ai import best_player
    from engines.match import Match

    m = Match.create("cities", NAMES[:n], {}, seed=seed)
    p, rng = best_player("cities"), random.Random(seed)
    views = []
    while not m.over:
        seat = m.to_move()[0]
        m.apply_code(seat, p.choose(m.game, m.state, seat, rng))
        views.append(m.view(None))
    return views


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_legend_names_every_letter_and_mark_drawn(lang):
    views = _match_views(2, 5)
    view = views[len(views) // 3]
    with recording() as rec:
        R.board_image(view, NAMES[:2], lang)
    legend = " ".join(R.legend_lines(lang))
    drawn = " ".join(t for _, _, t in rec.places)
    for letter in SPACE_LETTERS:  # every space letter of the picture is in the legend
        assert f"{letter} " in legend
    for row in "ABCD":
        assert f"{row} " in legend
    for mark in ("M", "*", "1-4", "R3"):
        assert mark in legend
    for line in R.legend_lines(lang):  # and the legend is drawn (wrapped into lines)
        assert line.split()[0] in drawn and line.split()[-1].rstrip(")") in drawn
    star = R._t(lang, "star", name=NAMES[view["star"]])
    bag = R._t(lang, "bag", n=view["bag"])
    assert any(star in t and bag in t for _, _, t in rec.places)


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_last_move_line_for_every_kind_of_move(lang):
    views = _match_views(3, 7)
    kinds: dict[str, dict] = {}
    for v in views:
        if v.get("last"):
            kinds.setdefault(v["last"]["action"], v)
    assert {"take", "tile", "feature", "build"} <= set(kinds), set(kinds)
    for kind, v in kinds.items():
        words = R.last_words(v, NAMES[:3], lang)
        assert words and NAMES[v["last"]["seat"]] in words, (kind, words)
        assert "{" not in words and "colour:" not in words, words
        with recording() as rec:
            R.board_image(v, NAMES[:3], lang)
        prefix = R._t(lang, "last", what="")
        line = " ".join(t for _, _, t in sorted(rec.places, key=lambda p: p[1]) if t.startswith(prefix) or (len(t) > 3 and t in words))
        assert line.startswith(prefix + words[:20]), (kind, line)
