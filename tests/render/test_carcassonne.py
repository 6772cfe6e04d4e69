"""Carcassonne pictures: every sample state renders to a sane PNG, the public board is the same
whatever the viewer (and does not depend on the pile order), meeples and the last tile show,
meeple spots sit on their feature, big tables become a viewport, languages differ, tiles are cached."""

from __future__ import annotations

import io
import random
import time

import pytest
from PIL import Image

from engines.carcassonne import GAME
from engines.carcassonne.ai import GreedyPlayer
from engines.carcassonne.tiles import LETTERS
from render import carcassonne as R

NAMES = ["Ana", "Benedicto", "Carla García-Ñúñez", "Dmitri", "Eve 🐉", "Fátima"]
MAX_BYTES = 600 * 1024  # a few hundred KB; Discord's limit is far above (8+ MB)


# -- sample states (played by the engine, so they are real) ---------------------------------------


def greedy(n: int, seed: int, stop: int | None = None, **options):
    s = GAME.new_state(n, GAME.parse_options(options), seed, None)
    p, rng = GreedyPlayer(), random.Random(seed)
    k = 0
    while (movers := GAME.to_move(s)) and (stop is None or k < stop):
        GAME.step(s, movers[0], p.choose(GAME, s, movers[0], rng))
        k += 1
    return s


def medina_states():
    """(archaeologist on the ruins, seat 0 may dig) and (seat 0 chooses between two tiles)."""
    s = GAME.new_state(2, GAME.parse_options({"medina": True}), None, ["medina", "U", "V", "E", "U", "V", "K", "B", "U", "W"])

    def first(seat, pred=lambda c: True):
        return next(c for c in GAME.legal(s, seat) if pred(c))

    while not GAME.can_use_archaeologist(s, 0):
        seat = GAME.to_move(s)[0]
        if GAME.view(s, seat)["tile"] == "medina":
            GAME.step(s, seat, first(seat, lambda c: len(c) == 4 and c[3] == "ruins"))
        else:
            GAME.step(s, seat, first(seat))
    dig = GAME.clone(s)
    GAME.step(s, 0, ("medina_use",))
    return dig, s


def random_big(tiles: int, seed: int = 5):
    s = GAME.new_state(3, GAME.parse_options({"sets": 1 + tiles // 72}), seed, None)
    rng = random.Random(seed)
    for _ in range(tiles - 1):
        movers = GAME.to_move(s)
        legal = GAME.legal(s, movers[0])
        GAME.step(s, movers[0], legal[int(rng.random() * len(legal))])
    return s


def sample_states() -> dict[str, object]:
    dig, choose = medina_states()
    return {
        "start_2p": GAME.new_state(2, GAME.parse_options({}), 1, None),
        "early_3p": greedy(3, 2, stop=8),
        "mid_5p": greedy(5, 3, stop=40),
        "mid_6p_rules1": greedy(6, 4, stop=50, rules=1),
        "end_4p_rules2": greedy(4, 6, rules=2),
        "end_5p": greedy(5, 3),
        "medina_dig": dig,
        "medina_choose": choose,
    }


@pytest.fixture(scope="module")
def samples():
    return sample_states()


def png(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    img = Image.open(io.BytesIO(data))
    img.verify()
    return Image.open(io.BytesIO(data)).convert("RGB")


def names_for(state) -> list[str]:
    return NAMES[: len(GAME.view(state, None)["scores"])]


# -- tests -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "es"])
def test_every_sample_renders_phone_sized_pngs(samples, lang):
    for key, s in samples.items():
        pub = GAME.view(s, None)
        img = png(data := R.board_png(pub, names_for(s), lang))
        assert img.width == R.W and 500 <= img.height <= 2200, (key, img.size)
        assert len(data) < MAX_BYTES, key
        for seat in GAME.to_move(s):
            mine = GAME.view(s, seat)
            h = R.hand_png(mine, names_for(s), lang)
            assert len(h) < MAX_BYTES and png(h).width == R.W
            for p in (mine["legal"] or [])[:2]:
                pv = R.preview_png(mine, None, lang, p["x"], p["y"], p["rot"], spots=p["meeples"])
                assert len(pv) < MAX_BYTES and png(pv).height > 500


def test_public_board_is_the_same_for_every_viewer(samples):
    for key, s in samples.items():
        names = names_for(s)
        public = R.board_png(GAME.view(s, None), names, "en")
        for seat in range(len(names)):
            assert R.board_png(GAME.view(s, seat), names, "en") == public, (key, seat)


def test_pictures_never_need_the_pile_order(samples):
    s = samples["mid_5p"]
    other = GAME.clone(s)
    random.Random(1).shuffle(other.pile)
    assert other.pile != s.pile
    seat = GAME.to_move(s)[0]
    assert R.board_png(GAME.view(other, None), NAMES[:5], "en") == R.board_png(GAME.view(s, None), NAMES[:5], "en")
    assert R.hand_png(GAME.view(other, seat), None, "es") == R.hand_png(GAME.view(s, seat), None, "es")


def _count(img: Image.Image, colour, box=None) -> int:
    region = img.crop(box) if box else img
    return sum(n for n, c in region.getcolors(1 << 20) if c == colour)


def test_meeples_in_seat_colours_and_the_last_tile_frame_show(samples):
    s = samples["end_5p"]
    view = GAME.view(s, None)
    img = R.board_image(view, NAMES[:5], "en")
    top = R._top(view, NAMES[:5], "en", None, [])[1] + R.results_height(5)  # game over: a results table
    on_table = {m["seat"] for b in view["board"] for m in b["meeples"]}
    assert on_table  # farmers and open features stay at the end
    for seat in range(5):
        n = _count(img, R.seat_colour(seat), (0, top, img.width, img.height))
        assert (n > 20) == (seat in on_table), seat
    # without the meeples (same table) the seat colours vanish from the table
    bare = {**view, "board": [{**b, "meeples": []} for b in view["board"]]}
    img2 = R.board_image(bare, NAMES[:5], "en")
    assert all(_count(img2, R.seat_colour(seat), (0, top, img2.width, img2.height)) < 5 for seat in range(3))
    assert _count(img, R.LAST) > 100  # the last tile's frame


def test_meeple_spots_sit_on_their_feature():
    view = GAME.view(GAME.new_state(2, GAME.parse_options({}), 1, None), None)
    size = 120
    want = {"city": R.CITY, "road": R.ROAD, "farm": R.FIELD}
    for tile in LETTERS:
        for rot in range(4):
            img = R.tile_image(view, tile, rot, size)
            for f in view["geometry"][tile]["features"]:
                if f["kind"] not in want:
                    continue
                u, v = R.feature_anchor(view, tile, rot, f["id"])
                assert 0.05 < u < 0.95 and 0.05 < v < 0.95, (tile, rot, f["id"])
                x, y = int(u * size), int(v * size)
                around = {img.getpixel((x + dx, y + dy)) for dx in (-2, 0, 2) for dy in (-2, 0, 2)}
                assert want[f["kind"]] in around, (tile, rot, f["id"], around)


def test_field_spots_of_one_tile_are_apart():
    view = GAME.view(GAME.new_state(2, GAME.parse_options({}), 1, None), None)
    for tile in LETTERS:
        pts = [R.feature_anchor(view, tile, 0, f["id"]) for f in view["geometry"][tile]["features"]]
        for i in range(len(pts)):
            for j in range(i + 1, len(pts)):
                d = ((pts[i][0] - pts[j][0]) ** 2 + (pts[i][1] - pts[j][1]) ** 2) ** 0.5
                assert d > 0.12, (tile, i, j)


def test_spot_labels_name_kind_and_direction():
    view = GAME.view(GAME.new_state(2, GAME.parse_options({}), 1, None), None)
    assert R.spot_label(view, "E", 0, "c0", "en") == "city (north)"
    assert R.spot_label(view, "E", 2, "c0", "es") == "ciudad (sur)"
    assert R.spot_label(view, "U", 0, "f0", "en") == "field (north)"
    assert R.spot_label(view, "U", 1, "f0", "en") == "field (east)"
    assert R.spot_label(view, "B", 0, "m", "es") == "monasterio"


def test_languages_differ_and_pictures_are_deterministic(samples):
    s = samples["mid_5p"]
    view = GAME.view(s, None)
    en = R.board_png(view, NAMES[:5], "en")
    assert en != R.board_png(view, NAMES[:5], "es")
    assert en == R.board_png(view, NAMES[:5], "en")


def test_hand_marks_the_legal_places_and_shows_the_tile(samples):
    s = samples["mid_5p"]
    seat = GAME.to_move(s)[0]
    mine = GAME.view(s, seat)
    assert R.legal_cells(mine) == {(x, y) for x, y, _, _ in GAME.placements(s, seat)}
    hand = R.hand_image(mine, NAMES[:5], "en")
    board = R.board_image(GAME.view(s, None), NAMES[:5], "en")
    assert hand.height > board.height  # the extra line, same table
    white = (255, 255, 255)
    assert _count(hand, white) > _count(board, white) + 500


def test_preview_shows_the_ghost_tile_and_numbered_spots(samples):
    s = samples["mid_5p"]
    seat = GAME.to_move(s)[0]
    mine = GAME.view(s, seat)
    p = next(p for p in mine["legal"] if len(p["meeples"]) >= 2)
    with_spots = R.preview_image(mine, None, "en", p["x"], p["y"], p["rot"], spots=p["meeples"])
    plain = R.preview_image(mine, None, "en", p["x"], p["y"], p["rot"])
    chosen = R.preview_image(mine, None, "en", p["x"], p["y"], p["rot"], meeple=p["meeples"][0])
    assert with_spots.tobytes() != plain.tobytes()
    assert _count(chosen, R.seat_colour(seat)) > _count(plain, R.seat_colour(seat)) + 50
    rots = sorted({q["rot"] for q in mine["legal"] if (q["x"], q["y"]) == (p["x"], p["y"])})
    sheet = png(R.rotations_png(mine, "es", p["x"], p["y"], rots))
    assert sheet.width == R.ROT_W and sheet.height > 300


def test_tiles_are_cached_per_tile_rotation_and_size():
    view = GAME.view(GAME.new_state(2, GAME.parse_options({}), 1, None), None)
    a = R.tile_image(view, "K", 1, 80)
    assert R.tile_image(view, "K", 1, 80) is a
    assert R.tile_image(view, "K", 2, 80) is not a and R.tile_image(view, "K", 1, 81).size == (81, 81)
    # a rotation really turns the picture: K turned four times is K again, turned once is not
    assert R.tile_image(view, "K", 0, 80).tobytes() != a.tobytes()


def test_a_big_table_becomes_a_viewport_with_an_overview():
    s = random_big(1500)
    view = GAME.view(s, None)
    ext = R._extent(view["board"])
    assert (ext[2] - ext[0]) * R.MIN_CELL > R.W  # too wide to show whole at a readable size
    t0 = time.perf_counter()
    data = R.board_png(view, NAMES[:3], "en")
    elapsed = time.perf_counter() - t0
    img = png(data)
    assert img.width == R.W and img.height < 2000 and len(data) < MAX_BYTES
    assert elapsed < 2.0  # generous for a shared CI machine; the bench shows ~50 ms
    # the last tile is in the viewport (its frame is drawn)
    assert _count(R.board_image(view, NAMES[:3], "en"), R.LAST) > 100
    seat = GAME.to_move(s)[0]
    hand = png(R.hand_png(GAME.view(s, seat), None, "en"))
    assert hand.width == R.W


def test_names_with_emoji_or_missing_still_render():
    s = greedy(3, 9, stop=5)
    view = GAME.view(s, None)
    for names in (["🐉🐉", "", "x" * 80], None):
        png(R.board_png(view, names, "es"))


def test_every_legal_place_is_in_the_movers_picture_and_lettered_like_the_menu(samples):
    big = random_big(150)
    for key, s in [*samples.items(), ("marathon", big)]:
        for seat in GAME.to_move(s):
            mine = GAME.view(s, seat)
            spots = R.legal_cells(mine)
            if not spots:
                continue
            x0, y0, cols, rows, cell, _ = R.table_frame(mine, spots)
            assert all(x0 <= x < x0 + cols and y0 <= y < y0 + rows for x, y in spots), key
            assert cell >= R.MIN_HAND_CELL
            labels = R.place_labels(mine)
            assert set(labels) == spots and len(set(labels.values())) == len(spots)
            assert sorted(labels.values(), key=lambda v: (len(v), v))[0] == "A"


def test_the_turn_and_last_move_in_words(samples):
    s = samples["mid_5p"]
    view = GAME.view(s, None)
    names = NAMES[:5]
    line1, turn, last = R._header_lines(view, names, "en")
    assert turn == f"{names[view['to_move'][0]]} to move"
    assert R.tile_words(view, view["last"]["tile"], "en") in last and "(" not in last.split(",")[0]
    assert R.tile_words(view, "X", "es") == "un cruce de 4 caminos"
    assert R.tile_words(view, "O", "en") == "a city corner with a shield and a curved road"


def test_the_catch_up_picture_marks_the_tiles_laid_since_the_last_turn():
    """Tiles laid since the viewer's last turn get white corners and a line saying so; the picture
    without them has neither (bot.games.carcassonne.mark_since builds the list from the log)."""
    import random as _random

    from bot.games import ui_for
    from engines.carcassonne import GAME
    from engines.carcassonne.ai import GreedyPlayer
    from render import carcassonne as R

    st = GAME.new_state(3, GAME.parse_options({}), 4, None)
    p, rng, log = GreedyPlayer(), _random.Random(4), []
    for _ in range(12):
        seat = GAME.to_move(st)[0]
        code = p.choose(GAME, st, seat, rng)
        GAME.step(st, seat, code)
        log.append((seat, GAME.encode(code)))
    view = GAME.view(st, None)
    marked = ui_for("carcassonne").mark_since(view, log[-3:])
    assert marked["since"] == [[a["x"], a["y"]] for _, a in log[-3:]]
    assert ui_for("carcassonne").mark_since(view, [(0, {"type": "choose", "tile": "D"})]) is view

    def white(img):
        return {c: n for n, c in img.convert("RGB").getcolors(1 << 24)}.get((255, 255, 255), 0)

    plain, caught_up = R.board_image(view, ["A", "B", "C"], "en"), R.board_image(marked, ["A", "B", "C"], "en")
    assert caught_up.height > plain.height  # the line telling what the corners mean
    assert white(caught_up) > white(plain) + 3 * 40  # two more tiles with four white corners each
