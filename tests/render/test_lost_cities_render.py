"""Lost Cities pictures: valid PNGs of sane size for every sample view, no hand leak on the board,
language actually changes the picture, deterministic bytes."""

from __future__ import annotations

import copy
import io

import pytest
from PIL import Image

from render.lost_cities import board_png, card_name, hand_png
from tests.render.samples import NAMES, SAMPLES, public

MAX_BYTES = 500 * 1024


def _png(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    img = Image.open(io.BytesIO(data))
    img.verify()
    return Image.open(io.BytesIO(data))


@pytest.fixture(scope="module")
def boards() -> dict[tuple[str, str], bytes]:
    return {
        (k, lang): board_png(public(make()), NAMES, lang)
        for k, make in SAMPLES.items()
        for lang in ("en", "es")
    }


@pytest.mark.parametrize("sample", list(SAMPLES))
@pytest.mark.parametrize("lang", ["en", "es"])
def test_board_is_a_phone_sized_png(boards, sample, lang):
    data = boards[(sample, lang)]
    img = _png(data)
    w, h = img.size
    assert w == 800  # seen at half size on a phone (see test_legibility)
    assert 600 <= h <= 1400
    assert len(data) < MAX_BYTES


@pytest.mark.parametrize("sample", list(SAMPLES))
@pytest.mark.parametrize("lang", ["en", "es"])
def test_hand_is_a_phone_sized_png(sample, lang):
    data = hand_png(SAMPLES[sample](), lang)
    img = _png(data)
    w, h = img.size
    assert w == 600
    assert 200 <= h <= 600
    assert len(data) < MAX_BYTES


def test_long_columns_make_a_taller_board_but_compactly(boards):
    from render.lost_cities import MAX_STEPS, STRIP, column_step

    early = _png(boards[("early", "en")]).size[1]
    long_ = _png(boards[("mid_long", "en")]).size[1]
    assert long_ > early + 300  # 12-card column fanned out
    # the cards of a 12-card column overlap more: at most 2/3 of the fanned-out height
    assert 11 * column_step(12) <= (11 * STRIP) * 2 / 3
    assert column_step(MAX_STEPS + 1) == STRIP
    assert column_step(5) == STRIP and column_step(12) < STRIP


@pytest.mark.parametrize("sample", list(SAMPLES))
def test_board_never_draws_the_hand(sample):
    seat_view = SAMPLES[sample]()
    assert seat_view["hand"]  # the sample really carries a hand
    no_hand = copy.deepcopy(seat_view)
    no_hand["hand"] = None
    assert board_png(seat_view, NAMES, "en") == board_png(no_hand, NAMES, "en")
    # ... and the public view (viewer=None too) gives the same picture
    assert board_png(seat_view, NAMES, "en") == board_png(public(seat_view), NAMES, "en")
    # a different hand does not change the board either
    other = copy.deepcopy(seat_view)
    other["hand"] = list(reversed(seat_view["hand"]))[:5]
    assert board_png(other, NAMES, "es") == board_png(no_hand, NAMES, "es")


@pytest.mark.parametrize("sample", list(SAMPLES))
def test_languages_differ(boards, sample):
    assert boards[(sample, "en")] != boards[(sample, "es")]
    view = SAMPLES[sample]()
    assert hand_png(view, "en") != hand_png(view, "es")


def test_deterministic(boards):
    for (sample, lang), data in boards.items():
        assert board_png(public(SAMPLES[sample]()), NAMES, lang) == data
    view = SAMPLES["purple"]()
    assert hand_png(view, "es") == hand_png(copy.deepcopy(view), "es")


def test_board_shows_what_changes():
    """Deck count, whose turn, names and the last move all change the picture."""
    base = public(SAMPLES["early"]())
    ref = board_png(base, NAMES)
    for change in (
        lambda v: v.update(deck=v["deck"] - 1),
        lambda v: v.update(to_move=[1]),
        lambda v: v.update(last=None),
        lambda v: v["discards"]["green"].append("green-4"),
        lambda v: v["expeditions"][1]["red"].append("red-9"),
    ):
        v = copy.deepcopy(base)
        change(v)
        assert board_png(v, NAMES) != ref
    assert board_png(base, ["Zoe", "Bruno"]) != ref


def test_hand_shows_the_cards():
    view = SAMPLES["early"]()
    fewer = copy.deepcopy(view)
    fewer["hand"] = view["hand"][:7]
    assert hand_png(fewer) != hand_png(view)
    swapped = copy.deepcopy(view)
    swapped["hand"][0] = "purple-8"
    assert hand_png(swapped) != hand_png(view)


def test_hand_png_refuses_public_view():
    with pytest.raises(ValueError):
        hand_png(public(SAMPLES["early"]()))


def test_odd_names_and_unknown_language_still_render():
    view = public(SAMPLES["purple"]())
    data = board_png(
        view, ["🎲🎲 " + "Maximiliano " * 8, ""], "fr"
    )  # emoji, very long, empty; fallback to en
    assert _png(data).size[0] == 800
    assert board_png(view, ["", ""], "en") != board_png(view, ["", ""], "es")


def test_card_names():
    assert card_name("red-7", "en") == "the red 7"
    assert card_name("red-7", "es") == "el 7 rojo"
    assert card_name("white-w2", "es") == "una apuesta blanca"
    assert card_name("purple-w1", "en") == "a purple wager"
