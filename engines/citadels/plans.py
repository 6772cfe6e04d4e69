"""Citadels plans (issue 21), read from the player's view and legal actions only.

* ``draft``: the draft priority (``/partida prefer``, kept): the first character of ``priority``
  still offered is taken ("if the Architect is gone, the Merchant"); with two players the
  character to set aside follows ``discard`` the same way. Cancelled when none of the list is
  offered; ``standing`` plans serve every round.
* ``targets``: whom the Assassin names, the Thief robs (characters, first legal one), whose city
  the Warlord hits (seats, first one with a district he may destroy: the cheapest). It fires when
  the ability may be used and says nothing about the rest of the turn.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from ..core import StrictModel
from ..plans import Cancel


class Draft(StrictModel):
    kind: Literal["draft"]
    priority: list[str] = Field(min_length=1, max_length=18)
    discard: list[str] = Field(default_factory=list, max_length=18)
    standing: bool = False


class Targets(StrictModel):
    kind: Literal["targets"]
    murder: list[str] = Field(default_factory=list, max_length=18)
    rob: list[str] = Field(default_factory=list, max_length=18)
    destroy: list[int] = Field(default_factory=list, max_length=8)  # seats, in order
    standing: bool = False


Plan = Annotated[Draft | Targets, Field(discriminator="kind")]
KINDS = ("draft", "targets")


def _first(kind: str, wanted: list[str], legal: list[dict[str, Any]]) -> dict[str, Any] | None:
    offered = {a["character"]: a for a in legal if a.get("type") == kind}
    return next((offered[c] for c in wanted if c in offered), None)


def fire(plan: Any, view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any] | None | Cancel:
    if isinstance(plan, Draft):
        if any(a.get("type") == "draft" for a in legal):
            return _first("draft", plan.priority, legal) or Cancel("none_offered")
        if any(a.get("type") == "discard_character" for a in legal):
            if not plan.discard:
                return None
            return _first("discard_character", plan.discard, legal) or Cancel("none_offered")
        return None
    if plan.murder and any(a.get("type") == "murder" for a in legal):
        return _first("murder", plan.murder, legal) or Cancel("no_target")
    if plan.rob and any(a.get("type") == "rob" for a in legal):
        return _first("rob", plan.rob, legal) or Cancel("no_target")
    if plan.destroy and any(a.get("type") == "destroy" for a in legal):
        owner = {d["id"]: p["seat"] for p in view["players"] for d in p["city"]}
        cost = {d["id"]: d["cost"] for p in view["players"] for d in p["city"]}
        for seat in plan.destroy:
            hits = [a for a in legal if a.get("type") == "destroy" and owner.get(a["district"]) == seat]
            if hits:
                return min(hits, key=lambda a: (cost[a["district"]], a["district"]))
        return Cancel("no_target")
    return None
