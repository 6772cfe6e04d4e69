"""The turn's end taken by the core (issue 20): when a seat's controls carry ``Controls.auto`` (ending
the turn is its only legal move) and the person's ``auto_end`` setting is on (the default), the
end is committed at once through the one commit path instead of a lone "End turn" button; with
the setting off (/autoend on:False) the button is shown. A second run applies nothing twice, and an
undo takes back the move that left the end as the only one, with the end."""

from __future__ import annotations

import random

from bot.core.table import Table
from tests.bot.timers_harness import Bot

PEOPLE = [(11, "Ana"), (22, "Ben"), (33, "Carla"), (44, "Dani")]


async def last_build(bot: Bot, mid: int, rng: random.Random):
    """Play random legal moves until a person to move can build a district after which ending the
    turn is their only legal move; (loaded, user id, that build)."""
    for _ in range(3000):
        loaded = await bot.service.get(mid)
        assert loaded.record.status == "active", "the match ended before such a build"
        game, state = loaded.game, loaded.state
        seat = loaded.to_move()[0]
        uid = loaded.record.seats[seat]["user_id"]
        for a in game.legal_json(state, seat):
            if a["type"] != "build":
                continue
            after = game.clone(state)
            game.step(after, seat, game.code_of(a))
            if game.legal_json(after, seat) == [{"type": "end_turn"}]:
                return loaded, uid, a
        code = rng.choice(game.legal(state, seat))
        await bot.service.move(mid, loaded.record.version, ("user", uid), game.encode(code), loaded=loaded)
    raise AssertionError("no build left ending as the only move")


def buttons(view) -> list[str]:
    return [getattr(c, "custom_id", "") for c in (view.children if view is not None else [])]


async def test_the_turn_ends_without_a_click_and_only_once(bot, store):
    mid = await bot.new_match("citadels", PEOPLE, options={"deadline": "off"}, seed=3)
    loaded, uid, build = await last_build(bot, mid, random.Random(1))
    v = loaded.record.version
    seat = loaded.seat_of(uid)
    result = await bot.service.move(mid, v, ("user", uid), build, loaded=loaded)  # the click on the build
    content, _files, view = await bot.present.mover_message(result, "en")
    now = await bot.service.get(mid)
    assert now.record.version == v + 2  # the build, and the end taken at once
    log = await store.actions(mid)
    assert [a.action["type"] for a in log[-2:]] == ["build", "end_turn"] and log[-1].seat == seat
    assert log[-1].story.get("auto_end") is True and log[-2].story.get("auto_end") is None
    assert "ended it for you" in content
    # no lone "End turn" button: the answer's controls are Undo only (or the seat's next turn,
    # when it holds the character called next)
    assert not [b for b in buttons(view) if b.startswith("p:d:") and b.endswith(":end")], buttons(view)
    assert any(b.startswith(f"p:u:{mid}:") for b in buttons(view))
    # the same answer drawn again (a crash before it reached the person, a second device) applies
    # nothing twice: the end is committed at the version its controls were drawn for
    again, _files, _view = await bot.present.mover_message(result, "en")
    assert (await bot.service.get(mid)).record.version == v + 2
    assert "ended it for you" not in again
    # an undo takes back the build with the end (the end alone would only end the turn again)
    plan = await Table(bot.service).undo_plan(mid, uid)
    assert [a.action["type"] for a in plan.undone][:2] == ["build", "end_turn"]
    assert plan.reason == "revealed"  # the end called the next character: the others approve it
    # the channel learns the turn passed as after any move; the next person's turn was planned
    await bot.run()
    assert (await bot.service.get(mid)).record.version >= v + 2


async def test_with_the_setting_off_the_end_turn_button_is_shown(bot, store):
    mid = await bot.new_match("citadels", PEOPLE, options={"deadline": "off"}, seed=3)
    loaded, uid, build = await last_build(bot, mid, random.Random(1))
    await store.set_person(uid, {"auto_end": False})  # /autoend on:False
    v = loaded.record.version
    result = await bot.service.move(mid, v, ("user", uid), build, loaded=loaded)
    content, _files, view = await bot.present.mover_message(result, "en")
    assert (await bot.service.get(mid)).record.version == v + 1  # nothing taken for them
    assert f"p:d:{mid}:{v + 1}:end" in buttons(view), buttons(view)
    assert "ended it for you" not in content
    # back on (/autoend on:True stores nothing: on is the default): "Take your turn" ends it
    await store.set_person(uid, {"auto_end": None})
    seen = await bot.service.get(mid)
    content, _files, view = await bot.present.private_turn(seen, loaded.seat_of(uid), "es")
    assert (await bot.service.get(mid)).record.version == v + 2
    assert "lo he terminado por ti" in content
    # the same controls drawn again from the same read (a second device, a job run again after a
    # crash): the end is a commit at that version, so it is not applied twice
    again, _files, _view = await bot.present.private_turn(seen, loaded.seat_of(uid), "es")
    assert (await bot.service.get(mid)).record.version == v + 2
    assert "lo he terminado por ti" not in again
    assert sum(1 for a in await store.actions(mid) if a.action["type"] == "end_turn" and (a.story or {}).get("auto_end")) == 1
