"""Feature completion and scoring on small hand-built tables, for each rules edition.

Coordinates: x grows east, y grows south. Tile D (start) at rot 0 has its city north and a road
west-east; E at rot 2 has its city south; F at rot 1 is a north-south city with a pennant.
"""

import pytest

from engines.carcassonne import MEEPLES

from .helpers import place, scenario, scored, tile


def test_road_closed_by_an_opponent_scores_for_its_meeple_and_returns_it():
    m = scenario([tile("D", 0, 0, 0, seat=0, feature="r0")], ["W", "W", "B"])
    assert m.state.supply == [MEEPLES - 1, MEEPLES]
    place(m, 1, 0)  # seat 0: the village ends the road's east side
    assert m.state.scores == [0, 0]
    out = place(m, -1, 0)  # seat 1 ends its west side: 3 tiles
    assert scored(out)[0]["feature"] == "road" and scored(out)[0]["seats"] == [0]
    assert scored(out)[0]["points"] == 3
    assert m.state.scores == [3, 0]
    assert m.state.supply == [MEEPLES, MEEPLES]
    assert "meeple_returned" in [e.kind for e in out.events]
    assert not any(t["meeples"] for t in m.view(0)["board"])


@pytest.mark.parametrize("rules,points", [(1, 8), (2, 8), (3, 8)])
def test_three_tile_city_with_a_pennant_scores_two_per_tile_and_pennant(rules, points):
    m = scenario([tile("D", 0, 0, 0, seat=0, feature="c0")], ["F", "E"], rules=rules)
    place(m, 0, -1, 1)
    out = place(m, 0, -2, 2)
    s = scored(out)[0]
    assert (s["feature"], s["tiles"], s["pennants"], s["points"]) == ("city", 3, 1, points)
    assert m.state.scores == [points, 0]


@pytest.mark.parametrize("rules,points", [(1, 2), (2, 2), (3, 4)])
def test_two_tile_city_is_worth_2_in_old_editions_and_4_now(rules, points):
    m = scenario([tile("D", 0, 0, 0, seat=1, feature="c0")], ["E"], rules=rules)
    out = place(m, 0, -1, 2)
    assert scored(out)[0]["points"] == points
    assert m.state.scores == [0, points]
    assert m.state.supply[1] == MEEPLES


def test_unfinished_city_and_road_score_one_per_tile_and_pennant_at_the_end():
    board = [tile("D", 0, 0, 0, seat=0, feature="c0"), tile("U", 1, 0, 0, seat=1, feature="r0")]
    m = scenario(board, ["F"])
    place(m, 0, -1, 1)  # last tile: city D+F with a pennant stays open
    assert m.over
    assert m.state.scores == [3, 2]
    res = m.result()
    assert res.details["points_by_kind"][0]["city"] == 3
    assert res.details["points_by_kind"][1]["road"] == 2


def _ring(skip: tuple[int, int]) -> list[dict]:
    order = [(-1, 0), (-1, -1), (0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1)]
    return [tile("B", 0, 0, 0, seat=0, feature="m")] + [tile("B", x, y) for x, y in order if (x, y) != skip]


def test_monastery_scores_9_when_surrounded_and_the_meeple_returns():
    m = scenario(_ring((1, 1)), ["B", "B"])
    assert m.state.scores == [0, 0]
    out = place(m, 1, 1)
    s = scored(out)[0]
    assert (s["feature"], s["points"], s["seats"]) == ("monastery", 9, [0])
    assert m.state.supply[0] == MEEPLES


def test_unfinished_monastery_scores_its_tile_and_neighbours_at_the_end():
    board = [tile("B", 0, 0, 0, seat=1, feature="m"), tile("B", 1, 0), tile("B", 1, 1)]
    m = scenario(board, ["B"])
    place(m, 0, 1)  # the monastery now has 3 neighbours
    assert m.over and m.state.scores == [0, 4]


def test_meeple_on_a_monastery_placed_last_in_its_hole_scores_at_once():
    ring = [(-1, 0), (-1, -1), (0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1)]
    m = scenario([tile("B", x, y) for x, y in ring], ["B", "B"])
    out = place(m, 0, 0, 0, "m")
    assert scored(out)[0]["points"] == 9 and m.state.scores == [9, 0]
    assert m.state.supply[0] == MEEPLES


def test_tied_majority_on_a_road_scores_for_both_players():
    board = [
        tile("D", 0, 0, 0, seat=0, feature="r0"),
        tile("U", 0, 1, 0, seat=1, feature="r0"),
        tile("V", 1, 0, 0),
    ]
    m = scenario(board, ["V"])
    place(m, 1, 1, 1)  # joins both roads: D, V, V, U = 4 tiles, still open at both ends
    assert m.over
    assert m.state.scores == [4, 4]
    assert m.result().ranking == ((0, 1),)


def test_majority_takes_all_on_a_shared_city():
    # Three open city pieces - two with seat 0's meeples, one with seat 1's - joined by one R tile.
    board = [
        tile("E", 0, 0, 1, seat=0, feature="c0"),  # city on its east edge
        tile("B", 0, -1), tile("B", 1, -1), tile("B", 2, -1),
        tile("E", 2, 0, 3, seat=0, feature="c0"),  # city on its west edge
        tile("B", 0, 1),
        tile("E", 1, 1, 0, seat=1, feature="c0"),  # city on its north edge
    ]
    m = scenario(board, ["R"])
    out = place(m, 1, 0, 2)  # R turned: city on W, E and S, field north
    s = scored(out)[0]
    assert (s["feature"], s["tiles"], s["seats"], s["points"]) == ("city", 4, [0], 8)
    assert m.state.scores == [8, 0]
    assert m.state.supply == [MEEPLES, MEEPLES]


# -- farms ------------------------------------------------------------------------------------

# The seed document's example: one finished city with two fields along it; blue (seat 0) has a
# farmer in each field, red (seat 1) one farmer in the second field. 1st edition: blue 4 - red 0;
# 2nd: 3 - 3; 3rd: 6 - 3.
# A setup board is laid by the rules of play, so red's farmer goes on a field of its own that a
# later tile (the road ending at a monastery) joins to field B.
def _farm_board() -> list[dict]:
    return [
        tile("E", 0, 0, 0, seat=0, feature="f0"),  # city north; field A below it (blue)
        tile("E", 0, -1, 2, seat=0, feature="f0"),  # city south: the 2-tile city is finished; field B (blue)
        tile("U", 1, -1, 1, seat=1, feature="f0"),  # a road north-south: red on the field east of it
        tile("A", 1, -2, 0),  # the road ends at a monastery: its field joins both sides, red is in field B
    ]


@pytest.mark.parametrize("rules,expected", [(1, [4, 0]), (2, [3, 3]), (3, [6, 3])])
def test_farm_scoring_by_edition_matches_the_seed_example(rules, expected):
    m = scenario(_farm_board(), ["B"], rules=rules)
    place(m, 0, 1)  # the last tile extends field A; then the game ends
    assert m.over
    assert m.state.scores == expected
    assert [k["farm"] for k in m.result().details["points_by_kind"]] == expected


@pytest.mark.parametrize("rules,expected", [(1, [0, 0]), (2, [0, 0]), (3, [0, 0])])
def test_farms_ignore_unfinished_cities(rules, expected):
    board = [tile("E", 0, 0, 0, seat=0, feature="f0")]
    m = scenario(board, ["B"], rules=rules)
    place(m, 0, 1)
    assert m.state.scores == expected


def test_first_edition_counts_farmers_of_all_fields_around_each_city():
    # Field B (north, red x2) and field A (south, blue x1) share the finished city: red takes its 4.
    board = [
        tile("E", 0, 0, 0, seat=0, feature="f0"),
        tile("E", 0, -1, 2, seat=1, feature="f0"),
        tile("U", 1, -1, 1, seat=1, feature="f0"),  # joined to field B by the next tile (see _farm_board)
        tile("A", 1, -2, 0),
    ]
    for rules, expected in ((1, [0, 4]), (2, [3, 3]), (3, [3, 3])):
        m = scenario(board, ["B"], rules=rules)
        place(m, 0, 1)
        assert m.state.scores == expected, rules


def test_one_field_bordering_two_finished_cities_scores_each_city():
    # Two separate finished cities along one field with a blue farmer.
    board = [
        tile("E", 0, 0, 0, seat=0, feature="f0"),  # city 1 north of (0,0)
        tile("E", 0, -1, 2),  # closes city 1
        tile("E", 0, 1, 2),  # city 2 south of (0,1)? its field joins field A
        tile("E", 0, 2, 0),  # closes city 2
    ]
    for rules, expected in ((1, [8, 0]), (2, [6, 0]), (3, [6, 0])):
        m = scenario(board, ["B"], rules=rules)
        place(m, 1, 0)
        assert m.state.scores == expected, rules
