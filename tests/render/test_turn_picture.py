"""One picture per turn DM, phone-first: for each game a seat's turn picture holds the table with
what changed since the viewer's last turn marked, the places lettered (Carcassonne) and the hand,
and stays at most ~900 px tall once shown 400 px wide, for 2-4 players from the first turns to
the last. (render.<game>.turn_image is what the bot's turn DM should send.)"""

from __future__ import annotations

import random

import pytest

from render.common import clean_text, clear_caches, recording, seen_scale

MAX_PHONE_H = 900
NAMES = ["Ana", "Benedicto", "Carla García-Ñúñez", "Dmitri"]


def _phone_h(img) -> float:
    return img.height * seen_scale(img.width)


# -- Carcassonne ---------------------------------------------------------------------------------


def _carc_views(n: int, seed: int):
    from engines.carcassonne import GAME
    from engines.carcassonne.ai import GreedyPlayer

    s = GAME.new_state(n, GAME.parse_options({}), seed, None)
    p, rng = GreedyPlayer(), random.Random(seed)
    out, k = [], 0
    while GAME.to_move(s):
        if k in (3, 25, 55):
            seat = GAME.to_move(s)[0]
            v = GAME.view(s, seat)
            out.append({**v, "since": [[b["x"], b["y"]] for b in v["board"][-n:]]})
        seat = GAME.to_move(s)[0]
        GAME.step(s, seat, p.choose(GAME, s, seat, rng))
        k += 1
    return out


@pytest.mark.parametrize("n", [2, 3, 4])
def test_carcassonne_turn_picture(n):
    from render import carcassonne as R

    for v in _carc_views(n, 10 + n):
        clear_caches()
        with recording() as rec:
            img, where = R.turn_image(v, NAMES[:n], "en")
        assert _phone_h(img) <= MAX_PHONE_H, (n, img.size)
        labels = R.place_labels(v)
        assert set(where) == {labels[c] for c in R.place_pages(v)[0]}  # every place of the page lettered
        texts = " ".join(t for _, t in rec.texts)
        assert R._t("en", "your_tile") in texts  # the hand: the drawn tile
        assert R._t("en", "since", n=n).split(":")[0] in texts  # the catch-up marks, counted


# -- Lost Cities ---------------------------------------------------------------------------------


def test_lost_cities_turn_picture():
    from engines.ai import best_player
    from engines.match import Match
    from render import lost_cities as R

    m = Match.create("lost-cities", NAMES[:2], {}, seed=4)
    p, rng = best_player("lost-cities"), random.Random(4)
    k = 0
    checked = 0
    while not m.over:
        seat = m.to_move()[0]
        if k % 17 == 0:
            v = m.view(seat)
            clear_caches()
            with recording() as rec:
                img = R.turn_image(v, m.seats, "es")
            assert _phone_h(img) <= MAX_PHONE_H, img.size
            drawn = [t for _, t in rec.texts]
            for card in v["hand"]:  # every card of the hand, by its value (wagers by their coin)
                value = card.rsplit("-", 1)[1]
                if not value.startswith("w"):
                    assert value in drawn, (card, v["hand"])
            checked += 1
        m.apply_code(seat, p.choose(m.game, m.state, seat, rng))
        k += 1
    assert checked >= 5


# -- Citadels ------------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 3, 4])
def test_citadels_turn_picture(n):
    from render import citadels as R
    from tests.render.gallery import citadels_match

    for steps in (6, 60, 140, 220):
        m = citadels_match(n, 20 + n, steps)
        if m.over:
            continue
        seat = (m.to_move() or [0])[0]
        v = m.view(seat)
        since = [[p["seat"], p["city"][-1]["id"]] for p in v["players"] if p["city"] and p["seat"] != seat]
        clear_caches()
        with recording() as rec:
            img = R.turn_image({**v, "since": since}, m.seats, "en")
        assert _phone_h(img) <= MAX_PHONE_H, (n, steps, img.size)
        drawn = " ".join(t for _, t in rec.texts)
        for c in v.get("hand") or []:  # the hand, every card by name (maybe on two lines)
            assert all(w in drawn for w in R.d_name(c["kind"], "en").split()), c
        if since:
            assert R._n("en", "new_since", 1) in drawn  # "framed: 1 new since your last turn"
        for p in v["players"]:  # every city, district by district, in the compact chips
            for dist in p["city"]:
                assert any(t.startswith(R.d_name(dist["kind"], "en")[:6]) for _, t in rec.texts), dist


# -- Cities --------------------------------------------------------------------------------------


@pytest.mark.parametrize(("n", "limit"), [(2, MAX_PHONE_H), (3, MAX_PHONE_H), (4, 950)])
def test_cities_turn_picture(n, limit):
    """Every 10th turn step of a match, in every language (longer names must not make it taller).
    4 players in the last rounds: up to 940 px on a phone (four full neighbourhoods with their
    scoring cards listed), a little over the ~900 aimed at."""
    from bot.games import ui_for
    from engines.ai import best_player
    from engines.match import Match
    from render import cities as R

    m = Match.create("cities", NAMES[:n], {}, seed=n)
    p, rng = best_player("cities"), random.Random(n)
    log: list = []
    k = 0
    while not m.over:
        seat = m.to_move()[0]
        if k % 10 == 9:
            v = ui_for("cities").mark_since(m.view(seat), [x for x in log[-12:] if x[0] != seat])
            for lang in ("en", "es", "pt"):
                clear_caches()
                with recording() as rec:
                    img = R.turn_image(v, NAMES[:n], lang)
                assert _phone_h(img) <= limit, (n, k, lang, img.size)
                drawn = " ".join(t for _, t in rec.texts)
                if v.get("since"):
                    new = {R._t(lang, "new_since", n=k).split(" ", 1)[1] for k in (1, 2)}  # "new (white corners)"
                    assert R._t(lang, "since_head") in drawn and any(w in drawn for w in new), (lang, drawn)
                    assert lang != "en" or ("since your last turn" in drawn and "new (white corners)" in drawn)
                assert clean_text(NAMES[seat])[:5] in drawn
        code = p.choose(m.game, m.state, seat, rng)
        m.apply_code(seat, code)
        log.append((seat, m.game.encode(code)))
        k += 1
