"""The slash commands' names and descriptions in Spanish and Portuguese (Discord shows them by the user's locale)."""

from __future__ import annotations

import discord
from discord import app_commands

from catalogs import command
from engines import registry

from ..i18n import lang_of


class Translator(app_commands.Translator):
    """The slash commands' names and descriptions from catalogs/<lang>/commands.po (by user locale)."""

    async def translate(
        self, string: app_commands.locale_str, locale: discord.Locale, context: app_commands.TranslationContext
    ) -> str | None:
        lang = lang_of(locale)
        if lang == "en":
            return None
        found = command(lang, string.message)
        if found is None and lang == "es":
            found = _game_names_es().get(string.message)
        return found


def _game_names_es() -> dict[str, str]:
    out = {}
    for key in registry.available():
        g = registry.get(key)
        if g.names.get("es"):
            out[g.name] = g.names["es"]
    return out
