"""Members cannot use the bot to do what Discord would not let them do themselves, nor to spam:
threads need the person's Create Public Threads permission and are limited per hour; invitation DMs
are for the match's players and host, and limited per hour."""

from __future__ import annotations

import pytest

from bot.core.settings import load_settings
from bot.discord.client import Partida
from bot.discord.commands import PartidaCog

CREATE_PUBLIC_THREADS = 1 << 35


@pytest.fixture
async def partida(standin, tmp_path):
    client = Partida(load_settings(render_processes=0, discord_token=standin.token, database_url=f"sqlite:///{tmp_path}/a.sqlite3"))
    await standin.run_client(client)
    await standin.wait_commands()
    yield client


async def test_a_thread_needs_the_persons_permission_and_is_limited_per_hour(standin, partida):
    eve = standin.user("eve", locale="es-ES")
    eve.permissions &= ~CREATE_PUBLIC_THREADS
    r = await eve.slash("general", "partida new", game="lost-cities", thread=True)
    await r.wait_done()
    assert r.ephemeral and "Crear hilos públicos" in r.text(), r.text()
    assert standin.threads() == []  # nothing created, no lobby anywhere
    ana = standin.user("ana")
    for n in range(PartidaCog.THREADS_PER_HOUR):
        r = await ana.slash("general", "partida new", game="lost-cities", thread=True)
        await r.wait_done()
        assert len(standin.threads()) == n + 1
    r = await ana.slash("general", "partida new", game="lost-cities", thread=True)
    await r.wait_done()
    assert r.ephemeral and "try again in" in r.text(), r.text()
    assert len(standin.threads()) == PartidaCog.THREADS_PER_HOUR
    # the limit is per person: someone else still may
    ben = standin.user("ben")
    r = await ben.slash("general", "partida new", game="lost-cities", thread=True)
    await r.wait_done()
    assert len(standin.threads()) == PartidaCog.THREADS_PER_HOUR + 1


async def test_only_players_and_the_host_invite_and_invites_are_limited(standin, partida):
    ana, ben, out, dan = standin.user("ana"), standin.user("ben"), standin.user("out", locale="es-ES"), standin.user("dan")
    r = await ana.slash("general", "partida new", game="lost-cities")
    lobby = r.message
    await ben.click(lobby, label="Join")
    await standin.wait_until(lambda: ben.mention in standin.messages_by_id[lobby.id].content, 5, "ben joined")
    r = await out.slash("general", "partida invite", user=dan.id)
    await r.wait_done()
    assert r.ephemeral and "Solo los jugadores" in r.text(), r.text()
    assert dan.dms() == []
    r = await ben.slash("general", "partida invite", user=dan.id)  # a player who is not the host may
    await r.wait_done()
    assert "Invitation sent" in r.text() and len(dan.dms()) == 1
    for _ in range(PartidaCog.INVITES_PER_HOUR - 1):
        r = await ben.slash("general", "partida invite", user=dan.id)
        await r.wait_done()
    assert len(dan.dms()) == PartidaCog.INVITES_PER_HOUR
    r = await ben.slash("general", "partida invite", user=dan.id)
    await r.wait_done()
    assert "try again in" in r.text() and len(dan.dms()) == PartidaCog.INVITES_PER_HOUR


async def test_a_bad_ai_level_is_refused_in_one_line_and_creates_nothing(standin, partida):
    ana = standin.user("ana", locale="es-ES")
    r = await ana.slash("general", "partida new", game="lost-cities", options="ai=genius")
    await r.wait_done()
    assert r.ephemeral and "ai=genius no es un nivel" in r.text(), r.text()
    r = await ana.slash("general", "partida new", game="lost-cities", options="post=sideways")
    await r.wait_done()
    assert r.ephemeral and "post=sideways no es una opción" in r.text(), r.text()
    r = await ana.slash("general", "partida new", game="lost-cities", options="ai=strong")
    await r.wait_done()
    lobby = r.message
    await ana.click(lobby, label="Add AI")  # the lobby speaks the server's language
    await standin.wait_until(lambda: "AI 1" in standin.messages_by_id[lobby.id].content, 10, "the AI seat")


async def test_seat_invitations_share_one_limit_with_invites(standin, partida):
    """A host alone with an AI: /partida seat sent a DM with a button each time, without limit
    (issue 19). Every person-to-person message the bot sends on someone's command (invite, seat,
    rematch, vote requests) now counts against one shared limit per person."""
    ana, dan, eve = standin.user("ana"), standin.user("dan"), standin.user("eve")
    r = await ana.slash("general", "partida new", game="lost-cities")
    lobby = r.message
    await ana.click(lobby, label="Add AI")
    await standin.wait_until(lambda: "AI 1" in standin.messages_by_id[lobby.id].content, 10, "the AI seat")
    r = await ana.click(standin.messages_by_id[lobby.id], label="Start")
    await r.wait(lambda x: "started" in x.content, 10)
    limit = PartidaCog.INVITES_PER_HOUR
    for _ in range(3):
        r = await ana.slash("general", "partida invite", user=eve.id)
        await r.wait_done()
        assert "Invitation sent" in r.text(), r.text()
    sent = 0
    for _ in range(15):
        r = await ana.slash("general", "partida seat", user=dan.id)
        await r.wait_done()
        if "try again in" in r.text():
            continue
        assert "seat 2" in r.text(), r.text()
        sent += 1
    assert sent == limit - 3  # the invites and the seat invitations share one budget
    await standin.wait_until(lambda: len([m for m in dan.dms() if m.custom_ids()]) >= sent, 10, "the invitations")
    assert len(dan.dms()) == sent and len(eve.dms()) == 3
    # the limit is per person: someone else's budget is untouched
    r = await standin.user("ben").slash("general", "partida new", game="lost-cities", thread=True)
    await r.wait_done()
    assert "try again in" not in r.text()


async def test_stats_and_the_leaderboard_are_limited_per_person(standin, partida):
    """Issue 19: /partida stats and /partida leaderboard read every finished match of the server;
    nothing stopped one person from asking again and again."""
    ana, ben = standin.user("ana"), standin.user("ben", locale="es-ES")
    for n in range(PartidaCog.STATS_PER_MINUTE):
        r = await ana.slash("general", "partida stats" if n % 2 else "partida leaderboard")
        await r.wait_done()
        assert "try again in" not in r.text(), r.text()
    r = await ana.slash("general", "partida leaderboard")
    await r.wait_done()
    assert r.ephemeral and "try again in" in r.text(), r.text()
    r = await ben.slash("general", "partida stats")  # someone else still may
    await r.wait_done()
    assert "vuelve a intentarlo" not in r.text(), r.text()
