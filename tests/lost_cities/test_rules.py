"""Lost Cities rules, each from a fact of the rulebook (see the module docstring of the engine)."""

import pytest

from engines.core import BadAction, BadOptions, BadSetup, IllegalAction
from engines.lost_cities import CARD_IDS, GAME, expedition_score
from engines.match import Match

from .helpers import round_setup, scenario


def ids(*names):
    return [CARD_IDS[n] for n in names]


# -- scoring ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "points"),
    [
        ([], 0),  # an expedition never started costs nothing
        (["red-2"], -18),
        (["red-10"], -10),
        (["red-2", "red-3", "red-4", "red-5", "red-6"], 0),  # 20 exactly pays the cost
        (["red-w1", "red-5"], -30),  # (5 - 20) x 2
        (["red-w1", "red-w2"], -60),  # wagers alone multiply the cost: (0 - 20) x 3
        (["red-w1", "red-w2", "red-w3", "red-10"], -40),  # x4
        (["red-w1", "red-7", "red-8", "red-9", "red-10"], 28),  # (34 - 20) x 2
        (["red-2", "red-3", "red-4", "red-5", "red-6", "red-7", "red-8"], 15),  # 7 cards: no bonus
        (["red-2", "red-3", "red-4", "red-5", "red-6", "red-7", "red-8", "red-9"], 44),  # 8 cards: +20
        # wagers count towards the 8 cards, and the bonus is not multiplied: 0 x 4 + 20
        (["red-w1", "red-w2", "red-w3", "red-2", "red-3", "red-4", "red-5", "red-6"], 20),
        # everything: (54 - 20) x 4 + 20
        (["red-w1", "red-w2", "red-w3"] + [f"red-{v}" for v in range(2, 11)], 156),
    ],
)
def test_expedition_score(cards, points):
    assert expedition_score(ids(*cards)) == points


# -- legal and illegal moves --------------------------------------------------------------------


def test_hands_of_eight_and_deck_of_44():
    m = Match.create("lost-cities", ["a", "b"], seed=3)
    v = m.view(0)
    assert len(v["hand"]) == 8 and v["hand_sizes"] == [8, 8] and v["deck"] == 44
    assert Match.create("lost-cities", ["a", "b"], {"purple": True}, seed=3).view(0)["deck"] == 72 - 16


def test_turn_is_play_then_draw_then_other_player():
    m = scenario(["red-5"], [], ["blue-9"])
    assert m.to_move() == (0,)
    m.apply(0, {"type": "play", "card": "red-5"})
    assert m.view(0)["phase"] == "draw" and m.to_move() == (0,)
    m.apply(0, {"type": "draw", "from": "deck"})
    assert "blue-9" in m.view(0)["hand"]
    assert m.to_move() == (1,) and m.view(1)["phase"] == "play"


def refused(m, seat, action, code):
    before = m.game.dump(m.state)
    with pytest.raises((IllegalAction, BadAction)) as e:
        m.apply(seat, action)
    assert e.value.code == code, e.value.reason
    assert m.game.dump(m.state) == before  # a refused action changes nothing
    return e.value


def test_not_your_turn():
    m = scenario(["red-5"], ["blue-5"])
    refused(m, 1, {"type": "play", "card": "blue-5"}, "not_your_turn")


def test_must_play_before_drawing_and_draw_after_playing():
    m = scenario(["red-5", "red-6"], [])
    refused(m, 0, {"type": "draw", "from": "deck"}, "must_play_first")
    m.apply(0, {"type": "play", "card": "red-5"})
    refused(m, 0, {"type": "play", "card": "red-6"}, "must_draw")
    refused(m, 0, {"type": "discard", "card": "red-6"}, "must_draw")


def test_card_must_be_in_hand():
    m = scenario(["red-5"], ["blue-5"])
    err = refused(m, 0, {"type": "play", "card": "blue-5"}, "not_in_hand")
    assert "blue-5" in err.reason


def test_expedition_strictly_increases():
    m = scenario(["red-5", "red-4"], ["green-2"], [], rounds=1)
    m.apply(0, {"type": "play", "card": "red-5"})
    m.apply(0, {"type": "draw", "from": "deck"})
    m.apply(1, {"type": "discard", "card": "green-2"})
    m.apply(1, {"type": "draw", "from": "deck"})
    err = refused(m, 0, {"type": "play", "card": "red-4"}, "not_higher")
    assert "red-5" in err.reason
    # the same card may still be discarded
    m.apply(0, {"type": "discard", "card": "red-4"})


def test_legal_plays_are_only_higher_cards():
    m = scenario(["red-5", "red-6", "red-2"], [])
    m.apply(0, {"type": "play", "card": "red-5"})
    m.apply(0, {"type": "draw", "from": "deck"})
    m.apply(1, {"type": "discard", "card": m.view(1)["hand"][0]})
    m.apply(1, {"type": "draw", "from": "deck"})
    plays = {a["card"] for a in m.legal(0) if a["type"] == "play"}
    assert "red-6" in plays and "red-2" not in plays


def test_wagers_only_before_numbers_and_several_allowed():
    m = scenario(["red-w1", "red-w2", "red-3", "red-w3"], ["green-2", "green-3"])
    m.apply(0, {"type": "play", "card": "red-w1"})
    m.apply(0, {"type": "draw", "from": "deck"})
    m.apply(1, {"type": "discard", "card": "green-2"})
    m.apply(1, {"type": "draw", "from": "deck"})
    m.apply(0, {"type": "play", "card": "red-w2"})  # a second wager is fine
    m.apply(0, {"type": "draw", "from": "deck"})
    m.apply(1, {"type": "discard", "card": "green-3"})
    m.apply(1, {"type": "draw", "from": "deck"})
    m.apply(0, {"type": "play", "card": "red-3"})
    m.apply(0, {"type": "draw", "from": "deck"})
    m.apply(1, {"type": "discard", "card": m.view(1)["hand"][0]})
    m.apply(1, {"type": "draw", "from": "deck"})
    refused(m, 0, {"type": "play", "card": "red-w3"}, "wager_after_number")
    assert m.view(0)["expedition_scores"][0]["red"] == (3 - 20) * 3


def test_draw_from_pile_but_not_the_card_just_discarded():
    m = scenario(["red-5", "blue-4"], ["green-2", "yellow-3"])
    refused_pile = {"type": "draw", "from": "white"}
    m.apply(0, {"type": "discard", "card": "red-5"})
    refused(m, 0, {"type": "draw", "from": "red"}, "just_discarded")
    refused(m, 0, refused_pile, "pile_empty")
    m.apply(0, {"type": "draw", "from": "deck"})
    m.apply(1, {"type": "discard", "card": "green-2"})
    m.apply(1, {"type": "draw", "from": "red"})  # the other player may take it
    assert "red-5" in m.view(1)["hand"]
    assert m.view(1)["discards"]["red"] == []


def test_unknown_cards_piles_and_types_are_bad_actions():
    m = scenario(["red-5"], [])
    refused(m, 0, {"type": "play", "card": "red-11"}, "unknown_card")
    refused(m, 0, {"type": "play", "card": "purple-5"}, "unknown_card")  # no purple without the option
    refused(m, 0, {"type": "fly"}, "bad_action")
    refused(m, 0, {"type": "play"}, "bad_action")
    refused(m, 0, {"type": "play", "card": "red-5", "extra": 1}, "bad_action")
    m.apply(0, {"type": "play", "card": "red-5"})
    refused(m, 0, {"type": "draw", "from": "sky"}, "unknown_pile")
    refused(m, 0, {"type": "draw", "from": "purple"}, "unknown_pile")


def test_purple_option_adds_a_sixth_expedition():
    m = scenario(["purple-w1", "purple-4"], [], purple=True)
    m.apply(0, {"type": "play", "card": "purple-w1"})
    assert m.view(None)["colours"][-1] == "purple"
    assert m.view(None)["expedition_scores"][0]["purple"] == -40


# -- rounds and the match -----------------------------------------------------------------------


def play_round_by_discarding(m, play_first=None):
    """Both players discard their first card and draw from the deck until the round ends."""
    r = m.view(None)["round"]
    first = True
    while not m.over and m.view(None)["round"] == r:
        seat = m.to_move()[0]
        if first and play_first:
            m.apply(seat, {"type": "play", "card": play_first})
        else:
            m.apply(seat, {"type": "discard", "card": m.view(seat)["hand"][0]})
        first = False
        m.apply(seat, {"type": "draw", "from": "deck"})


def test_round_ends_the_moment_the_last_deck_card_is_drawn():
    m = scenario([], [], rounds=2)
    draws = 0
    while m.view(None)["round"] == 1:
        seat = m.to_move()[0]
        m.apply(seat, {"type": "discard", "card": m.view(seat)["hand"][0]})
        m.apply(seat, {"type": "draw", "from": "deck"})
        draws += 1
    assert draws == 44
    assert m.view(None)["round_scores"] == [[0, 0]]
    assert m.view(None)["deck"] == 44 and m.view(0)["hand_sizes"] == [8, 8]


def test_leader_starts_next_round():
    # seat 1 opens red with a 2 (-18): seat 0 leads 0 to -18 and starts round 2
    m = scenario([], ["red-2"], rounds=2)
    m.apply(0, {"type": "discard", "card": m.view(0)["hand"][0]})
    m.apply(0, {"type": "draw", "from": "deck"})
    m.apply(1, {"type": "play", "card": "red-2"})
    m.apply(1, {"type": "draw", "from": "deck"})
    play_round_by_discarding(m)
    assert m.view(None)["round_scores"] == [[0, -18]]
    assert m.view(None)["round"] == 2 and m.to_move() == (0,)


def test_leader_can_be_the_second_player():
    m = scenario(["red-2"], [], rounds=2)
    play_round_by_discarding(m, play_first="red-2")
    assert m.view(None)["round_scores"] == [[-18, 0]]
    assert m.to_move() == (1,)


def test_tied_totals_the_player_who_did_not_start_starts():
    m = scenario([], [], rounds=3)
    play_round_by_discarding(m)
    assert m.to_move() == (1,)  # 0-0 after round 1, seat 0 started it
    play_round_by_discarding(m)
    assert m.to_move() == (0,)  # still tied, seat 1 started round 2


def test_match_of_three_rounds_adds_up_and_ends():
    m = Match.create("lost-cities", ["a", "b"], seed=11)
    import random

    from engines.lost_cities.ai import HeuristicPlayer

    p, rng = HeuristicPlayer(), random.Random(1)
    while not m.over:
        seat = m.to_move()[0]
        m.apply_code(seat, p.choose(m.game, m.state, seat, rng))
    rounds = m.game.round_scores(m.state)
    assert len(rounds) == 3
    res = m.result()
    assert list(res.scores) == [sum(r[0] for r in rounds), sum(r[1] for r in rounds)]
    assert m.to_move() == () and m.legal(0) == [] and m.legal(1) == []
    refused(m, 0, {"type": "draw", "from": "deck"}, "game_over")
    assert res.ranking[0] == ((0,) if res.scores[0] > res.scores[1] else (1,) if res.scores[1] > res.scores[0] else (0, 1))


def test_tie_shares_first_place():
    m = scenario([], [], rounds=1)
    play_round_by_discarding(m)
    res = m.result()
    assert res.scores == (0, 0) and res.ranking == ((0, 1),) and "share" in res.tiebreak


# -- options, setup ------------------------------------------------------------------------------


@pytest.mark.parametrize("options", [{"rounds": 0}, {"rounds": 6}, {"rounds": "many"}, {"colour": "red"}])
def test_bad_options_are_clear_errors(options):
    with pytest.raises(BadOptions) as e:
        Match.create("lost-cities", ["a", "b"], options, seed=1)
    assert e.value.code == "bad_options"


def test_seat_count():
    with pytest.raises(BadOptions) as e:
        Match.create("lost-cities", ["a", "b", "c"], seed=1)
    assert e.value.code == "bad_seat_count"


def test_bad_setups():
    good = round_setup([], [])
    dup = {"hands": [good["hands"][0], good["hands"][0]], "deck": good["deck"]}
    short = {"hands": [good["hands"][0][:7], good["hands"][1]], "deck": good["deck"]}
    for setup in ({"rounds": [dup]}, {"rounds": [short]}, {"rounds": []}, {"hands": 1}, [1]):
        with pytest.raises(BadSetup):
            Match.create("lost-cities", ["a", "b"], {"rounds": 1}, setup=setup)


def _setup_with(change):
    rnd = round_setup([], [])
    change(rnd)
    return {"rounds": [rnd]}


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda r: r["hands"][0].__setitem__(0, ["red-5"]), "not list values"),  # a list where a card goes
        (lambda r: r["deck"].__setitem__(3, {"card": "red-5"}), "not dict values"),
        (lambda r: r["deck"].__setitem__(3, 7), "not int values"),
        (lambda r: r["deck"].__setitem__(3, r["hands"][1][0]), "dealt twice"),  # no card twice
        (lambda r: r["deck"].__setitem__(3, "purple-5"), "no card 'purple-5'"),  # not in a 5-colour match
        (lambda r: r["deck"].pop(), "exactly once; missing"),  # right counts
        (lambda r: r["deck"].append("red-5"), "dealt twice"),
        (lambda r: r.__setitem__("extra", 1), "needs exactly 'hands'"),
        (lambda r: r.pop("deck"), "needs exactly 'hands'"),
        (lambda r: r.__setitem__("hands", [r["hands"][0]]), "'hands' must be two lists"),
        (lambda r: r.__setitem__("hands", {"0": 1, "1": 2}), "'hands' must be two lists"),
        (lambda r: r.__setitem__("deck", "red-5"), "'deck' must be a list"),
    ],
)
def test_setups_are_checked_against_the_cards_of_the_match(change, words):
    with pytest.raises(BadSetup) as e:
        Match.create("lost-cities", ["a", "b"], {"rounds": 1}, setup=_setup_with(change))
    assert words in e.value.reason and "\n" not in e.value.reason


@pytest.mark.parametrize("setup", [{"rounds": [[1, 2]]}, {"rounds": ["x"]}, {"rounds": [None]}, {"rounds": [], "x": 1}])
def test_malformed_setups_are_one_line_refusals(setup):
    with pytest.raises(BadSetup) as e:
        Match.create("lost-cities", ["a", "b"], {"rounds": 1}, setup=setup)
    assert e.value.reason and "\n" not in e.value.reason


def test_a_bad_round_is_refused_even_beyond_the_rounds_played():
    good = round_setup([], [])
    bad = round_setup([], [])
    bad["deck"][0] = [bad["deck"][0]]
    with pytest.raises(BadSetup) as e:
        Match.create("lost-cities", ["a", "b"], {"rounds": 1}, setup={"rounds": [good, bad]})
    assert "setup round 2" in e.value.reason


def test_replay_of_a_log_with_a_bad_setup_exits_2_with_one_line(tmp_path):
    import subprocess
    import sys

    rnd = round_setup([], [])
    rnd["hands"][0][0] = ["red-5"]
    log = {"format": 1, "game": "lost-cities", "seats": ["a", "b"], "options": {"rounds": 1}, "seed": None,
           "setup": {"rounds": [rnd]}, "actions": []}
    path = tmp_path / "log.json"
    import json

    path.write_text(json.dumps(log))
    p = subprocess.run([sys.executable, "-m", "engines", "replay", str(path)], capture_output=True, text=True)
    assert p.returncode == 2 and "Traceback" not in p.stderr
    assert len(p.stderr.strip().splitlines()) == 1 and "setup round 1" in p.stderr


def test_functional_apply_leaves_the_state_alone():
    m = Match.create("lost-cities", ["a", "b"], seed=5)
    before = GAME.dump(m.state)
    action = m.legal(0)[0]
    new, outcome = GAME.apply(m.state, 0, action)
    assert GAME.dump(m.state) == before and GAME.dump(new) != before
    assert outcome.events and outcome.events[0].kind == action["type"]


def test_only_deck_draws_reveal_hidden_information():
    m = scenario(["red-5"], ["blue-3"])
    assert m.apply(0, {"type": "discard", "card": "red-5"}).revealed is False
    out = m.apply(0, {"type": "draw", "from": "deck"})
    assert out.revealed is True and out.events[0].private_to == (0,)
    assert out.events[0].public().data == {}
    m.apply(1, {"type": "play", "card": "blue-3"})
    assert m.apply(1, {"type": "draw", "from": "red"}).revealed is False
