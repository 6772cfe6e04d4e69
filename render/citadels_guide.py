"""The illustrated Citadels guide of ``/partida rules``: a round (the draft, then the characters
called by rank) and a turn. The words come from the game's own module (bot/games/citadels.py,
``GUIDE``), passed in as ``t``."""

from __future__ import annotations

from PIL import Image, ImageDraw

from render.common import UI, paste, text
from render.guides import MARGIN, W, arrow, canvas, caption, title


def _cit_round(t: dict[str, str], lang: str) -> Image.Image:
    from engines.citadels.cards import RANK
    from render import citadels as C

    img = canvas(560)
    y = title(img, t["cit1_title"])
    d = ImageDraw.Draw(img)
    paste(img, C.crown(48, 36), (MARGIN, y + 4))
    y = caption(d, (MARGIN + 64, y), t["cit1_draft"], W - 2 * MARGIN - 64, 22) + 16
    chars = ["assassin", "thief", "magician", "king", "bishop", "merchant", "architect", "warlord"]
    tw, th, gap = 140, 70, 12
    for i, ch in enumerate(chars):
        x = MARGIN + (i % 5) * (tw + gap)
        yy = y + (i // 5) * (th + 20)
        paste(img, C.character_tile(ch, RANK[ch], C._lang(lang), tw, th, ""), (x, yy))
    yb = y + 2 * (th + 20)
    arrow(d, (MARGIN, yb + 6), (W - MARGIN, yb + 6))
    y = caption(d, (MARGIN, yb + 24), t["cit1_call"], W - 2 * MARGIN, 22) + 10
    bottom = caption(d, (MARGIN, y), t["cit1_power"], W - 2 * MARGIN, 20, UI["muted"])
    return img.crop((0, 0, W, bottom + 16))


def _cit_turn(t: dict[str, str], lang: str) -> Image.Image:
    from render import citadels as C

    lg = C._lang(lang)
    img = canvas(700)
    y = title(img, t["cit2_title"])
    d = ImageDraw.Draw(img)
    y = caption(d, (MARGIN, y), t["cit2_income"], W - 2 * MARGIN, 22) + 10
    paste(img, C.coin(22, "2"), (MARGIN + 20, y))
    text(d, (MARGIN + 76, y + 22), t["gold"], 22, UI["text"], anchor="lm")
    text(d, (MARGIN + 200, y + 22), "/", 30, UI["muted"], anchor="mm")
    paste(img, C.card_icon(32, 44), (MARGIN + 250, y))
    paste(img, C.card_icon(32, 44), (MARGIN + 290, y))
    text(d, (MARGIN + 340, y + 22), "→ 1", 24, UI["text"], anchor="lm", bold=True)
    y += 70
    y = caption(d, (MARGIN, y), t["cit2_build"], W - 2 * MARGIN, 22) + 12
    card = C.district_card("castle", "yellow", 4, 4, False, lg, 150, 110)
    paste(img, card, (MARGIN + 20, y))
    paste(img, C.coin(18, "4"), (MARGIN + 200, y + 36))
    arrow(d, (MARGIN + 250, y + 55), (MARGIN + 380, y + 55))
    text(d, (MARGIN + 400, y - 4), t["city"], 22, UI["muted"], anchor="la")
    for i, (kind, colour, cost) in enumerate((("temple", "blue", 1), ("market", "green", 2))):
        paste(img, C.district_card(kind, colour, cost, cost, False, lg, 150, 110), (MARGIN + 400 + i * 160 - (0 if i == 0 else 0), y + 24))
    y += 150
    bottom = caption(d, (MARGIN, y), t["cit2_score"], W - 2 * MARGIN, 20, UI["muted"])
    return img.crop((0, 0, W, bottom + 16))


def guide_images(t: dict[str, str], lang: str) -> list[Image.Image]:
    return [_cit_round(t, lang), _cit_turn(t, lang)]
