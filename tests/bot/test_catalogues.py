"""The message catalogues (catalogs/<lang>/*.po): every language has every entry, the same
placeholders in every language and form, and counts through plural entries (CLDR rules), never
through plurals written by hand into a text."""

from __future__ import annotations

import ast
import re
import string
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from catalogs import LOCALES, ROOT

LANGS = tuple(LOCALES)
# Parameters that count something: a text that puts a word after one of them must be a plural entry.
COUNTS = {"n", "need", "left", "count", "days"}
# "(s)", "(es)", "(n)", "(as)", "(os)" glued to a word, "vez/veces"-style pairs
BY_HAND = re.compile(r"\w\((?:s|es|n|as|os|is)\)|\b(\w+)/\1(?:s|es)\b|\bvez/veces\b", re.IGNORECASE)


def read(lang: str, domain: str):
    path = ROOT / lang / f"{domain}.po"
    with path.open("rb") as f:
        return {(m.context, m.id[0] if isinstance(m.id, tuple) else m.id): m for m in read_po(f, locale=LOCALES[lang]) if m.id}


def fields(text: str) -> set[str]:
    return {f.split("!")[0] for _, f, _, _ in string.Formatter().parse(text) if f}


def forms(msg) -> list[str]:
    return list(msg.string) if isinstance(msg.string, tuple | list) else [msg.string]


DOMAINS = ("messages", "lost-cities", "games", "carcassonne", "cities", "citadels")  # the bot's texts, then each game's


@pytest.mark.parametrize("domain", DOMAINS)
def test_every_language_has_every_message_with_the_same_placeholders(domain):
    cats = {lang: read(lang, domain) for lang in LANGS}
    keys = set(cats["en"])
    assert len(keys) > {"messages": 180, "lost-cities": 30, "games": 1, "carcassonne": 120, "cities": 200, "citadels": 400}[domain]
    for lang, cat in cats.items():
        assert set(cat) == keys, (lang, sorted(set(cat) ^ keys)[:10])
    for key in keys:
        want = fields(forms(cats["en"][key])[-1])
        for lang in LANGS:
            msg = cats[lang][key]
            assert isinstance(msg.id, tuple) == isinstance(cats["en"][key].id, tuple), (lang, key)
            for text in forms(msg):
                assert text, f"{lang}: {key} is empty"
                assert fields(text) == want, (lang, key, text)


@pytest.mark.parametrize("lang", [lang for lang in LANGS if lang != "en"])
def test_every_command_string_is_in_every_language(lang):
    es, other = read("es", "commands"), read(lang, "commands")
    assert set(other) == set(es) and all(m.string for m in other.values()), sorted(set(other) ^ set(es))[:10]
    names = [m.string for (_, english), m in other.items() if re.fullmatch(r"[a-z]+", english)]
    # Discord: ^[-_\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$, lower case where the letter has one
    assert names and all(re.fullmatch(r"[-_\w]{1,32}", n) and n == n.lower() for n in names), names


def test_a_plural_entry_names_its_count_and_uses_it_in_every_form():
    for lang in LANGS:
        for key, msg in (item for domain in DOMAINS for item in read(lang, domain).items()):
            if not isinstance(msg.id, tuple):
                continue
            count = next((c.split(":", 1)[1].strip() for c in msg.auto_comments if c.startswith("count:")), "n")
            assert all("{" + count + "}" in text for text in forms(msg)), (lang, key, count)


def test_no_plural_written_by_hand():
    for lang in LANGS:
        for domain in DOMAINS + (("commands",) if lang != "en" else ()):
            for key, msg in read(lang, domain).items():
                for text in forms(msg):
                    assert not BY_HAND.search(text), (lang, key, text)
                    if isinstance(msg.id, tuple):
                        continue
                    # a count followed by a word, in a text with a single form: "{n} matches"
                    for name in fields(text) & COUNTS:
                        assert not re.search(r"\{" + name + r"[^}]*\} [^\W\d_]{2,}", text), (lang, key, text)


def test_the_hand_written_plural_check_would_catch_one():
    assert BY_HAND.search("in {n} match(es)") and BY_HAND.search("{n} trabajador(es)") and BY_HAND.search("{n} vez/veces")
    assert BY_HAND.search("{n} carta/cartas")
    assert not BY_HAND.search("{n}/{max}") and not BY_HAND.search("{player} (AI)")


def test_policy_values_are_typed_in_the_readers_words():
    from bot.core.service import UserError
    from bot.core.timers import check_timer_settings

    assert check_timer_settings({"policy": "sustituir"})["policy"] == "replace"
    assert check_timer_settings({"policy": "Terminar"})["policy"] == "end"
    assert check_timer_settings({"policy": "substituta"})["policy"] == "standin"
    assert check_timer_settings({"policy": "replace"})["policy"] == "replace"
    with pytest.raises(UserError):
        check_timer_settings({"policy": "jamás"})


# The modules of the games whose texts are catalogues: none may hold a table of texts by language
# again ({"en": ..., "es": ...} or dict(en=..., es=...)): a text lives in catalogs/<lang>/<game>.po.
REPO = Path(__file__).resolve().parents[2]
MIGRATED = (
    "bot/games/carcassonne.py", "bot/games/cities.py", "render/carcassonne.py", "render/cities.py",
    "render/carcassonne_guide.py", "render/cities_guide.py", "engines/carcassonne", "engines/cities",
    "bot/games/citadels.py", "render/citadels.py", "render/citadels_guide.py", "engines/citadels",
)


def language_tables(source: str) -> list[int]:
    """The lines of the dicts keyed by language code in Python ``source`` (but an engine's own
    ``names = {...}``: the game's title, read by the slash commands' translator)."""
    tree = ast.parse(source)
    titles = {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Assign) and [getattr(t, "id", None) for t in n.targets] == ["names"]}
    found = []
    for node in ast.walk(tree):
        if id(node) in titles:
            continue
        if isinstance(node, ast.Dict):
            keys = {k.value for k in node.keys if isinstance(k, ast.Constant)}
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "dict":
            keys = {k.arg for k in node.keywords}
        else:
            continue
        if len(keys & set(LANGS)) >= 1 and keys & {"es", "pt"}:
            found.append(node.lineno)
    return found


def test_no_table_of_texts_left_in_the_games_that_moved_to_catalogues():
    files = [p for name in MIGRATED for p in ((REPO / name).glob("*.py") if (REPO / name).is_dir() else [REPO / name])]
    assert len(files) > 15
    left = [f"{f.relative_to(REPO)}:{line}" for f in files for line in language_tables(f.read_text())]
    assert left == [], left
    assert not (REPO / "engines/carcassonne/texts.py").exists() and not (REPO / "engines/cities/texts.py").exists()


def test_the_table_check_would_catch_one():
    assert language_tables('T = {"hi": {"en": "Hello", "es": "Hola"}}') == [1]
    assert language_tables('X = 1\nT = dict(en="Hello", es="Hola")') == [2]
    assert language_tables('D = {"en": 1}\nC = {"red": "r"}\nnames = {"en": "Cities", "es": "Cities"}') == []



def test_every_citadels_text_the_code_asks_for_is_in_the_catalogue():
    """Citadels' texts live only in catalogs/<lang>/citadels.po: every key its presentation and
    its pictures name is there, every character and district has its names (with the article
    its sentences need) in every language, and no English/Spanish table is left in the code."""
    from pathlib import Path

    from engines.citadels import cards as C

    cat = read("en", "citadels")
    keys = {key for _, key in cat}
    root = ROOT.parent
    ui = (root / "bot/games/citadels.py").read_text()
    pic = (root / "render/citadels.py").read_text()
    from engines.citadels.actions import DECLS

    asked = {k for k in re.findall(r'\btr\("([a-z_0-9.]+)"', ui) if not k.endswith(".")}  # "character." + id: below
    import itertools

    values = {"take": ("gold", "cards"), "flag": ("yes", "no"), "pay": ("gold", "card")}
    for d in DECLS:  # the story and label keys of the engine's declarations, with their words filled in
        named = [(a.name, values[a.kind]) for a in d.args if a.kind in values]
        for combo in itertools.product(*(v for _, v in named)):
            words = dict(zip((n for n, _ in named), combo, strict=True))
            asked |= {d.story.format(**words), d.label.format(**words)}
    asked |= {"pic." + k for k in re.findall(r'\bt\["([a-z_0-9]+)"\]', pic)}
    asked |= {"pic." + k for k in re.findall(r'_n\(lang, "([a-z_0-9]+)"', pic)}
    assert len(asked) > 100 and not asked - keys, sorted(asked - keys)
    for ch in C.CHARACTERS:
        assert {f"character.{ch}", f"character_obj.{ch}", f"power.{ch}"} <= keys, ch
    for kind in C.KINDS:
        assert {f"district.{kind}", f"district_the.{kind}"} <= keys, kind
    # the engine holds no words; the presentation and the pictures hold no language table
    assert not (root / "engines/citadels/texts.py").exists() and not (root / "engines/citadels/names.py").exists()
    for source in (ui, pic, (root / "render/citadels_guide.py").read_text()):
        # {"en": ..., "es": ...} entries or "key": ("English", "Spanish") pairs
        assert not re.search(r'"es":\s*["{]|"\w+":\s*\(\s*"[^"]*",\s*"[^"]*"\s*\)', source)
    assert Path(root / "catalogs/pt/citadels.po").exists()
