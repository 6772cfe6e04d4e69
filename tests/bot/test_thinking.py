"""Where AI seats think (bot/core/thinking.py): searching levels in a worker process, the same choice
as in the bot process for the same seed and budget; heuristics in a thread; a dead worker costs
no decision."""

from __future__ import annotations

import os
import signal

import pytest

from bot.core.thinking import Thinker, decide
from engines import registry


def _table(key: str, seats: int = 2, options: dict | None = None, moves: int = 3):
    game = registry.get(key)
    state = game.new_state(seats, game.parse_options(options or {}), 7, None)
    for _ in range(moves):  # a few moves in, so the decision is not the opening one
        seat = game.to_move(state)[0]
        game.step(state, seat, game.legal(state, seat)[0])
    return game, state


async def test_a_searching_level_thinks_in_a_worker_and_chooses_as_it_would_here():
    game, state = _table("lost-cities", options={"rounds": 1})
    seat = game.to_move(state)[0]
    snapshot = game.dump(state)
    away, here = Thinker(processes=1, iterations=40), Thinker(processes=0, iterations=40)
    try:
        for n in range(3):
            seed = f"7/{n}"
            a = await away.choose("lost-cities", game, state, snapshot, seat, "strong", seed)
            assert away.last_pid not in (None, os.getpid())
            b = await here.choose("lost-cities", game, state, snapshot, seat, "strong", seed)
            assert here.last_pid == os.getpid()
            assert a == b == decide(game, state, "lost-cities", seat, "strong", seed, 40)
            assert game.decode(a) in game.legal(state, seat)
    finally:
        away.close()
        here.close()


async def test_heuristics_and_unknown_kinds_stay_in_the_bot_process():
    game, state = _table("carcassonne")
    seat = game.to_move(state)[0]
    thinker = Thinker(processes=1)
    try:
        for kind in ("easy", "random", "no-such-kind"):
            code = await thinker.choose("carcassonne", game, state, game.dump(state), seat, kind, "1/2")
            assert thinker.last_pid == os.getpid()
            assert game.decode(code) in game.legal(state, seat)
        assert thinker._pool is None  # no process was started for them
    finally:
        thinker.close()


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
async def test_a_killed_worker_costs_no_decision():
    game, state = _table("lost-cities", options={"rounds": 1})
    seat = game.to_move(state)[0]
    snapshot = game.dump(state)
    thinker = Thinker(processes=1, iterations=20)
    try:
        await thinker.choose("lost-cities", game, state, snapshot, seat, "normal", "3/1")
        worker = thinker.last_pid
        os.kill(worker, signal.SIGKILL)
        expected = decide(game, state, "lost-cities", seat, "normal", "3/2", 20)
        # the pool notices the death; this decision is made here, the next one in a new worker
        for _ in range(50):
            code = await thinker.choose("lost-cities", game, state, snapshot, seat, "normal", "3/2")
            assert code == expected
            if thinker.last_pid == os.getpid():
                break
        else:
            pytest.fail("the dead worker was never noticed")
        code = await thinker.choose("lost-cities", game, state, snapshot, seat, "normal", "3/2")
        assert code == expected
        assert thinker.last_pid not in (os.getpid(), worker)
    finally:
        thinker.close()
