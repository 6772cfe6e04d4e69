"""Rules of Cities, one scenario each, driven through actions on explicit setups."""

import random

import pytest

from engines.ai import RandomPlayer
from engines.cities import GAME, preview
from engines.cities.components import CARD_INDEX
from engines.core import BadAction, BadOptions, BadSetup, EngineError
from engines.match import Match

from .helpers import act, dump, hood, legal_json, pick_starts, scenario


def refused(m, action, code):
    """The action is refused with ``code`` and the match does not change."""
    before = dump(m)
    n = len(m.actions)
    with pytest.raises(EngineError) as e:
        act(m, action)
    assert e.value.code == code, e.value.reason
    assert "\n" not in e.value.reason
    assert dump(m) == before and len(m.actions) == n


# -- set-up --------------------------------------------------------------------------------------


def test_starting_tiles_are_picked_from_the_right_of_the_first_player_counter_clockwise():
    m = scenario(4, first=1)
    order = []
    for t in ("S4", "S2", "S1", "S3"):
        order.append(m.to_move()[0])
        act(m, {"type": "start", "tile": t})
    assert order == [0, 3, 2, 1]  # right of seat 1 is seat 0, then counter-clockwise
    v = m.view(None)
    assert [p["tiles"][0]["tile"] for p in v["players"]] == ["S4", "S3", "S1", "S2"]
    assert v["phase"] == "take" and m.to_move() == (1,) and v["star"] == 1


def test_a_starting_tile_is_taken_once_and_the_rest_leave_the_game():
    m = scenario(2)
    act(m, {"type": "start", "tile": "S2"})
    refused(m, {"type": "start", "tile": "S2"}, "start_not_offered")
    refused(m, {"type": "take", "row": "A", "slot": 0}, "must_pick_start")
    act(m, {"type": "start", "tile": "S3"})
    assert sorted(m.view(None)["removed"]["tiles"]) == ["S1", "S4"]


def test_rows_hold_4_cards_4_tiles_features_2_1_1_1plus1_and_pieces_4_3_3_plus_the_star():
    m = scenario(4, cards=["liveable-city", "lakes", "heritage", "builders"], tiles=["T01", "T02", "T03", "T04"],
                 features=["boat-1", "tree-1", "pier-1", "wild-1", "monument-1", "bench-1"],
                 bag=["red"] * 4 + ["blue"] * 3 + ["green"] * 3)
    rows = {r["row"]: r["slots"] for r in m.view(None)["rows"]}
    assert [s["items"] for s in rows["A"]] == [["liveable-city"], ["lakes"], ["heritage"], []]
    assert [s["hidden"] for s in rows["A"]] == [0, 0, 0, 1]
    assert [s["items"] for s in rows["B"]] == [["T01"], ["T02"], ["T03"], []]
    assert [s["items"] for s in rows["C"]] == [["boat-1", "tree-1"], ["pier-1"], ["wild-1"], ["monument-1"]]
    assert [s["hidden"] for s in rows["C"]] == [0, 0, 0, 1]
    assert [s["items"] for s in rows["D"]] == [["red"] * 4, ["blue"] * 3, ["green"] * 3, []]
    assert rows["D"][3]["star"] and rows["D"][3]["draws"] == 2


def test_face_down_items_are_revealed_when_taken():
    m = scenario(2, cards=["liveable-city", "lakes", "heritage", "builders"], first=0)
    pick_starts(m)
    out = m.apply(0, {"type": "take", "row": "A", "slot": 3})
    assert out.revealed and m.view(None)["players"][0]["cards"] == ["builders"]
    out = m.apply(1, {"type": "take", "row": "A", "slot": 0})
    assert not out.revealed


def test_setup_refusals_are_one_line_and_name_the_problem():
    bad = [
        {"cards": ["no-such-card"]},
        {"cards": ["lakes", "lakes"]},
        {"tiles": ["S1"]},
        {"bag": ["purple"]},
        {"bag": ["red"] * 26},
        {"first": 5},
        {"board": "atlantis"},
        {"colour": "red"},
    ]
    for setup in bad:
        with pytest.raises(BadSetup) as e:
            Match.create("cities", ["a", "b"], setup=setup)
        assert "\n" not in e.value.reason and e.value.reason
    with pytest.raises(BadSetup):
        Match.create("cities", ["a", "b"], setup=[1, 2])
    with pytest.raises(BadOptions):
        Match.create("cities", ["a", "b", "c"], {"long": True}, seed=1)
    with pytest.raises(BadOptions):
        Match.create("cities", ["a"], seed=1)


def test_two_players_cover_the_middle_ring_space():
    m = scenario(2)
    assert [[r["covered"] for r in a["rings"]] for a in m.view(None)["board"]["achievements"]] == [[False, True, False]] * 3
    m = scenario(3)
    assert not any(r["covered"] for a in m.view(None)["board"]["achievements"] for r in a["rings"])


# -- workers and rows ------------------------------------------------------------------------------


def test_three_or_four_players_put_at_most_one_worker_per_row_per_round():
    m = scenario(3, first=0)
    pick_starts(m)
    m.apply(0, {"type": "take", "row": "A", "slot": 0})
    m.apply(1, {"type": "take", "row": "A", "slot": 1})
    refused(m, {"type": "take", "row": "A", "slot": 1}, "slot_taken")
    m.apply(2, {"type": "take", "row": "A", "slot": 2})
    assert m.to_move() == (0,)
    refused(m, {"type": "take", "row": "A", "slot": 3}, "row_used")
    assert all(a["row"] != "A" for a in legal_json(m))


def test_two_players_put_exactly_two_workers_in_each_row():
    m = scenario(2, first=0)
    pick_starts(m)
    m.apply(0, {"type": "take", "row": "A", "slot": 0})
    m.apply(1, {"type": "take", "row": "A", "slot": 1})
    m.apply(0, {"type": "take", "row": "A", "slot": 2})
    # seat 1 may still take the last card; seat 0 already has two in row A
    m.apply(1, {"type": "take", "row": "A", "slot": 3})
    s = m.state
    assert s.used[0][0] == 2 and s.used[1][0] == 2
    # over a round each player places 8 workers, 2 per row, and the round ends after 16 takes
    rounds = m.view(None)["round"]
    takes = 4
    while m.view(None)["round"] == rounds:
        seat = m.to_move()[0]
        legal = GAME.legal(m.state, seat)
        if legal[0][0] == "take":
            rows = {c[1] for c in legal}
            assert rows == {r for r in range(4) if m.state.used[seat][r] < 2 and -1 in m.state.workers[r]}
        code = legal[0]
        takes += code[0] == "take"
        m.apply_code(seat, code)
    assert takes == 16


def test_two_players_cannot_put_a_third_worker_in_a_row():
    m = scenario(2, first=0)
    pick_starts(m)
    m.apply(0, {"type": "take", "row": "A", "slot": 0})
    m.apply(1, {"type": "take", "row": "B", "slot": 0})
    m.apply(1, {"type": "tile", "x": 1, "y": 0, "rot": 0})
    m.apply(0, {"type": "take", "row": "A", "slot": 1})
    m.apply(1, {"type": "take", "row": "A", "slot": 2})
    refused(m, {"type": "take", "row": "A", "slot": 3}, "row_used_twice")


def _play_round(m, pick=lambda legal: legal[0]):
    r = m.view(None)["round"]
    while not m.over and m.view(None)["round"] == r:
        seat = m.to_move()[0]
        m.apply_code(seat, pick(GAME.legal(m.state, seat)))


def test_three_players_leave_one_item_per_row_and_it_is_removed():
    m = scenario(3, first=0, cards=["liveable-city", "lakes", "heritage", "builders"],
                 tiles=["T01", "T02", "T03", "T04"], features=["boat-1", "tree-1", "pier-1", "wild-1", "monument-1", "bench-1"],
                 bag=["red"] * 4 + ["blue"] * 3 + ["green"] * 3)
    pick_starts(m)
    # everybody takes the first free slot of a row; slot 4 (index 3) of each row stays empty
    _play_round(m, pick=lambda legal: next(c for c in legal if c[0] != "take" or c[2] < 3))
    removed = m.view(None)["removed"]
    # the face-down card, tile and feature leave the game unseen
    assert removed["cards"] == [] and removed["hidden"] == 3 and "T04" not in removed["tiles"]
    assert removed["features"] == ["monument-1"]
    assert m.state.removed["hidden_cards"] == [CARD_INDEX["builders"]]
    assert removed["pieces"] == []  # the star slot holds nothing until taken
    v = m.view(None)
    assert v["round"] == 2 and all(s["worker"] is None for r in v["rows"] for s in r["slots"])
    assert v["decks"]["cards"] == 32 - 8


def test_the_worker_nearest_the_star_space_starts_the_next_round():
    m = scenario(3, first=0)
    pick_starts(m)

    def pick(legal):
        # seat 1 takes the star space; everyone else takes the first free slot
        seat = m.to_move()[0]
        star = ("take", 3, 3)
        if seat == 1 and star in legal:
            return star
        return next(c for c in legal if c != star)

    _play_round(m, pick)
    v = m.view(None)
    assert v["star"] == 1 and m.to_move() == (1,)
    # next round: seat 2 ends up rightmost in row D without the star space
    def pick2(legal):
        seat = m.to_move()[0]
        want = {0: ("take", 3, 0), 1: ("take", 3, 1), 2: ("take", 3, 2)}[seat]
        if want in legal:
            return want
        return next(c for c in legal if c[:2] != ("take", 3))

    _play_round(m, pick2)
    assert m.view(None)["star"] == 2 and m.to_move() == (2,)


def test_the_game_ends_right_after_the_last_round():
    for n, long, rounds in ((2, False, 4), (3, False, 8), (4, False, 8), (2, True, 7)):
        m = scenario(n, long=long, first=0)
        pick_starts(m)
        played = 0
        while not m.over:
            _play_round(m)
            played += 1
        assert played == rounds and m.view(None)["round"] == rounds
        assert m.result() is not None and GAME.legal(m.state, 0) == []


# -- placing -----------------------------------------------------------------------------------------


def test_city_tiles_go_edge_adjacent_any_rotation_within_3x3():
    m = scenario(2, first=0, tiles=["T21"] + [f"T{i:02d}" for i in range(1, 8)])
    pick_starts(m)
    m.apply(0, {"type": "take", "row": "B", "slot": 0})
    refused(m, {"type": "tile", "x": 1, "y": 1, "rot": 0}, "not_adjacent")  # diagonal
    refused(m, {"type": "tile", "x": 0, "y": 0, "rot": 0}, "cell_taken")
    refused(m, {"type": "take", "row": "A", "slot": 0}, "must_place")
    m.apply(0, {"type": "tile", "x": 0, "y": -1, "rot": 1})
    spaces = {(s["x"], s["y"]): s["type"] for s in m.view(None)["players"][0]["spaces"]}
    # T21 = [red red / blue blue] turned once clockwise: [blue red / blue red]
    assert [spaces[(0, -2)], spaces[(1, -2)], spaces[(0, -1)], spaces[(1, -1)]] == ["blue", "red", "blue", "red"]
    # a neighbourhood 2 tiles high may still grow to 3, never to 4
    s = m.state
    s.hoods[0] = hood([("S1", 0, 0, 0), ("T01", 0, -1, 0), ("T02", 0, 1, 0)])
    m.apply(1, {"type": "take", "row": "A", "slot": 0})
    m.apply(0, {"type": "take", "row": "B", "slot": 1})
    refused(m, {"type": "tile", "x": 0, "y": 2, "rot": 0}, "too_big")
    assert {(a["x"], a["y"]) for a in legal_json(m)} == {(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)}


def test_the_long_variant_allows_3x5_either_way_but_not_4x4():
    m = scenario(2, long=True, first=0)
    pick_starts(m)
    s = m.state
    s.hoods[0] = hood([("S1", 0, 0, 0), ("T01", 1, 0, 0), ("T02", 2, 0, 0), ("T03", 3, 0, 0), ("T04", 0, 1, 0), ("T05", 0, 2, 0)])
    m.apply(0, {"type": "take", "row": "B", "slot": 0})
    ok = {(a["x"], a["y"]) for a in legal_json(m)}
    assert (4, 0) in ok  # 5 wide, 3 high
    assert (0, 3) not in ok  # would be 4 wide and 4 high
    refused(m, {"type": "tile", "x": 0, "y": 3, "rot": 0}, "too_big")


def _with_pending_pieces(bag, hood_tiles, stacks=None, features=None):
    m = scenario(2, first=0, bag=bag)
    pick_starts(m)
    m.state.hoods[0] = hood(hood_tiles, stacks=stacks, features=features)
    m.apply(0, {"type": "take", "row": "D", "slot": 0})
    return m


def test_pieces_go_on_their_colour_or_their_colour_stack_at_most_4_high():
    # T21 = [red red / blue blue] at (0,0); (0,0) already red 4 high, (1,0) red 1 high
    m = _with_pending_pieces(["red", "red", "blue", "yellow"], [("T21", 0, 0, 0), ("T25", 1, 0, 0)],
                             stacks={(0, 0): ("red", 4), (1, 0): ("red", 1), (0, 1): ("blue", 1)},
                             features={(2, 0): "monument-1"})
    refused(m, {"type": "build", "colour": "red", "x": 0, "y": 0}, "too_high")
    refused(m, {"type": "build", "colour": "red", "x": 0, "y": 1}, "wrong_colour")  # a blue building
    refused(m, {"type": "build", "colour": "blue", "x": 1, "y": 0}, "wrong_colour")  # a red building
    refused(m, {"type": "build", "colour": "red", "x": 3, "y": 0}, "not_city")  # park
    refused(m, {"type": "build", "colour": "red", "x": 2, "y": 0}, "space_has_feature")  # monument
    refused(m, {"type": "build", "colour": "red", "x": 9, "y": 9}, "no_space")
    refused(m, {"type": "build", "colour": "green", "x": 1, "y": 1}, "not_pending")
    builds = {(a["colour"], a["x"], a["y"]) for a in legal_json(m) if a["type"] == "build"}
    assert builds == {("red", 1, 0), ("red", 2, 1), ("blue", 0, 1), ("blue", 1, 1)}
    m.apply(0, {"type": "build", "colour": "red", "x": 1, "y": 0})
    m.apply(0, {"type": "build", "colour": "red", "x": 1, "y": 0})
    m.apply(0, {"type": "build", "colour": "blue", "x": 0, "y": 1})
    sp = {(s["x"], s["y"]): s for s in m.view(None)["players"][0]["spaces"]}
    assert (sp[(1, 0)]["colour"], sp[(1, 0)]["height"]) == ("red", 3)
    assert m.to_move() == (0,)  # the yellow piece is still to place (nowhere: only decline)
    assert legal_json(m) == [{"type": "decline", "piece": "yellow"}]
    m.apply(0, {"type": "decline", "piece": "yellow"})
    assert m.to_move() == (1,) and m.view(None)["removed"]["pieces"] == ["yellow"]


def test_the_wild_tile_takes_any_colour_and_the_first_piece_fixes_it():
    m = _with_pending_pieces(["yellow", "green", "red", "red"], [("T21", 0, 0, 0)], features={(1, 1): "wild-1"})
    legal = {(a["colour"], a["x"], a["y"]) for a in legal_json(m) if a["type"] == "build"}
    assert ("yellow", 1, 1) in legal and ("green", 1, 1) in legal and ("red", 1, 1) in legal
    m.apply(0, {"type": "build", "colour": "yellow", "x": 1, "y": 1})
    refused(m, {"type": "build", "colour": "green", "x": 1, "y": 1}, "wrong_colour")
    legal = {(a["colour"], a["x"], a["y"]) for a in legal_json(m) if a["type"] == "build"}
    assert ("red", 1, 1) not in legal and ("red", 0, 0) in legal


def _with_pending_features(features, hood_tiles, stacks=None, placed=None):
    m = scenario(2, first=0, features=features)
    pick_starts(m)
    m.state.hoods[0] = hood(hood_tiles, stacks=stacks, features=placed)
    m.apply(0, {"type": "take", "row": "C", "slot": 0})
    return m


def test_features_go_on_their_background_and_grey_ones_only_on_empty_city_spaces():
    # S1 = [red blue / park water]; the red space is built
    m = _with_pending_features(["boat-1", "monument-1"], [("S1", 0, 0, 0), ("T25", 1, 0, 0)],
                               stacks={(0, 0): ("red", 1)}, placed={(3, 0): "tree-1"})
    refused(m, {"type": "feature", "feature": "boat-1", "x": 0, "y": 1}, "wrong_background")  # park
    refused(m, {"type": "feature", "feature": "monument-1", "x": 0, "y": 0}, "space_built")
    refused(m, {"type": "feature", "feature": "monument-1", "x": 1, "y": 1}, "grey_on_city")  # water
    refused(m, {"type": "feature", "feature": "monument-1", "x": 3, "y": 0}, "space_has_feature")
    spots = {(a["feature"], a["x"], a["y"]) for a in legal_json(m) if a["type"] == "feature"}
    assert spots == {("boat-1", 1, 1), ("monument-1", 1, 0), ("monument-1", 2, 0), ("monument-1", 2, 1)}
    m.apply(0, {"type": "feature", "feature": "monument-1", "x": 2, "y": 0})
    refused(m, {"type": "feature", "feature": "monument-1", "x": 2, "y": 1}, "not_pending")
    m.apply(0, {"type": "decline", "feature": "boat-1"})
    v = m.view(None)
    assert v["removed"]["features"] == ["boat-1"] and m.to_move() == (1,)


def test_a_feature_with_no_free_space_can_only_be_declined():
    m = _with_pending_features(["pier-1", "pier-2"], [("S1", 0, 0, 0)], placed={(1, 1): "boat-1"})
    assert legal_json(m) == [{"type": "decline", "feature": "pier-1"}, {"type": "decline", "feature": "pier-2"}]


# -- achievements and the end ------------------------------------------------------------------------


def test_achievements_are_claimed_at_the_end_of_the_turn_once_and_kept():
    # Mexico City, Zócalo: an empty city space next to 3+ buildings
    m = scenario(2, board="mexico-city", first=0, bag=["green", "red", "red", "red", "green", "green", "green"])
    pick_starts(m)
    tiles = [("T21", 0, 0, 0), ("T23", 1, 0, 0)]  # red red red red / blue blue green green
    m.state.hoods[0] = hood(tiles, stacks={(1, 0): ("red", 1), (3, 0): ("red", 1)})
    m.state.hoods[1] = hood(tiles, stacks={(1, 0): ("red", 1), (3, 0): ("red", 1)})
    m.apply(0, {"type": "take", "row": "D", "slot": 0})
    m.apply(0, {"type": "build", "colour": "green", "x": 2, "y": 1})
    assert m.view(None)["players"][0]["achievements"] == []  # not before the turn ends
    # the next placement fills the empty space: the condition is gone, but the turn ends...
    m.apply(0, {"type": "build", "colour": "red", "x": 0, "y": 0})
    m.apply(0, {"type": "build", "colour": "red", "x": 0, "y": 0})
    out = m.apply(0, {"type": "build", "colour": "red", "x": 0, "y": 0})
    assert out.turn_ended
    assert "mexico-zocalo" in m.view(None)["players"][0]["achievements"]
    zocalo = m.view(None)["board"]["achievements"][0]
    assert [r["seat"] for r in zocalo["rings"]] == [0, None, None]
    # seat 1 meets it too: 2 players, the middle ring space is covered -> the third value
    m.apply(1, {"type": "take", "row": "D", "slot": 1})
    m.apply(1, {"type": "build", "colour": "green", "x": 2, "y": 1})
    while m.to_move() == (1,):
        m.apply(1, legal_json(m)[-1])
    zocalo = m.view(None)["board"]["achievements"][0]
    assert [r["seat"] for r in zocalo["rings"]] == [0, None, 1]
    # seat 0 breaks it (builds on the empty space): the ring stays, and it is never claimed twice
    m.apply(0, {"type": "take", "row": "D", "slot": 2})
    m.apply(0, {"type": "build", "colour": "red", "x": 2, "y": 0})
    while m.to_move() == (0,):
        m.apply(0, legal_json(m)[-1])
    zocalo = m.view(None)["board"]["achievements"][0]
    assert [r["seat"] for r in zocalo["rings"]] == [0, None, 1]
    assert [r["value"] for r in zocalo["rings"]] == [5, 3, 1]


def test_ties_go_to_achievement_points_then_are_shared():
    m = scenario(3, board="mexico-city", first=0)
    pick_starts(m)
    s = m.state
    # neighbourhoods worth nothing by themselves (T21: four city spaces), no cards
    s.hoods = [hood([("T21", 0, 0, 0)]) for _ in range(3)]
    s.cards = [[], [], []]
    s.phase = 3  # over
    # seat 0: two monuments (4); seat 1: the first Chapultepec ring (4): seat 1 wins on achievements
    s.hoods[0] = hood([("T21", 0, 0, 0)], features={(0, 0): "monument-1", (1, 0): "monument-2"})
    s.rings = [[-1, -1, -1], [-1, -1, -1], [1, -1, -1]]
    res = GAME.result(s)
    assert res.scores == (4, 4, 0)
    assert res.ranking == ((1,), (0,), (2,)) and "achievement" in res.tiebreak
    # a plain lead needs no tie-break
    s.rings = [[2, -1, -1], [-1, -1, -1], [-1, -1, -1]]
    res = GAME.result(s)
    assert res.ranking[0] == (2,) and res.tiebreak == "none needed"


def test_equal_points_and_equal_achievement_points_share_the_win():
    m = scenario(2, board="mexico-city", first=0)
    pick_starts(m)
    s = m.state
    s.hoods = [hood([("T21", 0, 0, 0)]) for _ in range(2)]
    s.cards = [[], []]
    s.phase = 3
    # Zócalo rings 5 / (covered) / 1, Colonias 3 / covered / 1, Chapultepec 4 / covered / 1
    s.rings = [[0, -2, 1], [1, -2, 0], [-1, -2, -1]]  # seat 0: 5 + 1 = 6, seat 1: 1 + 3 = 4
    assert GAME.result(s).ranking == ((0,), (1,))
    # seat 0: the Colonias ring (3); seat 1: a park area with two kinds of features (3)
    s.rings = [[-1, -2, -1], [0, -2, -1], [-1, -2, -1]]
    s.hoods[1] = hood([("T25", 0, 0, 0)], features={(1, 0): "tree-1", (1, 1): "bench-1"})  # park 3
    res = GAME.result(s)
    assert res.scores == (3, 3) and res.ranking == ((0,), (1,))  # 3 achievement points against 0
    # both: the same park, no rings
    s.hoods[0] = hood([("T25", 0, 0, 0)], features={(1, 0): "tree-2", (1, 1): "bench-2"})
    s.rings = [[-1, -2, -1], [-1, -2, -1], [-1, -2, -1]]
    res = GAME.result(s)
    assert res.scores == (3, 3) and res.ranking == ((0, 1),) and "shared" in res.tiebreak


def test_actions_that_are_not_cities_actions_are_refused():
    m = scenario(2)
    for raw in ({"type": "fly"}, {"type": "take", "row": "E", "slot": 0}, {"type": "start", "tile": "T01"},
                {"type": "decline"}, {"type": "decline", "piece": "red", "feature": "boat-1"},
                {"type": "feature", "feature": "kraken-1", "x": 0, "y": 0}):
        before = dump(m)
        with pytest.raises(BadAction):
            m.apply(m.to_move()[0], raw)
        assert dump(m) == before
    for code in (("take", 1), ("take", 7, 0), ("start", 40), ("feature", 999, 0, 0), ("build", 9, 0, 0),
                 ("decline_tile", 0), ("tile", 1, 0, 5), ("take", "A", 0), ("take", True, 0), "take", None):
        with pytest.raises(BadAction):
            GAME.check(m.state, 0, code)


def test_preview_draws_a_legal_placement_into_the_view_exactly_as_the_engine_then_does():
    m = Match.create("cities", ["a", "b", "c"], seed=31)
    rng = random.Random(31)
    compared = 0
    while not m.over and compared < 60:
        seat = m.to_move()[0]
        if m.view(None)["phase"] == "place":
            for action in m.legal(seat)[:4]:
                if action["type"] == "decline":
                    continue
                seen = preview(m.view(None), action)
                after = GAME.clone(m.state)
                GAME.step(after, seat, GAME.code_of(action))
                got = GAME.view(after, None)["players"][seat]
                want = seen["players"][seat]
                key = lambda sp: (sp["x"], sp["y"])  # noqa: E731
                assert sorted(want["spaces"], key=key) == sorted(got["spaces"], key=key)
                assert want["tiles"] == got["tiles"]
                compared += 1
        m.apply_code(seat, RandomPlayer().choose(GAME, m.state, seat, rng))
    assert compared > 20
