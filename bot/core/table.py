"""The table: what players do to a running match besides moving, with no Discord in sight.

- **Undo** (``undo_plan`` / ``take_back``): a player takes back their own last action, and with it
  every action after it. Directly when nothing it or a later action did revealed hidden information
  or randomness (the engines' ``Outcome.revealed``, kept per action in the log) and no other *person*
  acted since (AI seats' moves after it are simply played again). Otherwise every other human
  player must approve (unanimous: an undo changes what everybody has seen); with nobody to ask, it
  is refused. The state is rebuilt by replaying the log without those actions (engines are
  deterministic), the version is bumped (stale buttons are refused), the undone actions are removed
  from the log and kept in an ``undo`` event (``/partida log`` and the board's story say "X took
  back ..."), and the next turn's jobs are planned as for a move.
- **Votes** (``open_vote`` / ``cast``): one at a time per match, in the match's own note; each
  ballot is the voter's own note (so two people voting at once never lose a ballot); the outcome is
  a compare-and-set, so it happens once. An undo vote is tied to the match version it was asked at.
- **Leaving** (``leave``): the seat goes to the AI (the log says who left); the host role passes
  to the next person; when nobody is left the match is abandoned. **Replacing**
  (``invite_to_seat`` / ``take_seat``): the host invites a person to an AI seat; the invitation is
  that person's note (a forged button cannot take a seat); they inherit it (hand, score, turn).
- **Abandon** (``abandon``): the host or a moderator, after a confirmation; anyone else through a
  vote of the human players (a strict majority, the asker counting as yes).
- **Verifiable shuffles**: ``commitment`` is the SHA-256 shown at the start; ``published_log`` the
  log with seed and salt published at the end (``python -m engines replay`` prints the same hash).
- **Rematch** (``rematch``): same seats (people and AIs, same order) and options, a new seed, a new
  match in the channel, started at once by the click of any seated person (whoever does not want
  to play again leaves with ``/partida leave`` and the AI takes the seat).
"""

from __future__ import annotations

import asyncio
import dataclasses
import secrets
from dataclasses import dataclass, field
from typing import Any

from engines.core import Game
from engines.match import seed_commitment

from ..games import ui_for
from ..i18n import t
from ..store import ActionRecord, ChannelBusy, EventRecord, MatchRecord, NewEvent, RawJSON
from ..store.base import dumps
from .options import rematch_meta
from .plans import Planner
from .service import Change, Loaded, MatchService, Place, Stale, UserError, ai_kind
from .story import LANGS, by_auto_end, describe_move, plan

LOG_PAGE = 15  # lines per page of /partida log


@dataclass
class UndoPlan:
    loaded: Loaded
    user_id: int
    seat: int
    keep: int  # the log keeps this many actions
    undone: list[ActionRecord]
    reason: str | None  # None: allowed at once; "revealed" or "others": the other players must approve
    voters: list[int] = field(default_factory=list)


@dataclass
class Vote:
    id: str
    kind: str  # "undo" | "abandon"
    by: int
    version: int | None  # undo: the match version it was asked at
    voters: list[int]  # who may vote (the asker is not among them)
    need: int  # yes ballots needed among the voters
    data: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


@dataclass
class Tally:
    vote: Vote
    yes: list[int]
    no: list[int]

    @property
    def passed(self) -> bool:
        return len(self.yes) >= self.vote.need

    @property
    def rejected(self) -> bool:
        return len(self.vote.voters) - len(self.no) < self.vote.need


def _replay(game: Game, rec: MatchRecord, actions: list[ActionRecord]):
    """The state after ``actions`` from the match's seed or setup (in a thread: a long log takes a while)."""
    state = game.new_state(len(rec.seats), game.parse_options(rec.options), rec.seed, rec.setup)
    for a in actions:
        code = game.decode(a.action)
        game.check(state, a.seat, code)
        game.step(state, a.seat, code)
    dumped = game.dump(state)
    return state, RawJSON(dumps(dumped), dumped)


def words(loaded: Loaded, a: ActionRecord, lang: str) -> str:
    """An action in public words: the story stored with it, else worded now."""
    if isinstance(a.story, dict) and a.story.get(lang):
        return a.story[lang]
    try:
        return describe_move(ui_for(loaded.record.game), a.action, loaded.names, a.seat, lang)
    except Exception:  # a presentation that cannot word an action must not stop an undo
        return str(a.action)


def commitment(rec: MatchRecord) -> str | None:
    """The SHA-256 of the match's seed (and setup) shown when it starts; None for a match started
    before the salt was stored."""
    salt = (rec.meta or {}).get("salt")
    if not isinstance(salt, str) or rec.status == "lobby":
        return None
    return seed_commitment(rec.game, rec.seed, rec.setup, salt)


class Table:
    def __init__(self, service: MatchService) -> None:
        self.service = service
        self.store = service.store

    # -- undo ------------------------------------------------------------------------------------

    async def undo_plan(self, match_id: int, user_id: int, since: int | None = None, loaded: Loaded | None = None) -> UndoPlan:
        """What an undo by ``user_id`` would take back now, and whether it needs the others' approval.
        Raises UserError when there is nothing to take back or nobody could approve it.

        ``since``: the match version the person's Undo button was drawn at. When they already took
        something back since then (a double click, a second device), this one is refused: one
        click never takes back two moves."""
        loaded = loaded if loaded is not None else await self.service.get(match_id)
        rec = loaded.record
        if rec.status != "active":
            raise UserError("not_active", status=rec.status)
        seat = loaded.seat_of(user_id)
        if seat is None:
            raise UserError("not_player")
        if since is not None:
            for ev in await self.store.events(match_id):
                if ev.kind == "undo" and ev.user_id == user_id and int(ev.data.get("from_version", -1)) >= since:
                    raise UserError("undo_already")
        actions = await self.store.actions(match_id)
        k = next((i for i in range(len(actions) - 1, -1, -1) if actions[i].seat == seat), None)
        if k is None:
            raise UserError("undo_nothing")
        # a turn's end taken for the person (their auto-end setting) goes back with the move that
        # left it their only one: undoing the end alone would only end the turn again
        while by_auto_end(actions[k].story) and k > 0 and actions[k - 1].seat == seat:
            k -= 1
        undone = actions[k:]
        people_after = [a for a in undone[1:] if a.seat != seat and rec.seats[a.seat].get("user_id")]
        reason = "revealed" if any(a.revealed for a in undone) else ("others" if people_after else None)
        voters = [uid for uid in rec.user_ids if uid != user_id]
        if reason is not None and not voters:
            raise UserError("undo_refused_" + reason)
        return UndoPlan(loaded, user_id, seat, k, undone, reason, voters)

    async def take_back(
        self, match_id: int, user_id: int, *, version: int | None = None, approved_by: list[int] | None = None, since: int | None = None,
    ) -> tuple[Loaded, UndoPlan]:
        """Take back ``user_id``'s last action (and all after it). ``approved_by``: the vote that
        approved it (else it must be allowed at once); ``version``: the version the vote was asked at
        (Stale when the match moved on since)."""
        async def decide(loaded: Loaded) -> Change:
            p = await self.undo_plan(match_id, user_id, since, loaded=loaded)
            rec = p.loaded.record
            if p.reason is not None and approved_by is None:
                raise UserError("undo_needs_vote_" + p.reason)
            game = p.loaded.game
            kept = await self.store.actions(match_id)
            state, snapshot = await asyncio.to_thread(_replay, game, rec, kept[: p.keep])
            after = dataclasses.replace(rec, version=rec.version + 1)
            movers = game.to_move(state)
            name = p.loaded.names[p.seat]
            story = {lang: t("undo.story", lang, player=name, moves="; ".join(words(p.loaded, a, lang) for a in p.undone)) for lang in LANGS}
            jobs = plan(after, movers, (), True)  # the board tells the undo (its event) and whose turn it is
            event = NewEvent("undo", user_id, {
                "seat": p.seat, "name": name, "story": story, "from_version": rec.version, "approved_by": approved_by or [], "reason": p.reason,
                "actions": [{"idx": a.idx, "seat": a.seat, "action": a.action, "revealed": a.revealed, "story": a.story} for a in p.undone],
            })
            # the channel's next story starts where the log now ends (the undone moves are gone);
            # written before the scheduler is woken for the board this undo planned
            every = await self.service.notes(match_id)
            told = every.match
            notes = {0: {"board_upto": p.keep}} if (told.board_upto or 0) > p.keep else {}
            # plans were made for the position the undo takes away: dropped, their owners told why
            notes.update(Planner.drop_all(every.raw, "undo", rec.version))
            return Change(fields={"state": snapshot}, event=event, keep=p.keep, jobs=jobs, notes=notes, live=state, value=p)

        # a vote's undo is for the version it was asked at (Stale when the match moved on since)
        done = await self.service.commit(match_id, version, decide, retry=False)
        return done.loaded, done.change.value

    # -- votes -----------------------------------------------------------------------------------

    async def open_vote(self, match_id: int, kind: str, by: int, voters: list[int], need: int, version: int | None = None, data: dict | None = None) -> Vote:
        vote = Vote(secrets.token_hex(4), kind, by, version, list(voters), need, dict(data or {}))
        await self.service.note(match_id, 0, {"vote": vote.to_json()})
        return vote

    async def current_vote(self, match_id: int, vote_id: str) -> Vote:
        raw = (await self.service.notes(match_id)).match.vote
        if not raw or raw.get("id") != vote_id:
            raise UserError("vote_over")
        return Vote(**{"version": None, "data": {}, **raw})  # a note drops keys set to None

    async def tally(self, match_id: int, vote: Vote) -> Tally:
        """The ballots of the voters who still play the match; the need follows who is left (a
        majority of the people seated for an abandon, every other player for an undo)."""
        vote = await self._of_current_players(match_id, vote)
        notes = await self.service.notes(match_id)
        yes, no = [], []
        for uid in vote.voters:
            ballot = notes.seat(uid).ballot
            if ballot is not None and ballot.id == vote.id:
                (yes if ballot.yes else no).append(uid)
        return Tally(vote, yes, no)

    async def _of_current_players(self, match_id: int, vote: Vote) -> Vote:
        rec = await self.store.get(match_id)
        people = rec.user_ids if rec is not None else []
        if vote.by not in people:  # the asker left: nothing left to decide
            raise UserError("vote_over")
        voters = [uid for uid in vote.voters if uid in people]
        need = len(people) // 2 if vote.kind == "abandon" else len(voters)  # abandon: the asker is a yes
        return dataclasses.replace(vote, voters=voters, need=min(vote.need, need))

    async def cast(self, match_id: int, vote_id: str, user_id: int, yes: bool) -> Tally:
        vote = await self._of_current_players(match_id, await self.current_vote(match_id, vote_id))
        if user_id not in vote.voters:  # not asked, or left the match since
            raise UserError("vote_not_yours")
        await self.service.note(match_id, user_id, {"ballot": {"id": vote.id, "yes": bool(yes)}})
        tally = await self.tally(match_id, vote)
        if tally.passed or tally.rejected:
            await self.close_vote(match_id, vote.id)
        return tally

    async def close_vote(self, match_id: int, vote_id: str) -> None:
        raw = (await self.service.notes(match_id)).match.vote
        if raw and raw.get("id") == vote_id:
            await self.service.note(match_id, 0, {"vote": None})

    async def ask_undo(self, match_id: int, user_id: int, since: int | None = None) -> tuple[UndoPlan, Vote]:
        p = await self.undo_plan(match_id, user_id, since)
        if p.reason is None:
            raise UserError("undo_no_vote_needed")
        vote = await self.open_vote(
            match_id, "undo", user_id, p.voters, len(p.voters), p.loaded.record.version,
            {"reason": p.reason, "seat": p.seat, "since": since},
        )
        return p, vote

    async def ask_abandon(self, match_id: int, user_id: int) -> tuple[Loaded, Vote]:
        loaded = await self.service.get(match_id)
        rec = loaded.record
        if not rec.live:
            raise UserError("not_active", status=rec.status)
        if loaded.seat_of(user_id) is None:
            raise UserError("abandon_rights")
        people = rec.user_ids
        need = len(people) // 2 + 1 - 1  # a strict majority of the people seated; the asker is a yes
        voters = [uid for uid in people if uid != user_id]
        return loaded, await self.open_vote(match_id, "abandon", user_id, voters, need)

    # -- abandon ---------------------------------------------------------------------------------

    async def abandon(self, match_id: int, user_id: int, *, can_manage: bool = False, by_vote: list[int] | None = None) -> Loaded:
        """End the match for everyone: the host or a moderator, or after a vote (``by_vote``: the yes)."""
        async def decide(loaded: Loaded) -> Change:
            rec = loaded.record
            if not rec.live:
                raise UserError("not_active", status=rec.status)
            if by_vote is None and rec.host_id != user_id and not can_manage:
                raise UserError("abandon_rights")
            # a move that landed meanwhile: abandon what is there now
            return Change(fields={"status": "abandoned"}, event=NewEvent("abandoned", user_id, {"by_vote": by_vote}))

        return (await self.service.commit(match_id, None, decide)).loaded

    # -- leaving and replacing -------------------------------------------------------------------

    async def leave(self, match_id: int, user_id: int) -> tuple[Loaded, int | None]:
        """A person leaves a running match: the AI takes the seat. Returns the match and the seat
        (None: they left a lobby)."""
        rec = await self.store.get(match_id)
        if rec is not None and rec.status == "lobby":
            return await self.service.leave(match_id, None, user_id), None
        async def decide(loaded: Loaded) -> Change:
            rec = loaded.record
            if rec.status != "active":
                raise UserError("not_active", status=rec.status)
            seat = loaded.seat_of(user_id)
            if seat is None:
                raise UserError("not_player")
            name = rec.seats[seat]["name"]
            kind = ai_kind(rec)
            seats = [dict(s) for s in rec.seats]
            seats[seat] = {"user_id": None, "ai": kind, "name": t("seat.ai_name", rec.lang, name=name), "left": user_id}
            people = [s["user_id"] for s in seats if s.get("user_id")]
            changes: dict[str, Any] = {"seats": seats}
            if not people:  # nobody left to play with: the match ends
                changes["status"] = "abandoned"
            elif rec.host_id == user_id:
                changes["host_id"] = people[0]
            after = dataclasses.replace(rec, version=rec.version + 1, seats=seats, status=changes.get("status", rec.status))
            movers = loaded.to_move()
            jobs = plan(after, movers, movers, False) if after.status == "active" else []
            event = NewEvent("left", user_id, {"seat": seat, "name": name, "host": changes.get("host_id")})
            drop = {user_id: {"plan": None, "plan_off": None}}  # their plan leaves with them
            return Change(fields=changes, event=event, jobs=jobs, notes=drop, live=loaded.state, value=seat)

        done = await self.service.commit(match_id, None, decide)
        return done.loaded, done.change.value

    async def invite_to_seat(self, match_id: int, host_id: int, invitee: int, seat: int | None, can_manage: bool = False) -> tuple[Loaded, int]:
        """The host invites a person to an AI seat (by default the first seat someone left)."""
        loaded, seat = await self.seat_to_offer(match_id, host_id, invitee, seat, can_manage)
        await self.service.note(match_id, invitee, {"seat_invite": seat})
        return loaded, seat

    async def seat_to_offer(self, match_id: int, host_id: int, invitee: int, seat: int | None, can_manage: bool = False) -> tuple[Loaded, int]:
        """The seat ``invite_to_seat`` would offer (checked, nothing written)."""
        loaded = await self.service.get(match_id)
        rec = loaded.record
        if rec.status != "active":
            raise UserError("not_active", status=rec.status)
        if rec.host_id != host_id and not can_manage:
            raise UserError("host_only", host=loaded.names[loaded.seat_of(rec.host_id) or 0])
        if loaded.seat_of(invitee) is not None:
            raise UserError("already_joined")
        ai_seats = [i for i in range(len(rec.seats)) if unowned_ai_seat(rec, i)]  # a stand-in's seat is its owner's
        if seat is None:
            seat = next((i for i in ai_seats if rec.seats[i].get("left")), ai_seats[0] if ai_seats else None)
        if seat is None or seat not in ai_seats:
            raise UserError("seat_not_free", seat=(seat if seat is not None else -1) + 1)
        return loaded, seat

    async def take_seat(self, match_id: int, user_id: int, name: str, seat: int) -> Loaded:
        async def decide(loaded: Loaded) -> Change:
            rec = loaded.record
            if rec.status != "active":
                raise UserError("not_active", status=rec.status)
            if (await self.service.notes(match_id)).seat(user_id).seat_invite != seat:
                raise UserError("seat_not_invited")
            if loaded.seat_of(user_id) is not None:
                raise UserError("already_joined")
            if not unowned_ai_seat(rec, seat):
                raise UserError("seat_not_free", seat=seat + 1)
            old = rec.seats[seat]["name"]
            seats = [dict(s) for s in rec.seats]
            seats[seat] = {"user_id": user_id, "ai": None, "name": name}
            after = dataclasses.replace(rec, version=rec.version + 1, seats=seats)
            movers = loaded.to_move()
            jobs = plan(after, movers, tuple(s for s in movers if s != seat), False)
            event = NewEvent("seat_taken", user_id, {"seat": seat, "name": name, "old": old})
            # the AI moved meanwhile: take the seat as it is now
            return Change(fields={"seats": seats}, event=event, jobs=jobs, notes={user_id: {"seat_invite": None}}, live=loaded.state)

        return (await self.service.commit(match_id, None, decide)).loaded

    # -- verifiable shuffles ---------------------------------------------------------------------

    async def published_log(self, match_id: int) -> dict[str, Any]:
        """The match log (``python -m engines replay`` reads it) with the salt and the hash shown at
        the start. Only for a match that is over: the seed shows every hand."""
        rec = await self.store.get(match_id)
        if rec is None:
            raise UserError("no_such_match")
        if rec.status == "active":
            raise UserError("export_live", id=rec.id)
        log = await self.service.log(match_id)
        digest = commitment(rec)
        if digest is not None:
            log["salt"] = rec.meta["salt"]
            log["seed_sha256"] = digest
        return log

    # -- rematch ---------------------------------------------------------------------------------

    async def rematch(self, match_id: int, user_id: int, at: Place | None = None) -> Loaded:
        old = await self.store.get(match_id)
        if old is None:
            raise UserError("no_such_match")
        if at is not None:
            at.check(old, dm_ok=False)  # the final board's button, in the match's channel
        if old.status != "finished":
            raise UserError("rematch_not_over")
        if user_id not in old.user_ids:
            raise UserError("not_player")
        seats = [{"user_id": s.get("user_id"), "ai": s.get("ai"), "name": s["name"]} for s in old.seats]
        host = old.host_id if old.host_id in old.user_ids else user_id
        meta = rematch_meta(old.meta, (await self.store.notes(old.id)).get(0, {}), old.id)  # the same options
        try:
            new = await self.store.create_match(old.guild_id, old.channel_id, old.game, host, seats, old.options, old.lang, meta=meta)
        except ChannelBusy as e:
            live = await self.store.get(e.existing_match_id) if e.existing_match_id else None
            if live is None or (live.meta or {}).get("rematch_of") != old.id:
                raise UserError("channel_busy", id=e.existing_match_id) from None
            if live.status != "lobby":
                raise UserError("rematch_exists", id=live.id) from None
            new = live  # the rematch was created but not started (a crash, or a click racing this one)
        return await self._start_rematch(new, old, user_id)

    async def _start_rematch(self, new: MatchRecord, old: MatchRecord, user_id: int) -> Loaded:
        try:
            started = await self.service.start(new.id, new.version, new.host_id)
        except (Stale, UserError):  # another click started it meanwhile
            started = await self.service.get(new.id)
            if started.record.status != "active":
                raise
            raise UserError("rematch_exists", id=new.id) from None
        await self.store.add_event(old.id, NewEvent("rematch", user_id, {"match": new.id}))
        return started

    # -- the whole log ---------------------------------------------------------------------------

    async def log_lines(self, loaded: Loaded, lang: str) -> list[str]:
        """Every action and event of the match in order, numbered like the log."""
        match_id = loaded.record.id
        actions = await self.store.actions(match_id)
        events = await self.store.events(match_id)
        out: list[str] = []
        pending = list(events)

        def flush(upto: int) -> None:
            while pending and pending[0].at_action <= upto:
                out.append("↩️ " + event_text(pending.pop(0), lang))

        for a in actions:
            flush(a.idx)
            out.append(f"{a.idx + 1}. {words(loaded, a, lang)}")
        flush(10**9)
        return out


def unowned_ai_seat(rec: MatchRecord, seat: int) -> bool:
    """An AI plays ``seat`` and no person owns it: an AI added at the lobby, or a seat its person
    left. A seat the stand-in holds (policy ``replace``) keeps its person's ``user_id``: it is
    theirs until they leave, and nobody else can be seated there."""
    return 0 <= seat < len(rec.seats) and bool(rec.seats[seat].get("ai")) and not rec.seats[seat].get("user_id")


def event_text(ev: EventRecord, lang: str) -> str:
    d = ev.data or {}
    who = f"<@{ev.user_id}>" if ev.user_id else "?"
    if ev.kind == "undo":
        story = d.get("story") or {}
        return story.get(lang) or story.get("en") or t("undo.story", lang, player=d.get("name", who), moves="?")
    if ev.kind == "left":
        return t("log.left", lang, player=d.get("name", who))
    if ev.kind == "seat_taken":
        return t("log.seat_taken", lang, player=d.get("name", who), old=d.get("old", "?"))
    if ev.kind == "abandoned":
        return t("log.abandoned_vote" if d.get("by_vote") else "log.abandoned", lang, player=who)
    if ev.kind == "rematch":
        return t("log.rematch", lang, player=who, id=d.get("match", "?"))
    return ev.kind


def page_of(lines: list[str], page: int | None) -> tuple[list[str], int, int]:
    """(the lines of ``page`` (None: the last), that page, how many pages)."""
    pages = max(1, -(-len(lines) // LOG_PAGE))
    page = pages - 1 if page is None else max(0, min(page, pages - 1))
    return lines[page * LOG_PAGE: (page + 1) * LOG_PAGE], page, pages


