"""The character draft for every player count."""

import pytest

from engines.citadels import GAME
from engines.citadels.cards import RANK
from engines.core import BadOptions

FACE_UP = {2: 0, 3: 0, 4: 2, 5: 1, 6: 0, 7: 0, 8: 0}
PER_SEAT = {2: 2, 3: 2, 4: 1, 5: 1, 6: 1, 7: 1, 8: 1}


def run_draft(st, pick_last=False):
    """Draft to the end; each drafter takes the first (or last) choice. Returns (seat, step, choices)."""
    log = []
    while st.phase == "draft":
        seat = GAME.to_move(st)[0]
        v = GAME.view(st, seat)
        legal = GAME.legal(st, seat)
        log.append((seat, v["draft"]["step"], [c[1] for c in legal]))
        assert v["draft"]["choices"] == [c[1] for c in legal] or v["draft"]["step"] == "discard"
        out = GAME.step(st, seat, legal[-1] if pick_last else legal[0])
        assert out.revealed
    return log


@pytest.mark.parametrize("n", range(2, 9))
def test_draft_for_each_player_count(n):
    for seed in range(5):
        st = GAME.new_state(n, GAME.parse_options({}), seed, None)
        roster = st.roster
        assert len(roster) == (9 if n == 8 else 8)
        assert len(st.face_up) == FACE_UP[n]
        assert len(st.face_down) == 1
        assert all(RANK[c] != 4 for c in st.face_up)
        crown = st.crown
        log = run_draft(st)
        # the crown drafts first, then clockwise (seat + 1)
        assert log[0][0] == crown
        if n >= 4:
            assert [s for s, _, _ in log] == [(crown + i) % n for i in range(n)]
        picks = [c for p in st.picks for c in p]
        assert len(picks) == len(set(picks)) == PER_SEAT[n] * n
        assert all(len(p) == PER_SEAT[n] for p in st.picks)
        assert not set(picks) & set(st.face_up)
        assert sorted(picks + st.face_up + st.face_down, key=RANK.get) == sorted(roster, key=RANK.get)
        assert st.phase == "turn"


def test_two_player_draft_pick_discard_sequence():
    st = GAME.new_state(2, GAME.parse_options({}), 7, None)
    a = st.crown
    b = 1 - a
    log = run_draft(st)
    assert [(s, k) for s, k, _ in log] == [
        (a, "pick"),
        (b, "pick"),
        (b, "discard"),
        (a, "pick"),
        (a, "discard"),
        (b, "pick"),
        (b, "discard"),
    ]
    assert [len(c) for _, _, c in log] == [7, 6, 5, 4, 3, 2, 1]
    assert len(st.discarded[a]) == 1 and len(st.discarded[b]) == 2
    assert len(st.face_down) == 4
    # each player sees only its own discards
    assert GAME.view(st, a)["my_discards"] == st.discarded[a]
    assert GAME.view(st, None).get("my_discards") is None


def test_three_players_take_two_characters_each():
    st = GAME.new_state(3, GAME.parse_options({}), 3, None)
    log = run_draft(st)
    c = st.crown
    assert [s for s, _, _ in log] == [c, (c + 1) % 3, (c + 2) % 3] * 2
    assert [len(ch) for _, _, ch in log] == [7, 6, 5, 4, 3, 2]
    assert len(st.face_down) == 2  # one at the start, the last card at the end


@pytest.mark.parametrize("n", [7, 8])
def test_last_drafter_may_take_the_face_down_card(n):
    for pick_last in (False, True):
        st = GAME.new_state(n, GAME.parse_options({}), 11, None)
        hidden = st.face_down[0]
        log = run_draft(st, pick_last=pick_last)
        last_seat, _, choices = log[-1]
        assert len(choices) == 2 and hidden in choices
        assert len(st.face_down) == 1
        assert sorted(st.picks[last_seat] + st.face_down) == sorted(choices)


def test_six_players_last_drafter_chooses_from_two_without_face_down():
    st = GAME.new_state(6, GAME.parse_options({}), 5, None)
    hidden = st.face_down[0]
    log = run_draft(st)
    assert len(log[-1][2]) == 2 and hidden not in log[-1][2]


def test_rank_nine_in_smaller_games_puts_one_more_face_up():
    for n, up in ((4, 3), (5, 2), (6, 1), (7, 0)):
        st = GAME.new_state(n, GAME.parse_options({"rank9": "artist"}), 2, None)
        assert len(st.face_up) == up and "artist" in st.roster


def test_eight_players_need_rank_nine():
    st = GAME.new_state(8, GAME.parse_options({}), 1, None)
    assert st.roster[-1] == "queen"
    st = GAME.new_state(8, GAME.parse_options({"rank9": "artist"}), 1, None)
    assert st.roster[-1] == "artist"
    with pytest.raises(BadOptions):
        GAME.new_state(8, GAME.parse_options({"rank9": "none"}), 1, None)


def test_drafter_view_lists_choices_and_others_see_none():
    st = GAME.new_state(5, GAME.parse_options({}), 4, None)
    drafter = GAME.to_move(st)[0]
    assert GAME.view(st, drafter)["draft"]["choices"] == st.pool
    other = (drafter + 1) % 5
    assert GAME.view(st, other)["draft"]["choices"] is None
    assert GAME.view(st, None)["draft"]["choices"] is None
    GAME.step(st, drafter, GAME.legal(st, drafter)[0])
    v = GAME.view(st, other)
    assert v["draft"]["choices"] == st.pool and v["draft_seen"] == [st.pool]
    assert GAME.view(st, drafter)["my_characters"] == st.picks[drafter]
