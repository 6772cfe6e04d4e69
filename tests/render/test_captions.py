"""Captions say what they show: the Carcassonne catch-up line counts every tile laid since the
viewer's last turn (the framed last one included), and no name is broken with a hyphen inside a
word that fits whole on its card ("Monast-ery")."""

from __future__ import annotations

import random

import pytest

from render.common import clear_caches, floor, legible, recording, text_width


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("k", [1, 2, 4])
def test_carcassonne_catch_up_caption_counts_every_new_tile(lang, k):
    from engines.carcassonne import GAME
    from engines.carcassonne.ai import GreedyPlayer
    from render import carcassonne as R

    st = GAME.new_state(3, GAME.parse_options({}), 4, None)
    p, rng = GreedyPlayer(), random.Random(4)
    for _ in range(10):
        seat = GAME.to_move(st)[0]
        GAME.step(st, seat, p.choose(GAME, st, seat, rng))
    view = GAME.view(st, None)
    new = [[b["x"], b["y"]] for b in view["board"][-k:]]  # the last of them is the framed last tile
    assert new[-1] == [view["last"]["x"], view["last"]["y"]]
    with recording() as rec:
        R.board_image({**view, "since": new}, ["A", "B", "C"], lang)
    want = R._t(lang, "since", n=k)
    caption = " ".join(t for _, _, t in sorted(rec.places, key=lambda p: (p[1], p[0])) if len(t) > 3 and t in want)
    assert caption == want
    assert caption.startswith(f"{k} ")  # the number the player reads is the number of tiles


def test_no_district_name_is_hyphenated_when_its_words_fit():
    from engines.citadels import cards
    from render import citadels as R

    clear_caches()
    with legible(R.W), recording() as rec:
        low = floor()
        for lang in ("en", "es"):
            for kind in cards.KINDS:
                R.district_card(kind, cards.KIND_COLOUR[kind], 3, 3, False, lang, R.CARD_W, R.CARD_H)
                label = R.d_name(kind, lang)
                broken = [t for _, t in rec.texts if t.endswith("-") and t[:-1] in label]
                for part in broken:
                    word = next(w for w in label.split() if w.startswith(part[:-1]))
                    # only a word wider than the card even at the phone floor may be split
                    assert text_width(word, low, True) > R.CARD_W - 6, (lang, label, part)
                    assert len(part) - 1 >= 4 and len(word) - len(part) + 1 >= 4, (label, part)
    names = {t for _, t in rec.texts}
    for whole in ("Monastery", "Watchtower", "Battlefield", "Graveyard", "Monasterio"):
        assert whole in names or any(whole in t for t in names), whole
