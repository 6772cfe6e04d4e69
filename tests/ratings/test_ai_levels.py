"""Ratings order the AI levels (issue 21): a few hundred seeded matches between the levels, each
rated as the bot rates a finished match (``rate_rows``, the rows carried from match to match as
the store keeps them).

Carcassonne orders all four levels, strong > normal > easy > random: its levels differ in how far
they look (normal and strong run the same one-turn expectimax on 2 and 4 of greedy's candidate
placements here; at the bot's time budgets they look at ~4 and ~12-16) and strong beats normal
at these budgets too (docs/benchmarks.md "Issue 21", 2026-12-04: 28/40 and 25/40 on two seed sets,
22/30 on a third). A two-player match costs ~0.02 s of CPU (random-easy), ~0.7 s (easy-normal)
and ~1.5 s (normal-strong); the 272 matches below ~80 s. Rated in this order (each pair's
matches in a block), 40 easy-normal and 32 normal-strong matches order the levels on both seed
sets measured; 30 and 30 did not on the second (normal below easy).

Lost Cities orders random < easy < normal with a 20-iteration search; its strong level is left
out: at budgets a test can afford (and at the bot's time budgets, docs/benchmarks.md) it is not
measurably stronger than normal (one-round matches, seeds 0-39: normal 20 vs strong 150
iterations 18-20 with 2 ties; 30 vs 120: 20-20; 20 vs 300, seeds 9000-9019: strong 7/20)."""

from __future__ import annotations

import random

import pytest

from bot.core import ratings
from bot.store.base import FinishedMatch, RatingRow
from engines import registry
from engines.ai import play_out, player


def _play(key: str, options: dict, budget: dict[str, int], a: str, b: str, seed: int) -> tuple[tuple[int, ...], ...]:
    game = registry.get(key)
    state = game.new_state(2, game.parse_options(options), seed, None)
    seats = [player(key, kind, iterations=budget.get(kind)) for kind in (a, b)]
    play_out(game, state, seats, random.Random(seed))
    return game.result(state).ranking


def _rated(key: str, options: dict, budget: dict[str, int], schedule: list[tuple[str, str, int, int]]) -> dict[str, RatingRow]:
    """Every match of ``schedule`` ((level, level, matches, first seed): each level plays both
    seats in turn), rated in that order."""
    pairs = [((a, b) if i % 2 == 0 else (b, a), seed + i) for a, b, n, seed in schedule for i in range(n)]
    rows: dict[str, RatingRow] = {}
    for match_id, ((x, y), seed) in enumerate(pairs, 1):
        ranking = _play(key, options, budget, x, y, seed)
        seats = [{"user_id": None, "ai": x, "name": x}, {"user_id": None, "ai": y, "name": y}]
        fin = ratings.finished_match(match_id, key, None, seats, ranking)
        assert isinstance(fin, FinishedMatch)
        for r in ratings.rate_rows(fin, list(rows.values())):
            rows[r.player] = r
    assert sum(r.matches for r in rows.values()) == 2 * len(pairs) == 2 * sum(n for *_, n, _ in schedule)
    return rows


def _assert_ordered(rows: dict[str, RatingRow], levels: list[str]) -> None:
    keys = [ratings.ai_key(level) for level in levels]
    shown = {p: (round(r.mu, 1), round(r.sigma, 2), round(r.ordinal, 1)) for p, r in rows.items()}
    mu = [rows[k].mu for k in keys]
    assert mu == sorted(mu) and len(set(mu)) == len(mu), shown
    ordinal = [rows[k].ordinal for k in keys]
    assert ordinal == sorted(ordinal) and len(set(ordinal)) == len(ordinal), shown
    # the levels' uncertainty has shrunk with the matches
    assert all(r.sigma < 0.8 * ratings.SIGMA for r in rows.values()), shown


@pytest.mark.slow
def test_ratings_order_random_easy_normal():
    schedule = [("random", "easy", 120, 1001), ("easy", "normal", 120, 1121), ("random", "normal", 40, 1241)]
    rows = _rated("lost-cities", {"rounds": 1}, {"normal": 20}, schedule)
    _assert_ordered(rows, ["random", "easy", "normal"])


@pytest.mark.slow
def test_ratings_order_all_four_levels():
    schedule = [("random", "easy", 200, 2000), ("easy", "normal", 40, 2500), ("normal", "strong", 32, 3000)]
    rows = _rated("carcassonne", {}, {"normal": 2, "strong": 4}, schedule)
    _assert_ordered(rows, ["random", "easy", "normal", "strong"])
