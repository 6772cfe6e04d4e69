"""The component set as data: counts, names in both languages, conditions that compile."""

from collections import Counter

import pytest

from engines.cities import components as C
from engines.cities.scoring import ACHIEVEMENT_COUNTERS, CARD_COUNTERS, Hood, compile_cond, compile_filter


def test_tiles_starting_and_city_tiles_of_2x2_spaces():
    assert len(C.START_IDS) == 4 and len(C.CITY_IDS) == 32
    assert all(len(sp) == 4 for sp in C.TILE_SPACES)
    kinds = Counter(C.SPACE_TYPES[t] for sp in C.TILE_SPACES[4:] for t in sp)
    # the four city colours equally, plus park and water
    assert {kinds[c] for c in C.COLOURS} == {kinds["red"]} and kinds["red"] > 0
    assert kinds["park"] > 0 and kinds["water"] > 0
    assert sum(kinds.values()) == 32 * 4


def test_no_tile_looks_the_same_after_a_turn():
    # so the four rotations listed as legal placements are four different placements
    for sp in C.TILE_SPACES:
        assert all(C.rotate(sp, r) != sp for r in (1, 2, 3))


def test_rotation_turns_clockwise():
    # [red blue / park water] turned once: [park red / water blue]
    assert C.rotate((0, 1, 4, 5), 1) == (4, 0, 5, 1)
    assert C.rotate((0, 1, 4, 5), 4) == (0, 1, 4, 5)


def test_48_feature_tiles_four_water_four_park_designs_monuments_and_wild():
    assert len(C.FEATURE_IDS) == 48 == len(set(C.FEATURE_IDS))
    by_bg = Counter(C.DESIGN_BG[d] for d in range(len(C.DESIGNS)))
    assert by_bg[C.WATER] == 4 and by_bg[C.PARK] == 4
    assert C.DESIGN_POINTS[C.MONUMENT] == 2 and C.DESIGN_BG[C.MONUMENT] == -1
    assert C.DESIGN_BG[C.WILD] == -1 and C.DESIGN_POINTS[C.WILD] == 0
    counts = Counter(C.FEATURE_DESIGN)
    assert counts[C.MONUMENT] >= 1 and counts[C.WILD] >= 1


def test_32_scoring_cards_with_liveable_city():
    assert len(C.CARDS) == 32 == len(set(C.CARD_IDS))
    card = C.CARDS[C.CARD_INDEX["liveable-city"]]
    assert card["vp"] == 2 and card["cond"]["kind"] == "set"
    assert {i["colour"] for i in card["cond"]["items"]} == set(C.COLOURS)
    assert all(c["vp"] > 0 for c in C.CARDS)


def test_eight_city_boards_of_three_achievements_with_decreasing_rings():
    names = [b["name"]["en"] for b in C.BOARDS]
    assert names == ["Sydney", "New York City", "Barcelona", "Rio de Janeiro", "Lisbon", "Mexico City",
                     "Buenos Aires", "Venice"]
    for b in C.BOARDS:
        assert len(b["achievements"]) == 3
        for a in b["achievements"]:
            v = a["values"]
            assert len(v) == 3 and v[0] > v[1] > v[2] > 0
            assert a.get("need", 1) >= 1
    assert len(C.ACHIEVEMENTS) == 24


def test_100_buildings_25_per_colour():
    assert C.COLOURS == ("red", "blue", "green", "yellow")
    assert C.PIECES_PER_COLOUR * len(C.COLOURS) == 100 and C.MAX_HEIGHT == 4
    assert len(set(C.COLOUR_LETTERS)) == 4 and len(set(C.SPACE_LETTERS)) == 6


def test_every_component_is_named_in_english_and_spanish():
    keys = [*C.CARD_IDS, *C.ACHIEVEMENTS, *C.BOARD_IDS, *C.DESIGNS]
    keys += ["colour:" + c for c in C.COLOURS] + ["space:" + s for s in C.SPACE_TYPES]
    for k in keys:
        en, es = C.name(k, "en"), C.name(k, "es")
        assert en and es and en != k, k
    for k in [*C.CARD_IDS, *C.ACHIEVEMENTS]:
        assert C.text(k, "en") and C.text(k, "es") and C.text(k, "en") != C.text(k, "es"), k
    assert C.name("boat-3", "es") == "Barca"


def test_every_condition_compiles_and_counts_nothing_on_an_empty_start():
    assert len(CARD_COUNTERS) == 32 and len(ACHIEVEMENT_COUNTERS) == 24
    h = Hood()
    h.add_tile(0, 0, 0, 0)
    for c in C.CARDS:
        assert compile_cond(c["cond"])(h) == 0, c["id"]


def test_bad_conditions_are_refused():
    with pytest.raises(ValueError):
        compile_cond({"kind": "nonsense"})
    with pytest.raises(ValueError):
        compile_filter({"colour": "red", "flavour": "sweet"})
