"""Seeded random games: hidden information never leaks into views; determinism; dump/load; replay."""

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from engines.ai import RandomPlayer, play_out
from engines.citadels import GAME
from engines.citadels import cards as C
from engines.core import EngineError
from engines.match import Match

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
CHARS = set(C.CHARACTERS)
CARD_IDS = set(C.CARD_ID)


def options_for(rnd: random.Random, n: int) -> dict:
    o = {"dark_city": rnd.random() < 0.7}
    for k, v in ALT.items():
        if rnd.random() < 0.5:
            o[k] = v
    if n >= 5 and rnd.random() < 0.4:
        o["rank9"] = rnd.choice(["artist", "queen"])
    elif n < 8 and rnd.random() < 0.2:
        o["rank9"] = "artist"
    if rnd.random() < 0.3:
        o["districts_to_end"] = 7
    return o


def strings(obj, skip=("characters",)):
    """Every string (values and keys) in a JSON value, skipping the match's public roster."""
    out = []
    if isinstance(obj, dict):
        for k, v in obj.items():
            out.append(k)
            if k == "characters" and isinstance(v, list):
                continue  # roster of the match (public) - "players[].characters" is checked apart
            out += strings(v, skip)
    elif isinstance(obj, list):
        for v in obj:
            out += strings(v, skip)
    elif isinstance(obj, str):
        out.append(obj)
    return out


def allowed_cards(st, seat):
    ok = {C.CARD_ID[c] for city in st.cities for c in city}
    p = st.pending
    if p and p["kind"] == "graveyard":
        ok.add(C.CARD_ID[p["card"]])
    if seat is None:
        return ok
    ok |= {C.CARD_ID[c] for c in st.hands[seat]}
    if any(C.CARD_KIND[c] == "museum" for c in st.cities[seat]):
        ok |= {C.CARD_ID[c] for c in st.museum}
    if p and p["seat"] == seat:
        if p["kind"] == "keep":
            ok |= {C.CARD_ID[c] for c in p["cards"]}
        elif p["kind"] == "wizard":
            ok |= {C.CARD_ID[c] for c in st.hands[p["target"]]}
        elif p["kind"] == "lighthouse":
            ok |= {C.CARD_ID[c] for c in st.deck}
    return ok


def allowed_chars(st, seat):
    ok = set(st.face_up) | set(st.revealed) | {st.murdered, st.robbed, st.bewitched}
    if st.last_round:
        ok |= set(st.last_round["characters"])
        ok |= {st.last_round["murdered"], st.last_round["robbed"], st.last_round["bewitched"]}
    if st.phase == "over":
        ok |= {c for p in st.picks for c in p}  # the final result shows the last round's characters
    if seat is not None:
        ok |= set(st.picks[seat]) | set(st.discarded[seat])
        for seen in st.seen[seat]:
            ok |= set(seen)
    return ok


def check_views(st):
    for seat in [None, *range(st.n)]:
        v = GAME.view(st, seat)
        json.dumps(v)
        found = strings(v)
        cards = {s for s in found if s in CARD_IDS}
        assert cards <= allowed_cards(st, seat), (seat, cards - allowed_cards(st, seat))
        chars = {s for s in found if s in CHARS}
        assert chars <= allowed_chars(st, seat), (seat, chars - allowed_chars(st, seat))
        for p in v["players"]:
            if p["seat"] != seat and st.phase != "over":
                assert set(p["characters"]) <= set(st.revealed)
        if seat is None:
            assert v["hand"] is None and v["my_characters"] is None
        else:
            assert [c["id"] for c in v["hand"]] == [C.CARD_ID[c] for c in st.hands[seat]]
        if st.phase == "draft" and v["draft"]["drafter"] != seat:
            assert v["draft"]["choices"] is None


@settings(max_examples=20, deadline=None)
@given(seed=hs.integers(0, 2**31 - 1), n=hs.integers(2, 8))
def test_views_hold_no_hidden_information(seed, n):
    rnd = random.Random(seed)
    opts = GAME.parse_options(options_for(rnd, n))
    st = GAME.new_state(n, opts, seed, None)
    steps = 0
    while GAME.to_move(st):
        if steps % 3 == 0:
            check_views(st)
        seat = GAME.to_move(st)[0]
        GAME.step(st, seat, rnd.choice(GAME.legal(st, seat)))
        steps += 1
    check_views(st)


@settings(max_examples=10, deadline=None)
@given(seed=hs.integers(0, 2**31 - 1), n=hs.integers(2, 8), cut=hs.integers(0, 400))
def test_determinism_and_dump_load_mid_game(seed, n, cut):
    opts = GAME.parse_options(options_for(random.Random(seed), n))

    def play(interrupt: bool):
        rnd = random.Random(seed + 1)
        st = GAME.new_state(n, opts, seed, None)
        steps = 0
        while GAME.to_move(st):
            if interrupt and steps == cut:
                data = json.loads(json.dumps(GAME.dump(st)))
                st = GAME.load(data)
                assert GAME.dump(st) == data
                assert GAME.view(st, 0) == GAME.view(GAME.load(data), 0)
            seat = GAME.to_move(st)[0]
            GAME.step(st, seat, rnd.choice(GAME.legal(st, seat)))
            steps += 1
        return GAME.dump(st), GAME.result(st)

    a, ra = play(False)
    b, rb = play(True)
    assert a == b and ra == rb


def test_clone_is_independent():
    st = GAME.new_state(4, GAME.parse_options({"dark_city": True}), 5, None)
    rnd = random.Random(1)
    for _ in range(60):
        seat = GAME.to_move(st)[0]
        GAME.step(st, seat, rnd.choice(GAME.legal(st, seat)))
    before = GAME.dump(st)
    cp = GAME.clone(st)
    assert GAME.dump(cp) == before
    play_out(GAME, cp, [RandomPlayer()] * 4, random.Random(2))
    assert GAME.dump(st) == before


@pytest.mark.parametrize("n", [2, 3, 5, 8])
def test_replay_through_match_log_and_refusals_change_nothing(n):
    rnd = random.Random(n)
    m = Match.create("citadels", [f"p{i}" for i in range(n)], options_for(rnd, n), seed=100 + n)
    refused = 0
    while not m.over:
        seat = m.to_move()[0]
        legal = m.legal(seat)
        # an action from a seat that may not act, and a random build, must be refused without changes
        if rnd.random() < 0.2:
            before = GAME.dump(m.state)
            other = (seat + 1) % n
            for who, raw in ((other, legal[0]), (seat, {"type": "build", "district": rnd.choice(C.CARD_ID)})):
                if who == seat and raw in legal:
                    continue
                with pytest.raises(EngineError):
                    m.apply(who, raw)
                refused += 1
            assert GAME.dump(m.state) == before
        m.apply(seat, rnd.choice(legal))
    assert refused > 0
    log = json.loads(json.dumps(m.to_log()))
    again = Match.from_log(log)
    assert GAME.dump(again.state) == GAME.dump(m.state)
    assert again.result() == m.result()
    assert again.revealed == m.revealed
