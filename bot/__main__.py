"""python -m bot: run Partida. A missing or malformed setting is one line and exit status 2."""

from __future__ import annotations

import asyncio
import logging
import os
import sys

from .core.settings import SettingsError, load_settings, mask_secrets, url_secrets


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
    secrets = [settings.discord_token.get_secret_value(), *url_secrets(settings.database_url)]
    from .discord.client import run

    try:
        return asyncio.run(run(settings))
    except KeyboardInterrupt:
        return 0
    except SettingsError as e:
        print(f"error: {mask_secrets(str(e), secrets)}", file=sys.stderr)
        return 2
    except Exception as e:  # no traceback for a start-up problem; the details go to the debug log
        logging.getLogger("partida").debug("stopped by an unexpected error", exc_info=True)
        first = (str(e).splitlines() or [""])[0][:300]
        print(f"error: {mask_secrets(f'{type(e).__name__}: {first}', secrets)}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    raise SystemExit(main())
