"""Pictures for Lost Cities, drawn only from an engine *view* dict (see engines.lost_cities).

* :func:`board_png` - the public table, 800 px wide: both expeditions per colour (long ones
  overlap more), running scores, discard piles, deck, round, whose turn, and the last move marked
  and told in words. It never reads ``view["hand"]`` (nor ``viewer``), so a seat view and the
  public view give the very same bytes.
* :func:`hand_png` - the viewer's hand (private view), 600 px wide, rows of four large cards.
* :func:`turn_png` - the one picture of a turn DM: the table with the viewer's hand in one row
  under it and what to do. At game over the table starts with the round-by-round scores.

Original flat art: rounded coloured cards, one shape per colour (colour-blind friendly: yellow
sun, blue wave, white mountain, green diamond, red flame, lilac star) and a coin for wager cards.
Texts in English ("en") and Spanish ("es").
"""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from render.common import (
    PALETTE,
    UI,
    cached,
    clean_text,
    draw_symbol,
    ellipsize,
    encode_png,
    frame,
    ink_for,
    legible,
    mix,
    new_canvas,
    paste,
    pill,
    rounded_sprite,
    supersampled,
    text,
    text_width,
    wrap,
)

COLOUR_ORDER = ("yellow", "blue", "white", "green", "red", "purple")
SYMBOL = {
    "yellow": "sun",
    "blue": "wave",
    "white": "triangle",
    "green": "diamond",
    "red": "drop",
    "purple": "star",
}
CARD_FILL = {c: PALETTE[c] for c in COLOUR_ORDER}
# A light lilac rather than the palette's purple: the darker one looks like blue to protanopes
# (tests/render/test_colour_blind.py); each colour also has its own symbol.
CARD_FILL["purple"] = (180, 130, 230)
CARD_EDGE = {c: mix(PALETTE[c], (0, 0, 0), 0.35) for c in COLOUR_ORDER}
CARD_EDGE["white"] = (150, 150, 145)

TEXTS: dict[str, dict[str, str]] = {
    "en": {
        "round": "Round {r}/{n}",
        "deck": "Deck: {n}",
        "to_move": "{name} to move",
        "play": "play or discard",
        "draw": "draw a card",
        "over": "Game over",
        "wins": "{names} wins",
        "win_many": "tie",
        "winner": "WINNER",
        "round_pts": "round {n}",
        "total_pts": "total {n}",
        "pile": "{n} in pile",
        "pile1": "1 in pile",
        "empty": "empty",
        "just": "can't take",
        "your_hand": "Your hand",
        "your_turn": "your turn: {what}",
        "played": "{name} played {card}",
        "discarded": "{name} discarded {card}",
        "drew_deck": "and drew from the deck",
        "drew_pile": "and drew from the {colour} pile",
        "card": "the {colour} {value}",
        "wager": "a {colour} wager",
        "last": "Last move: ",
        "no_last": "No moves yet this round",
        "and": " and ",
        "seat": "Player {n}",
        "final": "Final scores by round",
        "round_col": "Round {n}",
        "total_col": "Total",
    },
    "es": {
        "round": "Ronda {r}/{n}",
        "deck": "Mazo: {n}",
        "to_move": "le toca a {name}",
        "play": "jugar o descartar",
        "draw": "robar una carta",
        "over": "Fin de la partida",
        "wins": "gana {names}",
        "win_many": "empate",
        "winner": "GANA",
        "round_pts": "ronda {n}",
        "total_pts": "total {n}",
        "pile": "{n} en la pila",
        "pile1": "1 en la pila",
        "empty": "vacía",
        "just": "no se roba",
        "your_hand": "Tu mano",
        "your_turn": "tu turno: {what}",
        "played": "{name} jugó {card}",
        "discarded": "{name} descartó {card}",
        "drew_deck": "y robó del mazo",
        "drew_pile": "y robó de la pila {colour}",
        "card": "el {value} {colour}",
        "wager": "una apuesta {colour}",
        "last": "Última jugada: ",
        "no_last": "Aún no hay jugadas en esta ronda",
        "and": " y ",
        "seat": "Jugador {n}",
        "final": "Puntuación final por ronda",
        "round_col": "Ronda {n}",
        "total_col": "Total",
    },
}

# Colour names: English; Spanish masculine (cards: "el 7 rojo") and feminine ("la pila roja").
COLOUR_NAMES = {
    "en": {c: c for c in COLOUR_ORDER},
    "es": {
        "yellow": "amarillo",
        "blue": "azul",
        "white": "blanco",
        "green": "verde",
        "red": "rojo",
        "purple": "morado",
    },
}
COLOUR_NAMES_FEM = {
    "en": COLOUR_NAMES["en"],
    "es": {
        "yellow": "amarilla",
        "blue": "azul",
        "white": "blanca",
        "green": "verde",
        "red": "roja",
        "purple": "morada",
    },
}


def _t(lang: str) -> dict[str, str]:
    return TEXTS.get(lang, TEXTS["en"])


def _lang(lang: str) -> str:
    return lang if lang in TEXTS else "en"


def _split(card: str) -> tuple[str, str]:
    """'red-7' -> ('red', '7'); 'red-w2' -> ('red', 'w2')."""
    colour, _, value = card.rpartition("-")
    return colour, value


def _is_wager(value: str) -> bool:
    return value.startswith("w")


def card_name(card: str, lang: str) -> str:
    colour, value = _split(card)
    t = _t(lang)
    lang = _lang(lang)
    if _is_wager(value):
        return t["wager"].format(colour=COLOUR_NAMES_FEM[lang].get(colour, colour))
    return t["card"].format(colour=COLOUR_NAMES[lang].get(colour, colour), value=value)


# ---------------------------------------------------------------------------------------------
# Card sprites (cached; supersampled so edges and shapes are smooth)

TABLE_CARD_W, TABLE_CARD_H, STRIP = 150, 104, 46


@cached(256)
def table_card(card: str, w: int = TABLE_CARD_W, h: int = TABLE_CARD_H, strip: int = STRIP) -> Image.Image:
    """A card as it lies in an expedition or on a discard pile: value and symbol in the top strip
    (the part that stays visible when cards overlap), a big faint symbol in the body."""
    colour, value = _split(card)
    fill = CARD_FILL.get(colour, PALETTE["grey"])
    edge = CARD_EDGE.get(colour, (90, 90, 90))
    ink = ink_for(fill)
    faint = mix(fill, ink, 0.22)

    def paint(d: ImageDraw.ImageDraw, s: int) -> None:
        d.rounded_rectangle((0, 0, w * s - 1, h * s - 1), 12 * s, fill=fill, outline=edge, width=2 * s)
        # strip separator, subtle
        d.line(
            (10 * s, strip * s - 3 * s, (w - 10) * s, strip * s - 3 * s), fill=mix(fill, ink, 0.15), width=s
        )
        sym = SYMBOL.get(colour, "circle")
        cy = (strip - 2) / 2
        k = min(16, strip * 0.36)  # half the size of the strip's symbols
        if _is_wager(value):
            draw_symbol(d, "coin", (10 * s, (cy - k) * s, (10 + 2 * k) * s, (cy + k) * s), ink, bg=fill)
        else:
            text(d, (12 * s, cy * s), value, int(min(36, strip * 0.8)) * s, ink, anchor="lm", bold=True)
        draw_symbol(d, sym, ((w - 14 - 2 * k) * s, (cy - k) * s, (w - 14) * s, (cy + k) * s), ink, bg=fill)
        # body: a large faint symbol (or coin for wagers)
        body_top, body_bot = strip + 4, h - 8
        r = (body_bot - body_top) / 2
        bx = w / 2
        by = (body_top + body_bot) / 2
        draw_symbol(
            d,
            "coin" if _is_wager(value) else sym,
            ((bx - r) * s, (by - r) * s, (bx + r) * s, (by + r) * s),
            faint,
            bg=fill,
        )

    return supersampled(w, h, paint)


@cached(256)
def hand_card(card: str, lang: str, w: int, h: int) -> Image.Image:
    """A large hand card: a big value in the middle, the colour's symbol in two corners and the
    colour's name at the bottom (or a big coin for a wager card)."""
    colour, value = _split(card)
    fill = CARD_FILL.get(colour, PALETTE["grey"])
    edge = CARD_EDGE.get(colour, (90, 90, 90))
    ink = ink_for(fill)
    # as in the texts: "el 7 rojo" (a number), "una apuesta roja" (a wager)
    names = COLOUR_NAMES_FEM if _is_wager(value) else COLOUR_NAMES
    name = names[_lang(lang)].get(colour, colour)
    sym = SYMBOL.get(colour, "circle")

    def paint(d: ImageDraw.ImageDraw, s: int) -> None:
        d.rounded_rectangle((0, 0, w * s - 1, h * s - 1), 14 * s, fill=fill, outline=edge, width=3 * s)
        c = 34
        draw_symbol(d, sym, (10 * s, 10 * s, (10 + c) * s, (10 + c) * s), ink, bg=fill)
        draw_symbol(d, sym, ((w - 10 - c) * s, 10 * s, (w - 10) * s, (10 + c) * s), ink, bg=fill)
        cx, cy = w / 2, h * 0.5
        if _is_wager(value):
            r = min(w, h) * 0.3
            draw_symbol(d, "coin", ((cx - r) * s, (cy - r) * s, (cx + r) * s, (cy + r) * s), ink, bg=fill)
        else:
            size = int(min(w * 0.5, h * 0.4))
            text(d, (cx * s, cy * s), value, size * s, ink, anchor="mm", bold=True)
        text(d, (cx * s, (h - 22) * s), name, 24 * s, ink, anchor="mm", bold=True, max_width=(w - 10) * s)

    return supersampled(w, h, paint)


@cached(32)
def empty_slot(colour: str, w: int = TABLE_CARD_W, h: int = TABLE_CARD_H) -> Image.Image:
    """An empty place for a colour: a dim outline with the colour's symbol."""
    base = CARD_FILL.get(colour, PALETTE["grey"])
    bright = colour == "white"
    fill = mix(UI["bg"], base, 0.05 if bright else 0.09)
    line = mix(UI["bg"], base, 0.35 if bright else 0.5)

    def paint(d: ImageDraw.ImageDraw, s: int) -> None:
        d.rounded_rectangle((0, 0, w * s - 1, h * s - 1), 12 * s, fill=fill, outline=line, width=2 * s)
        r = min(w, h) * 0.2
        draw_symbol(
            d,
            SYMBOL.get(colour, "circle"),
            ((w / 2 - r) * s, (h / 2 - r) * s, (w / 2 + r) * s, (h / 2 + r) * s),
            line,
            bg=fill,
        )

    return supersampled(w, h, paint)


@cached(8)
def card_back(w: int, h: int) -> Image.Image:
    back = (60, 44, 90)
    trim = (200, 170, 100)

    def paint(d: ImageDraw.ImageDraw, s: int) -> None:
        d.rounded_rectangle((0, 0, w * s - 1, h * s - 1), 8 * s, fill=back, outline=trim, width=2 * s)
        m = 6
        d.rounded_rectangle((m * s, m * s, (w - m) * s, (h - m) * s), 5 * s, outline=trim, width=s)
        r = min(w, h) * 0.26
        draw_symbol(d, "star", ((w / 2 - r) * s, (h / 2 - r) * s, (w / 2 + r) * s, (h / 2 + r) * s), trim)

    return supersampled(w, h, paint)


# ---------------------------------------------------------------------------------------------
# Board

W = 800  # seen at half size on a phone: texts of 20 px or more
MARGIN = 16
HEADER_H = 64
STATUS_H = 46
BAR_H = 52
SCORE_H = 40
PILE_CAPTION_H = 30
FOOTER_LINE = 32
#: Long expeditions overlap more (down to COMPACT_STRIP px a card) so that a column is never
#: taller than a card plus MAX_STEPS full strips.
MAX_STEPS = 6
COMPACT_STRIP = 30
LAST_COLOUR = (255, 255, 255)


def _names(names: list[str], n: int, lang: str) -> list[str]:
    out = []
    for i in range(n):
        raw = names[i] if i < len(names) and names[i] else ""
        name = clean_text(str(raw))
        out.append(name or _t(lang)["seat"].format(n=i + 1))
    return out


def _short(name: str, width: int = 360) -> str:
    """A name cut to fit inside a sentence (status line, last move)."""
    return ellipsize(name, 30, width, True)


def _status(view: dict[str, Any], names: list[str], lang: str) -> str:
    t = _t(lang)
    names = [_short(n) for n in names]
    if view.get("phase") == "over":
        winners = view.get("winner") or []
        who = ", ".join(names[s] for s in winners if 0 <= s < len(names))
        if len(winners) == 1:
            return f"{t['over']} · {t['wins'].format(names=who)}"
        if winners:
            return f"{t['over']} · {t['win_many']}"
        return t["over"]
    movers = [names[s] for s in view.get("to_move") or [] if 0 <= s < len(names)]
    if not movers:
        return ""
    what = t["draw"] if view.get("phase") == "draw" else t["play"]
    return f"{t['to_move'].format(name=', '.join(movers))} · {what}"


def _last_text(view: dict[str, Any], names: list[str], lang: str) -> str:
    t = _t(lang)
    names = [_short(n) for n in names]
    last = view.get("last")
    if not last:
        return t["no_last"]
    seat = last.get("seat", 0)
    name = names[seat] if 0 <= seat < len(names) else "?"
    key = "discarded" if last.get("how") == "discard" else "played"
    s = t[key].format(name=name, card=card_name(last.get("card", "?-?"), lang))
    draw = last.get("draw")
    if draw == "deck":
        s += " " + t["drew_deck"]
    elif draw:
        s += " " + t["drew_pile"].format(colour=COLOUR_NAMES_FEM[_lang(lang)].get(draw, draw))
    return t["last"] + s


def _fmt_score(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


TABLE_HEAD, TABLE_ROW = 74, 38


def score_table_h(view: dict[str, Any]) -> int:
    """Height of the round-by-round score table of the final picture (0 before the end: then the
    player bars say "total 52 = 40 + 12")."""
    if view.get("phase") != "over" or not view.get("round_scores"):
        return 0
    return TABLE_HEAD + TABLE_ROW * len(view.get("expeditions") or [{}, {}]) + 12


def _score_table(d: ImageDraw.ImageDraw, y: int, view: dict[str, Any], names: list[str], lang: str) -> int:
    """Game over: the points of every round per player and the total, best first (a table with
    its column names instead of "R1:40 R2:12"). Returns the bottom."""
    t = _t(lang)
    rs = view.get("round_scores") or []
    seats = len(view.get("expeditions") or [{}, {}])
    totals = view.get("totals") or [0] * seats
    winners = set(view.get("winner") or [])
    h = score_table_h(view)
    d.rectangle((0, y, W, y + h - 6), fill=UI["panel"])
    text(d, (MARGIN, y + 22), t["final"], 24, UI["accent"], anchor="lm", bold=True)
    heads = [t["round_col"].format(n=i + 1) for i in range(len(rs))] + [t["total_col"]]
    name_w = 220
    cw = (W - 2 * MARGIN - name_w) / len(heads)
    xs = [MARGIN + name_w + cw * (k + 0.5) for k in range(len(heads))]
    for x, head in zip(xs, heads, strict=True):
        text(d, (x, y + 56), head, 20, UI["muted"], anchor="mm", max_width=int(cw) - 4)
    order = sorted(range(seats), key=lambda s: (-totals[s], s))
    ry = y + TABLE_HEAD
    for s in order:
        ink = UI["good"] if s in winners else UI["text"]
        cy = ry + TABLE_ROW / 2
        text(d, (MARGIN, cy), ("★ " if s in winners else "") + names[s], 22, ink, anchor="lm", bold=True, max_width=name_w - 8)
        vals = [r[s] if s < len(r) else 0 for r in rs]
        for x, v in zip(xs, vals, strict=False):
            text(d, (x, cy), str(v), 22, UI["text"], anchor="mm")
        text(d, (xs[-1], cy), str(totals[s] if s < len(totals) else 0), 24, ink, anchor="mm", bold=True)
        ry += TABLE_ROW
    return y + h


def board_image(view: dict[str, Any], names: list[str], lang: str = "en") -> Image.Image:
    """The public board as a PIL image (see :func:`board_png`). Reads no hand."""
    with legible(W):
        return _board_image(view, names, lang)


def column_step(cards: int) -> int:
    """How far apart the cards of an expedition of ``cards`` cards are drawn (px)."""
    if cards <= MAX_STEPS + 1:
        return STRIP
    return max(COMPACT_STRIP, (MAX_STEPS * STRIP) // (cards - 1))


def _board_image(view: dict[str, Any], names: list[str], lang: str) -> Image.Image:
    t = _t(lang)
    colours = [c for c in view.get("colours") or COLOUR_ORDER[:5]]
    n = len(colours)
    expeditions = view.get("expeditions") or [{}, {}]
    seats = len(expeditions)
    names = _names(names, seats, lang)
    exp_scores = view.get("expedition_scores") or [{} for _ in range(seats)]
    discards = view.get("discards") or {}
    to_move = set(view.get("to_move") or [])
    over = view.get("phase") == "over"
    winners = set(view.get("winner") or []) if over else set()
    last = view.get("last") or None

    col_w = (W - 2 * MARGIN) / n
    cw = min(TABLE_CARD_W, int(col_w) - 14)
    ch = TABLE_CARD_H

    def col_x(i: int) -> int:
        return int(MARGIN + col_w * i + (col_w - cw) / 2)

    def col_h(cards: int) -> int:
        return ch + max(0, cards - 1) * column_step(cards)

    lens = [max([col_h(len(expeditions[s].get(c, []))) for c in colours] + [ch]) for s in range(seats)]
    block_h = [BAR_H + 12 + L + 6 + SCORE_H for L in lens]
    pile_h = 14 + ch + PILE_CAPTION_H + 8
    status = _status(view, names, lang)
    head_h = HEADER_H + (STATUS_H if status else 0)
    footer = wrap(_last_text(view, names, lang), 24, W - 2 * MARGIN)[:2]
    FOOTER_H = 16 + FOOTER_LINE * len(footer)
    table_h = score_table_h(view)
    H = head_h + table_h + sum(block_h) + pile_h + FOOTER_H + 8
    img = new_canvas(W, H)
    d = ImageDraw.Draw(img)

    # --- header: round, deck, status
    y = 0
    d.rectangle((0, 0, W, head_h), fill=UI["panel"])
    rnd = t["round"].format(r=view.get("round", 1), n=view.get("rounds", 1))
    x = MARGIN
    x += text(d, (x, HEADER_H / 2), rnd, 30, UI["text"], anchor="lm", bold=True) + 18
    bw, bh = 32, 44
    by = (HEADER_H - bh) // 2
    paste(img, card_back(bw, bh), (x, by))
    deck_box = (x, by, x + bw, by + bh)
    x += bw + 10
    x += (
        text(
            d,
            (x, HEADER_H / 2),
            t["deck"].format(n=view.get("deck", 0)),
            28,
            UI["text"],
            anchor="lm",
            bold=True,
        )
        + 20
    )
    if status:
        pill(img, (MARGIN, HEADER_H + STATUS_H // 2 - 6), status, 26, UI["accent"], anchor="lm", max_width=W - 2 * MARGIN)
    if last and last.get("draw") == "deck":
        frame(d, deck_box, 8, LAST_COLOUR, 3)
    y = _score_table(d, head_h, view, names, lang) if table_h else head_h

    def player_block(seat: int, y: int) -> int:
        bar_fill = UI["panel_hi"]
        ink = UI["text"]
        if seat in to_move and not over:
            bar_fill = UI["accent"]
            ink = (25, 25, 25)
        d.rectangle((0, y, W, y + BAR_H), fill=bar_fill)
        cy = y + BAR_H / 2
        # right side: this round's score, the total and the finished rounds summed into it
        # ("total 52 = 40 + 12"; the final picture has them in a table under the header)
        rs = view.get("round_score") or [0] * seats
        totals = view.get("totals") or [0] * seats
        right = W - MARGIN
        hist = [r[seat] for r in view.get("round_scores") or [] if seat < len(r)]
        if len(hist) >= 2 and not over:
            htxt = "= " + " + ".join(str(v) for v in hist)
            right -= text(d, (right, cy), htxt, 22, mix(ink, bar_fill, 0.3), anchor="rm") + 8
        tot = t["total_pts"].format(n=totals[seat] if seat < len(totals) else 0)
        right -= text(d, (right, cy), tot, 26, ink, anchor="rm", bold=True) + 16
        if not over:
            rtxt = t["round_pts"].format(n=_fmt_score(rs[seat] if seat < len(rs) else 0))
            right -= text(d, (right, cy), rtxt, 24, ink, anchor="rm", bold=False) + 16
        # left side: marker + name (+ winner pill)
        x = MARGIN
        if seat in to_move and not over:
            d.polygon([(x, cy - 13), (x + 20, cy), (x, cy + 13)], fill=ink)
            x += 32
        room = right - x - 10
        if seat in winners:
            room -= text_width(t["winner"], 20, True) + 30
        x += text(d, (x, cy), names[seat], 28, ink, anchor="lm", bold=True, max_width=max(60, room)) + 12
        if seat in winners:
            pill(img, (x, int(cy)), t["winner"], 20, UI["good"], anchor="lm")
        y += BAR_H + 12
        # columns
        exp = expeditions[seat]
        scores = exp_scores[seat] if seat < len(exp_scores) else {}
        for i, c in enumerate(colours):
            cards = exp.get(c, [])
            x0 = col_x(i)
            step = column_step(len(cards))
            if not cards:
                paste(img, empty_slot(c, cw, ch), (x0, y))
            for k, card in enumerate(cards):
                paste(img, table_card(card, cw, ch, step if k < len(cards) - 1 else STRIP), (x0, y + k * step))
            if (
                last
                and last.get("how") == "play"
                and last.get("seat") == seat
                and cards
                and cards[-1] == last.get("card")
            ):
                ky = y + (len(cards) - 1) * step
                frame(d, (x0 - 3, ky - 3, x0 + cw + 3, ky + ch + 3), 14, LAST_COLOUR, 5)
            sc = scores.get(c, 0)
            sy = y + lens[seat] + 6 + SCORE_H / 2
            if cards:
                colr = UI["good"] if sc > 0 else UI["bad"] if sc < 0 else UI["text"]
                text(d, (x0 + cw / 2, sy), _fmt_score(sc), 28, colr, anchor="mm", bold=True)
            else:
                text(d, (x0 + cw / 2, sy), "–", 26, UI["muted"], anchor="mm")
        return y + lens[seat] + 6 + SCORE_H

    def piles(y: int) -> int:
        d.rectangle((0, y, W, y + pile_h), fill=mix(UI["bg"], UI["panel"], 0.5))
        d.line((0, y, W, y), fill=UI["line"], width=2)
        d.line((0, y + pile_h - 1, W, y + pile_h - 1), fill=UI["line"], width=2)
        y0 = y + 14
        for i, c in enumerate(colours):
            pile = discards.get(c, [])
            x0 = col_x(i)
            if pile:
                if len(pile) > 1:  # hint of a stack under the top card
                    paste(img, rounded_sprite(cw, ch, 12, CARD_EDGE.get(c, (90, 90, 90))), (x0 + 5, y0 - 5))
                paste(img, table_card(pile[-1], cw, ch), (x0, y0))
            else:
                paste(img, empty_slot(c, cw, ch), (x0, y0))
            if last and last.get("how") == "discard" and pile and pile[-1] == last.get("card"):
                frame(d, (x0 - 3, y0 - 3, x0 + cw + 3, y0 + ch + 3), 14, LAST_COLOUR, 5)
            if last and last.get("draw") == c:
                frame(d, (x0 - 6, y0 - 6, x0 + cw + 6, y0 + ch + 6), 14, LAST_COLOUR, 4, dashed=True)
            cy = y0 + ch + PILE_CAPTION_H / 2 + 4
            if view.get("just_discarded") == c and view.get("phase") == "draw":
                cap, colr = t["just"], UI["bad"]
            elif pile:
                cap = t["pile1"] if len(pile) == 1 else t["pile"].format(n=len(pile))
                colr = UI["muted"]
            else:
                cap, colr = t["empty"], UI["muted"]
            text(d, (x0 + cw / 2, cy), cap, 22, colr, anchor="mm", max_width=int(col_w) - 4)
        return y + pile_h

    # seat 0 on top, piles in the middle, seat 1 below (like the two sides of the table)
    y = player_block(0, y)
    y = piles(y + 8)
    for s in range(1, seats):
        y = player_block(s, y)

    # --- footer: the last move in words
    d.rectangle((0, H - FOOTER_H, W, H), fill=UI["panel"])
    for i, line in enumerate(footer):
        text(d, (MARGIN, H - FOOTER_H + 8 + FOOTER_LINE * (i + 0.5)), line, 24, UI["text"], anchor="lm", max_width=W - 2 * MARGIN)
    return img


def board_png(view: dict[str, Any], names: list[str], lang: str = "en") -> bytes:
    """The public board picture (PNG bytes). ``names[i]`` is seat i's display name."""
    return encode_png(board_image(view, names, lang))


# ---------------------------------------------------------------------------------------------
# Hand

HAND_W = 600  # two rows of four large cards
HAND_CARD_W, HAND_CARD_H = 132, 176
HAND_TITLE_H = 58
HAND_PER_ROW = 4


def hand_image(view: dict[str, Any], lang: str = "en") -> Image.Image:
    """The viewer's hand as a PIL image (see :func:`hand_png`)."""
    with legible(HAND_W):
        return _hand_image(view, lang)


def _hand_image(view: dict[str, Any], lang: str) -> Image.Image:
    t = _t(lang)
    hand = list(view.get("hand") or [])
    gap = 10
    cw, ch = HAND_CARD_W, HAND_CARD_H
    rows = max(1, (len(hand) + HAND_PER_ROW - 1) // HAND_PER_ROW)
    viewer = view.get("viewer")
    mine = view.get("phase") != "over" and viewer is not None and viewer in (view.get("to_move") or [])
    turn_h = 44 if mine else 0
    H = HAND_TITLE_H + turn_h + rows * (ch + gap) + 14
    img = new_canvas(HAND_W, H)
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, HAND_W, HAND_TITLE_H), fill=UI["panel"])
    cy = HAND_TITLE_H / 2
    text(d, (MARGIN, cy), t["your_hand"], 30, UI["text"], anchor="lm", bold=True)
    info = "  ·  ".join(
        [
            t["round"].format(r=view.get("round", 1), n=view.get("rounds", 1)),
            t["deck"].format(n=view.get("deck", 0)),
        ]
    )
    text(d, (HAND_W - MARGIN, cy), info, 24, UI["muted"], anchor="rm")
    if mine:
        what = t["draw"] if view.get("phase") == "draw" else t["play"]
        msg = t["your_turn"].format(what=what)
        pill(img, (MARGIN, HAND_TITLE_H + turn_h // 2 + 2), msg, 24, UI["accent"], anchor="lm", max_width=HAND_W - 2 * MARGIN)
    top = HAND_TITLE_H + turn_h + 8
    for r in range(rows):
        row = hand[r * HAND_PER_ROW : (r + 1) * HAND_PER_ROW]
        total = len(row) * cw + (len(row) - 1) * gap
        x0 = (HAND_W - total) // 2
        for i, card in enumerate(row):
            paste(img, hand_card(card, _lang(lang), cw, ch), (x0 + i * (cw + gap), top + r * (ch + gap)))
    return img


def hand_png(view: dict[str, Any], lang: str = "en") -> bytes:
    """The viewer's hand picture (PNG bytes) from a seat view (``view['hand']`` is a list)."""
    if view.get("hand") is None:
        raise ValueError("hand_png needs a seat view with a hand, not the public view")
    return encode_png(hand_image(view, lang))


# ---------------------------------------------------------------------------------------------
# The one picture of a turn DM: the table and, under it, the viewer's hand in one row

STRIP_GAP = 8
STRIP_CARD_H = 128


@cached(64)
def strip_card(card: str, w: int, h: int) -> Image.Image:
    """A hand card for the one-row strip: the colour's symbol on top and a big value (or the
    wager's coin) under it: the colour is told by its symbol too, as everywhere."""
    colour, value = _split(card)
    fill = CARD_FILL.get(colour, PALETTE["grey"])
    edge = CARD_EDGE.get(colour, (90, 90, 90))
    ink = ink_for(fill)
    sym = SYMBOL.get(colour, "circle")

    def paint(d: ImageDraw.ImageDraw, s: int) -> None:
        d.rounded_rectangle((0, 0, w * s - 1, h * s - 1), 12 * s, fill=fill, outline=edge, width=3 * s)
        c = min(34, w - 30)
        draw_symbol(d, sym, ((w - c) / 2 * s, 10 * s, (w + c) / 2 * s, (10 + c) * s), ink, bg=fill)
        cx, cy = w / 2, 10 + c + (h - 10 - c) / 2
        if _is_wager(value):
            r = min(w, h - c) * 0.3
            draw_symbol(d, "coin", ((cx - r) * s, (cy - r) * s, (cx + r) * s, (cy + r) * s), ink, bg=fill)
        else:
            text(d, (cx * s, cy * s), value, min(52, int(w * 0.55)) * s, ink, anchor="mm", bold=True)

    return supersampled(w, h, paint)


def turn_image(view: dict[str, Any], names: list[str], lang: str = "en") -> Image.Image:
    """The turn DM's one picture for a seat view: the table (the last move framed, as on the
    board) with the viewer's hand in one row under it and, when it is their turn, what to do."""
    with legible(W):
        board = _board_image(view, names, lang)
        return _with_hand(board, view, lang)


def _with_hand(board: Image.Image, view: dict[str, Any], lang: str) -> Image.Image:
    t = _t(lang)
    hand = list(view.get("hand") or [])
    viewer = view.get("viewer")
    mine = view.get("phase") != "over" and viewer is not None and viewer in (view.get("to_move") or [])
    n = max(8, len(hand))
    cw = (W - 2 * MARGIN - (n - 1) * STRIP_GAP) // n
    head = 52
    H = board.height + head + STRIP_CARD_H + 16
    img = new_canvas(W, H)
    img.paste(board, (0, 0))
    d = ImageDraw.Draw(img)
    y = board.height
    d.rectangle((0, y, W, y + head + STRIP_CARD_H + 16), fill=UI["panel"])
    x = MARGIN + text(d, (MARGIN, y + head / 2), t["your_hand"], 26, UI["text"], anchor="lm", bold=True) + 16
    if mine:
        what = t["draw"] if view.get("phase") == "draw" else t["play"]
        pill(img, (x, int(y + head / 2)), t["your_turn"].format(what=what), 22, UI["accent"], anchor="lm",
             max_width=W - MARGIN - x)
    total = len(hand) * cw + max(0, len(hand) - 1) * STRIP_GAP
    x0 = (W - total) // 2
    for i, card in enumerate(hand):
        paste(img, strip_card(card, cw, STRIP_CARD_H), (x0 + i * (cw + STRIP_GAP), y + head))
    return img


def turn_png(view: dict[str, Any], names: list[str], lang: str = "en") -> bytes:
    """PNG bytes of :func:`turn_image`."""
    return encode_png(turn_image(view, names, lang))
