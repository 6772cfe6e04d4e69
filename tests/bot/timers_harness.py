"""A bot without sockets for the timer tests and bench/days.py: the real service, after-move jobs and
timers on a real store, an injected clock, and a fake Discord that records what would be sent."""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from types import SimpleNamespace
from typing import Any

import discord

from bot.core.abuse import PersonalMessages
from bot.core.options import DEFAULT_POST
from bot.core.service import MatchService, Stale
from bot.core.timers import split_options
from bot.discord.posting import Presenter
from bot.discord.wiring import wire
from bot.store.base import utcnow


class Clock:
    def __init__(self, start: datetime | None = None) -> None:
        # ahead of the real time: the jobs a commit makes due "now" (real time) are due by this clock
        self.now = start or (utcnow() + timedelta(minutes=10)).replace(second=0, microsecond=0)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **kw: float) -> datetime:
        self.now += timedelta(**kw)
        return self.now


@dataclass
class Sent:
    at: datetime
    to: tuple[str, int]  # ("dm", user id) or ("channel", channel id)
    content: str
    files: list[str]
    buttons: list[str]
    pings: list[int] | None  # user ids the message may ping (None: everyone mentioned)


@dataclass
class Outbox:
    clock: Clock
    sent: list[Sent] = field(default_factory=list)
    closed_dms: set[int] = field(default_factory=set)
    edits: list[tuple[int, Sent]] = field(default_factory=list)  # (message id, what it shows now)
    deleted: set[int] = field(default_factory=set)  # message ids deleted by someone
    _ids: Any = field(default_factory=lambda: itertools.count(1))

    def add(self, to: tuple[str, int], kwargs: dict[str, Any]) -> SimpleNamespace:
        files = [f.filename for f in kwargs.get("files") or []]
        view = kwargs.get("view")
        buttons = [getattr(c, "custom_id", "") for c in (view.children if view is not None else [])]
        am = kwargs.get("allowed_mentions")
        pings = None
        if isinstance(am, discord.AllowedMentions):
            pings = [u.id for u in am.users] if isinstance(am.users, list) else ([] if am.users is False else None)
        self.sent.append(Sent(self.clock(), to, kwargs.get("content") or "", files, buttons, pings))
        return SimpleNamespace(id=next(self._ids))

    def edit(self, to: tuple[str, int], mid: int, kwargs: dict[str, Any]) -> None:
        if mid in self.deleted:
            raise discord.NotFound(SimpleNamespace(status=404, reason="Not Found"), {"code": 10008, "message": "Unknown Message"})
        files = [f.filename for f in kwargs.get("attachments") or []]
        view = kwargs.get("view")
        buttons = [getattr(c, "custom_id", "") for c in (view.children if view is not None else [])]
        self.edits.append((mid, Sent(self.clock(), to, kwargs.get("content") or "", files, buttons, [])))

    def dms(self, uid: int, containing: str = "") -> list[Sent]:
        return [s for s in self.sent if s.to == ("dm", uid) and containing in s.content]

    def channel(self, cid: int, containing: str = "") -> list[Sent]:
        return [s for s in self.sent if s.to == ("channel", cid) and containing in s.content]


class FakeChannel:
    def __init__(self, box: Outbox, cid: int) -> None:
        self.box, self.id, self.name = box, cid, f"table-{cid}"
        self.guild = SimpleNamespace(name="Game Night")

    async def send(self, content: str | None = None, **kwargs: Any) -> Any:
        return self.box.add(("channel", self.id), {"content": content, **kwargs})

    def get_partial_message(self, mid: int) -> Any:
        async def edit(**kwargs: Any) -> None:
            self.box.edit(("channel", self.id), mid, kwargs)

        return SimpleNamespace(id=mid, edit=edit)


class FakeDM:
    def __init__(self, box: Outbox, uid: int) -> None:
        self.box, self.uid = box, uid

    async def send(self, content: str | None = None, **kwargs: Any) -> Any:
        if self.uid in self.box.closed_dms:
            raise discord.Forbidden(SimpleNamespace(status=403, reason="Forbidden"), {"code": 50007, "message": "Cannot send messages to this user"})
        return self.box.add(("dm", self.uid), {"content": content, **kwargs})


class FakeClient:
    def __init__(self, box: Outbox) -> None:
        self.box = box

    def get_channel(self, cid: int) -> FakeChannel:
        return FakeChannel(self.box, cid)

    async def fetch_channel(self, cid: int) -> FakeChannel:
        return FakeChannel(self.box, cid)

    async def create_dm(self, user: Any) -> FakeDM:
        return FakeDM(self.box, user.id)


class Bot:
    """One bot process over ``store``; ``await bot.run()`` runs every job due by the clock."""

    def __init__(self, store: Any, clock: Clock, box: Outbox, pictures: bool = True) -> None:
        self.store, self.clock, self.box = store, clock, box
        self.service = MatchService(store)
        client = FakeClient(box)
        self.present = Presenter(client, self.service)
        client.service, client.present = self.service, self.present  # what the table's handlers use
        client.messages_limit = PersonalMessages()
        if not pictures:  # no picture drawn (board_png, hand_png); controls are still computed
            real_draw = self.present.draw

            async def no_picture(fn: Any, *args: Any) -> Any:
                return None if getattr(fn, "__name__", "").endswith("_png") else await real_draw(fn, *args)

            self.present.draw = no_picture  # type: ignore[method-assign]
        jobs = wire(self.present, self.service, clock=clock)  # as the client's set-up wires them
        self.after, self.timers = jobs.after, jobs.timers
        jobs.messages.pictures = pictures

    async def run(self) -> int:
        return await self.after.scheduler.run_due()

    async def new_match(self, game: str, people: list[tuple[int, str]], ais: int = 0, options: dict | None = None,
                        seed: int = 1, channel: int = 100, lang: str = "en") -> int:
        opts, timers = split_options(options or {})
        post = opts.pop("post", None) or DEFAULT_POST  # as /partida new does
        (host, host_name), *rest = people
        meta = {"timers": timers, "post": post}
        m = await self.service.new_lobby(1, channel, game, host, host_name, opts, lang, meta=meta)
        mid = m.record.id
        for uid, name in rest:
            await self.service.join(mid, None, uid, name)
        for i in range(ais):
            await self.service.add_ai(mid, None, host, f"AI {i + 1}")
        await self.service.start(mid, None, host, seed=seed)
        return mid

    async def to_move(self, mid: int) -> list[int]:
        """User ids of the people to move (seats the AI holds excluded)."""
        loaded = await self.service.get(mid)
        if loaded.record.status != "active":
            return []
        seats = loaded.record.seats
        return [seats[s]["user_id"] for s in loaded.to_move() if seats[s].get("user_id") and not seats[s].get("ai")]

    async def play_turn(self, mid: int, uid: int, rng: random.Random) -> int:
        """The person plays random legal moves until their turn is over; returns the moves made."""
        made = 0
        for _ in range(100):
            loaded = await self.service.get(mid)
            seat = loaded.seat_of(uid)
            if loaded.record.status != "active" or seat not in loaded.to_move():
                break
            legal = loaded.game.legal(loaded.state, seat)
            code = legal[int(rng.random() * len(legal))]
            try:
                await self.service.move(mid, loaded.record.version, ("user", uid), loaded.game.encode(code), loaded=loaded)
                made += 1
            except Stale:
                continue
        return made
