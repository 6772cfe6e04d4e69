"""A local Discord stand-in for end-to-end tests (gateway + HTTP API, checked against Discord's spec).

Quick use (in-process bot)::

    async def test_x(standin):                      # fixture from tests.standin.fixtures
        await standin.run_client(bot)               # real discord.py Client/Bot
        alice = standin.user("alice", locale="es-ES")
        resp = await alice.slash("general", "partida new", game="lost-cities")
        assert resp.ephemeral and "Lost Cities" in resp.content

A bot in another process connects through the environment from ``standin.env()``:
PARTIDA_DISCORD_API, PARTIDA_DISCORD_GATEWAY (and PARTIDA_DISCORD_TOKEN).
"""

from .patching import apply_env, patch_discord
from .person import InteractionResult, Person
from .process import BotProcess
from .server import Attachment, InteractionRecord, Message, StandIn, Violation
from .spec import get_checker, in_ci, spec_path

__all__ = [
    "Attachment", "BotProcess", "InteractionRecord", "InteractionResult", "Message", "Person", "StandIn", "Violation",
    "apply_env", "get_checker", "in_ci", "patch_discord", "spec_path",
]
