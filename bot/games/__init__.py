"""Per-game Discord presentation: pictures, private turn controls, moves in words.

Each game adds one module with a ``GameUI`` subclass; everything else in bot/ is shared.
"""

from __future__ import annotations

from .base import GameUI

_UIS: dict[str, GameUI] = {}


def ui_for(game_key: str) -> GameUI:
    if not _UIS:
        import importlib

        for module, cls in (("lost_cities", "LostCitiesUI"), ("carcassonne", "CarcassonneUI"), ("citadels", "CitadelsUI"), ("cities", "CitiesUI")):
            try:
                ui = getattr(importlib.import_module(f"{__name__}.{module}"), cls)()
            except (ModuleNotFoundError, AttributeError):
                continue  # that game's Discord presentation is not in this build yet
            _UIS[ui.key] = ui
    return _UIS.get(game_key) or GameUI()


__all__ = ["GameUI", "ui_for"]
