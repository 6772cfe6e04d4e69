"""Carcassonne end to end: real discord.py, the Partida client, the local Discord stand-in.

A 5-seat match (ana + 4 AI seats added with "Add AI"), one tile set (71 turns). ana types her
first move (/partida play, after a refused one, picked from the autocomplete list) and plays every
other turn by clicking through the private steps (place -> rotation -> meeple button) in the
channel (her DMs are closed); the AI seats play by themselves. Every request the bot sends is
checked against the Discord API spec by the stand-in (the fixture fails the test on violations).
"""

from __future__ import annotations

import json
import random
import re

import pytest

from bot.core.settings import load_settings
from bot.discord.client import Partida
from engines.match import Match
from tests.standin.fixtures import standin  # noqa: F401

from .helpers import controls, is_board, named, public_files_ok, turn_button


@pytest.fixture
async def partida(standin, tmp_path):  # noqa: F811
    settings = load_settings(discord_token=standin.token, database_url=f"sqlite:///{tmp_path}/p.sqlite3")
    client = Partida(settings)
    await standin.run_client(client)
    await standin.wait_commands()
    return client


def _values(msg, select):
    return [o["value"] for o in msg.component(select)["options"]]


async def _edited(server, msg, before_content: str, before_ids: list[str]):
    """The private message after the bot edited it in place (new text or new controls)."""

    def changed():
        cur = server.messages_by_id[msg.id]
        return cur if (cur.content != before_content or cur.custom_ids() != before_ids) else None

    return await server.wait_until(changed, 10, f"message {msg.id} to change")


async def play_turn_by_clicking(server, person, board, rng: random.Random, want_rotation: bool = False) -> dict:
    """Open the turn controls from the board, pick a place, a rotation and a meeple button
    (``want_rotation``: take the rotation step whenever the place offers several ways to turn)."""
    r = await person.click(board, turn_button(board))
    await r.wait_done(timeout=10)
    msg = r.messages[-1]
    assert msg.ephemeral and msg.visible_to == person.id
    assert "hand.png" in msg.files  # the table with the places where the tile fits
    select, buttons = controls(msg)
    assert select is not None
    places = [v for v in _values(msg, select) if v.startswith("at.")]
    lays = [v for v in _values(msg, select) if v.startswith("P.")]  # nothing left to choose there: laid by the pick
    # places, and "previous"/"more" of a paged menu
    assert (places or lays) and all(v.startswith(("at.", "pg~", "P.")) for v in _values(msg, select))
    if lays and (not places or (not want_rotation and rng.random() < 0.3)):  # laid at once by its pick (Undo is the safety net)
        choice = rng.choice(lays)
        before = (msg.content, msg.custom_ids())
        await person.select(msg, select, [choice])
        msg = await _edited(server, msg, *before)
        assert "turn is over" in msg.content and not controls(msg)[1]
        return {"rotation_step": False, "token": choice}
    place = rng.choice(places)
    before = (msg.content, msg.custom_ids())
    r = await person.select(msg, select, [place])
    assert r.type == 6  # deferred update: the same message is edited
    msg = await _edited(server, msg, *before)
    steps = {"rotation_step": False}
    select, buttons = controls(msg)
    rots = [v for v in _values(msg, select) if v.startswith("rt.")] if select else []
    if rots and (want_rotation or rng.random() < 0.5):  # several ways to turn the tile here: sometimes pick another
        steps["rotation_step"] = True
        assert "preview.png" in msg.files and [b for b in buttons if ":P." in b["custom_id"]]  # already layable
        _, x, y = place.split(".")
        assert all(v.startswith(f"rt.{x}.{y}.") for v in rots)
        shown = next(b["custom_id"].split(":", 4)[4] for b in buttons if ":P." in b["custom_id"]).split(".")[3]
        before = (msg.content, msg.custom_ids())
        await person.select(msg, select, [rng.choice([v for v in rots if v.split(".")[3] != shown])])
        msg = await _edited(server, msg, *before)
        select, buttons = controls(msg)
    # the meeple step: a preview of the tile laid there and one button per spot (+ no meeple)
    assert "preview.png" in msg.files
    tokens = [b["custom_id"].split(":", 4)[4] for b in buttons]
    places_tokens = [t for t in tokens if t.startswith("P.")]
    assert places_tokens, tokens
    x, y = place.split(".")[1:]
    assert all(t.split(".")[1:3] == [x, y] for t in places_tokens)
    # the rotation the preview shows with all its choices (its first button lays it without a
    # meeple); each other legal rotation one button, without a meeple
    shown = places_tokens[0].split(".")[3]
    others = [t for t in places_tokens if t.split(".")[3] != shown]
    assert all(len(t.split(".")) == 4 for t in others) and len(others) == len({t.split(".")[3] for t in others})
    assert len(others) == max(0, len(rots) - 1) or not rots
    choice = rng.choice(places_tokens)
    pressed = next(b for b in buttons if b["custom_id"].endswith(":" + choice))
    before = (msg.content, msg.custom_ids())
    await person.click(msg, pressed["custom_id"])
    msg = await _edited(server, msg, *before)
    assert "turn is over" in msg.content and not controls(msg)[1]
    steps["token"] = choice
    return steps


async def type_first_turn(person) -> None:
    """/partida play: a refused typed move, then a legal one picked from the autocomplete list."""
    r = await person.slash("general", "partida play", move="P.0.0.0")
    await r.wait_done()
    assert "already a tile at (0, 0)" in r.text() and r.messages[-1].ephemeral
    choices = await person.autocomplete("general", "partida play", "move", move="")
    labels = [c["name"] for c in choices]
    assert choices and len(set(labels)) == len(labels)  # distinguishable labels
    assert all(c["value"].startswith("P.") for c in choices)
    plain = await person.autocomplete("general", "partida play", "move", move="no meeple")
    assert plain and all("no meeple" in c["name"] for c in plain)
    r = await person.slash("general", "partida play", move=plain[0]["value"])
    await r.wait_done()
    assert "turn is over" in r.text()


async def test_five_seats_one_person_clicks_four_ai_play_a_whole_match(standin, partida):  # noqa: F811
    ana = standin.user("ana", dms_open=False)
    channel = standin.channel_id("general")
    resp = await ana.slash("general", "partida new", game="carcassonne", options="sets=1 post=new")
    assert not resp.ephemeral and "Carcassonne" in resp.content
    lobby = resp.message
    for k in range(1, 5):
        await ana.click(standin.messages_by_id[lobby.id], label="Add AI")
        await standin.wait_until(lambda k=k: f"AI {k}" in standin.messages_by_id[lobby.id].content, 10, f"AI seat {k}")
    r = await ana.click(standin.messages_by_id[lobby.id], label="Start")
    await r.wait(lambda x: "started" in x.content)
    rng = random.Random(11)
    seen, ana_turns, ai_boards, rotation_steps, meeples, told = 0, 0, 0, 0, 0, 0
    while True:
        board = await standin.wait_for_message(channel, is_board, 20, after=seen)
        seen = standin.messages[channel].index(board) + 1
        told += sum(1 for line in board.content.splitlines() if line.startswith("• "))
        if not turn_button(board):
            break
        assert re.search(r"\b\d+ tiles left\b", board.content)  # the status line of the match (a plural entry)
        if named(board, ana) and ana_turns == 0:
            await type_first_turn(ana)  # the slash-command fast path, once
            ana_turns += 1
        elif named(board, ana):
            steps = await play_turn_by_clicking(standin, ana, board, rng, want_rotation=rotation_steps == 0)
            ana_turns += 1
            rotation_steps += steps["rotation_step"]
            meeples += steps["token"].count(".") == 4
        else:
            ai_boards += 1  # an AI seat's turn: nobody clicks, the next board comes by itself
    assert "match is over" in board.content and "Final scores" in board.content
    # ana is seat 0 of 5 and moves first: she had about a fifth of the 71 turns
    assert 12 <= ana_turns <= 16, ana_turns
    assert rotation_steps >= 1  # at least once she chose among several rotations with the picture
    # nothing private was posted publicly: public messages carry only board pictures
    for m in standin.messages_in(channel):
        assert public_files_ok(m), (m.content, list(m.files))
    assert all(m.visible_to == ana.id for m in standin.ephemerals(ana))
    # the export replays to the same final scores, with every placement in it
    r = await ana.slash("general", "partida export")
    await r.wait_done()
    log = json.loads(next(iter(r.messages[-1].files.values())))
    assert len(log["seats"]) == 5
    replay = Match.from_log(log)
    assert replay.over
    placed = [a for a in log["actions"] if a["action"]["type"] == "place"]
    # consecutive AI turns may share one board post, but every move is told exactly once
    assert len(placed) == len(log["actions"]) and ana_turns + ai_boards <= len(placed) == told
    ana_moves = [a for a in placed if a["seat"] == 0]
    assert len(ana_moves) == ana_turns and sum(1 for a in ana_moves if a["action"]["meeple"]) == meeples
    assert ana_moves[0]["action"]["meeple"] is None  # her typed first move
    for s, name in zip(replay.result().scores, log["seats"], strict=True):
        assert f"{name} {s}" in board.content
    print(f"ana {ana_turns} turns ({rotation_steps} with a rotation step), AI {ai_boards} turns; "
          f"{standin.checked_requests} requests checked against the Discord API spec")
