"""A whole Lost Cities match with a Brazilian player, end to end (real discord.py client, the
stand-in): her Discord locale pt-BR gives her the bot's and the game's texts in Portuguese, while
the other player and the channel keep English."""

from __future__ import annotations

import random

import pytest

from bot.core.settings import load_settings
from bot.discord.client import Partida

from .helpers import is_board, named, private_controls, take_turn, turn_button


@pytest.fixture
async def partida(standin, tmp_path):
    settings = load_settings(render_processes=0, discord_token=standin.token, database_url=f"sqlite:///{tmp_path}/p.sqlite3")
    client = Partida(settings)
    await standin.run_client(client)
    await standin.wait_commands()
    return client


async def test_a_pt_br_player_plays_a_whole_match_in_portuguese(standin, partida):
    bia = standin.user("bia", locale="pt-BR")
    ben = standin.user("ben", locale="en-US", dms_open=False)
    channel = standin.channel_id("general")
    resp = await ben.slash("general", "partida new", game="lost-cities", options="rounds=1 post=new")
    lobby = resp.message
    r = await bia.click(lobby, label="Join")
    await r.wait_done()
    await standin.wait_until(lambda: bia.mention in standin.messages_by_id[lobby.id].content, 10, "the lobby to list bia")
    r = await ben.click(standin.messages_by_id[lobby.id], label="Start")
    await r.wait(lambda x: "started" in x.content)
    rng = random.Random(3)
    seen, turns, dm_seen, labels = 0, 0, 0, []
    while True:
        board = await standin.wait_for_message(channel, lambda m: is_board(m) or "match is over" in m.content, 15, after=seen)
        seen = standin.messages[channel].index(board) + 1
        if not turn_button(board):
            break
        mover = bia if named(board, bia) else ben
        msg = await private_controls(standin, mover, board, mover is bia, dm_seen)
        if mover is bia:
            dm_seen = len(bia.dms())
            assert "toque em **Jogar** (verde)" in msg.content, msg.content
            labels += [b.get("label", "") for b in msg.buttons()]
        else:
            assert "press **Play** (green)" in msg.content, msg.content
        await take_turn(standin, mover, msg, rng)
        turns += 1
    assert turns == 44 and "match is over" in board.content  # one round: one deck card drawn a turn
    dms = [m.content for m in bia.dms()]
    # each turn DM, once played, tells the move and the end of the turn in Portuguese
    assert dms and all(d.endswith("Pronto. Sua vez terminou.") for d in dms), dms[:2]
    assert any("comprou do baralho" in d for d in dms)
    assert not any("Your turn" in d or "press **Play**" in d or "drew from the deck" in d for d in dms)
    # her buttons speak Portuguese too ("Jogar 7 vermelho", "Descartar aposta roxa")
    assert labels and all(label.startswith(("Jogar ", "Descartar ")) for label in labels), labels[:5]
    r = await bia.slash("general", "partida status")
    await r.wait_done()
    # her slash command replies too (the match is over: none in the channel now)
    assert r.text() == "Não há partida neste canal. Comece uma com /partida nova."
