"""Build explicit Lost Cities setups for scenario tests."""

from engines.lost_cities import CARD_NAMES, GAME, SLOTS
from engines.match import Match


def all_cards(colours: int = 5) -> list[str]:
    return CARD_NAMES[: colours * SLOTS]


def round_setup(hand0: list[str], hand1: list[str], deck_top: list[str] = (), colours: int = 5) -> dict:
    """One round: the given hands (padded to 8 from unused cards), the deck starting with deck_top."""
    used = set(hand0) | set(hand1) | set(deck_top)
    spare = [c for c in all_cards(colours) if c not in used]
    h0 = list(hand0) + [spare.pop() for _ in range(8 - len(hand0))]
    h1 = list(hand1) + [spare.pop() for _ in range(8 - len(hand1))]
    return {"hands": [h0, h1], "deck": list(deck_top) + spare}


def scenario(hand0, hand1, deck_top=(), rounds=1, purple=False) -> Match:
    colours = 6 if purple else 5
    setup = {"rounds": [round_setup(hand0, hand1, deck_top, colours) for _ in range(rounds)]}
    return Match.create("lost-cities", ["ana", "ben"], {"rounds": rounds, "purple": purple}, setup=setup)


def dump(state) -> dict:
    """``GAME.dump`` without "taken" (the cards the hands took from the piles): the fast and native
    playout states do not track them, so states converted from them always have none."""
    return {k: v for k, v in GAME.dump(state).items() if k != "taken"}
