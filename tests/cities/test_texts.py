"""Every refusal, event and legal action of Cities has its words in English, Spanish and
Portuguese (catalogs/<lang>/cities.po, worded by bot/games/cities.py: the engine words nothing)."""

import random
import re

from bot.games import cities as T
from catalogs import table
from engines.ai import RandomPlayer
from engines.cities import GAME
from engines.core import EngineError
from engines.match import Match

from .test_properties import candidates

LANGS = ("en", "es", "pt")


def test_every_refusal_code_met_in_play_has_its_texts():
    m = Match.create("cities", ["a", "b", "c"], seed=4)
    rng = random.Random(4)
    codes = set()
    for i in range(400):
        if m.over:
            break
        s = m.state
        if i % 13 == 0:
            for seat in range(3):
                for code in candidates(s):
                    try:
                        GAME.check(s, seat, code)
                    except EngineError as e:
                        codes.add(e.code)
                        for lang in LANGS:
                            text = T.error_text(e.code, e.params, lang)
                            assert text and "{" not in text, (e.code, lang, text)
        seat = m.to_move()[0]
        m.apply_code(seat, RandomPlayer().choose(GAME, s, seat, rng))
    assert {"not_your_turn", "slot_taken", "must_take", "must_place"} <= codes
    assert codes <= set(T.RULE_TEXTS)


def test_refusal_texts_translate_their_colours_and_designs():
    assert T.error_text("wrong_colour", {"x": 1, "y": 2, "colour": "yellow"}, "es").startswith("Una pieza amarilla")
    assert T.error_text("wrong_colour", {"x": 1, "y": 2, "colour": "yellow"}, "pt").startswith("Uma peça amarela")
    assert "monumento" in T.error_text("space_built", {"x": 0, "y": 0, "design": "monument"}, "es")
    for code, entry in T.RULE_TEXTS.items():
        assert set(entry) == set(LANGS) and entry["en"] != entry["es"] and entry["es"] != entry["pt"], code


def test_every_event_and_action_of_a_match_reads_in_every_language():
    m = Match.create("cities", ["ana", "ben"], seed=8)
    rng = random.Random(8)
    kinds = set()
    while not m.over:
        seat = m.to_move()[0]
        for a in m.legal(seat)[:30]:
            en, es, pt = (T.action_label(a, lang) for lang in LANGS)
            assert en and es and pt and en != es and es != pt and "{" not in en + es + pt, a
        out = m.apply_code(seat, RandomPlayer().choose(GAME, m.state, seat, rng))
        for e in out.events:
            kinds.add(e.kind)
            for lang in LANGS:
                text = T.event_text(e.to_json(), lang, ["ana", "ben"])
                assert text and "{" not in text and not re.search(r"#\d", text), (e.kind, text)
    assert {"start_pick", "took", "placed_tile", "claimed", "round_end", "game_over"} <= kinds
    assert {f"event.{k}" for k in kinds} <= set(table("cities"))


def test_the_games_spanish_terms():
    """The Spanish edition's words, as the Spanish texts use them."""
    es = {key: entry["es"] for key, entry in table("cities").items()}
    assert es["item.tile"].startswith("loseta de ciudad")
    assert es["item.feature"].startswith("loseta de característica")
    assert es["piece.red"] == "pieza roja"
    for term in ("cartas de puntuación", "logros", "barrio", "piezas de edificio", "losetas de ciudad"):
        assert term in es["rules"], term
