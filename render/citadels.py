"""Pictures for Citadels, drawn only from an engine *view* dict (see engines.citadels).

* :func:`board_png` - the public table: the round's characters (set aside face up, called, with
  who revealed them, murdered / robbed / bewitched marks), then one row per player: crown, name,
  gold, cards in hand, revealed characters, score preview and the city as a row of district
  cards (colour, cost, name). It reads only public fields, so a seat's view and the public view
  give the very same bytes.
* :func:`hand_png` - the viewer's private picture: their character(s) this round, the draft
  choices when it is their pick, cards drawn and waiting to be kept, and their hand of districts.

Original flat art: each district colour also has its own shape (colour-blind friendly: noble
diamond, religious sun, trade coin, military triangle, special star); the cost is a gold coin.
Texts in English ("en") and Spanish ("es").
"""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from engines.citadels.names import name as _name
from render.common import (
    PALETTE,
    UI,
    cached,
    clean_text,
    draw_symbol,
    encode_png,
    fit_size,
    ink_for,
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

COLOURS = ("yellow", "blue", "green", "red", "purple")
SYMBOL = {"yellow": "diamond", "blue": "sun", "green": "coin", "red": "triangle", "purple": "star"}
FILL = {
    "yellow": (236, 196, 52),
    "blue": (52, 120, 196),
    "green": (40, 150, 96),
    "red": (210, 84, 52),
    "purple": (200, 150, 230),  # light lilac: a darker purple looks like blue to protanopes
}
EDGE = {c: mix(v, (0, 0, 0), 0.4) for c, v in FILL.items()}
GOLD = (250, 204, 64)
GOLD_EDGE = (150, 110, 20)
CHAR_COLOUR = {  # income colour of a character, for its tile
    "king": "yellow", "emperor": "yellow", "bishop": "blue", "abbot": "blue",
    "merchant": "green", "alchemist": "green", "warlord": "red", "diplomat": "red",
}

TEXTS: dict[str, dict[str, str]] = {
    "en": {
        "round": "Round {n}",
        "deck": "Deck {n}",
        "ends": "ends at {n} districts",
        "draft": "Character draft: {name} picks ({i}/{n})",
        "discard": "Character draft: {name} sets one aside",
        "turn": "{rank}. {ch}: {name}",
        "wait": "waiting for {name}",
        "over": "Game over",
        "aside": "aside",
        "murdered": "murdered",
        "robbed": "robbed",
        "bewitched": "bewitched",
        "nobody": "nobody",
        "face_down": "{n} face down",
        "gold": "gold",
        "cards": "cards",
        "pts": "{n} pts",
        "complete": "complete",
        "first": "first!",
        "winner": "WINNER",
        "empty_city": "no districts yet",
        "your_hand": "Your hand",
        "hand_empty": "Your hand is empty",
        "you_are": "Your characters",
        "no_char": "No character yet",
        "choices": "Your pick: choose one",
        "discard_pick": "Set one aside face down",
        "drawn": "You drew: keep {k}",
        "seen": "Seen: {list}",
        "museum": "Under your Museum",
        "wizard": "{name}'s hand: take one",
        "deck_search": "The deck: take one",
        "seat": "Player {n}",
        "last_round": "Last round: {list}",
        "picked": "picked",
        "prev": "← round {n}",
        "res_head": "Final scores",
        "res_cols": "districts|5 colours|complete|special|total",
        "picking": "picking…",
    },
    "es": {
        "round": "Ronda {n}",
        "deck": "Mazo {n}",
        "ends": "acaba con {n} distritos",
        "draft": "Elección de personajes: elige {name} ({i}/{n})",
        "discard": "Elección de personajes: {name} aparta uno",
        "turn": "{rank}. {ch}: {name}",
        "wait": "esperando a {name}",
        "over": "Fin de la partida",
        "aside": "apartado",
        "murdered": "asesinado",
        "robbed": "robado",
        "bewitched": "hechizado",
        "nobody": "nadie",
        "face_down": "{n} boca abajo",
        "gold": "oro",
        "cards": "cartas",
        "pts": "{n} ptos",
        "complete": "completa",
        "first": "¡primera!",
        "winner": "GANA",
        "empty_city": "aún sin distritos",
        "your_hand": "Tu mano",
        "hand_empty": "Tu mano está vacía",
        "you_are": "Tus personajes",
        "no_char": "Aún sin personaje",
        "choices": "Te toca: elige uno",
        "discard_pick": "Aparta uno boca abajo",
        "drawn": "Has robado: quédate {k}",
        "seen": "Vistos: {list}",
        "museum": "Bajo tu Museo",
        "wizard": "Mano de {name}: toma una",
        "deck_search": "El mazo: toma una",
        "seat": "Jugador {n}",
        "last_round": "Ronda anterior: {list}",
        "picked": "ya eligió",
        "prev": "← ronda {n}",
        "res_head": "Puntuación final",
        "res_cols": "distritos|5 colores|completa|especiales|total",
        "picking": "eligiendo…",
    },
}


def _t(lang: str) -> dict[str, str]:
    return TEXTS.get(lang, TEXTS["en"])


def _lang(lang: str) -> str:
    return lang if lang in TEXTS else "en"


def ch_name(ch: str, lang: str) -> str:
    return _name("character", ch, _lang(lang))


def d_name(kind: str, lang: str) -> str:
    return _name("district", kind, _lang(lang))


# ---------------------------------------------------------------------------------------------
# Sprites


@cached(64)
def coin(r: int, value: str = "") -> Image.Image:
    """A gold coin, optionally with a number on it (district costs, gold counts)."""
    w = 2 * r

    def paint(d: ImageDraw.ImageDraw, s: int) -> None:
        d.ellipse((0, 0, w * s - 1, w * s - 1), fill=GOLD, outline=GOLD_EDGE, width=max(1, r // 7) * s)
        if value:
            size = fit_size(value, int(w * 0.8), int(r * 1.25), 8, True)
            text(d, (r * s, r * s), value, size * s, (60, 40, 0), anchor="mm", bold=True)

    return supersampled(w, w, paint)


@cached(16)
def card_icon(w: int, h: int) -> Image.Image:
    """A small card back (cards in hand)."""

    def paint(d: ImageDraw.ImageDraw, s: int) -> None:
        d.rounded_rectangle((0, 0, w * s - 1, h * s - 1), 4 * s, fill=(92, 70, 130), outline=(210, 180, 110), width=2 * s)
        r = min(w, h) * 0.25
        draw_symbol(d, "star", ((w / 2 - r) * s, (h / 2 - r) * s, (w / 2 + r) * s, (h / 2 + r) * s), (210, 180, 110))

    return supersampled(w, h, paint)


@cached(8)
def crown(w: int, h: int) -> Image.Image:
    def paint(d: ImageDraw.ImageDraw, s: int) -> None:
        pts = [(0, h * 0.25), (w * 0.27, h * 0.55), (w * 0.5, 0), (w * 0.73, h * 0.55), (w, h * 0.25), (w * 0.88, h), (w * 0.12, h)]
        d.polygon([(x * s, y * s) for x, y in pts], fill=GOLD, outline=GOLD_EDGE)
        d.rectangle((w * 0.12 * s, h * 0.82 * s, w * 0.88 * s, h * s), fill=GOLD_EDGE)

    return supersampled(w, h, paint)


@cached(512)
def district_card(kind: str, colour: str, cost: int, points: int, beautified: bool, lang: str, w: int, h: int) -> Image.Image:
    """A district card: cost coin and colour shape on top, the name in the middle, points at the
    bottom when they differ from the cost (Dragon Gate, University, beautified)."""
    fill = FILL.get(colour, PALETTE["grey"])
    edge = EDGE.get(colour, (80, 80, 80))
    ink = ink_for(fill)
    label = d_name(kind, lang)
    band = max(22, int(h * 0.3))

    def paint(d: ImageDraw.ImageDraw, s: int) -> None:
        d.rounded_rectangle((0, 0, w * s - 1, h * s - 1), 9 * s, fill=fill, outline=edge, width=2 * s)
        d.rounded_rectangle((3 * s, 3 * s, (w - 3) * s, band * s), 7 * s, fill=mix(fill, (255, 255, 255), 0.25))
        sym = band - 8
        draw_symbol(d, SYMBOL.get(colour, "circle"), ((w - 6 - sym) * s, 7 * s, (w - 6) * s, (7 + sym) * s), edge, bg=mix(fill, (255, 255, 255), 0.25))
        if beautified:
            r = band * 0.3
            cx, cy = w / 2, band / 2 + 2
            draw_symbol(d, "star", ((cx - r) * s, (cy - r) * s, (cx + r) * s, (cy + r) * s), GOLD_EDGE)
        # name: up to two lines, as large as fits
        room_w, room_h = w - 10, h - band - (16 if points != cost or beautified else 6)
        size = min(22, int(h * 0.23))
        while size > 11:
            lines = wrap(label, size, room_w, True)
            if len(lines) <= 2 and "…" not in "".join(lines) and len(lines) * size * 1.15 <= room_h:
                break
            size -= 1
        lines = wrap(label, size, room_w, True)[:2]
        cy = band + 2 + room_h / 2
        lh = size * 1.12
        y0 = cy - lh * (len(lines) - 1) / 2
        for i, ln in enumerate(lines):
            text(d, (w / 2 * s, (y0 + i * lh) * s), ln, size * s, ink, anchor="mm", bold=True)
        total = points + (1 if beautified else 0)
        if total != cost:
            text(d, ((w / 2) * s, (h - 9) * s), f"★ {total}", 15 * s, ink, anchor="mm", bold=True)

    img = supersampled(w, h, paint)
    c = coin(max(9, band // 2 - 1), str(cost))
    img.alpha_composite(c, (4, max(0, (band + 4 - c.height) // 2)))
    return img


@cached(128)
def character_tile(ch: str, rank: int, lang: str, w: int, h: int, state: str) -> Image.Image:
    """A character of the round. ``state``: "" (not called yet), "aside" (face up, out of play),
    "called", "current", "murdered", "nobody"."""
    colour = CHAR_COLOUR.get(ch)
    base = FILL[colour] if colour else (96, 110, 140)
    if state in ("aside", "nobody"):
        base = mix(base, UI["bg"], 0.65)
    elif state == "murdered":
        base = mix(base, (90, 20, 20), 0.5)
    elif state == "":
        base = mix(base, UI["panel"], 0.35)
    ink = ink_for(base)
    if state in ("aside", "nobody"):
        ink = mix(ink, base, 0.35)
    label = ch_name(ch, lang)

    def paint(d: ImageDraw.ImageDraw, s: int) -> None:
        outline = UI["accent"] if state == "current" else mix(base, (0, 0, 0), 0.35)
        d.rounded_rectangle((0, 0, w * s - 1, h * s - 1), 8 * s, fill=base, outline=outline, width=(4 if state == "current" else 2) * s)
        text(d, (8 * s, 6 * s), str(rank), int(h * 0.42) * s, ink, anchor="la", bold=True)
        size = fit_size(label, w - 10, min(20, int(h * 0.3)), 10, True)
        text(d, (w / 2 * s, (h - 6 - size * 0.6) * s), label, size * s, ink, anchor="mm", bold=True)
        if state == "murdered":  # a red dagger-cross in the free top-right corner
            r = h * 0.2
            cx, cy = w - 10 - r, 8 + r
            d.line(((cx - r) * s, (cy - r) * s, (cx + r) * s, (cy + r) * s), fill=(220, 30, 30), width=5 * s)
            d.line(((cx + r) * s, (cy - r) * s, (cx - r) * s, (cy + r) * s), fill=(220, 30, 30), width=5 * s)

    return supersampled(w, h, paint)


# ---------------------------------------------------------------------------------------------
# Board

W = 1280
MARGIN = 16
HEADER_H = 64
TRACK_H = 118
INFO_W = 300
CARD_W, CARD_H = 112, 92
ROW_PAD = 10
ROW_H = CARD_H + 2 * ROW_PAD + 8
CITY_GAP = 7


def _names(names: list[str], n: int, lang: str) -> list[str]:
    out = []
    for i in range(n):
        raw = names[i] if i < len(names) and names[i] else ""
        out.append(clean_text(str(raw)) or _t(lang)["seat"].format(n=i + 1))
    return out


def _status(view: dict[str, Any], names: list[str], lang: str) -> str:
    t = _t(lang)
    phase = view.get("phase")
    if phase == "over":
        return t["over"]
    if phase == "draft":
        d = view.get("draft") or {}
        who = names[d["drafter"]] if d.get("drafter") is not None else "?"
        if d.get("step") == "discard":
            return t["discard"].format(name=who)
        return t["draft"].format(name=who, i=d.get("step_index", 0) + 1, n=len(d.get("order") or []))
    tn = view.get("turn") or {}
    if not tn:
        return ""
    s = t["turn"].format(rank=tn.get("rank", "?"), ch=ch_name(tn["character"], lang), name=names[tn["seat"]])
    p = view.get("pending")
    if p and p.get("seat") != tn.get("seat"):
        s += " · " + t["wait"].format(name=names[p["seat"]])
    return s


def _track_states(view: dict[str, Any]) -> dict[str, str]:
    """Public state of each character of the round."""
    from engines.citadels.cards import RANK

    out: dict[str, str] = {}
    revealed = view.get("revealed") or {}
    face_up = set(view.get("face_up") or [])
    tn = view.get("turn") or {}
    current_rank = tn.get("rank") if view.get("phase") == "turn" else None
    for ch in view.get("characters") or []:
        if ch in face_up:
            out[ch] = "aside"
        elif view.get("phase") == "turn" and tn.get("character") == ch:
            out[ch] = "current"
        elif ch == view.get("murdered"):
            out[ch] = "murdered"
        elif ch in revealed:
            out[ch] = "called"
        elif current_rank is not None and RANK[ch] < current_rank:
            out[ch] = "nobody"  # already called and nobody answered
        else:
            out[ch] = ""
    return out


def board_image(view: dict[str, Any], names: list[str], lang: str = "en") -> Image.Image:
    """The public board as a PIL image (see :func:`board_png`). Reads no private field."""
    from engines.citadels.cards import RANK

    t = _t(lang)
    players = view.get("players") or []
    n = len(players)
    names = _names(names, n, lang)
    over = view.get("phase") == "over"
    result = view.get("result") or {}
    winners = set(result.get("ranking", [[]])[0]) if over and result else set()
    to_move = set(view.get("to_move") or [])
    city_w = W - INFO_W - 2 * MARGIN
    # rows: a city wider than the row shrinks its cards
    breakdown = (result.get("details") or {}).get("breakdown") if over else None
    ranking = result.get("ranking") if over else None
    res_h = RES_HEAD + RES_ROW * n + 12 if breakdown and ranking else 0
    H = HEADER_H + TRACK_H + n * ROW_H + 8 + res_h
    img = new_canvas(W, H)
    d = ImageDraw.Draw(img)

    # --- header
    d.rectangle((0, 0, W, HEADER_H), fill=UI["panel"])
    cy = HEADER_H // 2
    x = MARGIN + text(d, (MARGIN, cy), t["round"].format(n=view.get("round", 1)), 32, UI["text"], anchor="lm", bold=True) + 18
    paste(img, card_icon(26, 36), (x, cy - 18))
    x += 34
    x += text(d, (x, cy), t["deck"].format(n=view.get("deck_size", 0)), 26, UI["text"], anchor="lm") + 16
    x += text(d, (x, cy), t["ends"].format(n=view.get("districts_to_end", 8)), 22, UI["muted"], anchor="lm") + 16
    status = _status(view, names, lang)
    if status:
        pill(img, (W - MARGIN, cy), status, 26, UI["accent"], anchor="rm", max_width=W - MARGIN - x)

    # --- the characters of the round
    y = HEADER_H
    d.rectangle((0, y, W, y + TRACK_H), fill=mix(UI["bg"], UI["panel"], 0.5))
    chars = list(view.get("characters") or [])
    states = _track_states(view)
    revealed = view.get("revealed") or {}
    k = max(1, len(chars))
    extra_w = 150
    prev = view.get("last_round") if view.get("phase") == "draft" else None
    prev_chars = {c: o for c, o in ((prev or {}).get("characters") or {}).items() if isinstance(o, int) and 0 <= o < n}
    tw = min(128, int((W - 2 * MARGIN - extra_w - (k - 1) * 8) / k))
    th = 66
    for i, ch in enumerate(chars):
        tx = MARGIN + i * (tw + 8)
        ty = y + 10
        st = states.get(ch, "")
        paste(img, character_tile(ch, RANK[ch], _lang(lang), tw, th, st), (tx, ty))
        below = ""
        colr = UI["muted"]
        if st == "aside":
            below = t["aside"]
        elif ch in revealed:
            below, colr = names[revealed[ch]], UI["text"]
        elif st == "murdered":
            below, colr = t["murdered"], UI["bad"]
        elif st == "nobody":
            below = t["nobody"]
        elif prev is not None and ch in prev_chars:  # the draft: who held it last round (public)
            below = names[prev_chars[ch]]
            colr = mix(UI["bad"], UI["bg"], 0.2) if ch == prev.get("murdered") else UI["muted"]
        if below:
            text(d, (tx + tw / 2, ty + th + 20), below, 20, colr, anchor="mm", bold=ch in revealed, max_width=tw)
        tags = []
        if ch == view.get("murdered") and ch in revealed:
            tags.append((t["murdered"], UI["bad"]))
        if ch == view.get("robbed"):
            tags.append((t["robbed"], (255, 190, 90)))
        if ch == view.get("bewitched"):
            tags.append((t["bewitched"], (200, 150, 255)))
        for j, (tag, col) in enumerate(tags[:2]):
            pill(img, (tx + tw - 4, ty + 4 + j * 22), tag, 14, col, anchor="ra", max_width=tw - 30)
    fx = W - MARGIN - extra_w + 10
    if view.get("face_down_count"):
        paste(img, card_icon(34, 48), (fx, y + 16))
        text(d, (fx + 44, y + 40), t["face_down"].format(n=view["face_down_count"]), 20, UI["muted"], anchor="lm", max_width=extra_w - 50)
    if prev_chars:
        text(d, (fx - 4, y + 10 + th + 20), t["prev"].format(n=prev.get("round", "?")), 18, UI["muted"], anchor="lm", max_width=extra_w)

    # --- one row per player
    y = HEADER_H + TRACK_H
    first = (view.get("complete_order") or [None])[0]
    for p in players:
        s = p["seat"]
        active = s in to_move and not over
        row_bg = UI["panel"] if s % 2 == 0 else mix(UI["panel"], UI["bg"], 0.5)
        d.rectangle((0, y, W, y + ROW_H - 4), fill=row_bg)
        if active:
            d.rectangle((0, y, 8, y + ROW_H - 4), fill=UI["accent"])
        # info column
        ix = MARGIN + 6
        ny = y + 24
        nx = ix
        if view.get("crown") == s:
            paste(img, crown(34, 26), (ix, ny - 14))
            nx += 42
        room = INFO_W - (nx - MARGIN) - 10
        if s in winners:
            room -= text_width(t["winner"], 18, True) + 24
        nx += text(d, (nx, ny), names[s], 28, UI["accent"] if active else UI["text"], anchor="lm", bold=True, max_width=room) + 8
        if s in winners:
            pill(img, (nx, ny), t["winner"], 18, UI["good"], anchor="lm")
        ly = y + 60
        paste(img, coin(15, ""), (ix, ly - 15))
        gx = ix + 36 + text(d, (ix + 36, ly), str(p["gold"]), 26, UI["text"], anchor="lm", bold=True) + 16
        paste(img, card_icon(22, 30), (gx, ly - 15))
        hx = gx + 30 + text(d, (gx + 30, ly), str(p["hand_size"]), 26, UI["text"], anchor="lm", bold=True) + 16
        score = p.get("score", 0)
        if over and result:
            score = result.get("scores", [score] * n)[s]
        text(d, (hx, ly), "★ " + t["pts"].format(n=score), 24, UI["good"] if s in winners else UI["text"], anchor="lm", bold=True, max_width=INFO_W + MARGIN - hx - 4)
        # characters revealed this round (or last round's when over), complete badge
        bx, by = ix, y + 82
        if view.get("phase") == "draft":  # public: who has already picked this round
            draft = view.get("draft") or {}
            done = (draft.get("order") or [])[: draft.get("step_index", 0)]
            tags = [t["picked"]] * done.count(s)
            if draft.get("drafter") == s:
                tags.append(t["picking"])
            for tag in tags:
                box = pill(img, (bx, by), tag, 17, (150, 165, 190) if tag == t["picked"] else UI["accent"], anchor="la")
                bx = box[2] + 6
        for ch in p.get("characters") or []:
            box = pill(img, (bx, by), f"{RANK[ch]} {ch_name(ch, lang)}", 17, FILL.get(CHAR_COLOUR.get(ch, ""), (120, 135, 165)), anchor="la", max_width=INFO_W - (bx - ix) - 10)
            bx = box[2] + 6
        if p.get("complete"):
            tag = t["first"] if first == s else t["complete"]
            if bx < ix + INFO_W - 60:
                pill(img, (bx, by), tag, 17, UI["good"], anchor="la", max_width=ix + INFO_W - bx - 20)
        # city
        city = p.get("city") or []
        cx0 = MARGIN + INFO_W
        if not city:
            text(d, (cx0 + 10, y + ROW_H / 2), t["empty_city"], 22, UI["muted"], anchor="lm")
        else:
            k = len(city)
            cw = min(CARD_W, int((city_w - (k - 1) * CITY_GAP) / k))
            for i, dist in enumerate(city):
                spr = district_card(dist["kind"], dist["colour"], dist["cost"], dist["points"], bool(dist.get("beautified")), _lang(lang), cw, CARD_H)
                paste(img, spr, (cx0 + i * (cw + CITY_GAP), y + ROW_PAD))
        y += ROW_H
    if res_h:
        _results(img, d, y + 4, names, breakdown, ranking, t)
    return img


RES_HEAD, RES_ROW = 58, 38


def _results(img: Image.Image, d: ImageDraw.ImageDraw, y: int, names: list[str], breakdown: list[dict[str, int]],
             ranking: list[list[int]], t: dict[str, str]) -> None:
    """Game over: a table of the final scores, best first (ties share a place)."""
    d.rectangle((0, y, W, y + RES_HEAD + RES_ROW * len(breakdown) + 8), fill=UI["panel"])
    cols = t["res_cols"].split("|")
    xs = [560, 720, 870, 1020, W - MARGIN - 40]
    text(d, (MARGIN, y + RES_HEAD / 2), t["res_head"], 28, UI["accent"], anchor="lm", bold=True)
    for x, c in zip(xs, cols, strict=True):
        text(d, (x, y + RES_HEAD / 2 + 2), c, 20, UI["muted"], anchor="mm", max_width=140)
    y += RES_HEAD
    for place, seats in enumerate(ranking, start=1):
        for s in seats:
            b = breakdown[s] if s < len(breakdown) else {}
            ink = UI["good"] if place == 1 else UI["text"]
            text(d, (MARGIN, y + RES_ROW / 2), f"{place}.", 24, ink, anchor="lm", bold=True)
            text(d, (MARGIN + 44, y + RES_ROW / 2), names[s], 24, ink, anchor="lm", bold=True, max_width=xs[0] - MARGIN - 120)
            vals = [b.get("districts", 0), b.get("five_colours", 0), b.get("complete", 0), b.get("purple_bonus", 0)]
            for x, v in zip(xs, vals, strict=False):
                text(d, (x, y + RES_ROW / 2), str(v) if v else "–", 24, UI["text"] if v else UI["muted"], anchor="mm")
            text(d, (xs[-1], y + RES_ROW / 2), str(b.get("total", 0)), 26, ink, anchor="mm", bold=True)
            y += RES_ROW


def board_png(view: dict[str, Any], names: list[str], lang: str = "en") -> bytes:
    """The public board picture (PNG bytes). ``names[i]`` is seat i's display name."""
    return encode_png(board_image(view, names, lang))


# ---------------------------------------------------------------------------------------------
# The private picture


HAND_W = 1200
HCARD_W, HCARD_H = 150, 124
SECTION_H = 44


def _cards_rows(cards: list[dict[str, Any]], per_row: int) -> list[list[dict[str, Any]]]:
    return [cards[i : i + per_row] for i in range(0, len(cards), per_row)] or [[]]


def hand_image(view: dict[str, Any], lang: str = "en") -> Image.Image:
    """The viewer's private picture as a PIL image (see :func:`hand_png`)."""
    from engines.citadels.cards import RANK

    t = _t(lang)
    lg = _lang(lang)
    me = view.get("viewer")
    hand = list(view.get("hand") or [])
    mine = list(view.get("my_characters") or [])
    draft = view.get("draft") or {}
    choices = list(draft.get("choices") or [])
    pending = view.get("pending") or {}
    extra_rows: list[tuple[str, list[dict[str, Any]]]] = []
    if pending.get("seat") == me and pending.get("cards"):
        kind = pending.get("kind")
        if kind == "keep":
            extra_rows.append((t["drawn"].format(k=pending.get("keep", 1)), list(pending["cards"])))
        elif kind == "wizard":
            target = pending.get("target", 0)
            names = view.get("names") or []
            who = clean_text(str(names[target])) if 0 <= target < len(names) else t["seat"].format(n=target + 1)
            extra_rows.append((t["wizard"].format(name=who), list(pending["cards"])))
    if view.get("museum_cards"):
        extra_rows.append((t["museum"], list(view["museum_cards"])))
    per_row = (HAND_W - 2 * MARGIN + 10) // (HCARD_W + 10)
    gap = 10
    th, tw_ = 92, 150

    # layout heights
    H = 64  # title bar
    H += SECTION_H + th + 16  # characters
    if choices:
        H += SECTION_H + th + 16
    for _, cards in extra_rows:
        H += SECTION_H + len(_cards_rows(cards, per_row)) * (HCARD_H + gap) + 6
    H += SECTION_H + len(_cards_rows(hand, per_row)) * (HCARD_H + gap) + 10
    img = new_canvas(HAND_W, H)
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, HAND_W, 64), fill=UI["panel"])
    text(d, (MARGIN, 32), t["round"].format(n=view.get("round", 1)), 32, UI["text"], anchor="lm", bold=True)
    player = next((p for p in view.get("players", []) if p["seat"] == me), None)
    right = HAND_W - MARGIN
    if player is not None:
        right -= text(d, (right, 32), f"{len(player['city'])}/{view.get('districts_to_end', 8)}", 26, UI["muted"], anchor="rm") + 22
        right -= text(d, (right, 32), str(player["hand_size"]), 28, UI["text"], anchor="rm", bold=True) + 6
        paste(img, card_icon(22, 30), (right - 24, 17))
        right -= 40
        right -= text(d, (right, 32), str(player["gold"]), 28, UI["text"], anchor="rm", bold=True) + 6
        paste(img, coin(15, ""), (right - 30, 17))
        right -= 40
    if view.get("crown") == me and me is not None:
        paste(img, crown(40, 30), (right - 44, 17))
    y = 64

    def section(title: str, y: int) -> int:
        text(d, (MARGIN, y + SECTION_H / 2 + 2), title, 24, UI["accent"], anchor="lm", bold=True, max_width=HAND_W - 2 * MARGIN)
        return y + SECTION_H

    def tiles(chars: list[str], y: int, state: str) -> int:
        for i, ch in enumerate(chars):
            paste(img, character_tile(ch, RANK[ch], lg, tw_, th, state), (MARGIN + i * (tw_ + gap), y))
        return y + th + 16

    y = section(t["you_are"], y)
    if mine:
        revealed = view.get("revealed") or {}
        x = MARGIN
        for ch in mine:
            st = "murdered" if ch == view.get("murdered") else ("current" if (view.get("turn") or {}).get("character") == ch and (view.get("turn") or {}).get("seat") == me else ("called" if ch in revealed else ""))
            paste(img, character_tile(ch, RANK[ch], lg, tw_, th, st), (x, y))
            x += tw_ + gap
        y += th + 16
    else:
        text(d, (MARGIN, y + th / 2), t["no_char"], 24, UI["muted"], anchor="lm")
        y += th + 16
    if choices:
        y = section(t["discard_pick"] if draft.get("step") == "discard" else t["choices"], y)
        y = tiles(choices, y, "")
    for title, cards in extra_rows:
        y = section(title, y)
        for row in _cards_rows(cards, per_row):
            for i, c in enumerate(row):
                spr = district_card(c["kind"], c["colour"], c["cost"], c["points"], False, lg, HCARD_W, HCARD_H)
                paste(img, spr, (MARGIN + i * (HCARD_W + gap), y))
            y += HCARD_H + gap
        y += 6
    y = section(t["your_hand"] + f" ({len(hand)})" if hand else t["hand_empty"], y)
    for row in _cards_rows(hand, per_row):
        for i, c in enumerate(row):
            spr = district_card(c["kind"], c["colour"], c["cost"], c["points"], False, lg, HCARD_W, HCARD_H)
            paste(img, spr, (MARGIN + i * (HCARD_W + gap), y))
        y += HCARD_H + gap
    return img


def hand_png(view: dict[str, Any], lang: str = "en") -> bytes:
    """The viewer's private picture (PNG bytes) from a seat view (``view['hand']`` is a list)."""
    if view.get("hand") is None:
        raise ValueError("hand_png needs a seat view with a hand, not the public view")
    return encode_png(hand_image(view, lang))


__all__ = ["board_png", "board_image", "hand_png", "hand_image", "district_card", "character_tile", "rounded_sprite"]
