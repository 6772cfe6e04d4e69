"""Ratings, stored aggregates and act-time samples (issue 21, migration 0007) on both back ends."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

from bot.core import ratings
from bot.store.base import GLOBAL_SCOPE, ActTime, FinishedMatch


def _finished(match_id: int, places: list[list[str]], guild: int | None = 7, game: str = "lost-cities") -> FinishedMatch:
    return FinishedMatch(match_id, game, guild, places)


async def test_a_match_is_rated_once_in_its_server_and_across_servers(store):
    fin = _finished(1, [["u1"], ["ai:easy"]])
    acts = {"u1": ratings.Acts(moves=40, timed=39, seconds=3900.0)}
    rows = await ratings.record(store, fin, acts)
    assert rows is not None and {(r.scope, r.player) for r in rows} == {(0, "u1"), (0, "ai:easy"), (7, "u1"), (7, "ai:easy")}
    assert await store.rated(1) and not await store.rated(2)
    # asked again (a retried job, another process): nothing changes
    assert await ratings.record(store, fin, acts) is None
    (me,) = await store.player_ratings("u1", scope=7)
    assert (me.matches, me.wins, me.moves, me.timed, me.seconds) == (1, 1, 40, 39, 3900.0)
    assert me.mu > ratings.MU
    (bot,) = await store.player_ratings("ai:easy", scope=GLOBAL_SCOPE)
    assert (bot.matches, bot.wins, bot.moves) == (1, 0, 0) and bot.mu < ratings.MU
    assert len(await store.player_ratings("u1")) == 2  # both scopes
    (tot,) = [t for t in await store.scope_players(7) if t.player == "u1"]
    assert (tot.matches, tot.wins, tot.moves, tot.timed, tot.seconds) == (1, 1, 40, 39, 3900.0)
    assert await store.scope_totals(7) == await store.scope_totals(GLOBAL_SCOPE) == {"lost-cities": 1}


async def test_ratings_build_on_the_stored_rows_and_ties_share_a_place(store):
    await ratings.record(store, _finished(1, [["u1"], ["u2"]]))
    await ratings.record(store, _finished(2, [["u1"], ["u2"]], guild=8))
    (g7,) = await store.player_ratings("u1", scope=7)
    (g8,) = await store.player_ratings("u1", scope=8)
    (everywhere,) = await store.player_ratings("u1", scope=GLOBAL_SCOPE)
    assert g7.matches == g8.matches == 1 and everywhere.matches == 2
    assert everywhere.mu > g7.mu  # two wins across servers, one in each server
    assert abs(g7.mu - g8.mu) < 1e-9
    await ratings.record(store, _finished(3, [["u3", "u4"], ["u5"]]))
    (u3,) = await store.player_ratings("u3", scope=7)
    (u4,) = await store.player_ratings("u4", scope=7)
    assert u3.wins == u4.wins == 1 and abs(u3.mu - u4.mu) < 1e-9


async def test_leaderboard_by_ordinal_totals_and_players_by_wins(store):
    # u1 beats everyone three times; u2 beats u3 twice; another game and another server stay apart
    for i, places in enumerate([[["u1"], ["u2"]], [["u1"], ["u3"]], [["u1"], ["u2"], ["u3"]], [["u2"], ["u3"]], [["u2"], ["u3"]]]):
        await ratings.record(store, _finished(10 + i, places))
    await ratings.record(store, _finished(20, [["u3"], ["u1"]], game="carcassonne"))
    await ratings.record(store, _finished(21, [["u9"], ["u1"]], guild=8))
    board = await store.leaderboard("lost-cities", 7)
    assert [r.player for r in board] == ["u1", "u2", "u3"]
    assert board[0].ordinal > board[1].ordinal > board[2].ordinal
    assert [r.player for r in await store.leaderboard("lost-cities", 7, limit=2)] == ["u1", "u2"]
    assert [r.player for r in await store.leaderboard("carcassonne", 7)] == ["u3", "u1"]
    assert await store.scope_totals(7) == {"lost-cities": 5, "carcassonne": 1}
    assert await store.scope_totals(GLOBAL_SCOPE) == {"lost-cities": 6, "carcassonne": 1}
    # totals over the games: the sums of the per-game rows
    top = await store.scope_players(7)
    assert [(r.player, r.matches, r.wins) for r in top] == [("u1", 4, 3), ("u2", 4, 2), ("u3", 5, 1)]
    assert [(r.player, r.matches, r.wins) for r in await store.scope_players(GLOBAL_SCOPE, limit=2)] == [
        ("u1", 5, 3), ("u2", 4, 2)
    ]
    only = await store.scope_players(7, game="carcassonne")
    assert [(r.player, r.matches, r.wins) for r in only] == [("u3", 1, 1), ("u1", 1, 0)]


async def test_matches_ending_together_lose_no_update(store):
    await asyncio.gather(*(ratings.record(store, _finished(100 + i, [["u1"], [f"u{50 + i}"]])) for i in range(8)))
    (me,) = await store.player_ratings("u1", scope=7)
    assert me.matches == 8 and me.wins == 8
    (mine,) = [t for t in await store.scope_players(7, limit=20) if t.player == "u1"]
    assert (mine.matches, mine.wins) == (8, 8)
    assert await store.scope_totals(7) == {"lost-cities": 8}


async def test_act_times_newest_first_per_match_and_across(store):
    t0 = datetime(2026, 12, 3, tzinfo=UTC)
    await store.add_act_times([ActTime(1, 10, 60.0 * i, t0 + timedelta(minutes=i)) for i in range(1, 4)])
    await store.add_act_times([ActTime(1, 11, 5.0, t0), ActTime(2, 10, 9.0, t0)])
    await store.add_act_times([])
    assert await store.act_times(1) == [5.0, 180.0, 120.0, 60.0]
    assert await store.act_times(1, match_id=10) == [180.0, 120.0, 60.0]
    assert await store.act_times(1, limit=2) == [5.0, 180.0]
    assert await store.act_times(2) == [9.0]
    assert await store.act_times(3) == []
