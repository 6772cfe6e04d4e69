"""Lost Cities plans (issue 21), read from the player's view and legal actions only.

* ``take_if_discarded``: "if they discard the red 7, take it; else draw from the deck": at my
  draw, the card on top of its discard pile (put there by the other player) is taken; otherwise
  the deck (``otherwise="deck"``) or, with ``otherwise=None``, the plan is cancelled.
* ``draw_deck``: "after I play, draw from the deck".
Both are for the next draw and are then used up.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, field_validator

from ..core import StrictModel
from ..plans import Cancel
from . import CARD_IDS


class TakeIfDiscarded(StrictModel):
    kind: Literal["take_if_discarded"]
    card: str
    otherwise: Literal["deck"] | None = "deck"

    @field_validator("card")
    @classmethod
    def _known(cls, card: str) -> str:
        if card not in CARD_IDS:
            raise ValueError(f"unknown card {card!r}")
        return card


class DrawDeck(StrictModel):
    kind: Literal["draw_deck"]


Plan = Annotated[TakeIfDiscarded | DrawDeck, Field(discriminator="kind")]
KINDS = ("take_if_discarded", "draw_deck")
DECK = {"type": "draw", "from": "deck"}


def fire(plan: Any, view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any] | None | Cancel:
    if view.get("phase") != "draw":
        return None  # the play is the player's own
    if isinstance(plan, TakeIfDiscarded):
        colour = plan.card.split("-")[0]
        pile = view["discards"].get(colour) or []
        take = {"type": "draw", "from": colour}
        if pile and pile[-1] == plan.card and take in legal:
            return take
        if plan.otherwise is None:
            return Cancel("card_not_there", (("card", plan.card),))
    return DECK if DECK in legal else Cancel("deck_empty")
