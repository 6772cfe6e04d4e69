"""Per-game Discord presentation: pictures, private turn controls, moves in words, rules texts.

Each game has one module, ``bot/games/<engine key with _>.py``, holding ``MANIFEST`` (see
``base.Manifest``): its ``GameUI`` carries everything of that game the shared layer shows - its
controls, its words, its refusals (``GameUI.rule_text``), its rules summary and guide. Adding a
game is its module plus its line in ``REGISTRY`` below; no other shared file changes.
"""

from __future__ import annotations

from engines import registry

from . import carcassonne, citadels, cities, lost_cities
from .base import GameUI, Manifest

# The registry: one line per game with a Discord presentation.
REGISTRY: tuple[Manifest, ...] = (
    lost_cities.MANIFEST,
    carcassonne.MANIFEST,
    citadels.MANIFEST,
    cities.MANIFEST,
)


def manifests() -> dict[str, Manifest]:
    """The manifest of every game whose engine is registered and whose presentation is in this
    build, by engine key (in the engines' registry order)."""
    mine = {m.key: m for m in REGISTRY}
    return {key: mine[key] for key in registry.known() if key in mine}


def ui_for(game_key: str) -> GameUI:
    manifest = manifests().get(game_key)
    return manifest.ui if manifest else GameUI()


__all__ = ["REGISTRY", "GameUI", "Manifest", "manifests", "ui_for"]
