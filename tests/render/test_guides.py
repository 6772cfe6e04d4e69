"""/partida rules guides: per game and language 2-4 annotated pictures, phone-sized, different
in each language, every text present in both languages (legibility: tests/render/test_legibility.py)."""

from __future__ import annotations

import io
import string

import pytest
from PIL import Image

from render import guides


def _fields(s: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(s) if f}


def test_every_guide_text_in_both_languages():
    assert set(guides.TEXTS["en"]) == set(guides.TEXTS["es"])
    for key, en in guides.TEXTS["en"].items():
        es = guides.TEXTS["es"][key]
        assert en and es and _fields(en) == _fields(es), key


@pytest.mark.parametrize("game", guides.GAMES)
def test_each_game_has_two_to_four_pictures_per_language(game):
    en = guides.guide_pngs(game, "en")
    es = guides.guide_pngs(game, "es")
    assert 2 <= len(en) <= 4 and len(es) == len(en)
    for a, b in zip(en, es, strict=True):
        assert a != b  # the words differ
        img = Image.open(io.BytesIO(a))
        assert img.width == guides.W and 300 <= img.height <= 1200
        assert len(a) < 400 * 1024
    assert guides.guide_pngs(game, "fr") == en  # unknown language: English


def test_the_guides_are_annotated_with_arrows():
    """The arrow colour is drawn in the turn pictures (arrows from the hand / to the table)."""
    for game in ("lost-cities", "citadels"):
        img = guides.guide_images(game, "en")[0].convert("RGB")
        assert any(c == guides.ARROW for _, c in img.getcolors(1 << 20)), game


def test_unknown_game():
    with pytest.raises(KeyError):
        guides.guide_images("chess", "en")


def test_carcassonne_example_points_are_the_engines_under_every_edition():
    """The guide's points are asked of the engine for each rules edition; where an edition scores
    an example differently (a two-tile city before edition 3), the guide says so."""
    pts = guides.carc_example_points()
    assert set(pts) == {"road", "city", "monastery"}
    assert all(set(p) == set(guides.EDITIONS) for p in pts.values())
    assert pts["road"] == {1: 3, 2: 3, 3: 3} and pts["monastery"] == {1: 9, 2: 9, 3: 9}
    assert pts["city"][3] == 4 and pts["city"][2] == 2
    for lang in ("en", "es"):
        assert "{eds}" in guides.TEXTS[lang]["cc2_editions"]


def test_lost_cities_example_points_are_the_engines():
    from engines.lost_cities import CARD_IDS, expedition_score

    for col in (guides.LC_GOOD, guides.LC_BAD):
        assert guides._lc_points(col)[2] == expedition_score([CARD_IDS[c] for c in col])
    assert guides._lc_points(guides.LC_GOOD) == (26, 2, 12)
