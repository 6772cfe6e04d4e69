"""One damaged match row never stops the bot (issue 19): a row whose seats, meta or state cannot be
decoded is quarantined (logged once, shown by /partida status in its own channel, left out of the
sweeps and lists) and every other match goes on. On SQLite the columns hold text that is not JSON;
PostgreSQL's JSON columns refuse that, so there the damage is JSON of the wrong shape (and a state
the engine cannot read). Before the fix the bot did not start at all (the timers' sweep decoded
every live match at set-up)."""

from __future__ import annotations

import logging
import os
import sqlite3
import uuid

import pytest

from bot.core.service import MatchService
from bot.core.settings import load_settings
from bot.discord.client import Partida
from bot.store import open_store

from .helpers import is_board

DAMAGE = {  # column -> (SQLite text, PostgreSQL JSON)
    "seats": ("not json", '"not a list of seats"'),
    "meta": ("{", "[1, 2]"),
    "state": ("not json", '"not a state"'),
}


@pytest.fixture(params=["sqlite", "postgres"])
async def database(request, tmp_path):
    if request.param == "sqlite":
        yield "sqlite", f"sqlite:///{tmp_path}/d.sqlite3"
        return
    from tests.store.conftest import PG_URL, drop_schema, require_pg

    await require_pg()
    schema = f"partida_damaged_{os.getpid()}_{uuid.uuid4().hex[:10]}"
    yield "postgres", f"{PG_URL}{'&' if '?' in PG_URL else '?'}schema={schema}"
    await drop_schema(schema)


async def damage(kind: str, url: str, match_id: int, column: str) -> None:
    text = DAMAGE[column][0 if kind == "sqlite" else 1]
    if kind == "sqlite":
        with sqlite3.connect(url.removeprefix("sqlite:///")) as conn:
            conn.execute(f"UPDATE matches SET {column} = ? WHERE id = ?", (text, match_id))
        return
    import asyncpg

    from tests.store.conftest import PG_URL

    schema = url.split("schema=")[1]
    conn = await asyncpg.connect(PG_URL)
    try:
        await conn.execute(f'UPDATE "{schema}".matches SET {column} = $1::json WHERE id = $2', text, match_id)
    finally:
        await conn.close()


async def test_one_undecodable_row_of_each_column_the_bot_starts_and_serves_the_rest(standin, database, caplog):
    kind, url = database
    ana, ben = standin.user("ana"), standin.user("ben", locale="es-ES")
    names = ["seats", "meta", "state", "fine"]
    channels = {name: standin.create_channel(f"m-{name}") for name in names}
    store = await open_store(url)
    svc = MatchService(store)
    ids = {}
    try:
        for name in names:
            lobby = await svc.new_lobby(standin.guild_id, channels[name], "lost-cities", ana.id, "ana", {}, "en", meta={})
            lobby = await svc.join(lobby.record.id, None, ben.id, "ben")
            started = await svc.start(lobby.record.id, None, ana.id)
            ids[name] = started.record.id
    finally:
        svc.close()
        await store.close()
    for column in DAMAGE:
        await damage(kind, url, ids[column], column)

    caplog.set_level(logging.INFO)
    client = Partida(load_settings(render_processes=0, discord_token=standin.token, database_url=url))
    await standin.run_client(client)  # the bot starts: the sweep passes over the damaged rows
    await standin.wait_commands()

    # the healthy match is served: its board comes, a move goes through, /mygames lists it
    await standin.wait_for_message(channels["fine"], is_board, 15)
    r = await ana.slash(channels["fine"], "partida status")
    await r.wait_done()
    assert "Round 1/3" in r.text() and "cannot be read" not in r.text(), r.text()
    m = await client.service.get(ids["fine"])
    seat = m.to_move()[0]
    action = m.game.legal_json(m.state, seat)[0]
    await client.service.move(ids["fine"], m.record.version, ("user", (ana.id, ben.id)[seat]), action)
    assert (await client.service.get(ids["fine"])).record.version == m.record.version + 1
    for person in (ana, ben):
        r = await person.slash(channels["fine"], "mygames")
        await r.wait_done()
        assert f"#{ids['fine']}" in r.text(), r.text()
        assert not any(f"#{ids[c]} " in r.text() for c in DAMAGE), r.text()
        assert "Something went wrong" not in r.text() and "Algo ha ido mal" not in r.text()

    # each damaged match: one line in its own channel, in the reader's language
    for column in DAMAGE:
        for person, words in ((ana, "cannot be read"), (ben, "no se puede leer")):
            r = await person.slash(channels[column], "partida status")
            await r.wait_done()
            text = r.text()
            assert words in text and f"#{ids[column]}" in text and "\n" not in text, text

    # logged once per damaged match, without a traceback
    damaged_lines = [rec for rec in caplog.records if "quarantined" in rec.getMessage()]
    for column in DAMAGE:
        mine = [rec for rec in damaged_lines if f"match {ids[column]} " in rec.getMessage()]
        assert len(mine) == 1, [rec.getMessage() for rec in damaged_lines]
        assert mine[0].exc_info is None
    assert not [rec for rec in caplog.records if rec.exc_info and "JSONDecode" in repr(rec.exc_info)]
