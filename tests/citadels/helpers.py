"""Scenario helpers: build a Citadels state in the middle of a round by hand."""

from __future__ import annotations

from engines.citadels import GAME
from engines.citadels import cards as C


def card(cid: str) -> int:
    """Card number of a district id; 'manor' means 'manor#1'."""
    return C.CARD_OF_ID[cid if "#" in cid else cid + "#1"]


def scenario(n=4, options=None, *, picks, hands=None, cities=None, gold=None, crown=0, deck_top=None, seed=1):
    """A state whose draft is over: ``picks`` maps seat -> characters; the first character is called.

    ``hands``/``cities`` map seat -> district ids (taken out of the deck), ``gold`` seat -> gold,
    ``deck_top`` lists ids to put on top of the deck (first = drawn first).
    """
    st = GAME.new_state(n, GAME.parse_options(options or {}), seed, None)
    pool = st.deck + [c for h in st.hands for c in h]
    st.hands = [[] for _ in range(n)]
    st.cities = [[] for _ in range(n)]

    def take(cid):
        c = card(cid)
        pool.remove(c)
        return c

    for s, ids in (hands or {}).items():
        st.hands[s] = [take(i) for i in ids]
    for s, ids in (cities or {}).items():
        st.cities[s] = [take(i) for i in ids]
        for c in st.cities[s]:
            st.built_round[C.CARD_ID[c]] = 0
    top = [take(i) for i in (deck_top or [])]
    st.deck = pool + list(reversed(top))
    st.gold = [0] * n
    for s, g in (gold or {}).items():
        st.gold[s] = g
    st.crown = crown
    st.phase = "turn"
    st.picks = [[] for _ in range(n)]
    st.owner = {}
    for s, chars in picks.items():
        for ch in chars:
            st.picks[s].append(ch)
            st.owner[ch] = s
    st.face_up = []
    st.face_down = [c for c in st.roster if c not in st.owner]
    st.pool = []
    st.call_i = -1
    GAME._call_next(st, [])
    return st


def act(st, seat, action):
    """Check and apply a JSON action; returns the Outcome."""
    code = GAME.code_of(action)
    GAME.check(st, seat, code)
    return GAME.step(st, seat, code)


def legal(st, seat):
    return GAME.legal_json(st, seat)


def turn(st):
    """(seat, character) whose turn it is."""
    return st.t_seat, st.t_char


def end(st, seat=None):
    """End the current turn (taking gold first if no income was taken)."""
    seat = st.t_seat if seat is None else seat
    if not st.t_income:
        act(st, seat, {"type": "income", "take": "gold"})
    return act(st, seat, {"type": "end_turn"})


def ids(cards):
    return sorted(C.CARD_ID[c] for c in cards)


def price(st, owner, cid):
    """The Warlord's price for a district of ``owner``'s city, as the public view states it."""
    cid = cid if "#" in cid else cid + "#1"
    city = GAME.view(st, None)["players"][owner]["city"]
    return next(d["destroy_price"] for d in city if d["id"] == cid)
