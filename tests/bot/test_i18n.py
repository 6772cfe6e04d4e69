"""Every player-facing text exists in English and Spanish, with the same placeholders."""

import string

import pytest

from bot import i18n
from bot.core.refusals import error_text
from bot.games import lost_cities


def fields(text: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(text) if f}


@pytest.mark.parametrize("table", [i18n.M, lost_cities.T], ids=["bot", "lost-cities"])
def test_every_text_in_both_languages_with_the_same_placeholders(table):
    for key, entry in table.items():
        assert entry.get("en") and entry.get("es"), key
        assert fields(entry["en"]) == fields(entry["es"]), key


def test_rules_summaries_in_both_languages():
    ui = lost_cities.LostCitiesUI()
    assert ui.rules["en"] and ui.rules["es"] and ui.rules["en"] != ui.rules["es"]


def test_every_lost_cities_refusal_code_is_translated():
    """Each refusal code the engine can raise has a sentence in both languages."""
    import inspect

    import engines.lost_cities as lc

    source = inspect.getsource(lc)
    import re

    codes = set(re.findall(r'(?:IllegalAction|BadAction|BadOptions)\(\s*"([a-z_]+)"', source))
    assert codes >= {"not_your_turn", "not_higher", "just_discarded"}
    for code in codes:
        for lang in ("en", "es"):
            text = error_text(code, {"card": "red-5", "top": "red-7", "colour": "red", "min": 2, "max": 2, "got": 3, "reason": "x"}, lang, fallback="MISSING")
            assert text != "MISSING" and "{" not in text, (code, lang)


def test_locale_choice():
    assert i18n.lang_of("es-ES") == "es" and i18n.lang_of("es-419") == "es"
    assert i18n.lang_of("en-US") == "en" and i18n.lang_of("fr") == "en" and i18n.lang_of(None) == "en"


def test_every_command_string_has_a_spanish_translation():
    from discord import app_commands

    from bot.discord.commands import PartidaCog, PeopleCog

    class Fake:
        pass

    group = PartidaCog(Fake()).app_command
    mygames = PeopleCog.mygames
    strings = [group._locale_name, group._locale_description, mygames._locale_name, mygames._locale_description]
    for cmd in group.commands:
        strings += [cmd._locale_name, cmd._locale_description]
        for p in cmd._params.values():
            strings += [p._rename if isinstance(p._rename, app_commands.locale_str) else None, p.description]
    missing = [s.message for s in strings if isinstance(s, app_commands.locale_str) and s.message not in i18n.COMMAND_ES]
    assert not missing


def test_refusals_are_worded_by_the_game_they_come_from():
    both = {"card": "red-5", "colour": "red"}
    lc = error_text("pile_empty", both, "en", game="lost-cities")
    assert "red" in lc and "{" not in lc
    carc = error_text("pile_empty", {}, "en", game="carcassonne")
    assert "{" not in carc
