"""A match: a game, its seats, options, seed or setup, the state and the ordered action log.

The log is the same JSON a player exports from Discord and ``python -m engines replay`` reads::

    {"format": 1, "game": "lost-cities", "seats": ["ana", "ben"], "options": {...},
     "seed": 42, "setup": null, "actions": [{"seat": 0, "action": {...}}, ...]}
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

from . import registry
from .core import BadSetup, EngineError, Game, Outcome, Result
from .rng import fresh_seed

LOG_FORMAT = 1


def seed_commitment(game: str, seed: int | None, setup: Any, salt: str) -> str:
    """The SHA-256 (hex) a match shows when it starts, before anyone has seen a card: of its game,
    seed, setup and a random ``salt`` (so the seed cannot be found by trying them all). The log
    published at the end holds all four; ``python -m engines replay`` prints this hash again."""
    text = json.dumps(
        {"game": game, "salt": salt, "seed": seed, "setup": setup}, sort_keys=True, separators=(",", ":"), ensure_ascii=False
    )
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class LogError(EngineError):
    """A match log that cannot be read or replayed; ``index`` names the failing action (or None)."""

    def __init__(self, code: str, reason: str, index: int | None = None, **params: Any) -> None:
        super().__init__(code, reason, index=index, **params)
        self.index = index


@dataclass
class Match:
    game: Game
    seats: list[str]
    options: Any
    seed: int | None
    setup: Any
    state: Any
    actions: list[dict[str, Any]] = field(default_factory=list)
    # One flag per action: did it reveal hidden information or randomness (undo boundary)?
    revealed: list[bool] = field(default_factory=list)

    # -- creation ------------------------------------------------------------------------------

    @classmethod
    def create(
        cls,
        game_key: str,
        seats: list[str],
        options: dict[str, Any] | None = None,
        seed: int | None = None,
        setup: Any = None,
    ) -> Match:
        game = registry.get(game_key)
        game.check_seats(len(seats))
        opts = game.parse_options(options)
        if setup is None and seed is None:
            seed = fresh_seed()
        if setup is not None and seed is not None:
            raise BadSetup("seed_and_setup", "give either a seed or an explicit setup, not both")
        try:
            state = game.new_state(len(seats), opts, seed, setup)
        except (TypeError, ValueError, KeyError, IndexError, OverflowError, AttributeError) as e:
            # an explicit setup is outside input: a game that missed a check still answers in one line
            if setup is None:
                raise
            raise BadSetup("bad_setup", f"the setup is malformed ({type(e).__name__})") from None
        return cls(game, list(seats), opts, seed, setup, state)

    # -- play ------------------------------------------------------------------------------------

    def apply(self, seat: int, raw_action: Any) -> Outcome:
        """Check and apply one action; on refusal the match is unchanged and EngineError is raised."""
        if not 0 <= seat < len(self.seats):
            raise EngineError("bad_seat", f"there is no seat {seat}", seat=seat)
        code = self.game.canonical(self.state, self.game.code_of(raw_action))
        self.game.check(self.state, seat, code)
        outcome = self.game.step(self.state, seat, code)
        self.actions.append({"seat": seat, "action": self.game.encode(code)})
        self.revealed.append(outcome.revealed)
        return outcome

    def apply_code(self, seat: int, code: Any) -> Outcome:
        """Fast path for AI players that already hold a legal code."""
        self.game.check(self.state, seat, code)
        outcome = self.game.step(self.state, seat, code)
        self.actions.append({"seat": seat, "action": self.game.encode(code)})
        self.revealed.append(outcome.revealed)
        return outcome

    @property
    def version(self) -> int:
        return len(self.actions)

    def to_move(self) -> tuple[int, ...]:
        return self.game.to_move(self.state)

    def legal(self, seat: int) -> list[dict[str, Any]]:
        return self.game.legal_json(self.state, seat)

    def view(self, seat: int | None) -> dict[str, Any]:
        return self.game.view(self.state, seat)

    def result(self) -> Result | None:
        return self.game.result(self.state)

    @property
    def over(self) -> bool:
        return self.game.is_over(self.state)

    # -- the log ---------------------------------------------------------------------------------

    def to_log(self) -> dict[str, Any]:
        return {
            "format": LOG_FORMAT,
            "game": self.game.key,
            "seats": list(self.seats),
            "options": self.options.model_dump(mode="json"),
            "seed": self.seed,
            "setup": self.setup,
            "actions": list(self.actions),
        }

    @classmethod
    def from_log(cls, log: Any) -> Match:
        """Rebuild a match by checking and applying every action of a log. Raises LogError."""
        if not isinstance(log, dict):
            raise LogError("bad_log", "the log must be a JSON object")
        if log.get("format") != LOG_FORMAT:
            raise LogError("bad_format", f"unsupported log format {log.get('format')!r} (expected {LOG_FORMAT})")
        for key, kind in (("game", str), ("seats", list), ("actions", list)):
            if not isinstance(log.get(key), kind):
                raise LogError("bad_log", f"the log needs {key!r} as a JSON {kind.__name__}")
        seed = log.get("seed")
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
            raise LogError("bad_log", "'seed' must be an integer or null")
        if seed is None and log.get("setup") is None:
            raise LogError("bad_log", "the log needs a 'seed' or a 'setup' to replay")
        options = log.get("options") or {}
        if not isinstance(options, dict):
            raise LogError("bad_log", "'options' must be a JSON object")
        try:
            match = cls.create(log["game"], [str(s) for s in log["seats"]], options, seed, log.get("setup"))
        except EngineError as e:
            raise LogError(e.code, e.reason) from None
        for i, entry in enumerate(log["actions"]):
            if not isinstance(entry, dict) or not isinstance(entry.get("seat"), int) or "action" not in entry:
                raise LogError("bad_log", f"action {i}: each entry needs 'seat' (integer) and 'action'", i)
            try:
                match.apply(entry["seat"], entry["action"])
            except EngineError as e:
                raise LogError(e.code, f"action {i}: {e.reason}", i) from None
        return match
