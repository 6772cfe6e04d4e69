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


async def test_components_act_only_on_the_match_of_their_own_channel(standin, partida):
    """Issue 19: a forged p:a:<id> clicked in another channel let that channel's admin abandon
    #general's match (the rights were those of the clicked channel), and p:l:join joined a lobby
    of another channel. The check is now with the match: its own channel (or a DM for the buttons
    sent by DM)."""
    import dataclasses

    from .helpers import forged_click

    def carrying(msg, custom_id):  # a crafted client: the bot's message there, showing a button it never had
        row = {"type": 1, "components": [{"type": 2, "style": 1, "label": "x", "custom_id": custom_id}]}
        return dataclasses.replace(msg, raw={**msg.raw, "components": [row]})

    other = standin.create_channel("other")
    ana, ben = standin.user("ana"), standin.user("ben")
    mod = standin.user("mod", admin=True, locale="es-ES")  # an admin: of the other channel too
    r = await ana.slash("general", "partida new", game="lost-cities")
    lobby = r.message
    rec = await partida.service.store.active_in_channel(standin.channel_id("general"))
    r = await mod.slash(other, "partida rules")  # a message of the bot's there, with no buttons of its own
    await r.wait_done()
    there = r.messages[-1]
    r = await forged_click(standin, ben, carrying(there, f"p:l:join:{rec.id}:0"), f"p:l:join:{rec.id}:0")
    await r.wait_followups(1)
    assert "another channel" in r.followups[-1].content and r.followups[-1].ephemeral, r.followups[-1].content
    assert ben.mention not in standin.messages_by_id[lobby.id].content
    assert [s["user_id"] for s in (await partida.service.store.get(rec.id)).seats] == [ana.id]
    await ben.click(lobby, label="Join")  # in its own channel it works
    await standin.wait_until(lambda: ben.mention in standin.messages_by_id[lobby.id].content, 10, "ben joined")
    r = await forged_click(standin, mod, carrying(there, f"p:a:{rec.id}"), f"p:a:{rec.id}")
    await r.wait_done()
    assert "otro canal" in r.text(), r.text()
    assert (await partida.service.store.get(rec.id)).status == "lobby"
    r = await forged_click(standin, mod, carrying(there, f"p:rm:{rec.id}"), f"p:rm:{rec.id}")
    await r.wait_done()
    assert "otro canal" in r.text(), r.text()
