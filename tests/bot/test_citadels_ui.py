"""Citadels on Discord (bot/games/citadels.py): tokens, controls built from the legal actions only,
Discord's limits, English/Spanish texts, the draft priority list, a story that hides secrets."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.core.refusals import error_text
from bot.games import ui_for
from bot.games.citadels import CitadelsUI
from engines.ai import best_player
from engines.match import Match

UI = CitadelsUI()
TOKEN = re.compile(r"^[A-Za-z0-9_.\-]{1,80}$")
ALT = {"rank1": "witch", "rank2": "tax_collector", "rank3": "wizard", "rank4": "emperor", "rank5": "abbot",
       "rank6": "alchemist", "rank7": "navigator", "rank8": "diplomat"}


def _options(n: int, seed: int) -> dict:
    opts: dict = {"dark_city": seed % 2 == 0}
    if seed % 3 == 1:
        opts.update(ALT)
    if n == 8:
        opts["rank9"] = "queen" if seed % 2 else "artist"
    elif seed % 4 == 3:
        opts["rank9"] = "artist"
    return opts


def games(count_per_n: int = 2):
    """Seeded games over every player count, with Dark City and the alternate characters; half
    played by the heuristic AI (long, realistic games), half by random moves (odd corners)."""
    for n in range(2, 9):
        for k in range(count_per_n):
            seed = 100 * n + k
            yield n, seed, Match.create("citadels", [f"P{i}" for i in range(n)], _options(n, seed), seed=seed)


def states(m: Match, seed: int, every: int = 1):
    """(seat, view, legal) along a whole match, then the match is played to its end."""
    rng = random.Random(seed)
    ai = best_player("citadels")
    i = 0
    while not m.over:
        seat = m.to_move()[0]
        if i % every == 0:
            yield seat, m.view(seat), m.legal(seat)
        code = ai.choose(m.game, m.state, seat, rng) if seed % 2 else rng.choice(m.game.legal(m.state, seat))
        m.apply_code(seat, code)
        i += 1


def reachable(view, legal, lang):
    """Every token a person can reach from the first controls by picking in the select."""
    c = UI.controls(view, legal, lang)
    found = {b.token for b in c.buttons} | ({c.auto} if c.auto else set())  # auto: taken at once
    todo, seen = [o.token for o in c.select], set()
    while todo:
        value = todo.pop()
        if value in seen:
            continue
        seen.add(value)
        assert len(value) <= 100
        if not value.startswith("@"):
            found.add(value)
        cc = UI.controls(view, legal, lang, picked=value)
        check_limits(cc)
        found |= {b.token for b in cc.buttons}
        todo += [o.token for o in cc.select if o.token not in seen]
    return found


def check_limits(c):
    assert len(c.select) <= 25 and len(c.buttons) <= 20
    assert (c.select_placeholder is not None) == bool(c.select)
    for o in c.select:
        assert 1 <= len(o.label) <= 100 and len(o.token) <= 100
        assert o.description is None or len(o.description) <= 100
    for b in c.buttons:
        assert 1 <= len(b.label) <= 80 and TOKEN.match(b.token), b
        assert b.style in ("primary", "secondary", "success", "danger")
    assert len(c.text) <= 1500


def test_the_game_is_offered_with_its_presentation():
    assert isinstance(ui_for("citadels"), CitadelsUI)


def test_every_legal_action_round_trips_through_its_token():
    seen_types = set()
    for _n, seed, m in games(2):
        for _seat, _view, legal in states(m, seed):
            for a in legal:
                tok = UI.token(a)
                assert TOKEN.match(tok), tok
                assert UI.action(tok) == a
                seen_types.add(a["type"])
    # the sample covers the draft, income, building and most powers
    assert {"draft", "discard_character", "income", "keep", "build", "end_turn", "murder", "rob",
            "bewitch", "swap_hands", "destroy", "exchange", "give_crown", "tribute"} <= seen_types


def test_controls_offer_exactly_the_legal_actions_within_discord_limits():
    checked = 0
    for _n, seed, m in games(1):
        for _seat, view, legal in states(m, seed, every=3):
            want = {UI.token(a) for a in legal}
            check_limits(UI.controls(view, legal, "en"))
            assert reachable(view, legal, "en") == want
            checked += 1
    assert checked > 300


def test_long_lists_are_grouped_and_paged():
    # a Lighthouse search offers the whole deck: far more than 25 options
    from engines.citadels import GAME
    from tests.citadels.helpers import scenario

    st_ = scenario(4, {"dark_city": True}, picks={0: ["assassin"], 1: ["king"], 2: ["thief"], 3: ["bishop"]},
                   hands={0: ["lighthouse"]}, gold={0: 9})
    seat = GAME.to_move(st_)[0]
    GAME.step(st_, seat, GAME.code_of({"type": "income", "take": "gold"}))
    GAME.step(st_, seat, GAME.code_of({"type": "build", "district": "lighthouse#1"}))
    view, legal = GAME.view(st_, seat), GAME.legal_json(st_, seat)
    assert len(legal) > 25 and view["pending"]["kind"] == "lighthouse"
    c = UI.controls(view, legal, "en")
    assert all(o.token.startswith("@") for o in c.select)  # colours first
    assert reachable(view, legal, "en") == {UI.token(a) for a in legal}
    # picking a card acts at once (issue 20: no green confirm; Undo is the safety net)
    leaf = UI.token(legal[0])
    assert UI.pick_action(leaf) == legal[0]
    assert UI.pick_action("@lighthouse") is None
    c = UI.controls(view, legal, "es", picked=leaf)
    assert not any(b.token == leaf for b in c.buttons)
    assert any(o.token == leaf for o in c.select)


@pytest.mark.parametrize("bad", ["", "b", "b-", "b-manor#2", "b-manor.9", "b-nothing.1", "dr-pope", "sw-x", "sw-123",
                                 "in-silver", "gy-2", "wt-manor.1", "ex-manor.1", "end-1", "zz-1", "b-manor.1-1",
                                 "tr-", "a" * 81, "dr king", "dr-King"])
def test_malformed_tokens_are_refused(bad):
    with pytest.raises(ValueError):
        UI.action(bad)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=90))
def test_any_text_is_an_action_or_a_value_error(s):
    try:
        a = UI.action(s)
    except ValueError:
        return
    assert UI.token(a) == s  # whatever is accepted is canonical


def test_texts_exist_in_english_and_spanish_and_differ():
    m = Match.create("citadels", ["a", "b", "c", "d", "e"], {}, seed=3)
    done = 0
    for _seat, view, legal in states(m, 3, every=5):
        en, es = UI.controls(view, legal, "en"), UI.controls(view, legal, "es")
        assert en.text != es.text
        for a in legal:
            assert UI.describe(a, "Ana", "en") != UI.describe(a, "Ana", "es") or a["type"] == "thank"
        assert UI.status(m.view(None), m.seats, "en") != UI.status(m.view(None), m.seats, "es")
        done += 1
    assert done > 10
    assert UI.rules["en"] != UI.rules["es"] and "Condotiero" in UI.rules["es"] and "Warlord" in UI.rules["en"]


def test_engine_refusals_are_registered_in_both_languages():
    assert "5" in error_text("cannot_afford", {"cost": 5}, "en") and "gold" in error_text("cannot_afford", {"cost": 5}, "en")
    assert "cuesta 5" in error_text("cannot_afford", {"cost": 5}, "es")
    assert "Emperador" in error_text("crown_first", {}, "es")
    # a code other games also use is worded by Citadels for a Citadels refusal
    assert error_text("not_in_hand", {}, "en", game="citadels") == "That district is not in your hand."
    assert error_text("not_in_hand", {}, "es", game="citadels") == "Ese distrito no está en tu mano."


def test_the_story_never_names_a_secret():
    secret = [
        ({"type": "draft", "character": "king"}, ("King", "Rey")),
        ({"type": "discard_character", "character": "thief"}, ("Thief", "Ladrón")),
        ({"type": "keep", "card": "palace#1"}, ("Palace", "Palacio")),
        ({"type": "magician_discard", "card": "palace#1"}, ("Palace", "Palacio")),
        ({"type": "laboratory", "card": "palace#1"}, ("Palace", "Palacio")),
        ({"type": "museum", "card": "palace#1"}, ("Palace", "Palacio")),
        ({"type": "tribute", "pay": "card", "card": "palace#1"}, ("Palace", "Palacio")),
        ({"type": "wizard_take", "card": "palace#1", "build": False}, ("Palace", "Palacio")),
        ({"type": "lighthouse", "card": "palace#1"}, ("Palace", "Palacio")),
    ]
    for action, words in secret:
        for lang, word in zip(("en", "es"), words, strict=True):
            story = UI.describe(action, "Ana", lang)
            assert "Ana" in story and word not in story, story
            assert word in UI.label(action, lang)  # the mover's own label does name it
    public = UI.describe({"type": "murder", "character": "bishop"}, "Ana", "es")
    assert public == "Ana asesina al Obispo"  # the character's article, its gender (a la Bruja)
    assert UI.describe({"type": "bewitch", "character": "queen"}, "Ana", "es") == "Ana hechiza a la Reina"
    assert UI.describe({"type": "murder", "character": "witch"}, "Ana", "pt") == "Ana assassina a Bruxa"
    assert UI.describe({"type": "build", "district": "palace#2"}, "Ana", "es") == "Ana construye el Palacio"
    assert UI.describe({"type": "build", "district": "university#1"}, "Ana", "es") == "Ana construye la Universidad"
    assert "Merchant" in UI.describe({"type": "rob", "character": "merchant"}, "Ana", "en")


def test_parse_prefs_accepts_english_and_spanish_names():
    assert UI.parse_prefs("Architect, rey, MERCADER, the Warlord") == ["architect", "king", "merchant", "warlord"]
    assert UI.parse_prefs("ladron; Ladrón,  tax collector\nCondotiero") == ["thief", "tax_collector", "warlord"]
    assert UI.parse_prefs("el Asesino, la Reina, diplomático") == ["assassin", "queen", "diplomat"]
    # Portuguese names, and those of other editions (la Asesina, el Señor de la Guerra)
    assert UI.parse_prefs("o Senhor da Guerra, Rainha, ladrão") == ["warlord", "queen", "thief"]
    assert UI.parse_prefs("la Asesina, Señor de la Guerra, Arquitecta") == ["assassin", "warlord", "architect"]
    for bad in ("Architect, Pope", "", " , ,", "kingg"):
        with pytest.raises(ValueError):
            UI.parse_prefs(bad)


def test_auto_action_takes_the_first_preferred_legal_character_in_the_draft_only():
    m = Match.create("citadels", ["a", "b", "c", "d", "e", "f", "g"], {}, seed=11)
    seat = m.to_move()[0]
    view, legal = m.view(seat), m.legal(seat)
    offered = [a["character"] for a in legal]
    missing = [c for c in m.view(None)["characters"] if c not in offered]
    prefs = missing + [offered[2], offered[0]]
    assert UI.auto_action(view, legal, prefs) == {"type": "draft", "character": offered[2]}
    assert UI.auto_action(view, legal, missing) is None
    assert UI.auto_action(view, legal, []) is None
    # once the draft is over, the orders do nothing
    while m.view(None)["phase"] == "draft":
        s = m.to_move()[0]
        m.apply(s, m.legal(s)[0])
    s = m.to_move()[0]
    assert UI.auto_action(m.view(s), m.legal(s), list(m.view(None)["characters"])) is None


def test_draft_controls_show_only_what_the_drafter_may_see():
    m = Match.create("citadels", [f"P{i}" for i in range(4)], {}, seed=5)
    seat = m.to_move()[0]
    view, legal = m.view(seat), m.legal(seat)
    c = UI.controls(view, legal, "es")
    assert {b.token for b in c.buttons} == {f"dr-{a['character']}" for a in legal}
    assert not c.select
    for ch in view["face_up"]:
        from bot.games.citadels import ch_name

        assert ch_name(ch, "es") in c.text  # the face-up cards are named
    assert "Ronda 1" in c.text


def test_other_players_are_named_when_the_names_are_known():
    swap = {"type": "swap_hands", "seat": 2}
    assert UI.describe(swap, "Ana", "en", names=["Ana", "Ben", "Cara"]) == "Ana swaps hands with Cara"
    assert UI.describe(swap, "Ana", "es") == "Ana cambia su mano con Jugador 3"
    m = Match.create("citadels", ["Ana", "Ben", "Cara"], {}, seed=1)
    from engines.citadels import GAME
    from tests.citadels.helpers import scenario

    m.state = scenario(3, picks={0: ["magician"], 1: ["king"], 2: ["bishop"]})
    seat = GAME.to_move(m.state)[0]
    view = {**m.view(seat), "names": m.seats}
    labels = [b.label for b in UI.controls(view, m.legal(seat), "en").buttons]
    assert "Swap hands with Ben" in labels and "Swap hands with Cara" in labels


def test_the_collect_button_says_how_much_it_pays():
    from engines.citadels import GAME
    from tests.citadels.helpers import act, scenario

    st_ = scenario(3, picks={0: ["king"], 1: ["bishop"], 2: ["warlord"]},
                   cities={0: ["manor", "palace", "school_of_magic", "temple"]})
    view, legal = GAME.view(st_, 0), GAME.legal_json(st_, 0)
    label = next(b.label for b in UI.controls(view, legal, "en").buttons if b.token == "col")
    before = st_.gold[0]
    act(st_, 0, {"type": "collect"})
    assert label == f"Collect noble gold (+{st_.gold[0] - before})" == "Collect noble gold (+3)"


def test_the_destroy_labels_show_the_price_the_engine_states():
    from bot.games.citadels import entries_for
    from engines.citadels import GAME
    from tests.citadels.helpers import act, scenario

    st_ = scenario(3, {"dark_city": True}, picks={0: ["warlord"]},
                   cities={1: ["manor", "great_wall"]}, gold={0: 9})
    view, legal = GAME.view(st_, 0), GAME.legal_json(st_, 0)
    label = next(e.label for e in entries_for(view, legal, "en") if e.token == "de-manor.1")
    stated = next(d["destroy_price"] for d in view["players"][1]["city"] if d["id"] == "manor#1")
    act(st_, 0, {"type": "destroy", "district": "manor#1"})
    assert stated == 9 - st_.gold[0] == 3  # cost 3 - 1, +1 for the Great Wall
    assert f"({stated} gold)" in label


def test_every_special_district_is_explained_in_both_languages():
    from bot.games.citadels import PURPLE
    from engines.citadels import cards as C

    assert set(PURPLE) == {k for k in C.KINDS if C.KIND_COLOUR[k] == "purple"}
    assert all(e["en"] != e["es"] and all(e.get(lang) for lang in ("en", "es", "pt")) for e in PURPLE.values())
    m = Match.create("citadels", ["a", "b"], {"dark_city": True}, seed=1)
    from engines.citadels import GAME
    from tests.citadels.helpers import scenario

    m.state = scenario(2, {"dark_city": True}, picks={0: ["king", "bishop"], 1: ["merchant", "warlord"]},
                       hands={0: ["smithy", "manor"]}, gold={0: 9})
    GAME.step(m.state, 0, GAME.code_of({"type": "income", "take": "gold"}))
    c = UI.controls(m.view(0), m.legal(0), "es")
    # few districts to build are buttons (one tap): what a special one does is told in the text
    smithy = next(o for o in [*c.select, *c.buttons] if o.token == "b-smithy.1")
    assert "Herrería" in smithy.label
    assert "roba 3 cartas" in (smithy.description or "") + c.text


def test_the_draft_text_recalls_what_the_drafter_saw_earlier():
    m = Match.create("citadels", ["a", "b", "c"], {}, seed=4)
    first = m.to_move()[0]
    seen = [a["character"] for a in m.legal(first)]
    m.apply(first, {"type": "draft", "character": seen[0]})
    while m.to_move()[0] != first:
        s = m.to_move()[0]
        m.apply(s, m.legal(s)[0])
    text = UI.controls(m.view(first), m.legal(first), "en").text
    from bot.games.citadels import ch_name

    assert "Earlier this round you saw: " + ", ".join(ch_name(c, "en") for c in seen) in text
    assert "You already hold: " + ch_name(seen[0], "en") in text


def test_a_draft_pick_is_quiet_until_the_draft_ends_as_the_engine_events_say():
    """Secret steps come from the engine: a draft pick's events are private; the pick that ends
    the draft emits a public "draft_done", so it is posted (bot/games/base.py quiet_step)."""
    m = Match.create("citadels", ["a", "b", "c", "d"], {}, seed=5)
    quiet = []
    while m.view(None)["phase"] == "draft":
        seat = m.to_move()[0]
        action = m.legal(seat)[0]
        out = m.apply(seat, action)
        quiet.append(UI.quiet_step(action, out.events))
    assert quiet[-1] is False and all(quiet[:-1]) and len(quiet) >= 4
    # a public step is never quiet, whatever its events
    seat = m.to_move()[0]
    action = next(a for a in m.legal(seat) if a["type"] == "income")
    assert UI.quiet_step(action, m.apply(seat, action).events) is False
    # another game's private draw (Lost Cities from the deck) is not a secret step
    lc = Match.create("lost-cities", ["a", "b"], {}, seed=1)
    lc.apply(0, next(a for a in lc.legal(0) if a["type"] == "discard"))
    draw = {"type": "draw", "from": "deck"}
    events = lc.apply(0, draw).events
    assert events and all(e.private_to for e in events)
    assert ui_for("lost-cities").quiet_step(draw, events) is False


def test_targeting_and_building_come_from_the_action_declarations():
    from engines.citadels import actions as A

    assert A.targeting_characters() == {"assassin", "witch", "thief"}
    view = {"players": []}
    marked = UI.mark_since(view, [
        (0, {"type": "build", "district": "manor#1"}),
        (1, {"type": "wizard_take", "card": "temple#1", "build": True}),
        (1, {"type": "wizard_take", "card": "temple#2", "build": False}),
        (2, {"type": "income", "take": "gold"}),
    ])
    assert marked["since"] == [[0, "manor#1"], [1, "temple#1"]]
    assert UI.mark_since(view, [(2, {"type": "income", "take": "gold"})]) is view


def test_the_turn_ends_by_itself_when_ending_is_the_only_legal_move():
    """Controls.auto carries the end of the turn when it is the only legal move (the person's
    auto-end setting on, the default); with the setting off it is a button as before."""
    end = [{"type": "end_turn"}]
    view = {"phase": "turn", "players": [], "viewer": 0}
    c = UI.controls(view, end, "en")
    assert c.auto == UI.token(end[0]) and [b.token for b in c.buttons] == [c.auto]  # the button stays too
    off = UI.controls(view, end, "en", auto_end=False)
    assert off.auto is None and [b.token for b in off.buttons] == [UI.token(end[0])]
    two = [{"type": "end_turn"}, {"type": "income", "take": "gold"}]
    assert UI.controls(view, two, "en").auto is None
    assert ui_for("lost-cities").auto_end([{"type": "draw", "from": "deck"}]) is None
