"""The illustrated Lost Cities guide of ``/partida rules``: a turn in two steps and how an
expedition scores (its points asked of the engine). The words come from the game's own module
(bot/games/lost_cities.py, ``GUIDE``), passed in as ``t``."""

from __future__ import annotations

from PIL import Image, ImageDraw

from render.common import UI, mix, paste, pill, text
from render.guides import ARROW, MARGIN, W, arrow, canvas, caption, title


def _lc_turn(t: dict[str, str], lang: str) -> Image.Image:
    from render.lost_cities import card_back, empty_slot, hand_card, table_card

    img = canvas(700)
    y = title(img, t["lc1_title"])
    d = ImageDraw.Draw(img)
    cw, ch = 120, 84
    # the hand on top, the expedition (left) and the pile (right) below it
    hx, hy = (W - 110) // 2, y + 30
    text(d, (hx, hy - 8), t["lc1_hand"], 22, UI["muted"], anchor="ls")
    paste(img, hand_card("blue-8", lang, 110, 150), (hx, hy))
    ex, ey = 70, y + 220
    text(d, (ex, ey - 8), t["lc1_exp"], 22, UI["muted"], anchor="ls")
    for k, card in enumerate(("blue-3", "blue-5")):
        paste(img, table_card(card, cw, ch, 40), (ex, ey + k * 40))
    px, py = W - 70 - cw, ey
    text(d, (px + cw, py - 8), t["lc1_pile"], 22, UI["muted"], anchor="rs")
    paste(img, empty_slot("blue", cw, ch), (px, py))
    arrow(d, (hx - 6, hy + 110), (ex + cw + 10, ey + 30))
    arrow(d, (hx + 116, hy + 110), (px - 10, py + 30), colour=mix(ARROW, UI["bg"], 0.35))
    cy = ey + 40 + ch + 20
    pill(img, (MARGIN, cy + 14), "1", 24, ARROW, anchor="lm")
    caption(d, (MARGIN + 40, cy), t["lc1_play"], W // 2 - MARGIN - 60, 22)
    caption(d, (W // 2 + 20, cy), t["lc1_discard"], W // 2 - MARGIN - 20, 22, UI["muted"])
    # step 2: draw
    by = cy + 110
    pill(img, (MARGIN, by + 30), "2", 24, ARROW, anchor="lm")
    paste(img, card_back(44, 62), (MARGIN + 44, by))
    text(d, (MARGIN + 96, by + 31), t["lc1_deck"], 22, UI["muted"], anchor="lm")
    bottom = caption(d, (MARGIN + 200, by), t["lc1_draw"], W - MARGIN - 200 - MARGIN, 22)
    return img.crop((0, 0, W, max(bottom, by + 70) + 16))


def _lc_points(cards: tuple[str, ...]) -> tuple[int, int, int]:
    """(sum of the numbers, multiplier, points) of an expedition, the points asked of the engine."""
    from engines.lost_cities import CARD_IDS, RANK, expedition_score

    codes = [CARD_IDS[c] for c in cards]
    wagers = sum(1 for c in codes if RANK[c] == 0)
    return sum(RANK[c] for c in codes), 1 + wagers, expedition_score(codes)


def _lc_score(t: dict[str, str], lang: str) -> Image.Image:
    from render.lost_cities import table_card

    img = canvas(700)
    y = title(img, t["lc2_title"])
    d = ImageDraw.Draw(img)
    y = caption(d, (MARGIN, y), t["lc2_rule"], W - 2 * MARGIN, 24, UI["accent"], bold=True) + 16
    cw, ch = 120, 84
    for k, (col, key, dy) in enumerate(((LC_GOOD, "lc2_a", 60), (LC_BAD, "lc2_b", 20))):
        yy = y if k == 0 else y + (len(LC_GOOD) - 1) * 40 + ch + 50
        for i, card in enumerate(col):
            paste(img, table_card(card, cw, ch, 40), (MARGIN + 20, yy + i * 40))
        total, mult, points = _lc_points(col)
        numbers = " + ".join(c.rpartition("-")[2] for c in col if not c.rpartition("-")[2].startswith("w"))
        shown = f"+{points}" if points > 0 else str(points).replace("-", "−")
        text(d, (MARGIN + 20 + cw / 2, yy + (len(col) - 1) * 40 + ch + 22), shown, 28,
             UI["good"] if points > 0 else UI["bad"], anchor="mm", bold=True)
        words = t[key].format(cards=numbers, sum=total, mult=mult, points=str(points).replace("-", "−"))
        caption(d, (MARGIN + 170, yy + dy), words, W - MARGIN - 170 - MARGIN, 22)
        if k == 1:
            caption(d, (MARGIN + 170, yy + 90), t["lc2_c"], W - MARGIN - 170 - MARGIN, 20, UI["muted"])
            bottom = yy + (len(col) - 1) * 40 + ch + 44
    return img.crop((0, 0, W, bottom))


# the two example expeditions of the scoring picture
LC_GOOD = ("green-w1", "green-4", "green-6", "green-7", "green-9")
LC_BAD = ("red-2", "red-3")


def guide_images(t: dict[str, str], lang: str) -> list[Image.Image]:
    return [_lc_turn(t, lang), _lc_score(t, lang)]
