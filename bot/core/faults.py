"""Crash points for the tests that SIGKILL the bot at every boundary of its work.

``PARTIDA_CRASH_AT="dm"`` (or ``"dm:3"``: the third time) makes the process kill itself with SIGKILL
when it passes ``point("dm")``. Unset (always, outside those tests) a point costs a dict lookup.
Points: ``commit`` (a move is committed, its jobs not yet run), ``dm`` (a turn DM was sent, not yet
recorded), ``board`` (a board was posted, not yet recorded), ``ai`` (an AI chose, not yet committed),
``job`` (a job was claimed, its lease held, nothing done yet), ``rate`` (a finished match was rated,
its job not yet marked done).
"""

from __future__ import annotations

import os
import signal

_left: dict[str, int] = {}
for _part in filter(None, os.environ.get("PARTIDA_CRASH_AT", "").split(",")):
    _name, _, _n = _part.partition(":")
    _left[_name.strip()] = int(_n or 1)


def point(name: str) -> None:
    if name in _left:
        _left[name] -= 1
        if _left[name] <= 0:
            os.kill(os.getpid(), signal.SIGKILL)
