"""Every job kind, declared once: its name, and how its key, lane and payload are built.

A job is a row in the store (``bot/store/base.py``): its **key** is unique (planning the same work
twice inserts it once), and jobs of one **lane** run one at a time, in order. Nothing else in the
bot builds a key or a lane: whoever plans work calls one of these.

Who handles each kind (registered by ``bot/discord/wiring.py``, the composition root):

=========  ================================================  ===================================
kind       what                                              handler
=========  ================================================  ===================================
``turn``   a person's turn: standing orders, else the DM     ``bot/discord/after_move.py``
``board``  the board post in the channel                     ``bot/discord/after_move.py``
``ai``     one AI move at a version                          ``bot/discord/after_move.py`` (calls
                                                             ``MatchService.ai_step``)
``clock``  a turn's clock: reminders owed, the deadline      ``bot/core/timers.py``
``notice`` a line in the match's channel                     ``bot/discord/timer_jobs.py``
``dm``     a DM to one person                                ``bot/discord/timer_jobs.py``
``digest`` the reminder digest DM of one person              ``bot/discord/timer_jobs.py``
``rate``   a finished match into the ratings, once            ``bot/core/ratings.py`` (``Rater``)
=========  ================================================  ===================================

The kinds are declared here, in the core, because the core plans them (a commit inserts its
follow-up jobs in its own transaction); the handlers that send live at the Discord edge.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from ..store import Job, NewJob

TURN, BOARD, AI, CLOCK, NOTICE, DM, DIGEST, RATE = "turn", "board", "ai", "clock", "notice", "dm", "digest", "rate"
KINDS = (TURN, BOARD, AI, CLOCK, NOTICE, DM, DIGEST, RATE)
# quick kinds (a post, a DM, a clock step): the ones one commit plans end together, in one
# transaction (an AI step thinks for seconds: it ends on its own)
QUICK = (TURN, BOARD, CLOCK, NOTICE, DM)


def lane(match_id: int, name: str) -> str:
    return f"m{match_id}:{name}"


def _at(at: datetime, precise: bool = False) -> str:
    return at.strftime("%Y%m%dT%H%M%S.%f" if precise else "%Y%m%dT%H%M%S")


# -- the work after a commit (bot/core/story.py plans these) ------------------------------------------


def board(match_id: int, version: int) -> NewJob:
    """Post the board of ``version`` (skipped when a newer board is planned or out)."""
    return NewJob(BOARD, f"board:{match_id}:{version}", lane(match_id, "board"), {"version": version}, None, match_id)


def turn(match_id: int, version: int, seat: int, with_board: bool) -> NewJob:
    """Tell the person of ``seat`` their turn (``with_board``: a board post names them too)."""
    payload = {"version": version, "seat": seat, "board": with_board}
    return NewJob(TURN, f"turn:{match_id}:{version}:{seat}", lane(match_id, f"seat{seat}"), payload, None, match_id)


def ai(match_id: int, version: int) -> NewJob:
    """One AI move, if the match is still at ``version``."""
    return NewJob(AI, f"ai:{match_id}:{version}", lane(match_id, "ai"), {"version": version}, None, match_id)


def rate(match_id: int) -> NewJob:
    """Put the finished match into the ratings (one key per match: planned twice, inserted once)."""
    return NewJob(RATE, f"rate:{match_id}", lane(match_id, "rate"), {}, None, match_id)


# -- a turn's clock (bot/core/timers.py) -------------------------------------------------------------


def clock_start(match_id: int, version: int, seat: int, sweep: bool = False) -> NewJob:
    """The first clock job of a turn (``sweep``: planned at start for a turn that had none)."""
    key = f"clock:{match_id}:{version}:{seat}" + (":sweep" if sweep else "")
    payload = {"version": version, "seat": seat, "step": 0}
    return NewJob(CLOCK, key, lane(match_id, f"clock{seat}:v{version}"), payload, None, match_id)


def clock_next(match_id: int, version: int, seat: int, step: int, due: datetime) -> NewJob:
    """The turn's next event (``step``), due on the person's own clock."""
    key = f"clock:{match_id}:{version}:{seat}:{step}:{_at(due)}"
    return NewJob(CLOCK, key, key, {"version": version, "seat": seat, "step": step}, due, match_id)


def clock_poke(match_id: int, version: int, seat: int, now: datetime) -> NewJob:
    """Compute the turn's clock again now (the person's settings or the match's timers changed)."""
    key = f"clock:{match_id}:{version}:{seat}:poke:{_at(now, precise=True)}"
    return NewJob(CLOCK, key, key, {"version": version, "seat": seat, "step": "poke"}, now, match_id)


# -- what the timers say (bot/discord/timer_jobs.py sends these) -------------------------------------


def notice(match_id: int, tag: str, payload: dict[str, Any], due: datetime | None = None) -> NewJob:
    """A line in the match's channel; ``tag`` makes it once per what it tells (e.g. "remind:7:3:0")."""
    key = f"notice:{tag}"
    return NewJob(NOTICE, key, key, payload, due, match_id)


def dm(match_id: int | None, tag: str, payload: dict[str, Any], due: datetime | None = None, prefix: str = "dm") -> NewJob:
    """A DM to ``payload["user"]``; ``tag`` makes it once per what it tells."""
    key = f"{prefix}:{tag}"
    return NewJob(DM, key, key, payload, due, match_id)


def headsup(match_id: int, version: int, seat: int, payload: dict[str, Any], now: datetime) -> NewJob:
    """The DM telling the next player that ``seat``'s turn began."""
    return dm(match_id, f"{match_id}:{version}:{seat}", payload, now, prefix="headsup")


def digest(user_id: int, at: datetime) -> NewJob:
    """The reminder digest of one person, at most one per minute's key, one at a time per person."""
    return NewJob(DIGEST, f"digest:{user_id}:{at.strftime('%Y%m%dT%H%M')}", f"u{user_id}:digest", {"user": user_id}, at, None)


def later(job: Job, at: datetime, tag: str = "q") -> NewJob:
    """The same work again at ``at`` (quiet hours, the digest's hour)."""
    key = f"{job.key.split('@')[0]}@{tag}{_at(at)}"
    return NewJob(job.kind, key, key, job.payload, at, job.match_id)
