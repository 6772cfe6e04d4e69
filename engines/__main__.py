"""Command line: play and replay matches.

    python -m engines selfplay GAME --seed S [--seats N] [--option key=value ...] [--ai NAME] [--out FILE]
    python -m engines replay FILE
    python -m engines games

Errors (a malformed file, an unknown game or option, an illegal action) exit with status 2 and
one line on stderr.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from typing import Any, NoReturn

from . import ai, registry
from .core import EngineError
from .match import LogError, Match, seed_commitment


def _fail(msg: str) -> NoReturn:
    print(f"error: {msg}", file=sys.stderr)
    raise SystemExit(2)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, status 2, like every other error here
        _fail(message)


def _option(text: str) -> tuple[str, Any]:
    if "=" not in text:
        _fail(f"option {text!r} must look like key=value")
    key, raw = text.split("=", 1)
    try:
        value = read_json(raw)
    except ValueError:
        value = raw
    return key.strip(), value


def selfplay(args: argparse.Namespace) -> int:
    try:
        game = registry.get(args.game)
    except EngineError as e:
        _fail(e.reason)
    n = args.seats or game.min_players
    options = dict(_option(o) for o in args.option or [])
    try:
        match = Match.create(args.game, [f"ai-{i + 1}" for i in range(n)], options, seed=args.seed)
    except EngineError as e:
        _fail(e.reason)
    kinds = ai.players_for(args.game)
    if args.ai not in (None, *kinds):
        _fail(f"unknown AI {args.ai!r}; available: {', '.join(kinds)}")
    players = [kinds[args.ai]() if args.ai else ai.best_player(args.game) for _ in range(n)]
    rng = random.Random(args.seed)
    while not match.over:
        seat = match.to_move()[0]
        match.apply_code(seat, players[seat].choose(game, match.state, seat, rng))
    text = json.dumps(match.to_log(), separators=(",", ":")) + "\n"
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


def _no_constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not a JSON number")


def read_json(text: str) -> Any:
    """Strict JSON (no NaN/Infinity); too deep or too long numbers raise ValueError with one line."""
    try:
        return json.loads(text, parse_constant=_no_constant)
    except RecursionError:
        raise ValueError("the JSON is nested too deeply") from None
    except json.JSONDecodeError as e:
        raise ValueError(f"not a JSON file ({e})") from None
    except ValueError as e:  # e.g. an integer of more than 4,300 digits
        raise ValueError(f"not a usable JSON file ({str(e).splitlines()[0]})") from None


def replay(args: argparse.Namespace) -> int:
    try:
        with open(args.file, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        _fail(f"{args.file}: {e.strerror}")
    except UnicodeDecodeError as e:
        _fail(f"{args.file}: not a JSON file ({e})")
    try:
        log = read_json(text)
    except ValueError as e:
        _fail(f"{args.file}: {e}")
    try:
        match = Match.from_log(log)
    except LogError as e:
        _fail(f"{args.file}: {e.reason}")
    except RecursionError:
        _fail(f"{args.file}: the log is nested too deeply")
    game = match.game
    out: dict[str, Any] = {
        "game": game.key,
        "actions": len(match.actions),
        "over": match.over,
        "to_move": list(match.to_move()),
        "scores": game.scores(match.state),
    }
    rounds = game.round_scores(match.state)
    if rounds is not None:
        out["round_scores"] = rounds
    res = match.result()
    if res is not None:
        out["result"] = res.to_json()
    if isinstance(log.get("salt"), str):
        # the hash the match showed when it started: equal when this seed and setup were fixed then
        out["seed_sha256"] = seed_commitment(log["game"], log.get("seed"), log.get("setup"), log["salt"])
    print(json.dumps(out))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = _Parser(prog="python -m engines", description="Play and replay Partida matches.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    p = sub.add_parser("selfplay", help="play a whole match between built-in AI players and write its log")
    p.add_argument("game")
    p.add_argument("--seed", type=int, required=True)
    p.add_argument("--seats", type=int)
    p.add_argument("--option", action="append", metavar="KEY=VALUE")
    p.add_argument("--ai", help="AI kind for every seat (default: the game's best)")
    p.add_argument("--out", help="write the log here (default: stdout)")
    p.set_defaults(func=selfplay)
    r = sub.add_parser("replay", help="check and apply every action of a match log; print the outcome")
    r.add_argument("file")
    r.set_defaults(func=replay)
    g = sub.add_parser("games", help="list the games")
    g.set_defaults(func=lambda a: print("\n".join(registry.available())) or 0)
    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    raise SystemExit(main())
