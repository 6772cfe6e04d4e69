"""Lost Cities fast path for search and playouts: the same rules as the compact engine
(engines/lost_cities/__init__.py, which stays the reference and the only engine the bot plays on),
on a state that is one flat Python list, with a step that returns the next legal actions.

Why it is faster (measured in bench/lost_cities_speed.py): one call per action instead of three
(``step`` applies the action for the seat to move and hands back what that seat - or the next -
may do next, so ``to_move`` and ``legal`` are not called again); no Outcome or event is built; a
copy is one list slice plus four short list slices (``clone``); the discard-pile draws that are
possible and the expeditions' bookkeeping are precomputed tables indexed by ints.

The state ``s`` (a list, indices below) holds the same facts as a compact ``State``: hands as
discard codes in hand order, the playable cards of each hand in hand order and as a mask, the
expeditions and discard piles as tuples, the deck as a shared tuple with a count, the round's
``Info`` (shared, never changed). Legal actions come in the compact engine's order, so the same
choices give the same match (tests/lost_cities/test_fast.py checks it step by step against the
compact engine over many seeded random matches).

Use: ``s = from_state(state)`` (or ``new(...)``); ``acts = legal(s)``; ``acts = step(s, code)``
until ``acts`` is empty (the match is over) - ``s[TURN]`` is the seat to move. ``to_state(s)``
gives a compact ``State`` back. A returned action list must not be changed by the caller.
"""

from __future__ import annotations

import random

from ..rng import Rng
from . import (
    _DRAWS,
    _KEEP,
    _W,
    CARD_IDS,
    COLOUR_OF,
    DISCARD,
    HAND_SIZE,
    OVER,
    PLAY,
    RANK,
    SLOTS,
    Info,
    State,
    expedition_score,
)

# -- layout of the state list ---------------------------------------------------------------------
# The step functions below write these indices as literal numbers (a named constant is a global
# lookup per use, which costs as much as the work itself); tests/lost_cities/test_fast.py checks
# that the two agree.
TURN = 0  # seat to move; once the match is over, the seat that would have moved next
PHASE = 1  # PLAY, DRAW or OVER (the compact engine's constants)
DN = 2  # cards left in the deck
DECK = 3  # the round's deck (tuple, top card at DECK[DN - 1]); shared
INFO = 4  # the round's Info (options, past rounds, rng); shared, never changed
HAND = 5  # HAND + seat: the seat's play-phase actions: its playable cards then every card as a
#           discard code, each part in hand order (list) - the compact engine's legal list
NP = 7  # NP + seat: how many playable cards lead HAND + seat
PM = 9  # PM + seat: mask of the cards that seat could play now (in hand or not)
HM = 11  # HM + seat: mask of the cards in the hand
EXP = 13  # EXP + seat * 6 + colour: an expedition (tuple, play order)
PILE = EXP + 2 * _W  # 25; PILE + colour: a discard pile (tuple, top last)
PMASK = PILE + _W  # 31; bit k: discard pile k is not empty
JBIT = PMASK + 1  # 32; 1 << the colour discarded this turn, 0 when none
LAST = JBIT + 1  # 33; the play or discard code of the last turn, -1 at a round start
LASTDRAW = LAST + 1  # 34; the draw code that ended the last turn
SIZE = LASTDRAW + 1

_NCARDS = len(RANK)
# Tables indexed by card: the expedition slot of each seat, the pile slot, the colour bit, the
# card's bit, the cards that become unplayable when the card goes on its expedition (KILL).
EXP_AT = [[EXP + seat * _W + COLOUR_OF[c] for c in range(_NCARDS)] for seat in (0, 1)]
_PILE_AT = [PILE + COLOUR_OF[c] for c in range(_NCARDS)]
CBIT = [1 << COLOUR_OF[c] for c in range(_NCARDS)]
BIT = [1 << c for c in range(_NCARDS)]
KILL = [~k for k in _KEEP]
NOPILE = [~(1 << k) for k in range(_W)]
_NOTHING: tuple[int, ...] = ()
_BITS = [n.bit_length() for n in range(128)]


def new(colours: int, hands: list[list[int]], info: Info, starter: int) -> list:
    """A state at the start of a round: the hands as cards in hand order, the deck ``info.deck``."""
    s = [0] * SIZE
    full = (1 << (colours * SLOTS)) - 1
    s[TURN] = starter
    s[PHASE] = PLAY
    s[DN] = len(info.deck)
    s[DECK] = info.deck
    s[INFO] = info
    for p in (0, 1):
        s[HAND + p] = hands[p] + [c + DISCARD for c in hands[p]]
        s[NP + p] = len(hands[p])
        s[PM + p] = full
        s[HM + p] = sum(BIT[c] for c in hands[p])
    for i in range(EXP, PILE + _W):
        s[i] = _NOTHING
    s[PMASK] = s[JBIT] = 0
    s[LAST] = s[LASTDRAW] = -1
    return s


def from_state(st: State) -> list:
    """The fast state of a compact engine state (the Info is shared; neither changes it)."""
    s = [0] * SIZE
    s[TURN] = st.turn
    s[PHASE] = st.phase
    s[DN] = st.dn
    s[DECK] = st.m.deck
    s[INFO] = st.m
    for p in (0, 1):
        s[HAND + p] = st.plays[p] + st.dh[p]
        s[NP + p] = len(st.plays[p])
        s[PM + p] = st.pm[p]
        s[HM + p] = sum(BIT[d - DISCARD] for d in st.dh[p])
    s[EXP : EXP + 2 * _W] = st.exps
    s[PILE : PILE + _W] = st.piles
    s[PMASK] = st.pmask
    s[JBIT] = st.jbit
    s[LAST] = st.last
    s[LASTDRAW] = st.lastdraw
    return s


def to_state(s: list) -> State:
    """The compact engine state of a fast state."""
    st = State()
    st.m = s[INFO]
    st.dh = [s[HAND + p][s[NP + p] :] for p in (0, 1)]
    st.plays = [s[HAND + p][: s[NP + p]] for p in (0, 1)]
    st.pm = [s[PM], s[PM + 1]]
    st.exps = s[EXP : EXP + 2 * _W]
    st.piles = s[PILE : PILE + _W]
    st.pmask = s[PMASK]
    st.dn = s[DN]
    st.turn = s[TURN]
    st.phase = s[PHASE]
    over = st.phase == OVER
    st.mover = -1 if over else st.turn
    st.movers = () if over else (st.turn,)
    st.jbit = s[JBIT]
    st.last = s[LAST]
    st.lastdraw = s[LASTDRAW]
    return st


def clone(s: list) -> list:
    n = s[:]
    n[5] = s[5][:]  # HAND
    n[6] = s[6][:]
    return n


def legal(s: list) -> list[int] | tuple[int, ...]:
    """A new list of the actions of the seat to move (``s[TURN]``), in the compact engine's
    order; empty once the match is over."""
    phase = s[PHASE]
    if phase == PLAY:
        return s[HAND + s[TURN]][:]
    if phase == OVER:
        return []
    return list(_DRAWS[s[PMASK] & ~s[JBIT]])


def score(s: list, seat: int) -> int:
    """The running score of ``seat`` in the round being played."""
    base = EXP + seat * _W
    return sum(expedition_score(s[base + k]) for k in range(s[INFO].colours))


def step(s: list, code: int, round_end: bool = True) -> list[int] | tuple[int, ...]:
    """Apply ``code`` (a legal action) for the seat to move and return the next legal actions:
    the same seat's draws after a play or discard, the other seat's plays and discards after a
    draw. The returned sequence belongs to the state: read it, do not change it, and do not keep
    it past the next step. When a draw empties the deck the round is scored and, with
    ``round_end``, the next round dealt as the compact engine does (the actions returned are the
    new round's, or none at the end of the match); without ``round_end`` the state stays at the
    end of the round (``s[DN] == 0``, nothing scored yet) and nothing is returned."""
    seat = s[0]
    if code >= 200:  # draw
        if code == 200:
            dn = s[2] = s[2] - 1
            card = s[3][dn]
        else:
            dn = -1
            k = code - 176  # PILE + colour
            pile = s[k]
            card = pile[-1]
            s[k] = pile = pile[:-1]
            if not pile:
                s[31] &= NOPILE[code - 201]
        hand = s[5 + seat]
        if s[9 + seat] >> card & 1:
            np = s[7 + seat]
            hand.insert(np, card)
            s[7 + seat] = np + 1
        hand.append(card + 100)
        s[11 + seat] |= BIT[card]
        s[34] = code
        s[32] = 0
        s[1] = 0
        other = s[0] = 1 - seat
        if dn == 0:
            if not round_end:
                return _NOTHING
            _end_round(s)
            if s[1] == OVER:
                return _NOTHING
            other = s[0]
        return s[5 + other]
    if code >= 100:  # discard
        card = code - 100
        hand = s[5 + seat]
        hand.remove(code)
        s[11 + seat] ^= BIT[card]
        if s[9 + seat] >> card & 1:
            hand.remove(card)
            s[7 + seat] -= 1
        s[_PILE_AT[card]] += (card,)
        b = CBIT[card]
        pmask = s[31] | b
        s[31] = pmask
        s[32] = b
        s[1] = 1
        s[33] = code
        return _DRAWS[pmask ^ b]
    # play
    hand = s[5 + seat]
    hand.remove(code)
    hand.remove(code + 100)
    s[EXP_AT[seat][code]] += (code,)
    hm = s[11 + seat] ^ BIT[code]
    s[11 + seat] = hm
    s[1] = 1
    s[33] = code
    if RANK[code]:
        pm = s[9 + seat]
        if hm & pm & KILL[code]:  # cards in hand become unplayable
            pm &= _KEEP[code]
            np = s[7 + seat] - 1
            plays = [c for c in hand[:np] if pm >> c & 1]
            hand[:np] = plays
            s[7 + seat] = len(plays)
        else:
            s[7 + seat] -= 1
            pm &= _KEEP[code]
        s[9 + seat] = pm
    else:
        s[7 + seat] -= 1
    return _DRAWS[s[31]]


def _end_round(s: list) -> None:
    """Score the round and deal the next one (or end the match), by the compact engine's rules:
    the player ahead starts the next round (on a tie, the one who did not start the round just
    played); the next round's cards come from the match's setup or from its Rng."""
    m = s[INFO].copy()
    m.round_scores += ((score(s, 0), score(s, 1)),)
    s[INFO] = m
    if m.round + 1 >= m.rounds:
        s[PHASE] = OVER
        return
    t0 = sum(r[0] for r in m.round_scores)
    t1 = sum(r[1] for r in m.round_scores)
    starter = (0 if t0 > t1 else 1) if t0 != t1 else 1 - m.starters[-1]
    m.round += 1
    if m.setup is not None:
        rnd = m.setup["rounds"][m.round]
        hands = [[CARD_IDS[i] for i in rnd["hands"][0]], [CARD_IDS[i] for i in rnd["hands"][1]]]
        deck = tuple(CARD_IDS[i] for i in reversed(rnd["deck"]))
    else:
        cards = shuffled(m.rng, m.colours * SLOTS)
        hands = [cards[:HAND_SIZE], cards[HAND_SIZE : 2 * HAND_SIZE]]
        deck = tuple(cards[2 * HAND_SIZE :])
    m.deck = deck
    m.starters += (starter,)
    s[:] = new(m.colours, hands, m, starter)


def shuffled(rng: Rng, n: int) -> list[int]:
    """``list(range(n))`` shuffled as ``rng.shuffle`` shuffles it (and ``rng`` moved on as it
    moves it); see :func:`shuffle`."""
    x = list(range(n))
    shuffle(random.Random(f"partida/{rng.seed}/{rng.n}"), x)
    rng.n += 1
    return x


def shuffle(r: random.Random, x: list) -> None:
    """Shuffle ``x`` in place exactly as ``r.shuffle(x)`` does - the same Fisher-Yates swaps,
    each index drawn by rejection from ``r.getrandbits`` as CPython's ``random.shuffle`` draws
    it - without its two Python-level method calls per card. tests/lost_cities/test_fast.py
    checks it against ``random.Random.shuffle``."""
    getrandbits = r.getrandbits
    bits = _BITS
    for i in range(len(x) - 1, 0, -1):
        top = i + 1
        k = bits[top] if top < 128 else top.bit_length()
        j = getrandbits(k)
        while j >= top:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]


def new_match(colours: int, rounds: int, seed: int) -> list:
    """A fast state of a new seeded match, the one ``GAME.new_state(2, options, seed, None)``
    deals (``colours``: 5, or 6 with purple)."""
    m = Info(colours, rounds)
    m.rng = Rng(seed)
    cards = shuffled(m.rng, colours * SLOTS)
    m.deck = tuple(cards[2 * HAND_SIZE :])
    m.starters = (0,)
    return new(colours, [cards[:HAND_SIZE], cards[HAND_SIZE : 2 * HAND_SIZE]], m, 0)


def random_playout(s: list, rnd) -> int:
    """Play the match to its end in place, every action uniformly random among the legal ones:
    ``acts[int(rnd() * len(acts))]``, exactly as a loop over :func:`step` would (the same ``rnd``
    stream gives the same match), but with the state held in local variables for a whole round.
    Returns the number of actions applied."""
    steps = 0
    while s[1] != OVER:
        steps += _random_round(s, rnd)
    return steps


def _random_round(s: list, rnd) -> int:
    """Random actions to the end of the round being played (then scored and the next dealt).
    The loop plays two turns a pass, the seat to move first (variables ``a*``) then the other
    (``b*``): each seat's hand, masks and counts stay in local variables for the whole round."""
    steps = 0
    if s[1] == 1:  # the round was entered between the two actions of a turn: draw first
        acts = _DRAWS[s[31] & ~s[32]]
        step(s, acts[int(rnd() * len(acts))], False)
        steps = 1
        if not s[2]:
            _end_round(s)
            return steps
    first = s[0]
    ahand, bhand = s[5 + first], s[6 - first]
    anp, bnp = s[7 + first], s[8 - first]
    apm, bpm = s[9 + first], s[10 - first]
    ahm, bhm = s[11 + first], s[12 - first]
    aea, bea = EXP_AT[first], EXP_AT[1 - first]
    dn, deck, pmask = s[2], s[3], s[31]
    draws, keep, kill, bit, cbit, nopile, pile_at, rank = _DRAWS, _KEEP, KILL, BIT, CBIT, NOPILE, _PILE_AT, RANK
    hs = HAND_SIZE  # a hand holds HAND_SIZE cards when its turn starts: NP plays + HAND_SIZE discards
    turns = 0
    while True:
        # -- the seat that moved first: play or discard --
        code = ahand[int(rnd() * (anp + hs))]
        if code >= 100:
            card = code - 100
            ahand.remove(code)
            ahm ^= bit[card]
            if apm >> card & 1:
                ahand.remove(card)
                anp -= 1
            s[pile_at[card]] += (card,)
            b = cbit[card]
            pmask |= b
            acts = draws[pmask ^ b]
        else:
            ahand.remove(code)
            ahand.remove(code + 100)
            s[aea[code]] += (code,)
            ahm ^= bit[code]
            anp -= 1
            if rank[code]:
                if ahm & apm & kill[code]:  # cards in hand become unplayable
                    apm &= keep[code]
                    plays = [c for c in ahand[:anp] if apm >> c & 1]
                    ahand[:anp] = plays
                    anp = len(plays)
                else:
                    apm &= keep[code]
            acts = draws[pmask]
        last = code
        # -- the seat that moved first: draw --
        code = acts[int(rnd() * len(acts))]
        if code == 200:
            dn -= 1
            card = deck[dn]
        else:
            k = code - 176
            pile = s[k]
            card = pile[-1]
            s[k] = pile = pile[:-1]
            if not pile:
                pmask &= nopile[code - 201]
        if apm >> card & 1:
            ahand.insert(anp, card)
            anp += 1
        ahand.append(card + 100)
        ahm |= bit[card]
        turns += 1
        if not dn:
            seat = 1 - first
            break
        # -- the other seat: play or discard --
        code = bhand[int(rnd() * (bnp + hs))]
        if code >= 100:
            card = code - 100
            bhand.remove(code)
            bhm ^= bit[card]
            if bpm >> card & 1:
                bhand.remove(card)
                bnp -= 1
            s[pile_at[card]] += (card,)
            b = cbit[card]
            pmask |= b
            acts = draws[pmask ^ b]
        else:
            bhand.remove(code)
            bhand.remove(code + 100)
            s[bea[code]] += (code,)
            bhm ^= bit[code]
            bnp -= 1
            if rank[code]:
                if bhm & bpm & kill[code]:  # cards in hand become unplayable
                    bpm &= keep[code]
                    plays = [c for c in bhand[:bnp] if bpm >> c & 1]
                    bhand[:bnp] = plays
                    bnp = len(plays)
                else:
                    bpm &= keep[code]
            acts = draws[pmask]
        last = code
        # -- the other seat: draw --
        code = acts[int(rnd() * len(acts))]
        if code == 200:
            dn -= 1
            card = deck[dn]
        else:
            k = code - 176
            pile = s[k]
            card = pile[-1]
            s[k] = pile = pile[:-1]
            if not pile:
                pmask &= nopile[code - 201]
        if bpm >> card & 1:
            bhand.insert(bnp, card)
            bnp += 1
        bhand.append(card + 100)
        bhm |= bit[card]
        turns += 1
        if not dn:
            seat = first
            break
    s[0], s[1], s[2], s[31], s[32], s[33], s[34] = seat, 0, 0, pmask, 0, last, code
    s[7 + first], s[8 - first], s[9 + first], s[10 - first], s[11 + first], s[12 - first] = anp, bnp, apm, bpm, ahm, bhm
    _end_round(s)
    return steps + 2 * turns
