"""The Discord client: start-up (store, services, cogs, the job scheduler) and shutdown."""

from __future__ import annotations

import asyncio
import gc
import logging
import sys
import time
from datetime import timedelta
from typing import Any

import aiohttp
import discord
import yarl
from discord.ext import commands

from ..core.abuse import PersonalMessages
from ..core.health import beat
from ..core.service import MatchService, timing
from ..core.settings import Settings, SettingsError
from ..core.timers import Timers
from ..store import open_store
from . import components
from .after_move import AfterMove
from .commands import parse_options, playable_games  # noqa: F401  (re-exported)
from .flows import Flows, handle_error
from .posting import ALLOWED, Presenter
from .ratelimit import TokenBucket, limit_http
from .table_ui import TableFlows
from .timer_jobs import ReclaimButton
from .translator import Translator
from .wiring import Jobs, wire

log = logging.getLogger(__name__)


async def watch_loop(interval: float = 0.005, report_ms: float = 5.0) -> None:
    """Log (timing, DEBUG) every time the event loop was late by more than ``report_ms``, with the
    CPU time the loop's own thread used meanwhile (busy_ms: work done on the loop; the rest of the
    stall is waiting for the GIL or for the CPU)."""
    loop = asyncio.get_running_loop()
    last, cpu = loop.time(), time.thread_time()
    while True:
        await asyncio.sleep(interval)
        now, now_cpu = loop.time(), time.thread_time()
        late = (now - last - interval) * 1000
        if late > report_ms:
            timing.debug("stall_ms=%.1f busy_ms=%.1f at=%.3f", late, (now_cpu - cpu) * 1000, time.time())
        last, cpu = now, now_cpu


def settle_heap() -> None:
    """Leave what start-up built (modules, classes, discord.py's and pydantic's tables: ~65,000
    objects) out of every later garbage collection. A full collection holds the GIL while it
    walks every tracked object; in a busy process (a marathon table's moves allocate a state's worth
    of objects each) one came every ~0.7 s and took 50-60 ms of CPU, 90-115 ms on the loop's clock
    (bench/bot.py). After this a full collection walks only what the matches hold. For the process
    that runs the bot (``run``), not for a test process that builds a client among its own objects."""
    gc.collect()
    gc.freeze()


class Partida(commands.AutoShardedBot):
    """The bot: the store, the match service, what it shows (``present``), what clicks do
    (``flows``), the work after moves (``after``: jobs and their scheduler), the commands (cogs in
    the ``bot.discord.commands`` extension).

    Sharded (``SHARD_COUNT``/``SHARD_IDS``; unset: Discord's recommended count, all in this process):
    a process answers every interaction its shards receive, whatever match it touches (the store's
    compare-and-set decides between processes), and its scheduler claims jobs of every match."""

    def __init__(
        self, settings: Settings, store: Any = None, clock: Any = None, settle: bool = False, **kwargs: Any,
    ) -> None:
        self.settle = settle  # the process is ours (``run``): settle the heap once set up (settle_heap)
        intents = discord.Intents.none()
        intents.guilds = True
        # a 429 asking to wait longer than this is not slept on inside a request: the job is
        # rescheduled for after retry_after instead (discord.py's minimum is 30 s)
        kwargs.setdefault("max_ratelimit_timeout", 30.0)
        kwargs.setdefault("shard_count", settings.shard_count)
        kwargs.setdefault("shard_ids", settings.shard_list())
        super().__init__(
            command_prefix=commands.when_mentioned, help_command=None, intents=intents, allowed_mentions=ALLOWED, **kwargs
        )
        self.settings = settings
        self.store = store  # opened by run() before connecting, or here in setup_hook
        self.clock = clock  # injectable for tests (None: the real UTC clock)
        self.service: MatchService = None  # type: ignore[assignment]
        self.present: Presenter = None  # type: ignore[assignment]
        self.flows: Flows = None  # type: ignore[assignment]
        self.after: AfterMove = None  # type: ignore[assignment]
        self.messages_limit: PersonalMessages = None  # type: ignore[assignment]
        self.timers: Timers = None  # type: ignore[assignment]
        self.table_flows: TableFlows = None  # type: ignore[assignment]
        self.jobs: Jobs = None  # type: ignore[assignment]
        # this process's share of Discord's global rate limit (interaction answers are exempt)
        limit_http(self.http, TokenBucket(settings.rate_budget()))

    async def setup_hook(self) -> None:
        # hand the GIL back to the event loop every millisecond (default 5) while engine and AI
        # threads work: a click waits at most that long for it
        sys.setswitchinterval(0.001)
        if self.store is None:
            self.store = await open_store(self.settings.database_url)
        self.service = MatchService(self.store, ai_processes=self.settings.ai_processes)
        self.present = Presenter(self, self.service, self.settings.render_processes)
        self.flows = Flows(self, self.service, self.present)
        self.messages_limit = PersonalMessages()  # invite, seat, rematch, vote requests: one budget a person
        self.table_flows = TableFlows(self)
        # the composition root: every job kind registered once, every hook handed in here
        self.jobs = wire(
            self.present, self.service, **({"clock": self.clock} if self.clock else {}),
            lease=timedelta(seconds=self.settings.job_lease_seconds), poll=self.settings.job_poll_seconds,
        )
        self.after, self.timers = self.jobs.after, self.jobs.timers
        await self.timers.sweep()  # turns that began without a clock get one
        await self.jobs.rater.backfill()  # matches that finished before the ratings existed get rated
        self.add_dynamic_items(*components.ALL, ReclaimButton)
        await self.tree.set_translator(Translator())
        self.tree.on_error = handle_error  # anything a cog did not answer
        await self.load_extension("bot.discord.commands")
        if 0 not in (self.shard_ids or [0]):
            pass  # one process syncs the commands: the one with shard 0
        elif self.settings.dev_guild_id:
            guild = discord.Object(self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()
        # the jobs left by the last run (and any planned meanwhile by another process) are picked up
        await self.after.start()
        if self.settle:
            settle_heap()
        if timing.isEnabledFor(logging.DEBUG):  # bench/bot.py: how long the event loop stalls
            self._watch = asyncio.create_task(watch_loop())
        if self.settings.health_file:
            self._health = asyncio.create_task(beat(self, self.settings.health_file), name="partida-health")

    async def on_ready(self) -> None:
        log.info("connected as %s (%s guilds, shards %s of %s)", self.user, len(self.guilds), sorted(self.shards), self.shard_count)

    async def close(self) -> None:
        if getattr(self, "_health", None) is not None:
            self._health.cancel()
        if self.after is not None:
            await self.after.close()  # jobs stop first: they must not post to a closing connection
        if self.present is not None:
            self.present.close()
        if self.service is not None:
            self.service.close()
        await super().close()
        if self.store is not None:
            await self.store.close()


def configure_endpoints(settings: Settings) -> None:
    """Point discord.py at another Discord (the tests' local stand-in)."""
    if settings.partida_discord_api:
        discord.http.Route.BASE = settings.partida_discord_api.rstrip("/")
    if settings.partida_discord_gateway:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.partida_discord_gateway)


async def run(settings: Settings) -> int:
    """Open the store, connect, serve until stopped. Start-up problems are one line, never a traceback."""
    configure_endpoints(settings)
    try:
        store = await open_store(settings.database_url)
    except (OSError, ValueError) as e:
        raise SettingsError(f"DATABASE_URL cannot be opened: {e}") from None
    except Exception as e:  # e.g. asyncpg's errors for a PostgreSQL server that refuses us
        raise SettingsError(f"DATABASE_URL cannot be opened: {type(e).__name__}: {e}") from None
    client = Partida(settings, store=store, settle=True)
    try:
        async with client:
            await client.start(settings.discord_token.get_secret_value())
    except discord.LoginFailure:
        raise SettingsError("Discord refused the token (DISCORD_TOKEN): check it in the developer portal") from None
    except (OSError, aiohttp.ClientError) as e:
        print(f"error: cannot reach Discord: {e}", file=sys.stderr)
        return 1
    return 0
