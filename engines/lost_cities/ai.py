"""A heuristic Lost Cities player. It reads only its own seat's view and its legal actions.

Idea, in short: an expedition is worth opening only with enough cards of that colour in hand to
pay the 20-point cost; wagers go down only on strong colours early in the round; a card is played
when the gap to the expedition's top is small (a big jump wastes the cards in between); the card
to discard is the one least useful to us and to the opponent; from the discard piles we take a
card that extends one of our expeditions cheaply, otherwise we draw from the deck.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from ..rng import Rng
from ..search import DEFAULT_SECONDS, ISMCTS, LEVEL_SECONDS, Stats, level_player
from . import (
    _DRAWS,
    _KEEP,
    _W,
    CARD_IDS,
    CARD_NAMES,
    COLOUR_OF,
    COLOURS,
    DISCARD,
    DRAW_DECK,
    DRAW_PILE,
    OVER,
    PLAY,
    RANK,
    SLOTS,
    Info,
    LostCities,
    State,
    _score,
    endgame,
    fast,
    native,
)
from .fast import step as fast_step


def _top(cards: list[str]) -> int:
    """Rank of the top card of an expedition, -1 if empty (0 = only wagers)."""
    return RANK[CARD_IDS[cards[-1]]] if cards else -1


class HeuristicPlayer:
    name = "heuristic"

    def choose(self, game: LostCities, state: Any, seat: int, rng: random.Random) -> int:
        view = game.view(state, seat)
        legal = game.legal(state, seat)
        if view["phase"] == "draw":
            return self._draw(view, legal, seat)
        return self._play(view, legal, seat)

    # Potential of a colour for us: sum of numbers we could still play from hand on it.
    @staticmethod
    def _potential(view: dict, seat: int, colour: str) -> tuple[int, int, int]:
        top = _top(view["expeditions"][seat][colour])
        numbers = [RANK[CARD_IDS[c]] for c in view["hand"] if c.startswith(colour + "-") and RANK[CARD_IDS[c]] > max(top, 0)]
        wagers = sum(1 for c in view["hand"] if c.startswith(colour + "-w"))
        return sum(numbers), len(numbers), wagers

    def _play(self, view: dict, legal: list[int], seat: int) -> int:
        me = view["expeditions"][seat]
        opp = view["expeditions"][1 - seat]
        deck = view["deck"]
        best, best_score = None, -1e9
        for code in legal:
            if code >= DISCARD:
                continue
            colour = COLOURS[COLOUR_OF[code]]
            rank = RANK[code]
            top = _top(me[colour])
            pot, count, wagers = self._potential(view, seat, colour)
            started_sum = sum(RANK[CARD_IDS[c]] for c in me[colour])
            if top == -1 or top == 0:  # opening (or only wagers so far)
                expected = started_sum + pot
                if rank == 0:
                    # a wager: only on a colour that should clearly pay, and early
                    score = (expected - 28) * 2 - (0 if deck > 20 else 40)
                else:
                    need = 20 if top == -1 else 10
                    score = expected - need - rank * 0.3 - (0 if deck > 12 else 25)
            else:
                gap = rank - top - 1
                score = 12 - gap * 3
                # cards between top and rank still in our hand would be wasted
                skipped = sum(1 for c in view["hand"] if c.startswith(colour + "-") and top < RANK[CARD_IDS[c]] < rank)
                score -= skipped * 8
            if score > best_score:
                best, best_score = code, score
        if best is not None and best_score > 0:
            return best
        # discard the least useful card
        best, best_score = None, -1e9
        for code in legal:
            if code < DISCARD:
                continue
            card = code - DISCARD
            colour = COLOURS[COLOUR_OF[card]]
            rank = RANK[card]
            mine = _top(me[colour])
            theirs = _top(opp[colour])
            score = 0.0
            if mine >= 0 and (rank < mine or (rank == 0 and mine > 0)):
                score += 30  # dead for us
            elif mine == -1:
                pot, _, _ = self._potential(view, seat, colour)
                score += 10 if pot < 15 else -5
            else:
                score -= 10
            if theirs >= 0 and (rank > theirs or (rank == 0 and theirs == 0)):
                score -= 15 + (10 - (rank - theirs) if rank > theirs else 0)  # would feed the opponent
            score += (10 - rank) * 0.5 if rank else 2
            if score > best_score:
                best, best_score = code, score
        return best

    def _draw(self, view: dict, legal: list[int], seat: int) -> int:
        me = view["expeditions"][seat]
        best, best_gap = DRAW_DECK, 3
        for code in legal:
            if code == DRAW_DECK:
                continue
            colour = COLOURS[code - DRAW_PILE]
            card = view["discards"][colour][-1]
            rank = RANK[CARD_IDS[card]]
            top = _top(me[colour])
            if top > 0 and rank > top and rank - top - 1 < best_gap:
                best, best_gap = code, rank - top - 1
        return best



# -- search (issue 14) ---------------------------------------------------------------------------
#
# The searching player builds its determinisations from the view only: the cards it cannot see
# (the other hand and the deck) are the match's cards minus its hand, both expeditions and the
# discard piles; each determinisation deals them at random, and gives later rounds a random seed.
# Playouts run to the end of the current round with a fast rule-of-thumb policy coded on the
# compact state; the reward is the chance of winning the match that the totals then suggest.


def _starters(round_scores: list[list[int]], rounds_played: int) -> list[int]:
    """Who started each round so far, worked out from the round scores (the engine's rule)."""
    starters = [0]
    totals = [0, 0]
    for r in round_scores[:rounds_played]:
        totals = [totals[0] + r[0], totals[1] + r[1]]
        starters.append(starters[-1] ^ 1 if totals[0] == totals[1] else (0 if totals[0] > totals[1] else 1))
    return starters


def deal(rng: random.Random, unknown: list[int], n: int, inv: list[float] | None) -> tuple[list[int], list[int]]:
    """A determinisation's ``n`` cards of the other hand and the deck after them, from the
    ``unknown`` cards. Without leanings (``inv`` None): one shuffle, its first ``n`` the hand.
    With them (``inv[i]``: 1 / card i's weight): weighted sampling without replacement - each card
    keyed ``random() ** inv[i]``, the ``n`` highest keys the hand (Efraimidis and Spirakis) - and
    the rest shuffled for the deck, so a card's weight says nothing of where it lies in the deck."""
    if inv is None:
        cards = unknown[:]
        fast.shuffle(rng, cards)
        return cards[:n], cards[n:]
    rand = rng.random
    order = sorted(range(len(unknown)), key=lambda i: rand() ** inv[i], reverse=True)
    rest = [unknown[i] for i in order[n:]]
    fast.shuffle(rng, rest)
    return [unknown[i] for i in order[:n]], rest


class LostCitiesSearch:
    """The game-specific parts of the search (see engines/search.py)."""

    def __init__(self, epsilon: float = 0.1, remember: bool = False, lean: float = 1.0) -> None:
        self.epsilon = epsilon
        # remember: every determinisation deals the other seat the cards everyone saw it take
        # from the discard piles (the view's "known") and samples only the rest of its hand
        self.remember = remember
        # lean: an unseen card that would still extend an expedition the other seat has opened is
        # dealt to its hand ``lean`` times as readily as another (a seat opens a colour it holds
        # cards of); 1 deals every unseen card alike
        self.lean = lean

    def table(self, game: LostCities, view: dict, seat: int) -> tuple[State, list[int], int]:
        """What every determinisation shares: the state the view shows with the other hand empty
        and no deck, the cards the seat cannot see, and how many of them the other hand holds."""
        cols = view["colours"]
        ncol = len(cols)
        opp = 1 - seat
        seen = set(view["hand"])
        for p in (0, 1):
            for col in cols:
                seen.update(view["expeditions"][p][col])
        for col in cols:
            seen.update(view["discards"][col])
        unknown = [CARD_IDS[c] for c in CARD_NAMES[: ncol * SLOTS] if c not in seen]
        n_opp = view["hand_sizes"][opp]
        assert len(unknown) == n_opp + view["deck"], "the view does not add up"
        last = view["last"]
        rounds_played = len(view["round_scores"])
        dump = {
            "colours": ncol,
            "rounds": view["rounds"],
            "round": view["round"] - 1,
            "hands": [[], []],
            "exps": [[view["expeditions"][p][c] for c in cols] for p in (0, 1)],
            "piles": [view["discards"][c] for c in cols],
            "deck_top_last": [],
            "turn": view["to_move"][0],
            "phase": view["phase"],
            "just": cols.index(view["just_discarded"]) if view["just_discarded"] else -1,
            "round_scores": view["round_scores"],
            "starters": _starters(view["round_scores"], rounds_played),
            "rng": {"seed": 0, "n": 0},
            "setup": None,
            "last": None if last is None else [last["seat"], last["card"], last["how"], last["draw"]],
        }
        dump["hands"][seat] = view["hand"]
        return game.load(dump), unknown, n_opp

    def hidden(self, game: LostCities, view: dict, seat: int) -> tuple[State, list[int], list[int], int]:
        """:meth:`table` split for the determinisers: the shared state, the unseen cards to
        shuffle, the other hand's cards known to be in it (``remember``; else none) and how many
        of its cards are drawn from the shuffle (the rest of the shuffle is the deck)."""
        base, unknown, n_opp = self.table(game, view, seat)
        if not self.remember:
            return base, unknown, [], n_opp
        known = [CARD_IDS[c] for c in view.get("known", ([], []))[1 - seat]]
        if not known:
            return base, unknown, [], n_opp
        held = set(known)
        free = [c for c in unknown if c not in held]
        assert len(free) == len(unknown) - len(known) and len(known) <= n_opp, "the known cards are not all unseen"
        return base, free, known, n_opp - len(known)

    def leanings(self, view: dict, seat: int, unknown: list[int]) -> list[float] | None:
        """For :func:`deal`: per unseen card, 1 / its weight for the other hand (``lean`` for a
        card above the top of an expedition the other seat opened - a wager while it holds only
        wagers - 1 for the others); None when ``lean`` is 1."""
        if self.lean == 1.0:
            return None
        exps = view["expeditions"][1 - seat]
        top = {}
        for ci, col in enumerate(view["colours"]):
            if exps[col]:
                top[ci] = max(RANK[CARD_IDS[c]] for c in exps[col])
        out = []
        for c in unknown:
            t = top.get(c // SLOTS)
            r = RANK[c]
            out.append(1.0 / self.lean if t is not None and (r > t or r == t == 0) else 1.0)
        return out

    def determiniser(self, game: LostCities, view: dict, seat: int):
        base, unknown, known, n_opp = self.hidden(game, view, seat)
        inv = self.leanings(view, seat, unknown)
        opp = 1 - seat
        clone = game.clone

        def sample(rng) -> State:
            dealt, deck = deal(rng, unknown, n_opp, inv)
            s = clone(base)
            hand = known + dealt
            s.dh[opp] = [c + DISCARD for c in hand]
            pm = s.pm[opp]
            s.plays[opp] = [c for c in hand if pm >> c & 1]
            m = Info(base.m.colours, base.m.rounds)
            m.round, m.round_scores, m.starters = base.m.round, base.m.round_scores, base.m.starters
            m.deck = tuple(deck)
            m.rng = Rng(rng.getrandbits(53))
            s.m = m
            s.dn = len(m.deck)
            return s

        return sample

    def horizon(self, game: LostCities, s: State) -> int:
        return s.m.round

    def stop(self, game: LostCities, s: State, mark: int) -> bool:
        return s.m.round != mark

    def evaluate(self, game: LostCities, s: State, root_seat: int) -> list[float]:
        m = s.m
        t0 = sum(r[0] for r in m.round_scores)
        t1 = sum(r[1] for r in m.round_scores)
        played = len(m.round_scores)
        if s.phase != OVER and played <= m.round:  # stopped inside a round: count it as it stands
            t0 += _score(s, 0)
            t1 += _score(s, 1)
            played += 1
        left = m.rounds - played
        scale = 6.0 + 25.0 * math.sqrt(left)
        p0 = 1.0 / (1.0 + math.exp(-(t0 - t1) / scale))
        return [p0, 1.0 - p0]

    def prior(self, game: LostCities, view: dict, seat: int, legal: list[int], rng: random.Random) -> dict[int, float]:
        """The playout policy's own choice (without its random moves), on one determinisation."""
        sample = self.determiniser(game, view, seat)(rng)
        eps, self.epsilon = self.epsilon, 0.0
        try:
            pick = self.policy(game, sample, seat, game.legal(sample, seat), rng)
        finally:
            self.epsilon = eps
        return {pick: 1.0}

    def policy(self, game: LostCities, s: State, seat: int, legal: list[int], rng: random.Random) -> int:
        """Cheap rules: extend a started expedition by a small step; open one only with strong
        backing in hand and time left; otherwise discard a card that is dead for us and harmless
        to the opponent; draw a pile top that extends us closely, else the deck."""
        if rng.random() < self.epsilon:
            return legal[int(rng.random() * len(legal))]
        exps = s.exps
        base = seat * _W
        if s.phase == PLAY:
            plays = s.plays[seat]
            best, best_gap = -1, 99
            for c in plays:
                e = exps[base + COLOUR_OF[c]]
                if e:
                    gap = RANK[c] - RANK[e[-1]]
                    if gap < best_gap:
                        best, best_gap = c, gap
            if best >= 0 and best_gap <= 3:
                return best
            hand = [d - DISCARD for d in s.dh[seat]]
            if s.dn > 12:
                # open the colour with the most backing: at least 3 cards summing to 15 or more
                backing = [0] * 6
                count = [0] * 6
                for c in hand:
                    backing[COLOUR_OF[c]] += RANK[c]
                    count[COLOUR_OF[c]] += 1
                pick, pick_v = -1, 0
                for c in plays:
                    col = COLOUR_OF[c]
                    if not exps[base + col] and count[col] >= 3 and backing[col] >= 15:
                        v = backing[col] * 10 - RANK[c]
                        if v > pick_v:
                            pick, pick_v = c, v
                if pick >= 0:
                    return pick
            if best >= 0 and best_gap <= 5:
                return best
            opm = s.pm[1 - seat]
            pm = s.pm[seat]
            # discard: dead for us and useless to them, then dead for us, then the lowest card of
            # an unstarted colour
            choice, choice_v = -1, -1e9
            for c in hand:
                v = 0.0
                if not pm >> c & 1:
                    v += 10
                elif exps[base + COLOUR_OF[c]]:
                    v -= 10
                if opm >> c & 1 and exps[(1 - seat) * _W + COLOUR_OF[c]]:
                    v -= 8
                v -= RANK[c] * 0.3 + rng.random()
                if v > choice_v:
                    choice, choice_v = c, v
            return choice + DISCARD
        # draw phase
        pm = s.pm[seat]
        piles = s.piles
        for a in legal:
            if a != DRAW_DECK:
                k = a - DRAW_PILE
                c = piles[k][-1]
                e = exps[base + k]
                if e and pm >> c & 1 and RANK[c] - RANK[e[-1]] <= 2:
                    return a
        return DRAW_DECK


class _FastEngine:
    """The engine calls engines/search.py makes, on fast states (engines/lost_cities/fast.py).
    A round is not dealt on: once its last card is drawn nobody is to move (the search stops
    at the end of the round anyway). ``legal`` hands out the state's own sequence (the search
    only reads it before the next step)."""

    @staticmethod
    def to_move(s: list) -> tuple[int, ...]:
        return _MOVERS[s[0]] if s[2] else ()

    @staticmethod
    def legal(s: list, seat: int):
        return s[5 + seat] if s[1] == PLAY else _DRAWS[s[31] & ~s[32]]

    @staticmethod
    def step(s: list, seat: int, code: int) -> None:
        fast_step(s, code, False)

    clone = staticmethod(fast.clone)


_MOVERS = ((0,), (1,))


class FastLostCitiesSearch(LostCitiesSearch):
    """The same search as :class:`LostCitiesSearch` - the same determinisations, policy,
    evaluation and random draws, so the same choices for the same iterations (tests/ai checks
    it) - on the fast state of engines/lost_cities/fast.py: more iterations in a time budget."""

    engine = _FastEngine

    def determiniser(self, game: LostCities, view: dict, seat: int):
        table, unknown, known, n_opp = self.hidden(game, view, seat)
        inv = self.leanings(view, seat, unknown)
        base = fast.from_state(table)
        info = table.m
        opp = 1 - seat
        pm = base[9 + opp]
        clone = fast.clone
        bit = fast.BIT

        def sample(rng) -> list:
            dealt, deck = deal(rng, unknown, n_opp, inv)
            s = clone(base)
            hand = known + dealt
            plays = [c for c in hand if pm >> c & 1]
            s[5 + opp] = plays + [c + DISCARD for c in hand]
            s[7 + opp] = len(plays)
            s[11 + opp] = sum(bit[c] for c in hand)
            m = Info(info.colours, info.rounds)
            m.round, m.round_scores, m.starters = info.round, info.round_scores, info.starters
            m.deck = s[3] = tuple(deck)
            m.rng = Rng(rng.getrandbits(53))
            s[4] = m
            s[2] = len(m.deck)
            return s

        return sample

    def horizon(self, game: LostCities, s: list) -> int:
        return 0

    def stop(self, game: LostCities, s: list, mark: int) -> bool:
        return not s[2]

    def evaluate(self, game: LostCities, s: list, root_seat: int) -> list[float]:
        """:meth:`LostCitiesSearch.evaluate` of the state the compact engine would be in: there
        the round just ended is scored and the next one dealt (counted as under way)."""
        m = s[4]
        t0 = sum(r[0] for r in m.round_scores) + fast.score(s, 0)
        t1 = sum(r[1] for r in m.round_scores) + fast.score(s, 1)
        played = len(m.round_scores) + 1
        if not s[2] and played < m.rounds:
            played += 1
        left = m.rounds - played
        scale = 6.0 + 25.0 * math.sqrt(left)
        p0 = 1.0 / (1.0 + math.exp(-(t0 - t1) / scale))
        return [p0, 1.0 - p0]

    def prior(self, game: LostCities, view: dict, seat: int, legal: list[int], rng: random.Random) -> dict[int, float]:
        sample = self.determiniser(game, view, seat)(rng)
        eps, self.epsilon = self.epsilon, 0.0
        try:
            pick = self.policy(game, sample, seat, _FastEngine.legal(sample, seat), rng)
        finally:
            self.epsilon = eps
        return {pick: 1.0}

    def playout(self, game: LostCities, s: list, mark: int, rng: random.Random) -> None:
        """The policy's moves to the end of the round, as the search's loop over :meth:`policy`
        and ``fast.step`` would play them (the same moves, the same draws of ``rng``: tests/ai),
        with the policy and the step written inline, a turn (play or discard, then draw) per
        pass; the mover's hand, masks and counts live in local variables during its turn."""
        rnd = rng.random
        eps = self.epsilon
        rank, colour_of, draws, keep, kill, bit, cbit, nopile = RANK, COLOUR_OF, _DRAWS, _KEEP, fast.KILL, fast.BIT, fast.CBIT, fast.NOPILE
        dn = s[2]
        pmask = s[31]
        jbit = s[32]
        drawing = s[1] != PLAY  # the playout may start between a play and its draw
        while dn:
            seat = s[0]
            base = 13 + seat * 6
            hand = s[5 + seat]
            np = s[7 + seat]
            pm = s[9 + seat]
            if not drawing:
                # -- play or discard: the policy --
                if rnd() < eps:
                    code = hand[int(rnd() * len(hand))]
                else:
                    code = -1
                    best, best_gap = -1, 99
                    for c in hand[:np]:
                        e = s[base + colour_of[c]]
                        if e:
                            gap = rank[c] - rank[e[-1]]
                            if gap < best_gap:
                                best, best_gap = c, gap
                    if best >= 0 and best_gap <= 3:
                        code = best
                    else:
                        if dn > 12:
                            backing = [0] * 6
                            count = [0] * 6
                            for c in hand[np:]:
                                c -= DISCARD
                                col = colour_of[c]
                                backing[col] += rank[c]
                                count[col] += 1
                            pick_v = 0
                            for c in hand[:np]:
                                col = colour_of[c]
                                if not s[base + col] and count[col] >= 3 and backing[col] >= 15:
                                    v = backing[col] * 10 - rank[c]
                                    if v > pick_v:
                                        code, pick_v = c, v
                        if code < 0:
                            if best >= 0 and best_gap <= 5:
                                code = best
                            else:
                                opm = s[10 - seat]
                                obase = 19 - seat * 6
                                choice_v = -1e9
                                for c in hand[np:]:
                                    c -= DISCARD
                                    v = 0.0
                                    if not pm >> c & 1:
                                        v += 10
                                    elif s[base + colour_of[c]]:
                                        v -= 10
                                    if opm >> c & 1 and s[obase + colour_of[c]]:
                                        v -= 8
                                    v -= rank[c] * 0.3 + rnd()
                                    if v > choice_v:
                                        code, choice_v = c, v
                                code += DISCARD
                # -- apply it (fast.step) --
                if code >= DISCARD:
                    card = code - DISCARD
                    hand.remove(code)
                    if pm >> card & 1:
                        hand.remove(card)
                        np -= 1
                    s[25 + colour_of[card]] += (card,)
                    jbit = cbit[card]
                    pmask |= jbit
                else:
                    hand.remove(code)
                    hand.remove(code + DISCARD)
                    s[base + colour_of[code]] += (code,)
                    np -= 1
                    if rank[code]:
                        hm = s[11 + seat] ^ bit[code]
                        if hm & pm & kill[code]:  # cards in hand become unplayable
                            pm &= keep[code]
                            plays = [c for c in hand[:np] if pm >> c & 1]
                            hand[:np] = plays
                            np = len(plays)
                        else:
                            pm &= keep[code]
                s[11 + seat] ^= bit[code % DISCARD]
                s[33] = code
            drawing = False
            # -- draw: the policy --
            acts = draws[pmask & ~jbit]
            if rnd() < eps:
                code = acts[int(rnd() * len(acts))]
            else:
                code = DRAW_DECK
                for a in acts:
                    if a != DRAW_DECK:
                        k = a - DRAW_PILE
                        c = s[25 + k][-1]
                        e = s[base + k]
                        if e and pm >> c & 1 and rank[c] - rank[e[-1]] <= 2:
                            code = a
                            break
            # -- apply it --
            if code == DRAW_DECK:
                dn -= 1
                card = s[3][dn]
            else:
                k = code - DRAW_PILE
                pile = s[25 + k]
                card = pile[-1]
                s[25 + k] = pile = pile[:-1]
                if not pile:
                    pmask &= nopile[k]
            if pm >> card & 1:
                hand.insert(np, card)
                np += 1
            hand.append(card + DISCARD)
            s[11 + seat] |= bit[card]
            s[7 + seat] = np
            s[9 + seat] = pm
            s[34] = code
            s[0] = 1 - seat
            jbit = 0
        s[1] = PLAY
        s[2] = dn
        s[31] = pmask
        s[32] = 0

    def policy(self, game: LostCities, s: list, seat: int, legal, rng: random.Random) -> int:
        """:meth:`LostCitiesSearch.policy` on the fast state (the same rules, the same draws of
        ``rng``)."""
        if rng.random() < self.epsilon:
            return legal[int(rng.random() * len(legal))]
        base = 13 + seat * 6
        if s[1] == PLAY:
            hand = s[5 + seat]
            np = s[7 + seat]
            best, best_gap = -1, 99
            for i in range(np):
                c = hand[i]
                e = s[base + COLOUR_OF[c]]
                if e:
                    gap = RANK[c] - RANK[e[-1]]
                    if gap < best_gap:
                        best, best_gap = c, gap
            if best >= 0 and best_gap <= 3:
                return best
            if s[2] > 12:
                # open the colour with the most backing: at least 3 cards summing to 15 or more
                backing = [0] * 6
                count = [0] * 6
                for i in range(np, len(hand)):
                    c = hand[i] - DISCARD
                    backing[COLOUR_OF[c]] += RANK[c]
                    count[COLOUR_OF[c]] += 1
                pick, pick_v = -1, 0
                for i in range(np):
                    c = hand[i]
                    col = COLOUR_OF[c]
                    if not s[base + col] and count[col] >= 3 and backing[col] >= 15:
                        v = backing[col] * 10 - RANK[c]
                        if v > pick_v:
                            pick, pick_v = c, v
                if pick >= 0:
                    return pick
            if best >= 0 and best_gap <= 5:
                return best
            opm = s[10 - seat]
            pm = s[9 + seat]
            obase = 19 - seat * 6
            choice, choice_v = -1, -1e9
            for i in range(np, len(hand)):
                c = hand[i] - DISCARD
                v = 0.0
                if not pm >> c & 1:
                    v += 10
                elif s[base + COLOUR_OF[c]]:
                    v -= 10
                if opm >> c & 1 and s[obase + COLOUR_OF[c]]:
                    v -= 8
                v -= RANK[c] * 0.3 + rng.random()
                if v > choice_v:
                    choice, choice_v = c, v
            return choice + DISCARD
        pm = s[9 + seat]
        for a in legal:
            if a != DRAW_DECK:
                k = a - DRAW_PILE
                c = s[25 + k][-1]
                e = s[base + k]
                if e and pm >> c & 1 and RANK[c] - RANK[e[-1]] <= 2:
                    return a
        return DRAW_DECK


class _NativeEngine:
    """The engine calls engines/search.py makes, on states of engines/lost_cities/native.py
    (as :class:`_FastEngine`: a round is not dealt on, ``legal`` hands out the state's own list)."""

    @staticmethod
    def to_move(s: native.S) -> tuple[int, ...]:
        return _MOVERS[s.turn] if s.dn else ()

    @staticmethod
    def legal(s: native.S, seat: int) -> list[int]:
        return native.actions(s)

    @staticmethod
    def step(s: native.S, seat: int, code: int) -> None:
        native.step(s, code, False)

    clone = staticmethod(native.clone)


class NativeLostCitiesSearch(FastLostCitiesSearch):
    """:class:`FastLostCitiesSearch` on the states of engines/lost_cities/native.py, the module an
    optional build compiles (``./dev compile``): the same determinisations, policy, evaluation
    and draws of the search's rng, so the same choices and visits for the same iterations
    (tests/ai); the levels use it when the build is there (``native.COMPILED``)."""

    engine = _NativeEngine

    def determiniser(self, game: LostCities, view: dict, seat: int):
        table, unknown, known, n_opp = self.hidden(game, view, seat)
        inv = self.leanings(view, seat, unknown)
        base = native.from_fast(fast.from_state(table))
        info = table.m
        opp = 1 - seat
        clone, give = native.clone, native.give

        def sample(rng) -> native.S:
            dealt, deck = deal(rng, unknown, n_opp, inv)
            s = clone(base)
            give(s, opp, known + dealt)
            m = Info(info.colours, info.rounds)
            m.round, m.round_scores, m.starters = info.round, info.round_scores, info.starters
            m.deck = s.deck = tuple(deck)
            m.rng = Rng(rng.getrandbits(53))
            s.info = m
            s.dn = len(m.deck)
            return s

        return sample

    def stop(self, game: LostCities, s: native.S, mark: int) -> bool:
        return not s.dn

    def evaluate(self, game: LostCities, s: native.S, root_seat: int) -> list[float]:
        """:meth:`FastLostCitiesSearch.evaluate` (the same numbers) on a native state."""
        m = s.info
        t0 = sum(r[0] for r in m.round_scores) + native.score(s, 0)
        t1 = sum(r[1] for r in m.round_scores) + native.score(s, 1)
        played = len(m.round_scores) + 1
        if not s.dn and played < m.rounds:
            played += 1
        left = m.rounds - played
        scale = 6.0 + 25.0 * math.sqrt(left)
        p0 = 1.0 / (1.0 + math.exp(-(t0 - t1) / scale))
        return [p0, 1.0 - p0]

    def policy(self, game: LostCities, s: native.S, seat: int, legal, rng: random.Random) -> int:
        f = native.to_fast(s)
        return super().policy(game, f, seat, _FastEngine.legal(f, seat), rng)

    def prior(self, game: LostCities, view: dict, seat: int, legal: list[int], rng: random.Random) -> dict[int, float]:
        sample = self.determiniser(game, view, seat)(rng)
        eps, self.epsilon = self.epsilon, 0.0
        try:
            pick = self.policy(game, sample, seat, legal, rng)
        finally:
            self.epsilon = eps
        return {pick: 1.0}

    def playout(self, game: LostCities, s: native.S, mark: int, rng: random.Random) -> None:
        native.policy_playout(s, rng.random, self.epsilon)


# -- a sharper playout policy for the strong level (issue 22) -----------------------------------
#
# The levels' policy (above) plays a card on a started expedition only when the step from its top
# is small, and otherwise discards - also at the end of a round, when the cards left in hand can
# no longer all be played and every card played is points. It opens an expedition with a wager
# on the same weak backing as with a number, and draws from a discard pile only a card that
# extends an expedition closely. The sharper policy changes three things, for the playouts and the
# anchor move of the paired search when it is given this adapter. It is an option tried in issue
# 22, NOT the strong level's default: it screened no better (docs/benchmarks.md, "Lost Cities
# strong vs normal: playout policy and last draws (issue 22), 2026-12-05"); normal never uses it.
#   - end of the round: when the cards in hand that extend a started expedition are at least the
#     turns left (half the deck, rounded up), it plays the one closest to its top, whatever the
#     step;
#   - a wager opens an expedition only with numbers of that colour in hand summing to ``wager_backing``;
#   - in the same end-of-round position it draws any pile top that extends a started expedition
#     (a turn more to play cards; the card is played later, so no discard comes back and forth).
# Playouts are capped at ``cap`` actions (a safety net: none is expected to reach it).


def sharp_policy(s: list, seat: int, legal, rnd, eps: float, wager_backing: int, open_backing: int = 15,
                 value_late: bool = False) -> int:
    """The sharper policy's action for ``seat`` (to move) on a fast state. ``value_late``: at the
    end of the round play the lowest of the extensions worth the most points (rank times the
    expedition's multiplier), as many as turns are left, instead of the closest to its top."""
    if eps and rnd() < eps:
        return legal[int(rnd() * len(legal))]
    base = 13 + seat * 6
    hand = s[5 + seat]
    np = s[7 + seat]
    dn = s[2]
    best, best_gap, ext = -1, 99, 0
    for c in hand[:np]:
        e = s[base + COLOUR_OF[c]]
        if e:
            ext += 1
            gap = RANK[c] - RANK[e[-1]]
            if gap < best_gap:
                best, best_gap = c, gap
    late = ext and ext >= (dn + 1) >> 1
    if s[1] == PLAY:
        if late and value_late and ext > 1:
            worth = []
            for c in hand[:np]:
                e = s[base + COLOUR_OF[c]]
                if e:
                    worth.append((RANK[c] * (1 + sum(1 for x in e if not RANK[x])), c))
            worth.sort(reverse=True)
            return min(worth[: (dn + 1) >> 1], key=lambda wc: RANK[wc[1]])[1]
        if best >= 0 and (best_gap <= 3 or late):
            return best
        if dn > 12:
            backing = [0] * 6
            count = [0] * 6
            for d in hand[np:]:
                c = d - DISCARD
                col = COLOUR_OF[c]
                backing[col] += RANK[c]
                count[col] += 1
            pick, pick_v = -1, 0
            for c in hand[:np]:
                col = COLOUR_OF[c]
                if not s[base + col] and count[col] >= 3 and backing[col] >= open_backing:
                    if not RANK[c] and backing[col] < wager_backing:
                        continue
                    v = backing[col] * 10 - RANK[c]
                    if v > pick_v:
                        pick, pick_v = c, v
            if pick >= 0:
                return pick
        if best >= 0 and best_gap <= 5:
            return best
        opm = s[10 - seat]
        pm = s[9 + seat]
        obase = 19 - seat * 6
        choice, choice_v = -1, -1e9
        for d in hand[np:]:
            c = d - DISCARD
            v = 0.0
            if not pm >> c & 1:
                v += 10
            elif s[base + COLOUR_OF[c]]:
                v -= 10
            if opm >> c & 1 and s[obase + COLOUR_OF[c]]:
                v -= 8
            v -= RANK[c] * 0.3 + rnd()
            if v > choice_v:
                choice, choice_v = c, v
        return choice + DISCARD
    pm = s[9 + seat]
    for a in legal:
        if a != DRAW_DECK:
            k = a - DRAW_PILE
            c = s[25 + k][-1]
            e = s[base + k]
            if e and pm >> c & 1 and (late or RANK[c] - RANK[e[-1]] <= 2):
                return a
    return DRAW_DECK


class SharpLostCitiesSearch(FastLostCitiesSearch):
    """:class:`FastLostCitiesSearch` with :func:`sharp_policy` for its policy and playouts (an
    adapter for :class:`PairedLostCitiesSearch`, not the strong level's default; see the comment
    above)."""

    def __init__(self, epsilon: float = 0.1, wager_backing: int = 25, open_backing: int = 15, cap: int = 400,
                 value_late: bool = False, remember: bool = False) -> None:
        super().__init__(epsilon, remember)
        self.value_late = value_late
        self.wager_backing = wager_backing
        self.open_backing = open_backing
        self.cap = cap

    def policy(self, game: LostCities, s: list, seat: int, legal, rng: random.Random) -> int:
        return sharp_policy(s, seat, legal, rng.random, self.epsilon, self.wager_backing, self.open_backing, self.value_late)

    def playout(self, game: LostCities, s: list, mark: int, rng: random.Random) -> None:
        rnd = rng.random
        eps = self.epsilon
        wb = self.wager_backing
        ob = self.open_backing
        vl = self.value_late
        draws = _DRAWS
        n = self.cap
        while s[2] and n:
            seat = s[0]
            legal = s[5 + seat] if s[1] == PLAY else draws[s[31] & ~s[32]]
            fast_step(s, sharp_policy(s, seat, legal, rnd, eps, wb, ob, vl), False)
            n -= 1


# -- the strong level: paired flat Monte Carlo at the root (issue 22) ------------------------------
#
# The tree search above, given three times the time, played no better than at normal's budget
# (docs/benchmarks.md): with a dozen root actions and a few hundred noisy playouts, the visit
# counts mostly measure which hidden deals the playouts met. The strong level instead compares
# the root actions on *the same* deals: each batch draws one determinisation and one playout seed
# and plays every root action still in the race from that same state with that same seed
# (common random numbers), so the luck of the deal cancels out of the differences between them.


_FAST_CLONE = fast.clone


class PairedLostCitiesSearch(ISMCTS):
    """Paired flat Monte Carlo over the root actions, on the levels' fast (or compiled) playouts.

    Each *batch* samples one determinisation of what the seat cannot see and one playout seed, and
    plays out every root action still alive from it with that seed (the adapter's playout policy,
    to the end of the round, valued by its ``evaluate`` for the root seat). After ``warmup``
    batches, an action whose mean paired difference to the current best is more than ``reject_z``
    standard errors below zero is dropped (successive rejection); batches go on until the budget
    is spent or one action is left. The move the playout policy itself would make (the anchor) is
    played unless another action beats it by more than ``anchor_z`` paired standard errors.

    Draw phase, ``last_cards``: with that many cards or fewer left in the deck the seat draws from
    the deck (taking a discard back near the end could repeat forever: a discard and a take-back
    leave the deck as it was).

    Budgets as the tree search's: ``seconds`` (the clock is read before every playout, so a
    batch never runs past the deadline; an unfinished batch is not counted) and/or ``iterations``
    (playouts; whole batches are played, so the choice is reproducible). ``stats.iterations``:
    the playouts made; ``stats.visits``: the batches each root action was played in.

    Options kept from the issue 22 screens (docs/benchmarks.md; the defaults are the level):
    ``epsilon``, the playouts' rate of random moves; ``points``, value a playout by the round's
    point margin over ``points`` instead of the win chance; ``lead``, first run the normal level's
    tree search for that share of the budget and make its choice the anchor, with ``shortlist``
    its most visited actions (and the policy's move) the only ones raced; ``last_extend``, with
    ``last_cards`` or fewer left, race the deck against the pile tops that extend a started
    expedition of the seat's instead of always drawing from the deck; ``adapter``, e.g.
    :class:`SharpLostCitiesSearch` for the sharper playout policy."""

    searching = True

    def __init__(
        self,
        seconds: float | None = DEFAULT_SECONDS,
        iterations: int | None = None,
        adapter: LostCitiesSearch | None = None,
        warmup: int = 6,
        reject_z: float = 3.0,
        anchor_z: float = 2.0,
        last_cards: int = 2,
        last_extend: bool = False,
        epsilon: float = 0.1,
        points: float = 0.0,
        lead: float = 0.0,
        shortlist: int = 0,
        remember: bool = False,
        lean: float = 1.0,
        endgame: int = 0,
        endgame_stalls: tuple[int, ...] = (1, 1, 0, 0, 0, 0),
        max_stalls: int = 3,
        endgame_warmup: int = 6,
        endgame_anchor_z: float | None = None,
        endgame_memo: bool = False,
        name: str = "paired",
    ) -> None:
        super().__init__(adapter if adapter is not None else LEVEL_SEARCH(epsilon=epsilon, remember=remember, lean=lean), seconds=seconds,
                         iterations=iterations, name=name)
        self.warmup = warmup
        self.reject_z = reject_z
        self.anchor_z = anchor_z
        self.last_cards = last_cards
        self.last_extend = last_extend
        self.points = points  # 0: the adapter's win chance; else the round's point margin / ``points``
        # lead > 0: first the normal level's tree search for this share of the budget; its choice
        # is the anchor and (shortlist > 0) its most visited actions the only ones raced
        self.lead = lead
        self.shortlist = shortlist
        # endgame > 0: with that many cards or fewer in the deck, each batch's deal is solved
        # exactly to the end of the round (engines/lost_cities/endgame.py) instead of played
        # out, with endgame_stalls[deck - 1] pile draws allowed in the solver; the seat itself
        # takes at most max_stalls pile draws at one deck size in a round (a loop guard)
        self.endgame = endgame
        self.endgame_stalls = endgame_stalls
        self.max_stalls = max_stalls
        # the race in the endgame: its warm-up, the anchor's margin (None: anchor_z), and the
        # solver's transposition table (off: at these depths it costs more than it saves)
        self.endgame_warmup = endgame_warmup
        self.endgame_anchor_z = anchor_z if endgame_anchor_z is None else endgame_anchor_z
        self.endgame_memo = endgame_memo
        self._stalled: dict[tuple, int] = {}
        self.nodes = 0
        self.batches = 0
        self.anchor: int | None = None

    def _endgame_on(self, view: dict) -> bool:
        return (bool(self.endgame) and view["deck"] <= self.endgame and type(self.adapter) is not NativeLostCitiesSearch
                and isinstance(self.adapter, FastLostCitiesSearch) and not self.lead)

    def search(self, game: LostCities, view: dict, legal: list[int], seat: int, rng: random.Random, table: Any = None) -> int:
        start = time.perf_counter()
        self.stats = stats = Stats()
        self.batches = 0
        self.anchor = None
        if len(legal) == 1:
            stats.visits = {legal[0]: 0}
            return legal[0]
        solving = self._endgame_on(view)
        if solving and view["phase"] == "draw" and DRAW_DECK in legal:
            stall_key = (view["round"], view["deck"], tuple(map(tuple, view["round_scores"])))
            if self._stalled.get(stall_key, 0) >= self.max_stalls:
                legal = [DRAW_DECK]
                stats.visits = {DRAW_DECK: 0}
                return DRAW_DECK
            choice = self._solve(game, view, legal, seat, rng, start)
            if choice != DRAW_DECK:
                self._stalled[stall_key] = self._stalled.get(stall_key, 0) + 1
            return choice
        if solving:
            return self._solve(game, view, legal, seat, rng, start)
        if view["phase"] == "draw" and view["deck"] <= self.last_cards and DRAW_DECK in legal:
            # ``last_extend``: a pile top that extends a started expedition of the seat's may still
            # be taken (it is played later, so it does not come back to the pile)
            legal = [DRAW_DECK] + ([a for a in legal if a != DRAW_DECK and _extends(view, seat, a - DRAW_PILE)]
                                   if self.last_extend else [])
            if len(legal) == 1:
                stats.visits = {DRAW_DECK: 0}
                return DRAW_DECK
        ad = self.adapter
        srng = random.Random(rng.getrandbits(64))
        determinise = ad.determiniser(game, view, seat)
        engine = ad.engine
        step, evaluate, playout = engine.step, ad.evaluate, ad.playout
        copy = getattr(engine, "clone", _FAST_CLONE)
        # the anchor: the playout policy's own move here (no random moves)
        anchor = next(iter(ad.prior(game, view, seat, legal, srng)))
        if anchor not in legal:  # cannot happen with a determinisation true to the view
            anchor = legal[0]
        if self.lead:
            timed_lead = self.seconds is not None
            tree = ISMCTS(LEVEL_SEARCH(), seconds=self.seconds * self.lead if timed_lead else None,
                          iterations=None if timed_lead else max(2, int((self.iterations or 0) * self.lead)),
                          prior_weight=5.0, depth=2)
            policy_move = anchor
            anchor = tree.search(game, view, legal, seat, random.Random(srng.getrandbits(64)))
            if self.shortlist:
                visits = tree.stats.visits
                top = set(sorted(legal, key=lambda a: -visits.get(a, 0))[: int(self.shortlist)]) | {anchor, policy_move}
                legal = [a for a in legal if a in top]
        self.anchor = anchor
        clock = time.perf_counter
        deadline = start + self.seconds if self.seconds is not None else math.inf
        timed = self.seconds is not None
        state: list = [None, 0]  # this batch's determinisation and playout seed

        def new_batch() -> None:
            state[0] = determinise(srng)
            state[1] = srng.getrandbits(64)

        points = self.points
        score = native.score if isinstance(ad, NativeLostCitiesSearch) else fast.score

        def play(a: int) -> float:
            s = copy(state[0])
            step(s, seat, a)
            playout(game, s, 0, random.Random(state[1]))
            if points:
                return (score(s, seat) - score(s, 1 - seat)) / points
            return evaluate(game, s, seat)[seat]

        choice, values, it, batches = race(
            legal, anchor, new_batch, play, warmup=self.warmup, reject_z=self.reject_z, anchor_z=self.anchor_z,
            max_playouts=self.iterations, out_of_time=(lambda: clock() >= deadline) if timed else None)
        self.batches = batches
        stats.iterations = it
        stats.visits = {a: len(values[a]) for a in legal}
        stats.seconds = time.perf_counter() - start
        return choice


    def _solve(self, game: LostCities, view: dict, legal: list[int], seat: int, rng: random.Random, start: float) -> int:
        """The ``endgame`` search: the paired race of :meth:`search`, each batch one deal of the
        hidden cards solved exactly for every root action still in the race (PIMC), the margin
        turned into the adapter's value (its win chance from the totals, or ``points``)."""
        stats = self.stats
        self.nodes = 0  # turns the solver searched in this decision
        ad = self.adapter
        srng = random.Random(rng.getrandbits(64))
        determinise = ad.determiniser(game, view, seat)
        anchor = next(iter(ad.prior(game, view, seat, legal, srng)))
        stalls = self.endgame_stalls[min(view["deck"], len(self.endgame_stalls)) - 1]
        if view["phase"] == "draw":
            # the draws the solver searches (the deck; pile draws only with stalls, and pruned)
            probe = {DRAW_DECK}
            if stalls:
                probe.update(endgame.Solver._stall_draws(determinise(random.Random(0)), legal))
            legal = [a for a in legal if a in probe]
            if anchor not in legal:
                anchor = DRAW_DECK
            if len(legal) == 1:
                stats.visits = {legal[0]: 0}
                return legal[0]
        if anchor not in legal:
            anchor = legal[0]
        self.anchor = anchor
        clock = time.perf_counter
        deadline = start + self.seconds if self.seconds is not None else math.inf
        timed = self.seconds is not None
        # the adapter's evaluate at the end of this round, for the root seat
        totals = [sum(r[p] for r in view["round_scores"]) for p in (0, 1)]
        lead = totals[seat] - totals[1 - seat]
        played = len(view["round_scores"]) + 1
        if played < view["rounds"]:
            played += 1
        scale = 6.0 + 25.0 * math.sqrt(view["rounds"] - played)
        points = self.points
        batch: dict = {"values": None, "cut": False}
        alive_now: list[int] = []
        out = (lambda: clock() >= deadline) if timed else None

        def new_batch() -> None:
            batch["state"] = determinise(srng)
            batch["values"] = None

        def play(a: int) -> float:
            if batch["values"] is None:
                solver = endgame.Solver(seat, stalls, memo=self.endgame_memo, out_of_time=out)
                try:
                    batch["values"] = solver.root_values(batch["state"], actions=list(alive_now) or None)
                except endgame.OutOfTime:
                    batch["cut"] = True
                    return 0.0
                self.nodes += solver.nodes
            v = batch["values"][a]
            if points:
                return v / points
            return 1.0 / (1.0 + math.exp(-(lead + v) / scale))

        def cut_or_late() -> bool:
            return batch["cut"] or (timed and clock() >= deadline)

        # race() plays the alive actions in order (alive_now); the first play of a batch solves
        # them all, and a solve cut by the clock drops the batch
        choice, values, it, batches = race(
            legal, anchor, new_batch, play, warmup=self.endgame_warmup, reject_z=self.reject_z,
            anchor_z=self.endgame_anchor_z, max_playouts=self.iterations, out_of_time=cut_or_late, alive_out=alive_now,
            dedupe=True)
        self.batches = batches
        stats.iterations = it
        stats.visits = {a: len(values[a]) for a in legal}
        stats.seconds = time.perf_counter() - start
        return choice


def _extends(view: dict, seat: int, k: int) -> bool:
    """Whether the top of discard pile ``k`` can go on the seat's started expedition of that colour."""
    col = view["colours"][k]
    pile = view["discards"][col]
    exp = view["expeditions"][seat][col]
    if not pile or not exp:
        return False
    rank = RANK[CARD_IDS[pile[-1]]]
    top = RANK[CARD_IDS[exp[-1]]]
    return rank > top or (rank == 0 and top == 0)


def race(
    legal: list[int],
    anchor: int,
    new_batch,
    play,
    *,
    warmup: int = 6,
    reject_z: float = 3.0,
    anchor_z: float = 2.0,
    max_playouts: int | None = None,
    out_of_time=None,
    alive_out: list | None = None,
    dedupe: bool = False,
) -> tuple[int, dict[int, list[float]], int, int]:
    """The paired race of :class:`PairedLostCitiesSearch`, apart from the game: ``new_batch()``
    starts a batch (draws its deal and seed), ``play(a)`` plays action ``a`` out in it and returns
    its value. Batches go on while more than one action is alive, fewer than ``max_playouts``
    playouts were made (whole batches) and ``out_of_time()`` (asked before every playout) is false;
    a batch cut by the clock is dropped. Returns the choice, each action's values by batch, the
    playouts made and the whole batches counted."""
    alive = list(legal)
    values: dict[int, list[float]] = {a: [] for a in legal}
    limit = max_playouts if max_playouts is not None else 1 << 62
    it = 0
    batches = 0
    while len(alive) > 1 and it < limit:
        if out_of_time is not None and out_of_time():
            break
        if alive_out is not None:
            alive_out[:] = alive
        new_batch()
        got = []
        for a in alive:
            if out_of_time is not None and out_of_time():
                break
            got.append(play(a))
            it += 1
        if len(got) < len(alive):  # the clock ran out inside the batch: not a paired batch
            break
        for a, v in zip(alive, got, strict=True):
            values[a].append(v)
        batches += 1
        if batches >= warmup:
            best = max(alive, key=lambda a: sum(values[a]))  # ties: the first listed
            bv = values[best]
            alive = [a for a in alive if a == best or _beaten_by(values[a], bv) < reject_z]
            if dedupe:  # actions with the very same values so far: keep one (the anchor, else the first)
                seen: dict[tuple, int] = {}
                for a in sorted(alive, key=lambda a: a != anchor):
                    seen.setdefault(tuple(values[a]), a)
                keep = set(seen.values())
                alive = [a for a in alive if a in keep]
    if batches == 0:
        return anchor, values, it, batches
    # the best by mean among the actions still alive (each played in every batch)
    best = max(alive, key=lambda a: sum(values[a]))
    # the anchor stays unless beaten clearly, on at least the warm-up's batches
    if anchor in alive and best != anchor and (batches < warmup or _beaten_by(values[anchor], values[best]) <= anchor_z):
        return anchor, values, it, batches
    return best, values, it, batches


def _beaten_by(a: list[float], b: list[float]) -> float:
    """How many paired standard errors ``b`` is ahead of ``a`` on the batches both were played in
    (their first ones): the mean of ``b[k] - a[k]`` over its standard error (0 with fewer than two
    batches; infinite when every batch gives the same positive difference)."""
    n = min(len(a), len(b))
    if n < 2:
        return 0.0
    diffs = [b[k] - a[k] for k in range(n)]
    m = sum(diffs) / n
    var = sum((x - m) ** 2 for x in diffs) / (n - 1)
    if var <= 1e-18:
        return math.inf if m > 1e-12 else (-math.inf if m < -1e-12 else 0.0)
    return m / math.sqrt(var / n)


# depth 2: the tree holds the searching seat's whole turn (play, then draw); the rest is playout.
# The levels search on the fast state (FastLostCitiesSearch), or on native.py's states when its
# compiled build is there (NativeLostCitiesSearch: the same choices, faster); LostCitiesSearch,
# on the compact engine, stays as their reference.
LEVEL_SEARCH = NativeLostCitiesSearch if native.COMPILED else FastLostCitiesSearch
NormalPlayer = level_player("normal", LEVEL_SEARCH, prior_weight=5.0, depth=2)
TreeStrongPlayer = level_player("strong", LEVEL_SEARCH, prior_weight=5.0, depth=2)  # the strong level until issue 22's paired search


# The strong level's time a decision in Lost Cities: 1 s (the other games' strong levels: 0.3 s).
# At 0.3 s the paired race made a different choice with another seed in a quarter of decisions
# (bench figures in docs/benchmarks.md, issue 22, 2026-12-06); a stand-in's move in a match played
# over days can take a second.
STRONG_SECONDS = 1.0


class StrongPlayer(PairedLostCitiesSearch):
    """The strong level: :class:`PairedLostCitiesSearch` with the level's 0.3 s a decision.
    ``remember=True`` deals the other hand the cards it was seen taking from the piles, ``lean=3``
    leans its deals towards the cards that extend the other seat's opened expeditions; neither is
    the default: on fresh seeds each measured no better than without (docs/benchmarks.md, issue 22)."""

    name = "strong"

    def __init__(self, seconds: float | None = STRONG_SECONDS, iterations: int | None = None,
                 remember: bool = False, lean: float = 1.0) -> None:
        super().__init__(seconds=seconds, iterations=iterations, remember=remember, lean=lean, name="strong")


PLAYERS = {"heuristic": HeuristicPlayer, "easy": HeuristicPlayer, "normal": NormalPlayer, "strong": StrongPlayer}
