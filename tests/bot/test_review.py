"""Review findings in the Discord-free layer (service) and the shared texts."""

from __future__ import annotations

import pytest

from bot.core.service import MatchService, Stale
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

    real_think, raced = service.think, []

    async def think_then_a_meta_change(loaded, seat, kind, seed):
        code = await real_think(loaded, seat, kind, seed)
        if not raced:  # someone changes the match while the AI was choosing
            raced.append(1)
            rec = await service.store.get(loaded.record.id)
            await service.store.update(rec.id, rec.version, meta={**rec.meta, "note": 1})
        return code

    service.think = think_then_a_meta_change
    result = await service.ai_step(mid)
    assert raced and result is not None and result.seat == 1
    assert len(await service.store.actions(mid)) == 3
    # an AI step tied to a version (a job) leaves a match that moved on to that move's own jobs
    raced.clear()
    v = (await service.get(mid)).record.version
    assert await service.ai_step(mid, v) is None and len(await service.store.actions(mid)) == 3


async def test_stale_is_still_raised_to_people(service):
    m = await service.new_lobby(1, 100, "lost-cities", 11, "Ana", {}, "en")
    m = await service.join(m.record.id, None, 22, "Ben")
    m = await service.start(m.record.id, None, 11, seed=4)
    with pytest.raises(Stale):
        await service.move(m.record.id, m.record.version - 1, ("user", 11), {"type": "draw", "from": "deck"})


@pytest.mark.parametrize(
    ("game", "raw", "es_words"),
    [
        ("lost-cities", {"rounds": "abc"}, ["rounds", "número entero", "1", "5"]),
        ("lost-cities", {"rounds": 9}, ["rounds", "número entero", "5"]),
        ("citadels", {"dark_city": "maybe"}, ["dark_city", "true", "false"]),
        ("lost-cities", {"colour": 1}, ["colour", "desconocida", "rounds", "purple"]),
        ("carcassonne", {"rules": 4}, ["rules", "1, 2, 3"]),
    ],
)
async def test_bad_options_are_explained_in_the_person_s_language(service, game, raw, es_words):
    from bot.core.service import UserError
    from bot.discord.flows import user_error_text

    with pytest.raises(UserError) as e:
        await service.new_lobby(1, 100, game, 11, "Ana", raw, "es")
    es = user_error_text(e.value, "es")
    en = user_error_text(e.value, "en")
    assert es.startswith("Opciones no válidas") and en.startswith("Invalid options")
    for w in es_words:
        assert w in es, (w, es)
    # nothing of pydantic's English wording reaches a Spanish reader
    for english in ("Input should", "Extra inputs", "valid integer", "valid boolean"):
        assert english not in es and english not in en, es


def test_games_without_standing_orders_say_so_in_spanish():
    from bot.core.service import UserError
    from bot.discord.flows import user_error_text
    from bot.games import ui_for

    for key in ("lost-cities", "carcassonne"):
        with pytest.raises(ValueError) as e:
            ui_for(key).parse_prefs("red, blue")
        err = UserError("bad_prefs", reason=str(e.value)) if not hasattr(e.value, "code") else UserError(e.value.code)
        es = user_error_text(err, "es")
        assert "this game" not in es and "órdenes" in es, es
    ui = ui_for("citadels")
    for text, words in (("Rey, Pirata", ["Pirata", "personaje"]), (" , ;", ["ningún personaje"])):
        with pytest.raises(ValueError) as e:
            ui.parse_prefs(text)
        es = user_error_text(UserError(e.value.code, **e.value.params), "es")
        assert all(w in es for w in words) and "unknown" not in es, es


async def test_a_board_that_cannot_be_posted_does_not_stop_the_ai(service):
    """The channel refuses the board (permissions changed, Discord hiccup): the AI seat must still play."""
    from types import SimpleNamespace

    import discord

    from bot.discord.posting import Presenter
    from bot.discord.wiring import wire

    class Channel:
        id = 100
        sent = 0

        async def send(self, *args, **kwargs):
            Channel.sent += 1
            raise discord.Forbidden(SimpleNamespace(status=403, reason="Forbidden"), {"code": 50013, "message": "Missing Permissions"})

    class DM:
        async def send(self, *args, **kwargs):
            return SimpleNamespace(id=1)

    async def create_dm(user):
        return DM()

    client = SimpleNamespace(get_channel=lambda cid: Channel(), create_dm=create_dm)
    after = wire(Presenter(client, service), service, with_timers=False).after
    m = await service.new_lobby(1, 100, "lost-cities", 11, "Ana", {}, "en")
    m = await service.add_ai(m.record.id, None, 11, "AI 1")
    m = await service.start(m.record.id, None, 11, seed=4)
    mid = m.record.id
    hand = m.view(0)["hand"]
    await service.move(mid, None, ("user", 11), {"type": "discard", "card": hand[0]})
    await service.move(mid, None, ("user", 11), {"type": "draw", "from": "deck"})
    await after.scheduler.run_due()
    assert Channel.sent >= 1
    assert len(await service.store.actions(mid)) == 4  # the AI played and drew
    assert (await service.get(mid)).to_move() == (0,)
    failed = await service.store.jobs(mid, "failed")
    assert failed and {j.kind for j in failed} == {"board"} and "Forbidden" in failed[0].last_error


def test_the_public_story_and_the_log_name_the_other_player_of_a_citadels_action():
    from bot.discord.flows import describe_move
    from bot.games import ui_for

    names = ["Ana", "Ben", "Cy"]
    ui = ui_for("citadels")
    for lang in ("en", "es"):
        text = describe_move(ui, {"type": "swap_hands", "seat": 2}, names, 0, lang)
        assert "Ana" in text and "Cy" in text and "Player" not in text and "Jugador" not in text, text
    # games whose describe takes no names still work
    assert "Ben" in describe_move(ui_for("lost-cities"), {"type": "draw", "from": "deck"}, names, 1, "es")


@pytest.mark.parametrize(("game", "seats"), [("lost-cities", 2), ("carcassonne", 3), ("citadels", 4)])
async def test_states_handed_out_are_never_changed_by_controls_texts_or_ai_turns(service, game, seats):
    """The service caches one state object per version and hands it to everyone: the private
    controls, the status line, the story and the AI must only read it."""
    import json

    from bot.discord.flows import describe_move
    from bot.games import ui_for

    m = await service.new_lobby(1, 100, game, 11, "Ana", {}, "en")
    for i in range(1, seats):
        m = await service.add_ai(m.record.id, None, 11, f"AI {i}")
    m = await service.start(m.record.id, None, 11, seed=9)
    mid, ui = m.record.id, ui_for(game)
    # seat 0 is a person: let the AI play for it through the service too
    await service.store.update(mid, (await service.get(mid)).record.version, seats=[{**s, "ai": s["ai"] or "random"} for s in m.record.seats])
    for _ in range(25):
        held = await service.get(mid)
        if held.record.status != "active":
            break
        before = json.dumps(held.game.dump(held.state), sort_keys=True)
        seat = held.to_move()[0]
        view = {**held.view(seat), "names": held.names}
        legal = held.game.legal_json(held.state, seat)
        if game != "carcassonne":  # Carcassonne's controls draw pictures (render/, checked there)
            c = ui.controls(view, legal, "es")
            for ch in c.select[:2]:
                ui.controls({**held.view(seat), "names": held.names}, legal, "en", ch.token)
        ui.status(held.view(None), held.names, "es")
        result = await service.ai_step(mid)
        assert result is not None
        describe_move(ui, result.action, held.names, result.seat, "es")
        assert json.dumps(held.game.dump(held.state), sort_keys=True) == before
        assert result.loaded.state is not held.state


def _racing_update(service):
    """store.update that, once, lets someone else save a note on the match first (as /partida
    prefer or the closed-DMs note do, without the match lock)."""
    real, raced = service.store.update, []

    async def update(match_id, expected_version, **changes):
        if not raced and "meta" not in changes:
            raced.append(1)
            rec = await service.store.get(match_id)
            await real(match_id, rec.version, meta={**rec.meta, "note": 1})
        return await real(match_id, expected_version, **changes)

    service.store.update = update
    return raced


async def test_abandon_and_joining_survive_a_concurrent_note_on_the_match(service):
    m = await service.new_lobby(1, 100, "carcassonne", 11, "Ana", {}, "en")
    raced = _racing_update(service)
    m = await service.join(m.record.id, None, 22, "Ben")  # Join does not depend on the lobby's version
    assert raced and m.seat_of(22) == 1
    m = await service.start(m.record.id, None, 11, seed=2)
    raced.clear()
    done = await service.abandon(m.record.id, 11, False)
    assert raced and done.record.status == "abandoned"


async def test_an_ai_that_thinks_long_does_not_freeze_the_bot(service, monkeypatch):
    """AI players choose off the event loop: clicks must be acknowledged within Discord's 3 s meanwhile."""
    import asyncio
    import time

    from engines import ai

    class Slow(ai.RandomPlayer):
        def choose(self, game, state, seat, rng):
            time.sleep(0.6)
            return super().choose(game, state, seat, rng)

    monkeypatch.setattr(ai, "players_for", lambda key: {"slow": Slow, "random": ai.RandomPlayer})
    m = await service.new_lobby(1, 100, "lost-cities", 11, "Ana", {}, "en")
    m = await service.add_ai(m.record.id, None, 11, "AI 1")
    m = await service.start(m.record.id, None, 11, seed=4)
    mid = m.record.id
    hand = m.view(0)["hand"]
    await service.move(mid, None, ("user", 11), {"type": "discard", "card": hand[0]})
    await service.move(mid, None, ("user", 11), {"type": "draw", "from": "deck"})
    ticks = []

    async def ticker():
        for _ in range(10):
            ticks.append(time.perf_counter())
            await asyncio.sleep(0.05)

    t = asyncio.create_task(ticker())
    assert await service.ai_step(mid) is not None
    await t
    gaps = [b - a for a, b in zip(ticks, ticks[1:], strict=False)]
    assert max(gaps) < 0.4, gaps


def test_option_texts_exist_in_both_languages_for_every_option_of_every_game():
    import string

    from bot.i18n import OPTION_HELP, OPTION_TEXTS
    from engines import registry

    def fields(text):
        return {f for _, f, _, _ in string.Formatter().parse(text) if f}

    for table in (OPTION_TEXTS, OPTION_HELP):
        for key, entry in table.items():
            assert entry.get("en") and entry.get("es") and fields(entry["en"]) == fields(entry["es"]), key
    for key in ("lost-cities", "carcassonne"):
        for name in registry.get(key).Options.model_fields:
            assert name in OPTION_HELP, (key, name)
