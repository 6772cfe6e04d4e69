"""Sharding settings and this process's share of Discord's global rate limit."""

from __future__ import annotations

import asyncio

import pytest

from bot.core.settings import SettingsError, load_settings
from bot.discord.ratelimit import TokenBucket, exempt, limit_http

PG = "postgresql://postgres@127.0.0.1:5432/test"


def test_shard_settings():
    s = load_settings(discord_token="x", shard_count=4, shard_ids=" 1, 3", database_url=PG, bot_processes=2)
    assert s.shard_list() == [1, 3] and s.rate_budget() == 25.0
    assert load_settings(discord_token="x").shard_list() is None  # automatic: every shard here
    # empty values, as in .env.example, mean "not set"
    empty = load_settings(discord_token="x", shard_count="", shard_ids="", health_file="")
    assert empty.shard_count is None and empty.shard_list() is None and empty.health_file is None
    for bad, says in [
        ({"shard_ids": "0"}, "SHARD_IDS needs SHARD_COUNT"),
        ({"shard_ids": "2", "shard_count": 2, "database_url": PG}, "below SHARD_COUNT"),
        ({"shard_ids": "0;1", "shard_count": 2}, "SHARD_IDS is malformed"),
        ({"shard_ids": "0", "shard_count": 2}, "need a postgresql://"),  # SQLite serves one process
        ({"bot_processes": 3}, "need a postgresql://"),
        ({"global_rate_limit": 0}, "GLOBAL_RATE_LIMIT"),
    ]:
        with pytest.raises(SettingsError, match=says) as e:
            load_settings(discord_token="x", **bad)
        assert "\n" not in str(e.value)


async def test_the_bucket_spaces_requests_at_the_budget():
    now = [0.0]
    waits: list[float] = []

    async def sleep(t: float) -> None:
        waits.append(t)
        now[0] += t

    bucket = TokenBucket(5.0, burst=2, clock=lambda: now[0], sleep=sleep)
    got = [await bucket.take() for _ in range(6)]
    assert got[:2] == [0.0, 0.0]  # the burst
    assert got[2:] == pytest.approx([0.2] * 4)  # then one every 1/5 s
    assert now[0] == pytest.approx(0.8) and bucket.taken == 6
    now[0] += 10  # idle: tokens saved up, but never more than the burst
    assert [await bucket.take() for _ in range(3)] == pytest.approx([0.0, 0.0, 0.2])


async def test_interaction_answers_never_wait_for_the_bucket():
    class Route:
        def __init__(self, path: str) -> None:
            self.path = path

    class Http:
        def __init__(self) -> None:
            self.sent: list[str] = []

        async def request(self, route, **kwargs):
            self.sent.append(route.path)

    class Counting(TokenBucket):
        async def take(self) -> float:
            self.taken += 1
            return 0.0

    http, bucket = Http(), Counting(1.0)
    limit_http(http, bucket)
    await asyncio.gather(
        http.request(Route("/channels/{channel_id}/messages")),
        http.request(Route("/interactions/{interaction_id}/{interaction_token}/callback")),
        http.request(Route("/webhooks/{application_id}/{interaction_token}/messages/@original")),
        http.request(Route("/users/@me/channels")),
    )
    assert len(http.sent) == 4 and bucket.taken == 2
    assert exempt("/interactions/1/t/callback") and not exempt("/channels/1/messages")


def test_health_check_reads_the_age_of_the_file(tmp_path):
    from bot.core.health import check, main

    path = tmp_path / "alive"
    assert check(str(path))[0] is False and "does not exist" in check(str(path))[1]
    path.touch()
    mtime = path.stat().st_mtime
    assert check(str(path), 60, now=mtime + 30)[0] is True
    ok, text = check(str(path), 60, now=mtime + 90)
    assert not ok and "90 s ago" in text
    assert main([str(path), "60"]) == 0 and main([str(tmp_path / "nope")]) == 1 and main([]) == 2
