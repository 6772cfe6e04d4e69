"""Run a module under cProfile timed by the thread's own CPU clock, not the wall clock.

bench/bot.py pins the bot, its store threads and its drawing process to one core, so a wall-clock
profile charges whatever function happened to be running when the core went to another thread or
process (a socket write, a queue put) with that time. Timed by ``time.thread_time`` the profile shows
where the event loop's thread itself spends CPU. Stats go to FILE when the module stops (SIGINT);
with PROFILE_ON_SIGNAL=1 the profile starts at SIGUSR1.

    python bench/cpu_profile.py FILE -m bot
    python bench/cpu_profile.py FILE bench/floor_bot.py
"""

from __future__ import annotations

import cProfile
import os
import runpy
import signal
import sys
import time
from pathlib import Path


def main() -> None:
    if len(sys.argv) < 3 or (sys.argv[2] == "-m" and len(sys.argv) < 4):
        raise SystemExit("usage: cpu_profile.py FILE (-m MODULE | SCRIPT) [ARGS]")
    out = sys.argv[1]
    module = sys.argv[3] if sys.argv[2] == "-m" else None
    script = None if module else sys.argv[2]
    sys.argv = [module, *sys.argv[4:]] if module else [script, *sys.argv[3:]]
    # the project (as `python -m` would have it) or the script's folder first on the path
    sys.path[0] = str(Path(__file__).resolve().parent.parent) if module else str(Path(script).resolve().parent)
    prof = cProfile.Profile(time.thread_time)
    # bench/bot.py starts the profile with SIGUSR1 once the matches are set up, so start-up (imports,
    # catalogues, the lobbies) stays out of it; without the signal it covers the whole run
    if os.environ.get("PROFILE_ON_SIGNAL") == "1":
        signal.signal(signal.SIGUSR1, lambda *_: prof.enable())
    else:
        prof.enable()
    try:
        if module:
            runpy.run_module(module, run_name="__main__", alter_sys=True)
        else:
            runpy.run_path(script, run_name="__main__")
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        prof.disable()
        prof.dump_stats(out)


if __name__ == "__main__":
    main()
