"""Placement and meeple legality, set-aside tiles, refusals, and the Medina Azahara flow."""

import pytest

from engines.carcassonne import GAME, MEEPLES
from engines.carcassonne import tiles as T
from engines.core import BadAction, BadOptions, BadSetup, EngineError, IllegalAction
from engines.match import Match

from .helpers import dump, kinds, place, scenario, tile


def test_first_turn_from_a_plain_setup_list():
    m = Match.create("carcassonne", ["a", "b"], {}, setup=["E", "U"])
    v = m.view(0)
    assert v["tile"] == "E" and v["tiles_left"] == 1 and v["to_move"] == [0]
    assert [(t["tile"], t["x"], t["y"]) for t in v["board"]] == [("D", 0, 0)]


def test_edges_must_match_and_the_cell_must_touch_the_table():
    m = scenario([tile("D", 0, 0)], ["E", "B"])
    with pytest.raises(IllegalAction) as e:
        place(m, 0, -1, 0)  # E with its city north over D's city: its south field meets D's city
    assert e.value.code == "edges_mismatch"
    with pytest.raises(IllegalAction) as e:
        place(m, 5, 5, 0)
    assert e.value.code == "not_adjacent"
    with pytest.raises(IllegalAction) as e:
        place(m, 0, 0, 0)
    assert e.value.code == "cell_taken"
    place(m, 0, -1, 2)  # city south: fits


def test_meeple_only_on_an_unclaimed_feature_of_the_tile_just_placed():
    m = scenario([tile("D", 0, 0, 0, seat=1, feature="r0")], ["U", "B"])
    legal = set(GAME.legal(m.state, 0))
    assert (1, 0, 0, None) in legal and (1, 0, 0, "f0") in legal and (1, 0, 0, "f1") in legal
    assert (1, 0, 0, "r0") not in legal  # the road already holds seat 1's meeple
    before = dump(m)
    with pytest.raises(IllegalAction) as e:
        place(m, 1, 0, 0, "r0")
    assert e.value.code == "feature_occupied"
    with pytest.raises(IllegalAction) as e:
        place(m, 1, 0, 0, "c0")  # U has no city
    assert e.value.code == "no_such_feature"
    assert dump(m) == before
    place(m, 1, 0, 0, "f0")
    assert m.state.supply == [MEEPLES - 1, MEEPLES - 1]


def test_a_field_claimed_through_a_connection_is_occupied():
    # a farmer on D's southern field; U placed east continues that field on its south side
    m = scenario([tile("D", 0, 0, 0, seat=1, feature="f1")], ["U"])
    legal = set(GAME.legal(m.state, 0))
    assert (1, 0, 0, "f1") not in legal  # U's southern field joins D's
    assert (1, 0, 0, "f0") in legal  # its northern field joins D's other field: free


def test_no_meeple_when_the_supply_is_empty():
    board = [tile("B", 0, 0, 0, seat=0, feature="f0")]
    board += [tile("B", x, 0, 0, seat=0, feature="m") for x in range(1, 7)]
    m = scenario(board, ["B", "B"])
    assert m.state.supply[0] == 0
    assert all(c[3] is None for c in GAME.legal(m.state, 0))
    with pytest.raises(IllegalAction) as e:
        place(m, 0, 1, 0, "m")
    assert e.value.code == "no_meeples"


def test_a_tile_that_fits_nowhere_is_set_aside_and_another_drawn():
    # around a lone C (city on all sides) only tiles with a city edge fit
    m = scenario([tile("C", 0, 0)], ["X", "U", "E", "B"])
    v = m.view(0)
    assert v["tile"] == "E" and v["set_aside"] == ["X", "U"] and v["tiles_left"] == 1
    out = place(m, 0, 1, 0)  # E below C: its city north joins
    assert "drawn" in kinds(out)
    assert m.view(1)["tile"] == "B"


def test_game_ends_when_only_unplaceable_tiles_are_left():
    m = scenario([tile("C", 0, 0)], ["E", "X", "X"])
    out = place(m, 1, 0, 3)  # E turned: city west
    assert "tile_set_aside" in kinds(out) and "game_over" in kinds(out)
    assert m.over and m.result() is not None and m.legal(0) == [] and m.legal(1) == []


def test_refused_actions_leave_the_state_unchanged():
    m = Match.create("carcassonne", ["a", "b"], {"medina": True}, seed=5)
    before = dump(m)
    bad = [
        (1, {"type": "place", "x": 1, "y": 0, "rot": 0}),  # not your turn
        (0, {"type": "place", "x": 9, "y": 9, "rot": 0}),
        (0, {"type": "place", "x": 0, "y": 0, "rot": 0}),
        (0, {"type": "place", "x": 1, "y": 0, "rot": 7}),
        (0, {"type": "place", "x": 1, "y": 0, "rot": 0, "meeple": "zz"}),
        (0, {"type": "medina_use"}),
        (0, {"type": "choose", "tile": "A"}),
        (0, {"type": "choose", "tile": "nope"}),
        (0, {"type": "fly"}),
        (0, {"type": "place", "x": "a", "y": 0, "rot": 0}),
    ]
    for seat, action in bad:
        with pytest.raises(EngineError):
            m.apply(seat, action)
        assert dump(m) == before, action
    # every placement of the current tile is either refused without change, or listed in legal()
    # (symmetric tiles list one rotation per distinct result: an equivalent one is accepted too)
    t = m.state.current
    listed = {(c[0], c[1], T.EDGES[t][c[2]]) for c in GAME.legal(m.state, 0) if c != ("medina_use",)}
    refused = 0
    for x in range(-2, 3):
        for y in range(-2, 3):
            for rot in range(4):
                try:
                    GAME.check(m.state, 0, (x, y, rot, None))
                except IllegalAction:
                    refused += 1
                    continue
                finally:
                    assert dump(m) == before
                assert (x, y, T.EDGES[t][rot]) in listed
    assert refused > 80
    with pytest.raises(BadAction):
        GAME.check(m.state, 0, "nonsense")


def test_bad_options_and_setups():
    with pytest.raises(BadOptions):
        Match.create("carcassonne", ["a"], {}, seed=1)
    with pytest.raises(BadOptions):
        Match.create("carcassonne", ["a", "b"], {"rules": 4}, seed=1)
    with pytest.raises(BadOptions):
        Match.create("carcassonne", ["a", "b"], {"sets": 0}, seed=1)
    Match.create("carcassonne", [str(i) for i in range(6)], {}, seed=1)
    with pytest.raises(BadSetup):
        Match.create("carcassonne", ["a", "b"], {}, setup=["Z"])
    with pytest.raises(BadSetup):
        Match.create("carcassonne", ["a", "b"], {}, setup=["medina"])  # option off
    with pytest.raises(BadSetup):
        scenario([tile("D", 0, 0), tile("E", 0, -1, 0)], [])  # does not fit
    with pytest.raises(BadSetup):  # a meeple on a finished city
        scenario([tile("D", 0, 0, 0, seat=0, feature="c0"), tile("E", 0, -1, 2)], [])


# -- Medina Azahara -----------------------------------------------------------------------------


def _medina_match(pile: list[str], seats: int = 2) -> Match:
    return scenario([tile("B", 0, 0)], pile, seats=seats, medina=True)


def test_medina_drawn_kept_placed_next_turn_with_an_archaeologist_used_four_times():
    m = _medina_match(["B", "medina"] + ["B"] * 30)
    place(m, 1, 0)  # seat 0
    # seat 1 drew the Medina: kept, and a normal tile drawn to play now
    v = m.view(1)
    assert v["medina"]["holder"] == 1 and v["tile"] == "B"
    assert any(e.kind == "medina_drawn" for e in _last_outcome_events(m))
    place(m, 2, 0)  # seat 1 plays B
    place(m, 3, 0)  # seat 0
    v = m.view(1)
    assert v["tile"] == "medina" and v["medina"]["holder"] is None
    assert all(c[3] in (None, "ruins", "f0") for c in GAME.legal(m.state, 1))
    place(m, 4, 0, 0, "ruins")
    assert m.state.supply[1] == MEEPLES - 1
    assert m.view(1)["medina"]["archaeologist"]["uses"] == 0
    for use in range(1, 5):
        place(m, 0, use)  # seat 0's turn (it has no archaeologist)
        assert ("medina_use",) not in GAME.legal(m.state, 0)
        assert ("medina_use",) in GAME.legal(m.state, 1)
        left = m.view(1)["tiles_left"]
        out = m.apply(1, {"type": "medina_use"})
        assert out.revealed and "archaeologist_used" in kinds(out)
        v = m.view(1)
        assert v["phase"] == "choose" and v["hand"] == ["B", "B"] and v["legal"] is None
        assert v["tile"] is None
        with pytest.raises(IllegalAction):
            m.apply(1, {"type": "medina_use"})
        with pytest.raises(IllegalAction) as e:
            m.apply(1, {"type": "choose", "tile": "X"})
        assert e.value.code == "not_in_hand"
        with pytest.raises(IllegalAction) as e:
            place(m, 9, 9)
        assert e.value.code == "must_choose"
        m.apply(1, {"type": "choose", "tile": "B"})
        assert m.view(1)["tiles_left"] == left  # one drawn, one put back
        assert ("medina_use",) not in GAME.legal(m.state, 1)  # once per turn
        if use < 4:
            assert m.view(1)["medina"]["archaeologist"]["uses"] == use
        place(m, 5, use - 1)
    assert m.view(1)["medina"]["archaeologist"] is None
    assert m.state.supply[1] == MEEPLES  # back home after the 4th use
    place(m, 0, 5)
    assert ("medina_use",) not in GAME.legal(m.state, 1)


def test_archaeologist_cannot_dig_on_the_turn_it_was_placed():
    m = _medina_match(["medina"] + ["B"] * 8)
    assert m.view(0)["medina"]["holder"] == 0
    place(m, 1, 0)
    place(m, 2, 0)
    assert m.view(0)["tile"] == "medina"
    place(m, -1, 0, 0, "ruins")
    place(m, 3, 0)  # seat 1
    assert ("medina_use",) in GAME.legal(m.state, 0)


def test_medina_as_the_last_tile_is_played_at_once():
    m = _medina_match(["medina"])
    v = m.view(0)
    assert v["tile"] == "medina" and v["tiles_left"] == 0
    place(m, 0, 1, 0, "ruins")
    assert m.over


def test_held_medina_is_played_by_its_holder_when_the_pile_runs_out():
    m = _medina_match(["B", "medina", "B"], seats=3)
    place(m, 1, 0)  # seat 0
    assert m.view(1)["medina"]["holder"] == 1
    place(m, 2, 0)  # seat 1; seat 2 has nothing to draw, so seat 1 places the Medina
    assert m.to_move() == (1,) and m.view(1)["tile"] == "medina"
    place(m, 3, 0)
    assert m.over


def _last_outcome_events(m: Match):
    # replay the log to capture the events of the last action (the match keeps only flags)
    replay = Match.create("carcassonne", m.seats, m.options.model_dump(), setup=m.setup)
    out = None
    for entry in m.actions:
        out = replay.apply(entry["seat"], entry["action"])
    return out.events if out else []


def test_every_error_code_and_event_kind_has_its_text_in_every_language():
    """The engine words nothing: each of its codes and event kinds is a catalogue entry
    (catalogs/<lang>/carcassonne.po) in English, Spanish and Portuguese."""
    import re
    from pathlib import Path

    from catalogs import table

    texts = table("carcassonne")
    folder = Path(__file__).resolve().parents[2] / "engines" / "carcassonne"
    src = "".join(f.read_text() for f in folder.glob("*.py") if f.name != "ai.py")
    codes = set(re.findall(r'(?:IllegalAction|BadAction|BadSetup)\(\s*"([a-z_]+)"', src)) - {"bad_setup", "bad_action"}
    events = set(re.findall(r'Event\("([a-z_]+)"', src))
    assert {"edges_mismatch", "feature_occupied", "not_your_turn"} <= codes
    assert {"placed", "scored", "medina_drawn", "tile_set_aside"} <= events
    for key in codes:
        assert set(texts[f"rule.{key}"]) == {"en", "es", "pt"}, key
    for key in events:
        assert set(texts[f"event.{key}"]) == {"en", "es", "pt"}, key


def test_revealed_only_when_a_tile_is_drawn():
    m = Match.create("carcassonne", ["a", "b"], {}, setup=["E", "U"])
    assert place(m, 0, -1, 2).revealed  # U is drawn for the next player
    assert not place(m, 1, 0).revealed  # last tile: nothing drawn
    assert m.revealed == [True, False]


def test_digging_needs_a_tile_left_and_an_unfit_extra_tile_is_set_aside():
    m = _medina_match(["medina", "B", "B", "B", "B", "X", "B"])
    place(m, 1, 0)  # seat 0 (holds the Medina)
    place(m, 2, 0)  # seat 1
    place(m, -1, 0, 0, "ruins")  # seat 0 places the Medina with the archaeologist
    place(m, 3, 0)  # seat 1
    assert m.view(0)["tile"] == "B" and m.view(0)["tiles_left"] == 2
    out = m.apply(0, {"type": "medina_use"})  # X fits nowhere among fields: set aside, B drawn
    assert [e.kind for e in out.events] == ["archaeologist_used", "tile_set_aside", "drawn"]
    assert m.view(0)["hand"] == ["B", "B"] and m.view(0)["set_aside"] == ["X"]
    m.apply(0, {"type": "choose", "tile": "B"})
    place(m, 4, 0)  # seat 0; seat 1 draws the returned B, the last tile
    assert m.view(1)["tiles_left"] == 0
    place(m, 5, 0)
    assert m.over


def test_no_dig_when_the_pile_is_empty():
    m = _medina_match(["medina", "B", "B", "B", "B"])
    place(m, 1, 0)
    place(m, 2, 0)
    place(m, -1, 0, 0, "ruins")
    place(m, 3, 0)
    assert m.view(0)["tiles_left"] == 0 and not m.view(0)["can_use_archaeologist"]
    assert ("medina_use",) not in GAME.legal(m.state, 0)
    with pytest.raises(IllegalAction) as e:
        m.apply(0, {"type": "medina_use"})
    assert e.value.code == "pile_empty"


def test_decode_refuses_malformed_actions():
    for bad in ({"type": "place", "x": 1}, {"type": "place", "x": 1, "y": 0, "rot": 0, "meeple": 3}, {"type": "x"}):
        with pytest.raises(BadAction):
            GAME.decode(bad)
    code = GAME.decode({"type": "place", "x": 1, "y": -2, "rot": 3, "meeple": "f1"})
    assert code == (1, -2, 3, "f1") and GAME.encode(code) == {"type": "place", "x": 1, "y": -2, "rot": 3, "meeple": "f1"}
    assert GAME.decode(GAME.encode(("choose", "K"))) == ("choose", "K")
    assert GAME.decode(GAME.encode(("medina_use",))) == ("medina_use",)


# -- setups are checked against the tile set and the rules of play (issue 13) --------------------


def test_a_setup_may_not_hold_more_tiles_of_a_kind_than_the_set():
    with pytest.raises(BadSetup, match="3 C tiles; the tile set has 1"):
        Match.create("carcassonne", ["a", "b"], {}, setup=["C", "C", "C"])
    with pytest.raises(BadSetup, match="D tiles"):  # the start tile is a D too: 4 in the set
        Match.create("carcassonne", ["a", "b"], {}, setup=["D"] * 4)
    Match.create("carcassonne", ["a", "b"], {}, setup=["D"] * 3)
    Match.create("carcassonne", ["a", "b"], {"sets": 3}, setup=["C", "C", "C"])
    with pytest.raises(BadSetup, match="C tiles"):  # board tiles count as well
        scenario([tile("C", 0, 0)], ["C"], sets=1)


def test_a_setup_board_may_not_put_a_meeple_on_a_feature_that_already_holds_one():
    # a straight road (U) continued by a second one: ana's road, then ben on the same road
    with pytest.raises(BadSetup, match="road already holds a meeple"):
        scenario([tile("U", 0, 0, 0, seat=0, feature="r0"), tile("U", 1, 0, 0, seat=1, feature="r0")], ["E"])
    with pytest.raises(BadSetup, match="road already holds a meeple"):  # the same seat neither
        scenario([tile("U", 0, 0, 0, seat=0, feature="r0"), tile("U", 1, 0, 0, seat=0, feature="r0")], ["E"])
    # (a feature joined later by another tile may hold several: see _farm_board in test_scoring.py)


def test_a_symmetric_tile_turned_half_round_is_the_same_move_as_listed():
    # U is a straight road: turned 180 degrees it looks the same, with its two fields swapped
    def fresh():
        return scenario([tile("U", 0, 0, 0)], ["U", "E"])

    m = fresh()
    listed = {(a["x"], a["y"], a["rot"]) for a in m.legal(0) if a["type"] == "place"}
    assert (1, 0, 0) in listed and (1, 0, 2) not in listed
    place(m, 1, 0, 2, "f0")  # accepted: read as rotation 0 with the meeple on the other field
    assert m.actions[-1]["action"] == {"type": "place", "x": 1, "y": 0, "rot": 0, "meeple": "f1"}
    same = fresh()
    place(same, 1, 0, 0, "f1")
    assert dump(m) == dump(same)
    with pytest.raises(IllegalAction):
        place(fresh(), 1, 0, 2, "zz")
