"""Fixtures: every contract test runs against SQLite (a temporary file) and PostgreSQL.

PostgreSQL: ``PARTIDA_TEST_PG_URL`` (default postgresql://postgres@127.0.0.1:5432/test). Each test
gets its own schema (pid + random suffix), dropped afterwards, so parallel runs never collide.
If the server cannot be reached the PostgreSQL variants are skipped, except when CI=true, where
they fail instead.
"""

from __future__ import annotations

import os
import sqlite3
import uuid
from typing import Any

import pytest

from bot.store import open_store, parse_database_url

PG_URL = os.environ.get("PARTIDA_TEST_PG_URL", "postgresql://postgres@127.0.0.1:5432/test")
_pg_state: dict[str, Any] = {}


async def _pg_unreachable_reason() -> str | None:
    """None when PostgreSQL answers, else why not (checked once per test process)."""
    if "reason" not in _pg_state:
        try:
            import asyncpg
        except ImportError as e:
            _pg_state["reason"] = f"asyncpg not installed: {e}"
            return _pg_state["reason"]
        try:
            conn = await asyncpg.connect(PG_URL, timeout=3)
            await conn.close()
            _pg_state["reason"] = None
        except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError) as e:
            _pg_state["reason"] = f"PostgreSQL not reachable at {PG_URL}: {type(e).__name__}: {e}"
    return _pg_state["reason"]


async def require_pg() -> None:
    reason = await _pg_unreachable_reason()
    if reason is None:
        return
    if os.environ.get("CI") == "true":
        pytest.fail(f"{reason} (CI=true: the PostgreSQL store tests must run in CI)")
    pytest.skip(f"{reason}; set PARTIDA_TEST_PG_URL or start PostgreSQL to run these")


async def drop_schema(schema: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(PG_URL, timeout=10)
    try:
        await conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
    finally:
        await conn.close()


@pytest.fixture(params=["sqlite", "postgres"])
async def url(request, tmp_path):
    """A database URL for a fresh, empty store of each kind."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'store.sqlite3'}"
        return
    await require_pg()
    schema = f"partida_t_{os.getpid()}_{uuid.uuid4().hex[:12]}"
    sep = "&" if "?" in PG_URL else "?"
    try:
        yield f"{PG_URL}{sep}schema={schema}"
    finally:
        await drop_schema(schema)


@pytest.fixture
async def store(url):
    s = await open_store(url)
    try:
        yield s
    finally:
        await s.close()


async def raw_rows(url: str, sql: str) -> list[tuple]:
    """Run one read-only query straight against the database behind ``url`` (bypassing the store)."""
    parsed = parse_database_url(url)
    if parsed.kind == "sqlite":
        conn = sqlite3.connect(parsed.target)
        try:
            return [tuple(r) for r in conn.execute(sql).fetchall()]
        finally:
            conn.close()
    import asyncpg

    settings = {"search_path": parsed.options["schema"]} if "schema" in parsed.options else None
    conn = await asyncpg.connect(parsed.target, server_settings=settings)
    try:
        return [tuple(r) for r in await conn.fetch(sql)]
    finally:
        await conn.close()


@pytest.fixture
def raw():
    """``await raw(url, sql)``: rows of a read-only query run straight against the database."""
    return raw_rows
