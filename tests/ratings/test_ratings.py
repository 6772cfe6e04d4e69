"""bot/core/ratings.py: Weng-Lin updates with ties, seats to players, rows to store (issue 21)."""

from __future__ import annotations

from bot.core import ratings
from bot.store.base import GLOBAL_SCOPE, FinishedMatch, RatingRow


def test_winner_gains_loser_loses_and_ties_share_a_place():
    new = ratings.update([["a"], ["b", "c"], ["d"]], {})
    assert new["a"][0] > new["b"][0] == new["c"][0] > new["d"][0]
    assert all(sigma < ratings.SIGMA for _, sigma in new.values())
    # a win against a strong player is worth more than against a weak one
    strong = ratings.update([["x"], ["s"]], {"s": (35.0, 3.0)})
    weak = ratings.update([["x"], ["w"]], {"w": (15.0, 3.0)})
    assert strong["x"][0] > weak["x"][0]


def test_one_level_in_two_seats_gains_nothing_from_beating_itself():
    mu, sigma = ratings.update([["ai:easy"], ["ai:easy"]], {"ai:easy": (30.0, 5.0)})["ai:easy"]
    assert abs(mu - 30.0) < 1e-9 and sigma < 5.0
    alone = ratings.update([["solo"]], {})
    assert alone == {"solo": (ratings.MU, ratings.SIGMA)}


def test_seats_become_people_or_ai_levels():
    seats = [
        {"user_id": 11, "ai": None, "name": "Ana"},
        {"user_id": None, "ai": "heuristic", "name": "Bot"},
        {"user_id": 12, "ai": "strong", "name": "Ben (stand-in)"},
        {"user_id": None, "ai": "strong", "name": "Bot 2"},
    ]
    fin = ratings.finished_match(5, "citadels", 9, seats, ((2,), (0, 3), (1,)))
    assert fin.places == [["u12"], ["u11", "ai:strong"], ["ai:easy"]]
    assert fin.scopes == [GLOBAL_SCOPE, 9] and ratings.user_of("u12") == 12 and ratings.user_of("ai:easy") is None
    timing = {(5, 0): (10, 9, 900.0), (5, 1): (10, 9, 1.0), (5, 2): (4, 4, -3.0)}
    acts = ratings.acts_from_timing(seats, timing, 5)
    assert acts == {"u11": ratings.Acts(10, 9, 900.0), "u12": ratings.Acts(4, 4, 0.0)}


def test_rate_rows_adds_to_the_stored_aggregates_per_scope():
    fin = FinishedMatch(1, "lost-cities", 4, [["u1"], ["u2"]])
    old = [
        RatingRow("lost-cities", 4, "u1", 20.0, 4.0, matches=3, wins=1, moves=90, timed=80, seconds=800.0),
        RatingRow("carcassonne", 4, "u1", 40.0, 2.0, matches=9, wins=9),  # another game: not touched
    ]
    rows = {(r.scope, r.player): r for r in ratings.rate_rows(fin, old, {"u1": ratings.Acts(30, 29, 290.0)})}
    assert set(rows) == {(0, "u1"), (0, "u2"), (4, "u1"), (4, "u2")}
    mine = rows[(4, "u1")]
    assert (mine.matches, mine.wins, mine.moves, mine.timed, mine.seconds) == (4, 2, 120, 109, 1090.0)
    assert mine.mu > 20.0 and mine.sigma < 4.0
    fresh = rows[(0, "u1")]
    assert (fresh.matches, fresh.wins) == (1, 1) and fresh.mu > ratings.MU
    assert rows[(4, "u2")].wins == 0 and rows[(4, "u2")].mu < ratings.MU
