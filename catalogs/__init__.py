"""The message catalogues: gettext ``.po`` files under ``catalogs/<lang>/``, read with Babel.

``messages.po`` holds the bot's texts by key (``msgid`` is the key, ``msgstr`` the text with
``{param}`` fields); a text that counts something is a plural entry (``msgid_plural``) whose forms
follow the language's CLDR plural rules, and whose count parameter its ``#. count: <param>``
comment names. ``commands.po`` holds the slash commands' names and descriptions with the English
text as ``msgid``. A language is a folder: the files are read and compiled in memory the first
time a language is asked for (no compile step, nothing generated in the repository).
"""

from __future__ import annotations

import functools
import gettext
import io
from dataclasses import dataclass
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

ROOT = Path(__file__).parent
# Our language code -> the catalogue's locale (CLDR), which gives its plural rules.
LOCALES = {"en": "en", "es": "es", "pt": "pt_BR"}


@dataclass(frozen=True)
class Catalogue:
    """One language's messages: compiled translations plus which keys it has and what they count."""

    translations: gettext.GNUTranslations
    keys: frozenset[str]
    counts: dict[str, str]  # plural key -> the parameter that counts
    plain: dict[str, str]  # singular key -> text; plural key -> its last (general) form


def _read(lang: str, domain: str):
    path = ROOT / lang / f"{domain}.po"
    if not path.exists():
        return None
    with path.open("rb") as f:
        return read_po(f, locale=LOCALES[lang], domain=domain)


@functools.cache
def catalogue(lang: str, domain: str = "messages") -> Catalogue | None:
    """The compiled catalogue of a language (None: the language has no such file)."""
    po = _read(lang, domain)
    if po is None:
        return None
    buf = io.BytesIO()
    write_mo(buf, po, use_fuzzy=False)
    buf.seek(0)
    keys, counts, plain = set(), {}, {}
    for msg in po:
        if not msg.id:
            continue
        key = msg.id[0] if isinstance(msg.id, tuple | list) else msg.id
        ctx_key = f"{msg.context}\x04{key}" if msg.context else key
        keys.add(ctx_key)
        if isinstance(msg.id, tuple | list):
            counts[ctx_key] = next(
                (c.split(":", 1)[1].strip() for c in msg.auto_comments if c.startswith("count:")), "n"
            )
            plain[ctx_key] = msg.string[-1]
        else:
            plain[ctx_key] = msg.string
    return Catalogue(gettext.GNUTranslations(buf), frozenset(keys), counts, plain)


def lookup(lang: str, key: str, params: dict, context: str | None = None, domain: str = "messages") -> str | None:
    """The raw text of ``key`` in ``lang`` (the plural form its count asks for), or None; a game's
    texts are the domain named after it (``catalogs/<lang>/<game>.po``)."""
    cat = catalogue(lang, domain)
    full = f"{context}\x04{key}" if context else key
    if cat is None or full not in cat.keys:
        return None
    if full in cat.counts:
        n = params.get(cat.counts[full], 0)
        try:
            n = int(n)
        except (TypeError, ValueError):
            n = 0
        if context:
            return cat.translations.npgettext(context, key, key, n)
        return cat.translations.ngettext(key, key, n)
    if context:
        return cat.translations.pgettext(context, key)
    return cat.translations.gettext(key)


def table(domain: str) -> dict[str, dict[str, str]]:
    """A domain's texts as ``{key: {lang: text}}`` in every language that has the file."""
    out: dict[str, dict[str, str]] = {}
    for lang in LOCALES:
        cat = catalogue(lang, domain)
        for key, text in (cat.plain.items() if cat else ()):
            out.setdefault(key, {})[lang] = text
    return out


def command(lang: str, english: str) -> str | None:
    """A slash command name or description in ``lang`` (None: not translated)."""
    cat = catalogue(lang, "commands")
    if cat is None or english not in cat.keys:
        return None
    return cat.translations.gettext(english)


def text(domain: str, key: str, lang: str, **params) -> str:
    """The text ``key`` of a game's domain in ``lang`` (English where that language lacks it; the
    key itself when nobody has it), its plural form chosen by its count, filled with ``params``
    (the bare text when a field is missing or malformed)."""
    raw = lookup(lang, key, params, domain=domain)
    if raw is None:
        raw = lookup("en", key, params, domain=domain)
    if raw is None:
        return key
    try:
        return raw.format(**params)
    except (KeyError, IndexError, ValueError):
        return raw
