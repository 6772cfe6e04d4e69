"""/partida rules guides: per game and language 2-4 annotated pictures, phone-sized, different
in each language, every text present in both languages (legibility: tests/render/test_legibility.py)."""

from __future__ import annotations

import io
import string

import pytest
from PIL import Image

from bot.games import manifests, ui_for
from render import carcassonne_guide, guides, lost_cities_guide

GAMES = [key for key, m in manifests().items() if m.ui.guide]


def _fields(s: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(s) if f}


@pytest.mark.parametrize("game", GAMES)
def test_every_guide_text_in_both_languages(game):
    texts = ui_for(game).guide
    assert set(texts["en"]) == set(texts["es"])
    for key, en in texts["en"].items():
        es = texts["es"][key]
        assert en and es and _fields(en) == _fields(es), key


def test_every_game_has_a_guide():
    assert set(GAMES) == set(manifests())


@pytest.mark.parametrize("game", GAMES)
def test_each_game_has_two_to_four_pictures_per_language(game):
    en = ui_for(game).guide_pngs("en")
    es = ui_for(game).guide_pngs("es")
    assert 2 <= len(en) <= 4 and len(es) == len(en)
    for a, b in zip(en, es, strict=True):
        assert a != b  # the words differ
        img = Image.open(io.BytesIO(a))
        assert img.width == guides.W and 300 <= img.height <= 1200
        assert len(a) < 400 * 1024
    assert ui_for(game).guide_pngs("fr") == en  # unknown language: English


def test_the_guides_are_annotated_with_arrows():
    """The arrow colour is drawn in the turn pictures (arrows from the hand / to the table)."""
    for game in ("lost-cities", "citadels"):
        img = ui_for(game).guide_images("en")[0].convert("RGB")
        assert any(c == guides.ARROW for _, c in img.getcolors(1 << 20)), game


def test_unknown_game():
    assert ui_for("chess").guide_images("en") == [] and ui_for("chess").guide_pngs("en") == []


def test_carcassonne_example_points_are_the_engines_under_every_edition():
    """The guide's points are asked of the engine for each rules edition; where an edition scores
    an example differently (a two-tile city before edition 3), the guide says so."""
    pts = carcassonne_guide.carc_example_points()
    assert set(pts) == {"road", "city", "monastery"}
    assert all(set(p) == set(carcassonne_guide.EDITIONS) for p in pts.values())
    assert pts["road"] == {1: 3, 2: 3, 3: 3} and pts["monastery"] == {1: 9, 2: 9, 3: 9}
    assert pts["city"][3] == 4 and pts["city"][2] == 2
    for lang in ("en", "es"):
        assert "{eds}" in ui_for("carcassonne").guide[lang]["cc2_editions"]


def test_lost_cities_example_points_are_the_engines():
    from engines.lost_cities import CARD_IDS, expedition_score

    for col in (lost_cities_guide.LC_GOOD, lost_cities_guide.LC_BAD):
        assert lost_cities_guide._lc_points(col)[2] == expedition_score([CARD_IDS[c] for c in col])
    assert lost_cities_guide._lc_points(lost_cities_guide.LC_GOOD) == (26, 2, 12)
