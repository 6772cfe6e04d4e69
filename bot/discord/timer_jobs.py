"""What the timers say, on Discord: a line in the match's channel (``notice``), a DM to one person
(``dm``), the reminder digest (``digest``), the catch-up in the turn DM and whom a board post may
ping, and the "Take my seat back" button. The policy (when, to whom, what happens at a deadline)
is ``bot/core/timers.py``; this side only sends."""

from __future__ import annotations

import asyncio
import io
import logging
import re
from datetime import datetime
from typing import Any

import discord

from ..core import jobs as declared
from ..core.notes import SeatNote
from ..core.story import by_plan, by_standin, describe_move
from ..core.table import event_text
from ..core.timers import DIGEST_GAP, DM_LIMIT, Timers, from_iso, iso, quiet_until, settings_of
from ..games import ui_for
from ..i18n import game_name, t
from ..store import Job
from .after_move import nonce
from .components import TurnButton
from .flows import ack, guarded, reply
from .posting import Presenter, jump_link

log = logging.getLogger(__name__)


class TimerMessages:
    """The job kinds that send what the timers planned, and the turn DM's catch-up."""

    def __init__(self, present: Presenter, timers: Timers) -> None:
        self.present = present
        self.client = present.client
        self.timers = timers
        self.service = timers.service
        self.store = timers.store
        self.clock = timers.clock
        self.pictures = True  # the bench turns pictures off (a fake Discord, thousands of turns)

    def handlers(self) -> dict[str, Any]:
        """The job kinds declared here (registered by the client's set-up)."""
        return {declared.NOTICE: self.on_notice, declared.DM: self.on_dm, declared.DIGEST: self.on_digest}

    async def still_waiting(self, rec: Any, payload: dict[str, Any]) -> bool:
        return await self.timers.still_waiting(rec, payload)

    def left_text(self, *args: Any) -> str:
        return self.timers.left_text(*args)

    async def lang_for(self, uid: int, fallback: str) -> str:
        return (await self.store.locales([uid])).get(uid, fallback)

    async def where(self, rec: Any) -> str:
        ch = await self.present.channel(rec)
        return f"{getattr(getattr(ch, 'guild', None), 'name', '')} #{getattr(ch, 'name', '')}".strip()

    async def board_file(self, loaded: Any, lang: str, unseen: list[tuple[int, dict[str, Any]]] | None = None) -> list[discord.File]:
        """The board picture; ``unseen``: moves to mark on it (the viewer has not seen them)."""
        if not self.pictures or loaded.state is None:
            return []
        ui = ui_for(loaded.record.game)
        view = await asyncio.to_thread(loaded.view, None)
        if unseen:
            view = ui.mark_since(view, unseen)
        png = await self.present.draw(ui.board_png, view, loaded.names, lang)
        return [discord.File(io.BytesIO(png), filename="board.png")] if png else []

    async def mentions(self, rec: Any, people: dict[int, Any] | None = None) -> discord.AllowedMentions:
        """Whom a channel post of the match may ping: nobody inside their quiet hours. ``people``:
        the players' settings already read (``Store.people``)."""
        now = self.clock()
        people = people if people is not None else await self.store.people(rec.user_ids)
        users = []
        for uid in rec.user_ids:
            person = people.get(uid)
            if quiet_until(person.settings if person is not None else {}, now) is None:
                users.append(discord.Object(id=uid))
        return discord.AllowedMentions(everyone=False, roles=False, users=users, replied_user=False)

    def _params(self, payload: dict[str, Any], lang: str, rec: Any) -> dict[str, Any]:
        params = {k: v for k, v in payload.items() if isinstance(v, (str, int, float))}
        if "game" in payload:
            params["game"] = game_name(payload["game"], lang)
        if rec is not None:
            params["link"] = jump_link(rec)
            if isinstance(payload.get("move"), dict):  # a move made for them (their plan): in their own words
                params["move"] = ui_for(rec.game).label(payload["move"], lang)
        return params

    def reclaim_view(self, mid: int, seat: int, lang: str) -> discord.ui.View:
        view = discord.ui.View(timeout=None)
        view.add_item(ReclaimButton(mid, seat, t("reclaim.button", lang)))
        return view

    async def on_notice(self, job: Job) -> None:
        """A line in the match's channel (in the match's language)."""
        p = job.payload
        rec = await self.store.get(job.match_id)
        if rec is None or not await self.still_waiting(rec, p):
            return
        ping = p.get("ping")
        if ping:
            end = quiet_until(await self.store.person(ping), self.clock())
            if end is not None:
                await self.timers.later(job, end)
                return
        lang = rec.lang
        params = self._params(p, lang, rec)
        if ping:
            params["player"] = f"<@{ping}>"
        if p.get("left"):
            notes = await self.service.notes(rec.id)
            start = datetime.fromisoformat(notes.seat(ping).clock_start)
            params["left"] = self.left_text(settings_of(rec, notes), await self.store.person(ping), start, self.clock(), lang)
        ch = await self.present.channel(rec)
        if ch is None:
            return
        kwargs: dict[str, Any] = {
            "content": t(p["text"], lang, **params)[:2000],
            "allowed_mentions": discord.AllowedMentions(everyone=False, roles=False, users=[discord.Object(id=ping)] if ping else False),
            "nonce": nonce(job.key),
        }
        if "reclaim" in p:
            kwargs["view"] = self.reclaim_view(rec.id, int(p["reclaim"]), lang)
        elif p["text"] == "remind.channel":  # the reminder: straight to the turn's controls
            kwargs["view"] = discord.ui.View(timeout=None)
            kwargs["view"].add_item(TurnButton(rec.id, rec.version, t("turn.button", lang)))
        await ch.send(**kwargs)

    async def on_dm(self, job: Job) -> None:
        """A DM to one person, in their language, outside their quiet hours."""
        p = job.payload
        uid = int(p["user"])
        rec = await self.store.get(job.match_id) if job.match_id else None
        if rec is not None and not await self.still_waiting(rec, p):
            return
        end = quiet_until(await self.store.person(uid), self.clock())
        if end is not None:
            await self.timers.later(job, end)
            return
        lang = await self.lang_for(uid, rec.lang if rec else "en")
        kwargs: dict[str, Any] = {"content": t(p["text"], lang, **self._params(p, lang, rec))[:2000], "nonce": nonce(job.key)}
        if "reclaim" in p and rec is not None:
            kwargs["view"] = self.reclaim_view(rec.id, int(p["reclaim"]), lang)
        try:
            dm = await self.client.create_dm(discord.Object(id=uid))
            await dm.send(**kwargs)
        except discord.Forbidden:
            log.info("DMs of %s are closed: %s not sent", uid, p["text"])

    async def on_digest(self, job: Job) -> None:
        """One DM naming every match where the person is owed a reminder; at most one an hour."""
        uid = int(job.payload["user"])
        now = self.clock()
        person = await self.store.person(uid)
        last = from_iso(person.get("last_digest"))
        if last and last + DIGEST_GAP > now:
            await self.timers.later(job, last + DIGEST_GAP, "h")
            return
        end = quiet_until(person, now)
        if end is not None:
            await self.timers.later(job, end)
            return
        items = []
        for rec in await self.store.matches_for_user(uid):
            if rec.status != "active":
                continue
            notes = await self.service.notes(rec.id)
            note = notes.seat(uid)
            v = note.remind_v
            tag = f"{v}:{note.remind_step}"
            if v is None or v != note.clock_v or note.reminded == tag:
                continue
            loaded = await self.service.aload(rec)
            seat = next((i for i in loaded.to_move() if rec.seats[i].get("user_id") == uid and not rec.seats[i].get("ai")), None)
            if seat is None:
                continue  # that turn is over: never a reminder for it
            items.append((rec, loaded, notes, note, tag))
        if not items:
            return
        items.sort(key=lambda item: (item[3].reminded is not None, item[0].id))  # never-named ones first
        lang = await self.lang_for(uid, items[0][0].lang)
        lines, files, named = [t("remind.title", lang)], [], []
        for n, (rec, loaded, notes, note, tag) in enumerate(items):
            left = self.left_text(settings_of(rec, notes), person, datetime.fromisoformat(note.clock_start), now, lang)
            line = t("remind.line", lang, game=game_name(loaded.game, lang), where=await self.where(rec), id=rec.id, left=left, link=jump_link(rec))
            rest = len(items) - n - 1
            more = t("remind.more", lang, n=rest) if rest else ""
            if named and len("\n".join([*lines, line, more])) > DM_LIMIT:  # a whole line or none
                break
            lines.append(line)
            named.append((rec, tag))
            if len(files) < 4:
                files += await self.board_file(loaded, lang)
        unnamed = len(items) - len(named)
        if unnamed:
            lines.append(t("remind.more", lang, n=unnamed))
        # a "Take your turn" button a match it names (restart-safe: bot/discord/components.py),
        # named by its number when the digest lists several
        view = discord.ui.View(timeout=None)
        for rec, _tag in named[:25]:
            label = t("turn.button", lang) if len(named) == 1 else t("turn.button_match", lang, id=rec.id)
            view.add_item(TurnButton(rec.id, rec.version, label))
        try:
            dm = await self.client.create_dm(discord.Object(id=uid))
            await dm.send(content="\n".join(lines)[:DM_LIMIT], files=files, view=view, nonce=nonce(job.key))
        except discord.Forbidden:
            log.info("DMs of %s are closed: reminder digest not sent (the channel was told)", uid)
        await self.store.set_person(uid, {"last_digest": iso(now)})
        for rec, tag in named:  # only what the DM named: the others stay owed
            await self.service.note(rec.id, uid, {"reminded": tag})
        if unnamed:  # the next digest names them, an hour from now
            await self.store.add_jobs([declared.digest(uid, now + DIGEST_GAP)], now=now)

    async def catch_up(self, loaded: Any, seat: int, uid: int, lang: str, note: SeatNote):
        """(text, moves to mark, note changes): in words, the moves since the person last looked
        (others' in public words; what the stand-in did for them, in private words), and those moves
        as (seat, action) for the turn picture to mark (None on their first turn DM of the match:
        nothing to catch up on). No picture of its own: the turn DM carries one."""
        rec = loaded.record
        since = note.seen_upto or 0
        # Computed from the log and what the person last saw: an undo since then cut the log back
        # (its event says to how many actions), and the moves made again are new to them.
        log = await self.store.log_since(rec.id, since)  # the moves since then and every event, one read
        events = log.events
        seen_event = note.seen_event or 0
        undos = [e for e in events if e.kind == "undo" and e.id > seen_event]
        actions = log.actions
        if undos and min(e.at_action for e in undos) < since:  # the log was cut back below what they saw
            since = min(e.at_action for e in undos)
            actions = await self.store.actions(rec.id, since)
        ui = ui_for(rec.game)
        lines = [f"• {event_text(e, lang)}" for e in undos if e.user_id != uid]
        unseen: list[tuple[int, dict[str, Any]]] = []  # marked on the picture
        for a in actions:
            story = a.story if isinstance(a.story, dict) else {}
            if a.seat == seat and not by_standin(story) and not by_plan(story):
                continue  # they know what they did themselves
            unseen.append((a.seat, a.action))
            if a.seat == seat and hasattr(ui, "label"):
                mark = t("plan.mark" if by_plan(story) else "standin.mark", lang)
                words = f"{mark} {ui.label(a.action, lang)}"
            else:
                words = story.get(lang) or describe_move(ui, a.action, loaded.names, a.seat, lang)
            lines.append(f"• {words}")
        if len(lines) > 8:
            lines = [f"• … (+{len(lines) - 8})", *lines[-8:]]
        told = note.seen_upto is not None  # not their first turn DM of the match
        text = f"{t('catchup.title', lang)}\n" + "\n".join(lines) if lines else (t("catchup.none", lang) if told else "")
        seen = {"seen_upto": since + len(actions), "seen_event": max((e.id for e in events), default=0)}
        return text[:900], (unseen if told else None), seen


class ReclaimButton(discord.ui.DynamicItem[discord.ui.Button], template=r"p:r:(?P<mid>\d+):(?P<seat>\d+)"):
    """"Take my seat back": works from the DM or the channel, after any restart."""

    def __init__(self, mid: int, seat: int, label: str = "Take my seat back") -> None:
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.success, custom_id=f"p:r:{mid}:{seat}"))
        self.mid, self.seat = mid, seat

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]):
        return cls(int(match["mid"]), int(match["seat"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        @guarded
        async def run(interaction: discord.Interaction) -> None:
            await ack(interaction, ephemeral=True, thinking=True)
            lang = await interaction.client.flows.note_locale(interaction)  # type: ignore[attr-defined]
            await interaction.client.timers.reclaim(self.mid, interaction.user.id)  # type: ignore[attr-defined]
            await reply(interaction, t("reclaim.done", lang))

        await run(interaction)
