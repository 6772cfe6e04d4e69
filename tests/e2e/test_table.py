"""The table end to end through the Discord stand-in, by clicking: undo (at once, and approved by a
vote), abandon by a vote, leaving to the AI and an invited person taking the seat, the seed's hash at
the start against the seed and log published on the final board, rematch, the log in pages, stats."""

from __future__ import annotations

import hashlib
import json
import random

import pytest

from bot.core.settings import load_settings
from bot.discord.client import Partida
from engines.lost_cities.ai import HeuristicPlayer

from .helpers import controls, is_board, turn_button, wait_change


@pytest.fixture
async def partida(standin, tmp_path):
    client = Partida(load_settings(render_processes=0, discord_token=standin.token, database_url=f"sqlite:///{tmp_path}/t.sqlite3"))
    await standin.run_client(client)
    await standin.wait_commands()
    return client


async def open_match(standin, host, guest, **options):
    options["options"] = f"{options.get('options', '')} post=new".strip()  # a board post a turn (post=edit is the default)
    r = await host.slash("general", "partida new", game="lost-cities", **options)
    lobby = r.message
    await guest.click(lobby, label="Join")
    await standin.wait_until(lambda: guest.mention in standin.messages_by_id[lobby.id].content, 10, "the guest in the lobby")
    r = await host.click(standin.messages_by_id[lobby.id], label="Start")
    await r.wait(lambda x: "started" in x.content, 10)
    board = await standin.wait_for_message("general", is_board, 10)
    return standin.messages_by_id[lobby.id], board


async def my_controls(standin, person, board):
    r = await person.click(board, turn_button(board))
    await r.wait_done(timeout=10)
    return r.messages[-1]


async def play_a_card(standin, person, msg):
    """Play (or discard) the first card offered, one button; the message then offers the draws and Undo."""
    _, buttons = controls(msg)
    before = msg.content
    await person.click(msg, buttons[0]["custom_id"])
    return await wait_change(standin, msg, before)


def undo_id(msg) -> str | None:
    return next((c for c in msg.custom_ids() if c.startswith("p:u:")), None)


async def test_undo_by_clicking_at_once_then_by_a_vote(standin, partida):
    ana, ben = standin.user("ana", dms_open=False), standin.user("ben", locale="es-ES", dms_open=False)
    lobby, board = await open_match(standin, ana, ben)
    assert "SHA-256" in lobby.content  # the shuffle's commitment, shown at the start
    msg = await my_controls(standin, ana, board)
    msg = await play_a_card(standin, ana, msg)
    assert "deck" in msg.content.lower() or any(b["custom_id"].endswith("d.deck") for b in controls(msg)[1])
    # nothing hidden was shown by playing a card: the undo is immediate
    r = await ana.click(msg, undo_id(msg))
    await r.wait_done(timeout=10)
    assert r.ephemeral and "Taken back" in r.text() and any(b["custom_id"].split(":")[-1].startswith(("p.", "x.")) for b in controls(r.messages[-1])[1]), r.text()  # the cards to choose again
    story = await standin.wait_for_message("general", lambda m: is_board(m) and "took back" in m.content, 10)
    assert "ana took back" in story.content
    # the buttons drawn before the undo are stale
    r = await ana.click(msg, controls(msg)[1][0]["custom_id"])
    await r.wait_followups(1)
    assert "out of date" in r.followups[-1].content
    # now a whole turn: play, then draw from the deck (a hidden card is seen)
    msg = await play_a_card(standin, ana, await my_controls(standin, ana, story))
    deck = next(b["custom_id"] for b in controls(msg)[1] if b["custom_id"].endswith(":d.deck"))
    before = msg.content
    await ana.click(msg, deck)
    msg = await wait_change(standin, msg, before)
    assert undo_id(msg), msg.content  # the mover's answer offers the undo
    r = await ana.click(msg, undo_id(msg))
    await r.wait_done(timeout=10)
    assert "approval" in r.text() and "hidden" in r.text()
    vote = await standin.wait_for_message("general", lambda m: any(c.startswith("p:v:") for c in m.custom_ids()), 10)
    assert ben.mention in vote.content
    r = await ana.click(vote, label="Approve")  # the asker does not vote
    await r.wait_done(timeout=10)
    assert "not yours" in r.text()
    r = await ben.click(vote, label="Approve")
    await r.wait_done(timeout=10)
    assert "Aprobado" in r.text()  # ben reads Spanish
    closed = standin.messages_by_id[vote.id]
    assert not closed.custom_ids() and "Approved by" in closed.content  # the channel's vote is closed, in English
    after = await standin.wait_for_message("general", lambda m: is_board(m) and m.id != story.id and "took back" in m.content, 10)
    assert f"It is {ana.mention}'s turn" in after.content  # Ana draws again
    r = await ben.slash("general", "partida log")
    await r.wait_done()
    assert "ana ha deshecho" in r.text(), r.text()


async def test_abandon_needs_confirmation_and_a_vote_for_a_guest(standin, partida):
    ana, ben = standin.user("ana"), standin.user("ben", locale="es-ES")
    await open_match(standin, ana, ben)
    r = await ben.slash("general", "partida abandon")
    await r.wait_done()
    assert r.ephemeral and "mayoría" in r.text()
    r = await ben.click(r.messages[-1], next(c for c in r.messages[-1].custom_ids() if c.startswith("p:a:")))
    await r.wait_done(timeout=10)
    vote = r.messages[-1]
    assert not vote.ephemeral and ana.mention in vote.content
    r = await ana.click(vote, label="Aprobar" if "Aprobar" in [b.get("label") for b in vote.buttons()] else "Approve")
    await r.wait_done(timeout=10)
    done = await standin.wait_for_message("general", lambda m: "abandoned" in m.content or "abandonado" in m.content, 10)
    log_file = next(iter(done.files.values()))
    assert json.loads(log_file)["seed"] is not None and "SHA-256" in done.content
    r = await ana.slash("general", "partida status")
    await r.wait_done()
    assert "no match" in r.text().lower() or "No hay" in r.text()


async def test_leave_to_the_ai_then_an_invited_person_takes_the_seat(standin, partida):
    ana, ben, cy = standin.user("ana", dms_open=False), standin.user("ben"), standin.user("cy", locale="es-ES")
    await open_match(standin, ana, ben)
    r = await ben.slash("general", "partida leave")
    await r.wait_done()
    assert "AI plays their seat" in r.text()
    r = await ben.slash("general", "partida seat", user=cy.id)
    await r.wait_done()
    assert "Only the host" in r.text()
    r = await ana.slash("general", "partida seat", user=cy.id)
    await r.wait_done()
    assert "seat 2" in r.text()
    invite = await standin.wait_until(lambda: next((m for m in cy.dms() if m.custom_ids()), None), 10, "the invitation")
    assert "take seat 2" in invite.content  # cy has never used the bot: the match's language
    r = await cy.click(invite, invite.custom_ids()[0])
    await r.wait_done(timeout=10)
    await standin.wait_for_message("general", lambda m: "takes seat 2" in m.content, 10)
    rec = await partida.service.store.active_in_channel(standin.channel_id("general"))
    assert rec.seats[1]["user_id"] == cy.id
    # ana's turn (through the service): the next board tells what happened to the seat, then her moves
    for pick in ("play", "draw"):
        m = await partida.service.get(rec.id)
        action = next(a for a in m.game.legal_json(m.state, 0) if a["type"] in (pick, "discard"))
        await partida.service.move(rec.id, m.record.version, ("user", ana.id), action)
    board = await standin.wait_for_message("general", lambda m: is_board(m) and "ben left" in m.content, 10)
    lines = board.content.splitlines()
    assert lines[0].startswith("• ben left") and lines[1].startswith("• cy took the seat of ben (AI)"), lines
    # cy is named (their turn DM is their notification: issue 20)
    assert "• ana drew" in board.content and "It is **cy**'s turn" in board.content


async def test_final_board_publishes_the_seed_and_log_and_rematch_by_clicking(standin, partida, tmp_path):
    ana, ben = standin.user("ana"), standin.user("ben", locale="es-ES")
    lobby, board = await open_match(standin, ana, ben, options="rounds=1")
    shown = lobby.content.split("SHA-256 `")[1].split("`")[0]
    r = await ben.slash("general", "partida status")
    await r.wait_done()
    assert shown in r.text()  # the same commitment, in /partida status while the match runs
    # the moves themselves are not the subject here: the players' moves go straight to the service
    svc, me, rng = partida.service, HeuristicPlayer(), random.Random(2)
    rec = await svc.store.active_in_channel(standin.channel_id("general"))
    while (m := await svc.get(rec.id)).record.status == "active":
        seat = m.to_move()[0]
        code = me.choose(m.game, m.state, seat, rng)
        await svc.move(rec.id, m.record.version, ("user", (ana.id, ben.id)[seat]), m.game.encode(code))
    final = await standin.wait_for_message("general", lambda m: is_board(m) and "over" in m.content, 20)
    name = next(f for f in final.files if f.endswith(".json"))
    log = json.loads(final.files[name])
    text = json.dumps({"game": log["game"], "salt": log["salt"], "seed": log["seed"], "setup": log["setup"]}, sort_keys=True, separators=(",", ":"))
    assert hashlib.sha256(text.encode()).hexdigest() == shown and shown in final.content
    path = tmp_path / name
    path.write_bytes(final.files[name])
    import subprocess
    import sys

    out = json.loads(subprocess.run([sys.executable, "-m", "engines", "replay", str(path)], capture_output=True, text=True, check=True).stdout)
    assert out["scores"] == list(m.game.result(m.state).scores) and out["seed_sha256"] == shown
    # rematch by clicking: same people, a new seed
    r = await ben.click(final, label="Rematch")
    await r.wait_done(timeout=10)
    assert "Rematch!" in r.text() and "SHA-256" in r.text() and shown not in r.text()
    new = await svc.store.active_in_channel(standin.channel_id("general"))
    assert new.id != rec.id and new.status == "active" and [s["user_id"] for s in new.seats] == [ana.id, ben.id]
    assert new.seed != log["seed"]
    await standin.wait_for_message("general", lambda m: is_board(m) and turn_button(m) and m.id != board.id, 10)
    r = await ana.click(final, label="Rematch")  # a second click starts nothing more
    await r.wait_done(timeout=10)
    assert f"#{new.id}" in r.text() and "already" in r.text()
    # stats and the leaderboard count the finished match
    r = await ana.slash("general", "partida stats")
    await r.wait_done()
    assert "Lost Cities: 1 match\n" in r.text() + "\n" and f"<@{ana.id}>: 1 played" in r.text()
    r = await ben.slash("general", "partida leaderboard")
    await r.wait_done()
    assert not r.ephemeral and "Clasificación" in r.text() and "1. " in r.text() and "puntuación" in r.text()


async def test_the_log_pages_through_the_whole_match(standin, partida):
    ana, ben = standin.user("ana"), standin.user("ben")
    await open_match(standin, ana, ben)
    svc, me, rng = partida.service, HeuristicPlayer(), random.Random(4)
    rec = await svc.store.active_in_channel(standin.channel_id("general"))
    for _ in range(40):
        m = await svc.get(rec.id)
        seat = m.to_move()[0]
        await svc.move(rec.id, m.record.version, ("user", (ana.id, ben.id)[seat]), m.game.encode(me.choose(m.game, m.state, seat, rng)))
    r = await ben.slash("general", "partida log")
    await r.wait_done()
    msg = r.messages[-1]
    assert "Page 3/3" in msg.content and "40. " in msg.content and "1. " not in msg.content.split("\n", 1)[1][:3]
    before = msg.content
    await ben.click(msg, label="◀ Older")
    msg = await wait_change(standin, msg, before)
    assert "Page 2/3" in msg.content and "\n16. " in msg.content and "40. " not in msg.content
    before = msg.content
    await ben.click(msg, label="◀ Older")
    msg = await wait_change(standin, msg, before)
    assert "Page 1/3" in msg.content and "\n1. ana" in msg.content
    assert any(b.get("disabled") for b in msg.buttons() if b.get("label") == "◀ Older")


async def test_undo_by_command_and_two_at_once_take_back_one_move(standin, partida):
    import asyncio

    from bot.games import ui_for

    ana, ben = standin.user("ana"), standin.user("ben", locale="es-ES")
    await open_match(standin, ana, ben)
    rec = await partida.service.store.active_in_channel(standin.channel_id("general"))
    m = await partida.service.get(rec.id)
    ui = ui_for("lost-cities")
    token = ui.token(next(a for a in m.game.legal_json(m.state, 0) if a["type"] == "play"))
    r = await ana.slash("general", "partida play", move=token)
    await r.wait_done()
    assert any(c.startswith("p:u:") for c in r.messages[-1].custom_ids())  # the answer offers Undo
    r = await ben.slash("general", "partida undo")
    await r.wait_done()
    assert "No tienes ninguna jugada" in r.text()
    first, second = await asyncio.gather(ana.slash("general", "partida undo"), ana.slash("general", "partida undo"))
    await first.wait_done()
    await second.wait_done()
    texts = sorted([first.text(), second.text()])
    assert sum("Taken back" in x for x in texts) == 1, texts
    assert sum("already took" in x or "no move to take back" in x for x in texts) == 1, texts
    assert await partida.service.store.actions(rec.id) == []
