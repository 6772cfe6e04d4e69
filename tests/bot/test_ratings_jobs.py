"""Ratings wired into the bot (issue 21): the move that finishes a match plans its ``rate`` job, whose
handler (``bot/core/ratings.py`` ``Rater``) puts the result into the stored ratings once, however
often it runs (a retried job, a restart); ``/partida leaderboard`` ranks by rating. SQLite and
PostgreSQL."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

from bot.core import jobs as declared
from bot.core import ratings
from bot.core.ratings import Rater
from bot.core.service import MatchService
from bot.core.stats import guild_stats, leaderboard_text, leaderboards, stats_text
from bot.core.table import Table
from bot.store import open_store
from bot.store.base import GLOBAL_SCOPE, FinishedMatch
from engines.lost_cities.ai import HeuristicPlayer
from tests.store.conftest import url  # noqa: F401  (SQLite and PostgreSQL)

ANA, BEN = 11, 22


async def _finished_match(svc: MatchService, channel: int = 100, seed: int = 5) -> tuple[int, list[int]]:
    m = await svc.new_lobby(1, channel, "lost-cities", ANA, "Ana", {"rounds": 1}, "en")
    m = await svc.join(m.record.id, None, BEN, "Ben")
    m = await svc.start(m.record.id, m.record.version, ANA, seed=seed)
    mid, me, rng = m.record.id, HeuristicPlayer(), random.Random(seed)
    while (m := await svc.get(mid)).record.status == "active":
        seat = m.to_move()[0]
        code = me.choose(m.game, m.state, seat, rng)
        await svc.move(mid, m.record.version, ("user", (ANA, BEN)[seat]), m.game.encode(code))
    return mid, [list(place) for place in m.game.result(m.state).ranking]


async def test_a_finished_match_is_rated_exactly_once_across_reruns_and_a_restart(url):  # noqa: F811
    store = await open_store(url)
    try:
        svc = MatchService(store)
        mid, ranking = await _finished_match(svc)
        (job,) = [j for j in await store.jobs(mid) if j.kind == declared.RATE]  # planned by the last move
        assert job.key == f"rate:{mid}" and not await store.rated(mid)
        assert await store.add_jobs([declared.rate(mid)]) == 0  # planned again: nothing new
        rater = Rater(svc)
        await rater.on_rate(job)
        await rater.on_rate(job)  # the job run again (a lost lease, another process)
    finally:
        await store.close()
    store = await open_store(url)  # a restart: a new store, a new service, the same job once more
    try:
        await Rater(MatchService(store)).on_rate(job)
        assert await store.rated(mid)
        assert await store.scope_totals(1) == await store.scope_totals(GLOBAL_SCOPE) == {"lost-cities": 1}
        places = [[ratings.person_key((ANA, BEN)[s]) for s in place] for place in ranking]
        expected = ratings.update(places, {})  # one update from the defaults: rated once, not twice
        for uid in (ANA, BEN):
            key = ratings.person_key(uid)
            for scope in (1, GLOBAL_SCOPE):
                (row,) = await store.player_ratings(key, scope)
                assert row.matches == 1 and row.wins == (key in places[0])
                assert abs(row.mu - expected[key][0]) < 1e-9 and abs(row.sigma - expected[key][1]) < 1e-9
        actions = await store.actions(mid)
        assert sum(t.moves for t in await store.scope_players(1)) == len(actions)
    finally:
        await store.close()


async def test_an_abandoned_match_is_not_rated(url):  # noqa: F811
    store = await open_store(url)
    try:
        svc = MatchService(store)
        m = await svc.new_lobby(1, 100, "lost-cities", ANA, "Ana", {}, "en")
        m = await svc.join(m.record.id, None, BEN, "Ben")
        m = await svc.start(m.record.id, m.record.version, ANA, seed=1)
        mid = m.record.id
        await Table(svc).abandon(mid, ANA, can_manage=True)
        assert (await store.get(mid)).status == "abandoned"
        assert declared.RATE not in {j.kind for j in await store.jobs(mid)}
        await store.add_jobs([declared.rate(mid)])  # even a rate job for it (planned by hand) rates nothing
        (forged,) = [j for j in await store.jobs(mid) if j.kind == declared.RATE]
        await Rater(svc).on_rate(forged)
        assert not await store.rated(mid) and await store.scope_totals(1) == {}
        assert "No finished match" in leaderboard_text(await leaderboards(store, 1), "en")
    finally:
        await store.close()


async def test_the_leaderboard_ranks_by_rating_not_by_wins(url):  # noqa: F811
    store = await open_store(url)
    try:
        # u3 wins most (4, all against u2); u1 won once, against u3; u2 beat the easy AI twice
        results = [[["u2"], ["ai:easy"]]] * 2 + [[["u3"], ["u2"]]] * 4 + [[["u1"], ["u3"]]]
        for i, places in enumerate(results):
            await ratings.record(store, FinishedMatch(100 + i, "lost-cities", 1, places))
        rows = await store.leaderboard("lost-cities", 1)
        by_rating = [r.player for r in sorted(rows, key=lambda r: -r.ordinal)]
        by_wins = [r.player for r in sorted(rows, key=lambda r: (-r.wins, -r.matches))]
        assert by_rating != by_wins  # the case tells the two rules apart
        text = leaderboard_text(await leaderboards(store, 1, "lost-cities"), "en").splitlines()
        assert text[0] == "**Leaderboard · Lost Cities**"
        shown = [line.split(": ")[0] for line in text[1:]]
        expected = [f"{i}. " + (f"<@{p[1:]}>" if p.startswith("u") else "AI (easy)") for i, p in enumerate(by_rating, 1)]
        assert shown == expected
        assert "rating" in text[1] and "matches" in text[1]
        # the stats list people only (most wins first); the asker sees their rating
        stats = await guild_stats(store, 1, me=1)
        assert [p.player for p in stats.players] == ["u3", "u2", "u1"] and stats.matches == {"lost-cities": 7}
        assert "Your rating in Lost Cities" in stats_text(stats, "en") and "Tu puntuación" in stats_text(stats, "es")
    finally:
        await store.close()


async def test_matches_finished_before_the_ratings_are_planned_once_at_start_up(url):  # noqa: F811
    store = await open_store(url)
    try:
        svc = MatchService(store)
        first, _ = await _finished_match(svc, channel=100, seed=5)
        second, _ = await _finished_match(svc, channel=101, seed=6)
        # as if they ended before the rate job existed: every job of theirs done (nothing rated) and purged
        now = datetime.now(UTC)
        while claimed := await store.claim_jobs("old", now, timedelta(minutes=5), 100):
            for job in claimed:
                assert await store.finish_job(job.id, "old", now)
        await store.purge_jobs(now + timedelta(days=1))
        assert not [j for j in await store.jobs() if j.kind == declared.RATE]
        await ratings.record(store, FinishedMatch(first, "lost-cities", 1, [["u11"], ["u22"]]))  # rated already
        assert await store.unrated_finished() == [second]
        assert await store.unrated_finished(after_id=second) == []
        rater = Rater(svc)
        await rater.backfill(batch=1)
        await rater.backfill(batch=1)  # a second start plans nothing new
        rate_jobs = [j for j in await store.jobs() if j.kind == declared.RATE]
        assert [j.match_id for j in rate_jobs] == [second]  # once, and not the one rated already
        for job in rate_jobs:
            await rater.on_rate(job)
        assert await store.unrated_finished() == [] and await store.scope_totals(1) == {"lost-cities": 2}
    finally:
        await store.close()
