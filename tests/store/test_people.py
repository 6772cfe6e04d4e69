"""A person's own settings (time zone, quiet hours, away), on both back ends; migrations with a gap."""

from __future__ import annotations

import asyncio

import pytest

from bot.store.migrate import Migration, check_applied, check_numbers


async def test_person_settings_merge_and_survive_reopening(store, url):
    from bot.store import open_store

    assert await store.person(7) == {}
    assert await store.set_person(7, {"tz": "Europe/Madrid", "quiet_start": "23:00"}) == {"tz": "Europe/Madrid", "quiet_start": "23:00"}
    assert await store.set_person(7, {"quiet_start": None, "away_until": "2030-01-02T00:00:00+00:00"}) == {
        "tz": "Europe/Madrid", "away_until": "2030-01-02T00:00:00+00:00"
    }
    await asyncio.gather(*(store.set_person(8, {f"k{i}": i}) for i in range(8)))  # no write lost
    assert await store.person(8) == {f"k{i}": i for i in range(8)}
    assert await store.person(7) != await store.person(8)
    with pytest.raises(ValueError):
        await store.set_person(7, ["not", "an", "object"])
    await store.close()
    again = await open_store(url)
    try:
        assert (await again.person(7))["tz"] == "Europe/Madrid"
    finally:
        await again.close()


def test_a_missing_migration_number_is_fine_a_repeated_one_is_not():
    one, three, five = (Migration(n, f"m{n}", "") for n in (1, 3, 5))
    assert check_numbers([one, three, five]) == [one, three, five]
    with pytest.raises(RuntimeError):
        check_numbers([one, three, Migration(3, "other", "")])
    # 0001, 0003 and 0005 applied; 0004 arrives with a later merge: it is applied then
    four = Migration(4, "m4", "")
    assert check_applied({1: "m1", 3: "m3", 5: "m5"}, [one, three, four, five]) == [four]
