"""Cities end to end: real discord.py, the Partida client, the local Discord stand-in.

* 4 players: ana (English, DMs closed: she plays through the channel's "Take your turn" button)
  and three AI seats. Her first take is typed (/partida play, after a refused move, picked from the
  autocomplete list); every other step is clicked: a row slot, then each item placed from the
  lettered places with a preview and a confirm (a city tile: a cell, then a way to turn it), and one
  piece or feature removed from the game with its one-click button.
* 2 players: bob (Spanish, plays in his DMs) against an AI seat, 4 rounds, 8 workers a round each.

Every request the bot sends is checked against the Discord API spec by the stand-in (the fixture
fails the test on violations); the final scores posted are those of the replayed export.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from bot.core.settings import load_settings
from bot.discord.client import Partida
from engines.match import Match
from tests.standin.fixtures import standin  # noqa: F401

from .helpers import controls, is_board, named, turn_button

TIMEOUT = 60  # the machine running the suite may be very busy


@pytest.fixture
async def partida(standin, tmp_path):  # noqa: F811
    settings = load_settings(render_processes=0, discord_token=standin.token, database_url=f"sqlite:///{tmp_path}/p.sqlite3")
    client = Partida(settings)
    await standin.run_client(client)
    await standin.wait_commands()
    return client


def _token(custom_id: str) -> str:
    return custom_id.split(":", 4)[4]


def _version(custom_id: str) -> int:
    """The match version a control was drawn for (p:d:<match>:<version>:..., p:t:<match>:<version>)."""
    return int(custom_id.split(":")[3])


async def _changed(server, msg, before, r=None):
    def changed():
        cur = server.messages_by_id[msg.id]
        now = (cur.content, cur.custom_ids())
        assert r is None or not r.followups, f"the bot refused: {r.text()}"
        return cur if now != before else None

    return await server.wait_until(changed, TIMEOUT, f"message {msg.id} to change")


async def play_turn(server, person, msg, rng: random.Random, stats: Counter, decline: bool, prefer: str | None = None) -> int:
    """Click through one whole turn on the private message ``msg``; returns the taps it took.

    When the same person moves again at once (a starting tile and then the first take; the last
    worker of a round and the star), the bot puts the next controls on the same message: the turn
    DM or board sent meanwhile is then out of date, which ``stats["ver"]`` (the last version
    clicked) tells."""
    taps = 0
    while True:
        select, buttons = controls(msg)
        if not select and not buttons:
            assert "turn is over" in msg.content or "Tu turno ha terminado" in msg.content, msg.content
            return taps
        values = [o["value"] for o in msg.component(select)["options"]] if select else []
        places = [v for v in values if v.startswith(("s.", "c.", "B.", "F.", "T."))]  # a pick of B./F./T. acts at once
        tokens = {_token(b["custom_id"]): b["custom_id"] for b in buttons}
        actions = [t for t in tokens if not t.startswith("X.")]
        declines = [t for t in tokens if t.startswith("X.")]
        before = (msg.content, msg.custom_ids())
        stats["ver"] = max(stats["ver"], *(_version(c) for c in msg.custom_ids() if c.startswith("p:")))
        if declines and decline:  # decline once, before anything else (a place's button would place it)
            stats["X"] += 1
            decline = False
            r = await person.click(msg, tokens[declines[0]])
        elif actions:  # a take, a starting tile, a place's button or a way to turn the tile applies an action
            if actions[0].startswith("S."):  # a starting tile: one button each, the table shown
                assert "hand.png" in msg.files and not select
                choice = rng.choice(actions)
            elif actions[0].startswith("K."):  # the take step: one button per legal slot
                assert "hand.png" in msg.files and not select
                wanted = [t for t in actions if prefer and t.startswith("K." + prefer)]
                choice = rng.choice(wanted or actions)
            else:  # a lettered place's button, or a way to turn the city tile (its picture shown)
                assert "preview.png" in msg.files
                choice = rng.choice(actions)
            stats[choice.split(".")[0]] += 1
            r = await person.click(msg, tokens[choice])
        elif declines and (decline or not places):
            stats["X"] += 1
            decline = False
            r = await person.click(msg, tokens[declines[0]])
        else:
            assert "preview.png" in msg.files  # the neighbourhood with the legal places lettered
            r = await person.select(msg, select, [rng.choice(places)])
        taps += 1
        msg = await _changed(server, msg, before, r)


async def type_first_take(person) -> None:
    """/partida play: a refused typed move, then a take picked from the autocomplete list."""
    r = await person.slash("general", "partida play", move="B.red.0.0")
    await r.wait_done(timeout=TIMEOUT)
    assert "First put a worker on a row slot" in r.text() and r.messages[-1].ephemeral
    choices = await person.autocomplete("general", "partida play", "move", move="Row")
    labels = [c["name"] for c in choices]
    assert choices and len(set(labels)) == len(labels) and all(c["value"].startswith("K.") for c in choices)
    cards = [c for c in choices if c["value"].startswith("K.A")]
    r = await person.slash("general", "partida play", move=(cards or choices)[0]["value"])
    await r.wait_done(timeout=TIMEOUT)
    return r


async def test_four_players_ana_clicks_every_kind_of_placement_three_ai(standin, partida):  # noqa: F811
    ana = standin.user("ana", dms_open=False)
    channel = standin.channel_id("general")
    # no match yet: every game's summary, each one whole (several messages when needed)
    r = await ana.slash("general", "partida rules")
    await r.wait_done(timeout=TIMEOUT)
    await standin.wait_until(lambda: "3x5 neighbourhoods)." in r.text(), TIMEOUT, "the whole Cities summary")
    assert "**Lost Cities**" in r.text() and "**Carcassonne**" in r.text()
    assert all(len(m.content) <= 2000 for m in r.messages)
    resp = await ana.slash("general", "partida new", game="cities", options="board=venice post=new")
    assert not resp.ephemeral and "Cities" in resp.content
    lobby = resp.message
    for k in range(1, 4):
        await ana.click(standin.messages_by_id[lobby.id], label="Add AI")
        await standin.wait_until(lambda k=k: f"AI {k}" in standin.messages_by_id[lobby.id].content, TIMEOUT, f"AI seat {k}")
    r = await ana.click(standin.messages_by_id[lobby.id], label="Start")
    await r.wait(lambda x: "started" in x.content, TIMEOUT)
    rng = random.Random(5)
    stats: Counter = Counter()
    seen, turns, typed, taps = 0, 0, False, []
    while True:
        board = await standin.wait_for_message(channel, is_board, TIMEOUT, after=seen)
        seen = standin.messages[channel].index(board) + 1
        if not turn_button(board):
            break
        assert "Round " in board.content  # the status line of the match
        if not named(board, ana) or _version(turn_button(board)) <= stats["ver"]:
            continue  # an AI seat moves by itself; or ana played this turn on her last message
        if not typed and "starting tiles" not in board.content:
            r = await type_first_take(ana)
            typed = True
            turns += 1
            if r.messages[-1].custom_ids():  # a take that needs placing: finish it by clicking
                taps.append(1 + await play_turn(standin, ana, r.messages[-1], rng, stats, decline=False))
            continue
        r = await ana.click(board, turn_button(board))
        await r.wait_done(timeout=TIMEOUT)
        msg = r.messages[-1]
        assert msg.ephemeral and msg.visible_to == ana.id
        prefer = "ABCD"[turns % 4]
        taps.append(await play_turn(standin, ana, msg, rng, stats, decline=stats["X"] == 0, prefer=prefer))
        turns += 1
    assert "match is over" in board.content and "Final scores" in board.content
    # ana chose her starting tile and took 8 rounds x 4 workers = 32 times, once by typing
    assert typed and stats["S"] == 1 and stats["K"] + 1 == 32, stats
    # she clicked every kind of step: start, take, city tile, feature, piece, remove
    assert {"S", "K", "T", "F", "B", "X"} <= set(stats), stats
    # nothing private posted publicly; the story told every move in words
    for m in standin.messages_in(channel):  # (the final board also publishes the finished match's log)
        assert {f for f in m.files if not (m is board and f.startswith("partida-") and f.endswith(".json"))} <= {"board.png"}
    story = "\n".join(m.content for m in standin.messages_in(channel))
    assert "takes from row" in story and "places city tile" in story and "builds" in story
    await _check_export(ana, board, 4)
    print(f"ana's taps per turn: {taps}; kinds {dict(stats)}; {standin.checked_requests} requests checked")


async def test_two_players_bob_plays_in_spanish_in_his_dms_against_an_ai(standin, partida):  # noqa: F811
    bob = standin.user("bob", locale="es-ES")
    channel = standin.channel_id("general")
    resp = await bob.slash("general", "partida new", game="cities", options="post=new")
    assert "Cities" in resp.content
    lobby = resp.message
    await bob.click(standin.messages_by_id[lobby.id], label="Add AI")
    await standin.wait_until(lambda: "AI 1" in standin.messages_by_id[lobby.id].content, TIMEOUT, "the AI seat")
    r = await bob.click(standin.messages_by_id[lobby.id], label="Start")
    await r.wait(lambda x: "started" in x.content, TIMEOUT)
    r = await bob.slash("general", "partida rules")  # the match's game only, in his language
    await r.wait_done(timeout=TIMEOUT)
    assert r.text().startswith("**Cities**") and "barrio" in r.text() and "guide-cities-1.png" in r.messages[0].files  # its illustrated guide
    rng = random.Random(8)
    stats: Counter = Counter()
    dm_seen, turns, taps = 0, 0, []
    final = None

    def next_thing():
        nonlocal final
        for m in standin.messages_in(channel):
            if is_board(m) and not turn_button(m):
                final = m
                return "over"
        dms = bob.dms()[dm_seen:]
        return next((m for m in dms if (c := m.custom_ids()) and _version(c[0]) > stats["ver"]), None)

    while True:
        got = await standin.wait_until(next_thing, TIMEOUT * 2, "bob's turn DM or the final board")
        if got == "over":
            break
        dm_seen = bob.dms().index(got) + 1
        assert got.text().startswith("Te toca en **")
        taps.append(await play_turn(standin, bob, got, rng, stats, decline=stats["X"] == 0))
        turns += 1
    # 1 starting tile + 4 rounds x 8 workers
    assert stats["S"] == 1 and stats["K"] == 32, stats
    assert {"S", "K", "T", "F", "B", "X"} <= set(stats), stats
    # the channel speaks the server's language (English here); bob's DMs speak his
    assert "match is over" in final.content and "Final scores" in final.content
    story = "\n".join(m.content for m in standin.messages_in(channel))
    assert "takes from row" in story and "places city tile" in story
    await _check_export(bob, final, 2)
    print(f"bob's taps per turn: {taps}; kinds {dict(stats)}; {standin.checked_requests} requests checked")


async def _check_export(person, final, n: int) -> None:
    r = await person.slash("general", "partida export")
    await r.wait_done(timeout=TIMEOUT)
    log = json.loads(next(iter(r.messages[-1].files.values())))
    assert len(log["seats"]) == n and log["game"] == "cities"
    replay = Match.from_log(log)
    assert replay.over
    for s, name in zip(replay.result().scores, log["seats"], strict=True):
        assert f"{name} {s}" in final.content
