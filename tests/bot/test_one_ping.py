"""One notification a turn (issue 20), on the socket-free bot: the channel mentions a person only
when their DMs are closed or they asked for channel pings (person setting ``channel_pings``, set
by /mentions); reminder digests carry a restart-safe "Take your turn" button per match."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest

from tests.bot.timers_harness import Bot, Clock, Outbox

ANA, BEN, CARLA = 11, 22, 33


def lines(bot: Bot, channel: int = 100) -> list:
    """The post=edit one-line posts (the default of /partida new, which the harness follows)."""
    return [s for s in bot.box.channel(channel) if "→" in s.content]


async def one_turn(bot: Bot, mid: int, rng: random.Random) -> int:
    (uid,) = await bot.to_move(mid)
    await bot.play_turn(mid, uid, rng)
    await bot.run()
    return uid


async def test_the_channel_mentions_only_closed_dms_and_those_who_asked(bot, store):
    bot.box.closed_dms.add(BEN)  # Ben's DMs are closed: the channel is his one notification
    await store.set_person(ANA, {"channel_pings": True})  # /mentions on:True
    mid = await bot.new_match("lost-cities", [(ANA, "Ana"), (BEN, "Ben")], options={"deadline": "off"})
    await bot.run()
    rng = random.Random(4)
    for _ in range(4):
        await one_turn(bot, mid, rng)
    told = lines(bot)
    assert len(told) == 4  # Ana moves first: Ben's turn, Ana's, Ben's, Ana's
    # Ben's first turn: his closed DMs are learnt when his turn DM is refused, and that line in the
    # channel ("I can't send you direct messages") mentions him; from then on the line does
    closed = bot.box.channel(100, "direct messages")
    assert len(closed) == 1 and f"<@{BEN}>" in closed[0].content
    assert f"<@{BEN}>" in told[2].content and told[2].pings == [BEN]
    assert told[0].pings in ([], [BEN])
    # Ana asked for channel pings: mentioned and pinged besides her turn DM
    for line in (told[1], told[3]):
        assert f"<@{ANA}>" in line.content and line.pings == [ANA], line
    # Ana asked for channel pings: mentioned besides her turn DM; Ben got no DM at all
    assert len(bot.box.dms(ANA, "Your turn")) >= 2 and not bot.box.dms(BEN)
    # she turns it off (/mentions on:False): named in bold, no ping; her DM alone tells her
    await store.set_person(ANA, {"channel_pings": None})
    for _ in range(2):
        await one_turn(bot, mid, rng)
    ana_line = next(s for s in lines(bot)[4:] if "Ana**'s turn" in s.content)
    assert "**Ana**" in ana_line.content and "<@" not in ana_line.content and ana_line.pings == []


async def test_a_digest_carries_take_your_turn_for_each_match_it_names(bot):
    a = await bot.new_match("lost-cities", [(ANA, "Ana"), (BEN, "Ben")], options={"deadline": "2h", "policy": "wait"}, channel=100)
    b = await bot.new_match("lost-cities", [(ANA, "Ana"), (CARLA, "Carla")], options={"deadline": "2h", "policy": "wait"}, channel=200, seed=2)
    await bot.run()
    assert await bot.to_move(a) == await bot.to_move(b) == [ANA]
    end = bot.clock() + timedelta(hours=2.5)
    while bot.clock() < end:
        bot.clock.advance(minutes=5)
        await bot.run()
    digests = [s for s in bot.box.dms(ANA) if s.content.startswith("⏰")]
    assert digests
    for d in digests:
        named = {mid for mid in (a, b) if f"#{mid})" in d.content}
        buttons = {int(c.split(":")[2]) for c in d.buttons if c.startswith("p:t:")}
        assert named and buttons == named  # one "Take your turn" per match the digest names
    both = next(d for d in digests if f"#{a})" in d.content and f"#{b})" in d.content)
    versions = {int(c.split(":")[2]): int(c.split(":")[3]) for c in both.buttons}
    for mid in (a, b):
        assert versions[mid] == (await bot.service.get(mid)).record.version  # drawn for the current turn


@pytest.mark.parametrize("game", ["lost-cities", "carcassonne", "citadels", "cities"])
async def test_every_turn_dm_of_every_game_carries_one_picture(store, game):
    """The first turn DM and the later ones (with the catch-up marks) carry exactly one picture,
    the game's turn picture: Cities never sends its board twice."""
    clock = Clock()
    bot = Bot(store, clock, Outbox(clock), pictures=True)
    try:
        people = [(ANA, "Ana"), (BEN, "Ben"), (CARLA, "Carla")][: 2 if game in ("lost-cities", "carcassonne") else 3]
        if game == "citadels":
            people.append((44, "Dani"))
        mid = await bot.new_match(game, people, options={"deadline": "off"})
        await bot.run()
        rng = random.Random(2)
        for _ in range(6):
            movers = await bot.to_move(mid)
            if not movers:
                break
            await bot.play_turn(mid, movers[0], rng)
            await bot.run()
        dms = [s for uid, _ in people for s in bot.box.dms(uid) if s.buttons]
        assert len(dms) >= 3
        assert all(s.files == ["hand.png"] for s in dms), [(s.content[:40], s.files) for s in dms]
        assert any("Since you last played" in s.content for s in dms)  # a catch-up DM among them
    finally:
        await bot.after.close()
