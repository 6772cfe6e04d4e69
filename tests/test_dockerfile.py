"""The image installs every package the project ships: each one pyproject.toml includes is copied
into the build (the catalogues were not, so the image would have had no texts)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_image_copies_every_package_pyproject_installs():
    include = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]["find"]["include"]
    packages = {name.rstrip("*") for name in include}
    copied = set(re.findall(r"^COPY (\S+) \./\1$", (ROOT / "Dockerfile").read_text(), flags=re.M))
    assert packages and packages <= copied, sorted(packages - copied)
    for name in packages:
        assert (ROOT / name / "__init__.py").exists(), name
