"""Pointing discord.py at the stand-in (process-wide class attributes, so always restore them)."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator

API_ENV = "PARTIDA_DISCORD_API"
GATEWAY_ENV = "PARTIDA_DISCORD_GATEWAY"
TOKEN_ENV = "PARTIDA_DISCORD_TOKEN"


@contextlib.contextmanager
def patch_discord(api_url: str, gateway_url: str) -> Iterator[None]:
    import discord.gateway
    import discord.http
    import yarl

    old_base = discord.http.Route.BASE
    old_gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    discord.http.Route.BASE = api_url
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)
    try:
        yield
    finally:
        discord.http.Route.BASE = old_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = old_gateway


def apply_env(environ: dict[str, str] | None = None) -> bool:
    """What a bot process does at start-up: honour PARTIDA_DISCORD_API / PARTIDA_DISCORD_GATEWAY.

    (The bot itself should carry an equivalent of this; it is here for test helpers and subprocess scripts.)
    """
    env = os.environ if environ is None else environ
    api, gateway = env.get(API_ENV), env.get(GATEWAY_ENV)
    if not api and not gateway:
        return False
    import discord.gateway
    import discord.http
    import yarl

    if api:
        discord.http.Route.BASE = api.rstrip("/")
    if gateway:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)
    return True
