"""Plans made ahead (issue 21), Discord-free: kept, fired and dropped.

A player leaves orders for their coming turns (``/partida plan``, the button under a move's answer).
What a game lets them plan, and what a plan does at a decision, is the engine's
(``engines/<game>/plans.py``, ``engines.plans.fire``); this module keeps the plan and fires it.

- **Kept** in the seat's own note (``SeatNote.plan``, bot/core/notes.py): written by the commit path
  as a note alone, so the match version stays (nobody's open buttons go stale), a restart forgets
  nothing and any process can fire it. Nobody but its owner is ever shown it.
- **Fired** when a decision of the seat comes up and nobody has answered it yet: the seat's turn job
  (``bot/discord/after_move.py``), the player's own move that leaves them to act again (a Lost Cities
  draw after the play), and the stand-in AI at a deadline (``bot/core/timers.py``). The plan reads the
  seat's own view and legal actions only. An action is committed through the one commit path as
  the player's move, flagged ``planned`` (its story says so, as data: ``story.PLANNED``), with a DM
  job telling the player in words what was played for them; the plan is used up unless it is
  standing. ``Cancel``: the plan is dropped, why is noted (``SeatNote.plan_off``) and their turn DM
  says it in words; the player is asked as usual. ``None``: asked as usual, the plan kept.
- **Dropped** by an undo and by a seat changing hands (leaving, a seat given to the AI or taken
  back, an invited person taking a seat; ``drop_all``): the table it was made for is gone.
"""

from __future__ import annotations

import dataclasses
import json
import logging
from typing import Any

from engines import plans as engine_plans
from engines.core import EngineError
from engines.plans import Cancel

from . import jobs as declared
from .notes import Notes, SeatNote
from .service import Change, Loaded, MatchService, MoveResult, UserError

log = logging.getLogger(__name__)


@dataclasses.dataclass
class Fired:
    """What firing a plan did: the move it made (``result``), or why it was dropped (``cancel``);
    both None: the plan had nothing to say about this decision (kept)."""

    result: MoveResult | None = None
    cancel: Cancel | None = None

    @property
    def moved(self) -> bool:
        return self.result is not None


def off_note(cancel: Cancel, version: int) -> dict[str, Any]:
    """Why a plan was dropped, as the seat's note keeps it (worded by the turn DM)."""
    return {"reason": cancel.reason, "params": {k: v for k, v in cancel.params}, "version": version}


def parsed(game: str, stored: str | None) -> Any:
    """The stored plan (JSON text) as the game's model (None: none, or one this game no longer reads)."""
    if not stored:
        return None
    try:
        return engine_plans.parse(game, json.loads(stored))
    except (EngineError, ValueError):
        return None


def stored(plan: Any) -> str:
    """A plan as its owner's note keeps it."""
    return json.dumps(plan.model_dump(mode="json"), sort_keys=True, separators=(",", ":"))


def lasts_a_turn(game: str) -> bool:
    """Whether the game's plans are for the owner's next turn only (``LASTS = "turn"``)."""
    return getattr(engine_plans.module(game), "LASTS", None) == "turn"


def narrows(game: str) -> bool:
    """Whether the game's plans may narrow their owner's own choices (``allows``)."""
    return hasattr(engine_plans.module(game), "allows")


def allowed(game: str, plan: Any, legal: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The legal actions the player's plan leaves them (a Carcassonne "no follower" plan hides the
    follower spots); all of them when it would leave none."""
    if plan is None or not narrows(game):
        return legal
    kept = [a for a in legal if engine_plans.module(game).allows(plan, a)]
    return kept or legal


def _view_legal(loaded: Loaded, seat: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    return loaded.view(seat), loaded.game.legal_json(loaded.state, seat)


class Planner:
    """Plans of every match: set, cleared, fired, dropped (one instance per process)."""

    def __init__(self, service: MatchService) -> None:
        self.service = service

    # -- kept ------------------------------------------------------------------------------------

    async def set(self, match_id: int, user_id: int, raw: dict[str, Any] | None) -> tuple[Loaded, Any]:
        """Keep ``raw`` as the player's plan (None: clear it); checked against the game's plans.
        A note alone: the match version stays. Returns the match and the plan as the game reads it."""
        holder: dict[str, Any] = {}

        async def decide(loaded: Loaded) -> Change:
            rec = loaded.record
            if rec.status != "active":
                raise UserError("not_active", status=rec.status)
            seat = loaded.seat_of(user_id)
            if seat is None or rec.seats[seat].get("ai"):
                raise UserError("not_player")
            if raw is None:
                return Change(notes={user_id: {"plan": None, "plan_turn": None, "plan_off": None}})
            try:
                plan = engine_plans.parse(rec.game, raw)
            except EngineError as e:
                raise UserError("plan_bad", reason=str(e)[:120]) from None
            holder["plan"] = plan
            return Change(notes={user_id: {"plan": stored(plan), "plan_turn": None, "plan_off": None}})

        done = await self.service.commit(match_id, None, decide)
        return done.loaded, holder.get("plan")

    async def current(self, match_id: int, user_id: int, game: str) -> Any:
        """The player's plan in this match, as the game reads it (None: none)."""
        return parsed(game, (await self.service.notes(match_id)).seat(user_id).plan)

    # -- fired -----------------------------------------------------------------------------------

    async def fire(self, loaded: Loaded, seat: int, uid: int, note: SeatNote, turn: int | None = None) -> Fired:
        """Fire the seat's plan at the decision it now faces (``loaded``: the match as just read,
        ``note``: the seat's note read with it; ``turn``: the version of the turn job that asks, at
        the start of the seat's turn). Committed through the one commit path; when the match moved
        meanwhile, the plan is fired again on what is there now.

        A plan for one turn (the game's ``LASTS == "turn"``: Carcassonne) that had nothing to say at
        the start of that turn (the player places the tile themselves, without a follower) notes the
        turn, and lapses at the next one."""
        rec = loaded.record
        plan = parsed(rec.game, note.plan)
        if plan is None:
            if note.plan:  # stored by an older build and no longer a plan of this game
                await self.service.note(rec.id, uid, {"plan": None, "plan_turn": None})
            return Fired()
        mid = rec.id
        one_turn = turn is not None and lasts_a_turn(rec.game)
        if one_turn and note.plan_turn is not None and note.plan_turn < turn:
            await self.service.note(mid, uid, {"plan": None, "plan_turn": None})  # its turn is over: lapsed
            return Fired()
        holder = Fired()

        async def decide(now: Loaded) -> Change | None:
            r = now.record
            if r.status != "active" or seat not in now.to_move() or r.seats[seat].get("user_id") != uid or r.seats[seat].get("ai"):
                return None  # the turn is over, or the seat changed hands
            change, cancel = await self.change_for(now, seat, uid, plan)
            if cancel is not None:
                holder.cancel = cancel
                return Change(notes={uid: {"plan": None, "plan_turn": None, "plan_off": off_note(cancel, r.version)}})
            return change

        try:
            done = await self.service.commit(mid, None, decide, loaded=loaded)
        except EngineError as e:  # the rules refused what the plan picked: drop it, ask
            log.warning("the plan of %s in match %s gave a refused move: %s", uid, mid, e)
            cancel = Cancel("not_legal")
            await self.service.note(mid, uid, {"plan": None, "plan_off": off_note(cancel, rec.version)})
            return Fired(cancel=cancel)
        if done.change.move is not None:
            holder.result = dataclasses.replace(done.change.value, loaded=done.loaded)
        elif one_turn and holder.cancel is None and note.plan_turn is None:
            await self.service.note(mid, uid, {"plan_turn": turn})  # this is its turn: it lapses at the next
        return holder

    async def change_for(self, now: Loaded, seat: int, uid: int, plan: Any) -> tuple[Change | None, Cancel | None]:
        """What ``plan`` does at the seat's decision in ``now``: the move's change (flagged planned,
        with the DM telling its owner, the plan used up unless standing), or why it is dropped, or
        neither (not this decision). Read from the seat's view and legal actions alone."""
        r = now.record
        view, legal = await self.service.on(now, _view_legal, now, seat)
        out = engine_plans.fire(r.game, plan, view, legal)
        if out is None:
            return None, None
        if isinstance(out, Cancel):
            return None, out
        told = declared.dm(r.id, f"plan:{r.id}:{r.version}:{seat}", {"user": uid, "text": "plan.played", "game": r.game, "id": r.id, "move": out})
        change = await self.service.plan_move(now, "user", uid, out, auto=True, by_plan=True, jobs=[told])
        change.notes = {uid: {"plan_off": None} if getattr(plan, "standing", False) else {"plan": None, "plan_turn": None, "plan_off": None}}
        return change, None

    async def after_own_move(self, result: MoveResult, uid: int) -> Fired:
        """The player moved and still has to act this turn (a Lost Cities draw after the play): their
        plan may answer that decision. The notes come with the move (else one read), and only in that case; a move that
        passes the turn plans a turn job instead, which fires the plan for the next player."""
        loaded = result.loaded
        if loaded.record.status != "active" or result.seat not in loaded.to_move():
            return Fired()
        # the notes came back with the move's commit (read again only when they did not)
        notes = Notes(result.notes) if result.notes is not None else await self.service.notes(loaded.record.id)
        note = notes.seat(uid)
        if not note.plan:
            return Fired()
        return await self.fire(loaded, result.seat, uid, note)

    # -- dropped ---------------------------------------------------------------------------------

    @staticmethod
    def drop_all(raw_notes: dict[int, dict[str, Any]], reason: str, version: int, only: set[int] | None = None) -> dict[int, dict[str, Any]]:
        """Note changes that drop every pending plan (of ``only``, when given), saying ``reason``:
        for a change that takes the position the plans were made for away (an undo, a seat)."""
        out = {}
        for uid, note in raw_notes.items():
            if uid and note.get("plan") and (only is None or uid in only):
                out[uid] = {"plan": None, "plan_turn": None, "plan_off": off_note(Cancel(reason), version)}
        return out
