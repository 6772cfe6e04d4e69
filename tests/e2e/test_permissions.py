"""Abandoning a match: the host, or a member who may manage channels, and nobody else."""

from __future__ import annotations

import pytest

from bot.core.settings import load_settings
from bot.discord.client import Partida


@pytest.fixture
async def partida(standin, tmp_path):
    client = Partida(load_settings(render_processes=0, discord_token=standin.token, database_url=f"sqlite:///{tmp_path}/a.sqlite3"))
    await standin.run_client(client)
    await standin.wait_commands()
    return client


async def test_a_moderator_may_abandon_someone_elses_match(standin, partida):
    ana = standin.user("ana")
    mod = standin.user("mod", admin=True, locale="es-ES")
    eve = standin.user("eve", locale="es-ES")
    await ana.slash("general", "partida new", game="lost-cities")
    r = await eve.slash("general", "partida abandon")
    assert r.ephemeral and "Solo el anfitrión" in r.text()
    r = await mod.slash("general", "partida abandon")
    assert not r.ephemeral and "abandoned by mod" in r.text()  # the channel hears it in the match language
    r = await ana.slash("general", "partida new", game="lost-cities")  # the channel is free again
    assert not r.ephemeral and "Lost Cities" in r.text()
