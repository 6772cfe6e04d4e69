"""Options, actions at the JSON boundary, income, game end, scoring and tie-break, names."""

import pytest

from engines.citadels import GAME
from engines.citadels import cards as C
from engines.core import BadAction, BadOptions, IllegalAction

from .helpers import act, card, end, ids, legal, scenario

SEVEN = ["manor", "castle", "temple", "church", "tavern", "market", "watchtower"]
SEVEN_B = ["manor#2", "castle#2", "temple#2", "church#2", "tavern#2", "market#2", "prison"]


def test_deck_has_66_base_and_80_with_dark_city():
    assert len(GAME.new_state(4, GAME.parse_options({}), 1, None).deck) == 66 - 16
    st = GAME.new_state(4, GAME.parse_options({"dark_city": True}), 1, None)
    assert len(st.deck) + 16 == 80
    assert len(set(C.CARD_ID)) == 80 and C.CARD_ID[C.CARD_OF_ID["tavern#3"]] == "tavern#3"


@pytest.mark.parametrize(
    "raw",
    [
        {"colour": "red"},
        {"districts_to_end": 9},
        {"districts_to_end": "7"},
        {"rank1": "king"},
        {"dark_city": "yes"},
        {"rank9": "witch"},
    ],
)
def test_bad_options_are_clear_errors(raw):
    with pytest.raises(BadOptions) as e:
        GAME.parse_options(raw)
    assert e.value.code == "bad_options" and e.value.reason


def test_seat_count_checked():
    with pytest.raises(BadOptions):
        GAME.new_state(9, GAME.parse_options({}), 1, None)
    with pytest.raises(BadOptions):
        GAME.new_state(1, GAME.parse_options({}), 1, None)


@pytest.mark.parametrize(
    "raw",
    [
        {"type": "fly"},
        {"type": "build"},
        {"type": "build", "district": "castle#9"},
        {"type": "build", "district": "castle#1", "extra": 1},
        {"type": "draft", "character": "jester"},
        {"type": "income", "take": "both"},
        {"type": "tribute", "pay": "card"},
        {"type": "swap_hands", "seat": "1"},
    ],
)
def test_bad_actions_are_refused(raw):
    with pytest.raises(BadAction):
        GAME.code_of(raw)


def test_every_action_shape_round_trips():
    shapes = [
        {"type": "draft", "character": "king"},
        {"type": "discard_character", "character": "thief"},
        {"type": "income", "take": "gold"},
        {"type": "income", "take": "cards"},
        {"type": "keep", "card": "manor#2"},
        {"type": "build", "district": "tavern#3"},
        {"type": "end_turn"},
        {"type": "thank"},
        {"type": "collect"},
        {"type": "murder", "character": "bishop"},
        {"type": "bewitch", "character": "king"},
        {"type": "rob", "character": "merchant"},
        {"type": "swap_hands", "seat": 2},
        {"type": "magician_discard", "card": "keep#2"},
        {"type": "magician_draw"},
        {"type": "wizard_look", "seat": 1},
        {"type": "wizard_take", "card": "palace#1", "build": True},
        {"type": "give_crown", "seat": 0},
        {"type": "tribute", "pay": "gold"},
        {"type": "tribute", "pay": "card", "card": "temple#1"},
        {"type": "abbot_take", "seat": 3},
        {"type": "navigate", "take": "cards"},
        {"type": "destroy", "district": "temple#2"},
        {"type": "exchange", "give": "temple#1", "take": "palace#3"},
        {"type": "beautify", "district": "manor#5"},
        {"type": "laboratory", "card": "manor#1"},
        {"type": "smithy"},
        {"type": "museum", "card": "church#1"},
        {"type": "armory", "district": "fortress#2"},
        {"type": "graveyard", "take": False},
        {"type": "lighthouse", "card": "ball_room#1"},
        {"type": "bell_tower", "announce": True},
    ]
    for raw in shapes:
        assert GAME.encode(GAME.code_of(raw)) == raw


def test_income_cards_keeps_one_other_goes_to_bottom():
    st = scenario(4, picks={0: ["king"]}, deck_top=["manor", "temple"])
    out = act(st, 0, {"type": "income", "take": "cards"})
    assert out.revealed
    assert GAME.view(st, 0)["pending"]["cards"][0]["id"] in ("manor#1", "temple#1")
    assert GAME.view(st, 1)["pending"]["cards"] is None
    with pytest.raises(IllegalAction):
        act(st, 0, {"type": "end_turn"})
    act(st, 0, {"type": "keep", "card": "temple#1"})
    assert ids(st.hands[0]) == ["temple#1"] and st.deck[0] == card("manor")
    with pytest.raises(IllegalAction) as e:
        act(st, 0, {"type": "income", "take": "gold"})
    assert e.value.code == "income_taken"


def test_not_your_turn_and_refusal_leaves_state_unchanged():
    st = scenario(4, picks={0: ["king"], 1: ["warlord"]}, hands={0: ["palace"]}, gold={0: 1})
    before = GAME.dump(st)
    for seat, raw in (
        (1, {"type": "income", "take": "gold"}),
        (0, {"type": "build", "district": "palace#1"}),
        (0, {"type": "end_turn"}),
        (0, {"type": "murder", "character": "warlord"}),
    ):
        with pytest.raises(IllegalAction):
            act(st, seat, raw)
        assert GAME.dump(st) == before


def play_round_to_end(st):
    while st.phase == "turn":
        end(st)


def test_game_ends_after_the_round_in_which_a_city_is_completed_with_bonuses():
    st = scenario(
        3,
        picks={0: ["king"], 1: ["merchant"], 2: ["warlord"]},
        cities={0: SEVEN, 1: SEVEN_B},
        hands={0: ["palace"], 1: ["harbor"]},
        gold={0: 3, 1: 1},
    )
    act(st, 0, {"type": "income", "take": "gold"})
    act(st, 0, {"type": "build", "district": "palace#1"})
    assert st.complete_order == [0]
    act(st, 0, {"type": "end_turn"})
    assert st.phase == "turn"  # the round goes on
    act(st, 1, {"type": "income", "take": "gold"})
    act(st, 1, {"type": "build", "district": "harbor#1"})
    act(st, 1, {"type": "end_turn"})
    # the warlord may not destroy in completed cities
    assert not [a for a in legal(st, 2) if a["type"] == "destroy"]
    end(st)
    assert st.phase == "over" and GAME.to_move(st) == ()
    r = GAME.result(st)
    d0 = sum(C.CARD_COST[card(x)] for x in SEVEN) + 5
    d1 = sum(C.CARD_COST[card(x)] for x in SEVEN_B) + 4
    assert r.scores[0] == d0 + 4 and r.scores[1] == d1 + 2
    assert r.details["breakdown"][0]["complete"] == 4 and r.details["breakdown"][1]["complete"] == 2
    assert GAME.view(st, None)["result"]["scores"] == list(r.scores)


def test_seven_district_option_ends_earlier():
    st = scenario(
        3,
        {"districts_to_end": 7},
        picks={0: ["king"]},
        cities={0: SEVEN[:6]},
        hands={0: ["palace"]},
        gold={0: 3},
    )
    act(st, 0, {"type": "income", "take": "gold"})
    act(st, 0, {"type": "build", "district": "palace#1"})
    assert st.complete_order == [0]
    act(st, 0, {"type": "end_turn"})
    assert st.phase == "over"


def test_five_colour_bonus():
    st = scenario(3, picks={0: ["king"]}, cities={0: ["manor", "temple", "tavern", "watchtower", "keep"]})
    assert GAME._score_parts(st, 0, 9)["five_colours"] == 3
    st = scenario(3, picks={0: ["king"]}, cities={0: ["manor", "temple", "tavern", "watchtower"]})
    assert GAME._score_parts(st, 0, 9)["five_colours"] == 0


def test_tie_break_highest_rank_of_last_round_then_gold():
    st = scenario(
        3,
        picks={0: ["king"], 1: ["warlord"], 2: ["thief"]},
        cities={0: ["manor"], 1: ["manor#2"], 2: ["temple"]},
    )
    st.phase = "over"
    st.final_round = st.round
    st.gold = [0, 0, 0]
    r = GAME.result(st)
    assert r.scores == (3, 3, 1)
    assert r.ranking == ((1,), (0,), (2,))  # warlord (8) beats king (4)
    st.picks = [["king"], ["king"], ["thief"]]  # same rank (cannot happen, but isolates gold)
    st.gold = [1, 0, 0]
    assert GAME.result(st).ranking[0] == (0,)


def name(kind: str, id: str, lang: str) -> str:
    """A display name, as the game's catalogue words it (catalogs/<lang>/citadels.po)."""
    from catalogs import text

    return text("citadels", f"{kind}.{id.split('#', 1)[0]}", lang)


def test_names_in_every_language():
    assert name("character", "warlord", "es") == "Condotiero"
    assert name("character", "tax_collector", "en") == "Tax Collector"
    assert name("district", "trading_post#2", "es") == "Puesto comercial"
    for ch in C.CHARACTERS:
        for lang in ("en", "es", "pt"):
            assert name("character", ch, lang) != f"character.{ch}"
    for k in C.KINDS:
        for lang in ("en", "es", "pt"):
            assert name("district", k, lang) != f"district.{k}"
    for col in C.COLOURS:
        assert name("colour", col, "es") != f"colour.{col}" and name("colour", col, "pt") != f"colour.{col}"


def test_explicit_setup_deck_and_crown_through_match():
    from engines.match import Match

    deck = sorted(C.CARD_ID[c] for c in C.BASE_CARDS)
    m = Match.create("citadels", ["a", "b", "c"], {}, setup={"deck": deck, "crown": 2, "seed": 4})
    st = m.state
    assert st.crown == 2 and GAME.to_move(st) == (2,)
    assert [C.CARD_ID[c] for c in st.hands[0]] == deck[:4]
    assert [C.CARD_ID[c] for c in st.hands[1]] == deck[4:8]
    assert C.CARD_ID[st.deck[-1]] == deck[12]  # top of the deck
    again = Match.from_log(m.to_log())
    assert GAME.dump(again.state) == GAME.dump(st)
    from engines.core import BadSetup

    with pytest.raises(BadSetup):
        GAME.new_state(3, GAME.parse_options({}), None, {"deck": deck[:-1]})
    with pytest.raises(BadSetup):
        GAME.new_state(3, GAME.parse_options({}), None, {"crown": 5})


def test_revealed_flags():
    st = scenario(4, picks={0: ["king"], 1: ["warlord"]}, hands={0: ["temple"]}, gold={0: 1})
    assert not act(st, 0, {"type": "collect"}).revealed
    assert not act(st, 0, {"type": "income", "take": "gold"}).revealed
    assert not act(st, 0, {"type": "build", "district": "temple#1"}).revealed
    assert act(st, 0, {"type": "end_turn"}).revealed  # the next character is called
    assert act(st, 1, {"type": "income", "take": "cards"}).revealed
