"""Static Citadels (classic) data: district kinds, the district cards, the characters.

District cards are numbered 0..79 inside the engine; at the JSON boundary each copy has a stable id
``"<kind>#<copy>"`` (``"tavern#3"`` is the third Tavern, copies count from 1). Cards 0..65 are the
66 base cards, 66..79 the 14 Dark City purple districts.
"""

from __future__ import annotations

COLOURS = ("yellow", "blue", "green", "red", "purple")

# kind, colour, cost, copies, points (None = cost), set
_KINDS: list[tuple[str, str, int, int, int | None, str]] = [
    ("manor", "yellow", 3, 5, None, "base"),
    ("castle", "yellow", 4, 4, None, "base"),
    ("palace", "yellow", 5, 3, None, "base"),
    ("temple", "blue", 1, 3, None, "base"),
    ("church", "blue", 2, 3, None, "base"),
    ("monastery", "blue", 3, 3, None, "base"),
    ("cathedral", "blue", 5, 2, None, "base"),
    ("tavern", "green", 1, 5, None, "base"),
    ("market", "green", 2, 4, None, "base"),
    ("trading_post", "green", 2, 3, None, "base"),
    ("docks", "green", 3, 3, None, "base"),
    ("harbor", "green", 4, 3, None, "base"),
    ("town_hall", "green", 5, 2, None, "base"),
    ("watchtower", "red", 1, 3, None, "base"),
    ("prison", "red", 2, 3, None, "base"),
    ("battlefield", "red", 3, 3, None, "base"),
    ("fortress", "red", 5, 2, None, "base"),
    ("haunted_city", "purple", 2, 1, None, "base"),
    ("keep", "purple", 3, 2, None, "base"),
    ("laboratory", "purple", 5, 1, None, "base"),
    ("smithy", "purple", 5, 1, None, "base"),
    ("observatory", "purple", 5, 1, None, "base"),
    ("graveyard", "purple", 5, 1, None, "base"),
    ("dragon_gate", "purple", 6, 1, 8, "base"),
    ("university", "purple", 6, 1, 8, "base"),
    ("library", "purple", 6, 1, None, "base"),
    ("great_wall", "purple", 6, 1, None, "base"),
    ("school_of_magic", "purple", 6, 1, None, "base"),
    # Dark City bonus purple districts (option dark_city)
    ("lighthouse", "purple", 3, 1, None, "dark_city"),
    ("armory", "purple", 3, 1, None, "dark_city"),
    ("museum", "purple", 4, 1, None, "dark_city"),
    ("imperial_treasury", "purple", 4, 1, None, "dark_city"),
    ("map_room", "purple", 5, 1, None, "dark_city"),
    ("wishing_well", "purple", 5, 1, None, "dark_city"),
    ("quarry", "purple", 5, 1, None, "dark_city"),
    ("poor_house", "purple", 5, 1, None, "dark_city"),
    ("bell_tower", "purple", 5, 1, None, "dark_city"),
    ("factory", "purple", 6, 1, None, "dark_city"),
    ("park", "purple", 6, 1, None, "dark_city"),
    ("hospital", "purple", 6, 1, None, "dark_city"),
    ("throne_room", "purple", 6, 1, None, "dark_city"),
    ("ball_room", "purple", 6, 1, None, "dark_city"),
]

KINDS: tuple[str, ...] = tuple(k[0] for k in _KINDS)
KIND_COLOUR: dict[str, str] = {k[0]: k[1] for k in _KINDS}
KIND_COST: dict[str, int] = {k[0]: k[2] for k in _KINDS}
KIND_COPIES: dict[str, int] = {k[0]: k[3] for k in _KINDS}
KIND_POINTS: dict[str, int] = {k[0]: (k[4] if k[4] is not None else k[2]) for k in _KINDS}
KIND_SET: dict[str, str] = {k[0]: k[5] for k in _KINDS}

# Per card (index = card number)
CARD_KIND: list[str] = []
CARD_ID: list[str] = []
for _k in _KINDS:
    for _i in range(_k[3]):
        CARD_KIND.append(_k[0])
        CARD_ID.append(f"{_k[0]}#{_i + 1}")
CARD_COLOUR: list[str] = [KIND_COLOUR[k] for k in CARD_KIND]
CARD_COST: list[int] = [KIND_COST[k] for k in CARD_KIND]
CARD_POINTS: list[int] = [KIND_POINTS[k] for k in CARD_KIND]
CARD_OF_ID: dict[str, int] = {cid: i for i, cid in enumerate(CARD_ID)}

BASE_CARDS = tuple(i for i, k in enumerate(CARD_KIND) if KIND_SET[k] == "base")
DARK_CITY_CARDS = tuple(i for i, k in enumerate(CARD_KIND) if KIND_SET[k] == "dark_city")
assert len(BASE_CARDS) == 66 and len(DARK_CITY_CARDS) == 14

# Characters: id -> rank. Base first, then the Dark City alternates, then rank 9.
BASE_CHARACTERS = ("assassin", "thief", "magician", "king", "bishop", "merchant", "architect", "warlord")
ALT_CHARACTERS = (
    "witch",
    "tax_collector",
    "wizard",
    "emperor",
    "abbot",
    "alchemist",
    "navigator",
    "diplomat",
)
RANK9_CHARACTERS = ("artist", "queen")
CHARACTERS = BASE_CHARACTERS + ALT_CHARACTERS + RANK9_CHARACTERS
RANK: dict[str, int] = {}
for _r, (_b, _a) in enumerate(zip(BASE_CHARACTERS, ALT_CHARACTERS, strict=True), start=1):
    RANK[_b] = _r
    RANK[_a] = _r
RANK["artist"] = RANK["queen"] = 9

# The colour whose districts give a character gold (collect action)
INCOME_COLOUR = {
    "king": "yellow",
    "emperor": "yellow",
    "bishop": "blue",
    "abbot": "blue",
    "merchant": "green",
    "warlord": "red",
    "diplomat": "red",
}


def card_json(card: int) -> dict:
    """A district card as the views show it."""
    kind = CARD_KIND[card]
    return {
        "id": CARD_ID[card],
        "kind": kind,
        "colour": CARD_COLOUR[card],
        "cost": CARD_COST[card],
        "points": CARD_POINTS[card],
    }
