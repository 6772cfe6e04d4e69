"""Lost Cities end to end: real discord.py, the Partida client, the local Discord stand-in."""

from __future__ import annotations

import asyncio
import json
import random

import pytest

from bot.core.settings import load_settings
from bot.discord.client import Partida
from bot.store import open_store
from engines.match import Match

from .helpers import (
    controls,
    forged_click,
    is_board,
    named,
    private_controls,
    public_files_ok,
    take_turn,
    turn_button,
)


@pytest.fixture
async def partida(standin, tmp_path):
    settings = load_settings(render_processes=0, discord_token=standin.token, database_url=f"sqlite:///{tmp_path}/p.sqlite3")
    client = Partida(settings)
    await standin.run_client(client)
    await standin.wait_commands()
    return client


async def open_match(standin, host, guest, **options):
    resp = await host.slash("general", "partida new", game="lost-cities", **options)
    assert not resp.ephemeral and "Lost Cities" in resp.content
    lobby = resp.message
    await guest.click(lobby, label="Join")
    await standin.wait_until(lambda: guest.mention in standin.messages_by_id[lobby.id].content, 10, "the lobby to list the guest")
    lobby = standin.messages_by_id[lobby.id]
    r = await host.click(lobby, label="Start")
    await r.wait(lambda x: "started" in x.content)
    return lobby


@pytest.fixture
async def partida_processes(standin, tmp_path):
    """The production set-up: pictures drawn in worker processes."""
    settings = load_settings(render_processes=2, discord_token=standin.token, database_url=f"sqlite:///{tmp_path}/p.sqlite3")
    client = Partida(settings)
    await standin.run_client(client)
    await standin.wait_commands()
    yield client
    client.present.close()


async def test_two_people_play_a_whole_three_round_match_by_clicking(standin, partida_processes):
    ana = standin.user("ana")
    ben = standin.user("ben", locale="es-ES", dms_open=False)  # ben plays through the channel
    channel = standin.channel_id("general")
    await open_match(standin, ana, ben, options="post=new")  # a board post a turn (post=edit is the default)
    rng = random.Random(7)
    seen = 0
    turns = 0
    dm_seen = {ana.id: 0}
    while True:
        board = await standin.wait_for_message(channel, lambda m: is_board(m) or "match is over" in m.content, 15, after=seen)
        seen = standin.messages[channel].index(board) + 1
        if not turn_button(board):
            break
        mover = ana if named(board, ana) else ben
        assert named(board, ben) == (mover is ben)
        # one notification a turn: ana's turn DM; ben's DMs are closed, so the channel mentions
        # him (his first turn: the note that his DMs are closed does, below)
        assert ana.mention not in board.content
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
        assert public_files_ok(m), (m.content, list(m.files))
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


async def test_outsiders_stale_buttons_illegal_choices_and_double_clicks(standin, partida, tmp_path):
    ana = standin.user("ana")
    ben = standin.user("ben", locale="es-ES", dms_open=False)
    eve = standin.user("eve")
    channel = standin.channel_id("general")
    await open_match(standin, ana, ben)
    board = await standin.wait_for_message(channel, is_board, 10)
    store = await open_store(f"sqlite:///{tmp_path}/p.sqlite3")
    try:
        rec = await store.active_in_channel(channel)
        # a third person cannot act and never sees a hand
        r = await eve.click(board, turn_button(board))
        await r.wait_done()
        assert "not playing" in r.text() and not any("hand.png" in m.files for m in r.messages)
        r = await eve.slash("general", "partida hand")
        await r.wait_done()
        assert "not playing" in r.text() and not r.files
        # the player not to move sees their own hand, in Spanish, but gets no controls
        r = await ben.click(board, turn_button(board))
        await r.wait_done()
        m = r.messages[-1]
        assert m.ephemeral and "No es tu turno" in m.content and m.files.get("hand.png") and controls(m) == (None, [])
        # ana got her turn by DM, but opens her controls in the channel and picks a card there
        dm = await private_controls(standin, ana, board, True, 0)
        msg = await private_controls(standin, ana, board, False, 0)
        discard = next(b["custom_id"] for b in controls(msg)[1] if ":x." in b["custom_id"])  # one tap, no card menu
        card = discard.split(":x.")[-1]
        # eve presses ana's discard button (as if she could see it): refused, nothing changes
        r = await forged_click(standin, eve, msg, discard)
        await r.wait_followups(1)
        assert "not playing" in r.followups[-1].content and r.followups[-1].ephemeral
        assert len(await store.actions(rec.id)) == 0
        # double click: two presses of the same discard button at once apply once
        r1, r2 = await asyncio.gather(ana.click(msg, discard), ana.click(msg, discard))
        await standin.wait_until(lambda: any("out of date" in x.text() for x in (r1, r2)), 10, "a refusal")
        rec2 = await store.get(rec.id)
        assert rec2.version == rec.version + 1 and len(await store.actions(rec.id)) == 1
        # the DM's controls are stale now: refused with the current state, nothing changes
        r = await ana.click(dm, next(b["custom_id"] for b in controls(dm)[1] if ":p." in b["custom_id"] or ":x." in b["custom_id"]))
        await r.wait_followups(1)
        assert "out of date" in r.followups[-1].content and r.followups[-1].ephemeral
        assert len(await store.actions(rec.id)) == 1
        # illegal choices typed by hand get the rules' reason, in the person's language, and change nothing
        colour = card.split("-")[0]
        r = await ana.slash("general", "partida play", move=f"d.{colour}")
        await r.wait_done()
        assert "cannot take back" in r.text() and r.messages[-1].ephemeral
        r = await ana.slash("general", "partida play", move="fly away")
        await r.wait_done()
        assert "don't understand" in r.text()
        r = await ben.slash("general", "partida play", move="d.deck")
        await r.wait_done()
        assert "No es tu turno" in r.text()
        assert len(await store.actions(rec.id)) == 1 and (await store.get(rec.id)).version == rec.version + 1
        # the legal moves are offered while typing
        choices = await ana.autocomplete("general", "partida play", "move", move="")
        assert {c["value"] for c in choices} >= {"d.deck"} and all(c["value"] != f"d.{colour}" for c in choices)
        r = await ana.slash("general", "partida play", move="d.deck")
        await r.wait_done()
        assert "drew from the deck" in r.text()
        assert len(await store.actions(rec.id)) == 2
    finally:
        await store.close()


async def test_an_ai_seat_plays_its_turns_by_itself(standin, partida):
    ana = standin.user("ana", dms_open=False)
    channel = standin.channel_id("general")
    resp = await ana.slash("general", "partida new", game="lost-cities", options="rounds=1 post=new")
    lobby = resp.message
    await ana.click(lobby, label="Add AI")
    lobby = await standin.wait_until(lambda: m if "AI 1" in (m := standin.messages_by_id[lobby.id]).content else None, 10, "AI seat")
    r = await ana.click(lobby, label="Start")
    await r.wait(lambda x: "started" in x.content)
    rng = random.Random(3)
    seen, ai_boards, ana_turns = 0, 0, 0
    while True:
        board = await standin.wait_for_message(channel, lambda m: is_board(m), 15, after=seen)
        seen = standin.messages[channel].index(board) + 1
        if not turn_button(board):
            break
        if named(board, ana):
            msg = await private_controls(standin, ana, board, False, 0)
            await take_turn(standin, ana, msg, rng)
            ana_turns += 1
        else:
            ai_boards += 1  # the AI's turn: nobody clicks, the next board comes by itself
    # ana always draws from the deck (44 cards: at least 22 turns of hers); the AI may take discards
    assert "match is over" in board.content and ana_turns >= 22
    # no board waits on the AI: its turn is told with the next post, which is ana's again
    assert ai_boards == 0


async def test_after_a_restart_an_ai_seat_that_was_to_move_carries_on(standin, tmp_path):
    """The match was left with the AI to move (say the process died): the new process resumes it."""
    db = f"sqlite:///{tmp_path}/resume.sqlite3"
    ana = standin.user("ana", dms_open=False)
    channel = standin.channel_id("general")
    store = await open_store(db)
    game = Match.create("lost-cities", ["AI 1", "ana"], {"rounds": 1}, seed=9)
    rec = await store.create_match(
        standin.guild_id, channel, "lost-cities", ana.id,
        [{"user_id": None, "ai": "heuristic", "name": "AI 1"}, {"user_id": ana.id, "ai": None, "name": "ana"}],
        game.options.model_dump(), "en",
    )
    await store.update(rec.id, rec.version, status="active", seed=9, state=game.game.dump(game.state))
    await store.close()
    client = Partida(load_settings(render_processes=0, discord_token=standin.token, database_url=db))
    await standin.run_client(client)
    board = await standin.wait_for_message(channel, is_board, 15)
    assert named(board, ana)  # the AI played its turn with nobody clicking
    store = await open_store(db)
    try:
        assert [a.seat for a in await store.actions(rec.id)] == [0, 0]
    finally:
        await store.close()


async def test_board_edit_keeps_one_board_message_and_posts_a_line_per_turn(standin, partida):
    """post=edit over real discord.py and the stand-in: the board message is edited (a new
    picture, a fresh button: an edit with attachments the API schema accepts), each turn a line."""
    ana = standin.user("ana")
    ben = standin.user("ben", dms_open=False)  # ben plays through the board message's button
    channel = standin.channel_id("general")
    await open_match(standin, ana, ben, options="post=edit rounds=1")
    board = await standin.wait_for_message(channel, is_board, 15)
    rng = random.Random(3)
    dm_seen = 0
    board_id = board.id
    for turn in range(4):
        board = await standin.wait_until(
            lambda n=turn: (b := standin.messages_by_id[board_id]).edits >= n and turn_button(b) and b, 15, "the board edited")
        mover = ana if named(board, ana) else ben
        msg = await private_controls(standin, mover, board, mover is ana, dm_seen)
        if mover is ana:
            dm_seen = len(ana.dms())
        await take_turn(standin, mover, msg, rng)
    def posts():
        return [m for m in standin.messages[channel] if not m.ephemeral and m.author_id == standin.bot_id]

    # the fourth turn's line comes right after the fourth edit
    lines = await standin.wait_until(lambda: len(x := [m for m in posts() if "→" in m.content]) >= 4 and x, 15, "four lines")
    board = standin.messages_by_id[board.id]
    assert board.edits >= 4 and list(board.files) == ["board.png"]
    assert sum(1 for m in posts() if "board.png" in m.files) == 1  # one board message, edited
    assert all(m.content.endswith(f"/{board.id})") and not m.files for m in lines)


async def test_a_strong_ai_seat_thinks_in_a_worker_process_and_plays(standin, partida):
    """ai=strong in the real client: the AI's searches run in a worker process (AI_PROCESSES,
    default 1), started on its first decision, and its moves come through as always."""
    import os

    ana = standin.user("ana", dms_open=False)
    channel = standin.channel_id("general")
    resp = await ana.slash("general", "partida new", game="lost-cities", options="rounds=1 ai=strong post=new")
    lobby = resp.message
    await ana.click(lobby, label="Add AI")
    lobby = await standin.wait_until(lambda: m if "AI 1" in (m := standin.messages_by_id[lobby.id]).content else None, 10, "AI seat")
    r = await ana.click(lobby, label="Start")
    await r.wait(lambda x: "started" in x.content)
    rng = random.Random(4)
    seen = 0
    for _ in range(3):  # three turns of ana's: the AI moved in between (or first)
        board = await standin.wait_for_message(channel, lambda m: is_board(m) and named(m, ana), 30, after=seen)
        seen = standin.messages[channel].index(board) + 1
        msg = await private_controls(standin, ana, board, False, 0)
        await take_turn(standin, ana, msg, rng)
    await standin.wait_for_message(channel, lambda m: is_board(m) and named(m, ana), 30, after=seen)
    thinker = partida.service.thinker
    assert thinker.last_pid not in (None, os.getpid())  # the last AI decision was made in the worker
    store = partida.store
    rec = (await store.live_matches())[0]
    ai_moves = [a for a in await store.actions(rec.id) if rec.seats[a.seat].get("ai")]
    assert len(ai_moves) >= 6  # three AI turns, two actions each
