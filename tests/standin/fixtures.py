"""pytest fixtures for the Discord stand-in. Load with ``pytest_plugins = ["tests.standin.fixtures"]``
(in the root conftest) or import the fixtures into a test module.

- ``standin``: a started :class:`StandIn` with discord.py pointed at it (Route.BASE and
  DiscordWebSocket.DEFAULT_GATEWAY set, restored afterwards). At teardown it closes the clients
  started with ``standin.run_client``, prints how many requests were checked against the spec,
  and FAILS the test if any violation was recorded (``standin.violations`` must be ``[]``;
  tests that provoke violations on purpose assert on them and then clear the list).
- ``bot_process``: a factory ``bot_process(argv, env=None, cwd=None) -> BotProcess`` for bots in
  another OS process (``await p.start()``, ``await p.kill()`` = SIGKILL, ``await p.restart()``);
  every process still running is killed at teardown.
- ``standin_spec``: skips the test when the spec file is absent outside CI (in CI: error).
"""

from __future__ import annotations

import pytest
import pytest_asyncio

from .patching import patch_discord
from .process import BotProcess
from .server import StandIn
from .spec import get_checker, in_ci, spec_path

_totals = {"checked": 0}


def total_checked_requests() -> int:
    """Requests checked against the spec so far in this process (all stand-ins)."""
    return _totals["checked"]


@pytest_asyncio.fixture
async def standin():
    server = StandIn()
    await server.start()
    with patch_discord(server.api_url, server.gateway_url):
        try:
            yield server
        finally:
            await server.stop()
            _totals["checked"] += server.checked_requests
            if server.checker is not None:
                print(f"\n[standin] {server.checked_requests} requests checked against the Discord API spec")
            else:
                print(f"\n[standin] spec not found at {spec_path()}: requests were NOT checked")
    assert server.violations == [], "the bot sent requests Discord would reject:\n" + server.format_violations()


@pytest.fixture
def standin_spec():
    """The shared spec checker; skips when the spec file is absent (never in CI)."""
    checker = get_checker()  # raises in CI when the file is missing
    if checker is None:
        assert not in_ci()
        pytest.skip(f"Discord API spec not found at {spec_path()}")
    return checker


@pytest_asyncio.fixture
async def bot_process(standin):
    made: list[BotProcess] = []

    def make(argv, *, env=None, cwd=None, shards=None) -> BotProcess:
        proc = BotProcess(standin, argv, env=env, cwd=cwd, shards=shards)
        made.append(proc)
        return proc

    try:
        yield make
    finally:
        for proc in made:
            if proc.running:
                proc.proc.kill()
                await proc.proc.wait()
            proc.log_path.unlink(missing_ok=True)
