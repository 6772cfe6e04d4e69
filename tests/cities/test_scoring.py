"""The scorer: water and park areas, monuments, scoring cards and achievement conditions,
on small hand-made neighbourhoods (Given a neighbourhood / Then its count)."""

import pytest

from engines.cities.components import ACHIEVEMENTS, CARD_INDEX, CARDS
from engines.cities.scoring import ACHIEVEMENT_COUNTERS, CARD_COUNTERS, area_points, end_points, nature_areas

from .helpers import hood

# T29 = [water water / red red]; at tile cells (0,0) and (1,0) the four water spaces
# (0,0) (1,0) (2,0) (3,0) form one area.
TWO_LAKES = [("T29", 0, 0, 0), ("T29", 1, 0, 0)]


def card(h, cid):
    return CARD_COUNTERS[CARD_INDEX[cid]](h)


def ach(h, aid):
    return ACHIEVEMENT_COUNTERS[aid](h) >= ACHIEVEMENTS[aid].get("need", 1)


@pytest.mark.parametrize(
    ("features", "points"),
    [
        ([], 0),
        (["boat-1"], 1),
        (["boat-1", "boat-2"], 1),  # the same design twice is still one kind
        (["boat-1", "bridge-1"], 3),
        (["boat-1", "bridge-1", "ducks-1"], 6),
        (["boat-1", "bridge-1", "ducks-1", "pier-1"], 10),
    ],
)
def test_a_water_area_scores_by_its_different_features(features, points):
    spots = [(0, 0), (1, 0), (2, 0), (3, 0)]
    h = hood(TWO_LAKES, features=dict(zip(spots, features, strict=False)))
    assert end_points(h)["water"] == points


def test_more_than_four_kinds_still_score_one_set_of_ten():
    assert [area_points(k) for k in range(7)] == [0, 1, 3, 6, 10, 10, 10]


def test_each_area_scores_once_and_separate_areas_score_separately():
    # two water areas: tiles not touching along their water rows (second one turned upside down)
    h = hood([("T29", 0, 0, 0), ("T29", 0, 1, 2)], features={(0, 0): "boat-1", (1, 0): "pier-1", (0, 3): "boat-2"})
    # (0,0)-(1,0) water at the top; turned twice the second tile has water at the bottom (0,3)-(1,3)
    areas = [a for t, a, _ in nature_areas(h) if t == 5]
    assert len(areas) == 2
    assert end_points(h)["water"] == 3 + 1


def test_park_areas_and_monuments():
    # T25 = [red park / red park]: the two park spaces (1,0) (1,1) form one area
    h = hood([("T25", 0, 0, 0)], features={(1, 0): "tree-1", (1, 1): "bench-2", (0, 0): "monument-1"})
    assert end_points(h) == {"water": 0, "park": 3, "monuments": 2}


def test_liveable_city_counts_complete_sets_of_four_colours():
    # T21 = [red red / blue blue], T22 = [green green / yellow yellow]
    tiles = [("T21", 0, 0, 0), ("T22", 1, 0, 0)]
    h = hood(tiles, stacks={(0, 0): ("red", 1), (0, 1): ("blue", 3), (2, 0): ("green", 1), (2, 1): ("yellow", 1)})
    assert card(h, "liveable-city") == 1
    h = hood(tiles, stacks={(0, 0): ("red", 1), (1, 0): ("red", 1), (0, 1): ("blue", 1), (1, 1): ("blue", 1),
                            (2, 0): ("green", 1), (3, 0): ("green", 1), (2, 1): ("yellow", 1)})
    assert card(h, "liveable-city") == 1  # the second set lacks a yellow building
    assert CARDS[CARD_INDEX["liveable-city"]]["vp"] == 2


def test_heights_runs_squares_and_adjacency():
    tiles = [("T21", 0, 0, 0), ("T23", 1, 0, 0)]  # red red red red / blue blue green green
    stacks = {(0, 0): ("red", 4), (1, 0): ("red", 3), (2, 0): ("red", 1), (0, 1): ("blue", 2), (1, 1): ("blue", 2)}
    h = hood(tiles, stacks=stacks)
    assert card(h, "red-towers") == 2  # 4 and 3 high
    assert card(h, "skyscrapers") == 1
    assert card(h, "main-street") == 1  # one run of 3 reds; the blue pair is too short
    assert card(h, "city-block") == 1  # (0,0) (1,0) (0,1) (1,1)
    assert card(h, "builders") == (4 + 3 + 1 + 2 + 2) // 4
    assert card(h, "campus") == 0  # no green building yet
    h = hood(tiles, stacks={**stacks, (2, 1): ("green", 1)})
    assert card(h, "campus") == 1  # the blue at (1,1) touches the green at (2,1)
    assert card(h, "mixed-use") == 2  # both tiles hold two colours


def test_wild_space_counts_as_an_empty_city_space_of_any_colour():
    # S1 = [red blue / park water]; a wild tile on the blue space (1,0)
    h = hood([("T25", 0, 0, 0), ("T21", 1, 0, 0)], features={(2, 1): "wild-1"})
    # T21 at (1,0): (2,0) red (3,0) red (2,1) blue(wild) (3,1) blue; T25: (0,0) red (0,1) red
    # red spaces (2,0) (3,0) and the wild (2,1) connect: an area of 3 red spaces only with the wild
    assert ach(h, "mexico-colonias")
    h_plain = hood([("T25", 0, 0, 0), ("T21", 1, 0, 0)])
    assert not ach(h_plain, "mexico-colonias")
    # once built blue, the wild space is a blue building, no longer red nor empty
    h_built = hood([("T25", 0, 0, 0), ("T21", 1, 0, 0)], features={(2, 1): "wild-1"}, stacks={(2, 1): ("blue", 1)})
    assert not ach(h_built, "mexico-colonias")


def test_empty_city_space_between_buildings_meets_zocalo():
    # T21 [red red / blue blue] and T23 [red red / green green] side by side: (2,0) empty red,
    # next to (1,0), (3,0) and (2,1)
    tiles = [("T21", 0, 0, 0), ("T23", 1, 0, 0)]
    stacks = {(1, 0): ("red", 1), (3, 0): ("red", 1), (2, 1): ("green", 1)}
    assert ach(hood(tiles, stacks=stacks), "mexico-zocalo")
    # a monument is not an empty space; a wild one is
    assert not ach(hood(tiles, features={(2, 0): "monument-1"}, stacks=stacks), "mexico-zocalo")
    assert ach(hood(tiles, features={(2, 0): "wild-2"}, stacks=stacks), "mexico-zocalo")


def test_area_achievements_need_size_and_different_features():
    spots = [(0, 0), (1, 0), (2, 0), (3, 0)]
    h = hood(TWO_LAKES, features=dict(zip(spots, ["boat-1", "bridge-1", "boat-2"], strict=False)))
    assert not ach(h, "barcelona-beach")  # only 2 different designs
    h = hood(TWO_LAKES, features=dict(zip(spots, ["boat-1", "bridge-1", "pier-2"], strict=False)))
    assert ach(h, "barcelona-beach")
    assert ach(h, "sydney-harbour")  # 4 water spaces
    assert not ach(hood([("T29", 0, 0, 0), ("T29", 1, 0, 2)]), "sydney-harbour")  # two lakes of 2
