"""Hand-written Lost Cities views (shaped like engines.lost_cities GAME.view) for the renderer tests.

Each sample is a *seat view* with a hand; ``public(view)`` turns it into the public view the
channel sees (hand=None, viewer=None). Scores are worked out here with the rulebook formula
((sum - 20) x (1 + wagers), +20 bonus for 8+ cards) so the numbers on the pictures are plausible.
"""

from __future__ import annotations

import copy
from typing import Any

COLOURS5 = ["yellow", "blue", "white", "green", "red"]
COLOURS6 = COLOURS5 + ["purple"]


def exp_score(cards: list[str]) -> int:
    if not cards:
        return 0
    wagers = sum(1 for c in cards if c.rsplit("-", 1)[1].startswith("w"))
    total = sum(int(v) for c in cards if not (v := c.rsplit("-", 1)[1]).startswith("w"))
    score = (total - 20) * (1 + wagers)
    return score + (20 if len(cards) >= 8 else 0)


def make_view(
    colours: list[str],
    expeditions: list[dict[str, list[str]]],
    discards: dict[str, list[str]],
    hand: list[str] | None,
    *,
    round_: int = 1,
    rounds: int = 3,
    phase: str = "play",
    to_move: list[int] | None = None,
    viewer: int | None = 0,
    deck: int = 30,
    round_scores: list[list[int]] | None = None,
    just_discarded: str | None = None,
    last: dict[str, Any] | None = None,
    winner: list[int] | None = None,
) -> dict[str, Any]:
    exps = [{c: list(e.get(c, [])) for c in colours} for e in expeditions]
    scores = [{c: exp_score(e[c]) for c in colours} for e in exps]
    rs = round_scores or []  # one [seat 0, seat 1] pair per finished round
    return {
        "game": "lost-cities",
        "colours": list(colours),
        "round": round_,
        "rounds": rounds,
        "phase": phase,
        "to_move": [] if phase == "over" else list(to_move if to_move is not None else [0]),
        "viewer": viewer,
        "hand": list(hand) if hand is not None else None,
        "hand_sizes": [8, 8] if phase == "play" else [8, 7],
        "deck": deck,
        "discards": {c: list(discards.get(c, [])) for c in colours},
        "expeditions": exps,
        "expedition_scores": scores,
        "round_score": [0, 0] if phase == "over" else [sum(s.values()) for s in scores],
        "round_scores": rs,
        "totals": [sum(r[p] for r in rs) for p in (0, 1)],
        "just_discarded": just_discarded,
        "last": last,
        "winner": winner,
    }


def public(view: dict[str, Any]) -> dict[str, Any]:
    v = copy.deepcopy(view)
    v["hand"] = None
    v["viewer"] = None
    return v


def early() -> dict[str, Any]:
    return make_view(
        COLOURS5,
        [{"yellow": ["yellow-w1", "yellow-4"]}, {"red": ["red-3"]}],
        {"blue": ["blue-2"]},
        ["yellow-6", "yellow-9", "blue-w2", "blue-5", "white-10", "green-w1", "green-3", "red-8"],
        deck=41,
        to_move=[0],
        last={"seat": 1, "card": "red-3", "how": "play", "draw": "deck"},
    )


def mid_long() -> dict[str, Any]:
    green = ["green-w1", "green-w2", "green-w3"] + [f"green-{v}" for v in range(2, 11)]  # 12 cards
    return make_view(
        COLOURS5,
        [
            {"green": green, "yellow": ["yellow-3", "yellow-5", "yellow-8"], "red": ["red-w2", "red-6"]},
            {
                "blue": [
                    "blue-w1",
                    "blue-2",
                    "blue-3",
                    "blue-5",
                    "blue-6",
                    "blue-7",
                    "blue-8",
                    "blue-9",
                    "blue-10",
                ],
                "white": ["white-w1", "white-w3", "white-2", "white-5", "white-6", "white-7", "white-9"],
                "red": ["red-w1", "red-w3", "red-4", "red-5", "red-7", "red-8", "red-9", "red-10"],
            },
        ],
        {"white": ["white-3", "white-4"], "yellow": ["yellow-2", "yellow-w1", "yellow-6"], "red": ["red-2"]},
        ["yellow-7", "yellow-9", "yellow-10", "blue-4", "white-8", "white-10", "red-3"],
        round_=2,
        phase="draw",
        to_move=[1],
        viewer=1,
        deck=3,
        round_scores=[[40, 12]],
        just_discarded="white",
        last={"seat": 1, "card": "white-4", "how": "discard", "draw": None},
    )


def purple() -> dict[str, Any]:
    return make_view(
        COLOURS6,
        [
            {"purple": ["purple-w1"], "blue": ["blue-4", "blue-7"], "white": ["white-w2", "white-3"]},
            {
                "yellow": ["yellow-2", "yellow-5", "yellow-6", "yellow-9"],
                "purple": ["purple-3", "purple-4"],
                "green": ["green-w3"],
            },
        ],
        {"yellow": ["yellow-3"], "red": ["red-5", "red-w2"], "purple": ["purple-2"], "green": ["green-6"]},
        ["yellow-8", "blue-2", "blue-9", "white-6", "green-5", "red-4", "red-10", "purple-8"],
        round_=1,
        deck=38,
        to_move=[1],
        viewer=0,
        last={"seat": 0, "card": "purple-w1", "how": "play", "draw": "yellow"},
    )


def game_over() -> dict[str, Any]:
    return make_view(
        COLOURS5,
        [
            {
                "yellow": ["yellow-w1", "yellow-5", "yellow-7", "yellow-8", "yellow-10"],
                "blue": ["blue-3", "blue-4"],
                "red": ["red-6", "red-7", "red-9"],
            },
            {
                "green": ["green-w1", "green-w2", "green-4", "green-6", "green-7", "green-9", "green-10"],
                "white": ["white-2", "white-8", "white-10"],
            },
        ],
        {"white": ["white-3"], "blue": ["blue-2", "blue-8"]},
        ["yellow-2", "blue-10", "white-5", "white-w1", "green-3", "green-5", "red-2", "red-10"],
        round_=3,
        phase="over",
        deck=0,
        round_scores=[[40, 3], [12, 55], [10, 38]],
        last={"seat": 1, "card": "white-10", "how": "play", "draw": "deck"},
        winner=[1],
    )


SAMPLES = {"early": early, "mid_long": mid_long, "purple": purple, "game_over": game_over}
NAMES = ["Ana", "Bruno"]
