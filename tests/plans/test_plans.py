"""engines/*/plans.py: what each game lets a player plan, and ``fire`` reading only the player's
view and legal actions (issue 21). Positions come from seeded matches played by the easy AI; each
firing is checked again on copies whose hidden parts are dealt anew: it never changes."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from engines import plans, registry
from engines.ai import player
from engines.core import BadAction
from engines.plans import Cancel


def _positions(key: str, n: int, seed: int, options: dict | None = None) -> Iterator[tuple[Any, Any, int]]:
    """(game, state, seat to move) at every decision of a seeded easy-AI match."""
    game = registry.get(key)
    state = game.new_state(n, game.parse_options(options or {}), seed, None)
    rng = random.Random(seed)
    ais = [player(key, "easy") for _ in range(n)]
    while game.to_move(state):
        seat = game.to_move(state)[0]
        yield game, state, seat
        game.step(state, seat, ais[seat].choose(game, state, seat, rng))


def _fire(key: str, plan: Any, game: Any, state: Any, seat: int) -> Any:
    return plans.fire(key, plan, game.view(state, seat), game.legal_json(state, seat))


def _same_when_hidden_changes(key: str, plan: Any, game: Any, state: Any, seat: int) -> Any:
    """Fire on the real position and on five copies with everything the seat cannot see dealt anew."""
    out = _fire(key, plan, game, state, seat)
    for k in range(5):
        other = game.redeal(state, seat, random.Random(k))
        assert _fire(key, plan, game, other, seat) == out
    return out


def test_plans_are_parsed_per_game_and_unknown_ones_refused():
    assert plans.kinds("lost-cities") == ["take_if_discarded", "draw_deck"]
    assert plans.parse("citadels", {"kind": "draft", "priority": ["architect", "merchant"]}).priority == ["architect", "merchant"]
    for key, raw in [
        ("lost-cities", {"kind": "take_if_discarded", "card": "red-77"}),
        ("lost-cities", {"kind": "draw_deck", "extra": 1}),
        ("carcassonne", {"kind": "take_lot", "row": "B", "items": []}),
        ("cities", {"kind": "take_lot", "row": "E", "items": []}),
    ]:
        with pytest.raises(BadAction):
            plans.parse(key, raw)


def test_lost_cities_take_the_discard_if_it_is_there_else_the_deck():
    seen = set()
    for game, state, seat in _positions("lost-cities", 2, 7):
        view = game.view(state, seat)
        if view["phase"] == "play":
            plan = plans.parse("lost-cities", {"kind": "draw_deck"})
            assert _same_when_hidden_changes("lost-cities", plan, game, state, seat) is None
            continue
        legal = game.legal_json(state, seat)
        tops = [pile[-1] for c, pile in view["discards"].items() if pile and {"type": "draw", "from": c} in legal]
        if tops and "take" not in seen:
            plan = plans.parse("lost-cities", {"kind": "take_if_discarded", "card": tops[0]})
            assert _same_when_hidden_changes("lost-cities", plan, game, state, seat) == {"type": "draw", "from": tops[0].split("-")[0]}
            seen.add("take")
        missing = next(c for c in ("red-2", "red-3", "blue-2", "blue-3") if c not in tops)
        plan = plans.parse("lost-cities", {"kind": "take_if_discarded", "card": missing})
        strict = plans.parse("lost-cities", {"kind": "take_if_discarded", "card": missing, "otherwise": None})
        if {"type": "draw", "from": "deck"} in legal:
            assert _same_when_hidden_changes("lost-cities", plan, game, state, seat) == {"type": "draw", "from": "deck"}
            assert isinstance(_same_when_hidden_changes("lost-cities", strict, game, state, seat), Cancel)
            seen.add("else")
        if len(seen) == 2:
            break
    assert seen == {"take", "else"}


def test_carcassonne_only_place_and_no_follower():
    several = single = 0
    for seed in range(6):
        for game, state, seat in _positions("carcassonne", 2, seed):
            legal = game.legal_json(state, seat)
            spots = {(a["x"], a["y"], a["rot"]) for a in legal if a.get("type") == "place"}
            only = plans.parse("carcassonne", {"kind": "only_place"})
            never = plans.parse("carcassonne", {"kind": "no_follower"})
            if len(spots) > 1 and several < 3:
                assert isinstance(_same_when_hidden_changes("carcassonne", only, game, state, seat), Cancel)
                assert _same_when_hidden_changes("carcassonne", never, game, state, seat) is None
                mod = plans.module("carcassonne")
                assert [a for a in legal if mod.allows(never, a)] == [a for a in legal if not a.get("meeple")]
                several += 1
            elif len(spots) == 1:
                (x, y, rot), = spots
                out = _same_when_hidden_changes("carcassonne", only, game, state, seat)
                assert out == {"type": "place", "x": x, "y": y, "rot": rot, "meeple": None}
                assert _same_when_hidden_changes("carcassonne", never, game, state, seat) == out
                single += 1
        if several >= 3 and single >= 1:
            break
    assert several >= 3 and single >= 1, (several, single)


def test_citadels_draft_priority_with_fallbacks_and_targets():
    drafted = targeted = 0
    for game, state, seat in _positions("citadels", 4, 5):
        legal = game.legal_json(state, seat)
        offered = [a["character"] for a in legal if a.get("type") == "draft"]
        if offered and drafted < 4:
            gone = [c for c in game.view(state, seat)["characters"] if c not in offered]
            plan = plans.parse("citadels", {"kind": "draft", "priority": [*gone[:2], offered[-1], offered[0]]})
            assert _same_when_hidden_changes("citadels", plan, game, state, seat) == {"type": "draft", "character": offered[-1]}
            if gone:
                nothing = plans.parse("citadels", {"kind": "draft", "priority": gone})
                assert isinstance(_same_when_hidden_changes("citadels", nothing, game, state, seat), Cancel)
            drafted += 1
        victims = [a["character"] for a in legal if a.get("type") == "murder"]
        if victims:
            view = game.view(state, seat)
            plan = plans.parse("citadels", {"kind": "targets", "murder": [*view["face_up"], victims[-1]]})
            # a face-up character is out of the round: the list falls through to the next name
            assert _same_when_hidden_changes("citadels", plan, game, state, seat) == {"type": "murder", "character": victims[-1]}
            targeted += 1
        if drafted >= 4 and targeted:
            break
    assert drafted >= 4 and targeted >= 1


def test_cities_take_row_b_first_lot_if_it_is_still_there():
    fired = cancelled = 0
    for game, state, seat in _positions("cities", 3, 2):
        legal = game.legal_json(state, seat)
        if not any(a.get("type") == "take" for a in legal):
            continue
        view = game.view(state, seat)
        lot = plans.module("cities").lot(view, "B", 0)
        plan = plans.parse("cities", {"kind": "take_lot", "row": "B", "slot": 0, "items": list(lot["items"]), "round": view["round"]})
        out = _same_when_hidden_changes("cities", plan, game, state, seat)
        if lot["worker"] is None and not lot["hidden"]:
            assert out == {"type": "take", "row": "B", "slot": 0}
            fired += 1
            # the lot shows something else than when the plan was made: cancelled
            other = plans.parse("cities", {"kind": "take_lot", "row": "B", "slot": 0, "items": ["T99"], "round": view["round"]})
            assert isinstance(_same_when_hidden_changes("cities", other, game, state, seat), Cancel)
        else:
            assert isinstance(out, Cancel)
            cancelled += 1
        if fired >= 2 and cancelled >= 2:
            break
    assert fired >= 2 and cancelled >= 2
