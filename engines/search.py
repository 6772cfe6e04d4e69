"""Information-set Monte Carlo tree search (single observer), shared by every game's AI.

The searching seat never looks at the real hidden state. Each iteration:

1. **Determinise**: the game's adapter builds one complete state that agrees with what the seat's
   *view* shows (its own hand, the table, counts), filling in what it cannot see - others' hands,
   the order of the deck or pile, the seeds of later shuffles - by sampling with the search's own
   ``random.Random``.
2. **Select** down one shared tree whose edges are action codes: at each node only the actions
   legal in this determinisation compete (UCB1 with availability counts, so an action that is
   rarely possible is not starved), and the node's mover picks in its own interest.
3. **Expand** one untried action, then **play out** with the adapter's fast policy (the game's
   heuristic idea, coded on the state) up to a horizon (end of the round, a number of turns...).
4. **Evaluate** the reached state as a reward in [0, 1] per seat and back it up.

The move played is the most visited root action. Budgets: a time limit (``seconds``; 0.3 s by
default) and/or a number of iterations (``iterations``). With an iteration budget and a seeded
``rng`` the choice is fully reproducible; a time budget makes the count depend on the machine.

An adapter (see :class:`Adapter`) supplies the game-specific parts. Everything else here only uses
the public :class:`engines.core.Game` interface (``to_move``, ``legal``, ``step``, ``clone``,
``view``).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Hashable
from typing import Any, Protocol

from .core import Code, Game

DEFAULT_SECONDS = 0.3


class Adapter(Protocol):
    """What a game tells the search. ``determiniser`` is called once per decision with the seat's
    view and returns a function that, given the search's rng, builds one full state consistent
    with that view (a fresh object each time: the search changes it)."""

    def determiniser(self, game: Game, view: dict[str, Any], seat: int) -> Callable[[random.Random], Any]: ...

    def horizon(self, game: Game, state: Any) -> Hashable:
        """A marker of the state the search started from; ``stop`` compares against it."""
        ...

    def stop(self, game: Game, state: Any, mark: Hashable) -> bool:
        """True when a playout should stop here and be evaluated (besides the end of the match)."""
        ...

    def policy(self, game: Game, state: Any, seat: int, legal: list[Code], rng: random.Random) -> Code:
        """The playout move (fast; it may read the determinised state freely)."""
        ...

    def evaluate(self, game: Game, state: Any, root_seat: int) -> list[float]:
        """Reward in [0, 1] for every seat of the (determinised) state."""
        ...

    def prior(self, game: Game, view: dict[str, Any], seat: int, legal: list[Code], rng: random.Random) -> dict[Code, float]:
        """Optional bias for root actions (e.g. the heuristic's choice gets 1.0)."""
        ...

    # Optional: ``candidates(game, view, seat, legal, rng, base)`` -> the root actions worth
    # searching (a shortlist by the heuristic when there are hundreds of legal actions).
    # Optional: ``engine`` - an object with ``to_move(state)``, ``legal(state, seat)`` and
    # ``step(state, seat, code)`` that plays the determinised states in place of the game's own
    # calls (a faster representation of the same rules, e.g. engines/lost_cities/fast.py); the
    # determiniser then builds states of that engine.
    # Optional: ``playout(game, state, mark, rng)`` - plays the state on with the adapter's policy
    # until ``stop`` would say so or the match ends, in place of the loop over ``policy`` below
    # (the same moves, fewer calls).


class _Node:
    __slots__ = ("children", "visits", "avail", "reward", "seat")

    def __init__(self, seat: int) -> None:
        self.children: dict[Code, _Node] = {}
        self.visits = 0
        self.avail = 1
        self.reward = 0.0  # sum of rewards of the seat that moved into this node
        self.seat = seat


class Stats:
    """What the last search did (for benches and tests)."""

    __slots__ = ("iterations", "seconds", "visits")

    def __init__(self) -> None:
        self.iterations = 0
        self.seconds = 0.0
        self.visits: dict[Code, int] = {}


class ISMCTS:
    """A searching player for one game. ``seconds``/``iterations``: the budget (either may be None,
    not both); ``c``: exploration constant; ``prior_weight``: how many visits the root prior is
    worth."""

    def __init__(
        self,
        adapter: Adapter,
        seconds: float | None = DEFAULT_SECONDS,
        iterations: int | None = None,
        c: float = 0.7,
        prior_weight: float = 0.0,
        name: str = "search",
        depth: int = 1_000,
        prior_final: float = 0.0,
    ) -> None:
        if seconds is None and iterations is None:
            raise ValueError("a search needs a time or an iteration budget")
        self.adapter = adapter
        self.seconds = seconds
        self.iterations = iterations
        self.c = c
        self.prior_weight = prior_weight
        self.name = name
        self.depth = depth  # tree levels below the root; deeper moves belong to the playout
        # extra visits the prior's choice counts when choosing (below 1: a share of the iterations)
        self.prior_final = prior_final
        self.stats = Stats()

    def choose(self, game: Game, state: Any, seat: int, rng: random.Random) -> Code:
        view = game.view(state, seat)
        legal = game.legal(state, seat)
        # From here on only the view and the legal list are used - except by an adapter that
        # declares ``needs_table``: it copies the table and replaces every hidden part of the copy.
        table = state if getattr(self.adapter, "needs_table", False) else None
        del state
        return self.search(game, view, legal, seat, rng, table)

    def search(
        self, game: Game, view: dict[str, Any], legal: list[Code], seat: int, rng: random.Random, table: Any = None
    ) -> Code:
        start = time.perf_counter()
        self.stats = stats = Stats()
        if len(legal) == 1:
            stats.visits = {legal[0]: 0}
            return legal[0]
        ad = self.adapter
        # The search's randomness depends only on the caller's rng (seeded per decision by the bot).
        srng = random.Random(rng.getrandbits(64))
        determinise = ad.determiniser(game, view, seat, table) if table is not None else ad.determiniser(game, view, seat)
        shortlist = getattr(ad, "candidates", None)
        if shortlist is not None:
            legal = shortlist(game, view, seat, legal, srng) or legal
        if len(legal) == 1:
            stats.visits = {legal[0]: 0}
            return legal[0]
        prior = ad.prior(game, view, seat, legal, srng) if self.prior_weight else {}
        root = _Node(-1)
        legal_set = set(legal)
        engine = getattr(ad, "engine", None) or game
        to_move, g_legal, step = engine.to_move, engine.legal, engine.step
        stop, policy, evaluate = ad.stop, ad.policy, ad.evaluate
        playout = getattr(ad, "playout", None)
        c = self.c
        pw = self.prior_weight
        depth = self.depth
        deadline = start + self.seconds if self.seconds is not None else math.inf
        max_it = self.iterations if self.iterations is not None else 1 << 62
        it = 0
        while it < max_it and (it == 0 or time.perf_counter() < deadline):
            it += 1
            d = determinise(srng)
            mark = ad.horizon(game, d)
            node = root
            path = []
            # -- selection and expansion ---------------------------------------------------------
            while True:
                movers = to_move(d)
                if not movers or len(path) >= depth or (path and stop(game, d, mark)):
                    break
                mover = movers[0]
                acts = g_legal(d, mover)
                if node is root:
                    acts = [a for a in acts if a in legal_set]
                    if not acts:  # cannot happen with a determinisation true to the view
                        break
                children = node.children
                untried = [a for a in acts if a not in children]
                for a in acts:
                    ch = children.get(a)
                    if ch is not None:
                        ch.avail += 1
                if untried:
                    a = untried[int(srng.random() * len(untried))]
                    child = children[a] = _Node(mover)
                    step(d, mover, a)
                    path.append(child)
                    break
                best, best_v = None, -math.inf
                for a in acts:
                    ch = children[a]
                    v = ch.reward / ch.visits + c * math.sqrt(math.log(ch.avail) / ch.visits)
                    if pw and node is root:
                        v += pw * prior.get(a, 0.0) / (ch.visits + 1)
                    if v > best_v:
                        best, best_v = a, v
                node = children[best]
                step(d, mover, best)
                path.append(node)
            # -- playout ---------------------------------------------------------------------------
            if playout is not None:
                playout(game, d, mark, srng)
            else:
                while (movers := to_move(d)) and not stop(game, d, mark):
                    mover = movers[0]
                    step(d, mover, policy(game, d, mover, g_legal(d, mover), srng))
            rewards = evaluate(game, d, seat)
            for n in path:
                n.visits += 1
                n.reward += rewards[n.seat]
        stats.iterations = it
        stats.visits = {a: ch.visits for a, ch in root.children.items() if a in legal_set}
        stats.seconds = time.perf_counter() - start
        # The most visited legal action, the prior's choices counting ``prior_final`` visits more
        # (so a short search under load does not trade the heuristic's move for noise); ties go to
        # the first in the legal list (deterministic).
        visits = stats.visits
        keep = self.prior_final if self.prior_final >= 1 else self.prior_final * it  # visits, or a share of them
        return max(legal, key=lambda a: (visits.get(a, -1) + keep * prior.get(a, 0.0), -legal.index(a)))


LEVEL_SECONDS = {"normal": 0.1, "strong": DEFAULT_SECONDS}


def level_player(
    level: str,
    adapter_factory: Callable[[], Adapter],
    prior_weight: float = 0.0,
    c: float = 0.7,
    depth: int = 1_000,
    prior_final: float = 0.0,
) -> type:
    """A player class for a level ('normal', 'strong'): ``cls()`` searches with the level's time
    budget; ``cls(seconds=..., iterations=...)`` with another (iterations alone: reproducible)."""
    default = LEVEL_SECONDS[level]

    class LevelPlayer(ISMCTS):
        searching = True

        def __init__(self, seconds: float | None = default, iterations: int | None = None) -> None:
            super().__init__(adapter_factory(), seconds=seconds, iterations=iterations, c=c,
                             prior_weight=prior_weight, name=level, depth=depth, prior_final=prior_final)

    LevelPlayer.name = level
    LevelPlayer.__name__ = LevelPlayer.__qualname__ = f"{level.capitalize()}Player"
    return LevelPlayer
