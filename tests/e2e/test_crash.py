"""The bot process is killed (SIGKILL) mid-match and restarted on the same database: the match
continues with nothing lost or duplicated, and buttons drawn before the crash still work."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import sys

from bot.store import open_store
from engines import registry
from engines.match import Match

from .helpers import controls, is_board, named, private_controls, take_turn, turn_button, wait_change


async def start_bot(standin, db: str) -> asyncio.subprocess.Process:
    env = {
        **os.environ,
        **standin.env(),
        "DISCORD_TOKEN": standin.token,
        "DATABASE_URL": f"sqlite:///{db}",
        "LOG_LEVEL": "WARNING",
        "RENDER_PROCESSES": "1",
    }
    proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", env=env, cwd=os.getcwd())
    await standin.wait_until(lambda: standin._live or proc.returncode is not None, 20, "the bot process to connect")
    assert proc.returncode is None, "the bot process exited"
    return proc


async def kill(standin, proc: asyncio.subprocess.Process) -> None:
    proc.send_signal(signal.SIGKILL)
    await proc.wait()
    await standin.wait_until(lambda: not standin._live, 10, "the gateway to notice the dead bot")


async def check_log_is_whole(db: str, match_id: int, expected_actions: int) -> None:
    store = await open_store(f"sqlite:///{db}")
    try:
        rec = await store.get(match_id)
        actions = await store.actions(match_id)
        assert [a.idx for a in actions] == list(range(len(actions)))  # no gaps, no duplicates
        assert len(actions) == expected_actions
        log = {
            "format": 1, "game": rec.game, "seats": [s["name"] for s in rec.seats], "options": rec.options,
            "seed": rec.seed, "setup": rec.setup, "actions": [{"seat": a.seat, "action": a.action} for a in actions],
        }
        game = registry.get(rec.game)
        assert game.dump(Match.from_log(log).state) == game.dump(game.resume(rec.state, rec.tail))  # the snapshot and its tail are the log's state
    finally:
        await store.close()


async def test_sigkill_mid_match_and_restart(standin, tmp_path):
    db = str(tmp_path / "crash.sqlite3")
    ana = standin.user("ana", dms_open=False)
    ben = standin.user("ben", dms_open=False)
    channel = standin.channel_id("general")
    proc = await start_bot(standin, db)
    try:
        await standin.wait_commands(10)
        resp = await ana.slash("general", "partida new", game="lost-cities", options="rounds=1 post=new")
        lobby = resp.message
        await ben.click(lobby, label="Join")
        await standin.wait_until(lambda: ben.mention in standin.messages_by_id[lobby.id].content, 10, "ben in the lobby")
        r = await ana.click(standin.messages_by_id[lobby.id], label="Start")
        await r.wait(lambda x: "started" in x.content, 10)
        rng = random.Random(5)
        actions = 0
        seen = 0

        async def next_board():
            nonlocal seen
            board = await standin.wait_for_message(channel, is_board, 15, after=seen)
            seen = standin.messages[channel].index(board) + 1
            return board

        for _ in range(3):  # three whole turns before the crash
            board = await next_board()
            mover = ana if named(board, ana) else ben
            await take_turn(standin, mover, await private_controls(standin, mover, board, False, 0), rng)
            actions += 2

        # half a turn: the card is played or discarded, then the process dies before the draw
        board = await next_board()
        mover = ana if named(board, ana) else ben
        msg = await private_controls(standin, mover, board, False, 0)
        before = msg.content
        await mover.click(msg, controls(msg)[1][-1]["custom_id"])  # discard
        msg = await wait_change(standin, msg, before)
        actions += 1
        await kill(standin, proc)
        await check_log_is_whole(db, 1, actions)

        proc = await start_bot(standin, db)
        # the draw buttons drawn before the crash still work after it
        draw = next(b["custom_id"] for b in controls(msg)[1] if b["custom_id"].endswith(":d.deck"))
        before = msg.content
        await mover.click(msg, draw)
        await wait_change(standin, msg, before)
        actions += 1
        # a crash right after a click: the move is either fully there or not at all
        board = await next_board()
        mover = ana if named(board, ana) else ben
        msg = await private_controls(standin, mover, board, False, 0)
        await mover.click(msg, controls(msg)[1][-1]["custom_id"], wait=False)
        await asyncio.sleep(0.05)
        await kill(standin, proc)
        store = await open_store(f"sqlite:///{db}")
        n = len(await store.actions(1))
        await store.close()
        assert n in (actions, actions + 1)
        await check_log_is_whole(db, 1, n)

        proc = await start_bot(standin, db)
        # play on to the end of the round with the restarted process
        r = await ana.slash("general", "partida status")
        await r.wait_done(10)
        turns_left = 0
        while True:
            rec_store = await open_store(f"sqlite:///{db}")
            rec = await rec_store.get(1)
            await rec_store.close()
            if rec.status != "active":
                break
            loaded_game = registry.get(rec.game)
            state = loaded_game.resume(rec.state, rec.tail)
            seat = loaded_game.to_move(state)[0]
            mover = ana if rec.seats[seat]["user_id"] == ana.id else ben
            r = await mover.slash("general", "partida hand")
            await r.wait_done(10)
            msg = r.messages[-1]
            if not any(b["custom_id"].endswith(":d.deck") for b in controls(msg)[1]):
                await take_turn(standin, mover, msg, rng)
            else:  # mid-turn (the draw is due): draw from the deck
                before = msg.content
                await mover.click(msg, next(b["custom_id"] for b in controls(msg)[1] if b["custom_id"].endswith(":d.deck")))
                await wait_change(standin, msg, before)
            turns_left += 1
        store = await open_store(f"sqlite:///{db}")
        total = len(await store.actions(1))
        await store.close()
        assert rec.status == "finished"
        await check_log_is_whole(db, 1, total)
        assert total == 88  # one round: 44 turns of play/discard + draw, nothing lost or doubled
        final = await standin.wait_for_message(channel, lambda m: "match is over" in m.content, 15)
        assert not turn_button(final)
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()


def drawing_workers(parent: int) -> set[int]:
    """The drawing worker processes of one bot (its children), so other bots on the machine never count."""
    import subprocess

    out = subprocess.run(["pgrep", "-P", str(parent), "-f", "multiprocessing.spawn import spawn_main"], capture_output=True, text=True).stdout
    return {int(x) for x in out.split()}


def alive(pids: set[int]) -> set[int]:
    out = set()
    for pid in pids:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            continue
        out.add(pid)
    return out


async def test_drawing_workers_leave_with_a_killed_bot(standin, tmp_path):
    proc = await start_bot(standin, str(tmp_path / "w.sqlite3"))
    ana = standin.user("ana", dms_open=False)
    r = await ana.slash("general", "partida rules")  # draws a picture: the worker pool starts
    await r.wait_done(15)
    assert any(name.startswith("guide-") for name in r.messages[-1].files)
    await standin.wait_until(lambda: drawing_workers(proc.pid), 10, "a drawing worker")
    workers = drawing_workers(proc.pid)
    await kill(standin, proc)
    await standin.wait_until(lambda: not alive(workers), 10, "the workers to leave")
