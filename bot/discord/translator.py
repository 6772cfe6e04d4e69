"""The slash commands' names and descriptions in Spanish (Discord shows them by the user's locale)."""

from __future__ import annotations

import discord
from discord import app_commands

from engines import registry

from ..i18n import COMMAND_ES, lang_of


class Translator(app_commands.Translator):
    """Spanish names and descriptions for the slash commands (Discord shows them by user locale)."""

    async def translate(
        self, string: app_commands.locale_str, locale: discord.Locale, context: app_commands.TranslationContext
    ) -> str | None:
        if lang_of(locale) == "es":
            return COMMAND_ES.get(string.message) or _game_names_es().get(string.message)
        return None


def _game_names_es() -> dict[str, str]:
    out = {}
    for key in registry.available():
        g = registry.get(key)
        if g.names.get("es"):
            out[g.name] = g.names["es"]
    return out
