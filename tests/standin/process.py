"""Running a bot in a separate OS process against the stand-in (start, SIGKILL, restart)."""

from __future__ import annotations

import asyncio
import os
import signal
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from .server import StandIn


class BotProcess:
    """``argv`` is started with the stand-in's environment (PARTIDA_DISCORD_API, PARTIDA_DISCORD_GATEWAY,
    PARTIDA_DISCORD_TOKEN) added to ``env`` (default: this process's environment). Output goes to
    ``log_path`` (read it with :meth:`log` when something fails). ``shards``: the gateway shards this
    process serves (one of several processes of a sharded bot): start waits for those, kill for them
    to drop; None: any (a single process)."""

    def __init__(self, standin: StandIn, argv: Sequence[str], *, env: Mapping[str, str] | None = None,
                 cwd: str | os.PathLike[str] | None = None, shards: Sequence[int] | None = None) -> None:
        self.shards = None if shards is None else list(shards)
        self.standin = standin
        self.argv = list(argv)
        self.env = {**(os.environ if env is None else env), **standin.env()}
        self.cwd = cwd
        fd, name = tempfile.mkstemp(prefix="standin-bot-", suffix=".log")
        os.close(fd)
        self.log_path = Path(name)
        self.proc: asyncio.subprocess.Process | None = None
        self.starts = 0

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.returncode is None

    async def start(self, timeout: float = 15.0) -> None:
        """Start the process and wait until it identified (fresh session) on the gateway."""
        if self.running:
            raise RuntimeError("bot process already running")
        before = self.standin.identify_count
        with open(self.log_path, "ab") as out:
            self.proc = await asyncio.create_subprocess_exec(
                *self.argv, env=self.env, cwd=self.cwd, stdout=out, stderr=asyncio.subprocess.STDOUT,
                stdin=asyncio.subprocess.DEVNULL)
        self.starts += 1
        try:
            await self.standin.wait_until(
                lambda: (self.standin.identify_count > before and self._connected()) or not self.running,
                timeout, "the bot process to connect")
        except TimeoutError as exc:
            await self.kill()
            raise TimeoutError(f"{exc}\n--- bot log ---\n{self.log()[-4000:]}") from None
        if not self.running:
            raise RuntimeError(f"bot process exited with {self.proc.returncode}\n--- bot log ---\n{self.log()[-4000:]}")

    def _connected(self) -> bool:
        live = self.standin._live
        return bool(live) if self.shards is None else set(self.shards) <= set(live)

    async def kill(self, timeout: float = 5.0) -> None:
        """SIGKILL (no clean shutdown) and wait until the stand-in sees the gateway connection drop."""
        if self.proc is None:
            return
        if self.proc.returncode is None:
            self.proc.send_signal(signal.SIGKILL)
            await self.proc.wait()
        await self.standin.wait_disconnected(timeout, self.shards)

    async def terminate(self, timeout: float = 5.0) -> int | None:
        """SIGTERM and wait for a clean exit (SIGKILL after ``timeout``)."""
        if self.proc is None or self.proc.returncode is not None:
            return None if self.proc is None else self.proc.returncode
        self.proc.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(self.proc.wait(), timeout)
        except TimeoutError:
            self.proc.kill()
            await self.proc.wait()
        return self.proc.returncode

    async def restart(self, timeout: float = 15.0) -> None:
        await self.kill()
        await self.start(timeout)

    async def __aenter__(self) -> BotProcess:
        await self.start()
        return self

    async def __aexit__(self, *exc: Any) -> None:
        if self.running:
            await self.kill()
        self.log_path.unlink(missing_ok=True)
