"""Citadels options and JSON actions (pydantic, strict)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import ConfigDict, Field

from ..core import StrictModel
from .cards import CHARACTERS


class _Strict(StrictModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class Options(_Strict):
    """Match options. Each ``rankN`` picks the base character or its Dark City alternate.

    ``rank9``: None = automatic (the Queen is added with 8 players, nobody with fewer);
    "none" = no rank-9 character (refused with 8 players); "artist" / "queen" = include it
    (the Queen needs 5+ players).
    """

    dark_city: bool = False
    rank1: Literal["assassin", "witch"] = "assassin"
    rank2: Literal["thief", "tax_collector"] = "thief"
    rank3: Literal["magician", "wizard"] = "magician"
    rank4: Literal["king", "emperor"] = "king"
    rank5: Literal["bishop", "abbot"] = "bishop"
    rank6: Literal["merchant", "alchemist"] = "merchant"
    rank7: Literal["architect", "navigator"] = "architect"
    rank8: Literal["warlord", "diplomat"] = "warlord"
    rank9: Literal["artist", "queen", "none"] | None = None
    districts_to_end: Literal[7, 8] = 8
    # "any": as the seed says, a called player does the action (gold or cards), the builds and the
    # character's power in any order; "classic": the action first, and the Warlord, Diplomat and
    # Navigator powers only after it (the Warlord and Diplomat then end the building).
    turn_order: Literal["any", "classic"] = "any"


CharacterId = Literal[CHARACTERS]  # type: ignore[valid-type]


class Draft(_Strict):
    type: Literal["draft"]
    character: CharacterId


class DiscardCharacter(_Strict):
    type: Literal["discard_character"]
    character: CharacterId


class Income(_Strict):
    type: Literal["income"]
    take: Literal["gold", "cards"]


class Keep(_Strict):
    type: Literal["keep"]
    card: str


class Build(_Strict):
    type: Literal["build"]
    district: str


class EndTurn(_Strict):
    type: Literal["end_turn"]


class Thank(_Strict):
    type: Literal["thank"]


class Collect(_Strict):
    type: Literal["collect"]


class Murder(_Strict):
    type: Literal["murder"]
    character: CharacterId


class Bewitch(_Strict):
    type: Literal["bewitch"]
    character: CharacterId


class Rob(_Strict):
    type: Literal["rob"]
    character: CharacterId


class SwapHands(_Strict):
    type: Literal["swap_hands"]
    seat: int


class MagicianDiscard(_Strict):
    type: Literal["magician_discard"]
    card: str


class MagicianDraw(_Strict):
    type: Literal["magician_draw"]


class WizardLook(_Strict):
    type: Literal["wizard_look"]
    seat: int


class WizardTake(_Strict):
    type: Literal["wizard_take"]
    card: str
    build: bool = False


class GiveCrown(_Strict):
    type: Literal["give_crown"]
    seat: int


class Tribute(_Strict):
    type: Literal["tribute"]
    pay: Literal["gold", "card"]
    card: str | None = None


class AbbotTake(_Strict):
    type: Literal["abbot_take"]
    seat: int


class Navigate(_Strict):
    type: Literal["navigate"]
    take: Literal["gold", "cards"]


class Destroy(_Strict):
    type: Literal["destroy"]
    district: str


class Exchange(_Strict):
    type: Literal["exchange"]
    give: str
    take: str


class Beautify(_Strict):
    type: Literal["beautify"]
    district: str


class Laboratory(_Strict):
    type: Literal["laboratory"]
    card: str


class Smithy(_Strict):
    type: Literal["smithy"]


class Museum(_Strict):
    type: Literal["museum"]
    card: str


class Armory(_Strict):
    type: Literal["armory"]
    district: str


class Graveyard(_Strict):
    type: Literal["graveyard"]
    take: bool


class Lighthouse(_Strict):
    type: Literal["lighthouse"]
    card: str


class BellTower(_Strict):
    type: Literal["bell_tower"]
    announce: bool


Action = Annotated[
    Draft
    | DiscardCharacter
    | Income
    | Keep
    | Build
    | EndTurn
    | Thank
    | Collect
    | Murder
    | Bewitch
    | Rob
    | SwapHands
    | MagicianDiscard
    | MagicianDraw
    | WizardLook
    | WizardTake
    | GiveCrown
    | Tribute
    | AbbotTake
    | Navigate
    | Destroy
    | Exchange
    | Beautify
    | Laboratory
    | Smithy
    | Museum
    | Armory
    | Graveyard
    | Lighthouse
    | BellTower,
    Field(discriminator="type"),
]
