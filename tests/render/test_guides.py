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
