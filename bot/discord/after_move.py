"""The work that follows a committed move, as durable jobs (see ``bot/core/story.py`` for what a move
plans and ``bot/core/scheduler.py`` for how jobs run).

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

import hashlib
import logging
import re
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from typing import Any

import discord

from engines.core import EngineError

from ..core import faults
from ..core import jobs as declared
from ..core.notes import BoardIntent, Notes
from ..core.plan_words import plan_off_text, plan_text
from ..core.plans import Planner, parsed
from ..core.scheduler import Finish, Scheduler
from ..core.service import MatchService, Stale, UserError
from ..core.table import event_text
from ..games import ui_for
from ..i18n import game_name, t
from ..store import Job, Person
from .components import TurnButton
from .posting import ALLOWED, Presenter, jump_link

log = logging.getLogger(__name__)


SENT_MARGIN = timedelta(minutes=2)  # clock skew allowed between this process and Discord


def digest(content: str) -> str:
    """What a sent message is recognised by when the bot looks for it again (its text, hashed)."""
    return hashlib.blake2b((content or "").encode(), digest_size=8).hexdigest()


def send_record(key: str, rec: Any, *contents: str) -> dict[str, Any]:
    """Recorded before a job sends its message: the job, when, the text(s) it may send, and the
    match version its buttons are drawn for."""
    return {"key": key, "at": discord.utils.utcnow().isoformat(), "digests": [digest(c) for c in contents], "match": rec.id, "version": rec.version}


_CONTROL = re.compile(r"p:[a-z]+:(\d+):(\d+)")


def _shows_match_since(msg: Any, match_id: int, version: int) -> bool:
    """The message carries a button of ``match_id`` drawn at ``version`` or later: it is the one
    sent then, edited since by the person's clicks (a turn DM's text changes as they play)."""
    for row in getattr(msg, "components", None) or []:
        for item in getattr(row, "children", None) or []:
            m = _CONTROL.match(getattr(item, "custom_id", None) or "")
            if m and int(m.group(1)) == match_id and int(m.group(2)) >= version:
                return True
    return False


def nonce(key: str) -> str:
    """A Discord message nonce (at most 25 characters) for a job's message: a second send with the
    same nonce within minutes returns the first message instead of posting again."""
    return hashlib.blake2b(key.encode(), digest_size=12).hexdigest()[:25]


class AfterMove:
    """The after-move job kinds that send: ``turn`` (standing orders or the turn DM), ``board`` (the
    channel's post) and ``ai`` (one AI step). Built by ``bot/discord/wiring.py``, which hands in what
    the timers add: ``hold`` (a turn DM waits out the person's quiet hours), ``catch_up`` (what the
    DM adds to catch the person up: text, the moves to mark on its one picture, note changes) and
    ``mentions`` (whom a board post may ping: nobody inside their quiet hours)."""

    def __init__(
        self, present: Presenter, service: MatchService, scheduler: Scheduler, *,
        hold: Callable[[Any, int, dict[str, Any]], Awaitable[None]] | None = None,
        catch_up: Callable[..., Awaitable[tuple[str, list[Any] | None, dict[str, Any]]]] | None = None,
        mentions: Callable[[Any, dict[int, Any]], Awaitable[discord.AllowedMentions]] | None = None,
    ) -> None:
        self.present = present
        self.service = service
        self.store = service.store
        self.client = present.client
        self.scheduler = scheduler
        self.hold = hold
        self.catch_up = catch_up
        self.mentions = mentions
        self.planner = Planner(service)

    def handlers(self) -> dict[str, Any]:
        """The job kinds declared here (registered by the client's set-up)."""
        return {declared.TURN: self.on_turn, declared.BOARD: self.on_board, declared.AI: self.on_ai}

    async def start(self) -> None:
        """Pick up where the last run stopped: a single-process store's leases die with the process;
        every active match gets an AI step check (a no-op when no AI is to move). Nothing is loaded
        here: a match that cannot be loaded only fails its own job."""
        if getattr(self.store, "single_process", False):
            await self.store.release_claims()
        jobs = [
            declared.ai(rec.id, rec.version)
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

    async def sent_already(self, channel: Any, recorded: dict[str, Any] | None) -> int | None:
        """The id of our message in ``channel`` sent since ``recorded`` (a ``send_record``), if there is
        one: with one of its texts, or edited since but showing the match's buttons of that version
        or later. A job that may have sent before a crash looks before sending again, as Discord
        forgets a nonce after a few minutes."""
        if not recorded or not recorded.get("digests") or getattr(channel, "history", None) is None:
            return None
        after = datetime.fromisoformat(recorded["at"]) - SENT_MARGIN
        me = getattr(self.client.user, "id", None)
        try:
            async for msg in channel.history(limit=25, after=after):
                if msg.author.id != me:
                    continue
                if digest(msg.content) in recorded["digests"] or _shows_match_since(msg, int(recorded.get("match", -1)), int(recorded.get("version", 1 << 62))):
                    return msg.id
        except discord.HTTPException as e:  # cannot look: sending again is the lesser harm
            log.warning("could not read the recent messages of %s: %s", getattr(channel, "id", "?"), e)
        return None

    # -- turn: standing orders or a DM -----------------------------------------------------------

    async def on_turn(self, job: Job) -> Finish | None:
        seat = int(job.payload["seat"])
        read = await self.service.read_for(job)  # the match and its notes, one read (or none: came with the commit)
        rec = read.record if read is not None else None
        if rec is None or rec.status != "active":
            return None
        loaded = await self.service.aload(rec)
        if seat not in loaded.to_move():
            return  # that turn is over already: never tell someone of a turn that has passed
        uid = rec.seats[seat].get("user_id")
        if not uid or rec.seats[seat].get("ai"):
            return  # nobody to tell, or the stand-in AI holds the seat
        note = Notes(read.notes).seat(uid)
        if note.plan:  # their plan answers first, quiet hours or not (bot/core/plans.py)
            fired = await self.planner.fire(loaded, seat, uid, note, turn=int(job.payload["version"]))
            if fired.moved:
                return None  # its move planned what follows (the rest of the turn: a turn job of its own)
            if not fired.moved:  # dropped (the DM below says why), lapsed or kept
                note = (await self.service.notes(rec.id)).seat(uid)
        # their settings and language came with the match (a seat given since: read them)
        person = read.people.get(uid) or (await self.store.people([uid]))[uid]
        if self.hold is not None:
            await self.hold(rec, seat, person.settings)  # raises Retry until the person's quiet hours are over
        # matches from before the notes kept these in the match's meta
        prefs = note.prefs if note.prefs is not None else (rec.meta.get("prefs") or {}).get(str(uid))
        dm_closed = bool(note.dm_closed) or uid in (rec.meta.get("dm_closed") or [])
        if prefs and await self.standing_order(loaded, seat, uid, prefs):
            return None
        if note.turn_told == job.key:
            return None  # told already
        if dm_closed:
            if not job.payload.get("board", True):
                return await self.prompt_in_channel(rec, uid, job)  # no board names them this time
            return None
        lang = person.locale or rec.lang
        try:
            dm = await self.client.create_dm(discord.Object(id=uid))
            ch = await self.present.channel(rec)
            # a process whose shards do not hold the guild knows it only by id: no name then
            where = f"{getattr(getattr(ch, 'guild', None), 'name', None) or ''} #{getattr(ch, 'name', '')}".strip()
            intro = t("turn.dm", lang, game=game_name(loaded.game, lang), where=where, id=rec.id, link=jump_link(rec))
            if note.plan_off:  # their plan was dropped: why, in words
                intro = f"{intro}\n{plan_off_text(note.plan_off, rec.game, lang)}"
            elif note.plan and (kept := parsed(rec.game, note.plan)) is not None:  # kept: not for this decision
                intro = f"{intro}\n{t('plan.current', lang, plan=plan_text(rec.game, kept, loaded.names, lang))}"
            unseen = None
            if self.catch_up is not None:  # the moves since they last acted: in words, and marked on the picture
                extra, unseen, seen = await self.catch_up(loaded, seat, uid, lang, note)
                intro = f"{intro}\n{extra}" if extra else intro
            # one picture: their own view with the unseen moves marked, the places and the hand
            content, files, view = await self.present.private_turn(loaded, seat, lang, since=unseen)
            kwargs: dict[str, Any] = {"content": f"{intro}\n{content}"[:2000], "files": files, "nonce": nonce(job.key)}
            if view is not None:
                kwargs["view"] = view
            pending = note.turn_pending
            if pending is not None and pending.key == job.key and await self.sent_already(dm, pending.model_dump()):
                pass  # sent before a crash, not recorded: record it now, send nothing
            else:
                await self.service.note(rec.id, uid, {"turn_pending": send_record(job.key, rec, kwargs["content"])})
                try:
                    await dm.send(**kwargs)
                except (discord.HTTPException, discord.RateLimited) as e:
                    if not isinstance(e, discord.Forbidden):  # refused: nothing went out, nothing to look for
                        await self.service.note(rec.id, uid, {"turn_pending": None})
                    raise
        except discord.Forbidden:
            # DMs closed: tell the channel once (nothing private in it), with the button they will
            # use from now on, and remember it
            ch = await self.present.channel(rec)
            if ch is not None:
                view = discord.ui.View(timeout=None)
                view.add_item(TurnButton(rec.id, rec.version, t("turn.button", rec.lang)))
                await ch.send(t("turn.dm_closed", rec.lang, player=f"<@{uid}>"), view=view, allowed_mentions=ALLOWED, nonce=nonce("closed" + job.key))
            return Finish(notes={(rec.id, uid): {"dm_closed": True, "turn_told": job.key}})
        faults.point("dm")
        # what they were last shown (issue "play over days": catch-up from there)
        # written with the job's end (one transaction)
        told = {"plan_off": None} if note.plan_off else {}
        return Finish(notes={(rec.id, uid): {"turn_told": job.key, "turn_pending": None, "seen_version": rec.version, **told, **(seen if self.catch_up is not None else {})}})

    async def prompt_in_channel(self, rec, uid: int, job: Job) -> Finish | None:
        """A person whose DMs are closed plays from the channel: when no board post names them
        (a quiet step), a one-line prompt with the "Take your turn" button does."""
        ch = await self.present.channel(rec)
        if ch is None:
            return
        view = discord.ui.View(timeout=None)
        view.add_item(TurnButton(rec.id, rec.version, t("turn.button", rec.lang)))
        await ch.send(t("turn.now", rec.lang, player=f"<@{uid}>"), view=view, allowed_mentions=ALLOWED, nonce=nonce(job.key))
        return Finish(notes={(rec.id, uid): {"turn_told": job.key}})

    async def standing_order(self, loaded, seat: int, uid: int, prefs: list[str]) -> bool:
        """Make the choice the person's standing orders settle; True when a move was made (or the
        match moved on meanwhile, whose own jobs then follow)."""
        ui = ui_for(loaded.record.game)
        view = await self.service.on(loaded, loaded.view, seat)
        legal = await self.service.on(loaded, loaded.game.legal_json, loaded.state, seat)
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

    async def on_board(self, job: Job) -> Finish | None:
        mid = job.match_id
        version = int(job.payload["version"])
        # one read: the match, its notes, and whether a newer board is planned
        read = await self.service.read_for(job, newer_than=declared.BOARD)
        if read is None:
            return
        notes = Notes(read.notes)
        told = notes.match
        intent = told.board_pending
        again = intent is not None and intent.key == job.key
        if not again:
            if (told.board_version if told.board_version is not None else -1) >= version:
                return None  # this board, or a newer one, is in the channel already
            if read.newer:
                return  # a newer board is planned: it tells this story too (one post, not two)
        since = told.board_upto or 0
        # the moves since the last post and what happened besides moves (an undo, a seat handed
        # over: bot/core/table.py), with the version they lead to
        log = await self.store.log_since(mid, since)
        actions = log.actions
        seen_events = told.board_events or 0
        events = [e for e in log.events if e.id > seen_events]
        if again:
            # this post may be out already (a crash before it was recorded): tell exactly the same
            # story again, so the copy Discord returns for the nonce matches what is recorded
            actions = actions[: max(0, intent.upto - since)]
            events = [e for e in events if e.id <= (intent.events_upto if intent.events_upto is not None else seen_events)]
        else:
            intent = BoardIntent(key=job.key, upto=since + len(actions), events_upto=max([seen_events, *(e.id for e in events)]))
        rec = read.record
        if log.version != rec.version:  # a change came in between the two reads: the picture must show every move told
            rec = await self.store.get(mid)
            if rec is None:
                return
        loaded = await self.service.aload(rec)
        lang = rec.lang
        ch = await self.present.channel(rec)
        if ch is None:
            return  # the channel is gone: nobody to tell
        story = "\n".join([*(f"• {event_text(e, lang)}" for e in events), self.present.story_text(loaded, actions, lang)]).strip()
        board_id = told.board_message
        in_place = (rec.meta or {}).get("post") == "edit" and rec.status == "active" and board_id
        # one notification a turn: the turn DM; the post names the player and mentions only those
        # the DM cannot reach or who asked for channel pings (none inside quiet hours)
        # everyone's settings came with the match (read again only for a seat given since)
        people = read.people if set(rec.user_ids) <= set(read.people) else await self.store.people(rec.user_ids)
        ping = self.channel_pings(loaded, notes, people)
        awake = await self.mentions(rec, people) if self.mentions is not None else None
        if awake is not None and awake.users is not True:
            ping &= {o.id for o in awake.users or []}
        mentions = discord.AllowedMentions(everyone=False, roles=False, users=[discord.Object(id=u) for u in sorted(ping)], replied_user=False)
        kwargs = await self.present.board_message(loaded, "" if in_place else story, lang, ping)
        line = self.present.turn_line(loaded, story, int(board_id), lang, ping) if in_place else None
        post = dict(kwargs)  # a post of its own (when in place: only if the board message was deleted)
        if in_place and story:  # the board message was deleted: this post tells the story too
            post["content"] = f"{story}\n{post['content']}"[-2000:]
        post["allowed_mentions"] = mentions
        msg_id = await self.sent_already(ch, intent.model_dump()) if again else None
        if msg_id is None:
            # "sent" is recorded before Discord can forget the nonce: what this post will say, so a
            # run after a crash finds it in the channel instead of posting it again
            await self.service.note(mid, 0, {"board_pending": {
                **send_record(job.key, rec, *(c for c in (line, post.get("content")) if c)), "upto": intent.upto, "events_upto": intent.events_upto,
            }})
            try:
                if in_place and await self.present.edit_board(ch, int(board_id), kwargs):
                    # post=edit: the board message shows the new picture; a one-line post tells the turn
                    # (an edit pings nobody: the line does, when it mentions anyone)
                    await ch.send(line, nonce=nonce(job.key), allowed_mentions=mentions)
                    msg_id = int(board_id)
                else:
                    # the first board, the last one (with the results), every one with post=new, and a
                    # board message that was deleted: a post of its own
                    msg_id = (await ch.send(nonce=nonce(job.key), **post)).id
            except (discord.HTTPException, discord.RateLimited):  # refused: nothing went out, nothing to look for next time
                await self.service.note(mid, 0, {"board_pending": {"key": job.key, "upto": intent.upto, "events_upto": intent.events_upto}})
                raise
            if (rec.meta or {}).get("post") == "edit" and board_id and rec.status != "active":
                await self.present.retire_board(ch, int(board_id))  # its button would only say "too late"
        elif in_place:
            msg_id = int(board_id)  # the line found was about the board message edited in place
        faults.point("board")
        return Finish(notes={(mid, 0): {  # written with the job's end (one transaction)
            "board_version": max(version, intent.version if intent.version is not None else version), "board_upto": intent.upto,
            "board_message": msg_id, "board_pending": None,
            "board_events": intent.events_upto if intent.events_upto is not None else seen_events,
        }})

    def channel_pings(self, loaded, notes: Notes, people: dict[int, Person]) -> set[int]:
        """The people to move whom a channel post should mention: those whose DMs are closed (no
        turn DM reaches them) and those who asked for channel pings (``/mentions``, the person's
        ``channel_pings`` setting). Everyone else is told by their turn DM alone."""
        rec = loaded.record
        if rec.status != "active":
            return set()
        closed = set(rec.meta.get("dm_closed") or [])  # matches from before the notes kept it there
        out = set()
        for s in loaded.to_move():
            uid = rec.seats[s].get("user_id")
            if not uid or rec.seats[s].get("ai"):
                continue
            person = people.get(uid)
            if uid in closed or notes.seat(uid).dm_closed or (person is not None and person.settings.get("channel_pings")):
                out.add(uid)
        return out

    # -- AI --------------------------------------------------------------------------------------

    async def on_ai(self, job: Job) -> None:
        await self.service.ai_step(job.match_id, int(job.payload["version"]))

    # -- what an operator and the players see ----------------------------------------------------

    async def failures(self, match_id: int) -> list[tuple[str, dict[str, Any], str]]:
        """(kind, payload, error) of the match's jobs that were given up, oldest first."""
        return [(job.kind, job.payload, job.last_error or "") for job in await self.store.jobs(match_id, "failed")]
