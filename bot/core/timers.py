"""Play over days: deadlines, reminders, quiet hours, away, heads-up, the stand-in AI, catch-up.

Every timer is a job with a due time (``bot/core/scheduler.py``); nothing lives only in memory, so a
restart forgets nothing and (each handler checking what it already did) does nothing twice.

A person's **turn** begins with a commit that plans a ``clock`` job (``bot/core/story.py``). That job and
the ones it plans walk through the turn's **events**: reminders at 50%, 80% and 95% of the deadline
and the deadline itself (without a deadline: a reminder after 12 h, then daily). Times are counted
on the person's own clock, which stops during their quiet hours and while they are away; so an
event is computed again when its job runs (settings may have changed) and planned later if it is
not due yet. A ``clock`` job checks it still belongs to the current turn (the seat is to move and
no newer turn of that seat began), so nobody is ever reminded of a turn that is over.

- A due reminder marks the turn as owed a reminder (seat note) and plans a ``digest`` job for the
  person: one DM naming every match where they are owed one, at most one per hour, never inside
  their quiet hours; the first reminder of a turn also mentions them in the channel (``notice``).
- At the deadline, the match's policy: ``wait`` (keep reminding daily), ``standin`` (the stand-in
  AI plays that turn, marked as such in the story), ``replace`` (the stand-in plays; after N missed
  deadlines in a row the seat goes to the AI for good) or ``end`` (the stand-in plays; after N
  misses the match ends). A person takes their seat back with one click (``ReclaimButton``,
  ``bot/discord/timer_jobs.py``).
- Heads-up: a person may ask for a DM when the player before them starts their turn.
- The "your turn" DM carries the board picture and the moves since the person last looked
  (``catch_up`` in ``bot/discord/timer_jobs.py``, given to ``bot/discord/after_move.py``).
"""

from __future__ import annotations

import dataclasses
import logging
import re
from collections.abc import Callable
from datetime import UTC, date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from engines.plans import Cancel

from .. import i18n
from ..i18n import t
from ..store import Job, NewJob
from . import jobs as declared
from . import options
from .notes import Notes
from .plans import Planner, off_note, parsed
from .scheduler import Finish, Retry, Scheduler
from .service import Change, MatchService, UserError, ai_kind
from .story import by_standin, plan

log = logging.getLogger(__name__)

HOUR = 3600
DAY = 24 * HOUR
POLICIES = options.POLICIES
DEFAULTS: dict[str, Any] = options.TIMER_DEFAULTS
MIN_DEADLINE, MAX_DEADLINE = options.DEADLINE_RANGE
REMIND_AT = (0.5, 0.8, 0.95)  # of the deadline, on the person's own clock
NO_DEADLINE_FIRST, NO_DEADLINE_EVERY = 12 * HOUR, DAY
DIGEST_GAP = timedelta(hours=1)  # at most one reminder digest per person per hour
DM_LIMIT = 2000  # characters in one Discord message
AWAY_DAYS_PER_MATCH = 10
MAX_QUIET = 16 * HOUR  # quiet hours leave at least 8 h a day to play
TIMER_KEYS = options.TIMER_KEYS


# -- texts ------------------------------------------------------------------------------------------

# Its texts (reminders, deadlines, away, quiet hours) and the time commands' names are in the
# catalogues, catalogs/<lang>/*.po, with the option help of deadline, policy and misses.
AUTOCOMPLETE = (("deadline", "48h"), ("policy", "replace"), ("misses", "3"))  # /partida new's options list


# -- options: parsed with their bounds by bot/core/options.py ---------------------------------------------

parse_deadline, check_timer_settings, split_options = options.parse_deadline, options.timer_settings, options.split_options


def settings_of(rec: Any, notes: Notes) -> dict[str, Any]:
    """The match's timers: chosen at /partida new (meta), changed by the host (the match's note)."""
    return options.timers_of(rec.meta, notes.raw.get(0, {}))


def settings_text(cfg: dict[str, Any], lang: str) -> str:
    deadline = duration_text(cfg["deadline"], lang) if cfg["deadline"] else t("timer.off", lang)
    return t("timer.settings", lang, deadline=deadline, policy=t("policy." + cfg["policy"], lang), misses=cfg["misses"])


def duration_text(seconds: float, lang: str) -> str:
    seconds = max(0, int(seconds))
    d, rest = divmod(seconds, DAY)
    h, rest = divmod(rest, HOUR)
    m = rest // 60
    parts = [f"{d}d"] if d else []
    if h:
        parts.append(f"{h}h")
    if m and not d:
        parts.append(f"{m}m")
    return " ".join(parts) or "<1m"


# -- a person's clock: quiet hours and away ---------------------------------------------------------


def _hhmm(text: str) -> time:
    m = re.fullmatch(r"(\d{1,2}):(\d{2})", str(text).strip())
    if not m or int(m.group(1)) > 23 or int(m.group(2)) > 59:
        raise UserError("timer.bad_time", value=str(text)[:20])
    return time(int(m.group(1)), int(m.group(2)))


def zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(str(name).strip())
    except (ZoneInfoNotFoundError, ValueError, OSError):
        raise UserError("timer.bad_zone", value=str(name)[:40]) from None


def quiet_settings(start: str, end: str, tz: str) -> dict[str, Any]:
    """Validated quiet hours as a person's settings (local wall-clock times in their zone)."""
    a, b = _hhmm(start), _hhmm(end)
    zone(tz)
    length = ((b.hour * 60 + b.minute) - (a.hour * 60 + a.minute)) % (24 * 60)
    if length == 0 or length * 60 > MAX_QUIET:
        raise UserError("timer.quiet_too_long")
    return {"tz": str(tz).strip(), "quiet_start": a.strftime("%H:%M"), "quiet_end": b.strftime("%H:%M")}


def from_iso(value: str | None) -> datetime | None:
    return datetime.fromisoformat(value) if value else None


def quiet_windows(person: dict[str, Any], start: datetime, end: datetime) -> list[tuple[datetime, datetime]]:
    """The person's quiet hours overlapping [start, end], in UTC. Wall-clock times in their zone:
    across a daylight-saving change a night is one hour shorter or longer, as it is for them."""
    if not person.get("quiet_start") or not person.get("tz"):
        return []
    tz = ZoneInfo(person["tz"])
    a, b = _hhmm(person["quiet_start"]), _hhmm(person["quiet_end"])
    out = []
    day: date = start.astimezone(tz).date() - timedelta(days=1)
    last = end.astimezone(tz).date()
    while day <= last:
        lo = datetime.combine(day, a, tzinfo=tz).astimezone(UTC)
        hi = datetime.combine(day if b > a else day + timedelta(days=1), b, tzinfo=tz).astimezone(UTC)
        if hi > start and lo < end and hi > lo:
            out.append((lo, hi))
        day += timedelta(days=1)
    return out


def pauses(person: dict[str, Any], start: datetime, end: datetime) -> list[tuple[datetime, datetime]]:
    """When the person's clock stands still within [start, end] (quiet hours, away), merged."""
    spans = quiet_windows(person, start, end)
    away_from, away_until = from_iso(person.get("away_from")), from_iso(person.get("away_until"))
    if away_from and away_until and away_until > start and away_from < end:
        spans.append((away_from, away_until))
    spans.sort()
    merged: list[tuple[datetime, datetime]] = []
    for lo, hi in spans:
        if merged and lo <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], hi))
        else:
            merged.append((lo, hi))
    return merged


def after_active(person: dict[str, Any], start: datetime, seconds: float) -> datetime:
    """The instant when ``seconds`` of the person's own clock (not quiet, not away) have passed
    since ``start``."""
    away = from_iso(person.get("away_until"))
    horizon = start + timedelta(seconds=3 * seconds + 2 * DAY) + (max(away - start, timedelta(0)) if away else timedelta(0))
    now, left = start, float(seconds)
    for lo, hi in pauses(person, start, horizon):
        if hi <= now:
            continue
        if lo > now:
            gap = (lo - now).total_seconds()
            if gap >= left:
                return now + timedelta(seconds=left)
            left -= gap
        now = max(now, hi)
    return now + timedelta(seconds=left)


def active_between(person: dict[str, Any], start: datetime, end: datetime) -> float:
    """Seconds of the person's own clock between ``start`` and ``end``."""
    if end <= start:
        return 0.0
    total = (end - start).total_seconds()
    for lo, hi in pauses(person, start, end):
        total -= (min(hi, end) - max(lo, start)).total_seconds()
    return max(0.0, total)


def quiet_until(person: dict[str, Any], at: datetime) -> datetime | None:
    """The end of the quiet hours ``at`` falls in (no DMs, no mentions until then), else None."""
    for lo, hi in quiet_windows(person, at - timedelta(days=1), at + timedelta(days=1)):
        if lo <= at < hi:
            return hi
    return None


# -- a turn's events ----------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Event:
    step: int
    kind: str  # "remind" | "deadline"
    seconds: float  # on the person's own clock since the turn began


def event(cfg: dict[str, Any], step: int) -> Event:
    """The turn's ``step``-th event (1, 2, ...)."""
    d = cfg["deadline"]
    if not d:
        return Event(step, "remind", NO_DEADLINE_FIRST + (step - 1) * NO_DEADLINE_EVERY)
    if step <= len(REMIND_AT):
        return Event(step, "remind", REMIND_AT[step - 1] * d)
    if step == len(REMIND_AT) + 1:
        return Event(step, "deadline", d)
    # after a deadline the table keeps waiting for (policy "wait"): daily reminders
    return Event(step, "remind", d + (step - len(REMIND_AT) - 1) * NO_DEADLINE_EVERY)


# -- the service ---------------------------------------------------------------------------------------


def iso(at: datetime) -> str:
    return at.astimezone(UTC).isoformat()


class Timers:
    """The timers' policy: a turn's clock (reminders owed, deadlines, the stand-in), the seat taken
    back, heads-up, and the person-wide settings. Discord-free: what is said is planned as
    ``notice``/``dm``/``digest`` jobs, sent by ``bot/discord/timer_jobs.py``."""

    def __init__(self, service: MatchService, scheduler: Scheduler) -> None:
        self.service = service
        self.store = service.store
        self.scheduler = scheduler
        self.clock: Callable[[], datetime] = scheduler.clock
        self.planner = Planner(service)

    def handlers(self) -> dict[str, Any]:
        """The job kinds handled here (registered by the client's set-up)."""
        return {declared.CLOCK: self.on_clock}

    # -- small helpers -----------------------------------------------------------------------

    async def later(self, job: Job, at: datetime, tag: str = "q") -> None:
        """Plan the same work again at ``at`` (quiet hours, the digest's hour)."""
        await self.store.add_jobs([declared.later(job, at, tag)], now=self.clock())
        self.scheduler.wake()

    async def sweep(self) -> int:
        """At start: every person to move whose turn has no clock yet (a match started before the
        timers existed, or under a process without them) gets one. Reads notes only (all in one
        statement), no state."""
        jobs = []
        active = [rec for rec in await self.store.live_matches() if rec.status == "active"]
        every = await self.store.notes_of([rec.id for rec in active])  # one read for all of them
        for rec in active:
            notes = Notes(every[rec.id])
            for seat, s in enumerate(rec.seats):
                uid = s.get("user_id")
                if uid and not s.get("ai") and notes.seat(uid).clock_v is None:
                    jobs.append(declared.clock_start(rec.id, rec.version, seat, sweep=True))
        return await self.store.add_jobs(jobs, now=self.clock()) if jobs else 0

    async def hold_turn(self, rec: Any, seat: int, person: dict[str, Any] | None = None) -> None:
        """A ``turn`` job (the turn DM) waits for the end of the person's quiet hours (``person``:
        their settings, when the job read them already)."""
        if rec.status == "active" and seat < len(rec.seats):
            uid = rec.seats[seat].get("user_id")
            if uid:
                end = quiet_until(person if person is not None else await self.store.person(uid), self.clock())
                if end is not None:
                    raise Retry("quiet hours", after=(end - self.clock()).total_seconds())

    # -- the clock of a turn -----------------------------------------------------------------

    async def on_clock(self, job: Job) -> Finish | None:
        """One step of a turn's clock. What it notes and plans next is written with the job's end
        (``Finish``); only a deadline writes before (its note first, then the stand-in's commits)."""
        mid, v, seat = job.match_id, int(job.payload["version"]), int(job.payload["seat"])
        now = self.clock()
        finish = Finish()
        read = await self.service.read_for(job)  # the match and its notes, one read (or none: came with the commit)
        rec = read.record if read is not None else None
        if rec is None or rec.status != "active" or seat >= len(rec.seats):
            return
        uid = rec.seats[seat].get("user_id")
        if not uid or rec.seats[seat].get("ai"):
            return
        loaded = await self.service.aload(rec)
        if seat not in loaded.to_move():
            return  # that turn is over
        notes = Notes(read.notes)
        note = notes.seat(uid)
        current = note.clock_v if note.clock_v is not None else -1
        if current > v:
            return  # a newer turn of theirs has its own clock
        if current < v:
            # a newer turn of the seat needs a newer version: only then look at the planned jobs
            pending = await self.store.jobs(mid, "pending") if rec.version != v else []
            if any(j.kind == "clock" and j.payload.get("seat") == seat and int(j.payload["version"]) > v for j in pending):
                return  # a newer turn began; its first clock job has not run yet
            # the turn begins now; misses count in a row: a turn the person played resets them
            changes: dict[str, Any] = {"clock_v": v, "clock_start": iso(now), "clock_step": 0, "clock_missed": None}
            if current >= 0 and not note.clock_missed:
                changes["misses"] = None
            finish.notes[(mid, uid)] = dict(changes)
            note = note.model_copy(update=changes)
            finish.jobs += self.heads_up(rec, loaded, seat, v, now, notes)
        cfg = settings_of(rec, notes)
        known = read.people.get(uid)  # their settings came with the match
        person = known.settings if known is not None else await self.store.person(uid)
        start = datetime.fromisoformat(note.clock_start)
        step = note.clock_step or 0
        # the events due by now: only the last reminder is sent (an older one would be late), and
        # the deadline is never skipped
        remind: Event | None = None
        while True:
            ev = event(cfg, step + 1)
            due = after_active(person, start, ev.seconds)
            if due > now:
                break
            step = ev.step
            if ev.kind == "deadline":
                remind = None
                # noted before the policy acts (with what the turn noted so far)
                await self.service.note(mid, uid, {**finish.notes.pop((mid, uid), {}), "clock_step": step})
                if finish.jobs:
                    await self.store.add_jobs(finish.jobs, now=now)
                    finish.jobs = []
                note = note.model_copy(update={"clock_step": step})
                if await self.deadline(rec, seat, uid, v, cfg, now):
                    return None  # the turn is over (stand-in, seat taken, match ended)
                continue
            remind = ev
        if remind is not None:
            self.remind(rec, seat, uid, v, remind, person, now, finish)
        if step != (note.clock_step or 0):
            finish.notes.setdefault((mid, uid), {})["clock_step"] = step
        finish.jobs.append(declared.clock_next(mid, v, seat, ev.step, due))
        return finish

    async def poke(self, rec: Any, uid: int) -> None:
        """The person's settings or the match's timers changed: compute their turn's clock again now."""
        note = (await self.service.notes(rec.id)).seat(uid)
        seat = next((i for i, s in enumerate(rec.seats) if s.get("user_id") == uid), None)
        if seat is None or note.clock_v is None:
            return
        now = self.clock()
        await self.store.add_jobs([declared.clock_poke(rec.id, note.clock_v, seat, now)], now=now)
        self.scheduler.wake()

    def remind(self, rec, seat, uid, v, ev: Event, person, now, finish: Finish) -> None:
        """The turn owes the person a reminder: noted, and the digest (and, the first time, a line in
        the channel) planned, all with the clock job's end."""
        mid = rec.id
        finish.notes.setdefault((mid, uid), {}).update({"remind_v": v, "remind_step": ev.step})
        jobs = finish.jobs
        at = now
        last = from_iso(person.get("last_digest"))
        if last and last + DIGEST_GAP > at:
            at = last + DIGEST_GAP
        at = quiet_until(person, at) or at
        jobs.append(declared.digest(uid, at))
        if ev.step == 1:  # the first reminder of a turn also mentions them in the channel
            payload = {"text": "remind.channel", "ping": uid, "seat": seat, "while_v": v, "left": True}
            jobs.append(declared.notice(mid, f"remind:{mid}:{v}:{seat}", payload, now))

    def left_text(self, cfg, person, start: datetime, now: datetime, lang: str) -> str:
        if not cfg["deadline"]:
            return t("remind.no_deadline", lang, time=i18n.duration(active_between(person, start, now), lang))
        end = after_active(person, start, cfg["deadline"])
        if end <= now:
            return t("remind.overdue", lang)
        return t("remind.left", lang, time=i18n.duration((end - now).total_seconds(), lang, direction=True))

    async def status_text(self, loaded: Any, lang: str) -> str:
        """For /partida status: the match's timers and how long each person to move has left."""
        rec = loaded.record
        if rec.status not in ("lobby", "active"):
            return ""
        notes = await self.service.notes(rec.id)
        cfg = settings_of(rec, notes)
        lines = [f"⏱️ {settings_text(cfg, lang)}"]
        now = self.clock()
        for seat in loaded.to_move() if rec.status == "active" else ():
            uid = rec.seats[seat].get("user_id")
            note = notes.seat(uid) if uid else None
            if rec.seats[seat].get("ai") or note is None or note.clock_start is None:
                continue
            person = await self.store.person(uid)
            left = self.left_text(cfg, person, datetime.fromisoformat(note.clock_start), now, lang)
            away = from_iso(person.get("away_until"))
            extra = f" ({t('timer.away_until', lang, until=f'<t:{int(away.timestamp())}:f>')})" if away and away > now else ""
            lines.append(f"• {loaded.names[seat]}: {left}{extra}")
        return "\n".join(lines)

    # -- deadlines ----------------------------------------------------------------------------

    async def deadline(self, rec, seat: int, uid: int, v: int, cfg, now) -> bool:
        """Apply the policy; True when the turn is over (someone played it or the match ended)."""
        mid = rec.id
        note = (await self.service.notes(mid)).seat(uid)
        misses = note.misses or 0
        if note.missed_v != v:  # count each turn once, even when this job runs again
            misses += 1
            await self.service.note(mid, uid, {"misses": misses, "missed_v": v, "clock_missed": True})
        policy, limit = cfg["policy"], int(cfg["misses"])
        name = f"<@{uid}>"
        if policy == "wait":
            wait = declared.notice(mid, f"deadline:{mid}:{v}:{seat}", {"text": "deadline.wait", "player": name}, now)
            await self.store.add_jobs([wait], now=now)
            return False
        if policy in ("replace", "end") and misses >= limit:
            return await self.give_up_seat(mid, seat, uid, policy, misses, now)
        params = {"player": name, "n": misses, "max": limit if policy != "standin" else "∞"}
        told = [  # committed with the stand-in's first move: the table and the person are told once
            declared.notice(mid, f"standin:{mid}:{v}:{seat}", {"text": "deadline.standin", **params}),
            declared.dm(mid, f"standin:{mid}:{v}:{seat}", {"user": uid, "text": "deadline.standin_dm", "game": rec.game, **params, "id": mid}),
        ]
        if not await self.standin_turn(mid, seat, told):
            rec = await self.store.get(mid)
            if rec is not None and rec.status == "active" and seat in (await self.service.aload(rec)).to_move():
                return False  # the stand-in could not move (it raced a change): the clock goes on
        return True

    async def standin_turn(self, mid: int, seat: int, jobs: list[NewJob] = ()) -> int:
        """The stand-in AI plays the seat's turn to its end (``jobs`` committed with its first
        move); returns the moves made. Each move is one commit: when the person (or anyone) moved
        meanwhile, the commit path decides again on what is there now."""
        made = 0
        told = False  # the stand-in's notices go with its first own move
        # the person's plan answers the decisions it covers first (bot/core/plans.py); read once
        rec0 = await self.store.get(mid)
        uid = rec0.seats[seat].get("user_id") if rec0 is not None and seat < len(rec0.seats) else None
        planned = {"plan": parsed(rec0.game, (await self.service.notes(mid)).seat(uid).plan)} if uid else {}

        async def decide(loaded: Any) -> Change | None:
            rec = loaded.record
            if rec.status != "active" or rec.seats[seat].get("ai") or seat not in loaded.to_move():
                return None  # the turn is over (or someone took the seat)
            dropped: dict[int, dict[str, Any]] = {}
            if planned.get("plan") is not None and rec.seats[seat].get("user_id") == uid:
                change, cancel = await self.planner.change_for(loaded, seat, uid, planned["plan"])
                if change is not None:
                    if not getattr(planned["plan"], "standing", False):
                        planned["plan"] = None
                    return change
                if cancel is not None:
                    planned["plan"] = None
                    dropped = {uid: {"plan": None, "plan_off": off_note(cancel, rec.version)}}
            # the match's AI level (bot.core.service.ai_kind); it thinks under the match's lock:
            # a deadline's move is rare, and what it decides is the state it read
            code = await self.service.think(loaded, seat, ai_kind(rec), f"{rec.seed}/{rec.version}/standin")
            change = await self.service.plan_move(loaded, "seat", seat, code, standin=True, jobs=[] if told else jobs)
            change.notes = dropped
            return change

        for _move in range(200):
            done = await self.service.commit(mid, None, decide)
            if done.change.move is None:
                break
            told = told or by_standin(done.change.move.story)
            made += 1
        return made

    async def give_up_seat(self, mid: int, seat: int, uid: int, policy: str, misses: int, now: datetime) -> bool:
        async def decide(loaded: Any) -> Change | None:
            rec = loaded.record
            if rec.status != "active" or rec.seats[seat].get("ai"):
                return None
            name = f"<@{uid}>"
            v = rec.version + 1
            if policy == "end":
                jobs = [
                    declared.notice(mid, f"ended:{mid}", {"text": "deadline.ended", "player": name, "n": misses}),
                    declared.board(mid, v),
                ]
                return Change(fields={"status": "abandoned"}, jobs=jobs)
            seats = [dict(s) for s in rec.seats]
            seats[seat]["ai"] = ai_kind(rec)
            seats[seat]["standin"] = True
            jobs = [
                declared.notice(mid, f"replaced:{mid}:{v}", {"text": "deadline.replaced", "player": name, "n": misses, "reclaim": seat}),
                declared.dm(mid, f"replaced:{mid}:{v}", {"user": uid, "text": "deadline.replaced_dm", "game": rec.game, "n": misses, "id": mid, "reclaim": seat}),
                declared.ai(mid, v),
            ]
            # a seat changed hands: every plan was made for the table as it was
            drop = {**Planner.drop_all((await self.service.notes(mid)).raw, "seat", rec.version), uid: {"plan": None, "plan_off": off_note(Cancel("seat"), rec.version)}}
            return Change(fields={"seats": seats}, jobs=jobs, notes=drop, live=loaded.state)

        try:
            await self.service.commit(mid, None, decide)
        except UserError as e:
            if e.code == "no_such_match":
                return True
            if e.code == "busy":
                raise Retry("the match kept changing") from None
            raise
        return True

    async def reclaim(self, mid: int, uid: int) -> Any:
        """The person takes their seat back from the AI (one click, any time)."""

        async def decide(loaded: Any) -> Change:
            rec = loaded.record
            if rec.status != "active":
                raise UserError("not_active", status=rec.status)
            seat = next((i for i, s in enumerate(rec.seats) if s.get("user_id") == uid), None)
            if seat is None:
                raise UserError("not_player")
            if not rec.seats[seat].get("ai"):
                raise UserError("timer.not_taken")
            seats = [dict(s) for s in rec.seats]
            seats[seat]["ai"] = None
            seats[seat].pop("standin", None)
            after = dataclasses.replace(rec, version=rec.version + 1, seats=seats)
            movers = loaded.to_move()
            jobs = [j for j in plan(after, movers, tuple(s for s in movers if s != seat), False) if j.kind != "ai"]
            jobs.append(declared.notice(mid, f"reclaim:{mid}:{after.version}", {"text": "reclaim.notice", "player": f"<@{uid}>"}))
            notes = {**Planner.drop_all((await self.service.notes(mid)).raw, "seat", rec.version), uid: {"misses": None, "missed_v": None, "clock_missed": None}}
            return Change(fields={"seats": seats}, jobs=jobs, notes=notes, live=loaded.state)

        return (await self.service.commit(mid, None, decide)).loaded

    # -- heads-up ------------------------------------------------------------------------------

    def heads_up(self, rec, loaded, seat: int, v: int, now: datetime, notes: Notes) -> list[NewJob]:
        """The DM to the seat after ``seat`` when they asked to be told that ``seat``'s turn begins."""
        n = len(rec.seats)
        nxt = (seat + 1) % n
        uid = rec.seats[nxt].get("user_id")
        if not uid or nxt == seat or rec.seats[nxt].get("ai") or nxt in loaded.to_move() or uid == rec.seats[seat].get("user_id"):
            return []
        if not notes.seat(uid).headsup:
            return []
        payload = {"user": uid, "text": "headsup.dm", "game": rec.game, "player": loaded.names[seat], "id": rec.id, "while_seat": seat, "while_v": v}
        return [declared.headsup(rec.id, v, seat, payload, now)]

    async def set_headsup(self, rec: Any, uid: int, on: bool) -> None:
        if rec.seats and uid not in rec.user_ids:
            raise UserError("not_player")
        await self.service.note(rec.id, uid, {"headsup": True if on else None})

    # -- what may still be said -----------------------------------------------------------------

    async def still_waiting(self, rec: Any, payload: dict[str, Any]) -> bool:
        """A message about a turn is sent only while that turn goes on."""
        seat = payload.get("while_seat", payload.get("seat"))
        if "while_v" not in payload or seat is None:
            return rec.status in ("active", "abandoned", "finished")
        if rec.status != "active" or rec.seats[seat].get("ai"):
            return False
        loaded = await self.service.aload(rec)
        if seat not in loaded.to_move():
            return False
        uid = rec.seats[seat].get("user_id")
        began = (await self.service.notes(rec.id)).seat(uid).clock_v
        return (began if began is not None else payload["while_v"]) == payload["while_v"]

    # -- person-wide commands ----------------------------------------------------------------

    async def set_quiet(self, uid: int, start: str | None, end: str | None, tz: str | None) -> dict[str, Any]:
        if start is None or str(start).strip().lower() == "off":
            person = await self.store.set_person(uid, {"quiet_start": None, "quiet_end": None})
        else:
            person = await self.store.set_person(uid, quiet_settings(start, end or "", tz or "UTC"))
        await self._poke_all(uid)
        return person

    async def set_away(self, uid: int, days: int) -> tuple[datetime | None, list[Any]]:
        """Away for ``days`` from now (0: back) in every live match at once; the tables are told."""
        if isinstance(days, bool) or not isinstance(days, int) or not 0 <= days <= AWAY_DAYS_PER_MATCH:
            raise UserError("timer.bad_days", max=AWAY_DAYS_PER_MATCH)
        now = self.clock()
        recs = [r for r in await self.store.matches_for_user(uid) if r.status == "active"]
        if days == 0:
            person = await self.store.person(uid)
            was_away = (from_iso(person.get("away_until")) or now) > now
            await self.store.set_person(uid, {"away_until": iso(now) if was_away else None})
            if was_away:
                await self._tell_all(recs, uid, "away.back_notice", now, {})
            await self._poke_all(uid, recs)
            return None, recs
        for rec in recs:
            used = (await self.service.notes(rec.id)).seat(uid).away_days or 0
            if used + days > AWAY_DAYS_PER_MATCH:
                raise UserError("timer.away_limit", id=rec.id, left=AWAY_DAYS_PER_MATCH - used, max=AWAY_DAYS_PER_MATCH)
        until = now + timedelta(days=days)
        await self.store.set_person(uid, {"away_from": iso(now), "away_until": iso(until)})
        for rec in recs:
            used = (await self.service.notes(rec.id)).seat(uid).away_days or 0
            await self.service.note(rec.id, uid, {"away_days": used + days})
        await self._tell_all(recs, uid, "away.notice", now, {"until": f"<t:{int(until.timestamp())}:f>"})
        await self._poke_all(uid, recs)
        return until, recs

    async def _tell_all(self, recs, uid: int, text: str, now: datetime, params: dict[str, Any]) -> None:
        jobs = []
        for rec in recs:
            tag = f"{text}:{rec.id}:{uid}:{now.strftime('%Y%m%dT%H%M%S.%f')}"
            jobs.append(declared.notice(rec.id, tag, {"text": text, "player": f"<@{uid}>", **params}, now))
        if jobs:
            await self.store.add_jobs(jobs, now=now)
            self.scheduler.wake()

    async def _poke_all(self, uid: int, recs=None) -> None:
        for rec in recs if recs is not None else await self.store.matches_for_user(uid):
            if rec.status == "active":
                await self.poke(rec, uid)

    async def set_timers(self, rec: Any, uid: int, changes: dict[str, Any]) -> dict[str, Any]:
        """The host changes the match's timers; the clocks of the players to move follow at once."""
        if rec.host_id != uid:
            raise UserError("host_only", host=f"<@{rec.host_id}>")
        checked = check_timer_settings({k: v for k, v in changes.items() if v is not None})
        if checked:
            await self.service.note(rec.id, 0, {f"t_{k}": v for k, v in checked.items()})
            now = self.clock()
            cfg = settings_of(rec, await self.service.notes(rec.id))
            changed = {"text": "timer.changed", "settings": settings_text(cfg, rec.lang)}
            await self.store.add_jobs([declared.notice(rec.id, f"timers:{rec.id}:{now.strftime('%Y%m%dT%H%M%S.%f')}", changed, now)], now=now)
            for other in rec.user_ids:
                if rec.status == "active":
                    await self.poke(rec, other)
        return settings_of(rec, await self.service.notes(rec.id))
