"""A store outage on a click (the SQLite file locked by someone else past the busy timeout, a full
disk) answers the person in one line in their language ("try again in a moment") and logs one
line without a traceback; nothing is half-written and the next click works (issue 19)."""

from __future__ import annotations

import logging
import sqlite3

import pytest

from bot.core.settings import load_settings
from bot.discord.client import Partida
from bot.store.sqlite import SqliteStore


class FullDisk(SqliteStore):
    """A SQLite store whose disk fills up when the test says so (what SQLite then raises)."""

    full = False

    async def update(self, *args, **kwargs):
        if self.full:
            raise sqlite3.OperationalError("database or disk is full")
        return await super().update(*args, **kwargs)


def outage_records(caplog):
    return [r for r in caplog.records if r.levelno >= logging.WARNING and r.name.startswith("bot")]


async def test_a_locked_database_on_a_click_is_one_line_try_again(standin, tmp_path, caplog):
    path = tmp_path / "o.sqlite3"
    client = Partida(load_settings(render_processes=0, discord_token=standin.token, database_url=f"sqlite:///{path}?busy_timeout=300"))
    await standin.run_client(client)
    await standin.wait_commands()
    ana, ben = standin.user("ana"), standin.user("ben", locale="es-ES")
    r = await ana.slash("general", "partida new", game="lost-cities")
    lobby = r.message
    other = sqlite3.connect(path, isolation_level=None)  # another program holds the write lock
    other.execute("BEGIN IMMEDIATE")
    caplog.clear()
    caplog.set_level(logging.INFO)
    try:
        r = await ben.click(lobby, label="Join")
        await r.wait_followups(1, timeout=10)
        text = r.followups[-1].content
        assert r.followups[-1].ephemeral and "\n" not in text and "inténtalo de nuevo en un momento" in text, text
    finally:
        other.execute("ROLLBACK")
        other.close()
    logged = outage_records(caplog)
    assert len(logged) == 1 and logged[0].exc_info is None and "database is locked" in logged[0].getMessage(), [x.getMessage() for x in logged]
    assert ben.mention not in standin.messages_by_id[lobby.id].content  # nothing was half-written
    await ben.click(standin.messages_by_id[lobby.id], label="Join")  # the store is back: it works
    await standin.wait_until(lambda: ben.mention in standin.messages_by_id[lobby.id].content, 10, "ben joined")


async def test_a_full_disk_on_a_click_is_one_line_try_again(standin, tmp_path, caplog):
    store = await FullDisk.open(str(tmp_path / "f.sqlite3"))
    client = Partida(load_settings(render_processes=0, discord_token=standin.token, database_url=f"sqlite:///{tmp_path}/f.sqlite3"), store=store)
    await standin.run_client(client)
    await standin.wait_commands()
    ana, ben = standin.user("ana"), standin.user("ben")
    r = await ana.slash("general", "partida new", game="lost-cities")
    lobby = r.message
    store.full = True
    caplog.clear()
    caplog.set_level(logging.INFO)
    r = await ben.click(lobby, label="Join")
    await r.wait_followups(1, timeout=10)
    text = r.followups[-1].content
    assert r.followups[-1].ephemeral and "\n" not in text and "try again in a moment" in text, text
    logged = outage_records(caplog)
    assert len(logged) == 1 and logged[0].exc_info is None and "disk is full" in logged[0].getMessage(), [x.getMessage() for x in logged]
    store.full = False
    await ben.click(standin.messages_by_id[lobby.id], label="Join")
    await standin.wait_until(lambda: ben.mention in standin.messages_by_id[lobby.id].content, 10, "ben joined")


@pytest.fixture(autouse=True)
def _quiet_discord_logs(caplog):
    caplog.set_level(logging.WARNING, logger="discord")
