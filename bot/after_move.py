"""The work that follows a committed move, as durable jobs (see ``bot/story.py`` for what a move
plans and ``bot/scheduler.py`` for how jobs run).

Every handler is idempotent, as a job may run again after a crash between its effect and the
record of it:
- ``turn``: the seat's standing orders, if they settle the choice (a compare-and-set move at the
  job's version), else one DM; the DM carries a nonce Discord uses to refuse a second copy, and the
  seat's note remembers which turn was told. DMs closed: the channel is told once, noted.
- ``board``: one post per planned board, with the story read from the log since the previous post
  (the match's own note, user 0, says how far the channel was told); skipped when a newer board is
  planned or already posted; posted with a nonce too.
- ``ai``: one AI move if the match is still at the version the step was planned for.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from typing import Any

import discord

from engines.core import EngineError

from . import faults
from .games import ui_for
from .i18n import game_name, t
from .posting import ALLOWED, Presenter, jump_link
from .scheduler import Scheduler
from .service import MatchService, Stale, UserError
from .store import Job, NewJob
from .store.base import utcnow
from .story import lane

log = logging.getLogger(__name__)


def nonce(key: str) -> str:
    """A Discord message nonce (at most 25 characters) for a job's message: a second send with the
    same nonce within minutes returns the first message instead of posting again."""
    return hashlib.blake2b(key.encode(), digest_size=12).hexdigest()[:25]


class AfterMove:
    def __init__(self, present: Presenter, service: MatchService, clock=utcnow, **scheduler_options: Any) -> None:
        self.present = present
        self.service = service
        self.store = service.store
        self.client = present.client
        self.scheduler = Scheduler(
            self.store, {"turn": self.on_turn, "board": self.on_board, "ai": self.on_ai}, clock=clock, **scheduler_options
        )
        service.on_commit.append(self.scheduler.wake)

    async def start(self) -> None:
        """Pick up where the last run stopped: a single-process store's leases die with the process;
        every active match gets an AI step check (a no-op when no AI is to move). Nothing is loaded
        here: a match that cannot be loaded only fails its own job."""
        if getattr(self.store, "single_process", False):
            await self.store.release_claims()
        jobs = [
            NewJob("ai", f"ai:{rec.id}:{rec.version}", lane(rec.id, "ai"), {"version": rec.version}, match_id=rec.id)
            for rec in await self.store.live_matches()
            # only matches with an AI seat: with several processes every start would otherwise
            # plan (and run) a check of every match
            if rec.status == "active" and any(s.get("ai") for s in rec.seats)
        ]
        if jobs:
            await self.store.add_jobs(jobs)
        self.scheduler.start()

    async def close(self) -> None:
        await self.scheduler.stop()

    # -- languages -------------------------------------------------------------------------------

    async def lang_for(self, user_id: int, fallback: str) -> str:
        return (await self.store.locales([user_id])).get(user_id, fallback)

    # -- turn: standing orders or a DM -----------------------------------------------------------

    async def on_turn(self, job: Job) -> None:
        seat = int(job.payload["seat"])
        rec = await self.store.get(job.match_id)
        if rec is None or rec.status != "active":
            return
        loaded = await self.service.aload(rec)
        if seat not in loaded.to_move():
            return  # that turn is over already: never tell someone of a turn that has passed
        uid = rec.seats[seat].get("user_id")
        if not uid:
            return
        note = (await self.store.notes(rec.id)).get(uid, {})
        if note.get("prefs") and await self.standing_order(loaded, seat, uid, note["prefs"]):
            return
        if note.get("turn_told") == job.key or note.get("dm_closed"):
            return  # told already; or they play through the channel's button
        lang = await self.lang_for(uid, rec.lang)
        try:
            dm = await self.client.create_dm(discord.Object(id=uid))
            ch = await self.present.channel(rec)
            # a process whose shards do not hold the guild knows it only by id: no name then
            where = f"{getattr(getattr(ch, 'guild', None), 'name', None) or ''} #{getattr(ch, 'name', '')}".strip()
            content, files, view = await self.present.private_turn(loaded, seat, lang)
            intro = t("turn.dm", lang, game=game_name(loaded.game, lang), where=where, id=rec.id, link=jump_link(rec))
            kwargs: dict[str, Any] = {"content": f"{intro}\n{content}"[:2000], "files": files, "nonce": nonce(job.key)}
            if view is not None:
                kwargs["view"] = view
            await dm.send(**kwargs)
        except discord.Forbidden:
            # DMs closed: tell the channel once (nothing private in it) and remember it
            ch = await self.present.channel(rec)
            if ch is not None:
                await ch.send(t("turn.dm_closed", rec.lang, player=f"<@{uid}>"), allowed_mentions=ALLOWED, nonce=nonce("closed" + job.key))
            await self.store.set_note(rec.id, uid, {"dm_closed": True})
            return
        faults.point("dm")
        await self.store.set_note(rec.id, uid, {"turn_told": job.key})

    async def standing_order(self, loaded, seat: int, uid: int, prefs: list[str]) -> bool:
        """Make the choice the person's standing orders settle; True when a move was made (or the
        match moved on meanwhile, whose own jobs then follow)."""
        ui = ui_for(loaded.record.game)
        view = await asyncio.to_thread(loaded.view, seat)
        legal = await asyncio.to_thread(loaded.game.legal_json, loaded.state, seat)
        action = ui.auto_action(view, legal, prefs)
        if action is None:
            return False
        try:
            await self.service.move(loaded.record.id, loaded.record.version, ("user", uid), action, loaded=loaded, auto=True)
        except Stale:
            return True
        except (EngineError, UserError):
            log.warning("standing orders of %s in match %s gave a refused move %s", uid, loaded.record.id, action)
            return False
        return True

    # -- board -----------------------------------------------------------------------------------

    async def on_board(self, job: Job) -> None:
        mid = job.match_id
        version = int(job.payload["version"])
        told = (await self.store.notes(mid)).get(0, {})
        if told.get("board_version", -1) >= version:
            return  # this board, or a newer one, is in the channel already
        pending = await self.store.jobs(mid, "pending")
        if any(j.kind == "board" and j.id > job.id for j in pending):
            return  # a newer board is planned: it tells this story too (one post, not two)
        since = int(told.get("board_upto", 0))
        actions = await self.store.actions(mid, since)  # before the match: never tell a move twice
        rec = await self.store.get(mid)
        if rec is None:
            return
        loaded = await self.service.aload(rec)
        lang = rec.lang
        ch = await self.present.channel(rec)
        if ch is None:
            return  # the channel is gone: nobody to tell
        kwargs = await self.present.board_message(loaded, self.present.story_text(loaded, actions, lang), lang)
        msg = await ch.send(nonce=nonce(job.key), **kwargs)
        faults.point("board")
        await self.store.set_note(mid, 0, {"board_version": rec.version, "board_upto": since + len(actions), "board_message": msg.id})

    # -- AI --------------------------------------------------------------------------------------

    async def on_ai(self, job: Job) -> None:
        await self.service.ai_step(job.match_id, int(job.payload["version"]))

    # -- what an operator and the players see ----------------------------------------------------

    async def failures(self, match_id: int) -> list[tuple[str, dict[str, Any], str]]:
        """(kind, payload, error) of the match's jobs that were given up, oldest first."""
        return [(job.kind, job.payload, job.last_error or "") for job in await self.store.jobs(match_id, "failed")]
