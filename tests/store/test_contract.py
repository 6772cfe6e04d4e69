"""The store contract, run against SQLite and PostgreSQL (see conftest.py)."""

from __future__ import annotations

import asyncio
import contextlib
import subprocess
import sys
import textwrap
import time
from datetime import UTC, timedelta
from pathlib import Path

import pytest

from bot.store import (
    ChannelBusy,
    MatchNotFound,
    MatchRecord,
    VersionConflict,
    open_store,
)
from bot.store.migrate import load_migrations

GUILD, CHANNEL, HOST = 900000000000000001, 800000000000000002, 700000000000000003
ANA, BEN, CAROL = 111111111111111111, 222222222222222222, 333333333333333333
ROOT = Path(__file__).resolve().parents[2]


def seats(*users: int | None) -> list[dict]:
    return [
        {"user_id": u, "ai": None if u else "basic", "name": f"p{i}" if u else f"bot{i}"}
        for i, u in enumerate(users)
    ]


async def new_match(store, channel=CHANNEL, users=(ANA, BEN), **kw) -> MatchRecord:
    return await store.create_match(
        GUILD, channel, "lost-cities", HOST, seats(*users), {"rounds": 3}, "es", **kw
    )


async def started(store, channel=CHANNEL, users=(ANA, BEN)) -> MatchRecord:
    rec = await new_match(store, channel, users)
    return await store.update(rec.id, rec.version, status="active", seed=42, state={"turn": 0})


# -- creation and reads ------------------------------------------------------------------------------


async def test_create_and_get(store):
    rec = await new_match(store, meta={"board_message": 5})
    assert rec.status == "lobby" and rec.version == 0 and rec.live
    assert (rec.guild_id, rec.channel_id, rec.host_id, rec.game, rec.lang) == (
        GUILD,
        CHANNEL,
        HOST,
        "lost-cities",
        "es",
    )
    assert rec.seats == seats(ANA, BEN)
    assert rec.options == {"rounds": 3}
    assert rec.meta == {"board_message": 5}
    assert rec.seed is None and rec.setup is None and rec.state is None
    assert rec.created_at.utcoffset() == timedelta(0) and rec.created_at == rec.updated_at
    assert rec.user_ids == [ANA, BEN]
    assert await store.get(rec.id) == rec
    assert await store.get(rec.id + 1000) is None
    assert await store.active_in_channel(CHANNEL) == rec
    assert await store.active_in_channel(CHANNEL + 1) is None
    assert await store.actions(rec.id) == []


async def test_guild_may_be_null_and_meta_defaults_empty(store):
    rec = await store.create_match(None, CHANNEL, "lost-cities", HOST, seats(ANA), {}, "en")
    assert rec.guild_id is None and rec.meta == {} and rec.lang == "en"
    assert (await store.get(rec.id)).guild_id is None


async def test_json_round_trip_is_exact(store):
    state = {"zeta": [1, 2, {"b": None, "a": True}], "alpha": "ñandú ✓", "big": 2**62, "f": 0.5}
    rec = await new_match(store)
    rec = await store.update(rec.id, 0, state=state, setup={"deck": [3, 1, 2]}, seed=2**63 - 1)
    again = await store.get(rec.id)
    assert again.state == state and again.seed == 2**63 - 1 and again.setup == {"deck": [3, 1, 2]}
    # Key order survives (snapshots must read back the same in both back ends).
    assert list(again.state) == ["zeta", "alpha", "big", "f"]
    assert list(again.state["zeta"][2]) == ["b", "a"]


async def test_bad_input_is_refused_before_writing(store):
    with pytest.raises(ValueError):
        await store.create_match(GUILD, CHANNEL, "lost-cities", HOST, [{"user_id": 1}], {}, "en")  # no name
    with pytest.raises(ValueError):
        await store.create_match(GUILD, CHANNEL, "", HOST, seats(ANA), {}, "en")
    with pytest.raises(ValueError):
        await store.create_match(GUILD, 2**64, "lost-cities", HOST, seats(ANA), {}, "en")
    assert await store.active_in_channel(CHANNEL) is None
    rec = await new_match(store)
    with pytest.raises(ValueError):
        await store.update(rec.id, 0, status="paused")
    with pytest.raises(ValueError):
        await store.update(rec.id, 0, channel_id=5)
    with pytest.raises(ValueError):
        await store.update(rec.id, 0, version=7)
    with pytest.raises(ValueError):
        await store.commit_move(rec.id, 0, -1, {"a": 1}, False, {})
    assert (await store.get(rec.id)).version == 0


# -- migrations --------------------------------------------------------------------------------------


async def test_migrations_recorded_once_and_idempotent(url, raw):
    known = [(m.version, m.name) for m in load_migrations()]
    assert known and known[0] == (1, "init")
    first = await open_store(url)
    rec = await new_match(first)
    assert await first._migrate() == []  # nothing left to do
    await first.close()
    for _ in range(2):
        again = await open_store(url)
        assert await again.get(rec.id) == rec
        await again.close()
    rows = await raw(url, "SELECT version, name FROM schema_migrations ORDER BY version")
    assert rows == known


async def test_concurrent_start_applies_migrations_once(url, raw):
    stores = await asyncio.gather(*(open_store(url) for _ in range(4)))
    try:
        rows = await raw(url, "SELECT version, name FROM schema_migrations ORDER BY version")
        assert rows == [(m.version, m.name) for m in load_migrations()]
        rec = await new_match(stores[0])
        assert await stores[3].get(rec.id) == rec
    finally:
        for s in stores:
            await s.close()


# -- one live match per channel ----------------------------------------------------------------------


async def test_one_live_match_per_channel(store):
    first = await new_match(store)
    with pytest.raises(ChannelBusy) as err:
        await new_match(store)
    assert err.value.existing_match_id == first.id
    other = await new_match(store, channel=CHANNEL + 1)
    assert other.id != first.id

    # Starting keeps the channel busy; finishing frees it; finished ones stay in the history.
    first = await store.update(first.id, first.version, status="active")
    with pytest.raises(ChannelBusy):
        await new_match(store)
    await store.update(first.id, first.version, status="finished")
    second = await new_match(store)
    second = await store.update(second.id, second.version, status="abandoned")
    third = await new_match(store)
    history = await store.history_in_channel(CHANNEL, 10)
    assert [m.id for m in history] == [third.id, second.id, first.id]
    assert [m.status for m in history] == ["lobby", "abandoned", "finished"]
    assert [m.id for m in await store.history_in_channel(CHANNEL, 2)] == [third.id, second.id]
    assert (await store.active_in_channel(CHANNEL)).id == third.id
    # what a restarted process resumes: the live matches only, oldest first
    assert [m.id for m in await store.live_matches()] == [other.id, third.id]

    # Reviving an old match while another is live is refused and changes nothing.
    old = await store.get(second.id)
    with pytest.raises(ChannelBusy) as err:
        await store.update(old.id, old.version, status="lobby")
    assert err.value.existing_match_id == third.id
    assert await store.get(old.id) == old


async def _race_creates(stores, n=6):
    results = await asyncio.gather(
        *(new_match(stores[i % len(stores)]) for i in range(n)),
        return_exceptions=True,
    )
    winners = [r for r in results if isinstance(r, MatchRecord)]
    losers = [r for r in results if isinstance(r, ChannelBusy)]
    assert len(winners) == 1, results
    assert len(losers) == n - 1, results
    assert all(e.existing_match_id == winners[0].id for e in losers)
    return winners[0]


async def test_racing_creates_have_one_winner(store, url, raw):
    winner = await _race_creates([store])
    rows = await raw(url, f"SELECT id FROM matches WHERE channel_id = {CHANNEL}")
    assert rows == [(winner.id,)]


async def test_racing_creates_from_separate_connections(url, raw):
    stores = [await open_store(url) for _ in range(3)]
    try:
        winner = await _race_creates(stores, n=6)
        rows = await raw(url, f"SELECT id FROM matches WHERE channel_id = {CHANNEL}")
        assert rows == [(winner.id,)]
    finally:
        for s in stores:
            await s.close()


# -- compare-and-set ---------------------------------------------------------------------------------


async def test_update_is_compare_and_set(store):
    rec = await new_match(store)
    edited = await store.update(rec.id, 0, seats=seats(ANA, BEN, CAROL), options={"rounds": 1}, lang="en")
    assert edited.version == 1 and edited.seats == seats(ANA, BEN, CAROL) and edited.lang == "en"
    assert edited.options == {"rounds": 1} and edited.updated_at >= rec.updated_at
    assert edited.created_at == rec.created_at

    with pytest.raises(VersionConflict) as err:
        await store.update(rec.id, 0, lang="es")
    assert err.value.current_version == 1
    assert await store.get(rec.id) == edited

    started_ = await store.update(rec.id, 1, status="active", seed=7, state={"turn": 0}, meta={"board": 99})
    assert (started_.status, started_.seed, started_.state, started_.meta, started_.version) == (
        "active",
        7,
        {"turn": 0},
        {"board": 99},
        2,
    )
    with pytest.raises(MatchNotFound):
        await store.update(rec.id + 999, 0, lang="es")


async def test_commit_move_appends_in_order(store):
    rec = await started(store)
    for i in range(5):
        rec = await store.commit_move(
            rec.id, rec.version, i % 2, {"n": i}, revealed=i == 3, state={"turn": i + 1}
        )
    assert rec.version == 6 and rec.state == {"turn": 5} and rec.status == "active"
    log = await store.actions(rec.id)
    assert [(a.idx, a.seat, a.action, a.revealed) for a in log] == [
        (i, i % 2, {"n": i}, i == 3) for i in range(5)
    ]
    assert all(a.match_id == rec.id and a.created_at.tzinfo is not None for a in log)
    assert log[0].created_at.astimezone(UTC) <= log[-1].created_at.astimezone(UTC)

    done = await store.commit_move(
        rec.id,
        rec.version,
        0,
        {"n": 5},
        False,
        {"turn": 6, "over": True},
        status="finished",
        meta={"dm": [1]},
    )
    assert (done.status, done.meta, done.version) == ("finished", {"dm": [1]}, 7)
    assert await store.active_in_channel(CHANNEL) is None
    assert len(await store.actions(rec.id)) == 6


async def test_a_move_without_a_snapshot_keeps_the_stored_one_and_every_read_carries_the_tail(store):
    """Issue 18: a move may write its action alone; every read (by id, by channel, by person, the
    live list, the move's and a change's own answers) gives the last snapshot and the actions after
    it, and a state written whole (an undo, a finished match) ends the tail."""
    rec = await started(store)
    rec = await store.commit_move(rec.id, rec.version, 0, {"n": 0}, False, {"turn": 1})
    assert (rec.state_at, rec.tail) == (None, ())
    for i in range(1, 4):
        rec = await store.commit_move(rec.id, rec.version, i % 2, {"n": i}, False, None)
        assert rec.state is None and rec.state_at == 1  # the caller knows the snapshot it read
        assert rec.tail == tuple((k % 2, {"n": k}) for k in range(1, i + 1))
    tail = ((1, {"n": 1}), (0, {"n": 2}), (1, {"n": 3}))
    for read in (
        await store.get(rec.id),
        await store.active_in_channel(CHANNEL),
        *(await store.matches_for_user(ANA)),
        *(await store.live_matches()),
    ):
        assert (read.version, read.state, read.state_at, read.tail) == (rec.version, {"turn": 1}, 1, tail)
    moved = await store.update(rec.id, rec.version, meta={"x": 1})  # no state: the tail stays
    assert (moved.state, moved.state_at, moved.tail) == ({"turn": 1}, 1, tail)
    with pytest.raises(ValueError):  # removing actions without the state they leave
        await store.change(moved.id, moved.version, None, keep=2)
    undone = await store.change(moved.id, moved.version, None, keep=2, state={"turn": 2})
    assert (undone.state, undone.state_at, undone.tail) == ({"turn": 2}, None, ())
    assert [a.action for a in await store.actions(rec.id)] == [{"n": 0}, {"n": 1}]
    again = await store.commit_move(undone.id, undone.version, 0, {"n": 9}, False, None)
    assert (again.state_at, again.tail) == (2, ((0, {"n": 9}),))
    read = await store.get(rec.id)
    assert (read.state, read.state_at, read.tail) == ({"turn": 2}, 2, ((0, {"n": 9}),))
    done = await store.commit_move(read.id, read.version, 1, {"n": 10}, False, {"turn": 4}, status="finished")
    assert (done.state, done.state_at, done.tail) == ({"turn": 4}, None, ())
    assert (await store.get(rec.id)).tail == ()


async def test_commit_move_refuses_a_stale_version(store):
    rec = await started(store)
    moved = await store.commit_move(rec.id, rec.version, 0, {"n": 0}, False, {"turn": 1})
    with pytest.raises(VersionConflict) as err:
        await store.commit_move(rec.id, rec.version, 1, {"n": "late"}, False, {"turn": "late"})
    assert err.value.current_version == moved.version
    assert await store.get(rec.id) == moved
    assert [a.action for a in await store.actions(rec.id)] == [{"n": 0}]
    with pytest.raises(MatchNotFound):
        await store.commit_move(rec.id + 999, 0, 0, {}, False, {})


async def _race_moves(stores, match_id: int, rounds: int, racers: int) -> None:
    """Each round, ``racers`` writers commit on the same version: exactly one may win."""
    for r in range(rounds):
        version = (await stores[0].get(match_id)).version
        results = await asyncio.gather(
            *(
                stores[k % len(stores)].commit_move(
                    match_id, version, k, {"round": r, "by": k}, False, {"r": r, "k": k}
                )
                for k in range(racers)
            ),
            return_exceptions=True,
        )
        winners = [x for x in results if isinstance(x, MatchRecord)]
        conflicts = [x for x in results if isinstance(x, VersionConflict)]
        assert len(winners) == 1 and len(conflicts) == racers - 1, results
        assert winners[0].version == version + 1
        assert all(c.current_version == version + 1 for c in conflicts)
        # The stored snapshot belongs to the writer whose action was logged.
        stored = await stores[-1].get(match_id)
        last = (await stores[-1].actions(match_id))[-1]
        assert stored.state == {"r": r, "k": last.action["by"]} and last.seat == last.action["by"]


async def _check_log(store, match_id: int, rounds: int) -> None:
    log = await store.actions(match_id)
    assert [a.idx for a in log] == list(range(rounds))  # no gaps, no duplicates
    assert [a.action["round"] for a in log] == list(range(rounds))
    assert (await store.get(match_id)).version == 1 + rounds  # +1 for the start


async def test_commit_move_race_one_connection(store):
    rec = await started(store)
    await _race_moves([store], rec.id, rounds=8, racers=4)
    await _check_log(store, rec.id, 8)


async def test_commit_move_race_separate_connections(url):
    stores = [await open_store(url) for _ in range(3)]
    try:
        rec = await started(stores[0])
        await _race_moves(stores, rec.id, rounds=8, racers=3)
        await _check_log(stores[1], rec.id, 8)
    finally:
        for s in stores:
            await s.close()


async def test_update_and_move_race(store):
    rec = await started(store)
    results = await asyncio.gather(
        store.update(rec.id, rec.version, meta={"board": 1}),
        store.commit_move(rec.id, rec.version, 0, {"n": 0}, False, {"turn": 1}),
        return_exceptions=True,
    )
    assert sum(isinstance(x, MatchRecord) for x in results) == 1, results
    assert sum(isinstance(x, VersionConflict) for x in results) == 1, results
    assert (await store.get(rec.id)).version == rec.version + 1


# -- players -----------------------------------------------------------------------------------------


async def test_matches_for_user(store):
    a = await started(store, CHANNEL, (ANA, BEN))
    b = await new_match(store, CHANNEL + 1, (ANA, None, ANA))  # an AI seat; ANA twice (hot-seat)
    c = await new_match(store, CHANNEL + 2, (CAROL,))
    assert [m.id for m in await store.matches_for_user(ANA)] == [b.id, a.id]
    assert [m.id for m in await store.matches_for_user(BEN)] == [a.id]
    assert [m.id for m in await store.matches_for_user(CAROL)] == [c.id]
    assert await store.matches_for_user(HOST) == []

    await store.update(a.id, a.version, status="finished")
    assert [m.id for m in await store.matches_for_user(ANA)] == [b.id]
    assert [m.id for m in await store.matches_for_user(ANA, active_only=False)] == [b.id, a.id]
    assert await store.matches_for_user(BEN) == []

    # Seat edits keep the index in step: CAROL joins b, ANA leaves it.
    await store.update(b.id, b.version, seats=seats(CAROL, None))
    assert [m.id for m in await store.matches_for_user(CAROL)] == [c.id, b.id]
    assert [m.id for m in await store.matches_for_user(ANA, active_only=False)] == [a.id]


async def test_match_players_table_is_maintained(store, url, raw):
    rec = await new_match(store, users=(ANA, None, BEN, ANA))
    rows = await raw(url, f"SELECT user_id FROM match_players WHERE match_id = {rec.id} ORDER BY user_id")
    assert rows == [(ANA,), (BEN,)]


# -- durability --------------------------------------------------------------------------------------


async def test_reopen_after_close_keeps_everything(url):
    first = await open_store(url)
    rec = await started(first)
    for i in range(3):
        rec = await first.commit_move(rec.id, rec.version, i % 2, {"n": i}, i == 1, {"turn": i + 1})
    log = await first.actions(rec.id)
    await first.close()
    with pytest.raises(RuntimeError):
        await first.get(rec.id)

    second = await open_store(url)
    try:
        assert await second.get(rec.id) == rec
        assert await second.actions(rec.id) == log
        assert [m.id for m in await second.matches_for_user(ANA)] == [rec.id]
    finally:
        await second.close()


CRASHER = textwrap.dedent(
    """
    import asyncio, os, signal, sys
    from bot.store import open_store

    async def main(url):
        store = await open_store(url)
        seats = [{"user_id": 1, "ai": None, "name": "a"}, {"user_id": 2, "ai": None, "name": "b"}]
        rec = await store.create_match(None, 42, "lost-cities", 1, seats, {}, "en")
        rec = await store.update(rec.id, rec.version, status="active", state={"turn": 0})
        for i in range(10):
            rec = await store.commit_move(rec.id, rec.version, i % 2, {"n": i}, False, {"turn": i + 1})
        print(rec.id, flush=True)
        os.kill(os.getpid(), signal.SIGKILL)  # die without closing anything

    asyncio.run(main(sys.argv[1]))
    """
)


async def test_committed_moves_survive_a_killed_process(url):
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-c", CRASHER, url, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    out, err = await asyncio.wait_for(proc.communicate(), timeout=60)
    assert proc.returncode == -9, err.decode()
    match_id = int(out.decode().split()[0])
    store = await open_store(url)
    try:
        rec = await store.get(match_id)
        assert rec.version == 11 and rec.state == {"turn": 10}
        assert [a.action["n"] for a in await store.actions(match_id)] == list(range(10))
    finally:
        await store.close()


async def test_cancelled_move_is_all_or_nothing(store):
    rec = await started(store)
    for delay_steps in range(6):
        task = asyncio.create_task(
            store.commit_move(rec.id, rec.version, 0, {"n": rec.version}, False, {"turn": rec.version})
        )
        for _ in range(delay_steps):
            await asyncio.sleep(0)
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, VersionConflict):
            await task
        await asyncio.sleep(0.05)  # let anything still in flight settle
        rec = await store.get(rec.id)
        log = await store.actions(rec.id)
        assert len(log) == rec.version - 1  # every applied move bumped the version exactly once
        assert [a.idx for a in log] == list(range(len(log)))
        # The store is still usable afterwards.
        rec = await store.commit_move(rec.id, rec.version, 1, {"n": "after"}, False, {"turn": "after"})


STARTER = textwrap.dedent(
    """
    import asyncio, sys, time
    from bot.store import ChannelBusy, open_store

    async def main(url, start_at):
        time.sleep(max(0.0, start_at - time.time()))  # imports done: all processes go at once
        store = await open_store(url)
        seats = [{"user_id": 5, "ai": None, "name": "e"}]
        try:
            rec = await store.create_match(None, 77, "lost-cities", 5, seats, {}, "en")
            print("won", rec.id)
        except ChannelBusy as e:
            print("busy", e.existing_match_id)
        await store.close()

    asyncio.run(main(sys.argv[1], float(sys.argv[2])))
    """
)


async def test_processes_starting_together_on_a_fresh_database(url, raw):
    start_at = str(time.time() + 1.5)
    procs = [
        await asyncio.create_subprocess_exec(
            sys.executable,
            "-c",
            STARTER,
            url,
            start_at,
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for _ in range(3)
    ]
    outs = await asyncio.wait_for(asyncio.gather(*(p.communicate() for p in procs)), timeout=90)
    for p, (_, err) in zip(procs, outs, strict=True):
        assert p.returncode == 0, err.decode()
    results = sorted(out.decode().split() for out, _ in outs)
    winners = [r for r in results if r[0] == "won"]
    assert len(winners) == 1, results
    assert all(r == ["busy", winners[0][1]] for r in results if r[0] == "busy"), results
    rows = await raw(url, "SELECT version, name FROM schema_migrations ORDER BY version")
    assert rows == [(m.version, m.name) for m in load_migrations()]


# -- one read for a job (issue 18: a click that costs few round trips) ------------------------------


async def test_read_gives_the_match_its_notes_and_whether_a_newer_job_waits(store):
    from bot.store import NewJob

    rec = await started(store)
    assert (await store.read(rec.id)).notes == {}
    await store.set_note(rec.id, ANA, {"turn_told": "t:1", "plan": {"kind": "x"}})
    await store.set_note(rec.id, 0, {"board_upto": 3})
    got = await store.read(rec.id)
    assert got.record == await store.get(rec.id)
    assert got.notes == await store.notes(rec.id) == {ANA: {"turn_told": "t:1", "plan": {"kind": "x"}}, 0: {"board_upto": 3}}
    assert got.newer is False
    await store.add_jobs([NewJob("board", f"b:{rec.id}:1", f"m{rec.id}", match_id=rec.id),
                          NewJob("board", f"b:{rec.id}:2", f"m{rec.id}", match_id=rec.id)])
    first, second = [j for j in await store.jobs(rec.id) if j.kind == "board"]
    assert (await store.read(rec.id, newer_than=("board", first.id))).newer is True
    assert (await store.read(rec.id, newer_than=("board", second.id))).newer is False
    assert (await store.read(rec.id, newer_than=("turn", first.id))).newer is False
    assert await store.read(rec.id + 999) is None
    # the players' settings and languages come with it (people asked for nothing have {} and None)
    await store.set_person(ANA, {"channel_pings": True})
    await store.set_locale(BEN, "pt")
    people = (await store.read(rec.id)).people
    assert {u: (p.settings, p.locale) for u, p in people.items()} == {ANA: ({"channel_pings": True}, None), BEN: ({}, "pt")}
    assert people == {u: p for u, p in (await store.people([ANA, BEN])).items()}


async def test_log_since_gives_the_actions_from_an_index_and_every_event(store):
    from bot.store import NewEvent

    rec = await started(store)
    for i in range(4):
        rec = await store.commit_move(rec.id, rec.version, i % 2, {"n": i}, i == 1, {"turn": i}, story={"en": f"m{i}"})
    await store.add_event(rec.id, NewEvent("undo", ANA, {"k": 1}))
    await store.add_event(rec.id, NewEvent("seat", None, {}))
    log = await store.log_since(rec.id, 2)
    actions, events = log.actions, log.events
    assert log.version == rec.version and actions == await store.actions(rec.id, 2)
    assert [(a.idx, a.action, a.revealed, a.story) for a in actions] == [(2, {"n": 2}, False, {"en": "m2"}), (3, {"n": 3}, False, {"en": "m3"})]
    assert events == await store.events(rec.id) and [e.kind for e in events] == ["undo", "seat"]
    assert (await store.log_since(rec.id, 9)).actions == [] and (await store.log_since(rec.id, 9)).events == events
    assert (await store.log_since(rec.id + 999)).version is None


async def test_people_gives_settings_and_languages_of_several_in_one_read(store):
    await store.set_person(ANA, {"channel_pings": True})
    await store.set_locale(BEN, "pt")
    people = await store.people([ANA, BEN, CAROL])
    assert {u: (p.settings, p.locale) for u, p in people.items()} == {
        ANA: ({"channel_pings": True}, None), BEN: ({}, "pt"), CAROL: ({}, None)}
    assert people[ANA].settings == await store.person(ANA) and await store.people([]) == {}
