"""A turn's clicks are answered by their own response when the answer is ready within
``flows.GRACE`` (one request: type 4 for the turn's controls, 7 for a move's edit), and
acknowledged first when it is not (5 / 6, then the follow-up or the edit): the person sees the
same message either way (issue 18: fewer requests per click)."""

from __future__ import annotations

import pytest

from bot.core.settings import load_settings
from bot.discord import flows
from bot.discord.client import Partida

from .helpers import controls, is_board, turn_button, wait_change


@pytest.fixture
async def partida(standin, tmp_path):
    client = Partida(load_settings(render_processes=0, discord_token=standin.token, database_url=f"sqlite:///{tmp_path}/s.sqlite3"))
    await standin.run_client(client)
    await standin.wait_commands()
    return client


async def _a_turn(standin) -> tuple[list[int], str, str]:
    """Ana's first Lost Cities turn from the channel: the callback types of its three clicks and
    what the controls said after the play and after the draw."""
    ana, ben = standin.user("ana", dms_open=False), standin.user("ben", dms_open=False)
    r = await ana.slash("general", "partida new", game="lost-cities", options="post=new")
    lobby = r.message
    await ben.click(lobby, label="Join")
    await standin.wait_until(lambda: ben.mention in standin.messages_by_id[lobby.id].content, 10, "ben joined")
    r = await ana.click(standin.messages_by_id[lobby.id], label="Start")
    await r.wait(lambda x: "started" in x.content, 10)
    board = await standin.wait_for_message("general", is_board, 10)
    r = await ana.click(board, turn_button(board))
    await r.wait_done()
    types = [r.type]
    msg = r.messages[-1]
    assert msg.ephemeral and len(msg.files) == 1, msg.files  # the one picture of the turn
    play = next(b["custom_id"] for b in controls(msg)[1] if ":p." in b["custom_id"] or ":x." in b["custom_id"])
    before = msg.content
    r = await ana.click(msg, play)
    msg = await wait_change(standin, msg, before)
    types.append(r.type)
    after_play = msg.content
    draw = next(b["custom_id"] for b in controls(msg)[1] if b["custom_id"].endswith(":d.deck"))
    before = msg.content
    r = await ana.click(msg, draw)
    msg = await wait_change(standin, msg, before)
    types.append(r.type)
    assert not controls(msg)[1]  # the turn is over: no controls left
    return types, after_play, msg.content


async def test_a_ready_answer_is_the_clicks_own_response(standin, partida, monkeypatch):
    monkeypatch.setattr(flows, "GRACE", 30.0)  # never late: every answer goes out as the response
    types, after_play, after_draw = await _a_turn(standin)
    assert types == [4, 7, 7], types
    assert "draw" in after_play.lower() and after_draw


async def test_a_late_answer_is_acknowledged_first_then_shown(standin, partida, monkeypatch):
    monkeypatch.setattr(flows, "GRACE", 0.0)  # always late: acknowledged before the answer is ready
    types, after_play, after_draw = await _a_turn(standin)
    assert types == [5, 6, 6], types
    assert "draw" in after_play.lower() and after_draw
