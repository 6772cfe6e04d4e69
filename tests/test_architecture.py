"""The layers of bot/ hold (docs/design.md): import-linter checks the contracts in .importlinter —
the Discord edge over the core over the games' presentation over the texts over the store, no
Discord in the core, each game's presentation alone, and no import cycle anywhere in bot/
(function-local imports count: hiding a cycle inside a function does not pass)."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LINT = (
    "import sys; from importlinter.cli import lint_imports; "
    "sys.exit(lint_imports(config_filename='.importlinter', no_cache=True, no_logo=True))"
)


def test_every_import_contract_is_kept():
    # in a process of its own, from the repository root: pytest puts tests/ first on sys.path,
    # where tests/bot would be taken for the package bot
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", LINT], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    report = done.stdout + done.stderr
    assert "KEPT" in report and "BROKEN" not in report, report
    assert done.returncode == 0, report


def test_the_core_and_the_edge_import_the_bot_only_at_the_top_of_a_module():
    """An import of another bot module inside a function is how the old cycles hid: none is left."""
    hidden = []
    for path in sorted((ROOT / "bot").glob("*/*.py")):
        if path.parent.name not in ("core", "discord"):
            continue
        tree = ast.parse(path.read_text(), str(path))
        for fn in ast.walk(tree):
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for node in ast.walk(fn):
                if isinstance(node, ast.ImportFrom) and (node.level > 0 or (node.module or "").startswith("bot")) or isinstance(node, ast.Import) and any(a.name.startswith("bot") for a in node.names):
                    hidden.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert hidden == []
