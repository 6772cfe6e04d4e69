"""post=edit (issue 12): one board message edited in place, a one-line post per turn; the first
board, the final one and a board whose message was deleted are posts of their own."""

from __future__ import annotations

import random
import re

import pytest

from tests.bot.timers_harness import Bot, Clock, Outbox

ANA, BEN = 11, 12


@pytest.fixture
def clock():
    return Clock()


async def _turns(bot, mid, n, rng):
    for _ in range(n):
        movers = await bot.to_move(mid)
        if not movers:
            return
        await bot.play_turn(mid, movers[0], rng)
        await bot.run()


async def test_one_board_message_is_edited_and_each_turn_gets_one_line(store, clock):
    box = Outbox(clock)
    bot = Bot(store, clock, box, pictures=True)
    mid = await bot.new_match("carcassonne", [(ANA, "Ana"), (BEN, "Ben")], options={"deadline": "off", "post": "edit"})
    await bot.run()
    boards = [s for s in box.channel(100) if "board.png" in s.files]
    assert len(boards) == 1  # the first board is a post
    board_id = (await store.notes(mid))[0]["board_message"]
    await _turns(bot, mid, 4, random.Random(3))
    assert [s for s in box.channel(100) if "board.png" in s.files] == boards  # no new board post
    edits = [e for m, e in box.edits if m == board_id]
    assert len(edits) == 4 and all(e.files == ["board.png"] for e in edits)
    assert all(e.buttons and e.buttons[0].split(":")[-1] != boards[0].buttons[0].split(":")[-1] for e in edits)  # a fresh "Take your turn" button
    lines = box.channel(100)[-4:]
    for line in lines:
        assert "\n" not in line.content and not line.files
        assert re.search(r"→ It is \*\*\w+\*\*'s turn\. · \[board\]\(https://discord\.com/channels/1/100/" + str(board_id) + r"\)$", line.content)
    assert "Ana" in lines[0].content and "Ben" in lines[1].content  # what each did, in words
    # the line names whose turn it is without a mention: their turn DM was their one notification
    # (issue 20; tests/bot/test_one_ping.py: the mention when DMs are closed or asked for)
    assert "**Ben**" in lines[0].content and "<@" not in lines[0].content and lines[0].pings == []
    assert "**Ana**" in lines[1].content and "<@" not in lines[1].content and lines[1].pings == []
    assert box.dms(BEN) and box.dms(ANA)
    assert (await store.notes(mid))[0]["board_message"] == board_id


async def test_a_deleted_board_message_is_posted_again_and_edited_from_then_on(store, clock):
    box = Outbox(clock)
    bot = Bot(store, clock, box, pictures=False)
    mid = await bot.new_match("carcassonne", [(ANA, "Ana"), (BEN, "Ben")], options={"deadline": "off", "post": "edit"})
    await bot.run()
    first = (await store.notes(mid))[0]["board_message"]
    box.deleted.add(first)  # somebody deleted it
    posts = len(box.channel(100))
    await _turns(bot, mid, 1, random.Random(4))
    second = (await store.notes(mid))[0]["board_message"]
    assert second != first and len(box.channel(100)) == posts + 1  # a full post, no line
    told = (await store.actions(mid))[-1].story["en"]
    assert told in box.channel(100)[-1].content  # the post tells the move's story too
    await _turns(bot, mid, 1, random.Random(5))
    assert (await store.notes(mid))[0]["board_message"] == second
    assert [m for m, _ in box.edits] == [second]


async def test_the_last_board_is_a_post_and_board_post_is_an_option(store, clock):
    box = Outbox(clock)
    bot = Bot(store, clock, box, pictures=False)
    mid = await bot.new_match("lost-cities", [(ANA, "Ana"), (BEN, "Ben")], options={"deadline": "off", "post": "edit", "rounds": 1})
    await bot.run()
    await _turns(bot, mid, 200, random.Random(6))
    assert (await store.get(mid)).status == "finished"
    last = box.channel(100)[-1]
    assert "over" in last.content.lower() and "→" not in last.content  # the results: a post of its own
    final = (await store.notes(mid))[0]["board_message"]
    assert final not in [m for m, _ in box.edits]
    edited = [m for m, _ in box.edits]
    assert edited and box.edits[-1][0] == edited[0] and box.edits[-1][1].buttons == []  # the old board lost its button
    # post=new (an option since issue 20 made post=edit the default): every board a post, nothing edited
    box2 = Outbox(clock)
    bot2 = Bot(store, clock, box2, pictures=False)
    mid2 = await bot2.new_match("carcassonne", [(ANA, "Ana"), (BEN, "Ben")], options={"deadline": "off", "post": "new"}, channel=200)
    await bot2.run()
    await _turns(bot2, mid2, 3, random.Random(7))
    assert not box2.edits and len(box2.channel(200)) >= 4
