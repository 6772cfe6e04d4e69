"""Plans made ahead (issue 21): orders a player leaves for their coming turns. Pure, no I/O.

Each game declares, in its package's ``plans.py``, what can be planned: pydantic models (``Plan``,
a union tagged by ``kind``) and ``fire(plan, view, legal)``, which reads only the player's own view
and their legal actions (JSON, ``Game.legal_json``) and answers:

* an action (one of ``legal``, as JSON): the plan plays it for the player;
* ``None``: the plan has nothing to say about this decision (another step of the turn): ask the
  player as usual and keep the plan;
* ``Cancel(reason)``: the position is one the plan did not foresee (its condition does not hold
  exactly, the action it names is not legal): drop the plan and ask the player.

A plan can thus never learn, nor tell, anything the player could not see: whether it fires
depends on the view and the legal actions alone (tests change the hidden parts and check it).
Plans are one-shot unless the model says ``standing``; the core stores them, fires them with the
view of the seat to move, and tells the player in words what was played.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

from pydantic import TypeAdapter, ValidationError

from .core import BadAction
from .registry import _MODULES


@dataclass(frozen=True, slots=True)
class Cancel:
    """The plan did not foresee this position: it is dropped and the player asked. ``reason`` is a
    stable key (the bot words it), ``params`` what the words mention."""

    reason: str
    params: tuple[tuple[str, Any], ...] = ()


def module(game_key: str) -> Any:
    """The game's plans module (``Plan``, ``fire``, ``KINDS``)."""
    return importlib.import_module(_MODULES[game_key] + ".plans")


def parse(game_key: str, raw: Any) -> Any:
    """A plan from JSON (unknown kinds and keys refused)."""
    try:
        return TypeAdapter(module(game_key).Plan).validate_python(raw)
    except ValidationError as e:
        raise BadAction("bad_plan", f"not a plan of this game: {e.errors()[0]['msg']}") from None


def fire(game_key: str, plan: Any, view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any] | None | Cancel:
    """What ``plan`` does at this decision: an action of ``legal``, None (not this step) or Cancel."""
    out = module(game_key).fire(plan, view, legal)
    if isinstance(out, dict) and out not in legal:  # a plan only ever picks among the legal actions
        return Cancel("not_legal")
    return out


def kinds(game_key: str) -> list[str]:
    """The kinds of plan a game offers (for the bot's menus and help)."""
    return list(module(game_key).KINDS)
