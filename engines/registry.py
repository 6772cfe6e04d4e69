"""Games by key. Each game package exposes ``GAME`` (a :class:`engines.core.Game` instance)."""

from __future__ import annotations

import importlib

from .core import BadOptions, Game

# key -> module that defines GAME. A game is listed here once its engine exists.
_MODULES = {
    "lost-cities": "engines.lost_cities",
    "carcassonne": "engines.carcassonne",
    "citadels": "engines.citadels",
    "cities": "engines.cities",
}

_loaded: dict[str, Game] = {}


def known() -> list[str]:
    """Every game key this build knows of, present or not (see available())."""
    return list(_MODULES)


def available() -> list[str]:
    """Keys of the games whose engine is present in this build."""
    keys = []
    for key in _MODULES:
        try:
            get(key)
        except BadOptions:
            continue
        keys.append(key)
    return keys


def get(key: str) -> Game:
    if key in _loaded:
        return _loaded[key]
    module = _MODULES.get(key)
    if module is None:
        raise BadOptions("unknown_game", f"unknown game {key!r}; known: {', '.join(_MODULES)}", game=key)
    try:
        mod = importlib.import_module(module)
    except ModuleNotFoundError as e:
        if e.name and module.startswith(e.name):
            raise BadOptions("unknown_game", f"game {key!r} is not available in this build", game=key) from None
        raise
    game = getattr(mod, "GAME", None)
    if game is None:
        raise BadOptions("unknown_game", f"game {key!r} is not available in this build", game=key)
    _loaded[key] = game
    return game
