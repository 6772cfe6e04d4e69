"""Lost Cities controls: a turn is two taps (a play/discard button, then a draw button) and the
story names the card taken from a discard pile."""

from __future__ import annotations

import random

from bot.games.lost_cities import LostCitiesUI
from engines.lost_cities import GAME

ui = LostCitiesUI()


def _played(seed: int, turns: int):
    s = GAME.new_state(2, GAME.parse_options({}), seed, None)
    rng = random.Random(seed)
    for _ in range(turns):
        seat = GAME.to_move(s)[0]
        legal = GAME.legal(s, seat)
        GAME.step(s, seat, legal[int(rng.random() * len(legal))])
    return s


def _legal_json(s, seat):
    return [GAME.encode(c) for c in GAME.legal(s, seat)]


def test_every_play_and_discard_is_one_tap_and_the_draw_another():
    for seed in range(6):
        s = _played(seed, 2 * seed)  # play phase
        seat = GAME.to_move(s)[0]
        view, legal = GAME.view(s, seat), _legal_json(s, seat)
        assert view["phase"] == "play"
        first = ui.controls(view, legal, "es")
        assert not first.select  # no "which card?" menu: a button acts at once
        def kind(a):  # wagers of one colour are alike: "w"
            colour, _, value = a["card"].rpartition("-")
            return (a["type"], colour, "w" if value.startswith("w") else value)

        # every distinct card can be played (when allowed) or discarded from here, in one tap
        assert {kind(ui.action(b.token)) for b in first.buttons} == {kind(a) for a in legal}
        assert len(first.buttons) <= 20
        labels = [b.label for b in first.buttons]
        assert len(set(labels)) == len(labels) and all(len(label) <= 80 for label in labels)
        # tap 1
        GAME.step(s, seat, GAME.code_of(ui.action(first.buttons[-1].token)))
        view, legal = GAME.view(s, seat), _legal_json(s, seat)
        second = ui.controls(view, legal, "es")
        assert view["phase"] == "draw" and not second.select
        assert {ui.action(b.token)["from"] for b in second.buttons} == {a["from"] for a in legal}
        # tap 2 ends the turn
        GAME.step(s, seat, GAME.code_of(ui.action(second.buttons[0].token)))
        assert GAME.to_move(s) != [seat] or GAME.view(s, seat)["phase"] == "play"


def test_the_story_names_the_card_taken_from_a_discard_pile():
    s = GAME.new_state(2, GAME.parse_options({}), 3, None)
    seat = GAME.to_move(s)[0]
    card = GAME.view(s, seat)["hand"][0]
    GAME.step(s, seat, GAME.code_of({"type": "discard", "card": card}))
    other = GAME.to_move(s)[0]
    GAME.step(s, other, GAME.code_of({"type": "draw", "from": "deck"}))
    # the next player takes the card discarded before
    nxt = GAME.to_move(s)[0]
    hand = GAME.view(s, nxt)["hand"]
    GAME.step(s, nxt, GAME.code_of({"type": "discard", "card": next(c for c in hand if not c.startswith(card.split("-")[0]))}))
    action = {"type": "draw", "from": card.split("-")[0]}
    out = GAME.step(s, nxt, GAME.code_of(action))
    from render.lost_cities import card_name

    en = ui.describe(action, "Ana", "en", events=out.events)
    es = ui.describe(action, "Ana", "es", events=out.events)
    assert card_name(card, "en") in en and card_name(card, "es") in es
    # a draw from the deck never names the card (it is private)
    deck = {"type": "draw", "from": "deck"}
    s2 = GAME.new_state(2, GAME.parse_options({}), 4, None)
    p = GAME.to_move(s2)[0]
    GAME.step(s2, p, GAME.code_of({"type": "discard", "card": GAME.view(s2, p)["hand"][0]}))
    out2 = GAME.step(s2, p, GAME.code_of(deck))
    drawn = next(e for e in out2.events if e.kind == "draw").data["card"]
    assert card_name(drawn, "en") not in ui.describe(deck, "Ana", "en", events=out2.events)
    # without events (an older caller) the pile is still named
    assert "red" in ui.describe({"type": "draw", "from": "red"}, "Ana", "en")


def test_plays_and_discards_never_share_a_button_row():
    """Issue 20: "Play white 8" never sits beside "Discard yellow wager": the plays take rows 0-1,
    the discards rows 2-3, at most 5 a row (Discord's limit)."""
    from collections import Counter

    for seed in range(12):
        s = _played(seed, 2 * seed)
        seat = GAME.to_move(s)[0]
        c = ui.controls(GAME.view(s, seat), _legal_json(s, seat), "en")
        rows = {b.row for b in c.buttons}
        plays = {b.row for b in c.buttons if b.token.startswith("p.")}
        discards = {b.row for b in c.buttons if b.token.startswith("x.")}
        assert plays and discards and not plays & discards
        assert plays <= {0, 1} and discards <= {2, 3} and rows <= set(range(5))
        assert max(Counter(b.row for b in c.buttons).values()) <= 5
