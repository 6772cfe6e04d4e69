"""Moves in public words, and the follow-up work a committed move plans (Discord-free).

Job kinds planned with each move (run by ``bot/after_move.py``; keys make planning idempotent, lanes
keep each kind of work of one match in order):
- ``board`` (lane ``m<id>:board``): post the board and the story since the last board post;
- ``turn``  (lane ``m<id>:seat<n>``): a seat's turn begins: its standing orders, or a DM;
- ``ai``    (lane ``m<id>:ai``): an AI seat makes one move, if the match is still at that version.
- ``clock`` (lane ``m<id>:clock<n>:v<version>``): a person's turn began: its reminders and deadline
  follow, each a job with a due time (``bot/timers.py``).
"""

from __future__ import annotations

import logging
from typing import Any

from ..games import ui_for
from ..i18n import t
from ..store import NewJob

log = logging.getLogger(__name__)

LANGS = ("en", "es")


def describe_move(ui: Any, action: dict[str, Any], names: list[str], seat: int, lang: str, events: Any = None) -> str:
    """A move in public words. Every game's ``describe`` takes all the names (Citadels names the
    other player of an action) and, when known, the move's engine events (Carcassonne names the
    tile laid and the points scored); a game words only what is public."""
    return ui.describe(action, names[seat], lang, names=names, events=events)


def public_story(game: str, action: dict[str, Any], names: list[str], seat: int, events: Any = None) -> dict[str, str] | None:
    """The public wording of one move in every language, stored with the action in the log."""
    ui = ui_for(game)
    out = {}
    for lang in LANGS:
        try:
            out[lang] = describe_move(ui, action, names, seat, lang, events)
        except Exception:  # a presentation that cannot word an action must not stop the move
            log.exception("cannot describe %s", action)
            return None
    return out


def standin_story(story: dict[str, str] | None) -> dict[str, str] | None:
    """The public wording of a move the stand-in AI made for an absent person, marked as such."""
    if story is None:
        return None
    return {lang: f"{t('standin.mark', lang)} {text}" for lang, text in story.items()}


def lane(match_id: int, name: str) -> str:
    return f"m{match_id}:{name}"


def plan(
    record: Any, movers: tuple[int, ...], previous: tuple[int, ...], turn_changed: bool, auto: bool = False,
    quiet: bool = False,
) -> list[NewJob]:
    """The jobs a commit leading to ``record`` (now to move: ``movers``) inserts with itself.

    The board is posted when the match ended, or when the turn passed to a person, unless the move
    was a hidden step followed by another (``quiet``: a Citadels draft pick). Turns passing between
    AI seats are not posted one by one: the next post tells them all. A person is told when their
    turn begins, and also when a standing order moved for them and they still have to act (nobody
    else would tell them). An AI seat to move gets one step, tied to this version.
    """
    mid, v = record.id, record.version
    jobs = []
    person_next = any(record.seats[s].get("user_id") for s in movers)
    board = record.status != "active" or (turn_changed and person_next and not quiet)
    if board:
        jobs.append(NewJob("board", f"board:{mid}:{v}", lane(mid, "board"), {"version": v}))
    if record.status != "active":
        return jobs
    for seat in movers:
        s = record.seats[seat]
        if s.get("ai"):  # an AI seat, or a person's seat the stand-in AI holds: the AI step below
            continue
        if s.get("user_id") and (turn_changed or auto or seat not in previous):
            # board: whether a board post names them too (a person whose DMs are closed then needs
            # no prompt of their own in the channel)
            jobs.append(NewJob("turn", f"turn:{mid}:{v}:{seat}", lane(mid, f"seat{seat}"), {"version": v, "seat": seat, "board": board}))
        if s.get("user_id") and (turn_changed or seat not in previous):  # a turn begins: its clock starts
            jobs.append(NewJob("clock", f"clock:{mid}:{v}:{seat}", lane(mid, f"clock{seat}:v{v}"), {"version": v, "seat": seat, "step": 0}))
    if any(record.seats[s].get("ai") for s in movers):
        jobs.append(NewJob("ai", f"ai:{mid}:{v}", lane(mid, "ai"), {"version": v}))
    return jobs
