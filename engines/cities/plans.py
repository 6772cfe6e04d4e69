"""Cities plans (issue 21), read from the player's view and legal actions only.

* ``take_lot``: "take row B's first lot if it is still there": at my next worker, the lot is taken
  when that slot is free and shows exactly the items it showed when the plan was made (``items``,
  as the view lists them); anything else (taken, dealt anew, a hidden item) cancels the plan.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from ..core import StrictModel
from ..plans import Cancel


class TakeLot(StrictModel):
    kind: Literal["take_lot"]
    row: Literal["A", "B", "C", "D"]
    slot: int = Field(0, ge=0, le=3)
    items: list[str]
    round: int | None = None  # the round the plan was made in (a new round deals new lots)


Plan = Annotated[TakeLot, Field(discriminator="kind")]
KINDS = ("take_lot",)


def lot(view: dict[str, Any], row: str, slot: int) -> dict[str, Any] | None:
    """The slot as the view shows it (items, hidden count, worker)."""
    for r in view["rows"]:
        if r["row"] == row:
            return next((s for s in r["slots"] if s["slot"] == slot), None)
    return None


def fire(plan: Any, view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any] | None | Cancel:
    take = {"type": "take", "row": plan.row, "slot": plan.slot}
    if not any(a.get("type") == "take" for a in legal):
        return None  # placing what was taken: the player's own
    if plan.round is not None and view["round"] != plan.round:
        return Cancel("new_round")
    there = lot(view, plan.row, plan.slot)
    if there is None or there["worker"] is not None or there["hidden"] or list(there["items"]) != list(plan.items):
        return Cancel("lot_gone", (("row", plan.row), ("slot", plan.slot)))
    return take if take in legal else Cancel("not_legal")
