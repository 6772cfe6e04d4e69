"""The one commit path (MatchService.commit): a change decided on the match as it is, written with
the store's compare-and-set, decided again on a newer version (in this one place) or refused as
Stale; the jobs it plans wake the scheduler; notes alone keep the version; a stand-in's move says
so as data."""

import pytest

from bot.core.service import Change, MatchService, Stale, UserError
from bot.core.story import by_standin, standin_story
from bot.store import NewJob, open_store
from tests.store.conftest import url  # noqa: F401  (SQLite and PostgreSQL, like the store's tests)


@pytest.fixture
async def service(url):  # noqa: F811
    store = await open_store(url)
    yield MatchService(store)
    await store.close()


async def lobby(service) -> int:
    m = await service.new_lobby(1, 100, "lost-cities", 11, "Ana", {}, "en")
    return m.record.id


async def test_a_version_that_moved_meanwhile_is_decided_again_once(service):
    mid = await lobby(service)
    seen = []

    async def decide(loaded):
        seen.append(loaded.record.version)
        if len(seen) == 1:  # another process changes the match between the read and the write
            await service.store.update(mid, loaded.record.version, meta={"x": 1})
        return Change(fields={"meta": {**loaded.record.meta, "y": 2}})

    done = await service.commit(mid, None, decide)
    assert seen == [seen[0], seen[0] + 1]
    assert done.record.version == seen[0] + 2 and done.record.meta == {"x": 1, "y": 2}


async def test_an_expected_version_that_moved_is_stale_and_nothing_is_written(service):
    mid = await lobby(service)
    v = (await service.get(mid)).record.version
    await service.store.update(mid, v, meta={"x": 1})

    async def decide(loaded):
        raise AssertionError("never decided on a version the person did not see")

    with pytest.raises(Stale):
        await service.commit(mid, v, decide)
    assert (await service.get(mid)).record.version == v + 1


async def test_a_match_that_keeps_moving_is_busy_after_the_attempts(service):
    mid = await lobby(service)

    async def decide(loaded):
        await service.store.update(mid, loaded.record.version, meta={"n": loaded.record.version})
        return Change(fields={"meta": {}})

    with pytest.raises(UserError) as e:
        await service.commit(mid, None, decide, attempts=3)
    assert e.value.code == "busy"


async def test_planned_jobs_wake_the_scheduler_and_notes_alone_keep_the_version(service):
    mid = await lobby(service)
    woken = []

    class Runner:  # who runs the jobs: offers no hand, so the commit wakes it
        def offer(self):
            return None

        def take(self, hand, read=None):
            raise AssertionError("nothing was handed")

        def planned(self, jobs):
            woken.append(1)

    service.run_jobs_with(Runner())
    v = (await service.get(mid)).record.version

    async def notes_only(loaded):
        return Change(notes={11: {"prefs": ["a"]}, 0: {"board_upto": 3}})

    done = await service.commit(mid, None, notes_only)
    assert done.record.version == v and not woken
    assert (await service.store.notes(mid)) == {11: {"prefs": ["a"]}, 0: {"board_upto": 3}}

    async def with_a_job(loaded):
        return Change(fields={"meta": {"z": 1}}, jobs=[NewJob("notice", f"n:{mid}", f"n:{mid}", {"text": "x"}, None, mid)])

    done = await service.commit(mid, None, with_a_job)
    assert done.record.version == v + 1 and woken == [1]
    assert [j.key for j in await service.store.jobs(mid, "pending")] == [f"n:{mid}"]


def test_a_stand_in_move_is_flagged_as_data_not_by_its_words():
    marked = standin_story({"en": "played the red 5", "es": "jugó el 5 rojo"})
    assert by_standin(marked) and marked["en"].endswith("played the red 5")
    assert by_standin(standin_story(None))  # a move the game has no words for is still flagged
    assert not by_standin({"en": marked["en"], "es": marked["es"]})  # the same words without the flag
    assert not by_standin(None)
