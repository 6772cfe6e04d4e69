"""A heuristic Lost Cities player. It reads only its own seat's view and its legal actions.

Idea, in short: an expedition is worth opening only with enough cards of that colour in hand to
pay the 20-point cost; wagers go down only on strong colours early in the round; a card is played
when the gap to the expedition's top is small (a big jump wastes the cards in between); the card
to discard is the one least useful to us and to the opponent; from the discard piles we take a
card that extends one of our expeditions cheaply, otherwise we draw from the deck.
"""

from __future__ import annotations

import random
from typing import Any

from . import CARD_IDS, COLOUR_OF, COLOURS, DISCARD, DRAW_DECK, DRAW_PILE, RANK, LostCities


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


PLAYERS = {"heuristic": HeuristicPlayer}
