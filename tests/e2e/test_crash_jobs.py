"""The bot process is SIGKILLed at every boundary of the work after a move, again and again: right
after a move's commit, right after a turn DM was sent, right after a board was posted, inside an
AI step. After each restart the pending jobs are picked up; at the end every turn was announced to
its player exactly once, every board posted once, the story told every move once, and the log is
whole (no move lost or applied twice)."""

from __future__ import annotations

import asyncio
import random
import sys

import pytest

from bot.store import open_store
from engines.match import Match

from .helpers import controls
from .test_crash import check_log_is_whole

BOUNDARIES = ("commit", "dm", "board", "ai")


class Game:
    """Reads the match straight from the database file (the bot may be dead)."""

    def __init__(self, db: str) -> None:
        self.db = db

    async def read(self):
        store = await open_store(f"sqlite:///{self.db}")
        try:
            rec = await store.get(1)
            actions = await store.actions(1)
            notes = await store.notes(1) if rec else {}
            jobs = await store.jobs(1) if rec else []
        finally:
            await store.close()
        return rec, actions, notes, jobs


def replay(rec, actions) -> tuple[Match, int]:
    """The match replayed from its log, and how many times seat 0's turn began."""
    m = Match.create(rec.game, [s["name"] for s in rec.seats], rec.options, seed=rec.seed)
    starts = 1 if m.to_move() == (0,) else 0
    for a in actions:
        before = m.to_move()
        m.apply(a.seat, a.action)
        if m.to_move() == (0,) and before != (0,):
            starts += 1
    return m, starts


def turn_dms(person):
    """The bot's DMs to ``person``: in this test only turn DMs (their text changes as she plays)."""
    return person.dms()


@pytest.mark.parametrize("late", [False, True], ids=["restart-at-once", "restart-after-the-nonce-window"])
async def test_sigkill_at_every_job_boundary(standin, bot_process, tmp_path, late):
    """``late``: every restart after a crash comes later than Discord's nonce window (issue 19), so
    a DM or a board sent just before the crash is found by what the bot recorded and what the
    channel shows, not by Discord returning the first copy."""
    db = str(tmp_path / "jobs.sqlite3")
    env = {
        "DISCORD_TOKEN": standin.token, "DATABASE_URL": f"sqlite:///{db}", "LOG_LEVEL": "WARNING",
        "RENDER_PROCESSES": "0", "PATH": "/usr/bin:/bin",
    }
    import os

    env = {**os.environ, **env}
    env.pop("PARTIDA_CRASH_AT", None)
    proc = bot_process([sys.executable, "-m", "bot"], env=env, cwd=os.getcwd())
    game = Game(db)
    ana = standin.user("ana")
    rng = random.Random(3)
    await proc.start()
    await standin.wait_commands(10)
    r = await ana.slash("general", "partida new", game="lost-cities", options="rounds=1 post=new")
    await ana.click(r.message, label="Add AI")
    await standin.wait_until(lambda: "AI 1" in standin.messages_by_id[r.message.id].content, 10, "the AI seat")
    start = await ana.click(standin.messages_by_id[r.message.id], label="Start")
    await start.wait(lambda x: "started" in x.content, 10)

    crashes: dict[str, int] = dict.fromkeys(BOUNDARIES, 0)
    plan = [b for _ in range(2) for b in BOUNDARIES]  # each boundary twice
    armed: str | None = None

    async def restart_if_dead() -> None:
        nonlocal armed
        if proc.running:
            return
        await proc.kill()  # already dead: wait for the gateway to notice
        if armed is not None:
            crashes[armed] += 1
            armed = None
            if late:  # Discord has forgotten every nonce by the time the bot is back
                standin.advance(standin.nonce_window + 1)
        if plan:
            armed = plan.pop(0)
            proc.env["PARTIDA_CRASH_AT"] = f"{armed}:{rng.choice((1, 2))}"
        else:
            proc.env.pop("PARTIDA_CRASH_AT", None)
        await proc.start()

    # arm the first boundary: restart the (healthy) bot with a crash point
    await proc.kill()
    await restart_if_dead()

    async def until_changed(n: int, timeout: float = 15.0) -> None:
        """Wait until the log has more than n actions, or the bot died."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while loop.time() < end and proc.running:
            _rec, actions, _n, _j = await game.read()
            if len(actions) > n:
                return
            await asyncio.sleep(0.05)
        if proc.running:
            raise AssertionError(f"nothing happened for {timeout} s with the bot alive")

    async def ana_acts(actions, starts) -> None:
        """One click of ana's: the first of a turn from the turn DM, the draw from /partida hand."""
        n = len(actions)
        mid_turn = bool(actions) and actions[-1].seat == 0 and actions[-1].action["type"] != "draw"
        if mid_turn:
            r = await ana.slash("general", "partida hand")
            await r.wait_done(10)
            msg = r.messages[-1]
            draw = next(b["custom_id"] for b in controls(msg)[1] if b["custom_id"].endswith(":d.deck"))
            await ana.click(msg, draw, wait=False)
        else:
            # her turn began: she plays from the DM that told her (wait for it, as a person would)
            await standin.wait_until(lambda: len(turn_dms(ana)) >= starts or not proc.running, 15, "ana's turn DM")
            if not proc.running:
                return
            msg = turn_dms(ana)[-1]  # one button per card: discard the first (one tap)
            discard = next(b["custom_id"] for b in controls(msg)[1] if ":x." in b["custom_id"])
            await ana.click(msg, discard, wait=False)
        await until_changed(n)

    turns_after_plan = 0
    while True:
        await restart_if_dead()
        rec, actions, _notes, _jobs = await game.read()
        if rec.status != "active" or (not plan and armed is None and turns_after_plan >= 3):
            break
        m, starts = replay(rec, actions)
        try:
            if m.to_move() == (0,):
                await ana_acts(actions, starts)
                if not plan and armed is None:
                    turns_after_plan += 1
            else:
                await until_changed(len(actions))  # the AI's turn: its job plays it
        except (TimeoutError, AssertionError) as e:
            if proc.running:
                _r, _a, _n, jobs = await game.read()
                raise AssertionError(f"{e}\ncrashes {crashes}, armed {armed}, dms {[d.content[:60] for d in ana.dms()]}, starts {starts}, n {len(_a)}\njobs {[(j.key, j.status, j.attempts, j.last_error) for j in jobs[-6:]]}\n--- bot log ---\n{proc.log()[-3000:]}") from None
    assert all(crashes[b] >= 1 for b in BOUNDARIES), crashes

    # let the last jobs finish, then read everything (a turn's timers, due hours ahead, stay planned)
    from datetime import UTC, datetime

    def unfinished(jobs):
        now = datetime.now(UTC)
        return [j for j in jobs if j.status != "done" and not (j.status == "pending" and j.kind == "clock" and j.due_at > now)]

    for _ in range(200):
        rec, actions, notes, jobs = await game.read()
        if not unfinished(jobs):
            break
        await asyncio.sleep(0.05)
    assert unfinished(jobs) == []
    await check_log_is_whole(db, 1, len(actions))  # no move lost or applied twice
    m, starts = replay(rec, actions)
    # each of ana's turns was announced to her exactly once
    assert len(turn_dms(ana)) == starts, (len(turn_dms(ana)), starts)
    # each board posted once: one post per board version, and the story told every move once
    boards = [msg for msg in standin.messages_in("general") if "board.png" in msg.files]
    versions = [next(c for c in b.custom_ids() if c.startswith("p:t:")) for b in boards if b.custom_ids()]
    assert len(versions) == len(set(versions))
    told = [line[2:] for b in boards for line in b.content.splitlines() if line.startswith("• ")]
    upto = notes[0]["board_upto"]
    assert told == [a.story["en"] for a in actions[:upto]], (
        [(b.id, b.custom_ids(), b.content) for b in boards], [(a.idx, a.story) for a in actions], notes, crashes)
    assert upto >= len(actions) - 2  # the last board is at most one turn behind
