"""Play over days with an injected clock: deadlines and their policies, reminders, quiet hours, away,
heads-up, the stand-in AI and taking the seat back, catch-up, and a restart with timers pending."""

from __future__ import annotations

import random
import re
import string
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from bot import i18n
from bot.core.service import UserError
from bot.core.timers import (
    DEFAULTS,
    after_active,
    quiet_settings,
    quiet_until,
    split_options,
)
from bot.games import ui_for
from bot.store import open_store
from tests.bot.timers_harness import Bot, Clock, Outbox

ANA, BEN, CARLA = 11, 22, 33


@pytest.fixture
async def store(tmp_path):
    s = await open_store(f"sqlite:///{tmp_path}/t.sqlite3")
    yield s
    await s.close()


@pytest.fixture(params=["sqlite", "postgres"])
async def both_stores(request, tmp_path):
    """The same test on PostgreSQL too (several processes over one database)."""
    if request.param == "sqlite":
        s = await open_store(f"sqlite:///{tmp_path}/t.sqlite3")
        yield s
        await s.close()
        return
    import os
    import uuid

    from tests.store.conftest import PG_URL, drop_schema, require_pg

    await require_pg()
    schema = f"partida_timers_{os.getpid()}_{uuid.uuid4().hex[:10]}"
    s = await open_store(f"{PG_URL}{'&' if '?' in PG_URL else '?'}schema={schema}")
    try:
        yield s
    finally:
        await s.close()
        await drop_schema(schema)


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
async def bot(store, clock):
    b = Bot(store, clock, Outbox(clock), pictures=False)
    yield b
    await b.after.close()


async def let_pass(bot: Bot, hours: float, step_minutes: float = 5) -> None:
    """Let time pass in small steps, running what falls due (nobody plays meanwhile)."""
    end = bot.clock() + timedelta(hours=hours)
    while bot.clock() < end:
        bot.clock.advance(minutes=step_minutes)
        await bot.run()


def digests(bot: Bot, uid: int) -> list:
    return [s for s in bot.box.dms(uid) if s.content.startswith(("⏰ Waiting", "⏰ Te están"))]


def at_hours(bot: Bot, sent: list, start: datetime) -> list[float]:
    return [round((s.at - start).total_seconds() / 3600, 2) for s in sent]


# -- options and texts ---------------------------------------------------------------------------


def test_deadline_options_are_parsed_and_refused_in_one_line():
    game, timers = split_options({"rounds": 2, "deadline": "36h", "policy": "standin"})
    assert game == {"rounds": 2} and timers == {"deadline": 36 * 3600, "policy": "standin", "misses": DEFAULTS["misses"]}
    assert split_options({})[1] == DEFAULTS and DEFAULTS["deadline"] == 48 * 3600
    assert split_options({"deadline": "off"})[1]["deadline"] == 0
    assert split_options({"deadline": "2d"})[1]["deadline"] == 2 * 86400
    assert split_options({"deadline": "1h"})[1]["deadline"] == 3600
    assert split_options({"deadline": "14d"})[1]["deadline"] == 14 * 86400
    assert split_options({"deadline": 6})[1]["deadline"] == 6 * 3600  # a bare number: hours
    for bad, code in (({"deadline": "30m"}, "timer.bad_deadline"), ({"deadline": "15d"}, "timer.bad_deadline"),
                      ({"deadline": "soon"}, "timer.bad_deadline"), ({"policy": "kick"}, "timer.bad_policy"),
                      ({"misses": 0}, "timer.bad_misses"), ({"misses": "x"}, "timer.bad_misses")):
        with pytest.raises(UserError) as e:
            split_options(bad)
        assert e.value.code == code
        from bot.discord.flows import user_error_text

        for lang in ("en", "es"):
            text = user_error_text(e.value, lang)
            assert "\n" not in text and "{" not in text and text != "err." + code


def test_every_timer_text_in_both_languages_with_the_same_placeholders():
    def fields(text: str) -> set[str]:
        return {f.split("!")[0] for _, f, _, _ in string.Formatter().parse(text) if f}

    prefixes = ("standin.", "remind.", "deadline.", "reclaim.", "err.timer.", "timer.", "policy.", "headsup.", "quiet.", "away.", "catchup.")
    texts = {key: entry for key, entry in i18n.M.items() if key.startswith(prefixes)}
    assert len(texts) > 30
    for key, entry in texts.items():
        assert entry["en"] and entry["es"] and entry["en"] != entry["es"], key
        assert fields(entry["en"]) == fields(entry["es"]), key


# -- reminders -----------------------------------------------------------------------------------


async def test_reminders_escalate_once_each_and_stop_when_the_turn_is_over(bot):
    start = bot.clock()
    mid = await bot.new_match("lost-cities", [(ANA, "Ana"), (BEN, "Ben")], options={"deadline": "10h", "policy": "wait"})
    await bot.run()
    assert await bot.to_move(mid) == [ANA]
    await let_pass(bot, 11)
    sent = digests(bot, ANA)
    # 50%, 80% and 95% of the deadline, each once, on time (the 5-minute steps of the test clock)
    assert at_hours(bot, sent, start) == [5.0, 8.0, 9.5]
    assert "deadline in 5 hours" in sent[0].content and "deadline in 30 minutes" in sent[2].content
    assert all("Lost Cities" in s.content and "Game Night #table-100" in s.content and "discord.com/channels/1/100" in s.content for s in sent)
    # the first reminder also mentions her in the channel, once
    mentions = bot.box.channel(100, "the table is waiting")
    assert len(mentions) == 1 and "<@11>" in mentions[0].content and mentions[0].pings == [ANA]
    # policy "wait": the table is told and keeps waiting
    assert len(bot.box.channel(100, "missed the deadline")) == 1 and await bot.to_move(mid) == [ANA]
    assert not digests(bot, BEN)
    # after the deadline: daily reminders, then she plays; nothing more about that turn
    await let_pass(bot, 24, 30)
    assert at_hours(bot, digests(bot, ANA), start)[-1] == 34.0
    assert "the deadline has passed" in digests(bot, ANA)[-1].content
    await bot.play_turn(mid, ANA, random.Random(1))
    before = len(digests(bot, ANA))
    await let_pass(bot, 48, 30)
    assert len(digests(bot, ANA)) == before
    assert digests(bot, BEN)  # now Ben is the one reminded
    sent_keys = [(s.to, s.at, s.content) for s in bot.box.sent]
    assert len(sent_keys) == len(set(sent_keys))  # nothing sent twice


async def test_reminders_of_several_matches_are_grouped_one_digest_an_hour_never_late(bot):
    start = bot.clock()
    a = await bot.new_match("lost-cities", [(ANA, "Ana"), (BEN, "Ben")], options={"deadline": "2h", "policy": "wait"}, channel=100)
    await bot.run()
    bot.clock.advance(minutes=10)
    b = await bot.new_match("lost-cities", [(ANA, "Ana"), (CARLA, "Carla")], options={"deadline": "2h", "policy": "wait"}, channel=200, seed=2)
    c = await bot.new_match("lost-cities", [(ANA, "Ana"), (BEN, "Ben")], options={"deadline": "2h", "policy": "wait"}, channel=300, seed=3)
    await bot.run()
    assert await bot.to_move(a) == await bot.to_move(b) == await bot.to_move(c) == [ANA]
    await let_pass(bot, 1.5)
    # she plays in match c before its reminders would be sent: none of them is ever sent
    await bot.play_turn(c, ANA, random.Random(3))
    await let_pass(bot, 0.75)
    sent = digests(bot, ANA)
    times = [s.at for s in sent]
    assert all(later - earlier >= timedelta(hours=1) for earlier, later in zip(times, times[1:], strict=False))
    # match a's 50% at 1:00 goes at once; b's 50% (1:10), then a's and b's 80% wait for 2:00: one DM for both
    assert at_hours(bot, sent, start) == [1.0, 2.0]
    assert "#1)" in sent[0].content and "#2)" not in sent[0].content
    assert "#1)" in sent[1].content and "#2)" in sent[1].content
    assert all("#3)" not in s.content for s in sent)
    # match c's first reminder did mention her in its channel, at 1:10, before she played there
    assert at_hours(bot, bot.box.channel(300, "the table is waiting"), start) == [1.17]


async def test_digests_are_in_each_person_s_language(bot, store):
    await store.set_locale(ANA, "es")
    mid = await bot.new_match("lost-cities", [(BEN, "Ben"), (ANA, "Ana")], options={"deadline": "off"})
    await bot.run()
    await bot.play_turn(mid, BEN, random.Random(2))
    await bot.run()
    assert "Te toca" in bot.box.dms(ANA)[-1].content
    await let_pass(bot, 12.5, 30)
    (dm,) = digests(bot, ANA)
    assert dm.content.startswith("⏰ Te están esperando") and "te toca desde hace 12 horas" in dm.content
    # with no deadline: after 12 hours, then daily
    await let_pass(bot, 48, 60)
    assert len(digests(bot, ANA)) == 3


# -- deadline policies ---------------------------------------------------------------------------


async def vanished(bot: Bot, policy: str, misses: int = 1, hours: float = 1.25):
    """Ana vanishes; Ben plays at once whenever it is his turn."""
    mid = await bot.new_match("lost-cities", [(ANA, "Ana"), (BEN, "Ben")], options={"deadline": "1h", "policy": policy, "misses": misses})
    await bot.run()
    rng = random.Random(4)
    end = bot.clock() + timedelta(hours=hours)
    while bot.clock() < end:
        bot.clock.advance(minutes=5)
        await bot.run()
        if BEN in await bot.to_move(mid):
            await bot.play_turn(mid, BEN, rng)
            await bot.run()
    return mid


async def test_policy_wait_keeps_waiting(bot, store):
    mid = await vanished(bot, "wait", hours=3)
    assert await bot.to_move(mid) == [ANA] and not await store.actions(mid)
    assert len(bot.box.channel(100, "missed the deadline; the table keeps waiting")) == 1


async def test_policy_standin_plays_each_missed_turn_marked_as_such(bot, store):
    mid = await vanished(bot, "standin", hours=3.2)
    actions = await store.actions(mid)
    ana = [a for a in actions if a.seat == 0]
    ben = [a for a in actions if a.seat == 1]
    # three deadlines in 3.2 hours (Ben answers at once): three of Ana's turns (play + draw) by the stand-in
    assert len(ana) == 6 and len(ben) == 6
    assert all(a.story["en"].startswith("🤖 [stand-in AI]") and a.story["es"].startswith("🤖 [IA suplente]") for a in ana)
    assert not any("stand-in" in a.story["en"] for a in ben)
    rec = await store.get(mid)
    assert rec.seats[0]["ai"] is None  # the seat stays hers
    assert len(bot.box.channel(100, "the stand-in AI played that turn")) == 3
    assert len(bot.box.dms(ANA, "the stand-in AI played that turn for you")) == 3
    # the board post (the picture's caption) tells the story with the mark
    assert any("🤖 [stand-in AI] Ana" in s.content for s in bot.box.channel(100) if "board.png" in s.files or "turn" in s.content)


@pytest.fixture
async def bot_both(both_stores, clock):
    b = Bot(both_stores, clock, Outbox(clock), pictures=False)
    yield b
    await b.after.close()


async def test_policy_replace_gives_the_seat_to_the_ai_after_n_misses_in_a_row(bot_both, both_stores):
    bot, store = bot_both, both_stores
    mid = await vanished(bot, "replace", misses=2, hours=1.1)
    rec = await store.get(mid)
    assert rec.seats[0]["ai"] is None and (await store.notes(mid))[ANA]["misses"] == 1  # first miss: stand-in
    # she comes back and plays one turn herself: the count starts again
    await bot.run()
    assert await bot.to_move(mid) == [ANA]
    await bot.play_turn(mid, ANA, random.Random(9))
    await bot.run()
    await bot.play_turn(mid, BEN, random.Random(9))
    await bot.run()
    bot.clock.advance(minutes=1)
    await bot.run()
    assert "misses" not in (await store.notes(mid))[ANA]
    # then two missed deadlines in a row: the AI takes her seat for good and plays on by itself
    end = bot.clock() + timedelta(hours=2.5)
    while bot.clock() < end:
        bot.clock.advance(minutes=5)
        await bot.run()
        if BEN in await bot.to_move(mid):
            await bot.play_turn(mid, BEN, random.Random(5))
            await bot.run()
    rec = await store.get(mid)
    assert rec.seats[0]["ai"] and rec.seats[0]["user_id"] == ANA and rec.seats[0]["standin"]
    (notice,) = bot.box.channel(100, "the AI plays their seat from now on")
    assert notice.buttons == [f"p:r:{mid}:0"]
    (dm,) = bot.box.dms(ANA, "the AI plays your seat now")
    assert dm.buttons == [f"p:r:{mid}:0"]
    n = len(await store.actions(mid))
    for _ in range(3):  # Ben plays; the AI answers for Ana's seat at once, with no deadline waited
        await bot.play_turn(mid, BEN, random.Random(6))
        await bot.run()
    assert len(await store.actions(mid)) == n + 12
    assert all(a.story["en"].startswith("🤖 [stand-in AI]") for a in (await store.actions(mid))[n:] if a.seat == 0)
    assert all(s.at <= notice.at for s in bot.box.dms(ANA, "Your turn"))  # no turn DMs to her meanwhile


async def test_policy_end_ends_the_match_after_n_misses(bot, store):
    mid = await vanished(bot, "end", misses=1)
    rec = await store.get(mid)
    assert rec.status == "abandoned"
    assert len(bot.box.channel(100, "the match ends here")) == 1
    final = bot.box.channel(100)[-1]
    assert i18n.t("status.abandoned", "en") in final.content and not final.buttons
    n = len(bot.box.sent)
    await let_pass(bot, 24, 60)
    assert len(bot.box.sent) == n  # nothing more about an ended match


async def test_a_seat_taken_by_the_ai_is_reclaimed_with_one_click(bot, store):
    mid = await vanished(bot, "replace", misses=1, hours=1.1)
    assert (await store.get(mid)).seats[0]["ai"]
    with pytest.raises(UserError) as e:
        await bot.timers.reclaim(mid, BEN)  # Ben's seat is his own already
    assert e.value.code == "timer.not_taken"
    with pytest.raises(UserError) as e:
        await bot.timers.reclaim(mid, 99)
    assert e.value.code == "not_player"
    # while it is Ben's turn, Ana takes her seat back
    await bot.run()
    assert await bot.to_move(mid) == [BEN]
    loaded = await bot.timers.reclaim(mid, ANA)
    assert loaded.record.seats[0]["ai"] is None and "standin" not in loaded.record.seats[0]
    await bot.run()
    assert len(bot.box.channel(100, "is back and plays their own seat again")) == 1
    await bot.play_turn(mid, BEN, random.Random(1))
    await bot.run()
    # her turn is hers again: a turn DM, a new clock, and no AI move for her seat
    assert await bot.to_move(mid) == [ANA]
    assert bot.box.dms(ANA)[-1].content.startswith("Your turn")
    n = len(await store.actions(mid))
    await let_pass(bot, 0.4)
    assert len(await store.actions(mid)) == n
    with pytest.raises(UserError):
        await bot.timers.reclaim(mid, ANA)  # twice: a clear refusal, nothing changes


# -- quiet hours and away --------------------------------------------------------------------------


def test_quiet_hours_follow_the_time_zone_and_daylight_saving():
    ny = quiet_settings("22:00", "07:00", "America/New_York")
    tokyo = quiet_settings("22:00", "07:00", "Asia/Tokyo")
    # same local hours, different instants
    at = datetime(2030, 6, 1, 3, 0, tzinfo=UTC)  # 23:00 in New York (EDT), 12:00 in Tokyo
    assert quiet_until(ny, at) == datetime(2030, 6, 1, 11, 0, tzinfo=UTC)  # 07:00 EDT
    assert quiet_until(tokyo, at) is None
    # spring forward (2030-03-10, 02:00 -> 03:00): the night from 22:00 EST to 07:00 EDT is 8 real hours
    start = datetime(2030, 3, 9, 20, 0, tzinfo=ZoneInfo("America/New_York"))
    due = after_active(ny, start, 10 * 3600)  # 2 h before the night, 8 h after it
    assert due.astimezone(ZoneInfo("America/New_York")).replace(tzinfo=None) == datetime(2030, 3, 10, 15, 0)
    assert due - start == timedelta(hours=18)
    # fall back (2030-11-03, 02:00 -> 01:00): that night is 10 real hours
    start = datetime(2030, 11, 2, 20, 0, tzinfo=ZoneInfo("America/New_York"))
    due = after_active(ny, start, 10 * 3600)
    assert due.astimezone(ZoneInfo("America/New_York")).replace(tzinfo=None) == datetime(2030, 11, 3, 15, 0)
    assert due - start == timedelta(hours=20)
    # a normal night: 9 hours
    start = datetime(2030, 6, 1, 20, 0, tzinfo=ZoneInfo("America/New_York"))
    assert after_active(ny, start, 10 * 3600) - start == timedelta(hours=19)
    for bad in (("25:00", "07:00", "UTC"), ("22:00", "07:00", "Mars/Olympus"), ("06:00", "23:00", "UTC")):
        with pytest.raises(UserError):
            quiet_settings(*bad)


async def test_quiet_hours_delay_dms_and_mentions_and_pause_the_deadline(bot, store, clock):
    local = ZoneInfo("Europe/Madrid")
    # 2030-03-30 21:00 in Madrid; summer time starts that night (02:00 -> 03:00)
    clock.now = datetime(2030, 3, 30, 21, 0, tzinfo=local).astimezone(UTC)
    await bot.timers.set_quiet(BEN, "22:00", "08:00", "Europe/Madrid")
    mid = await bot.new_match("lost-cities", [(ANA, "Ana"), (BEN, "Ben")], options={"deadline": "4h", "policy": "standin"})
    await bot.run()
    clock.advance(minutes=70)  # 22:10 in Madrid: Ben's quiet hours
    await bot.play_turn(mid, ANA, random.Random(1))
    await bot.run()
    board = bot.box.channel(100)[-1]
    assert "**Ben**" in board.content and BEN not in board.pings  # named, not pinged
    assert not bot.box.dms(BEN)  # his turn DM waits for the morning
    await let_pass(bot, 8.5, 10)  # to 07:40 (summer time began at 02:00: the night is an hour shorter)
    assert clock().astimezone(local).strftime("%H:%M") == "07:40"
    assert not bot.box.dms(BEN)
    await let_pass(bot, 0.5, 1)
    (dm,) = bot.box.dms(BEN)
    assert dm.at.astimezone(local).strftime("%H:%M") == "08:00" and dm.content.startswith("Your turn")
    # his 4 h deadline started at 22:10 but his clock only runs from 08:00: stand-in at 12:00, not earlier
    await let_pass(bot, 3.75, 5)  # 08:10 -> 11:55
    assert await bot.to_move(mid) == [BEN]
    await let_pass(bot, 0.1, 5)
    assert await bot.to_move(mid) == [ANA]
    assert bot.box.channel(100, "stand-in AI played")[0].at.astimezone(local).strftime("%H:%M") == "12:00"


async def test_away_pauses_only_that_person_s_clock_in_all_their_matches(bot, store, clock):
    a = await bot.new_match("lost-cities", [(ANA, "Ana"), (BEN, "Ben")], options={"deadline": "10h", "policy": "standin"}, channel=100)
    b = await bot.new_match("lost-cities", [(BEN, "Ben"), (ANA, "Ana")], options={"deadline": "10h", "policy": "standin"}, channel=200)
    await bot.run()
    await let_pass(bot, 2)
    until, recs = await bot.timers.set_away(ANA, 3)
    assert {r.id for r in recs} == {a, b} and until == clock() + timedelta(days=3)
    await bot.run()
    for ch in (100, 200):
        (told,) = bot.box.channel(ch, "is away until")
        assert "<@11>" in told.content and f"<t:{int(until.timestamp())}:f>" in told.content
    # Ben's clock in match b runs on: his stand-in plays after 10 h
    await let_pass(bot, 9, 15)
    assert await bot.to_move(b) == [ANA]
    # Ana's clock in match a stopped after 2 h: no stand-in until 3 days + 8 h later
    await let_pass(bot, 2 + 24 * 3 + 8 - 11 - 0.25, 15)
    assert await bot.to_move(a) == [ANA]
    assert not digests(bot, ANA) or all(s.at <= clock() - timedelta(days=2) or s.at >= until for s in digests(bot, ANA))
    await let_pass(bot, 0.5, 5)
    assert await bot.to_move(a) != [ANA]
    # a limited number of days per match; 0 is "I am back" (the tables are told, the clocks run again)
    with pytest.raises(UserError) as e:
        await bot.timers.set_away(ANA, 8)
    assert e.value.code == "timer.away_limit" and e.value.params["left"] == 7
    await bot.timers.set_away(ANA, 2)
    await bot.timers.set_away(ANA, 0)
    await bot.run()
    assert len(bot.box.channel(100, "is back")) == 1
    with pytest.raises(UserError):
        await bot.timers.set_away(ANA, 11)


# -- heads-up and catch-up -----------------------------------------------------------------------


async def test_heads_up_when_the_player_before_starts_their_turn(bot, store):
    await store.set_locale(CARLA, "es")
    mid = await bot.new_match("citadels", [(ANA, "Ana"), (BEN, "Ben"), (CARLA, "Carla")], options={"deadline": "off"})
    rec = await store.get(mid)
    await bot.timers.set_headsup(rec, CARLA, True)
    with pytest.raises(UserError):
        await bot.timers.set_headsup(rec, 99, True)
    await bot.run()
    rng = random.Random(3)
    told = []
    for _ in range(12):
        movers = await bot.to_move(mid)
        if BEN in movers:
            told.append(len(bot.box.dms(CARLA, "👀")))
        await bot.play_turn(mid, movers[0], rng)
        await bot.run()
    heads = bot.box.dms(CARLA, "👀")
    assert heads and all("Ben" in h.content and "vas después" in h.content for h in heads)
    assert not bot.box.dms(ANA, "👀") and not bot.box.dms(BEN, "👀")
    await bot.timers.set_headsup(rec, CARLA, False)
    n = len(heads)
    for _ in range(12):
        movers = await bot.to_move(mid)
        await bot.play_turn(mid, movers[0], rng)
        await bot.run()
    assert len(bot.box.dms(CARLA, "👀")) == n


async def test_the_turn_dm_holds_one_picture_and_what_happened_since(store, clock):
    bot = Bot(store, clock, Outbox(clock), pictures=True)
    mid = await bot.new_match("lost-cities", [(ANA, "Ana"), (BEN, "Ben")], options={"deadline": "1h", "policy": "standin"})
    await bot.run()
    first = bot.box.dms(ANA)[0]
    assert first.files == ["hand.png"]  # one picture: the board and the hand in one (issue 20)
    await let_pass(bot, 1.1)  # the stand-in plays Ana's turn
    await bot.play_turn(mid, BEN, random.Random(2))
    await bot.run()
    dm = bot.box.dms(ANA, "Your turn")[-1]
    assert dm.files == ["hand.png"]
    text = dm.content
    assert "Since you last played:" in text
    # what the stand-in did with her hand, in her private words, and Ben's moves in public words
    assert text.count("🤖 [stand-in AI]") == 2 and "Ben played" in text or "Ben discarded" in text
    assert "drew" in text
    await bot.after.close()


# -- restart ---------------------------------------------------------------------------------------


async def test_restart_with_timers_pending_nothing_twice_nothing_forgotten(both_stores, clock):
    store = both_stores
    box = Outbox(clock)
    first = Bot(store, clock, box, pictures=False)
    a = await first.new_match("lost-cities", [(ANA, "Ana"), (BEN, "Ben")], options={"deadline": "10h", "policy": "standin"}, channel=100)
    b = await first.new_match("lost-cities", [(BEN, "Ben"), (CARLA, "Carla")], options={"deadline": "off"}, channel=200)
    await first.run()
    await let_pass(first, 4.5, 30)
    assert not digests(first, ANA)
    # the clock moves past the 50% and 80% reminders; the process claims the due jobs and dies
    clock.advance(hours=4)
    claimed = await store.claim_jobs(first.after.scheduler.owner, clock(), timedelta(minutes=2), 100)
    assert {j.kind for j in claimed} >= {"clock"}
    await first.after.close()
    # a new process on the same database: the dead one's leases are dropped at start
    second = Bot(store, clock, box, pictures=False)
    await store.release_claims()
    await second.run()
    # only the latest due reminder is sent (the 50% one would be late now), once
    assert at_hours(second, digests(second, ANA), clock() - timedelta(hours=8.5)) == [8.5]
    await second.run()
    clock.advance(hours=1.6)
    await second.run()
    third = Bot(store, clock, box, pictures=False)  # and once more, with the deadline passed
    await third.run()
    await second.run()
    assert len(box.channel(100, "stand-in AI played that turn")) == 1
    assert [x.seat for x in await store.actions(a)] == [0, 0]  # the stand-in's play and draw, once
    # Ana: the 80% reminder only (the 95% one fell after the deadline had passed too: never late)
    assert len(digests(second, ANA)) == 1 and not digests(second, BEN)
    clock.advance(hours=2)  # Ben: 12 h into his turn in match b
    await third.run()
    await second.run()
    assert len(digests(second, BEN)) == 1 and "#2)" in digests(second, BEN)[0].content
    sent = [(s.to, s.content) for s in box.sent]
    assert len(sent) == len(set(sent))
    assert not await store.jobs(None, "failed")
    assert await store.jobs(b, "pending")  # Ben's next reminder in match b is planned
    await second.after.close()
    await third.after.close()


async def test_turns_that_began_without_timers_get_a_clock_at_start(store, clock):
    from bot.discord.wiring import wire

    box = Outbox(clock)
    plain = Bot(store, clock, box, pictures=False)
    plain.after = wire(plain.present, plain.service, clock=clock, with_timers=False).after  # a process without the timers
    mid = await plain.new_match("lost-cities", [(ANA, "Ana"), (BEN, "Ben")], options={"deadline": "10h", "policy": "standin"})
    await plain.run()
    assert ANA not in await store.notes(mid) or "clock_v" not in (await store.notes(mid))[ANA]
    timed = Bot(store, clock, box, pictures=False)
    assert await timed.timers.sweep() == 2 and await timed.timers.sweep() == 0  # once per turn
    await timed.run()
    await let_pass(timed, 5.2, 10)
    assert len(digests(timed, ANA)) == 1 and not digests(timed, BEN)


def test_every_string_of_the_time_commands_has_a_spanish_translation():
    from discord import app_commands

    from bot.discord.timer_commands import TimeCog

    strings = []
    for cmd in (TimeCog.away, TimeCog.quiet):
        strings += [cmd._locale_name, cmd._locale_description]
        for p in cmd._params.values():
            strings += [p._rename if isinstance(p._rename, app_commands.locale_str) else None, p.description]
    found = [s.message for s in strings if isinstance(s, app_commands.locale_str)]
    assert len(found) == 4 + 2 * 4 and all(s in i18n.COMMAND_ES for s in found)


async def test_the_catch_up_picture_marks_the_tiles_laid_since_the_persons_last_turn(store, clock, monkeypatch):
    """Carcassonne: the turn DM's one picture marks the tiles the others laid since the person's
    last turn (bot.games.carcassonne.mark_since); their own tile is not marked."""
    ui = type(ui_for("carcassonne"))
    drawn: list[dict] = []
    plain = ui.turn_png

    def turn_png(self, view, names, lang, page=0):
        drawn.append(view)
        return plain(self, view, names, lang, page)

    monkeypatch.setattr(ui, "turn_png", turn_png)
    bot = Bot(store, clock, Outbox(clock), pictures=True)
    mid = await bot.new_match("carcassonne", [(ANA, "Ana"), (BEN, "Ben"), (CARLA, "Carla")], options={"deadline": "off"})
    await bot.run()
    rng = random.Random(5)
    laid = []
    for _ in range(3):  # Ana, Ben, Carla: then Ana's turn begins again
        movers = await bot.to_move(mid)
        await bot.play_turn(mid, movers[0], rng)
        await bot.run()
        act = (await store.actions(mid))[-1].action
        laid.append((act["x"], act["y"]))
    marked = [v for v in drawn if v.get("since")]
    assert marked, "no catch-up picture marked anything"
    assert [tuple(p) for p in marked[-1]["since"]] == laid[1:3]  # Ben's and Carla's tiles, not Ana's own


async def test_a_seat_the_stand_in_holds_stays_its_owners_the_host_cannot_give_it_away(bot, store):
    """Issue 19: Ana's seat is held by the stand-in (policy replace); the host (Ben here) could seat
    an outsider there, who then saw her hand, and her "Take my seat back" was refused."""
    from bot.core.table import Table

    mid = await vanished(bot, "replace", misses=1, hours=1.1)
    rec = await store.get(mid)
    assert rec.seats[0]["ai"] and rec.seats[0]["user_id"] == ANA
    await store.update(mid, rec.version, host_id=BEN)  # Ben hosts (e.g. Ana had handed it over)
    table = Table(bot.service)
    for seat in (None, 0):
        with pytest.raises(UserError) as e:
            await table.invite_to_seat(mid, BEN, CARLA, seat)
        assert e.value.code == "seat_not_free"
    await store.set_note(mid, CARLA, {"seat_invite": 0})  # an invitation from before, or a forged one
    with pytest.raises(UserError) as e:
        await table.take_seat(mid, CARLA, "Carla", 0)
    assert e.value.code == "seat_not_free"
    assert (await store.get(mid)).seats[0]["user_id"] == ANA
    await bot.timers.reclaim(mid, ANA)  # hers to take back
    assert (await store.get(mid)).seats[0]["ai"] is None


async def test_a_digest_too_long_for_one_message_marks_only_what_it_listed_and_the_rest_follow(bot, store):
    """Issue 19: with 30 matches owed, the digest was cut at 2,000 characters but every match was
    marked reminded: 11 of them were never named. Now each digest names what fits, says how many
    more there are, marks only what it named; the rest come in the next digests."""
    mids = []
    for i in range(30):
        mids.append(await bot.new_match("lost-cities", [(ANA, "Ana"), (BEN, "Ben")], options={"deadline": "off"}, channel=1000 + i, seed=i + 1))
    await bot.run()
    assert [await bot.to_move(m) for m in mids] == [[ANA]] * 30
    # at once past every match's 12 h (their clocks started over the real seconds it took to create
    # them, more of them under load), the 30 reminders claimed in one batch (the default 16 would let
    # the digest they plan run beside the second batch, naming only those owed by then): all 30 are
    # owed when the digest runs
    bot.after.scheduler.concurrency = 64
    bot.clock.advance(hours=12.5)
    await bot.run()
    (first,) = digests(bot, ANA)
    named = [m for m in mids if f"(match #{m})" in first.content]
    assert len(first.content) <= 2000 and 0 < len(named) < 30
    more = re.search(r"…and (\d+) more", first.content)
    assert more and int(more.group(1)) >= 1 and first.content.endswith("(/mygames lists them all)."), first.content[-300:]
    notes = {m: (await store.notes(m)).get(ANA, {}) for m in mids}
    assert {m for m in mids if notes[m].get("reminded")} == set(named)  # only what it named
    await let_pass(bot, 3, 30)
    sent = digests(bot, ANA)
    assert all(len(s.content) <= 2000 for s in sent)
    listed = [m for m in mids if any(f"(match #{m})" in s.content for s in sent)]
    assert listed == mids  # every match named, one digest an hour
    times = [s.at for s in sent]
    assert all(later - earlier >= timedelta(hours=1) for earlier, later in zip(times, times[1:], strict=False))


async def test_the_catch_up_after_an_undo_tells_the_moves_made_again(store, clock):
    """Issue 19: Ben undoes twice, plays another card and draws: Ana's turn DM said "Nothing
    happened since you last played" (the catch-up read a stored log index that the undo did not
    move back). It now tells the undo and the new moves."""
    from bot.core.table import Table

    bot = Bot(store, clock, Outbox(clock), pictures=False)
    mid = await bot.new_match("lost-cities", [(ANA, "Ana"), (BEN, "Ben")], options={"deadline": "off"})
    await bot.run()
    await bot.play_turn(mid, ANA, random.Random(1))
    await bot.run()
    await bot.play_turn(mid, BEN, random.Random(2))
    await bot.run()
    told = len(bot.box.dms(ANA, "Your turn"))
    table = Table(bot.service)
    for _ in range(2):
        await table.take_back(mid, BEN, approved_by=[ANA])
        await bot.run()
    assert await bot.to_move(mid) == [BEN] and len(await store.actions(mid)) == 2
    await bot.play_turn(mid, BEN, random.Random(7))
    await bot.run()
    dms = bot.box.dms(ANA, "Your turn")
    assert len(dms) == told + 1
    text = dms[-1].content
    assert "Nothing happened" not in text and "Since you last played:" in text, text
    for a in (await store.actions(mid))[2:]:  # Ben's moves made again
        assert a.story["en"] in text, (a.story["en"], text)
    assert "took back" in text  # and that he took the others back
    await bot.after.close()
