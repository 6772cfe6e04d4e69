"""A click on a stale button of a turn DM (the match moved on: a crash between a click's commit and
its answer, or a move made from the channel) shows fresh controls when it is still that person's
turn; before, the answer was the status with no controls and the player had to find "Take your
turn" (issue 19)."""

from __future__ import annotations

import pytest

from bot.core.settings import load_settings
from bot.discord.client import Partida

from .helpers import controls, is_board, private_controls


@pytest.fixture
async def partida(standin, tmp_path):
    client = Partida(load_settings(render_processes=0, discord_token=standin.token, database_url=f"sqlite:///{tmp_path}/s.sqlite3"))
    await standin.run_client(client)
    await standin.wait_commands()
    return client


async def test_a_stale_dm_button_shows_fresh_controls_while_it_is_still_your_turn(standin, partida):
    ana, ben = standin.user("ana"), standin.user("ben", locale="es-ES")
    r = await ana.slash("general", "partida new", game="lost-cities")
    lobby = r.message
    await ben.click(lobby, label="Join")
    await standin.wait_until(lambda: ben.mention in standin.messages_by_id[lobby.id].content, 10, "ben joined")
    r = await ana.click(standin.messages_by_id[lobby.id], label="Start")
    await r.wait(lambda x: "started" in x.content, 10)
    board = await standin.wait_for_message("general", is_board, 10)
    dm = await private_controls(standin, ana, board, True, 0)
    # she plays her card from the channel's controls: the DM's buttons are now out of date
    msg = await private_controls(standin, ana, board, False, 0)
    _, buttons = controls(msg)
    before = msg.content
    await ana.click(msg, next(b["custom_id"] for b in buttons if ":x." in b["custom_id"]))
    await standin.wait_until(lambda: standin.messages_by_id[msg.id].content != before, 10, "the discard")
    # back in her DM, she presses a (stale) card button there: it is still her turn (she must draw)
    _, old = controls(dm)
    r = await ana.click(dm, old[0]["custom_id"])
    await r.wait_followups(1, timeout=10)
    fresh = r.followups[-1]
    assert "out of date" in fresh.content and fresh.ephemeral, fresh.content
    draw = next(c for c in fresh.custom_ids() if c.endswith(":d.deck"))  # fresh controls: the draws
    before = fresh.content
    await ana.click(fresh, draw)  # and they work
    await standin.wait_until(lambda: standin.messages_by_id[fresh.id].content != before, 10, "the draw")
    rec = await partida.service.store.active_in_channel(standin.channel_id("general"))
    assert len(await partida.service.store.actions(rec.id)) == 2
    # her turn is over: the DM's stale button answers as before, out of date, with no controls
    r = await ana.click(dm, old[0]["custom_id"])
    await r.wait_followups(1, timeout=10)
    assert "out of date" in r.followups[-1].content and not controls(r.followups[-1])[1], r.followups[-1].content
    assert len(await partida.service.store.actions(rec.id)) == 2
