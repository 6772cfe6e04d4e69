"""One or more scenario tests per character (base, Dark City alternates, rank 9)."""

import pytest

from engines.core import IllegalAction

from .helpers import act, card, end, ids, legal, price, scenario, turn

ALT = {
    "rank1": "witch",
    "rank2": "tax_collector",
    "rank3": "wizard",
    "rank4": "emperor",
    "rank5": "abbot",
    "rank6": "alchemist",
    "rank7": "navigator",
    "rank8": "diplomat",
}


# ---------------------------------------------------------------- Assassin


def test_assassin_murdered_character_skips_turn_and_is_revealed_at_round_end():
    st = scenario(4, picks={0: ["assassin"], 1: ["merchant"], 2: ["king"], 3: ["warlord"]}, gold={1: 5})
    assert turn(st) == (0, "assassin")
    assert {"type": "murder", "character": "assassin"} not in legal(st, 0)
    act(st, 0, {"type": "murder", "character": "merchant"})
    end(st)
    assert turn(st) == (2, "king")  # merchant skipped
    assert "merchant" not in st.revealed
    end(st)
    assert turn(st) == (3, "warlord")
    end(st)
    # round over: the murdered merchant's player was revealed, his gold untouched
    assert st.last_round["characters"]["merchant"] == 1
    assert st.gold[1] == 5
    assert st.phase == "draft"


def test_murdered_king_takes_the_crown_at_round_end_not_before():
    st = scenario(4, picks={0: ["assassin"], 1: ["king"], 2: ["bishop"], 3: ["warlord"]}, crown=3)
    act(st, 0, {"type": "murder", "character": "king"})
    end(st)
    assert turn(st) == (2, "bishop")
    assert st.crown == 3
    end(st)
    end(st)
    assert st.crown == 1 and st.round == 2


# ---------------------------------------------------------------- Thief


def test_thief_targets_and_robbery_on_reveal():
    st = scenario(4, picks={0: ["assassin"], 1: ["thief"], 2: ["merchant"], 3: ["king"]}, gold={2: 7, 1: 1})
    act(st, 0, {"type": "murder", "character": "king"})
    end(st)
    assert turn(st) == (1, "thief")
    targets = {a["character"] for a in legal(st, 1) if a["type"] == "rob"}
    assert "assassin" not in targets and "thief" not in targets and "king" not in targets
    assert "merchant" in targets
    with pytest.raises(IllegalAction):
        act(st, 1, {"type": "rob", "character": "king"})
    act(st, 1, {"type": "rob", "character": "merchant"})
    assert st.gold[2] == 7  # nothing moves until the merchant is called
    end(st)
    assert turn(st) == (2, "merchant")
    assert st.gold[2] == 0 and st.gold[1] == 1 + 2 + 7


# ---------------------------------------------------------------- Magician


def test_magician_swaps_hands_even_with_an_empty_hand():
    st = scenario(3, picks={0: ["magician"], 1: ["king"], 2: ["bishop"]}, hands={1: ["manor", "temple"]})
    act(st, 0, {"type": "swap_hands", "seat": 1})
    assert ids(st.hands[0]) == ["manor#1", "temple#1"] and st.hands[1] == []
    assert not [a for a in legal(st, 0) if a["type"] in ("swap_hands", "magician_discard")]


def test_magician_discards_to_bottom_and_draws_as_many():
    st = scenario(
        3,
        picks={0: ["magician"], 1: ["king"], 2: ["bishop"]},
        hands={0: ["manor", "temple", "castle"]},
        deck_top=["palace", "church"],
    )
    act(st, 0, {"type": "magician_discard", "card": "manor#1"})
    assert [a["type"] for a in legal(st, 0)] == ["magician_discard", "magician_discard", "magician_draw"]
    act(st, 0, {"type": "magician_discard", "card": "castle#1"})
    assert st.deck[0] in (card("manor"), card("castle"))  # at the bottom
    out = act(st, 0, {"type": "magician_draw"})
    assert out.revealed
    assert ids(st.hands[0]) == ["church#1", "palace#1", "temple#1"]


# ---------------------------------------------------------------- King


def test_king_takes_crown_when_called_and_collects_yellow():
    st = scenario(
        4,
        picks={0: ["thief"], 1: ["king"], 2: ["bishop"], 3: ["warlord"]},
        cities={1: ["manor", "castle", "temple"]},
        crown=3,
    )
    end(st)
    assert turn(st) == (1, "king") and st.crown == 1
    act(st, 1, {"type": "income", "take": "gold"})
    act(st, 1, {"type": "collect"})
    assert st.gold[1] == 2 + 2
    assert {"type": "collect"} not in legal(st, 1)


def test_uncollected_income_is_paid_at_end_of_turn():
    st = scenario(
        4,
        picks={0: ["king"], 1: ["merchant"], 2: ["bishop"], 3: ["warlord"]},
        cities={0: ["manor", "palace"]},
    )
    end(st)
    assert st.gold[0] == 2 + 2


def test_king_is_never_set_aside_face_up():
    from engines.citadels import GAME

    for seed in range(60):
        st = GAME.new_state(4, GAME.parse_options({}), seed, None)
        assert "king" not in st.face_up and len(st.face_up) == 2


# ---------------------------------------------------------------- Bishop


def test_bishop_protects_from_warlord_unless_murdered():
    cities = {1: ["temple", "church"], 2: ["manor"]}
    st = scenario(
        4, picks={0: ["thief"], 1: ["bishop"], 2: ["merchant"], 3: ["warlord"]}, cities=cities, gold={3: 9}
    )
    end(st)
    end(st)  # bishop collects 2 blue at end
    assert st.gold[1] == 2 + 2
    end(st)
    assert turn(st) == (3, "warlord")
    targets = {a["district"] for a in legal(st, 3) if a["type"] == "destroy"}
    assert targets == {"manor#1"}  # any order: before the action too
    act(st, 3, {"type": "income", "take": "gold"})
    targets = {a["district"] for a in legal(st, 3) if a["type"] == "destroy"}
    assert targets == {"manor#1"}

    st = scenario(
        4, picks={0: ["assassin"], 1: ["bishop"], 2: ["merchant"], 3: ["warlord"]}, cities=cities, gold={3: 9}
    )
    act(st, 0, {"type": "murder", "character": "bishop"})
    end(st)
    end(st)
    act(st, 3, {"type": "income", "take": "gold"})
    targets = {a["district"] for a in legal(st, 3) if a["type"] == "destroy"}
    assert targets == {"manor#1", "temple#1", "church#1"}


# ---------------------------------------------------------------- Merchant / Architect


def test_merchant_gets_one_gold_after_action_plus_green():
    st = scenario(
        4,
        picks={0: ["merchant"], 1: ["architect"], 2: ["warlord"]},
        cities={0: ["tavern", "market"]},
        deck_top=["manor", "castle"],
    )
    act(st, 0, {"type": "income", "take": "cards"})
    act(st, 0, {"type": "keep", "card": "castle#1"})
    assert st.gold[0] == 1
    act(st, 0, {"type": "collect"})
    assert st.gold[0] == 3


def test_architect_draws_two_more_and_builds_three():
    st = scenario(
        4,
        picks={0: ["architect"], 3: ["warlord"]},
        hands={0: ["temple", "tavern", "watchtower", "manor"]},
        gold={0: 2},
        deck_top=["palace", "castle"],
    )
    act(st, 0, {"type": "income", "take": "gold"})
    assert "palace#1" in ids(st.hands[0]) and len(st.hands[0]) == 6
    for d in ("temple#1", "tavern#1", "watchtower#1"):
        act(st, 0, {"type": "build", "district": d})
    assert len(st.cities[0]) == 3 and st.gold[0] == 1
    assert not [a for a in legal(st, 0) if a["type"] == "build"]


def test_classic_order_builds_one_and_only_after_income():
    st = scenario(
        4,
        {"turn_order": "classic"},
        picks={0: ["king"], 1: ["merchant"], 2: ["bishop"], 3: ["warlord"]},
        hands={0: ["temple", "tavern"]},
        gold={0: 5},
    )
    with pytest.raises(IllegalAction) as e:
        act(st, 0, {"type": "build", "district": "temple#1"})
    assert e.value.code == "income_first"
    act(st, 0, {"type": "income", "take": "gold"})
    act(st, 0, {"type": "build", "district": "temple#1"})
    with pytest.raises(IllegalAction) as e:
        act(st, 0, {"type": "build", "district": "tavern#1"})
    assert e.value.code == "no_builds_left"


def test_any_order_builds_before_the_action_still_one_build_one_action():
    st = scenario(
        4,
        picks={0: ["king"], 1: ["merchant"], 2: ["bishop"], 3: ["warlord"]},
        hands={0: ["temple", "tavern"]},
        gold={0: 1},
    )
    act(st, 0, {"type": "build", "district": "temple#1"})  # the seed: actions in any order
    assert st.gold[0] == 0 and len(st.cities[0]) == 1
    with pytest.raises(IllegalAction) as e:
        act(st, 0, {"type": "build", "district": "tavern#1"})
    assert e.value.code == "no_builds_left"
    with pytest.raises(IllegalAction) as e:  # the action is still due before ending the turn
        act(st, 0, {"type": "end_turn"})
    assert e.value.code == "income_first"
    act(st, 0, {"type": "collect"})
    act(st, 0, {"type": "income", "take": "gold"})
    assert not [a for a in legal(st, 0) if a["type"] in ("income", "collect", "build")]
    with pytest.raises(IllegalAction) as e:
        act(st, 0, {"type": "income", "take": "gold"})
    assert e.value.code == "income_taken"
    act(st, 0, {"type": "end_turn"})


def test_any_order_architect_builds_three_whenever_and_draws_after_the_action():
    st = scenario(
        4, picks={0: ["architect"]}, hands={0: ["temple", "tavern", "manor", "market"]}, gold={0: 9}
    )
    act(st, 0, {"type": "build", "district": "temple#1"})
    act(st, 0, {"type": "build", "district": "tavern#1"})
    assert len(st.hands[0]) == 2
    act(st, 0, {"type": "income", "take": "gold"})
    assert len(st.hands[0]) == 4  # the two Architect cards come after the action, as before
    act(st, 0, {"type": "build", "district": "manor#1"})
    assert not [a for a in legal(st, 0) if a["type"] == "build"]


# ---------------------------------------------------------------- Warlord


def test_warlord_destroy_cost_targets_and_completed_city():
    cities = {
        0: ["temple"],
        1: ["keep", "castle", "watchtower"],
        2: ["manor", "castle#2", "palace", "temple#2", "church", "monastery", "tavern", "market"],
    }
    st = scenario(4, picks={0: ["warlord"]}, cities=cities, gold={0: 1})
    act(st, 0, {"type": "income", "take": "gold"})  # 3 gold
    targets = {a["district"] for a in legal(st, 0) if a["type"] == "destroy"}
    # own district allowed; Keep never; completed city (8 districts) never; castle costs 3 -> ok
    assert targets == {"temple#1", "castle#1", "watchtower#1"}
    act(st, 0, {"type": "destroy", "district": "castle#1"})
    assert st.gold[0] == 0 and card("castle") == st.deck[0]
    assert ids(st.cities[1]) == ["keep#1", "watchtower#1"]
    assert not [a for a in legal(st, 0) if a["type"] == "destroy"]  # once per turn


# ---------------------------------------------------------------- Witch


def test_witch_bewitches_and_finishes_the_victims_turn():
    opts = {"rank1": "witch"}
    st = scenario(
        4,
        opts,
        picks={0: ["witch"], 1: ["king"], 2: ["merchant"], 3: ["warlord"]},
        cities={0: ["tavern", "market"], 2: ["docks"]},
        hands={0: ["temple"], 2: ["church"]},
        crown=3,
    )
    assert {a["type"] for a in legal(st, 0)} == {"income"}
    act(st, 0, {"type": "income", "take": "gold"})
    assert {a["type"] for a in legal(st, 0)} == {"bewitch"}
    out = act(st, 0, {"type": "bewitch", "character": "merchant"})
    assert out.revealed and turn(st) == (1, "king")
    end(st)
    assert turn(st) == (2, "merchant") and st.t_mode == "victim"
    # the victim only takes an action: no build, no collect
    act(st, 2, {"type": "income", "take": "gold"})
    assert [a["type"] for a in legal(st, 2)] == ["end_turn"]
    act(st, 2, {"type": "end_turn"})
    assert turn(st) == (0, "merchant") and st.t_mode == "witch"
    assert st.gold[0] == 2 + 1  # merchant's +1 goes to the witch
    act(st, 0, {"type": "build", "district": "temple#1"})
    act(st, 0, {"type": "collect"})
    assert st.gold[0] == 3 - 1 + 2  # her own green districts
    assert st.gold[2] == 2


def test_bewitched_king_still_takes_the_crown():
    st = scenario(
        4, {"rank1": "witch"}, picks={0: ["witch"], 1: ["king"], 2: ["merchant"], 3: ["warlord"]}, crown=3
    )
    act(st, 0, {"type": "income", "take": "gold"})
    act(st, 0, {"type": "bewitch", "character": "king"})
    assert st.t_char == "king" and st.t_seat == 1 and st.crown == 1
    act(st, 1, {"type": "income", "take": "gold"})
    act(st, 1, {"type": "end_turn"})
    assert st.t_seat == 0 and st.t_char == "king" and st.crown == 1
    targets = {a["character"] for a in legal(st, 0) if a["type"] == "bewitch"}
    assert not targets


def test_thief_cannot_rob_the_bewitched_character():
    st = scenario(4, {"rank1": "witch"}, picks={0: ["witch"], 1: ["thief"], 2: ["merchant"], 3: ["warlord"]})
    act(st, 0, {"type": "income", "take": "gold"})
    act(st, 0, {"type": "bewitch", "character": "merchant"})
    robbable = {a["character"] for a in legal(st, 1) if a["type"] == "rob"}
    assert "merchant" not in robbable and "witch" not in robbable and "warlord" in robbable


# ---------------------------------------------------------------- Tax Collector


def test_tax_collector_takes_one_gold_from_each_builder():
    st = scenario(
        4,
        {"rank2": "tax_collector"},
        picks={0: ["assassin"], 1: ["tax_collector"], 2: ["merchant"], 3: ["warlord"]},
        hands={2: ["tavern"], 3: ["temple"], 0: ["watchtower"]},
        gold={2: 3, 3: 1, 0: 1},
    )
    act(st, 0, {"type": "income", "take": "gold"})
    act(st, 0, {"type": "build", "district": "watchtower#1"})
    act(st, 0, {"type": "end_turn"})
    # the Assassin built before the Tax Collector was revealed: he pays when she is revealed
    assert turn(st) == (1, "tax_collector")
    assert st.gold[0] == 1 + 2 - 1 - 1 and st.gold[1] == 1
    end(st)
    act(st, 2, {"type": "income", "take": "gold"})
    act(st, 2, {"type": "build", "district": "tavern#1"})
    act(st, 2, {"type": "end_turn"})
    assert st.gold[2] == 3 + 2 + 1 - 1 + 1 - 1 and st.gold[1] == 1 + 2 + 1
    act(st, 3, {"type": "income", "take": "gold"})
    act(st, 3, {"type": "end_turn"})  # did not build: no tax
    assert st.gold[1] == 4


# ---------------------------------------------------------------- Wizard


def test_wizard_looks_and_takes_a_card_into_hand():
    st = scenario(
        4,
        {"rank3": "wizard"},
        picks={0: ["wizard"], 1: ["king"], 2: ["merchant"], 3: ["warlord"]},
        hands={1: ["palace", "manor"]},
        gold={0: 0},
    )
    out = act(st, 0, {"type": "wizard_look", "seat": 1})
    assert out.revealed
    from engines.citadels import GAME

    v = GAME.view(st, 0)
    assert {c["id"] for c in v["pending"]["cards"]} == {"palace#1", "manor#1"}
    assert GAME.view(st, 2)["pending"]["cards"] is None
    # cannot afford to build: only "keep" choices
    assert all(not a["build"] for a in legal(st, 0))
    act(st, 0, {"type": "wizard_take", "card": "palace#1", "build": False})
    assert ids(st.hands[0]) == ["palace#1"] and ids(st.hands[1]) == ["manor#1"]


def test_wizard_builds_the_taken_card_at_once_even_a_duplicate():
    st = scenario(
        4,
        {"rank3": "wizard"},
        picks={0: ["wizard"], 1: ["king"], 2: ["merchant"], 3: ["warlord"]},
        hands={1: ["manor#2"], 0: ["temple#2"]},
        cities={0: ["manor", "temple"]},
        gold={0: 4},
    )
    act(st, 0, {"type": "wizard_look", "seat": 1})
    act(st, 0, {"type": "wizard_take", "card": "manor#2", "build": True})
    assert ids(st.cities[0]) == ["manor#1", "manor#2", "temple#1"] and st.gold[0] == 1
    act(st, 0, {"type": "income", "take": "gold"})
    # the extra build did not use the normal build, and duplicates are allowed this turn
    act(st, 0, {"type": "build", "district": "temple#2"})
    assert len(st.cities[0]) == 4


# ---------------------------------------------------------------- Emperor


def test_emperor_must_give_crown_and_receives_gold_or_card():
    st = scenario(
        4,
        {"rank4": "emperor"},
        picks={0: ["emperor"], 1: ["thief"], 2: ["merchant"], 3: ["warlord"]},
        hands={2: ["manor"]},
        gold={2: 3},
        crown=1,
        seed=3,
    )
    # emperor is rank 4, thief (rank 2) is called first
    end(st)
    assert turn(st) == (0, "emperor")
    act(st, 0, {"type": "income", "take": "gold"})
    assert {"type": "end_turn"} not in legal(st, 0)
    crown_targets = {a["seat"] for a in legal(st, 0) if a["type"] == "give_crown"}
    assert crown_targets == {2, 3}  # not himself, not the current holder
    act(st, 0, {"type": "give_crown", "seat": 2})
    assert st.crown == 2
    assert {a["pay"] for a in legal(st, 2)} == {"gold", "card"}
    act(st, 2, {"type": "tribute", "pay": "card", "card": "manor#1"})
    assert ids(st.hands[0]) == ["manor#1"] and st.hands[2] == []
    assert {"type": "end_turn"} in legal(st, 0)


def test_emperor_tribute_in_gold_when_the_receiver_has_no_cards():
    st = scenario(
        4,
        {"rank4": "emperor"},
        picks={0: ["emperor"], 1: ["merchant"], 2: ["bishop"], 3: ["warlord"]},
        gold={3: 2},
        crown=1,
    )
    act(st, 0, {"type": "give_crown", "seat": 3})
    assert st.gold[3] == 1 and st.gold[0] == 1 and st.pending is None


# ---------------------------------------------------------------- Abbot


def test_abbot_takes_one_gold_from_the_richest_player():
    st = scenario(
        4,
        {"rank5": "abbot"},
        picks={0: ["abbot"], 2: ["merchant"], 3: ["warlord"]},
        gold={0: 1, 1: 6, 2: 6, 3: 2},
        cities={0: ["temple"]},
    )
    assert {a["seat"] for a in legal(st, 0) if a["type"] == "abbot_take"} == {1, 2}
    act(st, 0, {"type": "abbot_take", "seat": 2})
    assert st.gold[2] == 5 and st.gold[0] == 2
    act(st, 0, {"type": "collect"})
    assert st.gold[0] == 3


# ---------------------------------------------------------------- Alchemist


def test_alchemist_gets_back_gold_spent_on_building():
    st = scenario(
        4,
        {"rank6": "alchemist"},
        picks={0: ["alchemist"], 3: ["warlord"]},
        hands={0: ["palace"]},
        gold={0: 3},
    )
    act(st, 0, {"type": "income", "take": "gold"})
    act(st, 0, {"type": "build", "district": "palace#1"})
    assert st.gold[0] == 0
    act(st, 0, {"type": "end_turn"})
    assert st.gold[0] == 5


# ---------------------------------------------------------------- Navigator


def test_navigator_takes_four_more_and_cannot_build():
    st = scenario(
        4,
        {"rank7": "navigator"},
        picks={0: ["navigator"], 3: ["warlord"]},
        hands={0: ["temple"]},
        gold={0: 5},
    )
    act(st, 0, {"type": "income", "take": "gold"})
    assert not [a for a in legal(st, 0) if a["type"] == "build"]
    act(st, 0, {"type": "navigate", "take": "cards"})
    assert len(st.hands[0]) == 5
    assert not [a for a in legal(st, 0) if a["type"] == "navigate"]


# ---------------------------------------------------------------- Diplomat


def test_diplomat_exchanges_paying_the_difference():
    cities = {0: ["temple"], 1: ["palace", "keep"], 2: ["castle"]}
    st = scenario(
        4,
        {"rank8": "diplomat"},
        picks={0: ["diplomat"], 1: ["king"], 2: ["bishop"], 3: ["merchant"]},
        cities=cities,
        gold={0: 2},
    )
    assert turn(st)[1] == "king"
    end(st)
    end(st)  # bishop
    end(st)  # merchant
    assert turn(st) == (0, "diplomat")
    act(st, 0, {"type": "income", "take": "gold"})  # 4 gold
    pairs = {(a["give"], a["take"]) for a in legal(st, 0) if a["type"] == "exchange"}
    assert ("temple#1", "palace#1") in pairs  # cost 5 - 1 = 4 <= 4
    assert not any(t == "keep#1" for _, t in pairs)  # never the Keep
    assert not any(t == "castle#1" for _, t in pairs)  # the Bishop's city
    act(st, 0, {"type": "exchange", "give": "temple#1", "take": "palace#1"})
    assert ids(st.cities[0]) == ["palace#1"] and ids(st.cities[1]) == ["keep#1", "temple#1"]
    assert st.gold[0] == 0 and st.gold[1] == 2 + 1 + 4  # income, palace collected, price


# ---------------------------------------------------------------- Artist


def test_artist_beautifies_up_to_two_districts():
    st = scenario(
        4,
        {"rank9": "artist"},
        picks={0: ["artist"], 1: ["king"], 2: ["bishop"], 3: ["warlord"]},
        cities={0: ["temple", "manor", "castle"]},
        gold={0: 3},
        crown=0,
    )
    end(st)
    end(st)
    end(st)
    assert turn(st) == (0, "artist")
    act(st, 0, {"type": "beautify", "district": "temple#1"})
    assert {"type": "beautify", "district": "temple#1"} not in legal(st, 0)
    act(st, 0, {"type": "beautify", "district": "manor#1"})
    assert not [a for a in legal(st, 0) if a["type"] == "beautify"]
    assert st.gold[0] == 1
    from engines.citadels import GAME

    assert GAME.view(st, None)["players"][0]["score"] == 1 + 3 + 4 + 2
    assert price(st, 0, "temple") == 1


# ---------------------------------------------------------------- Queen


def test_queen_gets_three_gold_next_to_the_king():
    picks = {0: ["assassin"], 1: ["king"], 2: ["queen"], 3: ["bishop"], 4: ["merchant"]}
    st = scenario(5, {"rank9": "queen"}, picks=picks)
    end(st)
    end(st)
    end(st)
    end(st)
    assert turn(st) == (2, "queen") and st.gold[2] == 3
    picks = {0: ["assassin"], 1: ["king"], 3: ["queen"], 2: ["bishop"], 4: ["merchant"]}
    st = scenario(5, {"rank9": "queen"}, picks=picks)
    for _ in range(4):
        end(st)
    assert turn(st) == (3, "queen") and st.gold[3] == 0


def test_queen_needs_five_players():
    from engines.citadels import GAME
    from engines.core import BadOptions

    with pytest.raises(BadOptions):
        GAME.new_state(4, GAME.parse_options({"rank9": "queen"}), 1, None)


# ---------------------------------------------------------------- more edge cases


def test_murdered_character_is_skipped_silently_whether_or_not_anyone_holds_it():
    from engines.citadels import GAME

    def events_after_murder(picks):
        st = scenario(4, picks=picks)
        act(st, 0, {"type": "murder", "character": "magician"})
        act(st, 0, {"type": "income", "take": "gold"})
        out = act(st, 0, {"type": "end_turn"})
        calls = [e.to_json() for e in out.events if e.data.get("character") == "magician"]
        return calls, GAME.view(st, None)

    held, v1 = events_after_murder({0: ["assassin"], 1: ["magician"], 2: ["king"]})
    free, v2 = events_after_murder({0: ["assassin"], 3: ["merchant"], 2: ["king"]})
    assert held == free == [{"kind": "call_murdered", "seat": None, "data": {"character": "magician"}}]
    assert v1["revealed"] == v2["revealed"] and "magician" not in v1["revealed"]


def test_witch_does_not_resume_when_nobody_holds_the_bewitched_character():
    st = scenario(4, {"rank1": "witch"}, picks={0: ["witch"], 1: ["king"], 3: ["warlord"]})
    act(st, 0, {"type": "income", "take": "gold"})
    act(st, 0, {"type": "bewitch", "character": "merchant"})
    end(st)  # king
    assert turn(st) == (3, "warlord")


def test_bewitched_bishop_protects_the_witch_city():
    st = scenario(
        4,
        {"rank1": "witch"},
        picks={0: ["witch"], 1: ["bishop"], 3: ["warlord"]},
        cities={0: ["manor"], 1: ["temple"]},
        gold={3: 9},
    )
    act(st, 0, {"type": "income", "take": "gold"})
    act(st, 0, {"type": "bewitch", "character": "bishop"})
    end(st)  # the bishop's player: action only
    assert turn(st) == (0, "bishop")
    end(st)
    assert turn(st) == (3, "warlord")
    act(st, 3, {"type": "income", "take": "gold"})
    targets = {a["district"] for a in legal(st, 3) if a["type"] == "destroy"}
    assert targets == {"temple#1"}


def test_murdered_tax_collector_collects_nothing():
    st = scenario(
        4,
        {"rank2": "tax_collector"},
        picks={0: ["assassin"], 1: ["tax_collector"], 2: ["merchant"]},
        hands={2: ["tavern"]},
        gold={2: 3},
    )
    act(st, 0, {"type": "murder", "character": "tax_collector"})
    end(st)
    act(st, 2, {"type": "income", "take": "gold"})
    act(st, 2, {"type": "build", "district": "tavern#1"})
    act(st, 2, {"type": "end_turn"})
    assert st.gold[1] == 0 and st.gold[2] == 3 + 2 + 1 - 1 + 1


def test_queen_next_to_the_emperors_crown_receiver():
    opts = {"rank4": "emperor", "rank9": "queen"}
    st = scenario(5, opts, picks={0: ["emperor"], 3: ["queen"]}, crown=0)
    act(st, 0, {"type": "give_crown", "seat": 4})
    end(st)
    assert turn(st) == (3, "queen") and st.gold[3] == 3


def test_murdered_emperor_leaves_the_crown_where_it_is():
    st = scenario(4, {"rank4": "emperor"}, picks={0: ["assassin"], 1: ["emperor"], 2: ["warlord"]}, crown=2)
    act(st, 0, {"type": "murder", "character": "emperor"})
    end(st)
    assert turn(st) == (2, "warlord")
    end(st)
    assert st.crown == 2 and st.round == 2


def test_diplomat_refuses_swaps_that_make_duplicates():
    st = scenario(
        4,
        {"rank8": "diplomat"},
        picks={0: ["diplomat"]},
        cities={0: ["temple", "manor"], 1: ["manor#2", "castle"]},
        gold={0: 9},
    )
    act(st, 0, {"type": "income", "take": "gold"})
    pairs = {(a["give"], a["take"]) for a in legal(st, 0) if a["type"] == "exchange"}
    assert ("temple#1", "manor#2") not in pairs  # I would hold two Manors
    assert ("manor#1", "castle#1") not in pairs  # they would hold two Manors
    assert ("manor#1", "manor#2") in pairs and ("temple#1", "castle#1") in pairs


def test_any_order_warlord_destroys_then_still_acts_and_builds():
    st = scenario(
        4, picks={0: ["warlord"]}, cities={1: ["temple", "church"]}, hands={0: ["tavern"]}, gold={0: 3}
    )
    act(st, 0, {"type": "destroy", "district": "temple#1"})
    assert not [a for a in legal(st, 0) if a["type"] == "destroy"]  # once a turn
    act(st, 0, {"type": "income", "take": "gold"})
    act(st, 0, {"type": "build", "district": "tavern#1"})
    assert st.cities[1] == [card("church")] and len(st.cities[0]) == 1


def test_classic_warlord_destroys_at_the_end_of_his_turn_after_building():
    st = scenario(
        4, {"turn_order": "classic"}, picks={0: ["warlord"]}, cities={1: ["temple"]}, hands={0: ["tavern", "manor"]},
        gold={0: 5},
    )
    assert not [a for a in legal(st, 0) if a["type"] == "destroy"]
    act(st, 0, {"type": "income", "take": "gold"})
    assert {"type": "build", "district": "tavern#1"} in legal(st, 0)
    act(st, 0, {"type": "destroy", "district": "temple#1"})
    assert not [a for a in legal(st, 0) if a["type"] == "build"]
    assert {"type": "end_turn"} in legal(st, 0)
