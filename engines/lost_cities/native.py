"""Lost Cities random playouts for an optional compiled build: the compact engine's rules
(engines/lost_cities/__init__.py, the reference) on a small typed class, written so that mypyc
can compile it (``./dev compile``). It needs nothing outside the standard library, so it imports
and runs as plain Python too when the build is absent (slower than engines/lost_cities/fast.py
then: the fast path is what pure Python should use). ``COMPILED`` says which one was imported.

The same calls as the fast path: ``step(s, code)`` applies the action of the seat to move
(``s.turn``) and returns the next legal actions (empty once the match is over), ``clone(s)``
copies a state, ``random_playout(s, rnd)`` plays the match to its end with
``acts[int(rnd() * len(acts))]`` at every action. A returned action list belongs to the state:
read it, do not change it or keep it past the next step. States come from the fast path's flat
list and go back to it (``from_fast`` / ``to_fast``); ``new_match(info)`` deals a seeded match
from the round's ``Info`` (engines/lost_cities/__init__.py) as ``GAME.new_state`` deals it.
Legal actions come in the compact engine's order, so the same choices give the same match
(tests/lost_cities/test_native.py checks it step by step against the compact engine, compiled
and as source).

What the state keeps (``S``): each hand as the seat's play-phase actions, its playable cards
then every card as a discard code, each part in hand order (the compact engine's legal list),
with the count of playable cards; the expeditions and discard piles as tuples in one list of 18
(``cells``: expedition ``seat * 6 + colour``, pile ``12 + colour``); the deck as the round's
shared tuple with a count; and instead of the compact engine's masks of playable cards, one int
of 4-bit fields ``tops`` (field ``seat * 6 + colour``: 0 while no number card is on that
expedition, else its highest rank + 1): a card is playable there when its rank (0 for a wager)
is at least the field.
"""

import random
from collections.abc import Callable
from typing import Any, Final

COLOURS: Final = ("yellow", "blue", "white", "green", "red", "purple")
SLOTS: Final = 12
NCARDS: Final = 72
HAND_SIZE: Final = 8
PLAY: Final = 0
DRAW: Final = 1
OVER: Final = 2
DISCARD: Final = 100
DRAW_DECK: Final = 200
DRAW_PILE: Final = 201


def _card_name(c: int) -> str:
    colour = c // SLOTS
    slot = c % SLOTS
    return f"{COLOURS[colour]}-w{slot + 1}" if slot < 3 else f"{COLOURS[colour]}-{slot - 1}"


CARD_IDS: Final[dict[str, int]] = {_card_name(c): c for c in range(NCARDS)}
RANK: Final[list[int]] = [0 if c % SLOTS < 3 else c % SLOTS - 1 for c in range(NCARDS)]
COLOUR: Final[list[int]] = [c // SLOTS for c in range(NCARDS)]
# The draw actions for each mask of drawable (non-empty, not just discarded) piles.
DRAWS: Final[list[list[int]]] = [[DRAW_DECK] + [DRAW_PILE + k for k in range(6) if m >> k & 1] for m in range(64)]
NOPILE: Final[list[int]] = [63 ^ (1 << k) for k in range(6)]
BITS: Final[list[int]] = [n.bit_length() for n in range(128)]
EMPTY: Final[list[int]] = []
COMPILED: Final = not __file__.endswith(".py")  # a compiled module's file is the shared library


class S:
    """One state of a match (see the module's docstring). ``info`` is the round's ``Info``:
    shared by copies, never changed (a new one is made at each round's end)."""

    def __init__(
        self, turn: int, phase: int, dn: int, deck: tuple[int, ...], info: Any, hand0: list[int], hand1: list[int],
        np0: int, np1: int, tops: int, cells: list[tuple[int, ...]], pmask: int, jbit: int, last: int, lastdraw: int,
    ) -> None:
        self.turn = turn  # seat to move; once the match is over, the seat that would have moved next
        self.phase = phase  # PLAY, DRAW or OVER
        self.dn = dn  # cards left in the deck, the top at deck[dn - 1]
        self.deck = deck
        self.info = info
        self.hand0 = hand0
        self.hand1 = hand1
        self.np0 = np0  # how many playable cards lead hand0
        self.np1 = np1
        self.tops = tops
        self.cells = cells
        self.pmask = pmask  # bit k: discard pile k is not empty
        self.jbit = jbit  # 1 << the colour discarded this turn, 0 when none
        self.last = last  # the play or discard code of the last turn, -1 at a round start
        self.lastdraw = lastdraw  # the draw code that ended the last turn


def clone(s: S) -> S:
    return S(s.turn, s.phase, s.dn, s.deck, s.info, s.hand0[:], s.hand1[:], s.np0, s.np1, s.tops, s.cells[:],
             s.pmask, s.jbit, s.last, s.lastdraw)


def legal(s: S) -> list[int]:
    """A new list of the actions of the seat to move, in the compact engine's order."""
    if s.phase == PLAY:
        return (s.hand0 if s.turn == 0 else s.hand1)[:]
    if s.phase == OVER:
        return []
    return DRAWS[s.pmask & ~s.jbit][:]


def step(s: S, code: int, round_end: bool = True) -> list[int]:
    """Apply ``code`` (a legal action) for the seat to move; return the next legal actions (see
    ``fast.step``: the same contract, ``round_end`` included)."""
    seat = s.turn
    hand = s.hand0 if seat == 0 else s.hand1
    np = s.np0 if seat == 0 else s.np1
    if code >= DRAW_DECK:
        if code == DRAW_DECK:
            dn = s.dn - 1
            s.dn = dn
            card = s.deck[dn]
        else:
            dn = -1
            k = code - DRAW_PILE
            pile = s.cells[12 + k]
            card = pile[len(pile) - 1]
            pile = pile[: len(pile) - 1]
            s.cells[12 + k] = pile
            if not pile:
                s.pmask &= NOPILE[k]
        if RANK[card] >= (s.tops >> ((seat * 6 + COLOUR[card]) << 2)) & 15:
            hand.insert(np, card)
            if seat == 0:
                s.np0 = np + 1
            else:
                s.np1 = np + 1
        hand.append(card + DISCARD)
        s.lastdraw = code
        s.jbit = 0
        s.phase = PLAY
        other = 1 - seat
        s.turn = other
        if dn == 0:
            if not round_end:
                return EMPTY
            _end_round(s)
            if s.phase == OVER:
                return EMPTY
            other = s.turn
        return s.hand0 if other == 0 else s.hand1
    if code >= DISCARD:
        card = code - DISCARD
        hand.remove(code)
        k = COLOUR[card]
        if RANK[card] >= (s.tops >> ((seat * 6 + k) << 2)) & 15:
            hand.remove(card)
            if seat == 0:
                s.np0 = np - 1
            else:
                s.np1 = np - 1
        s.cells[12 + k] += (card,)
        b = 1 << k
        pmask = s.pmask | b
        s.pmask = pmask
        s.jbit = b
        s.phase = DRAW
        s.last = code
        return DRAWS[pmask ^ b]
    # play
    hand.remove(code)
    hand.remove(code + DISCARD)
    np -= 1
    k = COLOUR[code]
    s.cells[seat * 6 + k] += (code,)
    r = RANK[code]
    if r:
        sh = (seat * 6 + k) << 2
        s.tops = (s.tops & ~(15 << sh)) | ((r + 1) << sh)
        i = 0
        while i < np:  # the cards of this colour not above it are no longer playable
            c = hand[i]
            if COLOUR[c] == k and RANK[c] <= r:
                del hand[i]
                np -= 1
            else:
                i += 1
    if seat == 0:
        s.np0 = np
    else:
        s.np1 = np
    s.phase = DRAW
    s.last = code
    return DRAWS[s.pmask]


def random_playout(s: S, rnd: Callable[[], float]) -> int:
    """Play the match to its end in place, every action ``acts[int(rnd() * len(acts))]`` of the
    legal ones; returns the number of actions applied."""
    steps = 0
    if s.phase == OVER:
        return 0
    acts = (s.hand0 if s.turn == 0 else s.hand1) if s.phase == PLAY else DRAWS[s.pmask & ~s.jbit]
    while len(acts) > 0:
        acts = step(s, acts[int(rnd() * len(acts))])
        steps += 1
    return steps


def actions(s: S) -> list[int]:
    """The legal actions of the seat to move as the state's own list (read it before the next
    step, do not change it); a round that ended without being scored has none."""
    if s.phase == OVER or s.dn == 0:
        return EMPTY
    if s.phase == PLAY:
        return s.hand0 if s.turn == 0 else s.hand1
    return DRAWS[s.pmask & ~s.jbit]


def give(s: S, seat: int, cards: list[int]) -> None:
    """Make ``cards`` (in hand order) the hand of ``seat``."""
    plays = [c for c in cards if RANK[c] >= (s.tops >> ((seat * 6 + COLOUR[c]) << 2)) & 15]
    hand = plays + [c + DISCARD for c in cards]
    if seat == 0:
        s.hand0 = hand
        s.np0 = len(plays)
    else:
        s.hand1 = hand
        s.np1 = len(plays)


def policy_playout(s: S, rnd: Callable[[], float], eps: float) -> None:
    """The Lost Cities search's playout policy (engines/lost_cities/ai.py) to the end of the round
    being played, the round left unscored as ``step(s, code, False)`` leaves it: the same moves
    and the same calls of ``rnd`` as ``FastLostCitiesSearch.playout`` (tests/ai). With
    probability ``eps`` a move is uniformly random; otherwise the play closest above an
    expedition's top (gap <= 3), else the opening of a well backed colour while more than 12
    cards remain, else the closest play with gap <= 5, else the discard judged least useful;
    the draw takes a pile's top that extends an own expedition by at most 2, else the deck."""
    cells = s.cells
    dn = s.dn
    pmask = s.pmask
    jbit = s.jbit
    tops = s.tops
    drawing = s.phase != PLAY  # the playout may start between a play and its draw
    code = -1
    while dn:
        seat = s.turn
        base = seat * 6
        obase = 6 - base
        hand = s.hand0 if seat == 0 else s.hand1
        np = s.np0 if seat == 0 else s.np1
        if not drawing:
            # -- play or discard: the policy --
            if rnd() < eps:
                code = hand[int(rnd() * len(hand))]
            else:
                code = -1
                best = -1
                best_gap = 99
                for i in range(np):
                    c = hand[i]
                    e = cells[base + COLOUR[c]]
                    if len(e) > 0:
                        gap = RANK[c] - RANK[e[len(e) - 1]]
                        if gap < best_gap:
                            best = c
                            best_gap = gap
                if best >= 0 and best_gap <= 3:
                    code = best
                else:
                    if dn > 12:
                        backing = [0, 0, 0, 0, 0, 0]
                        count = [0, 0, 0, 0, 0, 0]
                        for i in range(np, len(hand)):
                            c = hand[i] - DISCARD
                            col = COLOUR[c]
                            backing[col] += RANK[c]
                            count[col] += 1
                        pick_v = 0
                        for i in range(np):
                            c = hand[i]
                            col = COLOUR[c]
                            if len(cells[base + col]) == 0 and count[col] >= 3 and backing[col] >= 15:
                                v = backing[col] * 10 - RANK[c]
                                if v > pick_v:
                                    code = c
                                    pick_v = v
                    if code < 0:
                        if best >= 0 and best_gap <= 5:
                            code = best
                        else:
                            choice_v = -1e9
                            for i in range(np, len(hand)):
                                c = hand[i] - DISCARD
                                col = COLOUR[c]
                                fv = 0.0
                                if RANK[c] < (tops >> ((base + col) << 2)) & 15:
                                    fv += 10
                                elif len(cells[base + col]) > 0:
                                    fv -= 10
                                if RANK[c] >= (tops >> ((obase + col) << 2)) & 15 and len(cells[obase + col]) > 0:
                                    fv -= 8
                                fv -= RANK[c] * 0.3 + rnd()
                                if fv > choice_v:
                                    code = c
                                    choice_v = fv
                            code += DISCARD
            # -- apply it (step) --
            if code >= DISCARD:
                card = code - DISCARD
                hand.remove(code)
                k = COLOUR[card]
                if RANK[card] >= (tops >> ((base + k) << 2)) & 15:
                    hand.remove(card)
                    np -= 1
                cells[12 + k] += (card,)
                jbit = 1 << k
                pmask |= jbit
            else:
                hand.remove(code)
                hand.remove(code + DISCARD)
                np -= 1
                k = COLOUR[code]
                cells[base + k] += (code,)
                r = RANK[code]
                if r:
                    sh = (base + k) << 2
                    tops = (tops & ~(15 << sh)) | ((r + 1) << sh)
                    i = 0
                    while i < np:
                        c = hand[i]
                        if COLOUR[c] == k and RANK[c] <= r:
                            del hand[i]
                            np -= 1
                        else:
                            i += 1
            s.last = code
        drawing = False
        # -- draw: the policy --
        acts = DRAWS[pmask & ~jbit]
        if rnd() < eps:
            code = acts[int(rnd() * len(acts))]
        else:
            code = DRAW_DECK
            for a in acts:
                if a != DRAW_DECK:
                    k = a - DRAW_PILE
                    pile = cells[12 + k]
                    c = pile[len(pile) - 1]
                    e = cells[base + k]
                    if len(e) > 0 and RANK[c] >= (tops >> ((base + k) << 2)) & 15 and RANK[c] - RANK[e[len(e) - 1]] <= 2:
                        code = a
                        break
        # -- apply it --
        if code == DRAW_DECK:
            dn -= 1
            card = s.deck[dn]
        else:
            k = code - DRAW_PILE
            pile = cells[12 + k]
            card = pile[len(pile) - 1]
            pile = pile[: len(pile) - 1]
            cells[12 + k] = pile
            if len(pile) == 0:
                pmask &= NOPILE[k]
        if RANK[card] >= (tops >> ((base + COLOUR[card]) << 2)) & 15:
            hand.insert(np, card)
            np += 1
        hand.append(card + DISCARD)
        if seat == 0:
            s.np0 = np
        else:
            s.np1 = np
        s.lastdraw = code
        s.turn = 1 - seat
        jbit = 0
    s.phase = PLAY
    s.dn = dn
    s.pmask = pmask
    s.jbit = 0
    s.tops = tops


def expedition_score(cards: tuple[int, ...]) -> int:
    if len(cards) == 0:
        return 0
    wagers = 0
    total = 0
    for c in cards:
        r = RANK[c]
        if r:
            total += r
        else:
            wagers += 1
    return (total - 20) * (1 + wagers) + (20 if len(cards) >= 8 else 0)


def score(s: S, seat: int) -> int:
    """The running score of ``seat`` in the round being played."""
    total = 0
    colours: int = s.info.colours
    for k in range(colours):
        total += expedition_score(s.cells[seat * 6 + k])
    return total


def _deal(info: Any, hands: list[list[int]], starter: int) -> S:
    """The state at the start of a round: ``hands`` as cards in hand order, the deck ``info.deck``."""
    deck: tuple[int, ...] = info.deck
    h0 = hands[0]
    h1 = hands[1]
    empty: tuple[int, ...] = ()
    return S(starter, PLAY, len(deck), deck, info, h0 + [c + DISCARD for c in h0], h1 + [c + DISCARD for c in h1],
             len(h0), len(h1), 0, [empty] * 18, 0, 0, -1, -1)


def _end_round(s: S) -> None:
    """Score the round and deal the next one (or end the match) as the compact engine does."""
    m: Any = s.info.copy()
    m.round_scores += ((score(s, 0), score(s, 1)),)
    s.info = m
    if m.round + 1 >= m.rounds:
        s.phase = OVER
        return
    t0 = 0
    t1 = 0
    for r in m.round_scores:
        t0 += r[0]
        t1 += r[1]
    starter = (0 if t0 > t1 else 1) if t0 != t1 else 1 - m.starters[-1]
    m.round += 1
    if m.setup is not None:
        rnd = m.setup["rounds"][m.round]
        hands = [[CARD_IDS[i] for i in rnd["hands"][0]], [CARD_IDS[i] for i in rnd["hands"][1]]]
        m.deck = tuple([CARD_IDS[i] for i in reversed(rnd["deck"])])
    else:
        cards = shuffled(m.rng, m.colours * SLOTS)
        hands = [cards[:HAND_SIZE], cards[HAND_SIZE : 2 * HAND_SIZE]]
        m.deck = tuple(cards[2 * HAND_SIZE :])
    m.starters += (starter,)
    n = _deal(m, hands, starter)
    _assign(s, n)


def _assign(s: S, n: S) -> None:
    s.turn, s.phase, s.dn, s.deck, s.info = n.turn, n.phase, n.dn, n.deck, n.info
    s.hand0, s.hand1, s.np0, s.np1, s.tops, s.cells = n.hand0, n.hand1, n.np0, n.np1, n.tops, n.cells
    s.pmask, s.jbit, s.last, s.lastdraw = n.pmask, n.jbit, n.last, n.lastdraw


def shuffled(rng: Any, n: int) -> list[int]:
    """``list(range(n))`` shuffled as the match's ``Rng.shuffle`` shuffles it (``random.Random``'s
    Fisher-Yates swaps, each index drawn by rejection from ``getrandbits``), ``rng`` moved on."""
    x = list(range(n))
    r = random.Random(f"partida/{rng.seed}/{rng.n}")
    rng.n += 1
    for i in range(n - 1, 0, -1):
        top = i + 1
        k = BITS[top] if top < 128 else top.bit_length()
        j = r.getrandbits(k)
        while j >= top:
            j = r.getrandbits(k)
        x[i], x[j] = x[j], x[i]
    return x


def new_match(info: Any) -> S:
    """A new seeded match from ``info``, a fresh ``Info(colours, rounds)`` whose ``rng`` is
    ``Rng(seed)``: the deal ``GAME.new_state(2, options, seed, None)`` makes."""
    colours: int = info.colours
    cards = shuffled(info.rng, colours * SLOTS)
    info.deck = tuple(cards[2 * HAND_SIZE :])
    info.starters = (0,)
    return _deal(info, [cards[:HAND_SIZE], cards[HAND_SIZE : 2 * HAND_SIZE]], 0)


# -- the fast path's flat list (engines/lost_cities/fast.py), both ways --------------------------


def from_fast(f: list[Any]) -> S:
    """The state of a fast-path state (its layout: fast.TURN ... fast.LASTDRAW)."""
    tops = 0
    cells: list[tuple[int, ...]] = []
    for i in range(18):
        cells.append(f[13 + i])
    for i in range(12):
        best = 0
        for c in cells[i]:
            if RANK[c] > best:
                best = RANK[c]
        if best:
            tops |= (best + 1) << (i << 2)
    return S(f[0], f[1], f[2], f[3], f[4], list(f[5]), list(f[6]), f[7], f[8], tops, cells, f[31], f[32], f[33],
             f[34])


def to_fast(s: S) -> list[Any]:
    """The fast-path state of a state."""
    colours: int = s.info.colours
    pms = [0, 0]
    hms = [0, 0]
    hands = [s.hand0, s.hand1]
    nps = [s.np0, s.np1]
    for p in range(2):
        for c in range(colours * SLOTS):
            if RANK[c] >= (s.tops >> ((p * 6 + COLOUR[c]) << 2)) & 15:
                pms[p] |= 1 << c
        for d in hands[p][nps[p] :]:
            hms[p] |= 1 << (d - DISCARD)
    f: list[Any] = [s.turn, s.phase, s.dn, s.deck, s.info, s.hand0[:], s.hand1[:], s.np0, s.np1, pms[0], pms[1],
                    hms[0], hms[1]]
    f.extend(s.cells)
    f.extend([s.pmask, s.jbit, s.last, s.lastdraw])
    return f
