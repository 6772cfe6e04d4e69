"""Citadels (Ciudadelas), classic rules with the optional Dark City characters and districts."""

from .game import GAME, CitadelsGame, State

__all__ = ["GAME", "CitadelsGame", "State"]
