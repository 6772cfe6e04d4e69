"""Per-game Discord presentation: pictures, private turn controls, moves in words.

Each game adds one module with a ``GameUI`` subclass; everything else in bot/ is shared.
"""

from __future__ import annotations

from .base import GameUI

_UIS: dict[str, GameUI] = {}


def ui_for(game_key: str) -> GameUI:
    if not _UIS:
        from .lost_cities import LostCitiesUI

        for ui in (LostCitiesUI(),):
            _UIS[ui.key] = ui
    return _UIS.get(game_key) or GameUI()


__all__ = ["GameUI", "ui_for"]
