"""Build hand-made Carcassonne tables for scenario tests (Given a board, When a tile is placed...)."""

from engines.carcassonne import GAME
from engines.carcassonne import tiles as T
from engines.match import Match


def tile(letter: str, x: int, y: int, rot: int = 0, seat: int | None = None, feature: str | None = None) -> dict:
    entry = {"tile": letter, "x": x, "y": y, "rot": rot}
    if seat is not None:
        entry["meeple"] = {"seat": seat, "feature": feature}
    return entry


def sets_for(board: list[dict], pile: list[str]) -> int:
    """The fewest copies of the tile set that hold every tile of a scenario (setups are checked)."""
    letters = [e["tile"] for e in board] + list(pile)
    return max(1, *(-(-letters.count(x) // T.COUNTS[T.INDEX[x]]) for x in set(letters) if x != "medina"))


def scenario(board: list[dict], pile: list[str], seats: int = 2, **options) -> Match:
    """A match whose table starts as ``board`` (first entry anywhere) and whose pile is ``pile``.
    Unless ``sets`` is given, the table uses as many tile sets as the scenario's tiles need."""
    names = ["ana", "ben", "cai", "dru", "eva", "fil"][:seats]
    options.setdefault("sets", sets_for(board, pile))
    return Match.create("carcassonne", names, options, setup={"board": board, "pile": pile})


def place(match: Match, x: int, y: int, rot: int = 0, meeple: str | None = None):
    seat = match.to_move()[0]
    return match.apply(seat, {"type": "place", "x": x, "y": y, "rot": rot, "meeple": meeple})


def kinds(outcome) -> list[str]:
    return [e.kind for e in outcome.events]


def scored(outcome) -> list[dict]:
    return [e.data for e in outcome.events if e.kind == "scored"]


def dump(match: Match) -> dict:
    return GAME.dump(match.state)
