"""The rest of the match lifecycle through the stand-in: threads, invite, status, log, rules,
abandon, /mygames, lobby refusals, and the Spanish command names."""

from __future__ import annotations

import json

import pytest

from bot.core.settings import load_settings
from bot.discord.client import Partida

from .helpers import abandon, is_board, private_controls, take_turn


@pytest.fixture
async def partida(standin, tmp_path):
    client = Partida(load_settings(render_processes=0, discord_token=standin.token, database_url=f"sqlite:///{tmp_path}/c.sqlite3"))
    await standin.run_client(client)
    await standin.wait_commands()
    return client


def command(standin, name):
    return next(c for c in standin.global_commands if c["name"] == name)


async def test_commands_are_localized(standin, partida):
    group = command(standin, "partida")
    assert group["name_localizations"]["es-ES"] == "partida"
    subs = {o["name"]: o for o in group["options"]}
    assert subs["new"]["name_localizations"]["es-ES"] == "nueva"
    assert subs["new"]["description_localizations"]["es-ES"].startswith("Empieza")
    assert command(standin, "mygames")["name_localizations"]["es-ES"] == "mispartidas"
    games = next(o for o in subs["new"]["options"] if o["name"] == "game")
    assert {c["value"] for c in games["choices"]} >= {"lost-cities"}


async def test_lobby_refusals_and_abandon(standin, partida):
    ana, ben, cy = standin.user("ana"), standin.user("ben", locale="es-ES"), standin.user("cy")
    r = await ana.slash("general", "partida new", game="lost-cities", options="rounds=9")
    await r.wait_done()
    assert r.ephemeral and "rounds" in r.text()
    r = await ana.slash("general", "partida new", game="lost-cities", options="rounds")
    assert r.ephemeral and "key=value" in r.text()
    r = await ana.slash("general", "partida new", game="lost-cities", options="rounds=2 post=new")
    lobby = r.message
    r = await ben.slash("general", "partida new", game="lost-cities", options="post=new")
    assert r.ephemeral and "Este canal ya tiene una partida" in r.text()
    r = await ben.click(lobby, label="Start")
    await r.wait_followups(1)
    assert "Solo el anfitrión" in r.followups[-1].content and r.followups[-1].ephemeral
    r = await ana.click(lobby, label="Start")
    await r.wait_followups(1)
    assert "at least 2" in r.followups[-1].content
    await ben.click(lobby, label="Join")
    await standin.wait_until(lambda: ben.mention in standin.messages_by_id[lobby.id].content, 5, "ben joined")
    r = await cy.click(standin.messages_by_id[lobby.id], label="Join")
    await r.wait_followups(1)
    assert "full" in r.followups[-1].content
    # options autocomplete offers the game's options with their defaults
    choices = await ana.autocomplete("general", "partida new", "options", game="lost-cities", options="")
    assert {c["value"] for c in choices} >= {"rounds=3", "purple=false"}
    # only the host (or Manage Channels) may abandon
    r = await cy.slash("general", "partida abandon")
    assert r.ephemeral and "Only the host" in r.text()
    r = await ana.slash("general", "partida abandon")
    assert not r.ephemeral and "abandoned" in r.text()
    r = await ana.slash("general", "partida status")
    await r.wait_done()
    assert "no match" in r.text().lower()


async def test_status_log_rules_invite_mygames_and_threads(standin, partida):
    ana = standin.user("ana", dms_open=False)
    ben = standin.user("ben", locale="es-ES", dms_open=False)
    dan = standin.user("dan")
    closed = standin.user("zoe", dms_open=False)
    r = await ana.slash("general", "partida new", game="lost-cities", options="post=new", thread=True)
    await r.wait_done()
    threads = standin.threads()
    assert len(threads) == 1 and threads[0]["name"].startswith("Lost Cities")
    thread_id = int(threads[0]["id"])
    lobby = await standin.wait_for_message(thread_id, lambda m: "Join" in [b.get("label") for b in m.buttons()], 5)
    await ben.click(lobby, label="Join")
    await standin.wait_until(lambda: ben.mention in standin.messages_by_id[lobby.id].content, 5, "ben joined")
    r = await ana.click(standin.messages_by_id[lobby.id], label="Start")
    await r.wait(lambda x: "started" in x.content, 10)
    board = await standin.wait_for_message(thread_id, is_board, 10)
    msg = await private_controls(standin, ana, board, False, 0)
    import random

    await take_turn(standin, ana, msg, random.Random(1))
    # the channel tells the story of the turn above the next board, without the card drawn
    after = await standin.wait_for_message(thread_id, lambda m: is_board(m) and m.id != board.id, 10)
    assert "• ana drew from the deck" in after.content and ("• ana played" in after.content or "• ana discarded" in after.content)

    r = await ben.slash(thread_id, "partida status")
    await r.wait_done()
    assert r.ephemeral and r.messages[-1].files.get("board.png") and "Ronda 1/3" in r.text()
    r = await ben.slash(thread_id, "partida log")
    await r.wait_done()
    assert "1. ana" in r.text() and ("jugó" in r.text() or "descartó" in r.text()) and "robó del mazo" in r.text()
    r = await ana.slash(thread_id, "partida rules")
    await r.wait_done()
    assert "(sum − 20)" in r.text() and {"guide-lost-cities-1.png", "guide-lost-cities-2.png"} <= set(r.messages[-1].files)
    r = await ben.slash(thread_id, "partida rules")
    await r.wait_done()
    assert "(suma − 20)" in r.text()
    # invite: by DM, or in the channel when DMs are closed
    r = await ana.slash(thread_id, "partida invite", user=dan.id)
    await r.wait_done()
    assert "Invitation sent" in r.text() and "Lost Cities" in dan.dms()[-1].content
    r = await ana.slash(thread_id, "partida invite", user=closed.id)
    await r.wait_done()
    public = standin.messages_in(thread_id)[-1]
    assert closed.mention in public.content and "invites you" in public.content
    # /mygames: the match, waiting on ben first, with a jump link
    r = await ben.slash("general", "mygames")
    await r.wait_done()
    assert "te toca" in r.text() and f"/channels/{standin.guild_id}/{thread_id}" in r.text()
    r = await dan.slash("general", "mygames")
    await r.wait_done()
    assert "no active matches" in r.text()
    # export while the match runs is refused (the seed would show every hand); once it is over
    # the log is a replayable JSON file
    r = await ben.slash(thread_id, "partida export")
    await r.wait_done()
    assert not any(m.files for m in r.messages) and "sigue en juego" in r.text()
    await abandon(standin, ana, thread_id)
    r = await ben.slash(thread_id, "partida export")
    await r.wait_done()
    log = json.loads(next(iter(r.messages[-1].files.values())))
    assert log["game"] == "lost-cities" and len(log["actions"]) == 2


async def test_standing_orders_in_the_lobby_keep_the_lobby_usable(standin, partida):
    ana, ben, cy = standin.user("ana"), standin.user("ben", locale="es-ES"), standin.user("cy")
    r = await ana.slash("general", "partida new", game="lost-cities")
    r = await ana.slash("general", "partida prefer", orders="red, blue")
    await r.wait_done()
    assert "standing orders" in r.text() or "can't use" in r.text()  # Lost Cities takes none
    await ana.slash("general", "partida abandon")
    r = await ana.slash("general", "partida new", game="citadels")
    old_lobby = r.message
    await ben.click(r.message, label="Join")
    await standin.wait_until(lambda: ben.mention in standin.messages_by_id[r.message.id].content, 5, "ben joined")
    await cy.click(standin.messages_by_id[r.message.id], label="Join")
    await standin.wait_until(lambda: cy.mention in standin.messages_by_id[r.message.id].content, 5, "cy joined")
    r = await ben.slash("general", "partida prefer", orders="Rey, Mercader, Arquitecto")
    await r.wait_done()
    assert "Guardado" in r.text() and "king" in r.text()
    # standing orders are Ben's own note: the lobby's buttons stay valid, no second lobby is posted
    n = len(standin.messages[standin.channel_id("general")])
    start = await ana.click(standin.messages_by_id[old_lobby.id], label="Start")
    await start.wait(lambda x: "started" in x.content, 10)
    later = standin.messages[standin.channel_id("general")][n:]
    assert not [m for m in later if "Start" in [b.get("label") for b in m.buttons()]]
    assert len(standin.messages[standin.channel_id("general")]) >= n
