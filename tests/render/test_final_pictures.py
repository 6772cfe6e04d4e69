"""Final pictures put the winner and the ranking first: the winner's name in the header line and
the table of final scores (best first) right under it, in the first screenful of a phone; Lost
Cities' table has a column per round with that round's points."""

from __future__ import annotations

import random

import pytest

from render.common import clean_text, clear_caches, recording, seen_scale
from tests.render.gallery import NAMES, carcassonne_states, citadels_matches

TOP = 220  # px of an 800 px picture: the first 110 px on a phone


def _cities_over(n: int = 4):
    from engines.ai import best_player
    from engines.match import Match

    m = Match.create("cities", NAMES[:n], {}, seed=11)
    p, rng = best_player("cities"), random.Random(1)
    while not m.over:
        seat = m.to_move()[0]
        m.apply_code(seat, p.choose(m.game, m.state, seat, rng))
    return m


def _drawn(draw):
    clear_caches()
    with recording() as rec:
        img = draw()
    return img, rec


def _is(drawn: str, name: str) -> bool:
    """``drawn`` is ``name`` (without what the font cannot draw), maybe cut with "…" to fit,
    maybe after a star."""
    drawn, name = drawn.removeprefix("★ "), clean_text(name)
    return drawn == name or (drawn.endswith("…") and name.startswith(drawn[:-1]))


def _y(rec, s: str) -> float:
    """The top-most y of a text drawn exactly as ``s``."""
    return min(y for _, y, t in rec.places if t == s)


def _check_first(rec, winner: str, head: str, order: list[str]) -> None:
    """The winner's line comes first, then the table's heading near the top, then the rows in
    the order given (best first)."""
    win_y = min(y for _, y, t in rec.places if clean_text(winner) in t and ("win" in t or "gana" in t))
    head_y = _y(rec, head)
    assert win_y < head_y <= TOP, (win_y, head_y)
    rows = [min(y for _, y, t in rec.places if _is(t, name) and y > head_y) for name in order]
    assert rows == sorted(rows) and rows[0] > head_y, rows


@pytest.mark.parametrize("lang", ["en", "es"])
def test_citadels_final_picture_starts_with_winner_and_ranking(lang):
    from render import citadels as R

    m = citadels_matches()["over_7p"]
    v = m.view(None)
    ranking = [s for place in v["result"]["ranking"] for s in place]
    names = R._names(m.seats, len(m.seats), lang)
    img, rec = _drawn(lambda: R.board_image(v, m.seats, lang))
    _check_first(rec, names[ranking[0]], R.TEXTS[lang]["res_head"], [names[s] for s in ranking])
    # the player blocks follow in the order of the ranking too (the winner's city first)
    table_end = _y(rec, R.TEXTS[lang]["res_head"]) + R.RES_HEAD + R.RES_ROW * len(ranking)
    blocks = [min(y for _, y, t in rec.places if _is(t, names[s]) and y > table_end) for s in ranking]
    assert blocks == sorted(blocks)
    # the cities as compact chips: 7 players fit about two phone screens (were 1,327 px at 400 wide)
    assert img.height * seen_scale(img.width) <= 1000, img.size


@pytest.mark.parametrize("lang", ["en", "es"])
def test_carcassonne_final_picture_starts_with_winner_and_ranking(lang):
    from engines.carcassonne import GAME
    from render import carcassonne as R

    v = GAME.view(carcassonne_states()["end_5p"], None)
    names = NAMES[:5]
    order = sorted(range(5), key=lambda s: (-v["scores"][s], s))
    img, rec = _drawn(lambda: R.board_image(v, names, lang))
    _check_first(rec, names[v["winner"][0]], R._t(lang, "res_head"), [names[s] for s in order])


@pytest.mark.parametrize("lang", ["en", "es"])
def test_cities_final_picture_starts_with_winner_and_ranking(lang):
    from render import cities as R

    m = _cities_over()
    v = m.view(None)
    names = NAMES[:4]
    total = {p["seat"]: p["score"]["total"] for p in v["players"]}
    order = sorted(total, key=lambda s: (-total[s], s))
    img, rec = _drawn(lambda: R.board_image(v, names, lang))
    _check_first(rec, names[v["winner"][0]], R._t(lang, "res_head"), [names[s] for s in order])


@pytest.mark.parametrize("lang", ["en", "es"])
def test_lost_cities_final_picture_has_the_round_by_round_table(lang):
    from render import lost_cities as R
    from tests.render.samples import NAMES as LC_NAMES
    from tests.render.samples import game_over, public

    v = public(game_over())
    img, rec = _drawn(lambda: R.board_image(v, LC_NAMES, lang))
    t = R.TEXTS[lang]
    head_y = _y(rec, t["final"])
    assert rec.y_of(t["over"]) < head_y <= TOP
    for r in range(len(v["round_scores"])):
        assert _y(rec, t["round_col"].format(n=r + 1)) > head_y
    for seat, name in enumerate(LC_NAMES):
        row_y = min(y for _, y, s in rec.places if _is(s, name) and y > head_y)
        row = [s for _, y, s in sorted(rec.places) if y == row_y]
        want = [str(r[seat]) for r in v["round_scores"]] + [str(v["totals"][seat])]
        assert row[1:] == want, (name, row)
    assert not any(s.startswith("R1:") for _, s in rec.texts)  # the cryptic form is gone
