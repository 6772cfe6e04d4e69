"""Carcassonne plans (issue 21), read from the player's view and legal actions only.

* ``only_place``: "if my tile fits in only one place, place it there" (with no follower unless
  ``follower`` names the feature to occupy): fires when every legal placement of the drawn tile
  is at one spot and turn; cancelled when the tile fits in several places.
* ``no_follower``: "never place a follower this turn": it picks no placement itself (the player
  still chooses where), it narrows the player's choices (``allows``); when the tile fits in one
  place only, it plays that place without a follower.
Both are for the next turn.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from ..core import StrictModel
from ..plans import Cancel


class OnlyPlace(StrictModel):
    kind: Literal["only_place"]
    follower: str | None = None  # a feature id of the tile ("c0", "r1", "m", ...) or none


class NoFollower(StrictModel):
    kind: Literal["no_follower"]


Plan = Annotated[OnlyPlace | NoFollower, Field(discriminator="kind")]
KINDS = ("only_place", "no_follower")
LASTS = "turn"  # a plan is for the owner's next turn: once that turn has begun and passed, it lapses


def _spots(legal: list[dict[str, Any]]) -> set[tuple[int, int, int]]:
    return {(a["x"], a["y"], a["rot"]) for a in legal if a.get("type") == "place"}


def allows(plan: Any, action: dict[str, Any]) -> bool:
    """Whether the player may still choose ``action`` under the plan (the bot's menu filter)."""
    return not (isinstance(plan, NoFollower) and action.get("type") == "place" and action.get("meeple"))


def fire(plan: Any, view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any] | None | Cancel:
    places = [a for a in legal if a.get("type") == "place"]
    if not places:
        return None  # another step (the Medina, a tile to choose): the player's own
    spots = _spots(places)
    if len(spots) != 1:
        if isinstance(plan, NoFollower):
            return None  # the player chooses where, without a follower
        return Cancel("fits_several", (("spots", len(spots)),))
    want = plan.follower if isinstance(plan, OnlyPlace) else None
    pick = next((a for a in places if a.get("meeple") == want), None)
    return pick if pick is not None else Cancel("follower_not_possible", (("follower", want),))
