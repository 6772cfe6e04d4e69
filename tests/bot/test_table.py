"""The table over a real store (SQLite and PostgreSQL): undo (allowed, refused, approved by vote),
leaving (to the AI, to an invited person), abandon (host, vote), the seed's hash against the
published log, rematch, stats from finished matches, the whole log in pages."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import random
import subprocess
import sys
from datetime import UTC, datetime, timedelta

import pytest

from bot.core import jobs as declared
from bot.core.ratings import Rater
from bot.core.service import MatchService, Stale, UserError
from bot.core.stats import guild_stats, leaderboard_text, leaderboards, stats_text
from bot.core.table import LOG_PAGE, Table, commitment, page_of
from bot.store import open_store
from engines.lost_cities.ai import HeuristicPlayer
from engines.match import Match
from tests.store.conftest import url  # noqa: F401  (SQLite and PostgreSQL)

ANA, BEN, CY = 11, 22, 33


@pytest.fixture
async def table(url):  # noqa: F811
    store = await open_store(url)
    yield Table(MatchService(store))
    await store.close()


async def started(table: Table, people=(ANA, BEN), ai=0, seed=5, channel=100, options=None, game="lost-cities"):
    svc = table.service
    m = await svc.new_lobby(1, channel, game, people[0], "Ana", options or {}, "en")
    for uid, name in zip(people[1:], ("Ben", "Cy", "Dan"), strict=False):
        m = await svc.join(m.record.id, None, uid, name)
    for i in range(ai):
        m = await svc.add_ai(m.record.id, m.record.version, people[0], f"AI {i + 1}")
    return await svc.start(m.record.id, m.record.version, people[0], seed=seed)


async def act(table: Table, mid: int, uid: int, pick) -> None:
    """``uid`` makes the first legal action that ``pick`` accepts."""
    m = await table.service.get(mid)
    seat = m.seat_of(uid)
    legal = m.game.legal_json(m.state, seat)
    action = next(a for a in legal if pick(a))
    await table.service.move(mid, m.record.version, ("user", uid), action)


def play(a):
    return a["type"] in ("play", "discard")


def deck(a):
    return a == {"type": "draw", "from": "deck"}


async def test_undo_of_a_move_that_revealed_nothing_is_immediate(table):
    m = await started(table)
    mid, v0 = m.record.id, m.record.version
    before = m.game.dump(m.state)
    await act(table, mid, ANA, play)  # a card played: nothing hidden is shown
    p = await table.undo_plan(mid, ANA)
    assert p.reason is None and [a.idx for a in p.undone] == [0]
    done, _ = await table.take_back(mid, ANA)
    assert done.record.version == v0 + 2 and done.game.dump(done.state) == before
    assert await table.store.actions(mid) == []
    (ev,) = await table.store.events(mid)
    assert ev.kind == "undo" and ev.user_id == ANA and "took back" in ev.data["story"]["en"]
    assert "deshecho" in ev.data["story"]["es"]
    # the board and Ana's turn follow as after a move; the board tells the undo
    jobs = [j for j in await table.store.jobs(mid) if j.payload.get("version") == done.record.version]
    assert {j.kind for j in jobs} == {"board", "turn", "clock"}  # clock: the turn's deadline and reminders (bot/core/timers.py)
    # a button drawn before the undo is stale
    with pytest.raises(Stale):
        await table.service.move(mid, v0 + 1, ("user", ANA), {"type": "draw", "from": "deck"})
    # and nothing is left to take back
    with pytest.raises(UserError) as e:
        await table.undo_plan(mid, ANA)
    assert e.value.code == "undo_nothing"


async def test_undo_is_refused_once_hidden_information_was_revealed(table):
    m = await started(table)
    mid = m.record.id
    await act(table, mid, ANA, play)
    await act(table, mid, ANA, deck)  # a card drawn from the deck: Ana has seen it
    p = await table.undo_plan(mid, ANA)
    assert p.reason == "revealed" and p.voters == [BEN]
    with pytest.raises(UserError) as e:
        await table.take_back(mid, ANA)
    assert e.value.code == "undo_needs_vote_revealed"
    assert len(await table.store.actions(mid)) == 2  # nothing changed
    # against the AI alone there is nobody to approve it: refused outright
    solo = await started(table, people=(CY,), ai=1, channel=101)
    await act(table, solo.record.id, CY, play)
    await act(table, solo.record.id, CY, deck)
    with pytest.raises(UserError) as e:
        await table.undo_plan(solo.record.id, CY)
    assert e.value.code == "undo_refused_revealed"


async def _others_moved(table):
    """Ana's last action is followed by Ben's, and nothing in between revealed anything: both
    discard, then draw from the other's discard pile, then Ben plays."""
    m = await started(table)
    mid = m.record.id
    await act(table, mid, ANA, lambda a: a["type"] == "discard")
    await act(table, mid, ANA, deck)
    await act(table, mid, BEN, lambda a: a["type"] == "discard")
    await act(table, mid, BEN, deck)
    await act(table, mid, ANA, lambda a: a["type"] == "discard")
    await act(table, mid, ANA, lambda a: a["type"] == "draw" and a["from"] != "deck")
    await act(table, mid, BEN, play)
    return mid


async def test_undo_after_another_player_moved_needs_their_approval(table):
    mid = await _others_moved(table)
    p = await table.undo_plan(mid, ANA)
    assert p.reason == "others" and [a.seat for a in p.undone] == [0, 1]
    with pytest.raises(UserError) as e:
        await table.take_back(mid, ANA)
    assert e.value.code == "undo_needs_vote_others"
    # Ben approves: both actions go, Ana draws again
    p, vote = await table.ask_undo(mid, ANA)
    assert vote.voters == [BEN] and vote.need == 1
    with pytest.raises(UserError) as e:
        await table.cast(mid, vote.id, CY, True)
    assert e.value.code == "vote_not_yours"
    tally = await table.cast(mid, vote.id, BEN, True)
    assert tally.passed
    done, _ = await table.take_back(mid, ANA, version=vote.version, approved_by=tally.yes)
    assert len(await table.store.actions(mid)) == 5 and done.to_move() == (0,)
    assert (await table.store.events(mid))[-1].data["approved_by"] == [BEN]
    with pytest.raises(UserError) as e:  # the vote is closed
        await table.cast(mid, vote.id, BEN, True)
    assert e.value.code == "vote_over"


async def test_an_undo_vote_refused_or_overtaken_changes_nothing(table):
    mid = await _others_moved(table)
    _, vote = await table.ask_undo(mid, ANA)
    tally = await table.cast(mid, vote.id, BEN, False)
    assert tally.rejected and not tally.passed
    _, vote = await table.ask_undo(mid, ANA)
    await act(table, mid, BEN, deck)  # the match moves on before the vote ends
    with pytest.raises(Stale):
        await table.take_back(mid, ANA, version=vote.version, approved_by=[BEN])
    assert len(await table.store.actions(mid)) == 8


async def test_leaving_hands_the_seat_to_the_ai_which_plays_it(table):
    m = await started(table)
    mid = m.record.id
    await act(table, mid, ANA, play)
    await act(table, mid, ANA, deck)  # Ben to move
    left, seat = await table.leave(mid, BEN)
    assert seat == 1 and left.record.seats[1]["ai"] and left.record.seats[1]["name"] == "Ben (AI)"
    assert BEN not in left.record.user_ids and left.record.status == "active"
    ai_jobs = [j for j in await table.store.jobs(mid) if j.kind == "ai"]
    assert [j.payload["version"] for j in ai_jobs] == [left.record.version]  # the AI is asked to play the seat now
    assert await table.service.ai_step(mid, left.record.version) is not None
    assert (await table.store.events(mid))[0].kind == "left"
    # the host leaves: the match has nobody left and ends
    gone, _ = await table.leave(mid, ANA)
    assert gone.record.status == "abandoned"


async def test_the_host_leaving_passes_the_host_role_on(table):
    m = await started(table, people=(ANA, BEN, CY), game="carcassonne")
    left, _ = await table.leave(m.record.id, ANA)
    assert left.record.host_id == BEN and left.record.status == "active"


async def test_leaving_then_an_invited_person_inherits_the_seat(table):
    m = await started(table)
    mid = m.record.id
    await table.leave(mid, BEN)
    with pytest.raises(UserError) as e:
        await table.invite_to_seat(mid, BEN, CY, None)  # Ben is gone; only the host may invite
    assert e.value.code == "host_only"
    with pytest.raises(UserError) as e:
        await table.take_seat(mid, CY, "Cy", 1)  # no invitation yet (a forged button)
    assert e.value.code == "seat_not_invited"
    _, seat = await table.invite_to_seat(mid, ANA, CY, None)
    assert seat == 1
    with pytest.raises(UserError) as e:
        await table.invite_to_seat(mid, ANA, 44, 0)  # a person's seat cannot be handed over
    assert e.value.code == "seat_not_free"
    hand_before = (await table.service.get(mid)).view(1)["hand"]
    taken = await table.take_seat(mid, CY, "Cy", 1)
    assert taken.record.seats[1] == {"user_id": CY, "ai": None, "name": "Cy"}
    assert taken.view(1)["hand"] == hand_before  # the same hand, now Cy's
    assert [r.id for r in await table.store.matches_for_user(CY)] == [mid]
    with pytest.raises(UserError):
        await table.take_seat(mid, CY, "Cy", 1)  # the invitation was used
    # Cy plays the seat
    await act(table, mid, ANA, play)
    await act(table, mid, ANA, deck)
    await act(table, mid, CY, play)
    assert [e.kind for e in await table.store.events(mid)] == ["left", "seat_taken"]


async def test_abandon_by_the_host_and_by_a_majority_vote(table):
    m = await started(table, people=(ANA, BEN, CY), game="carcassonne")
    mid = m.record.id
    with pytest.raises(UserError) as e:
        await table.abandon(mid, BEN)
    assert e.value.code == "abandon_rights"
    _, vote = await table.ask_abandon(mid, BEN)
    assert sorted(vote.voters) == [ANA, CY] and vote.need == 1  # 2 of 3 people: Ben and one more
    tally = await table.cast(mid, vote.id, CY, True)
    assert tally.passed
    done = await table.abandon(mid, BEN, by_vote=[BEN, *tally.yes])
    assert done.record.status == "abandoned"
    assert (await table.store.events(mid))[-1].data == {"by_vote": [BEN, CY]}
    # the host needs nobody
    m = await started(table, channel=200)
    assert (await table.abandon(m.record.id, ANA)).record.status == "abandoned"
    # in a 2-person match a vote needs the other person too
    m = await started(table, channel=201)
    _, vote = await table.ask_abandon(m.record.id, BEN)
    assert vote.need == 1 and vote.voters == [ANA]
    assert (await table.cast(m.record.id, vote.id, ANA, False)).rejected


async def finish(table: Table, mid: int, rng=None) -> None:
    me, rng = HeuristicPlayer(), rng or random.Random(0)
    while True:
        m = await table.service.get(mid)
        if m.record.status != "active":
            return
        seat = m.to_move()[0]
        if m.record.seats[seat]["ai"]:
            await table.service.ai_step(mid)
        else:
            code = me.choose(m.game, m.state, seat, rng)
            await table.service.move(mid, m.record.version, ("user", m.record.seats[seat]["user_id"]), m.game.encode(code))


async def test_the_seed_hash_shown_at_the_start_matches_the_published_seed_and_log(table, tmp_path):
    m = await started(table, seed=None, options={"rounds": 1})
    mid = m.record.id
    shown = commitment(m.record)
    assert shown and m.record.meta["salt"] and len(shown) == 64
    with pytest.raises(UserError) as e:  # the seed stays secret while the match runs
        await table.published_log(mid)
    assert e.value.code == "export_live"
    await finish(table, mid)
    log = await table.published_log(mid)
    end = await table.service.get(mid)
    # anyone can recompute the hash from what is published
    text = json.dumps({"game": log["game"], "salt": log["salt"], "seed": log["seed"], "setup": log["setup"]}, sort_keys=True, separators=(",", ":"))
    assert hashlib.sha256(text.encode()).hexdigest() == shown == log["seed_sha256"]
    # and the command line replays the log to the final scores, printing the same hash
    path = tmp_path / "log.json"
    path.write_text(json.dumps(log))
    out = json.loads(subprocess.run([sys.executable, "-m", "engines", "replay", str(path)], capture_output=True, text=True, check=True).stdout)
    assert out["scores"] == list(end.game.result(end.state).scores) and out["seed_sha256"] == shown
    # a different seed would not match
    assert commitment(dataclasses.replace(end.record, seed=log["seed"] + 1)) != shown


async def test_rematch_same_seats_and_options_new_seed(table):
    m = await started(table, ai=0, options={"rounds": 1})
    mid = m.record.id
    with pytest.raises(UserError) as e:
        await table.rematch(mid, ANA)
    assert e.value.code == "rematch_not_over"
    await finish(table, mid)
    with pytest.raises(UserError) as e:
        await table.rematch(mid, CY)
    assert e.value.code == "not_player"
    old = (await table.service.get(mid)).record
    new = await table.rematch(mid, BEN)
    rec = new.record
    assert rec.status == "active" and rec.id != mid and rec.channel_id == old.channel_id
    assert rec.seats == old.seats and rec.options == old.options and rec.host_id == ANA
    assert rec.seed != old.seed and rec.meta["rematch_of"] == mid and commitment(rec) != commitment(old)
    with pytest.raises(UserError) as e:  # a second click (someone else's) does not start another
        await table.rematch(mid, ANA)
    assert e.value.code == "rematch_exists" and e.value.params["id"] == rec.id
    assert [j.kind for j in await table.store.jobs(rec.id)] == ["board", "turn", "clock"]  # the first turn follows


async def test_stats_and_leaderboard_from_finished_matches(table, monkeypatch):
    # a clock the store reads: each action of Ana's takes 30 s, each of Ben's 90 s
    import bot.store.postgres
    import bot.store.sqlite

    now = [datetime(2026, 1, 1, tzinfo=UTC)]

    def clock():
        return now[0]

    monkeypatch.setattr(bot.store.sqlite, "utcnow", clock)
    monkeypatch.setattr(bot.store.postgres, "utcnow", clock)
    me, rng = HeuristicPlayer(), random.Random(3)
    results = []
    for channel in (300, 301, 302):
        m = await started(table, seed=channel, channel=channel, options={"rounds": 1})
        mid = m.record.id
        while (m := await table.service.get(mid)).record.status == "active":
            seat = m.to_move()[0]
            now[0] += timedelta(seconds=30 if seat == 0 else 90)
            code = me.choose(m.game, m.state, seat, rng)
            await table.service.move(mid, m.record.version, ("user", (ANA, BEN)[seat]), m.game.encode(code))
        results.append(m.game.result(m.state))
    await started(table, channel=303)  # still running: not counted
    rater = Rater(table.service)  # each finished match planned its rate job: run them (twice: rated once)
    for _ in range(2):
        for job in [j for j in await table.store.jobs() if j.kind == declared.RATE]:
            await rater.on_rate(job)
    stats = await guild_stats(table.store, 1)
    assert stats.matches == {"lost-cities": 3}
    ana, ben = (next(p for p in stats.players if p.user_id == uid) for uid in (ANA, BEN))
    assert ana.played == ben.played == 3
    assert ana.wins == sum(0 in r.ranking[0] for r in results) and ben.wins == sum(1 in r.ranking[0] for r in results)
    assert ana.average == pytest.approx(30) and ben.average == pytest.approx(90)
    counted = [len(await table.store.actions(m.id)) for m in await table.store.finished_in_guild(1)]
    assert ana.moves + ben.moves == sum(counted) and len(counted) == 3
    # the leaderboard ranks by rating (ordinal mu - 3 sigma; it used to be wins, then win rate)
    board = leaderboard_text(await leaderboards(table.store, 1), "en")
    rows = await table.store.leaderboard("lost-cities", 1)
    first = max(rows, key=lambda r: r.ordinal)
    assert board.splitlines()[1].startswith(f"1. <@{first.player[1:]}>") and "3 matches" in board.splitlines()[1]
    mine = await guild_stats(table.store, 1, me=BEN)
    assert "1 min 30 s" in stats_text(mine, "en") and "partidas" in stats_text(stats, "es")
    assert (await guild_stats(table.store, 1, game="carcassonne")).matches == {}
    assert (await guild_stats(table.store, 2)).players == []


async def test_the_whole_log_in_pages_with_the_undo_in_place(table):
    m = await started(table)
    mid = m.record.id
    for _turn in range(10):
        for uid in (ANA, BEN):
            await act(table, mid, uid, play)
            await act(table, mid, uid, deck)
    await act(table, mid, ANA, play)
    await table.take_back(mid, ANA)
    loaded = await table.service.get(mid)
    lines = await table.log_lines(loaded, "en")
    assert len(lines) == 41 and lines[0].startswith("1. Ana") and lines[-1].startswith("↩️ Ana took back")
    first, page, pages = page_of(lines, 0)
    assert (page, pages) == (0, 3) and first == lines[:LOG_PAGE]
    last, page, _ = page_of(lines, None)
    assert page == 2 and last == lines[2 * LOG_PAGE:] and page_of(lines, 99)[1] == 2
    # every line appears once over the pages
    assert [x for p in range(pages) for x in page_of(lines, p)[0]] == lines
    es = await table.log_lines(loaded, "es")
    assert es[-1].startswith("↩️ Ana ha deshecho")
    # Match replay of the log agrees with the state after the undo
    replayed = Match.from_log(await table.service.log(mid))
    assert replayed.game.dump(replayed.state) == loaded.game.dump(loaded.state)


async def test_a_double_click_on_undo_takes_back_one_move_only(table):
    import asyncio

    m = await started(table)
    mid = m.record.id
    await act(table, mid, ANA, lambda a: a["type"] == "discard")
    await act(table, mid, ANA, deck)
    await act(table, mid, BEN, play)
    await act(table, mid, BEN, lambda a: a["type"] == "draw" and a["from"] != "deck")  # Ana's discard: nothing hidden
    drawn_at = (await table.service.get(mid)).record.version  # Ben's Undo button carries this version
    results = await asyncio.gather(
        table.take_back(mid, BEN, since=drawn_at), table.take_back(mid, BEN, since=drawn_at), return_exceptions=True
    )
    ok = [r for r in results if not isinstance(r, Exception)]
    refused = [r for r in results if isinstance(r, UserError)]
    assert len(ok) == 1 and len(refused) == 1 and refused[0].code == "undo_already"
    assert len(await table.store.actions(mid)) == 3  # one action taken back, not two
    # a button drawn later (after a new move) works again
    await act(table, mid, BEN, lambda a: a["type"] == "draw" and a["from"] != "deck")
    again = (await table.service.get(mid)).record.version
    await table.take_back(mid, BEN, since=again)
    assert len(await table.store.actions(mid)) == 3 and len(await table.store.events(mid)) == 2


@pytest.mark.parametrize("game, people", [("lost-cities", (ANA, BEN)), ("carcassonne", (ANA, BEN, CY)), ("citadels", (ANA, BEN, CY))])
async def test_an_undo_restores_exactly_the_state_before_the_action_in_every_game(table, game, people):
    m = await started(table, people=people, game=game, seed=11)
    mid, rng = m.record.id, random.Random(5)
    before: list[dict] = []
    for _step in range(25):
        m = await table.service.get(mid)
        if m.record.status != "active":
            break
        seat = m.to_move()[0]
        before.append(m.game.dump(m.state))
        action = rng.choice(m.game.legal_json(m.state, seat))
        await table.service.move(mid, m.record.version, ("user", m.record.seats[seat]["user_id"]), action)
    for uid in (people[0], people[-1]):
        p = await table.undo_plan(mid, uid)
        done, _ = await table.take_back(mid, uid, approved_by=[] if p.reason is None else p.voters)
        assert done.game.dump(done.state) == before[p.keep], f"{game}: the state after the undo is not the one before action {p.keep}"
        assert len(await table.store.actions(mid)) == p.keep
        before = before[: p.keep]
        # the match goes on from there: the mover can move again
        seat = done.to_move()[0]
        legal = done.game.legal_json(done.state, seat)
        assert legal


def test_every_refusal_of_the_table_is_worded_in_both_languages():
    import re
    from pathlib import Path

    from bot.discord.flows import user_error_text

    codes = set()
    for name in ("core/table.py", "discord/table_ui.py"):
        codes |= set(re.findall(r'UserError\("([a-z_]+)"', (Path("bot") / name).read_text()))
    codes |= {"undo_needs_vote_revealed", "undo_needs_vote_others", "undo_refused_revealed", "undo_refused_others"}
    codes.discard("undo_needs_vote_")
    codes.discard("undo_refused_")
    for code in sorted(codes):
        en = user_error_text(UserError(code, id=7, seat=2, host="Ana", user="Cy", status="active"), "en")
        es = user_error_text(UserError(code, id=7, seat=2, host="Ana", user="Cy", status="active"), "es")
        assert en != code and es != code and en != es, code


async def test_a_rematch_cut_short_before_its_start_is_started_by_the_next_click(table):
    import asyncio

    m = await started(table, options={"rounds": 1})
    mid = m.record.id
    await finish(table, mid)
    old = (await table.service.get(mid)).record
    # a crash between creating the rematch and starting it leaves a lobby with the same seats
    seats = [{"user_id": s["user_id"], "ai": s["ai"], "name": s["name"]} for s in old.seats]
    lobby = await table.store.create_match(old.guild_id, old.channel_id, old.game, old.host_id, seats, old.options, "en", meta={"rematch_of": mid})
    new = await table.rematch(mid, BEN)
    assert new.record.id == lobby.id and new.record.status == "active"
    # two clicks at once on another finished match: one match, started once, the other click told so
    await table.abandon(new.record.id, ANA)
    other = await started(table, options={"rounds": 1}, channel=400)
    await finish(table, other.record.id)
    results = await asyncio.gather(table.rematch(other.record.id, ANA), table.rematch(other.record.id, BEN), return_exceptions=True)
    ok = [r for r in results if not isinstance(r, Exception)]
    assert len(ok) == 1 and isinstance(results[0 if ok[0] is results[1] else 1], UserError)
    assert [j.kind for j in await table.store.jobs(ok[0].record.id)] == ["board", "turn", "clock"]


async def test_an_undo_vote_among_three_needs_every_other_person(table):
    m = await started(table, people=(ANA, BEN, CY), game="carcassonne", seed=3)
    mid, rng = m.record.id, random.Random(2)
    for _ in range(6):  # a few placements (each draws a tile: revealed)
        m = await table.service.get(mid)
        seat = m.to_move()[0]
        await table.service.move(mid, m.record.version, ("user", m.record.seats[seat]["user_id"]), rng.choice(m.game.legal_json(m.state, seat)))
    p, vote = await table.ask_undo(mid, ANA)
    assert p.reason == "revealed" and sorted(vote.voters) == [BEN, CY] and vote.need == 2
    tally = await table.cast(mid, vote.id, BEN, True)
    assert not tally.passed and not tally.rejected  # one of two: still open
    assert (await table.cast(mid, vote.id, BEN, True)).yes == [BEN]  # voting twice counts once
    tally = await table.cast(mid, vote.id, CY, True)
    assert tally.passed
    await table.take_back(mid, ANA, version=vote.version, approved_by=tally.yes)
    assert len(await table.store.actions(mid)) == p.keep
    # a single refusal ends the next one
    await act(table, mid, ANA, lambda a: True)
    p, vote = await table.ask_undo(mid, ANA)
    assert (await table.cast(mid, vote.id, CY, False)).rejected
    with pytest.raises(UserError):  # closed: Ben's yes comes too late
        await table.cast(mid, vote.id, BEN, True)


# -- issue 19: a rematch keeps the match's options -----------------------------------------------------

TIMERS = {"deadline": 48 * 3600, "policy": "replace", "misses": 3}


@pytest.mark.parametrize(("meta", "options", "expect"), [
    ({"timers": {**TIMERS, "deadline": 0}}, {}, lambda r: r.meta["timers"]["deadline"] == 0),  # deadline=off
    ({"timers": {**TIMERS, "deadline": 5 * 3600}}, {}, lambda r: r.meta["timers"]["deadline"] == 5 * 3600),
    ({"timers": {**TIMERS, "policy": "wait"}}, {}, lambda r: r.meta["timers"]["policy"] == "wait"),
    ({"timers": {**TIMERS, "misses": 5}}, {}, lambda r: r.meta["timers"]["misses"] == 5),
    ({"timers": TIMERS, "ai": "strong"}, {}, lambda r: r.meta["ai"] == "strong"),
    ({"timers": TIMERS, "post": "edit"}, {}, lambda r: r.meta["post"] == "edit"),
    ({"timers": TIMERS}, {"purple": True}, lambda r: r.options["purple"] is True),  # a game variant
], ids=["deadline-off", "deadline-5h", "policy", "misses", "ai", "post", "variant"])
async def test_a_rematch_copies_each_option_of_the_match(table, meta, options, expect):
    svc = table.service
    m = await svc.new_lobby(1, 100, "lost-cities", ANA, "Ana", {"rounds": 1, **options}, "en", meta=meta)
    m = await svc.join(m.record.id, None, BEN, "Ben")
    m = await svc.start(m.record.id, m.record.version, ANA, seed=5)
    await finish(table, m.record.id)
    new = (await table.rematch(m.record.id, BEN)).record
    assert expect(new), (new.meta, new.options)
    assert new.meta["rematch_of"] == m.record.id and new.options["rounds"] == 1


async def test_a_rematch_copies_the_timers_the_host_changed_during_the_match(table):
    from bot.core.timers import settings_of

    svc = table.service
    m = await svc.new_lobby(1, 100, "lost-cities", ANA, "Ana", {"rounds": 1}, "en", meta={"timers": TIMERS})
    m = await svc.join(m.record.id, None, BEN, "Ben")
    m = await svc.start(m.record.id, m.record.version, ANA, seed=5)
    await table.store.set_note(m.record.id, 0, {"t_deadline": 0, "t_policy": "standin", "t_misses": 7})  # /partida deadline
    await finish(table, m.record.id)
    new = (await table.rematch(m.record.id, ANA)).record
    assert settings_of(new, await table.service.notes(new.id)) == {"deadline": 0, "policy": "standin", "misses": 7}


async def test_a_player_who_left_casts_no_vote_and_the_majority_is_of_those_still_seated(table):
    """Issue 19: the voters were fixed when the vote opened, so a player who had left since could
    cast the deciding abandon vote."""
    m = await started(table, people=(ANA, BEN, CY), game="carcassonne")
    mid = m.record.id
    _, vote = await table.ask_abandon(mid, ANA)
    assert vote.voters == [BEN, CY] and vote.need == 1
    await table.leave(mid, BEN)
    with pytest.raises(UserError) as e:
        await table.cast(mid, vote.id, BEN, True)
    assert e.value.code == "vote_not_yours"
    assert (await table.store.get(mid)).status == "active"
    tally = await table.tally(mid, vote)
    assert tally.vote.voters == [CY] and not tally.passed and not tally.rejected
    tally = await table.cast(mid, vote.id, CY, False)  # the one voter still seated decides
    assert tally.rejected and not tally.passed


async def test_an_undo_vote_needs_only_the_players_still_seated(table):
    m = await started(table, people=(ANA, BEN, CY), game="carcassonne")
    mid = m.record.id
    while 0 in (await table.service.get(mid)).to_move():  # Ana's whole turn: the next tile is revealed
        await act(table, mid, ANA, lambda a: True)
    p, vote = await table.ask_undo(mid, ANA)
    assert sorted(vote.voters) == [BEN, CY] and vote.need == 2
    await table.leave(mid, CY)
    tally = await table.cast(mid, vote.id, BEN, True)
    assert tally.passed and tally.yes == [BEN]
