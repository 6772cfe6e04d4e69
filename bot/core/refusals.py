"""Engine refusals and bot errors in words: a game that words its own refusals first (its UI's
``rule_text``, or the texts it registered with ``bot.i18n.register_rules``), then the bot's."""

from __future__ import annotations

from typing import Any

from ..games import manifests, ui_for
from ..i18n import GAME_RULES, GAME_RULES_BY_GAME, M, format_entry, t


def error_text(code: str, params: dict[str, Any], lang: str, fallback: str = "", game: str | None = None) -> str:
    """Translate an engine refusal or a bot error from its code and params (and the game it came from)."""
    manifests()  # make sure every game's presentation (and its rule texts) is loaded
    # a game that words its own refusals (without the game: any game that knows a code the bot
    # has no words of its own for)
    generic = "rule." + code in M or "err." + code in M
    for ui in [ui_for(game)] if game else [] if generic else [m.ui for m in manifests().values()]:
        worded = getattr(ui, "rule_text", None)
        if worded is not None and (text := worded(code, params, lang)):
            return text
    if game is not None and code in GAME_RULES_BY_GAME.get(game, {}):
        return format_entry(GAME_RULES_BY_GAME[game][code], lang, params)
    if code in GAME_RULES and "rule." + code not in M:
        return format_entry(GAME_RULES[code], lang, params)
    for prefix in ("rule.", "err."):
        if prefix + code in M:
            return t(prefix + code, lang, **params)
    return fallback or t("rule.bad_action", lang)
