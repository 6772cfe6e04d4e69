"""Lost Cities end of round with everything known: an exact minimax over both seats' turns.

Given one determinisation (the other hand and the deck order fixed, as a fast state of
engines/lost_cities/fast.py), :func:`solve` finds the round's point margin for ``root`` (its
score minus the other seat's) under best play by both seats to the end of the round. A turn is
a play or discard followed by a draw. Drawing from a discard pile does not bring the round's end
nearer, so without a limit the game has no end; the search allows ``stalls`` pile draws in all
(both seats together), after which every draw is from the deck. With ``d`` cards in the deck the
search sees ``d`` to ``d + stalls`` turns.

Every leaf is the end of the round, so any value that grows with the round's margin (the
searches' win chance from the totals) has the same minimax moves as the margin: the solver works
on the integer margin and the caller turns it into its value (PairedLostCitiesSearch, the
``endgame`` option).

The last deck card needs no step: once it is drawn the round is over and the card drawn scores
nothing, so the value of the turn is the value after the play or discard. Alpha-beta pruning,
plays before discards and the deck before the piles (the fast state's orders); a transposition
table per determinisation (``memo``) keyed by the whole position and the stalls left.
"""

from __future__ import annotations

from . import DISCARD, expedition_score, fast

_W = 6
_EXP = fast.EXP
_PILE = fast.PILE
_INF = 1 << 30
_clone = fast.clone
_step = fast.step


def margin(s: list, root: int, cache: dict) -> int:
    """Round score of ``root`` minus the other seat's (expedition scores cached by tuple)."""
    total = 0
    a = _EXP + root * _W
    b = _EXP + (1 - root) * _W
    for k in range(_W):
        e = s[a + k]
        if e:
            v = cache.get(e)
            if v is None:
                v = cache[e] = expedition_score(e)
            total += v
        e = s[b + k]
        if e:
            v = cache.get(e)
            if v is None:
                v = cache[e] = expedition_score(e)
            total -= v
    return total


def _key(s: list, stalls: int) -> tuple:
    return (s[0], s[2], s[11], s[12], stalls, *s[_EXP:_PILE + _W])


def _deck_only_actions(s: list, seat: int) -> list[int]:
    """The plays and discards worth searching when nobody draws from a pile any more: a discarded
    card then never comes back, so the discards of cards the seat can no longer play are all the
    same move (the first is kept)."""
    hand = s[5 + seat]
    np = s[7 + seat]
    pm = s[9 + seat]
    out = hand[:np]
    dead = True
    for d in hand[np:]:
        if pm >> (d - DISCARD) & 1:
            out.append(d)
        elif dead:
            out.append(d)
            dead = False
    return out


class OutOfTime(Exception):
    """The solver's clock ran out (see ``Solver.out_of_time``)."""


class Solver:
    """One determinisation's exact end of round. ``nodes`` counts the turns searched."""

    def __init__(self, root: int, stalls: int = 2, memo: bool = True, prune: bool = True, out_of_time=None) -> None:
        self.root = root
        self.prune = prune
        # out_of_time(): asked every 64 turns searched; when true the search raises OutOfTime
        self.out_of_time = out_of_time
        self.stalls = stalls
        self.cache: dict = {}
        self.memo: dict | None = {} if memo else None
        self.nodes = 0

    def after_draw(self, s: list, stalls: int, alpha: int = -_INF, beta: int = _INF) -> int:
        """The value of a state at the start of a turn (play phase; the deck not empty)."""
        memo = self.memo
        if memo is not None:
            key = _key(s, stalls)
            hit = memo.get(key)
            if hit is not None:
                lo, hi = hit
                if lo >= beta or lo == hi:
                    return lo
                if hi <= alpha:
                    return hi
                if lo > alpha:
                    alpha = lo
                if hi < beta:
                    beta = hi
        a0, b0 = alpha, beta
        v = self._turn(s, stalls, alpha, beta)
        if memo is not None:
            lo, hi = memo.get(key, (-_INF, _INF))
            if v <= a0:  # fail low: an upper bound
                hi = min(hi, v)
            elif v >= b0:  # fail high: a lower bound
                lo = max(lo, v)
            else:
                lo = hi = v
            memo[key] = (lo, hi)
        return v

    def _turn(self, s: list, stalls: int, alpha: int, beta: int) -> int:
        self.nodes += 1
        if self.out_of_time is not None and not self.nodes & 63 and self.out_of_time():
            raise OutOfTime
        seat = s[0]
        maxing = seat == self.root
        best = -_INF if maxing else _INF
        acts = s[5 + seat]
        if not stalls and self.prune:
            acts = _deck_only_actions(s, seat)
        for a in tuple(acts):
            s1 = _clone(s)
            draws = _step(s1, a, False)
            v = self.draw_values(s1, draws, stalls, alpha, beta, maxing, best_only=True)
            if maxing:
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            return best
            else:
                if v < best:
                    best = v
                    if v < beta:
                        beta = v
                        if alpha >= beta:
                            return best
        return best

    def draw_values(self, s1: list, draws, stalls: int, alpha: int, beta: int, maxing: bool, best_only: bool):
        """After a play or discard: the best draw's value (``best_only``) or each draw's value
        (a dict, the root of a draw decision; exact values, no pruning between them)."""
        root = self.root
        if s1[2] == 1:  # the last deck card: the round ends whatever is drawn
            v = margin(s1, root, self.cache)
            if best_only and not stalls:
                return v
            values = {200: v}
        else:
            values = {}
            s2 = _clone(s1)
            _step(s2, 200, False)
            values[200] = v = self.after_draw(s2, stalls, alpha, beta) if best_only else self.after_draw(s2, stalls)
            if best_only and ((maxing and v >= beta) or (not maxing and v <= alpha)):
                return v
        if stalls:
            best = v
            for d in (self._stall_draws(s1, draws) if self.prune else draws):
                if d == 200:
                    continue
                s2 = _clone(s1)
                _step(s2, d, False)
                if best_only:
                    if maxing:
                        w = self.after_draw(s2, stalls - 1, max(alpha, best), beta)
                        if w > best:
                            best = w
                            if best >= beta:
                                return best
                    else:
                        w = self.after_draw(s2, stalls - 1, alpha, min(beta, best))
                        if w < best:
                            best = w
                            if best <= alpha:
                                return best
                else:
                    values[d] = self.after_draw(s2, stalls - 1)
            if best_only:
                return best
        if best_only:
            return v
        return values

    @staticmethod
    def _stall_draws(s1: list, draws) -> list[int]:
        """``prune``: the pile draws searched - every pile top the drawer can still play, and of
        the others only the first (any such draw only delays the end; which dead card is taken
        rarely matters)."""
        pm = s1[9 + s1[0]]
        out = []
        dead = True
        for d in draws:
            if d == 200:
                continue
            if pm >> s1[d - 176][-1] & 1:
                out.append(d)
            elif dead:
                out.append(d)
                dead = False
        return out

    def root_values(self, s: list, actions=None) -> dict[int, int]:
        """Every legal action of the seat to move (``root``; or those of ``actions``) with its
        exact value: plays and discards in the play phase (each followed by the best draw), draws
        in the draw phase (pile draws only those searched, see ``prune``, and only with stalls)."""
        assert s[0] == self.root and s[2] > 0
        if s[1] == 0:  # play phase
            out = {}
            for a in tuple(s[5 + self.root]) if actions is None else actions:
                s1 = _clone(s)
                draws = _step(s1, a, False)
                out[a] = self.draw_values(s1, draws, self.stalls, -_INF, _INF, True, best_only=True)
            return out
        draws = fast._DRAWS[s[31] & ~s[32]]
        return self.draw_values(s, draws, self.stalls, -_INF, _INF, True, best_only=False)


def solve(s: list, root: int, stalls: int = 2, memo: bool = True, prune: bool = False) -> dict[int, int]:
    """The exact margin of each of ``root``'s legal actions in ``s`` (root to move, deck not
    empty), both seats playing best to the end of the round with at most ``stalls`` pile draws."""
    return Solver(root, stalls, memo, prune).root_values(s)


__all__ = ["DISCARD", "OutOfTime", "Solver", "margin", "solve"]
