"""What every worker process of the bot (AI thinking, drawing) does first."""

from __future__ import annotations

import os
import threading
import time


def exit_with_parent(parent: int) -> None:
    """In a worker: leave as soon as the bot process is gone (even after a SIGKILL)."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, daemon=True).start()
