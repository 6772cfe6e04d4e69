"""python -m bot: every start-up problem is one line on stderr and a non-zero status, no traceback,
and the token never appears in the output."""

import os
import subprocess
import sys

import pytest

TOKEN = "secret-token-that-must-not-leak"


def run_bot(tmp_path, **env):
    full = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_", "PARTIDA_", "LOG_"))}
    full.update(env)
    p = subprocess.run([sys.executable, "-m", "bot"], capture_output=True, text=True, env=full, cwd=tmp_path, timeout=60)
    return p.returncode, p.stdout + p.stderr


@pytest.mark.parametrize(
    ("env", "status", "words"),
    [
        ({}, 2, "DISCORD_TOKEN is not set"),
        ({"DISCORD_TOKEN": ""}, 2, "DISCORD_TOKEN is not set"),
        ({"DISCORD_TOKEN": TOKEN, "LOG_LEVEL": "LOUD"}, 2, "LOG_LEVEL is malformed"),
        ({"DISCORD_TOKEN": TOKEN, "DATABASE_URL": "mysql://x"}, 2, "DATABASE_URL is malformed"),
        ({"DISCORD_TOKEN": TOKEN, "DATABASE_URL": "sqlite:////nonexistent-dir/p.sqlite3"}, 2, "DATABASE_URL cannot be opened"),
        ({"DISCORD_TOKEN": TOKEN, "RENDER_PROCESSES": "-1"}, 2, "RENDER_PROCESSES is malformed"),
        ({"DISCORD_TOKEN": TOKEN, "PARTIDA_DISCORD_API": "http://127.0.0.1:9/api/v10"}, 1, "cannot reach Discord"),
    ],
)
def test_start_up_problems_are_one_clear_line(tmp_path, env, status, words):
    code, out = run_bot(tmp_path, **env)
    errors = [line for line in out.splitlines() if line.startswith("error:")]
    assert code == status and len(errors) == 1 and words in errors[0], out
    assert "Traceback" not in out and TOKEN not in out


def test_default_database_is_a_sqlite_file_in_the_working_directory(tmp_path):
    code, out = run_bot(tmp_path, DISCORD_TOKEN=TOKEN, PARTIDA_DISCORD_API="http://127.0.0.1:9/api/v10")
    assert code == 1 and (tmp_path / "partida.sqlite3").exists()


# -- issue 13: credentials, unwritable stores and unreadable .env files --------------------------


def one_error_line(code, out, status=2):
    errors = [line for line in out.splitlines() if line.startswith("error:")]
    assert code == status and len(errors) == 1 and "Traceback" not in out and TOKEN not in out, out
    return errors[0]


@pytest.mark.parametrize(
    "url",
    [
        "postgresql:/alice:S3cretPW@db:5432/x",
        "postgresql://alice:S3cretPW@db:99999/x",
        "postgres:alice:S3cretPW@db/x?schema=Bad-Name",
        "postgresql://alice:S3cretPW@db:5432/x?schema=Bad-Name",
    ],
)
def test_a_database_password_never_appears_in_an_error(tmp_path, url):
    line = one_error_line(*run_bot(tmp_path, DISCORD_TOKEN=TOKEN, DATABASE_URL=url))
    assert "DATABASE_URL" in line and "S3cretPW" not in line


def test_a_folder_as_database_is_refused_in_one_line(tmp_path):
    (tmp_path / "db").mkdir()
    line = one_error_line(*run_bot(tmp_path, DISCORD_TOKEN=TOKEN, DATABASE_URL="sqlite:///db"))
    assert "DATABASE_URL" in line and "folder" in line


# A file or folder without write permission bits counts as read-only even for root (who could
# still write it): the person running the bot made it read-only on purpose.
def test_a_read_only_database_file_is_refused_at_start(tmp_path):
    import sqlite3

    db = tmp_path / "ro.sqlite3"
    sqlite3.connect(db).close()
    db.chmod(0o444)
    code, out = run_bot(tmp_path, DISCORD_TOKEN=TOKEN, DATABASE_URL=f"sqlite:///{db.name}")
    assert "read-only" in one_error_line(code, out)


def test_a_database_in_a_read_only_folder_is_refused_at_start(tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    code, out = run_bot(tmp_path, DISCORD_TOKEN=TOKEN, DATABASE_URL="sqlite:///ro/p.sqlite3")
    assert "read-only" in one_error_line(code, out)


def test_an_env_file_that_is_not_utf8_is_one_line(tmp_path):
    (tmp_path / ".env").write_bytes(b"DISCORD_TOKEN=caf\xe9\n")
    line = one_error_line(*run_bot(tmp_path))
    assert ".env" in line and "UTF-8" in line


def test_an_unexpected_start_up_error_is_one_line_without_a_traceback(tmp_path):
    code, out = run_bot(tmp_path, DISCORD_TOKEN=TOKEN, DATABASE_URL="sqlite://:memory:",
                        PARTIDA_DISCORD_GATEWAY="http://[::1")  # not a URL: yarl raises ValueError
    assert "Invalid IPv6 URL" in one_error_line(code, out, status=1)
