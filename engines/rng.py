"""Deterministic randomness whose whole state is two integers, so it is stored with the match.

Every draw of randomness (a shuffle, a pick) uses a fresh ``random.Random`` seeded from
``(seed, n)`` and then bumps ``n``. Seeding from a string goes through SHA-512 in CPython, so the
sequence is identical across processes, machines and PYTHONHASHSEED values.
"""

from __future__ import annotations

import random
from typing import Any


class Rng:
    __slots__ = ("seed", "n")

    def __init__(self, seed: int, n: int = 0) -> None:
        self.seed = int(seed)
        self.n = int(n)

    def _next(self) -> random.Random:
        r = random.Random(f"partida/{self.seed}/{self.n}")
        self.n += 1
        return r

    def shuffle(self, items: list[Any]) -> None:
        self._next().shuffle(items)

    def randrange(self, stop: int) -> int:
        return self._next().randrange(stop)

    def to_json(self) -> dict[str, int]:
        return {"seed": self.seed, "n": self.n}

    @classmethod
    def from_json(cls, data: dict[str, int]) -> Rng:
        return cls(data["seed"], data["n"])

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Rng) and (self.seed, self.n) == (other.seed, other.n)

    def __repr__(self) -> str:
        return f"Rng({self.seed}, {self.n})"

    def __deepcopy__(self, memo: dict) -> Rng:
        return Rng(self.seed, self.n)


def fresh_seed() -> int:
    """A new random seed for a match created without one (stored, so it still replays)."""
    return random.SystemRandom().randrange(1, 2**53)
