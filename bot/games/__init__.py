"""Per-game Discord presentation: pictures, private turn controls, moves in words.

Each game adds one module, ``bot/games/<engine key with _>.py``, holding ``MANIFEST`` (see
``base.Manifest``); everything else in bot/ is shared.
"""

from __future__ import annotations

import importlib

from engines import registry

from .base import GameUI, Manifest

_MANIFESTS: dict[str, Manifest] = {}


def manifests() -> dict[str, Manifest]:
    """The manifest of every game whose Discord presentation is in this build, by engine key."""
    if not _MANIFESTS:
        for key in registry.known():
            module = f"{__name__}.{key.replace('-', '_')}"
            try:
                manifest = importlib.import_module(module).MANIFEST
            except ModuleNotFoundError as e:
                if e.name == module:
                    continue  # that game's Discord presentation is not in this build yet
                raise
            _MANIFESTS[manifest.key] = manifest
    return _MANIFESTS


def ui_for(game_key: str) -> GameUI:
    manifest = manifests().get(game_key)
    return manifest.ui if manifest else GameUI()


__all__ = ["GameUI", "Manifest", "manifests", "ui_for"]
