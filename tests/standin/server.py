"""A local Discord stand-in: gateway (websocket) + HTTP API, enough for discord.py 2.7 bots.

Every HTTP request body is checked against Discord's OpenAPI spec (see ``spec.py``) and against
the rules the spec does not carry (one initial response per interaction, within the initial
response limit, follow-ups within 15 minutes, 2,000 characters, 10 MiB per file). A violation is
answered with a Discord-like error AND recorded in ``StandIn.violations``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from . import factories as f
from .spec import Problem, extra_limits, file_problems, get_checker

API_PREFIX = "/api/v10"
EPHEMERAL = 1 << 6
LOADING = 1 << 7
IS_COMPONENTS_V2 = 1 << 15
INITIAL_RESPONSE_LIMIT = 3.0
FOLLOWUP_LIMIT = 15 * 60.0

# gateway opcodes
OP_DISPATCH, OP_HEARTBEAT, OP_IDENTIFY, OP_RESUME, OP_RECONNECT = 0, 1, 2, 6, 7
OP_REQUEST_MEMBERS, OP_INVALID_SESSION, OP_HELLO, OP_HEARTBEAT_ACK = 8, 9, 10, 11

# intents the stand-in honours (what Discord delivers depends on them)
INTENT_GUILDS = 1 << 0
INTENT_GUILD_MEMBERS = 1 << 1
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_DIRECT_MESSAGES = 1 << 12
INTENT_MESSAGE_CONTENT = 1 << 15


@dataclass
class Violation:
    method: str
    path: str
    rule: str  # "spec", "timing", "duplicate-response", "unsupported", "auth", "standin-response", ...
    detail: str
    interaction_id: int | None = None  # when the request answered an interaction

    def __str__(self) -> str:
        return f"{self.method} {self.path}: [{self.rule}] {self.detail}"


@dataclass
class Attachment:
    id: int
    filename: str
    data: bytes
    raw: dict[str, Any]


@dataclass
class Message:
    """A message as players would see it (the stand-in's record)."""

    id: int
    channel_id: int
    raw: dict[str, Any]
    attachments: list[Attachment] = field(default_factory=list)
    author_id: int = 0
    interaction_id: int | None = None
    visible_to: int | None = None  # ephemeral: the only user who sees it
    deleted: bool = False
    edits: int = 0

    @property
    def content(self) -> str:
        return self.raw.get("content") or ""

    @property
    def embeds(self) -> list[dict[str, Any]]:
        return self.raw.get("embeds") or []

    @property
    def components(self) -> list[dict[str, Any]]:
        return self.raw.get("components") or []

    @property
    def flags(self) -> int:
        return int(self.raw.get("flags") or 0)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        return bool(self.flags & LOADING)

    @property
    def files(self) -> dict[str, bytes]:
        return {a.filename: a.data for a in self.attachments}

    def custom_ids(self) -> list[str]:
        return f.iter_custom_ids(self.components)

    def component(self, custom_id: str) -> dict[str, Any] | None:
        return f.find_component(self.components, custom_id)

    def buttons(self) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []

        def walk(items: list[Any]) -> None:
            for c in items or []:
                if isinstance(c, dict):
                    if c.get("type") == 2:
                        out.append(c)
                    walk(c.get("components") or [])
                    if isinstance(c.get("accessory"), dict):
                        walk([c["accessory"]])

        walk(self.components)
        return out

    def text(self) -> str:
        """Content plus embed titles/descriptions/fields, for loose assertions."""
        parts = [self.content]
        for e in self.embeds:
            parts += [e.get("title") or "", e.get("description") or ""]
            for fl in e.get("fields") or []:
                parts += [fl.get("name") or "", fl.get("value") or ""]
            if isinstance(e.get("footer"), dict):
                parts.append(e["footer"].get("text") or "")

        def walk(items: list[Any]) -> None:  # text display components (components v2)
            for c in items or []:
                if isinstance(c, dict):
                    if c.get("type") == 10:
                        parts.append(c.get("content") or "")
                    walk(c.get("components") or [])

        walk(self.components)
        return "\n".join(p for p in parts if p)


@dataclass
class InteractionRecord:
    id: int
    token: str
    type: int
    user_id: int
    channel_id: int
    guild_id: int | None
    payload: dict[str, Any]
    created_at: float  # stand-in clock
    source_message_id: int | None = None  # components: the message clicked
    trigger_id: int | None = None  # modal submits: the interaction that opened the modal
    initial_type: int | None = None
    initial_data: dict[str, Any] | None = None
    initial_at: float | None = None
    original: Message | None = None  # message created (4/5) or updated (6/7)
    followups: list[Message] = field(default_factory=list)
    modal: dict[str, Any] | None = None
    choices: list[dict[str, Any]] | None = None
    shard: int | None = None  # the gateway shard it was delivered on


class StandInError(Exception):
    def __init__(self, status: int, code: int, message: str, *, rule: str | None = None,
                 errors: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.rule, self.errors = status, code, message, rule, errors


def json_response(data: Any, status: int = 200) -> web.Response:
    # exactly "application/json" (no charset): discord.py parses only that as JSON
    return web.Response(status=status, body=json.dumps(data).encode(), headers={"Content-Type": "application/json"})


def error_response(status: int, code: int, message: str, errors: dict[str, Any] | None = None) -> web.Response:
    body: dict[str, Any] = {"code": code, "message": message}
    if errors:
        body["errors"] = errors
    return json_response(body, status)


def _errors_from_problems(problems: list[Problem]) -> dict[str, Any]:
    errors: dict[str, Any] = {}
    for p in problems:
        node = errors
        for part in (p.where or "_body").split("."):
            node = node.setdefault(part, {})
        node.setdefault("_errors", []).append({"code": "BASE_TYPE_INVALID", "message": p.message})
    return errors


_ROUTE_PARAM = re.compile(r"\{([a-z_]+)\}")


class _Router:
    def __init__(self) -> None:
        self._routes: list[tuple[str, re.Pattern[str], int, int, str, Callable[..., Any]]] = []

    def add(self, method: str, template: str, handler: Callable[..., Any]) -> None:
        pattern = "^" + _ROUTE_PARAM.sub(r"(?P<\1>[^/]+)", template) + "$"
        params = template.count("{")
        literal = len(_ROUTE_PARAM.sub("", template))
        self._routes.append((method, re.compile(pattern), params, literal, template, handler))

    def match(self, method: str, path: str) -> tuple[Callable[..., Any], dict[str, str], str] | None:
        best = None
        for m, rx, params, literal, template, handler in self._routes:
            if m != method:
                continue
            mo = rx.match(path)
            if mo and (best is None or (params, -literal) < (best[0], -best[1])):
                best = (params, literal, handler, mo.groupdict(), template)
        if best is None:
            return None
        return best[2], best[3], best[4]


@dataclass
class _Session:
    session_id: str
    shard: tuple[int, int]
    intents: int
    seq: int = 0
    buffer: list[dict[str, Any]] = field(default_factory=list)  # sent dispatches, for RESUME
    ws: web.WebSocketResponse | None = None


class StandIn:
    """The local Discord. ``await start()``, then point discord.py at ``api_url``/``gateway_url``."""

    token = "standin-bot-token"

    def __init__(self, *, guild_name: str = "Partida Test Guild", guild_locale: str = "en-US",
                 spec_check: bool = True, initial_response_limit: float = INITIAL_RESPONSE_LIMIT,
                 followup_limit: float = FOLLOWUP_LIMIT, clock: Callable[[], float] = time.monotonic,
                 shard_count: int = 1, guild_shard: int | None = None) -> None:
        """``shard_count``: how many shards the bot has here (what GET /gateway/bot recommends).
        ``guild_shard``: give the guild an id that ``(guild_id >> 22) % shard_count`` puts on this
        shard (guild events and interactions go there; DMs always go to shard 0)."""
        self.checker = get_checker() if spec_check else None
        # also check the stand-in's own 2xx bodies against the spec (a self-test; costs a little time)
        self.check_responses = os.environ.get("PARTIDA_STANDIN_CHECK_RESPONSES", "") == "1"
        self._event_validators: dict[str, Any] = {}
        self.violations: list[Violation] = []
        self.checked_requests = 0
        self.requests: list[tuple[str, str, int]] = []  # (method, path, status)
        # injected failures: [method, path regex, status, times left, retry_after] (see fail_next)
        self.faults: list[list[Any]] = []
        # message nonces seen, as Discord keeps them for a few minutes: (channel, nonce) -> (message, when)
        self._nonces: dict[tuple[int, str], tuple[Message, float]] = {}
        self.nonce_window = 300.0
        self.initial_response_limit = initial_response_limit
        self.followup_limit = followup_limit
        self.clock = clock
        self._offset = 0.0

        self.bot_id = f.snowflake()
        self.application_id = self.bot_id
        self.bot_user = f.user_object(self.bot_id, "PartidaBot", bot=True)
        self.guild_id = f.snowflake()
        if guild_shard is not None:
            if not 0 <= guild_shard < shard_count:
                raise ValueError("guild_shard must be below shard_count")
            ms = self.guild_id >> 22  # the snowflake's timestamp part decides the shard
            self.guild_id = ((ms + (guild_shard - ms) % shard_count) << 22) | (self.guild_id & 0x3FFFFF)
        self.guild_name = guild_name
        self.guild_locale = guild_locale
        self.owner_id = f.snowflake()
        self.bot_role_id = f.snowflake()
        self.roles = [
            f.role_object(self.guild_id, "@everyone", permissions=f.EVERYONE_PERMISSIONS),
            f.role_object(self.bot_role_id, "PartidaBot", permissions=f.BOT_PERMISSIONS, position=1, managed=True,
                          tags={"bot_id": str(self.bot_id)}),
        ]
        self.users: dict[int, Any] = {}  # id -> Person
        self.channels: dict[int, dict[str, Any]] = {}
        self.messages: dict[int, list[Message]] = {}
        self.messages_by_id: dict[int, Message] = {}
        self.dm_channels: dict[int, int] = {}  # user id -> DM channel id
        self.interactions: dict[int, InteractionRecord] = {}
        self._by_token: dict[str, InteractionRecord] = {}
        self.global_commands: list[dict[str, Any]] = []
        self.guild_commands: dict[int, list[dict[str, Any]]] = {}
        self.command_syncs = 0
        self.recommended_shards = shard_count  # what GET /gateway/bot answers (AutoShardedClient)
        self.thread_members: dict[int, set[int]] = {}
        self.identify_count = 0
        self.resume_count = 0
        self.tokens_seen: set[str] = set()
        self._sessions: dict[str, _Session] = {}
        self._live: dict[int, _Session] = {}  # shard id -> live session
        self._shard_count = shard_count
        self.delivered: dict[int, int] = {}  # shard id -> dispatches sent on it
        self._change = asyncio.Event()
        self._runner: web.AppRunner | None = None
        self._sockets: set[web.WebSocketResponse] = set()
        self._clients: list[tuple[Any, asyncio.Task[Any]]] = []
        self.port = 0

        self.default_channel_id = self.create_channel("general")
        self._router = _Router()
        self._install_routes()

    # ------------------------------------------------------------------ lifecycle
    async def start(self) -> StandIn:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_get("/gateway/", self._gateway)
        app.router.add_get("/attachments/{aid}/{name}", self._get_attachment)
        app.router.add_route("*", API_PREFIX + "/{tail:.*}", self._http)
        # short shutdown: a stopped stand-in must not wait for a frozen bot process
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = self._runner.addresses[0][1]
        return self

    async def stop(self) -> None:
        for client, task in list(self._clients):
            with contextlib.suppress(Exception):
                await asyncio.wait_for(client.close(), 2)
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(task, 2)
        self._clients.clear()
        for ws in list(self._sockets):
            with contextlib.suppress(Exception):
                await ws.close(code=1001)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> StandIn:
        return await self.start()

    async def __aexit__(self, *exc: Any) -> None:
        await self.stop()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_url(self) -> str:
        return self.base_url + API_PREFIX

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    def env(self) -> dict[str, str]:
        """Environment for a bot running in a subprocess."""
        return {
            "PARTIDA_DISCORD_API": self.api_url,
            "PARTIDA_DISCORD_GATEWAY": self.gateway_url,
            "PARTIDA_DISCORD_TOKEN": self.token,
            "PARTIDA_DISCORD_GUILD_ID": str(self.guild_id),  # informative: the one guild there is
        }

    # ------------------------------------------------------------------ clock
    def now(self) -> float:
        return self.clock() + self._offset

    def advance(self, seconds: float) -> None:
        """Pretend ``seconds`` passed (for interaction deadlines)."""
        self._offset += seconds

    # ------------------------------------------------------------------ waiting
    def _notify(self) -> None:
        ev, self._change = self._change, asyncio.Event()
        ev.set()

    async def wait_until(self, predicate: Callable[[], Any], timeout: float = 5.0, what: str = "condition") -> Any:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            result = predicate()
            if result:
                return result
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(f"stand-in: timed out after {timeout:.1f}s waiting for {what}")
            ev = self._change
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(ev.wait(), min(remaining, 0.25))

    async def wait_connected(self, timeout: float = 5.0) -> None:
        """Wait until a bot identified and received its GUILD_CREATE."""
        await self.wait_until(lambda: bool(self._live), timeout, "a bot to connect to the gateway")

    async def wait_disconnected(self, timeout: float = 5.0, shards: Any = None) -> None:
        """Wait until no bot is connected (e.g. after killing the bot process); with ``shards``, until
        none of those shards is (another process may still serve the others)."""
        if shards is None:
            await self.wait_until(lambda: not self._live, timeout, "the bot to disconnect from the gateway")
            return
        await self.wait_until(lambda: not set(shards) & set(self._live), timeout, f"shards {list(shards)} to disconnect")

    async def wait_shards(self, shards: Any, timeout: float = 5.0) -> None:
        """Wait until each of ``shards`` has a live gateway session."""
        await self.wait_until(lambda: set(shards) <= set(self._live), timeout, f"shards {list(shards)} to connect")

    def shard_for(self, guild: bool = True) -> int:
        """The shard that gets guild events (``guild``) or DMs (always shard 0)."""
        return self._shard_for_guild() if guild else 0

    async def wait_commands(self, timeout: float = 5.0) -> None:
        await self.wait_until(lambda: self.command_syncs > 0, timeout, "the bot to sync its commands")

    async def wait_for_message(self, channel_id: Any, predicate: Callable[[Message], bool] | None = None,
                               timeout: float = 5.0, *, after: int = 0) -> Message:
        """The first message in ``channel_id`` (sent after index ``after``) matching ``predicate``."""
        cid = self.channel_id(channel_id)

        def find() -> Message | None:
            for m in self.messages.get(cid, [])[after:]:
                if not m.deleted and (predicate is None or predicate(m)):
                    return m
            return None

        return await self.wait_until(find, timeout, f"a message in channel {channel_id}")

    async def wait_for_bot_message(self, channel: Any, predicate: Callable[[Message], bool] | None = None,
                                   timeout: float = 5.0, *, after: int = 0) -> Message:
        """Like :meth:`wait_for_message`, only messages the bot sent."""
        return await self.wait_for_message(
            channel, lambda m: m.author_id == self.bot_id and (predicate is None or predicate(m)), timeout, after=after)

    async def wait_for_dm(self, person: Any, predicate: Callable[[Message], bool] | None = None,
                          timeout: float = 5.0) -> Message:
        await self.wait_until(lambda: person.id in self.dm_channels, timeout, f"a DM channel with {person.name}")
        return await self.wait_for_message(self.dm_channels[person.id], predicate, timeout)

    # ------------------------------------------------------------------ world building
    def create_channel(self, name: str) -> int:
        cid = f.snowflake()
        position = sum(1 for c in self.channels.values() if c["type"] == f.GUILD_TEXT)
        self.channels[cid] = f.text_channel_object(cid, self.guild_id, name, position=position)
        self.messages[cid] = []
        if self._live:
            self._dispatch_soon("CHANNEL_CREATE", self.channels[cid], guild=True, intent=INTENT_GUILDS)
        return cid

    def channel_id(self, name_or_id: Any) -> int:
        if isinstance(name_or_id, Message):
            return name_or_id.channel_id
        if isinstance(name_or_id, dict):
            return int(name_or_id["id"])
        if isinstance(name_or_id, str) and not name_or_id.isdigit():
            for cid, ch in self.channels.items():
                if ch.get("name") == name_or_id and ch["type"] != f.DM:
                    return cid
            raise KeyError(f"no channel named {name_or_id!r}")
        return int(name_or_id)

    def user(self, name: str, *, locale: str = "en-US", dms_open: bool = True, admin: bool = False) -> Any:
        """A new guild member (a :class:`Person`); ``admin`` gives the Administrator permission."""
        from .person import Person

        person = Person(self, f.snowflake(), name, locale=locale, dms_open=dms_open, admin=admin)
        person.joined_at = f.iso_now()
        self.users[person.id] = person
        if self._live:
            self._dispatch_soon("GUILD_MEMBER_ADD", {**person.member_object(), "guild_id": str(self.guild_id)},
                                guild=True, intent=INTENT_GUILD_MEMBERS)
        return person

    def guild_payload(self, *, with_members: bool = True) -> dict[str, Any]:
        """GUILD_CREATE; without the GUILD_MEMBERS intent Discord only lists the bot itself."""
        members = [f.member_object(self.bot_user, roles=[str(self.bot_role_id)])]
        if with_members:
            members += [p.member_object() for p in self.users.values()]
        channels = [c for c in self.channels.values() if c["type"] == f.GUILD_TEXT]
        threads = [c for c in self.channels.values() if c["type"] in (f.PUBLIC_THREAD, f.PRIVATE_THREAD)]
        return f.guild_object(self.guild_id, self.guild_name, owner_id=self.owner_id, roles=self.roles,
                              channels=channels, threads=threads, members=members, locale=self.guild_locale)

    # ------------------------------------------------------------------ recorded views
    def messages_in(self, channel: Any, *, ephemeral: bool | None = False) -> list[Message]:
        """Messages in a channel; by default only public ones (ephemeral=None: all)."""
        cid = self.channel_id(channel)
        return [m for m in self.messages.get(cid, []) if not m.deleted and (ephemeral is None or m.ephemeral == ephemeral)]

    def dm_channel_for(self, person: Any) -> int:
        """The DM channel between the bot and ``person`` (created if needed, as the person's client would)."""
        cid = self.dm_channels.get(person.id)
        if cid is None:
            cid = f.snowflake()
            self.channels[cid] = f.dm_channel_object(cid, person.user_object())
            self.messages[cid] = []
            self.dm_channels[person.id] = cid
        return cid

    def dms(self, person: Any) -> list[Message]:
        """What the bot sent to ``person`` in their DM channel (their own messages left out)."""
        cid = self.dm_channels.get(person.id)
        return [m for m in self.messages.get(cid, []) if not m.deleted and m.author_id == self.bot_id] if cid else []

    def ephemerals(self, person: Any) -> list[Message]:
        return [m for msgs in self.messages.values() for m in msgs if m.visible_to == person.id and not m.deleted]

    def threads(self) -> list[dict[str, Any]]:
        return [c for c in self.channels.values() if c["type"] in (f.PUBLIC_THREAD, f.PRIVATE_THREAD)]

    def find_command(self, name: str) -> dict[str, Any] | None:
        for cmd in self.guild_commands.get(self.guild_id, []) + self.global_commands:
            if cmd["name"] == name and cmd.get("type", 1) == 1:
                return cmd
        return None

    # ------------------------------------------------------------------ violations
    def violate(self, method: str, path: str, rule: str, detail: str) -> None:
        self.violations.append(Violation(method, path, rule, detail, self._interaction_of_path(path)))
        self._notify()

    def _interaction_of_path(self, path: str) -> int | None:
        parts = path.strip("/").split("/")
        token = parts[2] if len(parts) >= 3 and parts[0] in ("interactions", "webhooks") else None
        rec = self._by_token.get(token) if token else None
        return rec.id if rec else None

    def violations_for(self, interaction_id: int) -> list[Violation]:
        return [v for v in self.violations if v.interaction_id == interaction_id]

    def format_violations(self) -> str:
        return "\n".join(str(v) for v in self.violations)

    # ================================================================== gateway
    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(max_msg_size=0, timeout=1.0)
        await ws.prepare(request)
        self._sockets.add(ws)
        session: _Session | None = None
        try:
            await ws.send_str(json.dumps({"op": OP_HELLO, "d": {"heartbeat_interval": 41250}, "s": None, "t": None}))
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    if msg.type == WSMsgType.BINARY:
                        continue
                    break
                payload = json.loads(msg.data)
                op, d = payload.get("op"), payload.get("d")
                if op == OP_HEARTBEAT:
                    await ws.send_str(json.dumps({"op": OP_HEARTBEAT_ACK, "d": None, "s": None, "t": None}))
                elif op == OP_IDENTIFY:
                    session = await self._identify(ws, d)
                elif op == OP_RESUME:
                    session = await self._resume(ws, d)
                elif op == OP_REQUEST_MEMBERS and session is not None and session.intents & INTENT_GUILD_MEMBERS:
                    members = [p.member_object() for p in self.users.values()]
                    members.append(f.member_object(self.bot_user, roles=[str(self.bot_role_id)]))
                    await self._send_dispatch(session, "GUILD_MEMBERS_CHUNK", {
                        "guild_id": str(self.guild_id), "members": members, "chunk_index": 0, "chunk_count": 1,
                        "not_found": [], "nonce": d.get("nonce"),
                    })
                # presence (3) and voice (4) updates are accepted and ignored
        finally:
            self._sockets.discard(ws)
            if session is not None and session.ws is ws:
                session.ws = None
                if self._live.get(session.shard[0]) is session:
                    del self._live[session.shard[0]]
                self._notify()
        return ws

    async def _identify(self, ws: web.WebSocketResponse, d: dict[str, Any]) -> _Session | None:
        self.tokens_seen.add(str(d.get("token")))
        if d.get("token") != self.token:
            self.violate("GATEWAY", "IDENTIFY", "auth", "IDENTIFY with a token that is not the bot's")
            await ws.close(code=4004, message=b"Authentication failed.")
            return None
        shard = tuple(d.get("shard") or (0, 1))
        if not 0 <= int(shard[0]) < int(shard[1]):
            self.violate("GATEWAY", "IDENTIFY", "shard", f"invalid shard {list(shard)}")
            await ws.close(code=4010, message=b"Invalid shard.")
            return None
        others = {s.shard[1] for s in self._live.values() if s.shard[0] != shard[0]}
        if others and others != {int(shard[1])}:
            # sessions of one bot that disagree on the shard count split the guilds wrongly
            self.violate("GATEWAY", "IDENTIFY", "shard-count",
                         f"shard {list(shard)} while other live sessions use shard count {sorted(others)}")
        self.identify_count += 1
        self._shard_count = shard[1]
        session = _Session(secrets.token_hex(16), (int(shard[0]), int(shard[1])), int(d.get("intents") or 0), ws=ws)
        self._sessions[session.session_id] = session
        # the newest session of a shard gets the events; an older connection (a bot process that has not
        # died yet) stays open but receives nothing more
        self._live[session.shard[0]] = session
        owns_guild = self._shard_for_guild() == session.shard[0]
        ready = f.ready_event(session_id=session.session_id, bot_user=self.bot_user,
                              application_id=self.application_id,
                              guild_ids=[self.guild_id] if owns_guild else [],
                              resume_gateway_url=self.gateway_url,
                              shard=list(session.shard) if d.get("shard") else None)
        await self._send_dispatch(session, "READY", ready)
        if owns_guild:
            await self._send_dispatch(session, "GUILD_CREATE",
                                      self.guild_payload(with_members=bool(session.intents & INTENT_GUILD_MEMBERS)))
        self._notify()
        return session

    async def _resume(self, ws: web.WebSocketResponse, d: dict[str, Any]) -> _Session | None:
        session = self._sessions.get(str(d.get("session_id")))
        if session is None:
            await ws.send_str(json.dumps({"op": OP_INVALID_SESSION, "d": False, "s": None, "t": None}))
            return None
        self.resume_count += 1
        session.ws = ws
        self._live[session.shard[0]] = session
        last = int(d.get("seq") or 0)
        for payload in session.buffer:
            if payload["s"] > last:
                await ws.send_str(json.dumps(payload))
        await self._send_dispatch(session, "RESUMED", {"_trace": ["partida-standin"]})
        self._notify()
        return session

    def _shard_for_guild(self) -> int:
        return (self.guild_id >> 22) % max(1, self._shard_count)

    def _event_parts(self, event: str, data: Any) -> list[tuple[str, str, Any]]:
        """(where, spec schema, object) for the spec-described objects inside a gateway event."""
        channel_schema = {f.GUILD_TEXT: "GuildChannelResponse", f.DM: "PrivateChannelResponse",
                          f.PUBLIC_THREAD: "ThreadResponse", f.PRIVATE_THREAD: "ThreadResponse"}
        parts: list[tuple[str, str, Any]] = []
        if event == "READY":
            parts.append(("user", "UserPIIResponse", data["user"]))
        elif event == "GUILD_CREATE":
            parts += [(f"roles.{i}", "GuildRoleResponse", r) for i, r in enumerate(data["roles"])]
            parts += [(f"members.{i}", "GuildMemberResponse", m) for i, m in enumerate(data["members"])]
            parts += [(f"channels.{i}", "GuildChannelResponse", c) for i, c in enumerate(data["channels"])]
            parts += [(f"threads.{i}", "ThreadResponse", c) for i, c in enumerate(data["threads"])]
        elif event == "INTERACTION_CREATE":
            if "member" in data:
                parts.append(("member", "GuildMemberResponse", data["member"]))
            if "user" in data:
                parts.append(("user", "UserResponse", data["user"]))
            parts.append(("channel", channel_schema[data["channel"]["type"]], data["channel"]))
            if "message" in data:
                parts.append(("message", "MessageResponse", data["message"]))
        elif event in ("MESSAGE_CREATE",):
            parts.append(("", "MessageResponse", {k: v for k, v in data.items() if k not in ("guild_id", "member")}))
        elif event in ("THREAD_CREATE", "CHANNEL_CREATE"):
            parts.append(("", channel_schema[data["type"]], data))
        return parts

    def _self_check_event(self, event: str, data: Any) -> None:
        from .spec import describe, explain, response_validator

        for where, schema, obj in self._event_parts(event, data):
            validator = self._event_validators.get(schema)
            if validator is None:
                validator = self._event_validators[schema] = response_validator(schema)
            errors = list(validator.iter_errors(obj))
            if errors:
                err = explain(errors)
                path = ".".join([where, *map(str, err.absolute_path)]).strip(".")
                self.violate("GATEWAY", event, "standin-event", f"{path}: {describe(err)}")

    async def _send_dispatch(self, session: _Session, event: str, data: Any) -> None:
        if self.check_responses and self.checker is not None:
            self._self_check_event(event, data)
        session.seq += 1
        payload = {"op": OP_DISPATCH, "t": event, "s": session.seq, "d": data}
        session.buffer.append(payload)
        if len(session.buffer) > 500:
            del session.buffer[:100]
        if session.ws is not None and not session.ws.closed:
            with contextlib.suppress(ConnectionError, RuntimeError):
                await session.ws.send_str(json.dumps(payload))

    async def dispatch(self, event: str, data: Any, *, guild: bool = True, timeout: float = 5.0,
                       intent: int = 0, shard: int | None = None) -> bool:
        """Send a gateway event to the shard that owns the guild (or shard 0 for DMs).

        Waits up to ``timeout`` for a connection (a restarting bot). With ``intent``, the event is
        only delivered when the bot identified with that intent; returns whether it was delivered.
        ``shard``: deliver there instead (a load test standing for many guilds spread over shards).
        """
        if shard is None:
            shard = self._shard_for_guild() if guild else 0
        await self.wait_until(lambda: shard in self._live, timeout, f"a gateway connection for shard {shard}")
        session = self._live[shard]
        if intent and not session.intents & intent:
            return False
        await self._send_dispatch(session, event, data)
        self.delivered[shard] = self.delivered.get(shard, 0) + 1
        return True

    def _dispatch_soon(self, event: str, data: Any, *, guild: bool = True, intent: int = 0) -> None:
        with contextlib.suppress(RuntimeError):
            asyncio.get_running_loop().create_task(self.dispatch(event, data, guild=guild, intent=intent))

    async def drop_connection(self, code: int = 4000) -> None:
        """Close the live gateway sockets abruptly; discord.py will RESUME."""
        for session in list(self._live.values()):
            if session.ws is not None:
                await session.ws.close(code=code)

    async def request_reconnect(self) -> None:
        for session in list(self._live.values()):
            if session.ws is not None:
                await session.ws.send_str(json.dumps({"op": OP_RECONNECT, "d": None, "s": None, "t": None}))

    # ------------------------------------------------------------------ running a client in-process
    async def run_client(self, client: Any, *, timeout: float = 5.0) -> asyncio.Task[Any]:
        """Start a discord.py client against the stand-in and wait until it has its guild."""
        task = asyncio.create_task(client.start(self.token), name="standin-client")
        self._clients.append((client, task))
        try:
            await self.wait_until(lambda: bool(self._live) or task.done(), timeout, "the bot to connect")
        except TimeoutError:
            task.cancel()
            raise
        if task.done():
            task.result()  # re-raises the start-up error
        return task

    # ================================================================== interactions (sent by persons)
    def new_interaction(self, person: Any, itype: int, data: dict[str, Any], channel_id: int,
                        message: Message | None = None) -> InteractionRecord:
        iid = f.snowflake()
        token = f"standin.{iid}.{secrets.token_urlsafe(24)}"
        channel = self.channels[channel_id]
        in_guild = channel["type"] != f.DM
        payload: dict[str, Any] = {
            "id": str(iid),
            "application_id": str(self.application_id),
            "type": itype,
            "token": token,
            "version": 1,
            "locale": person.locale,
            "app_permissions": str(f.BOT_PERMISSIONS),
            "entitlements": [],
            "entitlement_sku_ids": [],
            "attachment_size_limit": f.ATTACHMENT_SIZE_LIMIT,
            "channel_id": str(channel_id),
            "channel": channel,
        }
        if data is not None:
            payload["data"] = data
        if in_guild:
            payload.update({
                "guild_id": str(self.guild_id),
                "guild": {"id": str(self.guild_id), "locale": self.guild_locale, "features": []},
                "guild_locale": self.guild_locale,
                "member": person.member_object(permissions=person.permissions),
                "context": 0,
                "authorizing_integration_owners": {"0": str(self.guild_id)},
            })
        else:
            payload.update({
                "user": person.user_object(),
                "context": 1,
                "authorizing_integration_owners": {"0": "0"},
            })
        if message is not None:
            payload["message"] = message.raw
        rec = InteractionRecord(iid, token, itype, person.id, channel_id, self.guild_id if in_guild else None,
                                payload, self.now(), source_message_id=message.id if message else None)
        self.interactions[iid] = rec
        self._by_token[token] = rec
        return rec

    async def send_interaction(self, rec: InteractionRecord, *, shard: int | None = None, timeout: float = 5.0) -> None:
        rec.created_at = self.now()
        rec.shard = self.shard_for(rec.guild_id is not None) if shard is None else shard
        await self.dispatch("INTERACTION_CREATE", rec.payload, guild=rec.guild_id is not None, shard=rec.shard,
                            timeout=timeout)
        rec.created_at = self.now()

    async def send_user_message(self, person: Any, channel_id: int, content: str) -> tuple[Message, bool]:
        """A person posts; returns (message, delivered to the bot?). Honours the bot's intents: no
        GUILD_MESSAGES/DIRECT_MESSAGES -> no event; no MESSAGE_CONTENT -> empty content in guilds
        unless the bot is mentioned."""
        channel = self.channels[channel_id]
        in_guild = channel["type"] != f.DM
        mid = f.snowflake()
        mentions = [self.bot_user] if f"<@{self.bot_id}>" in content else []
        raw = f.message_object(message_id=mid, channel_id=channel_id, author=person.user_object(), content=content)
        raw["mentions"] = mentions
        msg = Message(mid, channel_id, raw, author_id=person.id)
        self._store(msg)
        event = dict(raw)
        if in_guild:
            event["guild_id"] = str(self.guild_id)
            member = person.member_object()
            member.pop("user")
            event["member"] = member
        shard = self._shard_for_guild() if in_guild else 0
        await self.wait_until(lambda: shard in self._live, 5.0, f"a gateway connection for shard {shard}")
        intents = self._live[shard].intents
        if in_guild and not intents & INTENT_MESSAGE_CONTENT and not mentions:
            event.update(content="", embeds=[], attachments=[], components=[])
        needed = INTENT_GUILD_MESSAGES if in_guild else INTENT_DIRECT_MESSAGES
        delivered = await self.dispatch("MESSAGE_CREATE", event, guild=in_guild, intent=needed)
        return msg, delivered

    # ================================================================== HTTP
    def _install_routes(self) -> None:
        r = self._router.add
        r("GET", "/gateway", self._h_gateway)
        r("GET", "/gateway/bot", self._h_gateway)
        r("GET", "/users/@me", self._h_me)
        r("GET", "/applications/@me", self._h_application)
        r("GET", "/oauth2/applications/@me", self._h_application)
        r("PUT", "/applications/{application_id}/commands", self._h_put_commands)
        r("GET", "/applications/{application_id}/commands", self._h_get_commands)
        r("PUT", "/applications/{application_id}/guilds/{guild_id}/commands", self._h_put_commands)
        r("GET", "/applications/{application_id}/guilds/{guild_id}/commands", self._h_get_commands)
        r("POST", "/interactions/{interaction_id}/{interaction_token}/callback", self._h_callback)
        r("POST", "/webhooks/{webhook_id}/{webhook_token}", self._h_followup)
        for method in ("GET", "PATCH", "DELETE"):
            r(method, "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}", self._h_webhook_message)
        r("POST", "/users/@me/channels", self._h_create_dm)
        r("GET", "/channels/{channel_id}", self._h_get_channel)
        r("POST", "/channels/{channel_id}/messages", self._h_create_message)
        r("GET", "/channels/{channel_id}/messages", self._h_list_messages)
        r("GET", "/channels/{channel_id}/messages/{message_id}", self._h_get_message)
        r("PATCH", "/channels/{channel_id}/messages/{message_id}", self._h_edit_message)
        r("DELETE", "/channels/{channel_id}/messages/{message_id}", self._h_delete_message)
        r("POST", "/channels/{channel_id}/threads", self._h_create_thread)
        r("POST", "/channels/{channel_id}/messages/{message_id}/threads", self._h_create_thread)
        r("POST", "/channels/{channel_id}/typing", self._h_typing)
        r("PUT", "/channels/{channel_id}/thread-members/{user_id}", self._h_thread_member)
        r("PUT", "/channels/{channel_id}/thread-members/@me", self._h_thread_member)
        r("DELETE", "/channels/{channel_id}/thread-members/{user_id}", self._h_thread_member)
        r("PATCH", "/channels/{channel_id}", self._h_edit_channel)
        r("DELETE", "/channels/{channel_id}", self._h_delete_channel)
        r("GET", "/users/{user_id}", self._h_get_user)
        r("GET", "/guilds/{guild_id}", self._h_get_guild)
        r("GET", "/guilds/{guild_id}/members/{user_id}", self._h_get_member)
        r("GET", "/guilds/{guild_id}/channels", self._h_guild_channels)

    async def _read_body(self, request: web.Request) -> tuple[Any, list[tuple[str, str, bytes]], str | None]:
        """(json body or None, [(field, filename, bytes)], parse error)."""
        ctype = request.content_type
        files: list[tuple[str, str, bytes]] = []
        if ctype == "multipart/form-data":
            body = None
            reader = await request.multipart()
            async for part in reader:
                data = await part.read(decode=False)
                if part.name == "payload_json":
                    try:
                        body = json.loads(data)
                    except ValueError as exc:
                        return None, files, f"payload_json is not JSON: {exc}"
                elif part.filename is not None or (part.name or "").startswith("files["):
                    files.append((part.name or "", part.filename or "", bytes(data)))
                else:
                    return None, files, f"unexpected multipart field {part.name!r}"
            return body, files, None
        raw = await request.read()
        if not raw:
            return None, files, None
        if ctype != "application/json":
            return None, files, f"unsupported Content-Type {ctype!r}"
        try:
            return json.loads(raw), files, None
        except ValueError as exc:
            return None, files, f"body is not JSON: {exc}"

    async def _http(self, request: web.Request) -> web.StreamResponse:
        method = request.method
        path = "/" + request.match_info["tail"]
        body, files, parse_error = await self._read_body(request)
        response = await self._handle(request, method, path, body, files, parse_error)
        self.requests.append((method, path, response.status))
        self._notify()
        return response

    def fail_next(self, method: str, path: str, status: int, times: int = 1, retry_after: float = 1.0) -> None:
        """Answer the next ``times`` requests matching ``method`` and the ``path`` regex (e.g.
        ``r"/channels/\\d+/messages"``) with ``status``: a 5xx like Discord's servers do, or a 429
        with ``retry_after`` seconds (body and headers as Discord sends them). Nothing is created."""
        self.faults.append([method.upper(), re.compile(path), status, times, retry_after])

    def dm_path(self, person: Any) -> str:
        """The path regex of messages sent to ``person``'s DM channel (for ``fail_next``)."""
        return rf"^/channels/{self.dm_channel_for(person)}/messages$"

    def _injected(self, method: str, path: str) -> web.Response | None:
        for fault in self.faults:
            fm, pattern, status, left, retry_after = fault
            if left > 0 and fm == method and pattern.search(path):
                fault[3] -= 1
                if status == 429:
                    body = {"message": "You are being rate limited.", "retry_after": retry_after, "global": False}
                    return web.Response(status=429, body=json.dumps(body).encode(), headers={
                        "Content-Type": "application/json", "Retry-After": str(int(retry_after + 0.999)), "X-RateLimit-Scope": "user", "Via": "1.1 google",
                        "X-RateLimit-Limit": "5", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset-After": str(retry_after),
                        "X-RateLimit-Bucket": "standin-bucket",
                    })
                return json_response({"message": "Service Unavailable", "code": 0}, status)
        return None

    async def _handle(self, request: web.Request, method: str, path: str, body: Any,
                      files: list[tuple[str, str, bytes]], parse_error: str | None) -> web.StreamResponse:
        injected = self._injected(method, path)
        if injected is not None:
            return injected
        if parse_error:
            self.violate(method, path, "body", parse_error)
            return error_response(400, 50109, "The request body contains invalid JSON.")
        problems: list[Problem] = []
        rule = "spec"
        if self.checker is not None:
            self.checked_requests += 1
            template = self.checker.match(path)
            if template is None:
                problems.append(Problem("", f"{path} is not a route in the spec"))
            else:
                problems += self.checker.check_body(template, method, body)
        else:
            problems += extra_limits(body)
        problems += file_problems(files)
        if problems:
            for p in problems:
                self.violate(method, path, rule, str(p))
            return error_response(400, 50035, "Invalid Form Body", _errors_from_problems(problems))
        if not path.startswith(("/interactions/", "/webhooks/")):
            auth = request.headers.get("Authorization")
            if auth != f"Bot {self.token}":
                self.violate(method, path, "auth", f"Authorization header {auth!r} is not 'Bot <token>'")
                return error_response(401, 0, "401: Unauthorized")
        found = self._router.match(method, path)
        if found is None:
            self.violate(method, path, "unsupported", "the stand-in does not implement this route")
            return error_response(404, 0, "404: Not Found")
        handler, params, _template = found
        try:
            response = await handler(request, body, files, **params)
            if self.check_responses and self.checker is not None and response.status in (200, 201):
                template = self.checker.match(path)
                shape = self.checker.check_response(template, method, response.status, json.loads(response.body))
                for p in shape:
                    self.violate(method, path, "standin-response", str(p))
            return response
        except StandInError as exc:
            if exc.rule:
                self.violate(method, path, exc.rule, exc.message)
            return error_response(exc.status, exc.code, exc.message, exc.errors)

    # ------------------------------------------------------------------ simple routes
    async def _h_gateway(self, request: web.Request, body: Any, files: Any) -> web.Response:
        return json_response({"url": self.gateway_url, "shards": self.recommended_shards, "session_start_limit": {
            "total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}})

    async def _h_me(self, request: web.Request, body: Any, files: Any) -> web.Response:
        self.tokens_seen.add(request.headers.get("Authorization", ""))
        return json_response({**self.bot_user, "verified": True, "mfa_enabled": False, "locale": "en-US",
                              "email": None})

    async def _h_application(self, request: web.Request, body: Any, files: Any) -> web.Response:
        return json_response({
            "id": str(self.application_id), "name": "PartidaBot", "icon": None, "description": "", "type": None,
            "bot": self.bot_user, "bot_public": True, "bot_require_code_grant": False, "verify_key": "0" * 64,
            "flags": 0, "flags_new": "0", "redirect_uris": [], "interactions_endpoint_url": None,
            "role_connections_verification_url": None,
            "owner": f.user_object(self.owner_id, "owner"), "approximate_guild_count": 1,
            "approximate_user_install_count": 0, "approximate_user_authorization_count": 0,
            "explicit_content_filter": 0, "team": None, "eligible_oauth2_scopes": [], "summary": "",
            "rpc_origins": [], "tags": [],
        })

    def _check_app(self, application_id: str) -> None:
        if int(application_id) != self.application_id:
            raise StandInError(404, 10002, "Unknown Application", rule="wrong-application")

    async def _h_put_commands(self, request: web.Request, body: Any, files: Any, application_id: str,
                              guild_id: str | None = None) -> web.Response:
        self._check_app(application_id)
        if guild_id is not None and int(guild_id) != self.guild_id:
            raise StandInError(403, 50001, "Missing Access (the bot is not in that guild)", rule="unknown-guild")
        existing = {c["name"]: c for c in (self.guild_commands.get(int(guild_id), []) if guild_id
                                          else self.global_commands)}
        out = []
        for cmd in body or []:
            old = existing.get(cmd["name"])
            full = {
                "type": 1, "options": [], "default_member_permissions": None, "nsfw": False,
                "integration_types": [0], "contexts": None, "dm_permission": True,
                "name_localizations": None, "description_localizations": None,
                **{k: v for k, v in cmd.items() if v is not None},
                "id": old["id"] if old else str(f.snowflake()),
                "application_id": str(self.application_id),
                "version": str(f.snowflake()),
            }
            if guild_id:
                full["guild_id"] = str(guild_id)
            out.append(full)
        if guild_id:
            self.guild_commands[int(guild_id)] = out
        else:
            self.global_commands = out
        self.command_syncs += 1
        return json_response(out)

    async def _h_get_commands(self, request: web.Request, body: Any, files: Any, application_id: str,
                              guild_id: str | None = None) -> web.Response:
        self._check_app(application_id)
        return json_response(self.guild_commands.get(int(guild_id), []) if guild_id else self.global_commands)

    async def _h_typing(self, request: web.Request, body: Any, files: Any, channel_id: str) -> web.Response:
        self._channel(channel_id)
        return web.Response(status=204)

    async def _h_thread_member(self, request: web.Request, body: Any, files: Any, channel_id: str,
                               user_id: str = "@me") -> web.Response:
        channel = self._channel(channel_id)
        if channel["type"] not in (f.PUBLIC_THREAD, f.PRIVATE_THREAD):
            raise StandInError(400, 50024, "Cannot execute action on this channel type", rule="not-a-thread")
        uid = self.bot_id if user_id == "@me" else int(user_id)
        if uid != self.bot_id and uid not in self.users:
            raise StandInError(404, 10013, "Unknown User", rule="unknown-user")
        members = self.thread_members.setdefault(int(channel_id), {self.bot_id})
        if request.method == "DELETE":
            members.discard(uid)
        else:
            members.add(uid)
        self._notify()
        return web.Response(status=204)

    async def _h_edit_channel(self, request: web.Request, body: Any, files: Any, channel_id: str) -> web.Response:
        channel = self._channel(channel_id)
        body = body or {}
        if "name" in body and body["name"]:
            channel["name"] = body["name"]
        if "thread_metadata" in channel:
            for key in ("archived", "locked", "auto_archive_duration", "invitable"):
                if body.get(key) is not None:
                    channel["thread_metadata"][key] = body[key]
        self._notify()
        return json_response(channel)

    async def _h_delete_channel(self, request: web.Request, body: Any, files: Any, channel_id: str) -> web.Response:
        channel = self._channel(channel_id)
        del self.channels[int(channel_id)]
        self._notify()
        return json_response(channel)

    async def _h_get_user(self, request: web.Request, body: Any, files: Any, user_id: str) -> web.Response:
        if int(user_id) == self.bot_id:
            return json_response(self.bot_user)
        person = self.users.get(int(user_id))
        if person is None:
            raise StandInError(404, 10013, "Unknown User", rule="unknown-user")
        return json_response(person.user_object())

    def _check_guild(self, guild_id: str) -> None:
        if int(guild_id) != self.guild_id:
            raise StandInError(404, 10004, "Unknown Guild", rule="unknown-guild")

    async def _h_get_guild(self, request: web.Request, body: Any, files: Any, guild_id: str) -> web.Response:
        self._check_guild(guild_id)
        return json_response(f.guild_rest_object(self.guild_payload(with_members=False), len(self.users) + 1))

    async def _h_get_member(self, request: web.Request, body: Any, files: Any, guild_id: str,
                            user_id: str) -> web.Response:
        self._check_guild(guild_id)
        if int(user_id) == self.bot_id:
            return json_response(f.member_object(self.bot_user, roles=[str(self.bot_role_id)]))
        person = self.users.get(int(user_id))
        if person is None:
            # not a violation: the bot may ask about someone who left
            return error_response(404, 10007, "Unknown Member")
        return json_response(person.member_object())

    async def _h_guild_channels(self, request: web.Request, body: Any, files: Any, guild_id: str) -> web.Response:
        self._check_guild(guild_id)
        return json_response([c for c in self.channels.values() if c["type"] == f.GUILD_TEXT])

    # ------------------------------------------------------------------ channels & messages
    def _channel(self, channel_id: str | int) -> dict[str, Any]:
        try:
            return self.channels[int(channel_id)]
        except (KeyError, ValueError):
            raise StandInError(404, 10003, "Unknown Channel", rule="unknown-channel") from None

    def _message(self, channel_id: int, message_id: str | int) -> Message:
        try:
            msg = self.messages_by_id[int(message_id)]
        except (KeyError, ValueError):
            raise StandInError(404, 10008, "Unknown Message", rule="unknown-message") from None
        if msg.channel_id != int(channel_id) or msg.deleted:
            raise StandInError(404, 10008, "Unknown Message", rule="unknown-message")
        return msg

    def _store(self, msg: Message) -> None:
        self.messages.setdefault(msg.channel_id, []).append(msg)
        self.messages_by_id[msg.id] = msg
        if msg.channel_id in self.channels:
            self.channels[msg.channel_id]["last_message_id"] = str(msg.id)
        self._notify()

    def _attachments(self, body: dict[str, Any] | None, files: list[tuple[str, str, bytes]],
                     keep: list[Attachment] | None = None) -> list[Attachment] | None:
        """Attachments after a create/edit; None when the body does not mention them and no files came."""
        by_index: dict[int, tuple[str, str, bytes]] = {}
        for fld, filename, data in files:
            m = re.fullmatch(r"files\[(\d+)\]", fld)
            if m is None:
                raise StandInError(400, 50035, f"bad file field {fld!r}", rule="file")
            by_index[int(m.group(1))] = (fld, filename, data)
        declared = (body or {}).get("attachments")
        if declared is None and not files:
            return None
        # without an "attachments" list an edit keeps the existing files and adds the new ones
        result: list[Attachment] = list(keep or []) if declared is None else []
        used: set[int] = set()
        kept = {a.id: a for a in keep or []}
        for entry in declared or []:
            aid = int(entry["id"])
            if aid in by_index and aid not in kept:
                _, filename, data = by_index[aid]
                used.add(aid)
                new_id = f.snowflake()
                name = entry.get("filename") or filename
                raw = f.attachment_object(new_id, name, data, base_url=self.base_url,
                                          description=entry.get("description"))
                result.append(Attachment(new_id, name, data, raw))
            elif aid in kept:
                result.append(kept[aid])
            else:
                raise StandInError(400, 50035, f"attachments: unknown attachment id {aid}", rule="attachments")
        for idx, (_, filename, data) in sorted(by_index.items()):
            if idx not in used:
                if declared is not None:
                    raise StandInError(400, 50035, f"file files[{idx}] is not listed in attachments",
                                       rule="attachments")
                new_id = f.snowflake()
                result.append(Attachment(new_id, filename, data,
                                         f.attachment_object(new_id, filename, data, base_url=self.base_url)))
        if len(result) > 10:
            raise StandInError(400, 50035, "too many attachments", rule="attachments")
        return result

    def _new_message(self, channel_id: int, body: dict[str, Any], files: list[tuple[str, str, bytes]], *,
                     interaction: InteractionRecord | None = None, msg_type: int = 0,
                     extra_flags: int = 0) -> Message:
        body = body or {}
        attachments = self._attachments(body, files) or []
        if not (body.get("content") or body.get("embeds") or body.get("components") or attachments
                or body.get("poll") or body.get("sticker_ids") or extra_flags & LOADING):
            raise StandInError(400, 50006, "Cannot send an empty message", rule="empty-message")
        mid = f.snowflake()
        flags = int(body.get("flags") or 0) | extra_flags
        if flags & IS_COMPONENTS_V2 and (body.get("content") or body.get("embeds") or body.get("poll")):
            raise StandInError(400, 50035, "Invalid Form Body: content, embeds and poll cannot be used with "
                               "IS_COMPONENTS_V2", rule="components-v2")
        metadata = self._interaction_metadata(interaction) if interaction is not None else None
        raw = f.message_object(
            message_id=mid, channel_id=channel_id, author=self.bot_user, content=body.get("content") or "",
            embeds=f.response_embeds(body.get("embeds"), [a.raw for a in attachments]),
            components=self._components(body.get("components"), attachments),
            attachments=[a.raw for a in attachments], flags=flags, msg_type=msg_type,
            application_id=self.application_id if interaction else None,
            webhook_id=self.application_id if interaction else None, interaction_metadata=metadata,
        )
        msg = Message(mid, channel_id, raw, attachments, author_id=self.bot_id,
                      interaction_id=interaction.id if interaction else None,
                      visible_to=interaction.user_id if interaction and flags & EPHEMERAL else None)
        self._store(msg)
        return msg

    def _components(self, components: list[Any] | None, attachments: list[Attachment]) -> list[Any]:
        try:
            return f.response_components(components, [a.raw for a in attachments])
        except f.UnresolvedAttachment as exc:
            raise StandInError(400, 50035, f"Invalid Form Body: {exc}", rule="attachments") from None

    def _interaction_metadata(self, rec: InteractionRecord, nested: bool = True) -> dict[str, Any]:
        metadata: dict[str, Any] = {
            "id": str(rec.id), "type": rec.type,
            "user": self.users[rec.user_id].user_object(),
            "authorizing_integration_owners": rec.payload["authorizing_integration_owners"],
        }
        if rec.type == 3 and rec.source_message_id:
            metadata["interacted_message_id"] = str(rec.source_message_id)
        if rec.type == 5 and nested:
            trigger = self.interactions.get(rec.trigger_id or 0)
            if trigger is not None:
                metadata["triggering_interaction_metadata"] = self._interaction_metadata(trigger, nested=False)
        return metadata

    def _apply_edit(self, msg: Message, body: dict[str, Any] | None, files: list[tuple[str, str, bytes]]) -> None:
        body = body or {}
        atts = self._attachments(body, files, keep=msg.attachments)
        if "content" in body:
            msg.raw["content"] = body["content"] or ""
        if "embeds" in body:
            msg.raw["embeds"] = f.response_embeds(
                body["embeds"], [a.raw for a in (atts if atts is not None else msg.attachments)])
        if "components" in body:
            msg.raw["components"] = self._components(body["components"] or [],
                                                     atts if atts is not None else msg.attachments)
        if "flags" in body and body["flags"] is not None:
            # an edit may toggle SUPPRESS_EMBEDS and switch to components v2, nothing else
            msg.raw["flags"] = (msg.flags & ~4) | (int(body["flags"]) & (4 | IS_COMPONENTS_V2))
        if atts is not None:
            msg.attachments = atts
            msg.raw["attachments"] = [a.raw for a in atts]
        msg.raw["flags"] = msg.flags & ~LOADING
        msg.raw["edited_timestamp"] = f.iso_now()
        msg.edits += 1
        self._notify()

    async def _h_get_channel(self, request: web.Request, body: Any, files: Any, channel_id: str) -> web.Response:
        return json_response(self._channel(channel_id))

    async def _h_create_message(self, request: web.Request, body: Any, files: Any,
                                channel_id: str) -> web.Response:
        channel = self._channel(channel_id)
        if channel["type"] == f.DM:
            recipient = int(channel["recipients"][0]["id"])
            person = self.users.get(recipient)
            if person is None or not person.dms_open:
                # what Discord answers when the user does not accept DMs from the bot (not a stand-in violation)
                return error_response(403, 50007, "Cannot send messages to this user")
        nonce = body.get("nonce") if isinstance(body, dict) and body.get("enforce_nonce") else None
        if nonce is not None:  # Discord: the same nonce within minutes returns the first message
            seen = self._nonces.get((int(channel_id), str(nonce)))
            if seen is not None and self.now() - seen[1] < self.nonce_window:
                return json_response(seen[0].raw)
        if isinstance(body, dict) and body.get("message_reference"):
            ref = body["message_reference"]
            if ref.get("message_id") and int(ref["message_id"]) not in self.messages_by_id:
                raise StandInError(400, 50035, "Unknown message_reference", rule="reference")
        msg = self._new_message(int(channel_id), body, files,
                                msg_type=19 if isinstance(body, dict) and body.get("message_reference") else 0)
        if nonce is not None:
            self._nonces[(int(channel_id), str(nonce))] = (msg, self.now())
        return json_response(msg.raw)

    async def _h_list_messages(self, request: web.Request, body: Any, files: Any, channel_id: str) -> web.Response:
        self._channel(channel_id)
        q = request.query
        limit = int(q.get("limit", "50"))
        if not 1 <= limit <= 100:
            raise StandInError(400, 50035, "limit must be 1..100", rule="spec")
        msgs = sorted((m for m in self.messages.get(int(channel_id), []) if not m.deleted and not m.ephemeral),
                      key=lambda m: m.id)
        if "after" in q:
            picked = [m for m in msgs if m.id > int(q["after"])][:limit]
        elif "around" in q:
            mid, half = int(q["around"]), limit // 2
            older = [m for m in msgs if m.id < mid]
            picked = (older[-half:] if half else []) + [m for m in msgs if m.id >= mid][: limit - half]
        else:
            if "before" in q:
                msgs = [m for m in msgs if m.id < int(q["before"])]
            picked = msgs[-limit:]
        return json_response([m.raw for m in sorted(picked, key=lambda m: m.id, reverse=True)])

    async def _h_get_message(self, request: web.Request, body: Any, files: Any, channel_id: str,
                             message_id: str) -> web.Response:
        self._channel(channel_id)
        return json_response(self._message(int(channel_id), message_id).raw)

    async def _h_edit_message(self, request: web.Request, body: Any, files: Any, channel_id: str,
                              message_id: str) -> web.Response:
        self._channel(channel_id)
        msg = self._message(int(channel_id), message_id)
        if msg.author_id != self.bot_id:
            raise StandInError(403, 50005, "Cannot edit a message authored by another user", rule="edit-foreign")
        if msg.ephemeral:
            raise StandInError(404, 10008, "Unknown Message", rule="edit-ephemeral-via-channel")
        self._apply_edit(msg, body, files)
        return json_response(msg.raw)

    async def _h_delete_message(self, request: web.Request, body: Any, files: Any, channel_id: str,
                                message_id: str) -> web.Response:
        msg = self._message(int(channel_id), message_id)
        msg.deleted = True
        self._notify()
        return web.Response(status=204)

    async def _h_create_dm(self, request: web.Request, body: Any, files: Any) -> web.Response:
        recipient = int((body or {}).get("recipient_id") or 0)
        person = self.users.get(recipient)
        if person is None:
            raise StandInError(400, 50033, "Invalid Recipient(s)", rule="unknown-user")
        cid = self.dm_channels.get(recipient)
        if cid is None:
            cid = f.snowflake()
            self.channels[cid] = f.dm_channel_object(cid, person.user_object())
            self.messages[cid] = []
            self.dm_channels[recipient] = cid
        return json_response(self.channels[cid])

    async def _h_create_thread(self, request: web.Request, body: Any, files: Any, channel_id: str,
                               message_id: str | None = None) -> web.Response:
        parent = self._channel(channel_id)
        if parent["type"] != f.GUILD_TEXT:
            raise StandInError(400, 50024, "Cannot execute action on this channel type", rule="thread-parent")
        body = body or {}
        if message_id is not None:
            msg = self._message(int(channel_id), message_id)
            if any(int(c.get("id", 0)) == msg.id for c in self.threads()):
                raise StandInError(400, 160004, "A thread has already been created for this message",
                                   rule="thread-twice")
            thread_id = msg.id
            private = False
        else:
            thread_id = f.snowflake()
            private = body.get("type") == f.PRIVATE_THREAD
        thread = f.thread_object(thread_id, self.guild_id, int(channel_id), body["name"], self.bot_id,
                                 private=private, auto_archive_duration=body.get("auto_archive_duration") or 1440)
        self.channels[thread_id] = thread
        self.messages.setdefault(thread_id, [])
        self.thread_members[thread_id] = {self.bot_id}
        if message_id is not None:
            self.messages_by_id[int(message_id)].raw["thread"] = thread
        member = {"id": str(thread_id), "user_id": str(self.bot_id), "join_timestamp": f.iso_now(), "flags": 0}
        event = {**thread, "newly_created": True, "member": member}
        with contextlib.suppress(TimeoutError):
            await self.dispatch("THREAD_CREATE", event, timeout=0.5, intent=INTENT_GUILDS)
        self._notify()
        return json_response({**thread, "member": member}, 201)

    # ------------------------------------------------------------------ interaction callbacks
    def _interaction(self, token: str) -> InteractionRecord:
        rec = self._by_token.get(token)
        if rec is None:
            raise StandInError(404, 10062, "Unknown interaction", rule="unknown-interaction")
        return rec

    async def _h_callback(self, request: web.Request, body: Any, files: Any, interaction_id: str,
                          interaction_token: str) -> web.Response:
        rec = self._interaction(interaction_token)
        if int(interaction_id) != rec.id:
            raise StandInError(404, 10062, "Unknown interaction", rule="unknown-interaction")
        if rec.initial_type is not None:
            raise StandInError(400, 40060, "Interaction has already been acknowledged.", rule="duplicate-response")
        elapsed = self.now() - rec.created_at
        if elapsed > self.initial_response_limit:
            raise StandInError(404, 10062, f"Unknown interaction (initial response {elapsed:.2f}s after "
                               f"INTERACTION_CREATE; the limit is {self.initial_response_limit:.2f}s)", rule="timing")
        rtype = int(body["type"])
        data = body.get("data") or {}
        allowed = {2: {4, 5, 9}, 3: {4, 5, 6, 7, 9}, 4: {8}, 5: {4, 5, 6, 7}}[rec.type]
        if rtype not in allowed:
            raise StandInError(400, 40043, f"Interaction response type {rtype} is not valid for an interaction of "
                               f"type {rec.type}", rule="response-type")
        if rtype == 7 and rec.type == 5 and rec.source_message_id is None:
            raise StandInError(400, 40043, "UPDATE_MESSAGE needs a modal opened from a component", rule="response-type")
        result: dict[str, Any] = {"interaction": {"id": str(rec.id), "type": rec.type}}
        if rtype in (4, 5):
            flags = int(data.get("flags") or 0) & EPHEMERAL
            if rtype == 4:
                msg = self._new_message(rec.channel_id, data, files, interaction=rec,
                                        msg_type=20 if rec.type == 2 else 0)
            else:
                msg = self._new_message(rec.channel_id, {"flags": flags}, [], interaction=rec,
                                        msg_type=20 if rec.type == 2 else 0, extra_flags=LOADING)
            rec.original = msg
            result["interaction"].update({"response_message_id": str(msg.id),
                                          "response_message_loading": rtype == 5,
                                          "response_message_ephemeral": msg.ephemeral})
            if rtype == 4:
                result["resource"] = {"type": 4, "message": msg.raw}
        elif rtype in (6, 7):
            source = self.messages_by_id.get(rec.source_message_id or 0)
            if source is None:
                raise StandInError(400, 40043, "No message to update", rule="response-type")
            rec.original = source
            if rtype == 7:
                self._apply_edit(source, data, files)
                result["resource"] = {"type": 7, "message": source.raw}
            result["interaction"].update({"response_message_id": str(source.id),
                                          "response_message_loading": False,
                                          "response_message_ephemeral": source.ephemeral})
        elif rtype == 8:
            rec.choices = list(data.get("choices") or [])
        elif rtype == 9:
            rec.modal = data
        rec.initial_type, rec.initial_data, rec.initial_at = rtype, body, self.now()
        self._notify()
        if request.query.get("with_response", "").lower() in ("1", "true"):
            return json_response(result)
        return web.Response(status=204)

    def _webhook_interaction(self, webhook_id: str, token: str) -> InteractionRecord:
        if int(webhook_id) != self.application_id:
            raise StandInError(404, 10015, "Unknown Webhook", rule="unknown-webhook")
        rec = self._interaction(token)
        if self.now() - rec.created_at > self.followup_limit:
            raise StandInError(401, 50027, "Invalid Webhook Token (interaction token older than 15 minutes)",
                               rule="timing")
        if rec.initial_type is None:
            raise StandInError(404, 10015, "Unknown Webhook (no initial response yet)", rule="followup-before-ack")
        return rec

    async def _h_followup(self, request: web.Request, body: Any, files: Any, webhook_id: str,
                          webhook_token: str) -> web.Response:
        rec = self._webhook_interaction(webhook_id, webhook_token)
        if rec.initial_type in (8, 9) and rec.type != 3:
            raise StandInError(400, 40043, "follow-up without a message response", rule="response-type")
        if rec.initial_type == 5 and rec.original is not None and rec.original.loading:
            # Discord: the first follow-up after a deferred response replaces the "thinking..." message
            self._apply_edit(rec.original, body, files)
            msg = rec.original
        else:
            msg = self._new_message(rec.channel_id, body, files, interaction=rec)
            rec.followups.append(msg)
        self._notify()
        if request.query.get("wait", "").lower() in ("1", "true"):
            return json_response(msg.raw)
        return web.Response(status=204)

    async def _h_webhook_message(self, request: web.Request, body: Any, files: Any, webhook_id: str,
                                 webhook_token: str, message_id: str) -> web.Response:
        rec = self._webhook_interaction(webhook_id, webhook_token)
        if message_id == "@original":
            msg = rec.original
            if msg is None:
                raise StandInError(404, 10008, "Unknown Message", rule="unknown-message")
        else:
            msg = next((m for m in [rec.original, *rec.followups] if m is not None and m.id == int(message_id)),
                       None)
            if msg is None:
                raise StandInError(404, 10008, "Unknown Message", rule="unknown-message")
        if msg.deleted:
            raise StandInError(404, 10008, "Unknown Message", rule="unknown-message")
        if request.method == "GET":
            return json_response(msg.raw)
        if request.method == "DELETE":
            msg.deleted = True
            self._notify()
            return web.Response(status=204)
        self._apply_edit(msg, body, files)
        return json_response(msg.raw)

    async def _get_attachment(self, request: web.Request) -> web.StreamResponse:
        aid = int(request.match_info["aid"])
        for msg in self.messages_by_id.values():
            for a in msg.attachments:
                if a.id == aid:
                    return web.Response(body=a.data)
        return web.Response(status=404)
