"""Database URL parsing and ``open_store``'s choice of back end."""

from __future__ import annotations

import pytest

from bot.store import DatabaseURL, open_store, parse_database_url
from bot.store.migrate import render, split_statements
from bot.store.sqlite import SqliteStore


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("sqlite:///partida.sqlite3", DatabaseURL("sqlite", "partida.sqlite3")),
        ("sqlite:///data/p.sqlite3", DatabaseURL("sqlite", "data/p.sqlite3")),
        ("sqlite:////abs/path.sqlite3", DatabaseURL("sqlite", "/abs/path.sqlite3")),
        ("sqlite://:memory:", DatabaseURL("sqlite", ":memory:")),
        ("sqlite:///:memory:", DatabaseURL("sqlite", ":memory:")),
        ("sqlite:///my%20file.db", DatabaseURL("sqlite", "my file.db")),
        (
            "sqlite:////x.db?busy_timeout=250&synchronous=FULL",
            DatabaseURL("sqlite", "/x.db", {"busy_timeout": "250", "synchronous": "full"}),
        ),
        ("postgresql://u:pw@db:5432/partida", DatabaseURL("postgres", "postgresql://u:pw@db:5432/partida")),
        ("postgres://u@localhost/partida", DatabaseURL("postgres", "postgres://u@localhost/partida")),
        (
            "postgresql://u@h/db?schema=bot_1&sslmode=require",
            DatabaseURL("postgres", "postgresql://u@h/db?sslmode=require", {"schema": "bot_1"}),
        ),
    ],
)
def test_good_urls(url, expected):
    assert parse_database_url(url) == expected


@pytest.mark.parametrize(
    "url",
    [
        "",
        "   ",
        "partida.sqlite3",
        "mysql://u@h/db",
        "sqlite:",
        "sqlite://",
        "sqlite:///",
        "sqlite:/relative.db",
        "sqlite://host/file.db",
        "sqlite:///x.db?journal=delete",
        "sqlite:///x.db?busy_timeout=soon",
        "sqlite:///x.db?synchronous=maybe",
        "postgresql://u@h:notaport/db",
        "postgresql://u@h:99999/db",
        "postgresql:/h/db",
        "postgresql://u@h/db?schema=Bad-Name",
        "postgresql://u@h/db?schema=x;drop",
    ],
)
def test_bad_urls_raise_one_line_value_error(url):
    with pytest.raises(ValueError) as err:
        parse_database_url(url)
    msg = str(err.value)
    assert msg.startswith("bad database URL") and "\n" not in msg


def test_password_is_not_echoed():
    with pytest.raises(ValueError) as err:
        parse_database_url("postgresql://bot:s3cret@h:port/db")
    assert "s3cret" not in str(err.value)


async def test_open_store_picks_sqlite_and_memory_works():
    store = await open_store("sqlite://:memory:")
    try:
        assert isinstance(store, SqliteStore)
        rec = await store.create_match(1, 2, "lost-cities", 3, [{"user_id": 3, "name": "a"}], {}, "en")
        # Missing seat keys are filled in as null.
        assert rec.seats == [{"user_id": 3, "ai": None, "name": "a"}]
        assert (await store.get(rec.id)).id == rec.id
    finally:
        await store.close()


async def test_open_store_in_missing_folder_is_a_clear_error(tmp_path):
    with pytest.raises(FileNotFoundError, match="does not exist"):
        await open_store(f"sqlite:///{tmp_path}/nope/db.sqlite3")


async def test_relative_sqlite_path_is_relative_to_cwd(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    store = await open_store("sqlite:///rel.sqlite3")
    await store.close()
    assert (tmp_path / "rel.sqlite3").is_file()


async def test_sqlite_file_is_in_wal_mode(tmp_path):
    import sqlite3

    store = await open_store(f"sqlite:///{tmp_path}/w.sqlite3")
    await store.close()
    assert sqlite3.connect(tmp_path / "w.sqlite3").execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_migration_rendering():
    sql = "-- note; not a statement\nCREATE TABLE t (\n  id @ID@,\n  j @JSON@\n);\nCREATE INDEX i ON t (j);\n"
    assert split_statements(render(sql, "sqlite")) == [
        "CREATE TABLE t (\n  id INTEGER PRIMARY KEY AUTOINCREMENT,\n  j TEXT\n)",
        "CREATE INDEX i ON t (j)",
    ]
    assert "JSON" in render(sql, "postgres") and "IDENTITY" in render(sql, "postgres")
    with pytest.raises(ValueError):
        render("CREATE TABLE t (x @NOPE@)", "sqlite")
