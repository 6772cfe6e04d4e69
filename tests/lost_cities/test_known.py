"""The cards a hand was seen taking from a discard pile: the state remembers them (``State.taken``)
and the view shows them to everyone (``"known"``), until the card leaves the hand or the round ends."""

import json
import random

import pytest

from engines.lost_cities import CARD_IDS, GAME
from engines.match import Match

from .helpers import scenario


def views(m):
    return [m.view(0), m.view(1), m.view(None)]


def known(m):
    """The view's "known", checked to be the same for both seats and the public view."""
    ks = [v["known"] for v in views(m)]
    assert ks[0] == ks[1] == ks[2]
    return ks[0]


def test_a_pile_take_is_remembered_until_the_card_is_played():
    m = scenario(["red-5", "blue-9"], ["red-3", "green-4"], ["white-2", "white-3", "white-4"])
    assert known(m) == [[], []]
    m.apply(0, {"type": "discard", "card": "red-5"})
    m.apply(0, {"type": "draw", "from": "deck"})  # white-2: from the deck, never shown
    assert known(m) == [[], []]
    m.apply(1, {"type": "play", "card": "red-3"})
    m.apply(1, {"type": "draw", "from": "red"})
    assert known(m) == [[], ["red-5"]]
    assert "red-5" in m.view(1)["hand"] and "red-5" not in m.view(0)["discards"]["red"]
    m.apply(0, {"type": "discard", "card": "blue-9"})
    m.apply(0, {"type": "draw", "from": "deck"})
    assert known(m) == [[], ["red-5"]]  # the other seat's turn changes nothing
    m.apply(1, {"type": "play", "card": "red-5"})
    assert known(m) == [[], []]
    assert m.state.taken == [0, 0]


def test_a_taken_card_discarded_again_is_forgotten_and_others_stay():
    m = scenario(["red-5", "blue-9", "white-6"], ["green-4", "yellow-7"], ["white-2", "white-3", "white-4", "white-5"])
    m.apply(0, {"type": "discard", "card": "red-5"})
    m.apply(0, {"type": "draw", "from": "deck"})
    m.apply(1, {"type": "discard", "card": "green-4"})
    m.apply(1, {"type": "draw", "from": "red"})
    m.apply(0, {"type": "discard", "card": "blue-9"})
    m.apply(0, {"type": "draw", "from": "green"})  # seat 0 takes green-4
    m.apply(1, {"type": "discard", "card": "yellow-7"})
    m.apply(1, {"type": "draw", "from": "blue"})  # seat 1 takes blue-9 too
    assert known(m) == [["green-4"], ["blue-9", "red-5"]]  # card order: yellow, blue, white, green, red
    m.apply(0, {"type": "discard", "card": "white-6"})
    m.apply(0, {"type": "draw", "from": "deck"})
    m.apply(1, {"type": "discard", "card": "red-5"})
    assert known(m) == [["green-4"], ["blue-9"]]
    m.apply(1, {"type": "draw", "from": "deck"})
    assert known(m) == [["green-4"], ["blue-9"]]
    m.apply(0, {"type": "discard", "card": "green-4"})
    m.apply(0, {"type": "draw", "from": "red"})  # red-5 again, now into the other hand
    assert known(m) == [["red-5"], ["blue-9"]]
    m.apply(1, {"type": "discard", "card": "blue-9"})
    m.apply(1, {"type": "draw", "from": "green"})  # green-4, which seat 0 held before
    assert known(m) == [["red-5"], ["green-4"]]
    m.apply(0, {"type": "discard", "card": "red-5"})
    m.apply(0, {"type": "draw", "from": "blue"})
    assert known(m) == [["blue-9"], ["green-4"]]
    assert GAME.load(GAME.dump(m.state)).taken == m.state.taken


def _random_match(seed, rounds=2):
    """A match of random moves (they take from the piles often), yielded after every action."""
    m = Match.create("lost-cities", ["a", "b"], {"rounds": rounds}, seed=seed)
    rng = random.Random(seed)
    while not m.over:
        seat = m.to_move()[0]
        legal = GAME.legal(m.state, seat)
        code = legal[int(rng.random() * len(legal))]
        events = m.apply_code(seat, code).events
        yield m, seat, code, events


@pytest.mark.parametrize("seed", [1, 2])
def test_known_follows_the_public_takes_through_plays_discards_and_new_rounds(seed):
    """Worked out from the public events alone: a pile draw adds the card, a play or discard of it
    removes it, a round's end forgets everything; a card drawn from the deck never shows."""
    expect = [set(), set()]
    deck_draws = 0
    most = 0
    rounds_seen = 0
    for m, seat, _code, events in _random_match(seed):
        for e in events:
            if e.kind == "draw" and e.data["from"] != "deck":
                expect[seat].add(e.data["card"])
            elif e.kind == "draw":
                deck_draws += 1
                drawn_from_deck = e.data["card"]
            elif e.kind in ("play", "discard"):
                expect[seat].discard(e.data["card"])
            elif e.kind == "round_end":
                expect = [set(), set()]
                rounds_seen += 1
        if m.over:
            break
        k = known(m)
        assert [set(x) for x in k] == expect
        assert all(x == sorted(x, key=CARD_IDS.__getitem__) for x in k)
        for p in (0, 1):
            assert set(k[p]) <= set(m.view(p)["hand"])
        if events[0].kind == "draw" and events[0].data["from"] == "deck" and rounds_seen == len(m.view(0)["round_scores"]):
            assert drawn_from_deck not in k[seat]
        most = max(most, len(k[0]) + len(k[1]))
    assert rounds_seen == 2 and deck_draws > 40 and most >= 3  # the test saw something to check


def test_a_new_round_forgets_the_takes():
    for m, _seat, _code, events in _random_match(3):
        if any(e.kind == "round_end" for e in events) and not m.over:
            assert known(m) == [[], []] and m.state.taken == [0, 0]
            return
    pytest.fail("no round ended")  # pragma: no cover


def _position_with_takes(seed=4, need=2):
    """A mid-round state of a random match where the hands hold at least ``need`` taken cards."""
    for m, *_ in _random_match(seed, rounds=3):
        if not m.over and sum(len(x) for x in m.view(None)["known"]) >= need:
            return m
    raise AssertionError("no position with takes")  # pragma: no cover


def test_dump_and_load_keep_the_masks_and_an_old_dump_loads_with_none():
    m = _position_with_takes()
    d = GAME.dump(m.state)
    assert d["taken"] == m.view(None)["known"] and d["taken"] != [[], []]
    back = GAME.load(json.loads(json.dumps(d)))
    assert back.taken == m.state.taken and GAME.dump(back) == d
    assert GAME.view(back, 0) == GAME.view(m.state, 0)
    old = dict(d)
    del old["taken"]  # a match stored before the key existed
    s = GAME.load(old)
    assert s.taken == [0, 0] and GAME.view(s, None)["known"] == [[], []]
    assert GAME.dump(s) == {**d, "taken": [[], []]}


def test_clone_copies_the_masks_apart():
    m = _position_with_takes()
    c = GAME.clone(m.state)
    assert c.taken == m.state.taken
    seat = GAME.to_move(c)[0]
    while GAME.to_move(c) and c.taken == m.state.taken:
        seat = GAME.to_move(c)[0]
        GAME.step(c, seat, GAME.legal(c, seat)[0])
    assert c.taken != m.state.taken and GAME.dump(m.state)["taken"] == m.view(None)["known"]


def test_a_replay_of_the_log_gives_the_identical_masks():
    m = _position_with_takes(seed=5, need=3)
    again = Match.from_log(json.loads(json.dumps(m.to_log())))
    assert again.state.taken == m.state.taken != [0, 0]
    assert GAME.dump(again.state) == GAME.dump(m.state)


def test_redeal_keeps_the_known_cards_in_the_hidden_hand():
    m = _position_with_takes(seed=6, need=2)
    s = m.state
    for seat in (0, 1, None):
        for k in range(5):
            other = GAME.redeal(s, seat, random.Random(k))
            assert other.taken == s.taken
            for p in (0, 1):
                assert set(GAME.view(s, None)["known"][p]) <= set(GAME.view(other, p)["hand"])
            if seat is not None:
                assert GAME.view(other, seat) == GAME.view(s, seat)
