"""One turn, one ping, one picture (issue 20), end to end over real discord.py and the stand-in: a
whole match where each turn gives the next player exactly one notification - their turn DM, with
exactly one picture - and the channel names them without a mention (post=edit, the default)."""

from __future__ import annotations

import random
import re

import pytest

from bot.core.settings import load_settings
from bot.discord.client import Partida

from .helpers import controls, take_turn

MENTION = re.compile(r"<@!?(\d+)>")


@pytest.fixture
async def partida(standin, tmp_path):
    settings = load_settings(render_processes=0, discord_token=standin.token, database_url=f"sqlite:///{tmp_path}/p.sqlite3")
    client = Partida(settings)
    await standin.run_client(client)
    await standin.wait_commands()
    return client


def new_dms(person, known: set[int]) -> list:
    """The bot's DMs to ``person`` not seen yet (a turn DM is edited in place by the clicks on it)."""
    return [m for m in person.dms() if m.id not in known]


def mentioned(standin, channel, after: int) -> set[int]:
    """The people any public channel message since index ``after`` mentions (would notify)."""
    return {int(u) for m in standin.messages_in(channel)[after:] for u in MENTION.findall(m.content)}


async def start(standin, host, guest, game: str, options: str):
    resp = await host.slash("general", "partida new", game=game, options=options)
    lobby = resp.message
    await guest.click(lobby, label="Join")
    await standin.wait_until(lambda: guest.mention in standin.messages_by_id[lobby.id].content, 10, "the lobby to list the guest")
    r = await host.click(standin.messages_by_id[lobby.id], label="Start")
    await r.wait(lambda x: "started" in x.content)
    # the lobby lists the players as mentions: what follows it is the match's own posts
    return [m.id for m in standin.messages_in("general")].index(lobby.id) + 1


async def test_each_lost_cities_turn_is_one_dm_with_one_picture_and_no_mention(standin, partida):
    ana, ben = standin.user("ana"), standin.user("ben")
    channel = standin.channel_id("general")
    after_start = await start(standin, ana, ben, "lost-cities", "rounds=1")  # no post= option: the default, post=edit
    people = (ana, ben)
    known: set[int] = set()  # DMs seen so far
    told = {p.id: 0 for p in people}  # turn DMs per person
    rng = random.Random(11)
    turns = 0

    def over():
        return any("match is over" in m.content for m in standin.messages_in(channel))

    while True:
        def next_dm(known=known):
            if over():
                return "over"
            return next((p for p in people if new_dms(p, known)), None)

        who = await standin.wait_until(next_dm, 20, "the next turn DM or the end")
        if who == "over":
            break
        new = new_dms(who, known)
        other = next(p for p in people if p is not who)
        # one notification: exactly one turn DM, nothing for the other, no mention in the channel
        assert len(new) == 1 and new[0].content.startswith("Your turn in"), [m.content for m in new]
        assert not new_dms(other, known)
        assert not mentioned(standin, channel, after_start), [m.content for m in standin.messages_in(channel)[after_start:]]
        dm = new[0]
        # one picture, with the controls under it
        assert len(dm.attachments) == 1 and list(dm.files) == ["hand.png"], list(dm.files)
        assert controls(dm)[1], dm.content
        told[who.id] += 1
        await take_turn(standin, who, dm, rng)
        known |= {m.id for m in who.dms()}  # what answered their own clicks is no notification
        turns += 1
    assert turns == 44 and sum(told.values()) == turns  # every deck card drawn by one turn; one DM each
    posts = standin.messages_in(channel)[after_start:]
    assert sum(1 for m in posts if "board.png" in m.files) == 2  # post=edit: the board message, then the final board
    lines = [m for m in posts if "→" in m.content]
    assert len(lines) >= turns - 1 and all("**ana**" in m.content or "**ben**" in m.content for m in lines[:-1])
    assert not mentioned(standin, channel, after_start)


async def test_a_person_whose_dms_are_closed_or_who_asks_is_mentioned_in_the_channel(standin, partida):
    """The exceptions: ben's DMs are closed (the channel is his one notification, so it mentions
    him); ana asked for channel pings with /mentions (mentioned besides her turn DM)."""
    ana = standin.user("ana")
    ben = standin.user("ben", locale="es-ES", dms_open=False)
    channel = standin.channel_id("general")
    r = await ana.slash("general", "mentions", on=True)
    await r.wait_done()
    assert "also be mentioned in the channel" in r.text()
    seen = await start(standin, ana, ben, "lost-cities", "rounds=1")
    rng = random.Random(5)
    mentions_of = {ana.id: 0, ben.id: 0}
    for _ in range(4):
        def turn_post(seen=seen):
            for m in standin.messages_in(channel)[seen:]:
                ids = {int(u) for u in MENTION.findall(m.content)}
                if ids & {ana.id, ben.id}:
                    return m, ids
            return None

        post, ids = await standin.wait_until(turn_post, 20, "a post mentioning whose turn it is")
        seen = standin.messages_in(channel).index(post) + 1
        (uid,) = ids
        mentions_of[uid] += 1
        person = ana if uid == ana.id else ben
        if person is ana:
            dm = await standin.wait_until(lambda: (d := [m for m in ana.dms() if controls(m)[1]]) and d[-1], 20, "ana's turn DM")
            await take_turn(standin, ana, dm, rng)
        else:
            button = next(c for c in post.custom_ids() if c.startswith("p:t:")) if post.custom_ids() else None
            board = post if button else next(m for m in reversed(standin.messages_in(channel)) if any(c.startswith("p:t:") for c in m.custom_ids()))
            r = await ben.click(board, next(c for c in board.custom_ids() if c.startswith("p:t:")))
            await r.wait_done(timeout=10)
            await take_turn(standin, ben, r.messages[-1], rng)
    assert mentions_of[ana.id] >= 1 and mentions_of[ben.id] >= 1
    assert not ben.dms()


async def _lay_tile(standin, person, dm, rng: random.Random) -> None:
    """A Carcassonne turn from the turn DM: pick a place in the select, then a meeple button (or
    none) under the preview; the DM is edited in place at each step."""
    select = next(c for c in dm.custom_ids() if c.startswith("p:s:"))
    values = [o["value"] for o in dm.component(select)["options"]]
    places = [v for v in values if v.startswith("at.")]
    if not places:  # every place there lays the tile by its pick (one way to turn it, no meeple left)
        before = (dm.content, dm.custom_ids())
        await person.select(dm, select, [rng.choice([v for v in values if v.startswith("P.")])])
        await edited(standin, dm, before)
        return
    before = (dm.content, dm.custom_ids())
    await person.select(dm, select, [rng.choice(places)])
    dm = await edited(standin, dm, before)
    assert list(dm.files) == ["preview.png"]  # the step's picture replaces the turn picture: still one
    lay = [b["custom_id"] for b in controls(dm)[1] if b["custom_id"].split(":", 4)[4].startswith("P.")]
    before = (dm.content, dm.custom_ids())
    await person.click(dm, rng.choice(lay))
    await edited(standin, dm, before)


async def edited(standin, msg, before: tuple[str, list[str]]):
    """The message once the bot edited it (new text or new controls)."""

    def changed():
        cur = standin.messages_by_id[msg.id]
        return cur if (cur.content, cur.custom_ids()) != before else None

    return await standin.wait_until(changed, 10, f"message {msg.id} to change")


async def test_each_carcassonne_turn_is_one_dm_with_one_picture_and_no_mention(standin, partida):
    ana, ben = standin.user("ana"), standin.user("ben")
    channel = standin.channel_id("general")
    after_start = await start(standin, ana, ben, "carcassonne", "sets=1")
    people = (ana, ben)
    known: set[int] = set()
    rng = random.Random(3)
    turns = 0

    def over():
        return any("match is over" in m.content for m in standin.messages_in(channel))

    while True:
        def next_dm(known=known):
            if over():
                return "over"
            return next((p for p in people if new_dms(p, known)), None)

        who = await standin.wait_until(next_dm, 20, "the next turn DM or the end")
        if who == "over":
            break
        new = new_dms(who, known)
        other = next(p for p in people if p is not who)
        assert len(new) == 1 and new[0].content.startswith("Your turn in"), [m.content for m in new]
        assert not new_dms(other, known)
        assert not mentioned(standin, channel, after_start)
        dm = new[0]
        assert len(dm.attachments) == 1 and list(dm.files) == ["hand.png"], list(dm.files)
        await _lay_tile(standin, who, dm, rng)
        known |= {m.id for m in who.dms()}
        turns += 1
    # every tile of the set but the start tile, one DM each - less the tiles that fitted nowhere
    # and were set aside (the match's seed is random, so now and then one is)
    rec = (await partida.store.history_in_channel(channel, 1))[0]
    set_aside = len(partida.service.load(rec).state.set_aside)
    assert turns == 71 - set_aside, (turns, set_aside)
    assert not mentioned(standin, channel, after_start)
