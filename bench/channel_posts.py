"""How many posts a match makes in its channel: before (a board at every turn change) and after
the quiet channel (no board for secret draft steps, none while the turn passes between AI seats).

It plays a seeded match with the game's heuristic for every seat and, after each move, asks the
bot's own planner (bot.story.plan, with the game's quiet_step) which jobs the commit would plan:
each "board" job is one channel post. (The scheduler may merge two board jobs still pending at the
same time into one post, so the "after" figures are an upper bound.)

    ./dev python bench/channel_posts.py [--game citadels] [--seats 7] [--ai 0,3,6] [--seed 2024]
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.core.story import plan  # noqa: E402
from bot.games import ui_for  # noqa: E402
from engines import registry  # noqa: E402
from engines.ai import best_player  # noqa: E402


def count(game_key: str, n: int, ai_seats: set[int], seed: int) -> tuple[int, int, int]:
    game, ui = registry.get(game_key), ui_for(game_key)
    state = game.new_state(n, game.parse_options({}), seed, None)
    seats = [{"user_id": None if s in ai_seats else 1000 + s, "ai": "heuristic" if s in ai_seats else None, "name": f"P{s}"} for s in range(n)]
    player, rng = best_player(game_key), random.Random(seed)
    before = after = moves = 0
    version = 0
    while game.result(state) is None:
        movers = game.to_move(state)
        seat = movers[0]
        code = player.choose(game, state, seat, rng)
        encoded = game.encode(code)
        outcome = game.step(state, seat, code)
        moves += 1
        version += 1
        over = game.result(state) is not None
        now = game.to_move(state) if not over else ()
        ended = outcome.turn_ended if outcome.turn_ended is not None else now != movers
        turn_changed = over or ended
        before += 1 if turn_changed else 0
        quiet = turn_changed and not over and ui.quiet_step(encoded, outcome.events)
        rec = SimpleNamespace(id=1, version=version, status="finished" if over else "active", seats=seats)
        after += sum(1 for j in plan(rec, now, movers, turn_changed, False, quiet) if j.kind == "board")
    return moves, before, after


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="citadels")
    ap.add_argument("--seats", type=int, default=7)
    ap.add_argument("--seed", type=int, default=2024)
    args = ap.parse_args()
    print(f"{args.game}, {args.seats} seats, seed {args.seed}: channel board posts per match")
    print(f"{'AI seats':<22}{'moves':>7}{'before':>8}{'after':>7}")
    for ai in (set(), {1, 3, 5}, set(range(1, args.seats))):
        moves, before, after = count(args.game, args.seats, ai, args.seed)
        label = ",".join(map(str, sorted(ai))) or "none (all people)"
        print(f"{label:<22}{moves:>7}{before:>8}{after:>7}")


if __name__ == "__main__":
    main()
