"""One or more scenario tests per purple district (base and Dark City)."""

import pytest

from engines.citadels import GAME
from engines.core import IllegalAction

from .helpers import act, card, end, ids, legal, price, scenario, turn

DC = {"dark_city": True}


def parts(st, seat, final_round=None):
    return GAME._score_parts(st, seat, final_round or st.round + 1)


# ---------------------------------------------------------------- scoring districts


def test_dragon_gate_and_university_cost_six_score_eight():
    st = scenario(4, picks={0: ["king"]}, hands={0: ["dragon_gate", "university"]}, gold={0: 4})
    act(st, 0, {"type": "income", "take": "gold"})
    act(st, 0, {"type": "build", "district": "dragon_gate#1"})
    assert st.gold[0] == 0
    st.cities[0].append(card("university"))
    st.hands[0].remove(card("university"))
    assert parts(st, 0)["districts"] == 16


def test_haunted_city_counts_as_missing_colour_except_when_built_in_last_round():
    city = ["manor", "temple", "tavern", "keep", "haunted_city"]  # it must stand in for red
    st = scenario(4, picks={0: ["king"]}, cities={0: city})
    assert parts(st, 0, final_round=5)["five_colours"] == 3  # built round 0 < 5
    st.built_round["haunted_city#1"] = 5
    assert parts(st, 0, final_round=5)["five_colours"] == 0
    # as the only purple it cannot be both purple and red
    st = scenario(
        4, picks={0: ["king"]}, cities={0: ["manor", "temple", "tavern", "watchtower", "haunted_city"]}
    )
    st.built_round["haunted_city#1"] = 5
    assert parts(st, 0, final_round=5)["five_colours"] == 3  # it is purple itself


def test_school_of_magic_counts_for_income_colour():
    st = scenario(4, picks={0: ["king"]}, cities={0: ["manor", "school_of_magic"]})
    act(st, 0, {"type": "collect"})
    assert st.gold[0] == 2
    st = scenario(4, picks={0: ["bishop"]}, cities={0: ["manor", "school_of_magic"]})
    act(st, 0, {"type": "collect"})
    assert st.gold[0] == 1


# ---------------------------------------------------------------- Warlord-related


def test_keep_cannot_be_destroyed():
    st = scenario(4, picks={0: ["warlord"]}, cities={1: ["keep", "temple"]}, gold={0: 9})
    act(st, 0, {"type": "income", "take": "gold"})
    targets = {a["district"] for a in legal(st, 0) if a["type"] == "destroy"}
    assert targets == {"temple#1"}
    with pytest.raises(IllegalAction):
        act(st, 0, {"type": "destroy", "district": "keep#1"})


def test_great_wall_raises_cost_of_other_districts_only():
    st = scenario(4, picks={0: ["warlord"]}, cities={1: ["great_wall", "temple", "manor"]}, gold={0: 0})
    act(st, 0, {"type": "income", "take": "gold"})
    assert price(st, 1, "temple") == 1
    assert price(st, 1, "manor") == 3
    assert price(st, 1, "great_wall") == 5
    targets = {a["district"] for a in legal(st, 0) if a["type"] == "destroy"}
    assert targets == {"temple#1"}


def test_graveyard_owner_may_buy_back_destroyed_district():
    st = scenario(4, picks={0: ["warlord"]}, cities={1: ["manor"], 2: ["graveyard"]}, gold={0: 5, 2: 1})
    act(st, 0, {"type": "income", "take": "gold"})
    act(st, 0, {"type": "destroy", "district": "manor#1"})
    assert st.pending["kind"] == "graveyard" and GAME.to_move(st) == (2,)
    assert legal(st, 2) == [{"type": "graveyard", "take": True}, {"type": "graveyard", "take": False}]
    act(st, 2, {"type": "graveyard", "take": True})
    assert ids(st.hands[2]) == ["manor#1"] and st.gold[2] == 0
    assert GAME.to_move(st) == (0,)


def test_graveyard_not_offered_to_the_warlord_or_without_gold():
    st = scenario(4, picks={0: ["warlord"]}, cities={1: ["manor"], 0: ["graveyard"]}, gold={0: 5})
    act(st, 0, {"type": "income", "take": "gold"})
    act(st, 0, {"type": "destroy", "district": "manor#1"})
    assert st.pending is None and st.deck[0] == card("manor")
    st = scenario(4, picks={0: ["warlord"]}, cities={1: ["manor"], 2: ["graveyard"]}, gold={0: 5, 2: 0})
    act(st, 0, {"type": "income", "take": "gold"})
    act(st, 0, {"type": "destroy", "district": "manor#1"})
    assert st.pending is None


# ---------------------------------------------------------------- drawing districts


def test_observatory_draws_three_keeps_one():
    st = scenario(4, picks={0: ["king"]}, cities={0: ["observatory"]}, deck_top=["manor", "temple", "tavern"])
    act(st, 0, {"type": "income", "take": "cards"})
    assert len(legal(st, 0)) == 3
    act(st, 0, {"type": "keep", "card": "temple#1"})
    assert ids(st.hands[0]) == ["temple#1"] and st.pending is None
    assert set(st.deck[:2]) == {card("manor"), card("tavern")}


def test_library_keeps_both_and_with_observatory_two_of_three():
    st = scenario(4, picks={0: ["king"]}, cities={0: ["library"]}, deck_top=["manor", "temple"])
    act(st, 0, {"type": "income", "take": "cards"})
    assert st.pending is None and ids(st.hands[0]) == ["manor#1", "temple#1"]
    st = scenario(
        4, picks={0: ["king"]}, cities={0: ["library", "observatory"]}, deck_top=["manor", "temple", "tavern"]
    )
    act(st, 0, {"type": "income", "take": "cards"})
    act(st, 0, {"type": "keep", "card": "temple#1"})
    assert st.pending is not None
    act(st, 0, {"type": "keep", "card": "tavern#1"})
    assert st.pending is None and ids(st.hands[0]) == ["tavern#1", "temple#1"]


def test_laboratory_discards_a_card_for_one_gold_once():
    st = scenario(4, picks={0: ["king"]}, cities={0: ["laboratory"]}, hands={0: ["manor", "temple"]})
    act(st, 0, {"type": "laboratory", "card": "manor#1"})
    assert st.gold[0] == 1 and ids(st.hands[0]) == ["temple#1"] and st.deck[0] == card("manor")
    assert not [a for a in legal(st, 0) if a["type"] == "laboratory"]


def test_smithy_pays_two_for_three_cards():
    st = scenario(4, picks={0: ["king"]}, cities={0: ["smithy"]}, gold={0: 2})
    out = act(st, 0, {"type": "smithy"})
    assert out.revealed and st.gold[0] == 0 and len(st.hands[0]) == 3
    assert {"type": "smithy"} not in legal(st, 0)


# ---------------------------------------------------------------- Dark City


def test_lighthouse_searches_the_deck():
    st = scenario(4, DC, picks={0: ["king"]}, hands={0: ["lighthouse"]}, gold={0: 1})
    act(st, 0, {"type": "income", "take": "gold"})
    out = act(st, 0, {"type": "build", "district": "lighthouse#1"})
    assert out.revealed and st.pending["kind"] == "lighthouse"
    v = GAME.view(st, 0)
    assert len(v["pending"]["cards"]) == len(st.deck)
    assert GAME.view(st, 1)["pending"]["cards"] is None
    act(st, 0, {"type": "lighthouse", "card": "dragon_gate#1"})
    assert ids(st.hands[0]) == ["dragon_gate#1"] and card("dragon_gate") not in st.deck


def test_armory_destroys_itself_and_another_district():
    st = scenario(4, DC, picks={0: ["king"]}, cities={0: ["armory"], 1: ["keep", "palace"]})
    targets = {a["district"] for a in legal(st, 0) if a["type"] == "armory"}
    assert targets == {"keep#1", "palace#1"}
    act(st, 0, {"type": "armory", "district": "palace#1"})
    assert st.cities[0] == [] and ids(st.cities[1]) == ["keep#1"]
    assert {card("armory"), card("palace")} == set(st.deck[:2])


def test_museum_stores_cards_and_scores_them():
    st = scenario(4, DC, picks={0: ["king"]}, cities={0: ["museum"]}, hands={0: ["manor", "temple"]})
    act(st, 0, {"type": "museum", "card": "manor#1"})
    assert not [a for a in legal(st, 0) if a["type"] == "museum"]  # once per turn
    assert parts(st, 0)["purple_bonus"] == 1
    assert GAME.view(st, 0)["museum_cards"][0]["id"] == "manor#1"
    assert GAME.view(st, 1)["museum_cards"] is None and GAME.view(st, 1)["museum_size"] == 1


def test_imperial_treasury_map_room_wishing_well_scores():
    st = scenario(
        4,
        DC,
        picks={0: ["king"]},
        cities={0: ["imperial_treasury", "map_room", "wishing_well", "keep"]},
        hands={0: ["manor", "temple"]},
        gold={0: 5},
    )
    # treasury 5 gold + map room 2 cards + wishing well 3 other purples
    assert parts(st, 0)["purple_bonus"] == 5 + 2 + 3


def test_quarry_allows_one_duplicate():
    st = scenario(
        4,
        DC,
        picks={0: ["architect"]},
        cities={0: ["quarry", "manor", "temple"]},
        hands={0: ["manor#2", "temple#2"]},
        gold={0: 10},
    )
    act(st, 0, {"type": "income", "take": "gold"})
    act(st, 0, {"type": "build", "district": "manor#2"})
    with pytest.raises(IllegalAction) as e:
        act(st, 0, {"type": "build", "district": "temple#2"})
    assert e.value.code == "duplicate"


def test_duplicates_refused_without_quarry():
    st = scenario(4, picks={0: ["architect"]}, cities={0: ["manor"]}, hands={0: ["manor#2"]}, gold={0: 10})
    act(st, 0, {"type": "income", "take": "gold"})
    assert {"type": "build", "district": "manor#2"} not in legal(st, 0)
    with pytest.raises(IllegalAction) as e:
        act(st, 0, {"type": "build", "district": "manor#2"})
    assert e.value.code == "duplicate"


def test_poor_house_and_park_at_end_of_turn():
    st = scenario(
        4,
        DC,
        picks={0: ["king"], 1: ["warlord"]},
        cities={0: ["poor_house", "park"]},
        hands={0: ["manor"]},
        gold={0: 1},
    )
    act(st, 0, {"type": "income", "take": "gold"})
    act(st, 0, {"type": "build", "district": "manor#1"})
    assert st.gold[0] == 0 and st.hands[0] == []
    act(st, 0, {"type": "end_turn"})
    # the King collected 1 for the manor, so no Poor House gold; the empty hand draws 2
    assert st.gold[0] == 1 and len(st.hands[0]) == 2


def test_poor_house_gives_gold_when_empty():
    st = scenario(
        4,
        DC,
        picks={0: ["merchant"], 1: ["warlord"]},
        cities={0: ["poor_house"]},
        hands={0: ["castle"]},
        gold={0: 1},
    )
    act(st, 0, {"type": "income", "take": "gold"})  # 1 + 2 + 1 (merchant)
    act(st, 0, {"type": "build", "district": "castle#1"})
    act(st, 0, {"type": "end_turn"})
    assert st.gold[0] == 1


def test_bell_tower_announcement_and_revert():
    city = ["manor", "temple", "tavern", "watchtower", "church"]
    st = scenario(
        4,
        DC,
        picks={0: ["architect"], 1: ["warlord"]},
        cities={0: city},
        hands={0: ["bell_tower", "castle"]},
        gold={0: 20},
    )
    act(st, 0, {"type": "income", "take": "gold"})
    act(st, 0, {"type": "build", "district": "bell_tower#1"})
    assert st.pending["kind"] == "bell"
    act(st, 0, {"type": "bell_tower", "announce": True})
    assert GAME.view(st, None)["districts_to_end"] == 7
    act(st, 0, {"type": "build", "district": "castle#1"})
    assert st.complete_order == [0]
    end(st)
    # the Warlord cannot touch a completed (7) city
    assert not [a for a in legal(st, 1) if a["type"] == "destroy" and a["district"] == "bell_tower#1"]
    # if the Bell Tower falls (say, to an Armory) the announcement reverts
    GAME._remove_district(st, 0, card("bell_tower"), [])
    assert not st.bell and st.complete_order == []


def test_factory_discounts_other_purple_districts():
    st = scenario(
        4, DC, picks={0: ["architect"]}, cities={0: ["factory"]}, hands={0: ["keep", "tavern"]}, gold={0: 1}
    )
    act(st, 0, {"type": "income", "take": "gold"})
    act(st, 0, {"type": "build", "district": "keep#1"})
    assert st.gold[0] == 1
    act(st, 0, {"type": "build", "district": "tavern#1"})
    assert st.gold[0] == 0


def test_hospital_lets_the_murdered_take_an_action_only():
    st = scenario(
        4,
        DC,
        picks={0: ["assassin"], 1: ["merchant"], 2: ["warlord"]},
        cities={1: ["hospital", "tavern"]},
        hands={1: ["temple"]},
        gold={1: 3},
    )
    act(st, 0, {"type": "murder", "character": "merchant"})
    end(st)
    assert turn(st) == (1, "merchant") and st.t_mode == "hospital"
    act(st, 1, {"type": "income", "take": "gold"})
    assert legal(st, 1) == [{"type": "end_turn"}]
    act(st, 1, {"type": "end_turn"})
    assert st.gold[1] == 5  # no merchant bonus, no collect


def test_throne_room_pays_when_the_crown_moves():
    st = scenario(4, DC, picks={0: ["thief"], 1: ["king"]}, cities={2: ["throne_room"]}, crown=3)
    end(st)
    assert st.crown == 1 and st.gold[2] == 1


def test_ball_room_thanks_or_forfeit():
    st = scenario(
        4, DC, picks={0: ["thief"], 1: ["merchant"], 3: ["warlord"]}, cities={2: ["ball_room"]}, crown=2
    )
    assert legal(st, 0)[0] == {"type": "thank"}
    assert GAME.view(st, None)["turn"]["must_thank"]
    act(st, 0, {"type": "thank"})
    assert {"type": "thank"} not in legal(st, 0)
    end(st)
    assert turn(st) == (1, "merchant")
    out = act(st, 1, {"type": "income", "take": "gold"})  # forgot to thank: turn lost
    assert out.revealed and st.gold[1] == 0 and turn(st) == (3, "warlord")


def test_graveyard_does_not_answer_the_armory():
    st = scenario(4, DC, picks={0: ["king"]}, cities={0: ["armory"], 1: ["manor", "graveyard"]}, gold={1: 5})
    act(st, 0, {"type": "armory", "district": "manor#1"})
    assert st.pending is None and card("manor") in st.deck[:2]


def test_destroyed_museum_sends_its_cards_to_the_deck():
    st = scenario(4, DC, picks={0: ["warlord"]}, cities={1: ["museum"]}, gold={0: 9})
    st.museum = [card("palace")]
    st.deck.remove(card("palace"))
    act(st, 0, {"type": "income", "take": "gold"})
    act(st, 0, {"type": "destroy", "district": "museum#1"})
    assert st.museum == [] and {card("palace"), card("museum")} <= set(st.deck[:2])
