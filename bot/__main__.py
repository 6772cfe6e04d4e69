"""python -m bot: run Partida. A missing or malformed setting is one line and exit status 2."""

from __future__ import annotations

import asyncio
import logging
import os
import sys

from .settings import SettingsError, load_settings


def main() -> int:
    try:
        settings = load_settings()
    except SettingsError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    logging.basicConfig(level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if os.environ.get("PARTIDA_TIMING") == "1":  # per-move store timings, for bench/bot.py
        logging.getLogger("partida.timing").setLevel(logging.DEBUG)
        logging.getLogger("partida.timing").addHandler(logging.StreamHandler())
        logging.getLogger("partida.timing").propagate = False
    from .client import run

    try:
        return asyncio.run(run(settings))
    except KeyboardInterrupt:
        return 0
    except SettingsError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
