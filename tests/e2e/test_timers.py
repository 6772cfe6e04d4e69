"""Play over days end to end through the Discord stand-in (real discord.py, the Partida client, an
injected clock): a 3-player match where one player vanishes, is reminded, misses the deadline, is
replaced by the AI, comes back with one click and finishes the match."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot.core.settings import load_settings
from bot.discord.client import Partida
from bot.games import ui_for
from tests.bot.timers_harness import Clock


@pytest.fixture
async def timed(standin, tmp_path):
    clock = Clock()
    settings = load_settings(render_processes=0, discord_token=standin.token, database_url=f"sqlite:///{tmp_path}/p.sqlite3")
    client = Partida(settings, clock=clock)
    await standin.run_client(client)
    await standin.wait_commands()
    return client, clock


async def whose_turn(client, mid: int) -> int | None:
    rec = await client.store.get(mid)
    if rec.status != "active":
        return None
    loaded = client.service.load(rec)
    seat = loaded.to_move()[0]
    return None if rec.seats[seat].get("ai") else rec.seats[seat]["user_id"]


async def type_a_move(standin, client, person, mid: int, rng: random.Random) -> None:
    """The person types one legal move with /partida play (its token, as the autocomplete offers)."""
    rec = await client.store.get(mid)
    loaded = client.service.load(rec)
    seat = loaded.seat_of(person.id)
    action = rng.choice(loaded.game.legal_json(loaded.state, seat))
    r = await person.slash("general", "partida play", move=ui_for(rec.game).token(action))
    await r.wait_done(15)


async def test_a_player_vanishes_is_reminded_replaced_by_the_ai_comes_back_and_finishes(standin, timed):
    client, clock = timed
    ana = standin.user("ana", dms_open=False)
    ben = standin.user("ben", locale="es-ES", dms_open=False)
    carla = standin.user("carla")  # the one who vanishes; she reads her DMs
    channel = standin.channel_id("general")
    resp = await ana.slash("general", "partida new", game="carcassonne", options="deadline=1h policy=replace misses=1 post=new")
    lobby = resp.message
    for guest in (ben, carla):
        await guest.click(standin.messages_by_id[lobby.id], label="Join")
        await standin.wait_until(lambda g=guest: g.mention in standin.messages_by_id[lobby.id].content, 10, "the guest in the lobby")
    r = await ana.click(standin.messages_by_id[lobby.id], label="Start")
    await r.wait(lambda x: "started" in x.content, 10)
    mid = (await client.store.active_in_channel(channel)).id
    rng = random.Random(11)

    async def others_play_until_carla() -> None:
        for _ in range(40):
            who = await whose_turn(client, mid)
            if who == carla.id:
                return
            if who is None:  # an AI move is being made
                await asyncio.sleep(0.05)
                continue
            await type_a_move(standin, client, {ana.id: ana, ben.id: ben}[who], mid, rng)
        raise AssertionError("carla's turn never came")

    await others_play_until_carla()
    # her turn DM came with one picture (the table, her tile, the places); then she vanishes
    turn_dm = await carla.wait_for_dm(lambda m: m.content.startswith("Your turn"), 15)
    assert list(turn_dm.files) == ["hand.png"]
    # 30 minutes later (half the deadline): a reminder DM and one mention in the channel
    clock.advance(minutes=31)
    client.after.scheduler.wake()
    reminder = await carla.wait_for_dm(lambda m: "Waiting for you" in m.content, 15)
    assert "Carcassonne" in reminder.content and f"/channels/{standin.guild_id}/{channel}" in reminder.content
    mention = await standin.wait_for_message(channel, lambda m: "the table is waiting" in m.content, 15)
    assert carla.mention in mention.content
    # both carry "Take your turn" (issue 20): one tap to the turn's controls
    for m in (reminder, mention):
        assert [b["label"] for b in m.buttons() if b.get("custom_id", "").startswith("p:t:")] == ["Take your turn"]
    r = await carla.click(reminder, next(c for c in reminder.custom_ids() if c.startswith("p:t:")))
    await r.wait_done(timeout=10)
    assert r.messages[-1].ephemeral and list(r.messages[-1].files) == ["hand.png"] and r.messages[-1].custom_ids()
    # the deadline passes: the AI takes her seat (one miss allowed) and plays it at once
    clock.advance(minutes=30)
    client.after.scheduler.wake()
    notice = await standin.wait_for_message(channel, lambda m: "the AI plays their seat" in m.content, 15)
    dm = await carla.wait_for_dm(lambda m: "the AI plays your seat now" in m.content, 15)
    assert any(b.get("label") == "Take my seat back" for b in dm.buttons())
    assert any(b.get("label") == "Take my seat back" for b in notice.buttons())
    await standin.wait_until(lambda: any("🤖 [stand-in AI] carla" in m.content for m in standin.messages_in(channel)), 15, "the stand-in's move in the story")
    # the others play a couple of rounds with the AI in her seat
    for _ in range(6):
        who = await whose_turn(client, mid)
        if who is None:
            await asyncio.sleep(0.05)
            continue
        await type_a_move(standin, client, {ana.id: ana, ben.id: ben}[who], mid, rng)
    # she comes back: one click in her DM
    r = await carla.click(dm, label="Take my seat back")
    await r.wait_done(15)
    assert "You play your own seat again" in r.messages[-1].content
    await standin.wait_until(lambda: any("is back and plays their own seat again" in m.content for m in standin.messages_in(channel)), 15, "the table told")
    rec = await client.store.get(mid)
    assert rec.seats[2]["ai"] is None
    # everyone plays to the end; she gets her turns again and plays them
    carla_moves = 0
    people = {ana.id: ana, ben.id: ben, carla.id: carla}
    for _ in range(600):
        rec = await client.store.get(mid)
        if rec.status != "active":
            break
        who = await whose_turn(client, mid)
        if who is None:
            await asyncio.sleep(0.05)
            continue
        carla_moves += who == carla.id
        await type_a_move(standin, client, people[who], mid, rng)
    rec = await client.store.get(mid)
    assert rec.status == "finished" and carla_moves > 0
    final = await standin.wait_for_message(channel, lambda m: "match is over" in m.content, 20)
    assert "board.png" in final.files
    # she was told of her turns again after coming back, and reminded only while she was away
    assert len([m for m in carla.dms() if m.content.startswith("Your turn")]) > 1
    assert len([m for m in carla.dms() if "Waiting for you" in m.content]) == 1
    actions = await client.store.actions(mid)
    by_ai = [a for a in actions if a.seat == 2 and a.story and a.story["en"].startswith("🤖")]
    by_her = [a for a in actions if a.seat == 2 and not (a.story and a.story["en"].startswith("🤖"))]
    assert by_ai and by_her


async def test_timer_commands_through_the_stand_in_in_both_languages(standin, timed):
    client, clock = timed
    ana = standin.user("ana", dms_open=False)
    ben = standin.user("ben", locale="es-ES", dms_open=False)
    channel = standin.channel_id("general")
    away = next(c for c in standin.global_commands if c["name"] == "away")
    assert away["name_localizations"]["es-ES"] == "ausente"
    # a bad deadline: one line in the person's language, nothing created
    r = await ben.slash("general", "partida new", game="lost-cities", options="deadline=20m")
    await r.wait_done()
    assert r.ephemeral and "Plazo no válido" in r.text() and "\n" not in r.text().strip()
    assert await client.store.active_in_channel(channel) is None
    choices = await ben.autocomplete("general", "partida new", "options", game="lost-cities", options="")
    assert {"deadline=48h", "policy=replace", "misses=3"} <= {c["value"] for c in choices}
    assert any("tiempo por jugada" in c["name"] for c in choices)
    r = await ana.slash("general", "partida new", game="lost-cities", options="rounds=1 deadline=2d policy=standin post=new")
    lobby = r.message
    assert "Deadline: 2d; at the deadline: the stand-in AI plays that turn" in lobby.content
    await ben.click(lobby, label="Join")  # the lobby is in the host's language
    await standin.wait_until(lambda: ben.mention in standin.messages_by_id[lobby.id].content, 10, "ben joined")
    r = await ana.click(standin.messages_by_id[lobby.id], label="Start")
    await r.wait(lambda x: "started" in x.content, 10)
    # only the host changes the timers; anyone may look at them
    r = await ben.slash("general", "partida deadline", time="6h")
    await r.wait_done()
    assert "Solo el anfitrión" in r.text()
    r = await ben.slash("general", "partida deadline")
    await r.wait_done()
    assert "Plazo: 2d" in r.text()
    r = await ana.slash("general", "partida deadline", time="6h", policy="wait")
    await r.wait_done()
    assert "Deadline: 6h; at the deadline: keep waiting" in r.text()
    await standin.wait_for_message(channel, lambda m: "The host changed the timers" in m.content, 10)
    r = await ana.slash("general", "partida deadline", policy="sometimes")
    await r.wait_done()
    assert "Invalid policy" in r.text()
    # heads-up, quiet hours and away, in Spanish for ben
    r = await ben.slash("general", "partida headsup", on=True)
    await r.wait_done()
    assert "Te avisaré" in r.text()
    r = await ben.slash("general", "quiet", start="23:00", end="07:30", timezone="Europe/Madrid")
    await r.wait_done()
    assert "23:00–07:30 (Europe/Madrid)" in r.text() and "silencio" in r.text()
    r = await ben.slash("general", "quiet", start="23:00", end="07:30", timezone="Marte/Olimpo")
    await r.wait_done()
    assert "Zona horaria desconocida" in r.text()
    assert (await client.store.person(ben.id))["tz"] == "Europe/Madrid"
    r = await ben.slash("general", "away", days=3)
    await r.wait_done()
    assert "Estás ausente hasta" in r.text()
    r = await ben.slash("general", "partida status")
    await r.wait_done()
    assert "⏱️ Plazo: 6h; al vencer el plazo: seguir esperando" in r.text() and "el plazo vence dentro de 6 horas" in r.text()
    told = await standin.wait_for_message(channel, lambda m: "is away until" in m.content, 10)
    assert ben.mention in told.content
    r = await ben.slash("general", "away", days=0)
    await r.wait_done()
    assert "Ya estás de vuelta" in r.text()
    await standin.wait_for_message(channel, lambda m: f"{ben.mention} is back" in m.content, 10)
