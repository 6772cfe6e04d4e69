"""Moves in public words, and the follow-up work a committed move plans (Discord-free).

Job kinds planned with each move (run by ``bot/discord/after_move.py``; keys make planning idempotent, lanes
keep each kind of work of one match in order):
- ``board`` (lane ``m<id>:board``): post the board and the story since the last board post;
- ``turn``  (lane ``m<id>:seat<n>``): a seat's turn begins: its standing orders, or a DM;
- ``ai``    (lane ``m<id>:ai``): an AI seat makes one move, if the match is still at that version.
- ``clock`` (lane ``m<id>:clock<n>:v<version>``): a person's turn began: its reminders and deadline
  follow, each a job with a due time (``bot/core/timers.py``).
- ``rate``  (lane ``m<id>:rate``): the match finished: its result goes into the ratings once
  (``bot/core/ratings.py``).
"""

from __future__ import annotations

import logging
from typing import Any

from ..games import ui_for
from ..i18n import t
from ..store import NewJob
from . import jobs as declared

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


STANDIN = "standin"  # the key of a story that says the stand-in AI made the move (data, not words)


def standin_story(story: dict[str, str] | None) -> dict[str, Any]:
    """The public wording of a move the stand-in AI made for an absent person, marked as such in
    words (every language) and as data (``story["standin"]``: the catch-up reads that)."""
    marked: dict[str, Any] = {lang: f"{t('standin.mark', lang)} {text}" for lang, text in (story or {}).items()}
    marked[STANDIN] = True
    return marked


AUTO_END = "auto_end"  # the key of a story that says the turn's end was taken for the person (data)


def auto_end_story(story: dict[str, Any] | None) -> dict[str, Any]:
    """The public wording of a turn's end taken for the person (their auto-end setting: ending was
    their only legal move), marked as data (``story["auto_end"]``: an undo reads that)."""
    return {**(story or {}), AUTO_END: True}


def by_auto_end(story: Any) -> bool:
    """Whether a logged move was a turn's end taken for the person (its story's flag)."""
    return isinstance(story, dict) and story.get(AUTO_END) is True


PLANNED = "planned"  # the key of a story that says the player's plan made the move (data, not words)


def planned_story(story: dict[str, str] | None) -> dict[str, Any]:
    """The public wording of a move a player's plan made for them (issue 21), marked in words
    (every language) and as data (``story["planned"]``). The plan itself is never worded: the table
    only learns that the move was planned, not what else the plan said."""
    marked: dict[str, Any] = {lang: f"{t('plan.mark', lang)} {text}" for lang, text in (story or {}).items()}
    marked[PLANNED] = True
    return marked


def by_plan(story: Any) -> bool:
    """Whether a logged move was made by its player's plan (its story's flag)."""
    return isinstance(story, dict) and story.get(PLANNED) is True


def by_standin(story: Any) -> bool:
    """Whether a logged move was made by the stand-in AI (its story's flag)."""
    return isinstance(story, dict) and story.get(STANDIN) is True


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
        jobs.append(declared.board(mid, v))
    if record.status == "finished":  # ended by its last move (an abandoned match is not rated)
        jobs.append(declared.rate(mid))
    if record.status != "active":
        return jobs
    for seat in movers:
        s = record.seats[seat]
        if s.get("ai"):  # an AI seat, or a person's seat the stand-in AI holds: the AI step below
            continue
        if s.get("user_id") and (turn_changed or auto or seat not in previous):
            # board: whether a board post names them too (a person whose DMs are closed then needs
            # no prompt of their own in the channel)
            jobs.append(declared.turn(mid, v, seat, board))
        if s.get("user_id") and (turn_changed or seat not in previous):  # a turn begins: its clock starts
            jobs.append(declared.clock_start(mid, v, seat))
    if any(record.seats[s].get("ai") for s in movers):
        jobs.append(declared.ai(mid, v))
    return jobs
