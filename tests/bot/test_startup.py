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
