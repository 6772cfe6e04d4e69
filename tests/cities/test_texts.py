"""Every refusal, event and legal action of Cities has an English and a Spanish text."""

import random
import re

from engines.ai import RandomPlayer
from engines.cities import GAME
from engines.cities import texts as T
from engines.core import EngineError
from engines.match import Match

from .test_properties import candidates


def test_every_refusal_code_met_in_play_has_both_texts():
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
                        for lang in ("en", "es"):
                            text = T.error_text(e.code, e.params, lang)
                            assert text and "{" not in text, (e.code, lang, text)
        seat = m.to_move()[0]
        m.apply_code(seat, RandomPlayer().choose(GAME, s, seat, rng))
    assert {"not_your_turn", "slot_taken", "must_take", "must_place"} <= codes
    assert codes <= set(T.ERRORS)


def test_refusal_texts_translate_their_colours_and_designs():
    assert T.error_text("wrong_colour", {"x": 1, "y": 2, "colour": "yellow"}, "es").startswith("Una pieza amarilla")
    assert "monumento" in T.error_text("space_built", {"x": 0, "y": 0, "design": "monument"}, "es")
    for code, entry in T.ERRORS.items():
        assert set(entry) == {"en", "es"} and entry["en"] != entry["es"], code


def test_every_event_and_action_of_a_match_reads_in_both_languages():
    m = Match.create("cities", ["ana", "ben"], seed=8)
    rng = random.Random(8)
    kinds = set()
    while not m.over:
        seat = m.to_move()[0]
        for a in m.legal(seat)[:30]:
            en, es = T.action_label(a, "en"), T.action_label(a, "es")
            assert en and es and en != es and "{" not in en + es, a
        out = m.apply_code(seat, RandomPlayer().choose(GAME, m.state, seat, rng))
        for e in out.events:
            kinds.add(e.kind)
            for lang in ("en", "es"):
                text = T.event_text(e.to_json(), lang, ["ana", "ben"])
                assert text and "{" not in text and not re.search(r"#\d", text), (e.kind, text)
    assert {"start_pick", "took", "placed_tile", "claimed", "round_end", "game_over"} <= kinds
    assert kinds <= set(T.EVENTS)


def test_the_games_spanish_terms():
    assert T.TERMS["city_tile"]["es"] == "loseta de ciudad"
    assert T.TERMS["feature_tile"]["es"] == "loseta de característica"
    assert T.TERMS["building_piece"]["es"] == "pieza de edificio"
    assert T.TERMS["scoring_card"]["es"] == "carta de puntuación"
    assert T.TERMS["achievement"]["es"] == "logro"
    assert T.TERMS["neighbourhood"]["es"] == "barrio"
