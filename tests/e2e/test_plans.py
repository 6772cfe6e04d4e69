"""Plans made ahead through the Discord stand-in (issue 21), Lost Cities: Ana leaves a plan with the
button under her move's answer (one select), her next turn is one tap (the plan draws for her), she
is told in her DM what was played for her, and the channel's story marks the planned move; a plan
left with /partida plan is dropped by Ben's undo, and her next turn DM says why."""

from __future__ import annotations

import pytest

from bot.core.settings import load_settings
from bot.discord.client import Partida

from .helpers import controls, is_board, wait_change
from .test_table import my_controls, open_match, play_a_card, undo_id


@pytest.fixture
async def partida(standin, tmp_path):
    client = Partida(load_settings(render_processes=0, discord_token=standin.token, database_url=f"sqlite:///{tmp_path}/plans.sqlite3"))
    await standin.run_client(client)
    await standin.wait_commands()
    return client


async def draw_deck(standin, person, msg):
    deck = next(b["custom_id"] for b in controls(msg)[1] if b["custom_id"].endswith(":d.deck"))
    before = msg.content
    await person.click(msg, deck)
    return await wait_change(standin, msg, before)


async def next_board(standin, after_board):
    return await standin.wait_for_message("general", lambda m: is_board(m) and m.id > after_board.id, 10)


async def test_a_plan_left_with_one_select_plays_the_draw_and_an_undo_drops_it(standin, partida):
    ana, ben = standin.user("ana"), standin.user("ben", dms_open=False)
    _lobby, board = await open_match(standin, ana, ben)
    # Ana's first turn, then "Plan ahead" under her move's answer: one select
    msg = await draw_deck(standin, ana, await play_a_card(standin, ana, await my_controls(standin, ana, board)))
    plan_button = next(c for c in msg.custom_ids() if c.startswith("p:pl:"))
    r = await ana.click(msg, plan_button)
    await r.wait_done(timeout=10)
    menu = r.messages[-1]
    assert menu.ephemeral and menu.visible_to == ana.id and "No plan" in menu.content
    select = next(c for c in menu.custom_ids() if c.startswith("p:ps:"))
    before = menu.content
    await ana.select(menu, select, ["lc:deck"])
    menu = await wait_change(standin, menu, before)
    assert "Your plan for your coming turns: at my next draw, draw from the deck" in menu.content
    # Ben's turn
    board = await next_board(standin, board)
    await draw_deck(standin, ben, await play_a_card(standin, ben, await my_controls(standin, ben, board)))
    # Ana's turn is one tap: her plan draws from the deck for her
    board = await next_board(standin, board)
    msg = await play_a_card(standin, ana, await my_controls(standin, ana, board))
    assert "[planned]" in msg.content and not any(":d." in b["custom_id"] for b in controls(msg)[1]), msg.content
    told = await ana.wait_for_dm(lambda m: "Your plan played for you" in m.content, timeout=10)
    assert "drew from the deck" in told.content or "deck" in told.content
    board = await next_board(standin, board)
    assert "🗓️ [planned] ana drew from the deck" in board.content, board.content  # the story marks it
    # nobody else is ever shown the plan: Ben saw nothing of it but the mark on the story
    assert not any("plan" in m.content.lower() for m in standin.ephemerals(ben))
    # a plan left with the command, then Ben takes back his play: the plan is dropped
    r = await ana.slash("general", "partida plan", choice="lc:deck")
    await r.wait_done()
    assert r.ephemeral and "Your plan for your coming turns" in r.text()
    msg = await play_a_card(standin, ben, await my_controls(standin, ben, board))
    r = await ben.click(msg, undo_id(msg))
    await r.wait_done(timeout=10)
    assert "Taken back" in r.text()
    seen = len(ana.dms())
    await draw_deck(standin, ben, await play_a_card(standin, ben, r.messages[-1]))
    dm = await standin.wait_until(
        lambda: next((m for m in ana.dms()[seen:] if "Your plan was dropped: a move was undone" in m.content), None), 10,
        "Ana's turn DM saying why her plan was dropped",
    )
    assert controls(dm)[1], dm.content  # and she is asked as usual: her turn's buttons
