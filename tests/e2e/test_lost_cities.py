"""Lost Cities end to end: real discord.py, the Partida client, the local Discord stand-in."""

from __future__ import annotations

import json
import random

import pytest

from bot.client import Partida
from bot.settings import load_settings
from bot.store import open_store
from engines.match import Match
from tests.standin.fixtures import standin  # noqa: F401

from .helpers import controls, is_board, private_controls, take_turn, turn_button


@pytest.fixture
async def partida(standin, tmp_path):  # noqa: F811
    settings = load_settings(discord_token=standin.token, database_url=f"sqlite:///{tmp_path}/p.sqlite3")
    client = Partida(settings)
    await standin.run_client(client)
    await standin.wait_commands()
    return client


async def open_match(standin, host, guest, **options):
    resp = await host.slash("general", "partida new", game="lost-cities", **options)
    assert not resp.ephemeral and "Lost Cities" in resp.content
    lobby = resp.message
    r = await guest.click(lobby, label="Join")
    assert r.type == 7 and guest.mention in standin.messages_by_id[lobby.id].content
    lobby = standin.messages_by_id[lobby.id]
    r = await host.click(lobby, label="Start")
    await r.wait(lambda x: "started" in x.content)
    return lobby


async def test_two_people_play_a_whole_three_round_match_by_clicking(standin, partida):  # noqa: F811
    ana = standin.user("ana")
    ben = standin.user("ben", locale="es-ES", dms_open=False)  # ben plays through the channel
    channel = standin.channel_id("general")
    await open_match(standin, ana, ben)
    rng = random.Random(7)
    seen = 0
    turns = 0
    dm_seen = {ana.id: 0}
    while True:
        board = await standin.wait_for_message(channel, lambda m: is_board(m) or "match is over" in m.content, 15, after=seen)
        seen = standin.messages[channel].index(board) + 1
        if not turn_button(board):
            break
        mover = ana if ana.mention in board.content else ben
        assert (ben.mention in board.content) == (mover is ben)
        msg = await private_controls(standin, mover, board, mover is ana, dm_seen.get(mover.id, 0))
        if mover is ana:
            dm_seen[ana.id] = len(ana.dms())
        await take_turn(standin, mover, msg, rng)
        turns += 1
    assert "match is over" in board.content and "Final scores" in board.content
    assert turns == 3 * 44  # every turn draws one deck card; 44 per round
    # ben's DMs were closed: the channel was told once, without anything private
    notes = [m for m in standin.messages_in(channel) if "can't send you direct messages" in m.content]
    assert len(notes) == 1 and ben.mention in notes[0].content
    # nothing hidden was ever posted publicly: public messages carry only board pictures
    for m in standin.messages_in(channel):
        assert set(m.files) <= {"board.png"}
    # each private message went only to its owner
    assert all(m.visible_to == ben.id for m in standin.ephemerals(ben))
    assert all(m.visible_to == ana.id for m in standin.ephemerals(ana))
    assert ana.dms() and not ben.dms()
    # the export replays to the same final scores
    r = await ana.slash("general", "partida export")
    await r.wait_done()
    log = json.loads(next(iter(r.messages[-1].files.values())))
    replay = Match.from_log(log)
    assert replay.over and len(replay.game.round_scores(replay.state)) == 3
    for s, name in zip(replay.result().scores, ("ana", "ben"), strict=True):
        assert f"{name} {s}" in board.content
    print(f"{standin.checked_requests} requests checked against the Discord API spec")


async def test_outsiders_stale_buttons_illegal_choices_and_double_clicks(standin, partida, tmp_path):  # noqa: F811
    ana = standin.user("ana", dms_open=False)
    ben = standin.user("ben", locale="es-ES", dms_open=False)
    eve = standin.user("eve")
    channel = standin.channel_id("general")
    await open_match(standin, ana, ben)
    board = await standin.wait_for_message(channel, lambda m: is_board(m), 10)
    # a third person cannot act and never sees a hand
    r = await eve.click(board, turn_button(board))
    await r.wait_done()
    assert "not playing" in r.text() and not any("hand.png" in m.files for m in r.messages)
    # the player not to move sees their hand but gets no controls
    r = await ben.click(board, turn_button(board))
    await r.wait_followups(1)
    m = r.followups[-1]
    assert "No es tu turno" in m.content and m.files.get("hand.png") and controls(m) == (None, [])
    # ana opens her controls
    r = await ana.click(board, turn_button(board))
    await r.wait_followups(1)
    msg = r.followups[-1]
    select, _ = controls(msg)
    card = msg.component(select)["options"][0]["value"]
    await ana.select(msg, select, [card])
    msg = standin.messages_by_id[msg.id]
    discard = next(b["custom_id"] for b in controls(msg)[1] if ":x." in b["custom_id"])
    # eve presses ana's button (as if she could see it): refused, nothing changes
    store = await open_store(f"sqlite:///{tmp_path}/p.sqlite3")
    try:
        rec = await store.active_in_channel(channel)
        version = rec.version
        # double click: two presses of the same discard button at once
        import asyncio

        r1, r2 = await asyncio.gather(ana.click(msg, discard), ana.click(msg, discard))
        await standin.wait_until(lambda: len(r1.followups) + len(r2.followups) >= 1 or r1.type == 4 or r2.type == 4, 10, "a refusal")
        rec = await store.get(rec.id)
        assert rec.version == version + 1 and len(await store.actions(rec.id)) == 1
        refusal = (r1.followups or r2.followups or [r1.message if r1.type == 4 else r2.message])[0]
        assert "out of date" in refusal.content and refusal.ephemeral
        # a stale button (the old board's turn button after the state moved on) changes nothing
        r = await ana.click(msg, discard)
        await r.wait_response()
        assert "out of date" in r.text() and len(await store.actions(rec.id)) == 1
        # an illegal choice: drawing back the card just discarded is not offered; forcing it is refused
        msg = standin.messages_by_id[msg.id]
        tokens = [b["custom_id"] for b in controls(msg)[1]]
        assert tokens and all(":d." in t for t in tokens)
        colour = card.split("-")[0]
        assert not any(t.endswith(f":d.{colour}") for t in tokens)
        forged = tokens[0].rsplit(":", 1)[0] + f":d.{colour}"
        r = await ana.click_forged(msg, forged) if hasattr(ana, "click_forged") else None
        if r is not None:
            await r.wait_response()
            assert "cannot take back" in r.text()
        assert len(await store.actions(rec.id)) == 1
    finally:
        await store.close()
