"""Review findings, end to end through the Discord stand-in: hidden information, bad input,
concurrency and Spanish texts at the edges of the Discord layer."""

from __future__ import annotations

import asyncio
import json

import pytest

from bot.core.settings import load_settings
from bot.discord.client import Partida

from .helpers import abandon, is_board, named


@pytest.fixture
async def partida(standin, tmp_path):
    client = Partida(load_settings(render_processes=0, discord_token=standin.token, database_url=f"sqlite:///{tmp_path}/r.sqlite3"))
    await standin.run_client(client)
    await standin.wait_commands()
    return client


async def lobby_with(standin, host, *guests, game="lost-cities", **options):
    options["options"] = f"{options.get('options', '')} post=new".strip()  # a board post a turn (post=edit is the default)
    r = await host.slash("general", "partida new", game=game, **options)
    lobby = r.message
    for g in guests:
        await g.click(standin.messages_by_id[lobby.id], label="Join")
        await standin.wait_until(lambda g=g: g.mention in standin.messages_by_id[lobby.id].content, 5, f"{g.name} joined")
    return standin.messages_by_id[lobby.id]


async def started(standin, host, *guests, **kw):
    lobby = await lobby_with(standin, host, *guests, **kw)
    r = await host.click(lobby, label="Start")
    await r.wait(lambda x: "started" in x.content, 10)
    return await standin.wait_for_message("general", is_board, 10)


async def test_export_of_a_running_match_is_refused_it_would_reveal_every_hand(standin, partida):
    # The log holds the seed: replaying it shows every hand and the deck order.
    ana, ben = standin.user("ana"), standin.user("ben", locale="es-ES")
    await started(standin, ana, ben)
    r = await ben.slash("general", "partida export")
    await r.wait_done()
    assert r.ephemeral and not any(m.files for m in r.messages), "the log of a running match was handed out"
    assert "termine" in r.text() or "terminado" in r.text()
    r = await ana.slash("general", "partida export")
    await r.wait_done()
    assert not any(m.files for m in r.messages) and "over" in r.text()
    # once the match is over (here abandoned) the log is everybody's
    await abandon(standin, ana, "general")
    r = await ben.slash("general", "partida export")
    await r.wait_done()
    log = json.loads(next(iter(r.messages[-1].files.values())))
    assert log["game"] == "lost-cities" and log["seed"] is not None
    # a new lobby in the channel: the export is still the last match that was played
    await ana.slash("general", "partida new", game="carcassonne", options="post=new")
    r = await ben.slash("general", "partida export")
    await r.wait_done()
    assert json.loads(next(iter(r.messages[-1].files.values())))["game"] == "lost-cities"


async def test_playing_in_a_lobby_is_refused_in_spanish(standin, partida):
    ana, ben = standin.user("ana"), standin.user("ben", locale="es-ES")
    await lobby_with(standin, ana, ben)
    r = await ben.slash("general", "partida play", move="d.deck")
    await r.wait_done()
    assert "esperando jugadores" in r.text() and "lobby" not in r.text(), r.text()


async def test_buttons_of_an_abandoned_lobby_say_it_was_abandoned(standin, partida):
    ana, ben = standin.user("ana"), standin.user("ben", locale="es-ES")
    lobby = await lobby_with(standin, ana)
    await ana.slash("general", "partida abandon")
    r = await ben.click(standin.messages_by_id[lobby.id], label="Join")
    await r.wait_followups(1)
    text = r.followups[-1].content
    assert "abandonada" in text and "ya ha empezado" not in text, text


async def test_two_people_joining_at_once_both_get_in(standin, partida):
    ana, ben, cy = standin.user("ana"), standin.user("ben"), standin.user("cy")
    lobby = await lobby_with(standin, ana, game="carcassonne")
    rb, rc = await asyncio.gather(ben.click(lobby, label="Join"), cy.click(lobby, label="Join"))
    for r in (rb, rc):
        await r.wait_done()
    await standin.wait_until(
        lambda: ben.mention in standin.messages_by_id[lobby.id].content and cy.mention in standin.messages_by_id[lobby.id].content,
        5, "both joined",
    )
    assert not any("out of date" in f.content for r in (rb, rc) for f in r.followups)


async def test_options_of_the_wrong_type_are_explained_in_spanish_and_create_nothing(standin, partida):
    ben = standin.user("ben", locale="es-ES")
    for thread in (False, True):
        r = await ben.slash("general", "partida new", game="lost-cities", options="rounds=abc", thread=thread)
        await r.wait_done()
        assert r.ephemeral and "rounds=abc no vale" in r.text() and "Input should" not in r.text(), r.text()
    r = await ben.slash("general", "partida new", game="citadels", options="dark_city=maybe")
    assert "true o false" in r.text()
    assert standin.threads() == [] and not [m for m in standin.messages_in("general") if m.buttons()]
    r = await ben.slash("general", "partida prefer", orders="rojo")
    await r.wait_done()
    assert "No hay partida" in r.text()


async def test_option_hints_are_in_the_person_s_language(standin, partida):
    ben, ana = standin.user("ben", locale="es-ES"), standin.user("ana")
    es = await ben.autocomplete("general", "partida new", "options", game="lost-cities", options="")
    en = await ana.autocomplete("general", "partida new", "options", game="lost-cities", options="")
    assert any("rondas de la partida" in c["name"] for c in es) and not any("Rounds in" in c["name"] for c in es)
    assert any("rounds in the match" in c["name"] for c in en)
    assert {c["value"] for c in es} == {c["value"] for c in en}


async def test_game_names_are_spanish_for_spanish_readers(standin, partida):
    eva = standin.user("eva", locale="es-ES")
    ana = standin.user("ana")
    r = await eva.slash("general", "partida new", game="citadels", options="post=new")
    lobby = r.message  # in the channel: the server's language (English here)
    r = await eva.click(lobby, label="Start")
    await r.wait_followups(1)
    assert "Ciudadelas necesita" in r.followups[-1].content, r.followups[-1].content
    r = await eva.slash("general", "partida status")
    await r.wait_done()
    assert "Ciudadelas" in r.text() and "Citadels" not in r.text(), r.text()
    r = await eva.slash("general", "mygames")
    await r.wait_done()
    assert "Ciudadelas" in r.text() and "Citadels" not in r.text(), r.text()
    r = await ana.slash("general", "partida status")
    await r.wait_done()
    assert "Citadels" in r.text()
    r = await eva.slash("general", "partida invite", user=ana.id)
    await r.wait_done()
    assert "Citadels" in ana.dms()[-1].content  # a DM speaks its reader's language (ana's is English)
    games = next(o for o in next(c for c in standin.global_commands if c["name"] == "partida")["options"] if o["name"] == "new")
    choices = next(o for o in games["options"] if o["name"] == "game")["choices"]
    citadels = next(c for c in choices if c["value"] == "citadels")
    assert citadels.get("name_localizations", {}).get("es-ES") == "Ciudadelas"



async def test_inviting_the_bot_itself_gets_an_answer(standin, partida):
    ana = standin.user("ana", locale="es-ES")
    await lobby_with(standin, ana)
    r = await ana.slash("general", "partida invite", user=standin.bot_id)
    await r.wait_done()
    assert r.ephemeral and "es un bot" in r.text(), r.text()


@pytest.mark.parametrize(
    ("command", "options"),
    [
        ("partida status", {}), ("partida log", {}), ("partida export", {}), ("mygames", {}),
        ("partida play", {"move": "d.deck"}), ("partida prefer", {"orders": "x"}),
    ],
)
async def test_a_slow_store_does_not_lose_the_interaction(standin, partida, command, options):
    """Each command answers Discord (a deferred reply) before it reads the store, as the design asks:
    a busy database must give a late answer, never "the application did not respond"."""
    ana, ben = standin.user("ana"), standin.user("ben")
    await started(standin, ana, ben)
    store = partida.service.store
    slow = standin.initial_response_limit = 0.6

    def slowed(fn):
        async def wrapper(*args, **kwargs):
            await asyncio.sleep(slow + 0.2)
            return await fn(*args, **kwargs)
        return wrapper

    store.active_in_channel = slowed(store.active_in_channel)
    store.matches_for_user = slowed(store.matches_for_user)
    r = await ben.slash("general", command, **options)
    await r.wait_done(timeout=10)
    assert r.ephemeral and r.text()


async def test_an_invitation_answers_before_its_direct_message_and_still_lands_publicly_when_dms_are_closed(standin, partida):
    ana, ben = standin.user("ana"), standin.user("ben")
    zoe, dan = standin.user("zoe", dms_open=False), standin.user("dan", locale="es-ES")
    await started(standin, ana, ben)
    store = partida.service.store
    standin.initial_response_limit = 0.6
    real = store.active_in_channel

    async def slow(*args, **kwargs):
        await asyncio.sleep(0.8)
        return await real(*args, **kwargs)

    store.active_in_channel = slow
    r = await ana.slash("general", "partida invite", user=dan.id)
    await r.wait_done(timeout=10)
    assert r.ephemeral and "Invitation sent" in r.text() and "Lost Cities" in dan.dms()[-1].content
    r = await ana.slash("general", "partida invite", user=zoe.id)
    await r.wait_done(timeout=10)
    assert r.ephemeral and "does not accept direct messages" in r.text()
    public = await standin.wait_for_message("general", lambda m: zoe.mention in m.content and not m.ephemeral, 5)
    assert "invites you" in public.content and not public.ephemeral


async def test_a_match_in_a_new_thread_answers_before_creating_the_thread(standin, partida):
    ana = standin.user("ana")
    store = partida.service.store
    standin.initial_response_limit = 0.6
    real = store.create_match

    async def slow(*args, **kwargs):
        await asyncio.sleep(0.8)
        return await real(*args, **kwargs)

    store.create_match = slow
    r = await ana.slash("general", "partida new", game="lost-cities", options="post=new", thread=True)
    await r.wait_done(timeout=10)
    (thread,) = standin.threads()
    assert f"<#{thread['id']}>" in r.text() and not r.ephemeral
    lobby = await standin.wait_for_message(int(thread["id"]), lambda m: "Join" in [b.get("label") for b in m.buttons()], 5)
    assert ana.mention in lobby.content


async def test_a_move_whose_confirmation_cannot_be_shown_still_passes_the_turn(standin, partida, monkeypatch):
    """The clicked message is gone (deleted DM, Discord error) when the bot edits it after the move:
    the move stands, so the next player must still be told and the board posted."""
    from types import SimpleNamespace

    import discord

    from .helpers import controls, private_controls, wait_change

    ana, ben = standin.user("ana"), standin.user("ben", dms_open=False)
    board = await started(standin, ana, ben)
    msg = await private_controls(standin, ana, board, True, 0)
    discard = next(b["custom_id"] for b in controls(msg)[1] if b["custom_id"].split(":")[-1].startswith("x."))
    before = msg.content
    await ana.click(msg, discard)
    msg = await wait_change(standin, msg, before)
    deck = next(b["custom_id"] for b in controls(msg)[1] if b["custom_id"].endswith(":d.deck"))

    async def gone(self, **kwargs):
        raise discord.NotFound(SimpleNamespace(status=404, reason="Not Found"), {"code": 10008, "message": "Unknown Message"})

    monkeypatch.setattr(discord.Interaction, "edit_original_response", gone)
    seen = len(standin.messages_in("general"))
    await ana.click(msg, deck)
    nxt = await standin.wait_for_message("general", lambda m: is_board(m) and named(m, ben), 10, after=seen)
    assert "drew from the deck" in nxt.content


async def test_a_start_whose_lobby_cannot_be_edited_still_starts_the_match_for_everyone(standin, partida, monkeypatch):
    from types import SimpleNamespace

    import discord

    ana, ben = standin.user("ana"), standin.user("ben")
    lobby = await lobby_with(standin, ana, ben)

    async def gone(self, **kwargs):
        raise discord.NotFound(SimpleNamespace(status=404, reason="Not Found"), {"code": 10008, "message": "Unknown Message"})

    monkeypatch.setattr(discord.Interaction, "edit_original_response", gone)
    await ana.click(lobby, label="Start")
    await standin.wait_for_message("general", is_board, 10)


async def test_a_turn_message_that_fails_to_build_does_not_stop_the_board_or_the_other_players(standin, partida, monkeypatch):
    """A bug while preparing one player's DM (here its picture) is logged; the channel still gets the board."""
    from bot.games.lost_cities import LostCitiesUI

    def broken(self, view, names, lang):
        raise RuntimeError("picture bug")

    monkeypatch.setattr(LostCitiesUI, "turn_png", broken)  # the turn DM's one picture
    ana, ben = standin.user("ana"), standin.user("ben")
    lobby = await lobby_with(standin, ana, ben)
    await ana.click(lobby, label="Start")
    board = await standin.wait_for_message("general", is_board, 10)
    assert named(board, ana)
