"""The Discord layer under load: many concurrent Lost Cities matches through the local stand-in.

The bot runs as its own process (`python -m bot`, SQLite WAL file), exactly as in production but
pointed at the stand-in; this process plays the stand-in and the people. Prints:
  - click -> initial response latency (p50/p99) as the stand-in's clock sees it (network included);
  - move commit latency inside the bot (waiting for the store's writer + the transaction, p50/p99),
    and the SQLite transaction alone (BEGIN to COMMIT on the writer thread);
  - board and hand picture render+encode time and size.

    python bench/bot.py [--matches 200] [--turns 3]

On a 2-core machine the bot and the stand-in share the CPU, so the figures are pessimistic.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import random
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


async def main(matches: int, turns: int, spec: bool, think: float) -> None:
    from engines.ai import best_player
    from engines.match import Match
    from render.lost_cities import board_png, hand_png
    from tests.e2e.helpers import is_board, private_controls, take_turn
    from tests.standin import StandIn

    logging.disable(logging.WARNING)
    tmp = tempfile.mkdtemp()
    standin = StandIn(spec_check=spec)
    standin.initial_response_limit = 60  # measure rather than fail under load
    await standin.start()
    env = {
        **os.environ, **standin.env(), "DISCORD_TOKEN": standin.token,
        "DATABASE_URL": f"sqlite:///{tmp}/bench.sqlite3", "LOG_LEVEL": "ERROR", "PARTIDA_TIMING": "1",
    }
    log_path = Path(tmp) / "bot.log"
    with open(log_path, "w") as log_file:
        proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", env=env, stderr=log_file)
        await standin.wait_until(lambda: standin._live, 30, "the bot to connect")
        await standin.wait_commands(30)

        async def one_match(i: int) -> None:
            ch = standin.create_channel(f"table-{i}")
            a = standin.user(f"a{i}", dms_open=False)
            b = standin.user(f"b{i}", dms_open=False)
            r = await a.slash(ch, "partida new", game="lost-cities", timeout=60)
            await b.click(r.message, label="Join", timeout=60)
            await standin.wait_until(lambda: b.mention in standin.messages_by_id[r.message.id].content, 120, "join")
            r2 = await a.click(standin.messages_by_id[r.message.id], label="Start", timeout=60)
            await r2.wait(lambda x: "started" in x.content, 120)
            rng = random.Random(i)
            seen = 0
            for _ in range(turns):
                if think:
                    await asyncio.sleep(rng.expovariate(1 / think))  # people take a moment between turns
                board = await standin.wait_for_message(ch, is_board, 120, after=seen)
                seen = standin.messages[ch].index(board) + 1
                mover = a if a.mention in board.content else b
                msg = await private_controls(standin, mover, board, False, 0)
                await take_turn(standin, mover, msg, rng)

        t0 = time.perf_counter()
        await asyncio.gather(*(one_match(i) for i in range(matches)))
        wall = time.perf_counter() - t0
        proc.terminate()
        await proc.wait()
    latencies = [
        (rec.initial_at - rec.created_at) * 1000
        for rec in standin.interactions.values()
        if rec.initial_at is not None and rec.type in (2, 3)
    ]
    checked = standin.checked_requests
    violations = len(standin.violations)
    await standin.stop()
    bot_log = log_path.read_text()
    commits = [float(x) for x in re.findall(r"commit_ms=([0-9.]+)", bot_log)]
    acks = [float(x) for x in re.findall(r"ack_ms=([0-9.]+)", bot_log)]
    txns = [float(x) for x in re.findall(r"txn_ms=([0-9.]+)", bot_log)]

    m = Match.create("lost-cities", ["Ana", "Ben"], seed=1)
    p, rng = best_player("lost-cities"), random.Random(1)
    for _ in range(120):
        seat = m.to_move()[0]
        m.apply_code(seat, p.choose(m.game, m.state, seat, rng))
    board_t, hand_t = [], []
    for _ in range(30):
        t = time.perf_counter()
        board = board_png(m.view(None), m.seats, "es")
        board_t.append((time.perf_counter() - t) * 1000)
        t = time.perf_counter()
        hand = hand_png(m.view(0), "es")
        hand_t.append((time.perf_counter() - t) * 1000)

    print(f"{matches} concurrent matches x {turns} turns, think time {think} s: {len(latencies)} interactions, "
          f"{len(commits)} moves, {checked} requests spec-checked ({violations} violations), {wall:.1f} s wall, "
          f"{len(latencies) / wall:.0f} interactions/s")
    print(f"{'measure':<38} {'p50':>9} {'p99':>9} {'goal':>12}")
    print(f"{'click -> initial response (ms)':<38} {statistics.median(latencies):>9.1f} {pct(latencies, 99):>9.1f} {'p99 <= 50':>12}")
    print(f"{'  inside the bot: handler -> ack (ms)':<38} {statistics.median(acks):>9.1f} {pct(acks, 99):>9.1f} {'':>12}")
    print(f"{'move commit in the bot, SQLite (ms)':<38} {statistics.median(commits):>9.2f} {pct(commits, 99):>9.2f} {'p99 <= 5':>12}")
    print(f"{'  of which the SQLite transaction (ms)':<38} {statistics.median(txns):>9.2f} {pct(txns, 99):>9.2f} {'':>12}")
    print(f"{'board render+encode (ms)':<38} {statistics.median(board_t):>9.1f} {pct(board_t, 99):>9.1f} {'<= 100':>12}")
    print(f"{'hand render+encode (ms)':<38} {statistics.median(hand_t):>9.1f} {pct(hand_t, 99):>9.1f} {'<= 100':>12}")
    print(f"board picture {len(board) / 1024:.0f} KB, hand picture {len(hand) / 1024:.0f} KB (goal <= 500 KB)")


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--matches", type=int, default=200)
    ap.add_argument("--turns", type=int, default=3)
    ap.add_argument("--think", type=float, default=2.0, help="mean seconds a person waits before each turn")
    ap.add_argument("--no-spec", action="store_true", help="skip the stand-in's spec checks (they cost CPU here)")
    args = ap.parse_args()
    asyncio.run(main(args.matches, args.turns, not args.no_spec, args.think))
