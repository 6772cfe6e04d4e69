"""Review findings in the Discord-free layer (service) and the shared texts."""

from __future__ import annotations

import pytest

from bot.service import MatchService, Stale
from bot.store import open_store


@pytest.fixture
async def service(tmp_path):
    store = await open_store(f"sqlite:///{tmp_path}/s.sqlite3")
    yield MatchService(store)
    await store.close()


async def test_an_ai_move_that_loses_a_race_to_a_meta_change_is_retried(service):
    """Standing orders (or the closed-DMs note) bump the version while the AI thinks: the AI must
    still move, else the AI task stops and the match stalls until a restart."""
    m = await service.new_lobby(1, 100, "lost-cities", 11, "Ana", {}, "en")
    m = await service.add_ai(m.record.id, None, 11, "AI 1")
    m = await service.start(m.record.id, None, 11, seed=4)
    mid = m.record.id
    hand = m.view(0)["hand"]
    await service.move(mid, None, ("user", 11), {"type": "discard", "card": hand[0]})
    await service.move(mid, None, ("user", 11), {"type": "draw", "from": "deck"})
    assert (await service.get(mid)).to_move() == (1,)  # the AI's turn

    real_move, raced = service.move, []

    async def move_after_a_meta_change(match_id, version, who, action):
        if not raced:  # someone saves a note on the match while the AI was choosing
            raced.append(1)
            rec = await service.store.get(match_id)
            await service.store.update(match_id, rec.version, meta={**rec.meta, "note": 1})
        return await real_move(match_id, version, who, action)

    service.move = move_after_a_meta_change
    result = await service.ai_step(mid)
    assert raced and result is not None and result.seat == 1
    assert len(await service.store.actions(mid)) == 3


async def test_stale_is_still_raised_to_people(service):
    m = await service.new_lobby(1, 100, "lost-cities", 11, "Ana", {}, "en")
    m = await service.join(m.record.id, None, 22, "Ben")
    m = await service.start(m.record.id, None, 11, seed=4)
    with pytest.raises(Stale):
        await service.move(m.record.id, m.record.version - 1, ("user", 11), {"type": "draw", "from": "deck"})
