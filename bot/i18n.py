"""Every text a player sees, in English, Spanish and Portuguese (catalogs/<lang>/*.po).

``t(key, lang, **params)`` formats a message; ``bot.core.refusals.error_text`` turns an engine or bot
error (a stable ``code`` plus ``params``) into a sentence with the games' own words. Languages: "en"
(default), "es" and "pt" (Brazilian Portuguese); the texts live in gettext catalogues read by
``catalogs`` (a new language is a folder of .po files); the language of a reply is the interaction's locale, the language of channel posts is the match's.
"""

from __future__ import annotations

import json
import typing
from datetime import timedelta
from typing import Any

from babel.dates import format_timedelta
from pydantic import ValidationError

from catalogs import LOCALES, catalogue, lookup
from engines import registry

LANGS = ("en", "es", "pt")


def lang_of(locale: Any) -> str:
    """The language of a Discord locale (or its text): Spanish for es-*, Portuguese for pt-BR, else English."""
    value = str(getattr(locale, "value", locale) or "").lower()
    if value.startswith("es"):
        return "es"
    return "pt" if value.startswith("pt") else "en"


def _table(context: str | None = None) -> dict[str, dict[str, str]]:
    """The catalogues' texts as ``{key: {lang: text}}`` (a plural entry: its general form)."""
    out: dict[str, dict[str, str]] = {}
    prefix = f"{context}\x04" if context else ""
    for lang in LANGS:
        cat = catalogue(lang)
        for full, text in (cat.plain.items() if cat else ()):
            if context is None and "\x04" in full:
                continue
            if context is not None and not full.startswith(prefix):
                continue
            out.setdefault(full[len(prefix):], {})[lang] = text
    return out


# Every text by key, read from catalogs/<lang>/messages.po; other modules may add entries of
# their own ({"en": ..., "es": ...}), which t() uses for keys the catalogues do not have.
M: dict[str, dict[str, str]] = _table()


def t(key: str, lang: str, **params: Any) -> str:
    """The text ``key`` in ``lang`` (English where that language's catalogue lacks it), formatted;
    a plural entry takes the form its count parameter asks for (CLDR rules of the language)."""
    text = lookup(lang, key, params)
    if text is None:
        text = lookup("en", key, params)
    if text is None:
        entry = M.get(key)
        if entry is None:
            return key
        text = entry.get(lang) or entry["en"]
    try:
        return text.format(**params)
    except (KeyError, IndexError):
        return text


# Engine refusal texts that game presentations add (bot/games/<game>.py calls register_rules):
# code -> {"en": ..., "es": ...}, formatted with the error's params.
GAME_RULES: dict[str, dict[str, str]] = {}
GAME_RULES_BY_GAME: dict[str, dict[str, dict[str, str]]] = {}


def register_rules(texts: dict[str, dict[str, str]], game: str | None = None) -> None:
    """Add a game's refusal texts; with ``game`` they win over other games' texts for that game."""
    if game is not None:
        GAME_RULES_BY_GAME.setdefault(game, {}).update(texts)
    for code, entry in texts.items():
        GAME_RULES.setdefault(code, entry)


def format_entry(entry: dict[str, str], lang: str, params: dict[str, Any]) -> str:
    """One text entry ({"en": ..., "es": ...}) in ``lang`` (else English), formatted with ``params``
    (on a bad or missing param: the text as it is)."""
    text = entry.get(lang) or entry["en"]
    try:
        return text.format(**params)
    except (KeyError, IndexError, ValueError):
        return text


_format = format_entry  # the name bot/games/lost_cities.py imports


def game_name(game: Any, lang: str) -> str:
    """A game's name in the reader's language (a Game, or a registry key)."""
    if isinstance(game, str):
        try:
            game = registry.get(game)
        except Exception:
            return game
    return (getattr(game, "names", None) or {}).get(lang) or game.name


def duration(seconds: float, lang: str, direction: bool = False) -> str:
    """A length of time in words by the language's CLDR data: "5 hours", "12 horas"; with
    ``direction`` one ahead or past: "in 5 hours", "dentro de 5 horas", "em 5 horas"."""
    return format_timedelta(
        timedelta(seconds=seconds), locale=LOCALES.get(lang, "en"), threshold=1.5, add_direction=direction
    )


# -- match options: what is wrong with them, and what each one means -------------------------------

OPTION_TEXTS: dict[str, dict[str, str]] = _table("option")

# What each option does (the /partida new autocomplete shows it), by option name.
OPTION_HELP: dict[str, dict[str, str]] = _table("option-help")


def _allowed(field: Any, lang: str) -> str:
    ann = field.annotation
    args = [a for a in typing.get_args(ann) if a is not type(None)]
    if len(args) == 1 and typing.get_origin(ann) is not typing.Literal:
        ann, args = args[0], list(typing.get_args(args[0]))
    if ann is bool:
        return t_option("bool", lang)
    if typing.get_origin(ann) is typing.Literal:
        return t_option("one_of", lang, values=", ".join(str(a).lower() if isinstance(a, bool) else str(a) for a in args))
    if ann is int:
        lo = next((m.ge for m in field.metadata if hasattr(m, "ge")), None)
        hi = next((m.le for m in field.metadata if hasattr(m, "le")), None)
        if lo is not None and hi is not None:
            return t_option("int_range", lang, lo=lo, hi=hi)
        return t_option("int", lang)
    return str(field.default)


def t_option(which: str, lang: str, **params: Any) -> str:
    return format_entry(OPTION_TEXTS[which], lang, params)


def options_problem(game_key: str, raw: dict[str, Any], lang: str) -> str | None:
    """What is wrong with a game's options, in the reader's language (None: nothing found)."""
    try:
        model = registry.get(game_key).Options
        model.model_validate(dict(raw))
        return None
    except ValidationError as e:
        errors = e.errors()
    except Exception:
        return None
    fields = model.model_fields
    out = []
    for err in errors:
        key = str(err["loc"][0]) if err.get("loc") else "?"
        if err.get("type") == "extra_forbidden" or key not in fields:
            out.append(t_option("unknown", lang, key=key, known=", ".join(fields)))
        else:
            value = raw.get(key)
            shown = json.dumps(value) if not isinstance(value, str) else value
            out.append(t_option("bad", lang, key=key, value=shown[:40], allowed=_allowed(fields[key], lang)))
    return "; ".join(dict.fromkeys(out)) or None


# -- slash command names and descriptions --------------------------------------------------------

def _commands(lang: str) -> dict[str, str]:
    cat = catalogue(lang, "commands")
    return dict(cat.plain) if cat else {}


# English name or description -> its translation, from catalogs/<lang>/commands.po.
COMMANDS: dict[str, dict[str, str]] = {lang: _commands(lang) for lang in LANGS if lang != "en"}
COMMAND_ES = COMMANDS["es"]
