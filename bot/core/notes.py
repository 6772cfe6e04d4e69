"""What the bot remembers about a match besides its row, typed: one note per seat's person and one
for the match itself (stored as user 0 in ``seat_notes``; nobody else writes user 0).

A note is read once per job or click (``MatchService.notes``) and changed by merging changes (a
field set to None is removed), written by the commit path (``Change.notes``, ``MatchService.note``)
or with a job's finish (``scheduler.Finish``). Every change is checked here first: a key that is no
field of its model, or a value of the wrong type, is a bug and raises before anything is written.
Stored JSON is unchanged (no migration): unknown keys in old rows are ignored when read.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

MATCH = 0  # the user id of the match's own note


class _Note(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)


class Ballot(BaseModel):
    id: str
    yes: bool


class BoardIntent(BaseModel):
    """The board post about to go out (written before it is sent: a crash resends the same)."""

    model_config = ConfigDict(extra="ignore")
    key: str
    upto: int
    events_upto: int | None = None
    version: int | None = None
    # what was about to be sent, so a re-run after a crash (past Discord's nonce window) can find it
    at: str | None = None  # when (ISO): the channel's history is searched from a little before
    digests: list[str] | None = None  # digests of the texts sent
    match: int | None = None


class SendIntent(BaseModel):
    """A turn DM about to go out (written before it is sent, like BoardIntent)."""

    model_config = ConfigDict(extra="ignore")
    key: str
    at: str | None = None
    digests: list[str] | None = None
    match: int | None = None
    version: int | None = None


class SeatNote(_Note):
    """One person in one match."""

    # the turn DM (bot/discord/after_move.py) and the catch-up (bot/discord/timer_jobs.py)
    turn_told: str | None = None  # the key of the last turn job that told them
    seen_version: int | None = None  # the match version they were last shown
    seen_upto: int | None = None  # how many logged moves the catch-up told them
    seen_event: int | None = None  # the last table event (an undo) the catch-up took into account
    turn_pending: SendIntent | None = None  # the turn DM being sent (bot/discord/after_move.py)
    dm_closed: bool | None = None  # their DMs are closed: the channel prompts them
    prefs: list[str] | None = None  # standing orders
    # plans made ahead (bot/core/plans.py): the plan as JSON text (engines/<game>/plans.py; text, as
    # a None inside it means something and notes drop None values), and why the last one was dropped
    # ({"reason": key, "params": {...}}), told once in their next turn DM
    plan: str | None = None
    plan_off: dict[str, Any] | None = None
    plan_turn: int | None = None  # a plan for one turn (LASTS "turn"): the turn job it met, by version
    # the turn's clock (bot/core/timers.py)
    clock_v: int | None = None  # the version their current turn began at
    clock_start: str | None = None  # when it began (ISO)
    clock_step: int | None = None  # the turn's events done
    clock_missed: bool | None = None  # this turn's deadline passed
    misses: int | None = None  # deadlines missed in a row
    missed_v: int | None = None  # the turn whose miss was counted
    remind_v: int | None = None  # the turn a reminder is owed for
    remind_step: int | None = None
    reminded: str | None = None  # "version:step" of the reminder the digest sent
    headsup: bool | None = None  # tell them when the player before them starts
    away_days: int | None = None  # away days used in this match
    # the table (bot/core/table.py)
    seat_invite: int | None = None  # the seat the host invited them to
    ballot: Ballot | None = None  # their vote in the open vote


class MatchNote(_Note):
    """The match itself (user 0)."""

    # the channel's board posts (bot/discord/after_move.py)
    board_version: int | None = None  # the newest version posted
    board_upto: int | None = None  # how many logged moves the channel was told
    board_message: int | None = None  # the board message (post=edit edits it)
    board_events: int | None = None  # the last table event told
    board_pending: BoardIntent | None = None
    # the open vote (bot/core/table.py), as Vote.to_json()
    vote: dict[str, Any] | None = None
    # the timers the host changed (bot/core/timers.py)
    t_deadline: int | None = None
    t_policy: str | None = None
    t_misses: int | None = None


class Notes:
    """Every note of one match, read once: ``match`` and ``seat(user_id)``."""

    def __init__(self, raw: Mapping[int, Mapping[str, Any]]) -> None:
        self.raw = {int(k): dict(v) for k, v in raw.items()}
        self.match = MatchNote.model_validate(self.raw.get(MATCH, {}))
        self._seats: dict[int, SeatNote] = {}

    def seat(self, user_id: int) -> SeatNote:
        note = self._seats.get(user_id)
        if note is None:
            note = self._seats[user_id] = SeatNote.model_validate(self.raw.get(user_id, {}))
        return note


def checked(user_id: int, changes: Mapping[str, Any]) -> dict[str, Any]:
    """``changes`` to the note of ``user_id`` (0: the match) as JSON, refused when a key is no field
    of the note's model or a value does not fit it (None: remove the key)."""
    model = MatchNote if user_id == MATCH else SeatNote
    unknown = set(changes) - set(model.model_fields)
    if unknown:
        raise ValueError(f"unknown {model.__name__} keys: {sorted(unknown)}")
    present = {k: v for k, v in changes.items() if v is not None}
    try:
        typed = model.model_validate(present)
    except ValidationError as e:
        raise ValueError(f"bad {model.__name__} changes: {e}") from None
    values = typed.model_dump(mode="json", include=set(present), exclude_none=True)
    return {k: (values[k] if v is not None else None) for k, v in changes.items()}
