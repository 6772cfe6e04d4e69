"""The renderer against real engine views (engines.lost_cities), from a seeded random match."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

lc = pytest.importorskip("engines.lost_cities")

from render.lost_cities import board_png, hand_png  # noqa: E402


@pytest.mark.parametrize("purple", [False, True])
def test_real_views_render_and_never_leak_the_hand(purple):
    game = lc.GAME
    state = game.new_state(2, lc.Options(rounds=1, purple=purple), seed=7 if purple else 3, setup=None)
    pick = random.Random(11)
    steps = 0
    while True:
        movers = game.to_move(state)
        if steps % 37 == 0 or not movers:
            public = game.view(state, None)
            board = board_png(public, ["Ana", "Bruno"], "es")
            assert Image.open(io.BytesIO(board)).size[0] == 800
            for seat in (0, 1):
                seen = game.view(state, seat)
                assert board_png(seen, ["Ana", "Bruno"], "es") == board
                if seen["hand"]:
                    assert Image.open(io.BytesIO(hand_png(seen, "en"))).size[0] == 600
        if not movers:
            break
        seat = movers[0]
        game.step(state, seat, pick.choice(game.legal(state, seat)))
        steps += 1
    assert game.view(state, None)["phase"] == "over"
