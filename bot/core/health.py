"""Liveness for orchestrators (compose, Kubernetes): with ``HEALTH_FILE`` set, the bot touches that
file every 15 s while its gateway shards are connected and the store answers; ``python -m
bot.health FILE [MAX_AGE]`` exits 0 when the file was touched within MAX_AGE seconds (default 60),
else 1 with one line saying why. No port is opened."""

from __future__ import annotations

import asyncio
import logging
import os
import sys
import time
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)


async def healthy(client: Any) -> bool:
    """Every shard of this process connected, and one cheap query answered."""
    if client.is_closed() or not client.is_ready():
        return False
    shards = getattr(client, "shards", None) or {}
    if any(s.is_closed() for s in shards.values()):
        return False
    try:
        await asyncio.wait_for(client.store.next_due(), 5)
    except Exception as e:
        log.warning("health: the store does not answer: %s", e)
        return False
    return True


async def beat(client: Any, path: str, every: float = 15.0) -> None:
    target = Path(path)
    while True:
        if await healthy(client):
            target.touch()
        await asyncio.sleep(every)


def check(path: str, max_age: float = 60.0, now: float | None = None) -> tuple[bool, str]:
    try:
        age = (time.time() if now is None else now) - os.stat(path).st_mtime
    except FileNotFoundError:
        return False, f"unhealthy: {path} does not exist (not connected yet, or HEALTH_FILE differs)"
    if age > max_age:
        return False, f"unhealthy: last sign of life {age:.0f} s ago (gateway or database down)"
    return True, f"healthy: last sign of life {age:.0f} s ago"


def main(argv: list[str]) -> int:
    if not argv:
        print("usage: python -m bot.health FILE [MAX_AGE_SECONDS]", file=sys.stderr)
        return 2
    ok, text = check(argv[0], float(argv[1]) if len(argv) > 1 else 60.0)
    print(text)
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
