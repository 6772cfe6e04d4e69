"""Ratings order the AI levels (issue 21): a few hundred seeded one-round Lost Cities matches
between the levels, each rated as the bot rates a finished match (``rate_rows``, the rows carried
from match to match as the store keeps them).

The levels here are random, easy (the heuristic) and normal with a 20-iteration search (reproducible);
strong is left out: at iteration budgets a test can afford it is not measurably stronger than
normal in one round (measured on core 1, seeds 0-39: normal 20 vs strong 150 iterations 18-20 with
2 ties; 30 vs 120: 20-20), so no rating could order them."""

from __future__ import annotations

import random

import pytest

from bot.core import ratings
from bot.store.base import FinishedMatch, RatingRow
from engines import registry
from engines.ai import play_out, player

GAME = "lost-cities"
BUDGET = {"normal": 20}
SCHEDULE = [("random", "easy", 120), ("easy", "normal", 120), ("random", "normal", 40)]


def _play(a: str, b: str, seed: int) -> tuple[tuple[int, ...], ...]:
    game = registry.get(GAME)
    state = game.new_state(2, game.parse_options({"rounds": 1}), seed, None)
    seats = [player(GAME, kind, iterations=BUDGET.get(kind)) for kind in (a, b)]
    play_out(game, state, seats, random.Random(seed))
    return game.result(state).ranking


@pytest.mark.slow
def test_ratings_order_random_easy_normal():
    rows: dict[str, RatingRow] = {}
    match_id = 0
    for a, b, n in SCHEDULE:
        for i in range(n):
            match_id += 1
            x, y = (a, b) if i % 2 == 0 else (b, a)  # each level plays both seats
            ranking = _play(x, y, 1000 + match_id)
            seats = [{"user_id": None, "ai": x, "name": x}, {"user_id": None, "ai": y, "name": y}]
            fin = ratings.finished_match(match_id, GAME, None, seats, ranking)
            assert isinstance(fin, FinishedMatch)
            for r in ratings.rate_rows(fin, list(rows.values())):
                rows[r.player] = r
    assert sum(r.matches for r in rows.values()) == 2 * match_id == 2 * sum(n for *_, n in SCHEDULE)
    mu = {p: r.mu for p, r in rows.items()}
    assert mu[ratings.ai_key("random")] < mu[ratings.ai_key("easy")] < mu[ratings.ai_key("normal")]
    ordinal = {p: r.ordinal for p, r in rows.items()}
    assert ordinal[ratings.ai_key("random")] < ordinal[ratings.ai_key("easy")] < ordinal[ratings.ai_key("normal")]
    # the levels' uncertainty has shrunk with the matches
    assert all(r.sigma < 0.8 * ratings.SIGMA for r in rows.values()), {p: (r.mu, r.sigma) for p, r in rows.items()}
