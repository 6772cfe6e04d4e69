"""Carcassonne on Discord (bot/games/carcassonne.py): the private steps offer exactly the legal
placements, tokens round-trip, every text fits Discord's limits, English and Spanish differ."""

from __future__ import annotations

import re

import pytest

from bot.core.refusals import error_text
from bot.games import ui_for
from bot.games.carcassonne import CarcassonneUI
from engines.carcassonne import GAME
from render import carcassonne as R
from tests.render.test_carcassonne import NAMES, greedy, medina_states, random_big

TOKEN = re.compile(r"^[A-Za-z0-9_.\-]{1,80}$")
ui = CarcassonneUI()


@pytest.fixture(scope="module")
def states():
    dig, choose = medina_states()
    return {
        "start": GAME.new_state(2, GAME.parse_options({}), 1, None),
        "mid": greedy(5, 3, stop=40),
        "late": greedy(4, 8, stop=60),
        "dig": dig,
        "choose": choose,
    }


@pytest.fixture
def no_pictures(monkeypatch):
    """Walking every path would draw hundreds of previews; pictures have their own tests."""
    import render.carcassonne as R

    for name in ("preview_png", "rotations_png", "hand_png"):
        monkeypatch.setattr(R, name, lambda *a, **k: b"\x89PNG-stub")


def seat_inputs(s):
    seat = GAME.to_move(s)[0]
    return seat, GAME.view(s, seat), GAME.legal_json(s, seat)


def check_limits(c):
    assert len(c.text) <= 2000
    assert len(c.select) <= 25
    values = [ch.token for ch in c.select]
    assert len(values) == len(set(values))
    for ch in c.select:
        assert 1 <= len(ch.label) <= 100 and len(ch.token) <= 100
        assert ch.description is None or len(ch.description) <= 100
    assert len(c.buttons) <= 20
    for b in c.buttons:
        assert 1 <= len(b.label) <= 80 and TOKEN.match(b.token), b
    for _placeholder, more in c.more_selects:  # further selects: Discord's limits each, 5 rows a message
        assert c.select and 1 <= len(more) <= 25
        assert all(1 <= len(ch.label) <= 100 and len(ch.token) <= 100 for ch in more)
    assert (1 if c.select else 0) + len(c.more_selects) + -(-len(c.buttons) // 5) <= 5


def walk(view, legal, lang="en"):
    """Follow every path of the private steps; returns the set of action tokens on the buttons."""
    reached: set[str] = set()
    seen: set[str | None] = set()
    todo: list[str | None] = [None]
    while todo:
        picked = todo.pop()
        if picked in seen:
            continue
        seen.add(picked)
        c = ui.controls(view, legal, lang, picked)
        check_limits(c)
        reached.update(b.token for b in c.buttons)
        # a place that leaves nothing to choose is laid by its pick (pick_action), the others narrow
        reached.update(ch.token for ch in c.select if ui.pick_action(ch.token) is not None)
        todo.extend(ch.token for ch in c.select if ui.pick_action(ch.token) is None)
        todo.extend(ch.token for _, more in c.more_selects for ch in more)  # further selects of the message
    return reached


def test_the_ui_is_found_by_key():
    assert isinstance(ui_for("carcassonne"), CarcassonneUI) and ui.key == "carcassonne"


@pytest.mark.parametrize("key", ["start", "mid", "late", "dig"])
def test_the_steps_offer_exactly_the_legal_placements(states, key, no_pictures):
    _, view, legal = seat_inputs(states[key])
    want = {ui.token(a) for a in legal}
    assert walk(view, legal) == want
    assert walk(view, legal, "es") == want


def test_steps_position_then_rotation_then_meeple(states):
    s = states["mid"]
    _, view, legal = seat_inputs(s)
    first = ui.controls(view, legal, "en", None)
    assert first.picture is None and not first.buttons  # the hand picture already shows the places
    cells = {(a["x"], a["y"]) for a in legal}
    # at.x.y narrows to the place; P.x.y.r (a place with nothing left to choose) lays it at once
    assert all(ch.token.startswith("at.") or ui.pick_action(ch.token) for ch in first.select)
    assert {tuple(int(v) for v in ch.token.split(".")[1:3]) for ch in first.select} == cells
    multi = next(ch.token for ch in first.select if "ways" in (ch.description or ""))
    # tap 2 (the place) already offers the meeple buttons, for the first way to turn it
    second = ui.controls(view, legal, "en", multi)
    assert second.picture and second.picture[:4] == b"\x89PNG" and second.buttons
    rots = [ch.token for ch in second.select if ch.token.startswith("rt.")]
    assert len(rots) >= 2 and second.select[-1].token.startswith("pg~")  # and a way back
    assert {b.token for b in second.buttons} == {b.token for b in ui.controls(view, legal, "en", rots[0]).buttons}
    third = ui.controls(view, legal, "en", rots[1])
    assert third.picture and third.buttons[0].label == "No meeple"
    x, y, r = (int(v) for v in rots[1].split(".")[1:])
    want = {ui.token(a) for a in legal if (a["x"], a["y"], a["rot"]) == (x, y, r)}
    # and the other ways to turn it, without a meeple, one tap each (drawn small on the preview)
    others = {ui.token(a) for a in legal if (a["x"], a["y"]) == (x, y) and a["rot"] != r and a.get("meeple") is None}
    assert others and {b.token for b in third.buttons} == want | others
    spots = [b for b in third.buttons if b.token in want][1:]
    for b in third.buttons:
        if b.token in others:
            deg = 90 * int(b.token.split(".")[3])
            assert b.label == f"Turned {deg}°, no meeple" and b.row == 4, b  # on a row of their own
    # spot buttons are numbered like the markers on the preview and say what the spot is
    for i, b in enumerate(spots, start=1):
        assert b.label.startswith(f"{i} · ") and re.search(r"(city|road|field|monastery)", b.label)


def test_a_place_with_a_single_rotation_skips_the_rotation_step(states):
    _, view, legal = seat_inputs(states["mid"])
    first = ui.controls(view, legal, "en", None)
    single = [ch.token for ch in first.select if (ch.description or "").startswith("fits 1 way ")]
    if not single:
        pytest.skip("no single-rotation place in this sample")
    c = ui.controls(view, legal, "en", single[0])
    assert c.buttons and all(b.token.startswith("P.") for b in c.buttons)


def test_stale_or_forged_picks_start_again(states):
    _, view, legal = seat_inputs(states["mid"])
    first = ui.controls(view, legal, "en", None)
    for bad in ("at.999.999", "rt.999.999.1", "zzz", "pg~-1", "rt.0.0.9"):
        c = ui.controls(view, legal, "en", bad)
        assert [ch.token for ch in c.select] == [ch.token for ch in first.select]
        assert not c.buttons


def test_many_places_are_paged(states, no_pictures):
    s = random_big(700)
    seat, view, legal = seat_inputs(s)
    cells = {(a["x"], a["y"]) for a in legal if a["type"] == "place"}
    assert len(cells) > 25
    # one page of places a message (with its own picture), "more" at the end of the places' select;
    # with three pages or more a second select goes to any other page at once
    seen: list[str] = []
    page, pages = 0, 0
    while page is not None:
        c = ui.controls(view, legal, "es", f"pg~{page}")
        check_limits(c)
        seen += [ch.token for ch in c.select if ch.token.startswith(("at.", "P."))]
        jumps = [ch.token for _, more in c.more_selects for ch in more]
        assert all(t.startswith("pg~") and t != f"pg~{page}" for t in jumps)
        if page == 0:
            total = len(R.place_pages(view, 23))
            assert sorted(jumps) == sorted(f"pg~{i}" for i in range(1, total)) if total > 2 else not jumps
        page = page + 1 if any(ch.token == f"pg~{page + 1}" for ch in c.select) else None
        pages += 1
    assert sorted(".".join(t.split(".")[1:3]) for t in seen) == sorted(f"{x}.{y}" for x, y in cells) and pages >= 2
    assert walk(view, legal) == {ui.token(a) for a in legal}


def test_tokens_round_trip_and_malformed_tokens_are_refused(states):
    for s in states.values():
        _, _, legal = seat_inputs(s)
        for a in legal:
            tok = ui.token(a)
            assert TOKEN.match(tok)
            assert ui.action(tok) == GAME.encode(GAME.decode(a)) or ui.action(tok) == a
    assert ui.action("P.-3.12.2.f1") == {"type": "place", "x": -3, "y": 12, "rot": 2, "meeple": "f1"}
    assert ui.action("P.0.-1.0") == {"type": "place", "x": 0, "y": -1, "rot": 0, "meeple": None}
    assert ui.action("M") == {"type": "medina_use"} and ui.action("C.K") == {"type": "choose", "tile": "K"}
    for bad in ("", "P", "P.1.2", "P.1.2.4", "P.a.b.1", "P.1.2.3.zz", "P.1.2.3.c0.x", "X.1", "C.Z", "C.", "M.1",
                "P.1 .2.3", "p.1.2.3", "at.1.2", "P.1.2.3.", "P.1234567.0.0"):
        with pytest.raises(ValueError):
            ui.action(bad)


def test_move_labels_are_distinct_and_bilingual(states):
    for key in ("mid", "late", "dig"):
        _, _, legal = seat_inputs(states[key])
        for lang in ("en", "es"):
            labels = [ui.label(a, lang) for a in legal]
            assert len(set(labels)) == len(labels), key
            assert all(len(lab) <= 100 for lab in labels)
    a = {"type": "place", "x": 2, "y": -1, "rot": 1, "meeple": "c0"}
    assert ui.label(a, "en") != ui.label(a, "es")
    assert "(2, -1)" in ui.label(a, "en") and "90" in ui.label(a, "en")
    assert "city" in ui.label(a, "en") and "ciudad" in ui.label(a, "es")
    assert ui.describe({"type": "medina_use"}, "Ana", "en") != ui.describe({"type": "medina_use"}, "Ana", "es")


def test_the_story_names_the_tile_in_words_and_the_points_scored():
    """Played by the engine until a move scores: the story line says the tile and the points."""
    import random

    from engines.carcassonne.ai import GreedyPlayer

    s = GAME.new_state(2, GAME.parse_options({}), 3, None)
    p, rng = GreedyPlayer(), random.Random(3)
    names = ["Ana", "Bruno"]
    for _ in range(60):
        seat = GAME.to_move(s)[0]
        code = p.choose(GAME, s, seat, rng)
        action = GAME.encode(code)
        out = GAME.step(s, seat, code)
        scored = [e for e in out.events if e.kind == "scored"]
        if action["type"] == "place" and scored:
            break
    else:
        pytest.fail("no scoring move in 60 turns")
    placed = next(e for e in out.events if e.kind == "placed")
    line = ui.describe(action, names[seat], "en", names=names, events=out.events)
    words = R.tile_words({"geometry": GAME.view(s, None)["geometry"]}, placed.data["tile"], "en")
    assert line.startswith(f"{names[seat]} laid {words}") and "(" not in words
    assert all(f"+{e.data['points']}" in line for e in scored)
    es = ui.describe(action, names[seat], "es", names=names, events=out.events)
    assert es.startswith(f"{names[seat]} puso ") and es != line
    # without the events (an old caller) it still says who laid a tile, with no coordinates
    assert ui.describe(action, "Ana", "en").startswith("Ana laid a tile")


def test_medina_dig_and_choice(states):
    _, view, legal = seat_inputs(states["dig"])
    c = ui.controls(view, legal, "en", None)
    assert any(b.token == "M" for b in c.buttons) and "archaeologist" in c.text
    _, view, legal = seat_inputs(states["choose"])
    c = ui.controls(view, legal, "es", None)
    assert {b.token for b in c.buttons} == {f"C.{t}" for t in view["hand"]} and not c.select
    assert c.text != ui.controls(view, legal, "en", None).text


def test_status_rules_and_refusals_in_both_languages(states):
    s = states["mid"]
    pub = GAME.view(s, None)
    en, es = ui.status(pub, NAMES[:5], "en"), ui.status(pub, NAMES[:5], "es")
    assert en != es and str(pub["tiles_left"]) in en and "3rd edition" in en and "Ana" in es
    assert "\n" not in en
    assert ui.rules["en"] != ui.rules["es"] and "edition" in ui.rules["en"].lower() and "edición" in ui.rules["es"].lower()
    assert len(ui.rules["en"]) < 1200 and len(ui.rules["es"]) < 1200
    es_text = error_text("edges_mismatch", {"tile": "K", "x": 1, "y": 2, "rot": 1}, "es")
    assert "encaja" in es_text and "(1, 2)" in es_text
    assert "meeple" in error_text("feature_occupied", {"kind": "city"}, "es")


def test_hand_picture_for_the_mover_and_board_for_others(states):
    s = states["mid"]
    seat = GAME.to_move(s)[0]
    other = (seat + 1) % 5
    mine = ui.hand_png(GAME.view(s, seat), "en")
    theirs = ui.hand_png(GAME.view(s, other), "en")
    assert mine[:4] == theirs[:4] == b"\x89PNG" and mine != theirs
    assert ui.board_png(GAME.view(s, None), NAMES[:5], "en")[:4] == b"\x89PNG"


def test_the_status_line_puts_the_final_scores_best_first():
    s = greedy(4, 6, rules=2)
    pub = GAME.view(s, None)
    assert pub["phase"] == "over"
    line = ui.status(pub, NAMES[:4], "en")
    order = sorted(range(4), key=lambda i: -pub["scores"][i])
    positions = [line.index(f"{NAMES[i]} {pub['scores'][i]}") for i in order]
    assert positions == sorted(positions)


def test_a_farmer_is_told_by_the_engine_not_by_the_feature_id():
    from engines.carcassonne import actions as CA
    from engines.carcassonne.tiles import GEOMETRY

    for tile, geo in GEOMETRY.items():
        for f in geo["features"]:
            assert CA.feature_kind(f["id"], tile) == f["kind"], (tile, f)
            assert CA.is_farmer(f["id"], tile) == (f["kind"] == "farm")
    assert CA.is_farmer(None) is False and CA.feature_kind("ruins") == "ruins"
