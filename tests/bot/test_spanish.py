"""The Spanish texts: neutral Spanish for Spain and Latin America, and colour names that agree in
gender and form between the pictures and the texts (a number card is "el 7 rojo", a wager "una
apuesta roja", a pile "la pila roja", an expedition "tu expedición roja")."""

from __future__ import annotations

import importlib
import re

import pytest
from babel.messages.pofile import read_po

from bot.core.refusals import error_text
from bot.games import lost_cities as LCUI
from bot.games.lost_cities import LostCitiesUI
from catalogs import ROOT
from render import lost_cities as LR

MODULES = (
    "bot.i18n", "bot.games.lost_cities", "bot.games.carcassonne", "bot.games.citadels",
    "render.lost_cities", "render.carcassonne",
    "render.citadels",
)


def spanish_texts() -> list[tuple[str, str]]:
    """(where, text) for every Spanish text of the tables of those modules."""
    out: list[tuple[str, str]] = []

    def walk(where: str, obj) -> None:
        if isinstance(obj, dict):
            if isinstance(obj.get("es"), str):
                out.append((where, obj["es"]))
                return
            for k, v in obj.items():
                walk(f"{where}.{k}", v)
        elif isinstance(obj, tuple) and len(obj) == 2 and all(isinstance(x, str) for x in obj):
            out.append((where, obj[1]))
        elif isinstance(obj, str) and where.endswith(".es"):
            out.append((where, obj))

    for name in MODULES:
        mod = importlib.import_module(name)
        for key, value in vars(mod).items():
            if key.isupper() and isinstance(value, dict):
                walk(f"{name}.{key}", value)
    for ui in ("lost_cities.LostCitiesUI", "carcassonne.CarcassonneUI", "citadels.CitadelsUI"):
        mod, cls = ui.split(".")
        out.append((ui, getattr(importlib.import_module(f"bot.games.{mod}"), cls).rules["es"]))
    # the games whose texts are message catalogues: every Spanish form of every entry
    for domain in CATALOGUES:
        out += [(f"catalogs/es/{domain}.po:{key}", text) for key, text in _es_entries(domain)]
    return out


CATALOGUES = ("carcassonne", "cities")


def _es_entries(domain: str) -> list[tuple[str, str]]:
    with (ROOT / "es" / f"{domain}.po").open("rb") as f:
        cat = read_po(f, locale="es")
    out = []
    for msg in cat:
        if not msg.id:
            continue
        key = msg.id[0] if isinstance(msg.id, tuple | list) else msg.id
        forms = list(msg.string) if isinstance(msg.string, tuple | list) else [msg.string]
        out += [(key, text) for text in forms]
    return out


def test_the_review_found_the_texts():
    assert len(spanish_texts()) > 400


@pytest.mark.parametrize(
    ("pattern", "why"),
    [
        (r"\bcog(er|e|es|ió|í|iste|iendo)\b", "'coger' is vulgar in much of Latin America: tomar / robar"),
        (r"\bdraft\b", "an anglicism: la elección (de personajes)"),
        (r"\bordenes\b", "órdenes takes an accent"),
        (r"\b[Qq]u[ée]date \d", "quédate con N"),
        (r"\bQuedarme \{", "quedarme con ..."),
        (r"\bse queda (una|la) carta", "se queda con una carta"),
        (r"\b(al|el) \*?\*?\{(ch|character)\}", "characters can be feminine (la Bruja, la Reina): no fixed article"),
    ],
)
def test_no_known_slip_in_any_spanish_text(pattern, why):
    bad = [(w, t) for w, t in spanish_texts() if re.search(pattern, t)]
    assert not bad, f"{why}: {bad[:3]}"


MASC = {"amarillo", "blanco", "rojo", "morado"}
FEM = {"amarilla", "blanca", "roja", "morada"}
COLOUR_WORD = r"(amarill[oa]|blanc[oa]|roj[oa]|morad[oa]|azul|verde)"


def _lost_cities_spanish() -> list[str]:
    """Every Spanish sentence or label that names a Lost Cities colour, from the pictures' texts
    and the bot's (cards, wagers, piles, expeditions, moves, refusals)."""
    ui = LostCitiesUI()
    out = []
    for colour in LR.COLOUR_ORDER:
        for value in ("2", "7", "10", "w1"):
            card = f"{colour}-{value}"
            out += [LR.card_name(card, "es"), LCUI.card_name(card, "es")]
            out += [ui.describe({"type": t, "card": card}, "Ana", "es") for t in ("play", "discard")]
            out.append(error_text("not_in_hand", {"card": card}, "es"))
        out.append(ui.describe({"type": "draw", "from": colour}, "Ana", "es"))
        out.append(LR._t("es")["drew_pile"].format(colour=LR.COLOUR_NAMES_FEM["es"][colour]))
        out.append(error_text("pile_empty", {"colour": colour}, "es"))
        out.append(error_text("not_higher", {"card": f"{colour}-5", "top": f"{colour}-8", "colour": colour}, "es"))
        out.append(error_text("wager_after_number", {"colour": colour}, "es"))
    return out


def test_colour_names_agree_in_gender_with_what_they_describe():
    texts = _lost_cities_spanish()
    checked = 0
    for t in texts:
        for m in re.finditer(r"(\S+) " + COLOUR_WORD, t):
            before, word = m.group(1), m.group(2)
            if re.fullmatch(r"\d+", before):  # "el 7 rojo": a number is masculine
                assert word not in FEM, t
                checked += 1
            elif before in ("pila", "apuesta", "expedición", "carta"):
                assert word not in MASC, t
                checked += 1
    assert checked > 60


def test_pictures_and_texts_name_a_card_the_same_way():
    """The board's words for a card are the bot's words with the article: "el 7 rojo" / "7 rojo"."""
    for colour in LR.COLOUR_ORDER:
        for value in ("3", "w2"):
            card = f"{colour}-{value}"
            picture = LR.card_name(card, "es")
            text = LCUI.card_name(card, "es")
            assert picture.split(" ", 1)[1] == text, (picture, text)
    # the name printed at the bottom of a hand card: masculine on numbers, feminine on wagers
    assert LR.COLOUR_NAMES["es"]["red"] == "rojo" and LR.COLOUR_NAMES_FEM["es"]["red"] == "roja"
    assert LCUI.COLOUR_NAMES["red"]["es"] == LR.COLOUR_NAMES_FEM["es"]["red"]
