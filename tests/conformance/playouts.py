"""Random playouts of every registered game, variant and seat count, shared by the conformance tests.

A case is ``(game key, options, seats)``: the options come from the game's ``variants`` and the seat
counts are the fewest, one more, and the most the game allows. A new game that registers in
:mod:`engines.registry` is played here without anything else to write.
"""

from __future__ import annotations

import json
import random
import zlib
from functools import cache
from typing import Any

from engines import registry
from engines.match import Match

MAX_ACTIONS = 20_000  # a random match longer than this is stuck, not long
SAMPLES = 6  # positions per playout at which the heavier checks run


def cases() -> list[tuple[str, str, int]]:
    """(game, options as JSON, seats) for every game present in this build."""
    out = []
    for key in registry.available():
        game = registry.get(key)
        seats = sorted({game.min_players, min(game.min_players + 1, game.max_players), game.max_players})
        for options in game.variants:
            for n in seats:
                out.append((key, json.dumps(options, sort_keys=True), n))
    return out


def case_id(case: tuple[str, str, int]) -> str:
    key, options, n = case
    opts = ",".join(f"{k}={v}" for k, v in json.loads(options).items()) or "default"
    return f"{key}[{opts}]x{n}"


def seed_of(case: tuple[str, str, int]) -> int:
    return zlib.crc32(repr(case).encode())


@cache
def playout(case: tuple[str, str, int]) -> tuple[dict[str, Any], tuple[int, ...]]:
    """A whole match of random legal moves (chosen through the JSON boundary) and the action
    indices at which to look closer. Raises AssertionError if the match gets stuck."""
    key, options, n = case
    rng = random.Random(seed_of(case))
    match = Match.create(key, [f"p{i}" for i in range(n)], json.loads(options), seed=seed_of(case) % 10_000)
    game = match.game
    while not match.over:
        assert len(match.actions) < MAX_ACTIONS, f"{case_id(case)}: no end after {MAX_ACTIONS} actions"
        movers = match.to_move()
        assert movers and set(movers) <= set(range(n)), movers
        seat = rng.choice(movers)
        code = rng.choice(game.legal(match.state, seat))
        outcome = match.apply(seat, game.encode(code))
        check_outcome(outcome, n)
    total = len(match.actions)
    picks = {0, total} | {rng.randrange(total + 1) for _ in range(SAMPLES - 2)}
    return match.to_log(), tuple(sorted(picks))


def check_outcome(outcome: Any, n: int) -> None:
    """Events are JSON, name real seats, and a private event's public form carries no data."""
    for event in outcome.events:
        json.dumps(event.to_json())
        assert event.seat is None or 0 <= event.seat < n, event
        if event.private_to is not None:
            assert all(0 <= s < n for s in event.private_to) and event.public().data == {}, event
    assert isinstance(outcome.revealed, bool)


def match_at(case: tuple[str, str, int], index: int) -> Match:
    """The playout's match after its first ``index`` actions."""
    log, _ = playout(case)
    return Match.from_log({**log, "actions": log["actions"][:index]})


def seen_actions(case: tuple[str, str, int]) -> list[dict[str, Any]]:
    """Every distinct JSON action of the playout (candidates to try on other positions)."""
    log, _ = playout(case)
    out: dict[str, dict[str, Any]] = {}
    for entry in log["actions"]:
        out.setdefault(json.dumps(entry["action"], sort_keys=True), entry["action"])
    return list(out.values())
