"""The one shape every Partida rules engine has.

A game is a stateless `Game` object (its rules) plus a mutable state object that the game alone
understands. Actions cross the boundary as JSON (validated by the game's pydantic `Action`
model); inside, each game uses a compact hashable *code* (an int or a tuple) so that random
playouts, AI search and legal-move lists stay fast.

Contract for every game:

* ``new_state(n_seats, options, seed, setup)`` builds the initial state. All randomness comes from
  an :class:`engines.rng.Rng` stored inside the state, or from the explicit ``setup``.
* ``to_move(state)`` - the seats that may act now (empty when the match is over).
* ``legal(state, seat)`` - the legal action codes of a seat (empty if it may not act).
* ``check(state, seat, code)`` - raise :class:`IllegalAction` with a stable code and a human reason,
  **without touching the state**, when the action is not legal.
* ``step(state, seat, code)`` - apply a checked action *in place*, returning the events it caused.
* ``view(state, seat)`` - JSON-able dict of what that seat may know; ``seat=None`` is the public view.
* ``result(state)`` - :class:`Result` once the match is over, else ``None``.
* ``dump(state)`` / ``load(data)`` - lossless JSON round trip; ``clone(state)`` a deep copy.
* ``encode(code)`` / ``decode(action)`` - code <-> JSON action dict.
* ``canonical(state, code)`` - the listed code of a move equivalent to ``code`` (default: itself);
  actions read from JSON go through it, so the accepted codes are exactly ``legal()``.
* ``scores(state)`` - the score of each seat now, mid-game too.
* ``redeal(state, seat, rng)`` - a copy with what ``seat`` cannot see dealt anew (tests prove with
  it that a view leaks nothing); ``variants`` - option sets worth testing.

`apply()` is the functional convenience: check, clone, step, and return the new state.

tests/conformance checks all of this for every game in :mod:`engines.registry`, every variant
and seat count, by random playouts: a game gets the whole suite by registering.
"""

from __future__ import annotations

import copy
import random
from abc import ABC, abstractmethod
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, TypeVar

from pydantic import BaseModel, ConfigDict, TypeAdapter, ValidationError

S = TypeVar("S")
Code = Hashable
JSON = Any


class EngineError(Exception):
    """An error with a stable machine code and a human reason (English).

    ``params`` carries the values the reason mentions, so a translated message can be rebuilt
    from ``code`` and ``params`` in any language.
    """

    def __init__(self, code: str, reason: str, **params: Any) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason
        self.params = params

    def __str__(self) -> str:  # pragma: no cover - trivial
        return self.reason


class IllegalAction(EngineError):
    """The action is well formed but the rules do not allow it now."""


class BadAction(EngineError):
    """The action is not even well formed (unknown type, unknown card id, ...)."""


class BadOptions(EngineError):
    """Unknown or out-of-range match options, or a wrong number of seats."""


class BadSetup(EngineError):
    """An explicit setup that is inconsistent with the game or the options."""


class StrictModel(BaseModel):
    """Base for options and actions: unknown keys are errors, instances are immutable."""

    model_config = ConfigDict(extra="forbid", frozen=True)


@dataclass(slots=True)
class Event:
    """Something that happened, for logs, recaps and the channel story.

    ``kind`` is a stable key (translated by the bot), ``data`` JSON values, ``seat`` who did it.
    ``private_to`` lists seats that alone may see ``data`` (e.g. the card drawn from the deck).
    """

    kind: str
    seat: int | None = None
    data: dict[str, JSON] = field(default_factory=dict)
    private_to: tuple[int, ...] | None = None

    def to_json(self) -> dict[str, JSON]:
        out: dict[str, JSON] = {"kind": self.kind, "seat": self.seat, "data": self.data}
        if self.private_to is not None:
            out["private_to"] = list(self.private_to)
        return out

    def public(self) -> Event:
        """The event as everyone else may see it."""
        if self.private_to is None:
            return self
        return Event(self.kind, self.seat, {}, self.private_to)


@dataclass(slots=True)
class Outcome:
    """What applying one action did."""

    events: list[Event]
    # True when the action showed somebody information that was hidden before (a card drawn from
    # the deck, a character revealed, a tile drawn...). An undo must never cross such an action.
    revealed: bool
    # True when this action finished the mover's turn (time to show the board and call the next
    # player), even if the same seat moves next (e.g. it starts the next round). None: the turn
    # ended when the set of seats to move changed.
    turn_ended: bool | None = None


@dataclass(slots=True, frozen=True)
class Result:
    """Final result. ``ranking`` is a list of places, each a list of seats (ties share a place)."""

    scores: tuple[int, ...]
    ranking: tuple[tuple[int, ...], ...]
    tiebreak: str
    details: Mapping[str, JSON] = field(default_factory=dict)

    def to_json(self) -> dict[str, JSON]:
        return {
            "scores": list(self.scores),
            "ranking": [list(place) for place in self.ranking],
            "tiebreak": self.tiebreak,
            "details": dict(self.details),
        }


def rank_by(scores: list[int] | tuple[int, ...], *tiebreakers: list | tuple) -> tuple[tuple[int, ...], ...]:
    """Places from best to worst: higher score first, then each tie-breaker (higher first)."""
    seats = range(len(scores))

    def key(s: int) -> tuple:
        return (scores[s], *(t[s] for t in tiebreakers))

    ordered = sorted(seats, key=key, reverse=True)
    places: list[list[int]] = []
    last = None
    for s in ordered:
        k = key(s)
        if places and k == last:
            places[-1].append(s)
        else:
            places.append([s])
        last = k
    return tuple(tuple(p) for p in places)


class Game(ABC, Generic[S]):
    """A game's rules. Stateless; one instance per game is registered in :mod:`engines.registry`."""

    key: ClassVar[str]
    name: ClassVar[str]
    names: ClassVar[dict[str, str]] = {}  # display name per language ("en", "es")
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    Options: ClassVar[type[StrictModel]]
    Action: ClassVar[Any]  # a pydantic model or an annotated union of models

    # Option sets worth testing (each with every seat count): the conformance suite
    # (tests/conformance) plays them all. ``{}`` is the default game.
    variants: ClassVar[tuple[dict[str, Any], ...]] = ({},)

    _action_adapter: ClassVar[TypeAdapter | None] = None

    # -- options and actions at the JSON boundary ---------------------------------------------

    def parse_options(self, raw: Mapping[str, Any] | None) -> StrictModel:
        if raw is not None and not isinstance(raw, Mapping):
            raise BadOptions("bad_options", "the options must be a JSON object")
        for key, value in (raw or {}).items():
            if not isinstance(key, str) or len(key) > 40 or not _small_json(value):
                raise BadOptions("bad_options", f"option {str(key)[:40]!r}: not a plain value (a number, a word, true/false)")
        try:
            return self.Options.model_validate(dict(raw or {}))
        except ValidationError as e:
            raise BadOptions("bad_options", _pydantic_reason(e)) from None

    def parse_action(self, raw: Any) -> Any:
        """Validate a JSON action against the game's action model."""
        cls = type(self)
        if cls._action_adapter is None:
            cls._action_adapter = TypeAdapter(self.Action)
        try:
            return cls._action_adapter.validate_python(raw)
        except ValidationError as e:
            raise BadAction("bad_action", _pydantic_reason(e)) from None

    def check_seats(self, n_seats: int) -> None:
        if not self.min_players <= n_seats <= self.max_players:
            raise BadOptions(
                "bad_seat_count",
                f"{self.name} needs {self.min_players}-{self.max_players} players, not {n_seats}",
                min=self.min_players,
                max=self.max_players,
                got=n_seats,
            )

    # -- the rules -------------------------------------------------------------------------------

    @abstractmethod
    def new_state(self, n_seats: int, options: StrictModel, seed: int | None, setup: JSON | None) -> S: ...

    @abstractmethod
    def to_move(self, state: S) -> tuple[int, ...]: ...

    @abstractmethod
    def legal(self, state: S, seat: int) -> list[Code]: ...

    @abstractmethod
    def check(self, state: S, seat: int, code: Code) -> None: ...

    @abstractmethod
    def step(self, state: S, seat: int, code: Code) -> Outcome: ...

    @abstractmethod
    def view(self, state: S, seat: int | None) -> dict[str, JSON]: ...

    @abstractmethod
    def result(self, state: S) -> Result | None: ...

    @abstractmethod
    def encode(self, code: Code) -> dict[str, JSON]: ...

    @abstractmethod
    def decode(self, action: dict[str, JSON]) -> Code: ...

    @abstractmethod
    def dump(self, state: S) -> dict[str, JSON]: ...

    @abstractmethod
    def load(self, data: dict[str, JSON]) -> S: ...

    def clone(self, state: S) -> S:
        return copy.deepcopy(state)

    def heavy(self, state: S) -> bool:
        """Whether work on ``state`` (a check, a step, a view, the legal actions) can take long
        enough to hold up a caller's event loop (more than a millisecond or two): the bot runs it on
        a thread then, and inline otherwise (a thread hop costs more than a small game's step)."""
        return False

    def resume(self, data: dict[str, JSON], tail: Iterable[tuple[int, Any]] = ()) -> S:
        """The state stored as ``data`` (``dump``) with the logged actions after it, (seat, JSON
        action) pairs in order, stepped on it: a store keeps a big state every few moves and the
        log in between. The actions were checked when they were taken; they are not checked again."""
        state = self.load(data)
        for seat, action in tail:
            self.step(state, seat, self.code_of(action))
        return state

    def canonical(self, state: S, code: Code) -> Code:
        """The one code that ``legal()`` lists for a move equivalent to ``code`` (e.g. a symmetric
        tile turned half round is the same move). Read actions go through it before ``check``."""
        return code

    def is_over(self, state: S) -> bool:
        return not self.to_move(state)

    def scores(self, state: S) -> list[int]:
        """Current score per seat (final scores once over). Games override for live scores."""
        res = self.result(state)
        if res is not None:
            return list(res.scores)
        raise NotImplementedError

    def redeal(self, state: S, seat: int | None, rng: random.Random) -> S:
        """A copy of ``state`` in which what ``seat`` cannot see (``None``: what nobody sees) is
        dealt anew at random: the order of the deck or pile, the other players' hidden cards (each
        keeps as many), the randomness state. ``view(redealt, seat)`` must equal ``view(state,
        seat)``: the conformance suite checks it to show that a view leaks nothing."""
        raise NotImplementedError

    def round_scores(self, state: S) -> list[list[int]] | None:
        """Per-round scores (one list per finished round, seat order) for games that have rounds."""
        return None

    def describe(self, code: Code) -> str:
        """A short English description of an action (logs, debugging)."""
        return str(self.encode(code))

    # -- conveniences ----------------------------------------------------------------------------

    def code_of(self, raw: Any) -> Code:
        """JSON action (dict) -> validated code. Raises BadAction."""
        model = self.parse_action(raw)
        return self.decode(model.model_dump(by_alias=True) if isinstance(model, BaseModel) else model)

    def apply(self, state: S, seat: int, raw_action: Any) -> tuple[S, Outcome]:
        """Functional apply: the given state is never modified."""
        code = self.canonical(state, self.code_of(raw_action))
        self.check(state, seat, code)
        new = self.clone(state)
        return new, self.step(new, seat, code)

    def legal_json(self, state: S, seat: int) -> list[dict[str, JSON]]:
        return [self.encode(c) for c in self.legal(state, seat)]


def _small_json(value: Any, depth: int = 0) -> bool:
    """Options are plain values: short strings, numbers of a few digits, flat lists. No deep
    nesting, no 4,000-digit integers (pydantic and int() choke on them)."""
    if value is None or isinstance(value, bool | float):
        return True
    if isinstance(value, int):
        return -(10**18) < value < 10**18
    if isinstance(value, str):
        return len(value) <= 200
    if isinstance(value, list | tuple) and depth < 2:
        return len(value) <= 50 and all(_small_json(v, depth + 1) for v in value)
    return False


def _pydantic_reason(e: ValidationError) -> str:
    parts = []
    for err in e.errors()[:3]:
        loc = ".".join(str(p) for p in err["loc"]) or "value"
        parts.append(f"{loc}: {err['msg']}")
    return "; ".join(parts)
