"""Pictures for Citadels, drawn only from an engine *view* dict (see engines.citadels).

* :func:`board_png` - the public table, 800 px wide: this round's characters only (set aside face
  up, called, with who revealed them; murdered / robbed / bewitched tags each on its own line
  under the tile; during the draft nothing of the last round), then one block per player: crown,
  name, gold, cards in hand, score, this round's draft progress (has picked / picking now / picks
  later) or revealed characters, and the city, five district cards a row; at game over the winner
  in the header, the final table (ties on points explained) right under it and the cities as
  compact chips in ranking order. It reads only public fields, so a seat's view and the public
  view give the very same bytes.
* :func:`hand_png` - the viewer's private picture: their character(s) this round, the draft
  choices when it is their pick, cards drawn and waiting to be kept, and their hand of districts.
* :func:`turn_png` - the one picture of a turn DM: the table with the cities as compact chips (the
  districts new since the viewer's last turn framed) over the private part of :func:`hand_png`.

Original flat art: each district colour also has its own shape (colour-blind friendly: noble
diamond, religious sun, trade coin, military triangle, special star); the cost is a gold coin.
Texts in every catalogue language (catalogs/<lang>/citadels.po).
"""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from catalogs import LOCALES, table
from catalogs import text as catalog_text
from engines.citadels.cards import INCOME_COLOUR
from render.common import (
    PALETTE,
    UI,
    cached,
    clean_text,
    draw_symbol,
    encode_png,
    fit_size,
    floor,
    frame,
    ink_for,
    legible,
    marker,
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
# The income colour of a character, for its tile: the engine's (the characters that collect gold
# for the districts of a colour), never a copy of it.
CHAR_COLOUR = INCOME_COLOUR

# The picture's words: catalogs/<lang>/citadels.po, the "pic.<key>" entries, as {lang: {key: text}}
# (a plural entry: its general form; ``_n`` picks the form a count asks for).
DOMAIN = "citadels"
TEXTS: dict[str, dict[str, str]] = {
    lang: {key[len("pic."):]: entry[lang] for key, entry in table(DOMAIN).items() if key.startswith("pic.") and lang in entry}
    for lang in LOCALES
}


def _t(lang: str) -> dict[str, str]:
    return TEXTS.get(lang, TEXTS["en"])


def _n(lang: str, key: str, n: int, **kw: Any) -> str:
    """The picture's text ``key`` in the form its count ``n`` asks for (the language's CLDR rules)."""
    return catalog_text(DOMAIN, "pic." + key, _lang(lang), n=n, **kw)


def _lang(lang: str) -> str:
    return lang if lang in TEXTS else "en"


def ch_name(ch: str, lang: str) -> str:
    return catalog_text(DOMAIN, "character." + ch, _lang(lang))


def d_name(kind: str, lang: str) -> str:
    return catalog_text(DOMAIN, "district." + kind.split("#", 1)[0], _lang(lang))


# ---------------------------------------------------------------------------------------------
# Sprites


@cached(64)
def coin(r: int, value: str = "") -> Image.Image:
    """A gold coin, optionally with a number on it (district costs, gold counts)."""
    w = 2 * r
    marker(w, "coin")

    def paint(d: ImageDraw.ImageDraw, s: int) -> None:
        d.ellipse((0, 0, w * s - 1, w * s - 1), fill=GOLD, outline=GOLD_EDGE, width=max(1, r // 7) * s)
        if value:
            size = fit_size(value, int(w * 0.8), int(r * 1.25), min(int(r * 1.25), floor()), True)
            text(d, (r * s, r * s), value, size * s, (60, 40, 0), anchor="mm", bold=True)

    return supersampled(w, w, paint)


@cached(16)
def card_icon(w: int, h: int) -> Image.Image:
    """A small card back (cards in hand)."""

    def paint(d: ImageDraw.ImageDraw, s: int) -> None:
        d.rounded_rectangle((0, 0, w * s - 1, h * s - 1), 4 * s, fill=(92, 70, 130), outline=(210, 180, 110), width=2 * s)
        r = min(w, h) * 0.25
        draw_symbol(d, "star", ((w / 2 - r) * s, (h / 2 - r) * s, (w / 2 + r) * s, (h / 2 + r) * s), (210, 180, 110), note=False)

    marker(min(w, h), "card")
    return supersampled(w, h, paint)


@cached(8)
def crown(w: int, h: int) -> Image.Image:
    marker(min(w, h), "crown")

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
    band = max(34, int(h * 0.34))

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
        room_w, room_h = w - 6, h - band - (22 if points != cost or beautified else 6)
        size, lines = _name_lines(label, min(24, int(h * 0.24)), floor(), room_w, room_h)
        cy = band + 2 + room_h / 2
        lh = size * 1.12
        y0 = cy - lh * (len(lines) - 1) / 2
        for i, ln in enumerate(lines):
            text(d, (w / 2 * s, (y0 + i * lh) * s), ln, size * s, ink, anchor="mm", bold=True)
        total = points + (1 if beautified else 0)
        if total != cost:
            text(d, ((w / 2) * s, (h - 12) * s), f"★ {total}", max(20, floor()) * s, ink, anchor="mm", bold=True)

    img = supersampled(w, h, paint)
    c = coin(max(11, band // 2 - 1), str(cost))
    img.alpha_composite(c, (4, max(0, (band + 4 - c.height) // 2)))
    return img


VOWELS = set("aeiouáéíóúAEIOUÁÉÍÓÚ")


def _name_lines(label: str, size: int, low: int, width: int, height: float) -> tuple[int, list[str]]:
    """(size, lines) of a card name in at most two lines: the largest size down to ``low`` at
    which every word fits whole; only a word too wide even at ``low`` is split with a hyphen
    (at a syllable, "Ayunta-miento"), so no short word is ever broken ("Monast-ery")."""
    for k in range(size, low - 1, -1):
        if all(text_width(word, k, True) <= width for word in label.split()):
            lines = _wrap_words(label, k, width)
            if len(lines) <= 2 and len(lines) * k * 1.15 <= height:
                return k, lines
    k = size
    while k > low:
        lines = _wrap_words(label, k, width)
        if len(lines) <= 2 and len(lines) * k * 1.15 <= height:
            break
        k -= 1
    return k, _wrap_words(label, k, width)[:2]


def _wrap_words(label: str, size: int, width: int) -> list[str]:
    """Word wrap where a word too long for a line is split with a hyphen ("Observa-", "torio")."""
    words: list[str] = []
    for word in label.split():
        while text_width(word, size, True) > width and len(word) > 5:
            fits = [k for k in range(3, len(word) - 2) if text_width(word[:k] + "-", size, True) <= width] or [3]
            # prefer a break before a consonant that starts a syllable ("Observa-torio")
            good = [k for k in fits if word[k - 1] in VOWELS and word[k] not in VOWELS and word[k + 1] in VOWELS]
            cut = max(good or fits)
            words.append(word[:cut] + "-")
            word = word[cut:]
        words.append(word)
    lines: list[str] = []
    for w in words:
        if lines and not lines[-1].endswith("-") and text_width(lines[-1] + " " + w, size, True) <= width:
            lines[-1] += " " + w
        elif lines and lines[-1].endswith("-") and text_width(lines[-1] + w, size, True) <= width:
            lines[-1] += w
        else:
            lines.append(w)
    return lines


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
        rank_size = int(h * 0.4)
        text(d, (8 * s, 5 * s), str(rank), rank_size * s, ink, anchor="la", bold=True)
        size = max(floor(), min(24, int(h * 0.32)))
        y = h - 6 - size * 0.6
        name = label
        if text_width(name, size, True) > w - 8 and " " in name:
            # a long name ("Senhor da Guerra") on two lines rather than cut: the first line beside
            # the rank, the second where a one-line name goes
            left = 8 + text_width(str(rank), rank_size, True) + 4
            words = name.split()
            splits = [(" ".join(words[:i]), " ".join(words[i:])) for i in range(1, len(words))]
            fits = [(a, b) for a, b in splits if text_width(a, size, True) <= w - 4 - left and text_width(b, size, True) <= w - 8]
            first, name = (fits or splits[:1])[-1]  # the longest first line that fits beside the rank
            text(d, ((left + w - 4) / 2 * s, (y - size) * s), first, size * s, ink, anchor="mm", bold=True, max_width=(w - 4 - left) * s)
        text(d, (w / 2 * s, y * s), name, size * s, ink, anchor="mm", bold=True, max_width=(w - 6) * s)
        if state == "murdered":  # a red dagger-cross in the free top-right corner
            r = h * 0.2
            cx, cy = w - 10 - r, 8 + r
            d.line(((cx - r) * s, (cy - r) * s, (cx + r) * s, (cy + r) * s), fill=(220, 30, 30), width=5 * s)
            d.line(((cx + r) * s, (cy - r) * s, (cx - r) * s, (cy + r) * s), fill=(220, 30, 30), width=5 * s)

    return supersampled(w, h, paint)


# ---------------------------------------------------------------------------------------------
# Board

W = 800  # seen at half size on a phone: texts of 20 px or more
MARGIN = 16
HEADER_H = 56
STATUS_H = 46
TRACK_TILE_H = 62
TRACK_LINE = 26
PER_ROW = 5  # characters and districts a row
CARD_W = (W - 2 * MARGIN - (PER_ROW - 1) * 8) // PER_ROW
CARD_H = 100
CITY_GAP = 8
INFO_H = 46
TAGS_H = 36
ROW_PAD = 10
RES_HEAD, RES_ROW = 84, 40


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
        ranking = (view.get("result") or {}).get("ranking") or []
        first = [names[s] for s in ranking[0] if s < len(names)] if ranking else []
        if not first:
            return t["over"]
        return t["wins" if len(first) == 1 else "win_many"].format(names=" & ".join(first))
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


def _track_cells(view: dict[str, Any], names: list[str], t: dict[str, str]) -> list[tuple[str, str, Any, list[tuple[str, Any]]]]:
    """Per character of the round: (character, line under it, its colour, tags). This round only:
    during the draft nothing of the last round is shown (who holds what is secret until called)."""
    states = _track_states(view)
    revealed = view.get("revealed") or {}
    out = []
    for ch in view.get("characters") or []:
        st = states.get(ch, "")
        below, colr = "", UI["muted"]
        if st == "aside":
            below = t["aside"]
        elif ch in revealed:
            below, colr = names[revealed[ch]], UI["text"]
        elif st == "nobody":
            below = t["nobody"]
        tags: list[tuple[str, Any]] = []
        if ch == view.get("murdered") and view.get("phase") == "turn":
            tags.append((t["murdered"], UI["bad"]))
        if ch == view.get("robbed") and view.get("phase") == "turn":
            tags.append((t["robbed"], (255, 190, 90)))
        if ch == view.get("bewitched") and view.get("phase") == "turn":
            tags.append((t["bewitched"], (200, 150, 255)))
        out.append((ch, below, colr, tags))
    return out


def _city_rows(k: int) -> int:
    return max(1, (k + PER_ROW - 1) // PER_ROW)


def _player_h(p: dict[str, Any], tags: bool, chips: dict[int, list] | None = None) -> int:
    k = len(p.get("city") or [])
    if chips is not None and k:
        city = max(y + CHIP_H for _, y, _, _ in chips[p["seat"]]) + 4
    else:
        city = 34 if k == 0 else _city_rows(k) * (CARD_H + CITY_GAP)
    return ROW_PAD + INFO_H + (TAGS_H if tags else 0) + city + ROW_PAD


CHIP_H = 38
CHIP_GAP = 8


def _chip_w(dist: dict[str, Any], lang: str) -> int:
    extra = f" ★{dist['points'] + (1 if dist.get('beautified') else 0)}" if _chip_star(dist) else ""
    return 8 + 22 + 6 + text_width(d_name(dist["kind"], lang) + extra, 20, True) + 8 + 32 + 4


def _chip_star(dist: dict[str, Any]) -> bool:
    return dist["points"] + (1 if dist.get("beautified") else 0) != dist["cost"]


def _chips(city: list[dict[str, Any]], lang: str, width: int) -> list[tuple[int, int, int, dict[str, Any]]]:
    """A compact city: one chip per district (colour, symbol, name, cost), flowing in lines
    within ``width``: [(x, y, w, district)] from (0, 0)."""
    out = []
    x = y = 0
    for dist in city:
        w = min(width, _chip_w(dist, lang))
        if x and x + w > width:
            x, y = 0, y + CHIP_H + CHIP_GAP
        out.append((x, y, w, dist))
        x += w + CHIP_GAP
    return out


def _draw_chip(img: Image.Image, d: ImageDraw.ImageDraw, x: int, y: int, w: int, dist: dict[str, Any], lang: str) -> None:
    colour = dist["colour"]
    fill = FILL.get(colour, PALETTE["grey"])
    edge = EDGE.get(colour, (80, 80, 80))
    ink = ink_for(fill)
    d.rounded_rectangle((x, y, x + w, y + CHIP_H), 9, fill=fill, outline=edge, width=2)
    sym = SYMBOL.get(colour, "circle")
    draw_symbol(d, sym, (x + 8, y + 8, x + 30, y + 30), ink, bg=fill)
    label = d_name(dist["kind"], lang) + (f" ★{dist['points'] + (1 if dist.get('beautified') else 0)}" if _chip_star(dist) else "")
    text(d, (x + 36, y + CHIP_H / 2), label, 20, ink, anchor="lm", bold=True, max_width=w - 36 - 40)
    c = coin(16, str(dist["cost"]))  # its number at 20 px: 10 px on a phone
    paste(img, c, (x + w - 4 - c.width, y + (CHIP_H - c.height) // 2))


def _player_tags(view: dict[str, Any], p: dict[str, Any], lang: str) -> list[tuple[str, Any]]:
    """This round's draft progress, revealed characters, complete city."""
    from engines.citadels.cards import RANK

    t = _t(lang)
    s = p["seat"]
    tags: list[tuple[str, Any]] = []
    if view.get("phase") == "draft":
        draft = view.get("draft") or {}
        order = draft.get("order") or []
        if draft.get("drafter") == s:
            tags.append((t["picking"], UI["accent"]))
        elif s in order[: draft.get("step_index", 0)]:
            tags.append((t["picked"], (150, 165, 190)))
        elif s in order:
            tags.append((t["waits"], mix(UI["panel_hi"], UI["text"], 0.25)))
    for ch in p.get("characters") or []:
        tags.append((f"{RANK[ch]} {ch_name(ch, lang)}", FILL.get(CHAR_COLOUR.get(ch, ""), (120, 135, 165))))
    if p.get("complete"):
        first = (view.get("complete_order") or [None])[0]
        tags.append((t["first"] if first == s else t["complete"], UI["good"]))
    return tags


def board_image(view: dict[str, Any], names: list[str], lang: str = "en") -> Image.Image:
    """The public board as a PIL image (see :func:`board_png`). Reads no private field."""
    with legible(W):
        return _board_image(view, names, lang)


def _board_image(view: dict[str, Any], names: list[str], lang: str, compact: bool = False) -> Image.Image:
    """``compact``: each city as a flow of chips (name, colour, cost) instead of cards, for the
    one picture of a turn DM."""
    from engines.citadels.cards import RANK

    t = _t(lang)
    players = view.get("players") or []
    n = len(players)
    names = _names(names, n, lang)
    over = view.get("phase") == "over"
    draft_phase = view.get("phase") == "draft"
    result = view.get("result") or {}
    winners = set(result.get("ranking", [[]])[0]) if over and result else set()
    to_move = set(view.get("to_move") or [])
    breakdown = (result.get("details") or {}).get("breakdown") if over else None
    ranking = result.get("ranking") if over else None
    ties = [ln for note in (_tie_notes(result, names, lang) if over and ranking else []) for ln in wrap(note, 20, W - 2 * MARGIN)]
    res_h = (RES_HEAD + RES_ROW * n + 30 * len(ties) + 16) if breakdown and ranking else 0
    cells = _track_cells(view, names, t) if not over else []
    if view.get("face_down_count") and not over:
        cells.append(("", _n(lang, "face_down", view["face_down_count"]), UI["muted"], []))
    rows = [cells[i : i + PER_ROW] for i in range(0, len(cells), PER_ROW)]
    row_hs = [TRACK_TILE_H + TRACK_LINE + TRACK_LINE * max([len(c[3]) for c in row] + [0]) + 8 for row in rows]
    secret_h = 30 if draft_phase else 0
    track_h = 10 + sum(row_hs) + secret_h if not over else 0
    status = _status(view, names, lang)
    head_h = HEADER_H + (STATUS_H if status else 0)
    ptags = {p["seat"]: _player_tags(view, p, lang) for p in players}
    # districts built since the viewer's last turn (the catch-up picture adds them to the view)
    since = {(int(s), str(c)) for s, c in view.get("since") or ()}
    for p in players:
        k = sum(1 for dist in p.get("city") or () if (p["seat"], dist.get("id")) in since)
        if k:
            ptags[p["seat"]].append((_n(lang, "new_since", k), UI["text"]))
    compact = compact or over  # the final picture: the ranking first, the cities as chips under it
    chips = {p["seat"]: _chips(p.get("city") or [], _lang(lang), W - 2 * MARGIN) for p in players} if compact else None
    H = head_h + track_h + sum(_player_h(p, bool(ptags[p["seat"]]), chips) for p in players) + 8 + res_h
    img = new_canvas(W, H)
    d = ImageDraw.Draw(img)

    # --- header
    d.rectangle((0, 0, W, head_h), fill=UI["panel"])
    cy = HEADER_H // 2
    x = MARGIN + text(d, (MARGIN, cy), t["round"].format(n=view.get("round", 1)), 30, UI["text"], anchor="lm", bold=True) + 16
    paste(img, card_icon(24, 34), (x, cy - 17))
    x += 32
    x += text(d, (x, cy), t["deck"].format(n=view.get("deck_size", 0)), 24, UI["text"], anchor="lm") + 16
    text(d, (W - MARGIN, cy), _n(lang, "ends", view.get("districts_to_end", 8)), 20, UI["muted"], anchor="rm", max_width=W - MARGIN - x)
    if status:
        pill(img, (MARGIN, HEADER_H + STATUS_H // 2 - 4), status, 24, UI["accent"], anchor="lm", max_width=W - 2 * MARGIN)

    # --- game over: the ranking first, right under the winner's name
    if res_h:
        _results(img, d, head_h, names, breakdown, ranking, t, ties)
    # --- the characters of the round, this round only
    y = head_h + res_h
    d.rectangle((0, y, W, y + track_h), fill=mix(UI["bg"], UI["panel"], 0.5))
    states = _track_states(view)
    tw = CARD_W
    ty = y + 10
    for row, rh in zip(rows, row_hs, strict=True):
        for i, (ch, below, colr, tags) in enumerate(row):
            tx = MARGIN + i * (tw + 8)
            if ch:
                paste(img, character_tile(ch, RANK[ch], _lang(lang), tw, TRACK_TILE_H, states.get(ch, "")), (tx, ty))
            else:  # the face-down pile
                paste(img, card_icon(34, 48), (tx + tw // 2 - 17, ty + 6))
            if below:
                text(d, (tx + tw / 2, ty + TRACK_TILE_H + TRACK_LINE / 2 + 2), below, 20, colr, anchor="mm", bold=colr == UI["text"], max_width=tw)
            for j, (tag, col) in enumerate(tags):  # each tag on its own line under the tile: never on top of anything
                pill(img, (tx + tw // 2, ty + TRACK_TILE_H + TRACK_LINE * (j + 1) + 2), tag, 20, col, anchor="ma", max_width=tw, pad=6)
        ty += rh
    if draft_phase:
        text(d, (MARGIN, ty + 10), t["secret"], 20, UI["muted"], anchor="lm", max_width=W - 2 * MARGIN)

    # --- one block per player (at game over in the order of the ranking)
    y = head_h + res_h + track_h
    if over and ranking:
        place = {s: k for k, seats in enumerate(ranking) for s in seats}
        players = sorted(players, key=lambda p: (place.get(p["seat"], n), p["seat"]))
    for p in players:
        s = p["seat"]
        tags = ptags[s]
        ph = _player_h(p, bool(tags), chips)
        active = s in to_move and not over
        row_bg = UI["panel"] if s % 2 == 0 else mix(UI["panel"], UI["bg"], 0.5)
        d.rectangle((0, y, W, y + ph - 4), fill=row_bg)
        if active:
            d.rectangle((0, y, 8, y + ph - 4), fill=UI["accent"])
        ny = y + ROW_PAD + INFO_H / 2
        nx = MARGIN
        if view.get("crown") == s:
            paste(img, crown(34, 26), (nx, int(ny - 13)))
            nx += 42
        # right side: gold, cards, score
        right = W - MARGIN
        score = p.get("score", 0)
        if over and result:
            score = result.get("scores", [score] * n)[s]
        right -= text(d, (right, ny), "★ " + _n(lang, "pts", score), 24, UI["good"] if s in winners else UI["text"], anchor="rm", bold=True) + 16
        right -= text(d, (right, ny), str(p["hand_size"]), 24, UI["text"], anchor="rm", bold=True) + 6
        paste(img, card_icon(22, 30), (right - 22, int(ny - 15)))
        right -= 22 + 14
        right -= text(d, (right, ny), str(p["gold"]), 24, UI["text"], anchor="rm", bold=True) + 6
        paste(img, coin(15, ""), (right - 30, int(ny - 15)))
        right -= 30 + 14
        room = right - nx - 10
        if s in winners:
            room -= text_width(t["winner"], 20, True) + 30
        nx += text(d, (nx, ny), names[s], 26, UI["accent"] if active else UI["text"], anchor="lm", bold=True, max_width=room) + 8
        if s in winners:
            pill(img, (nx, int(ny)), t["winner"], 20, UI["good"], anchor="lm")
        bx, by = MARGIN, y + ROW_PAD + INFO_H
        for tag, col in tags:
            if bx > W - MARGIN - 80:
                break
            box = pill(img, (bx, by), tag, 20, col, anchor="la", max_width=W - MARGIN - bx)
            bx = box[2] + 8
        # city
        city = p.get("city") or []
        cy0 = y + ROW_PAD + INFO_H + (TAGS_H if tags else 0)
        if not city:
            text(d, (MARGIN, cy0 + 14), t["empty_city"], 20, UI["muted"], anchor="lm")
        for cx0, cy1, cw, dist in chips[s] if chips is not None else []:
            _draw_chip(img, d, MARGIN + cx0, cy0 + cy1, cw, dist, _lang(lang))
            if (s, dist.get("id")) in since:
                box = (MARGIN + cx0, cy0 + cy1, MARGIN + cx0 + cw, cy0 + cy1 + CHIP_H)
                frame(d, box, 9, (20, 20, 20), 4)
                frame(d, box, 9, (255, 255, 255), 3)
        for i, dist in enumerate(city if chips is None else []):
            spr = district_card(dist["kind"], dist["colour"], dist["cost"], dist["points"], bool(dist.get("beautified")), _lang(lang), CARD_W, CARD_H)
            px, py = MARGIN + (i % PER_ROW) * (CARD_W + CITY_GAP), cy0 + (i // PER_ROW) * (CARD_H + CITY_GAP)
            paste(img, spr, (px, py))
            if (s, dist.get("id")) in since:
                frame(d, (px, py, px + CARD_W - 1, py + CARD_H - 1), 8, (20, 20, 20), 4)
                frame(d, (px, py, px + CARD_W - 1, py + CARD_H - 1), 8, (255, 255, 255), 3)
        y += ph
    return img


def _tie_notes(result: dict[str, Any], names: list[str], lang: str) -> list[str]:
    """One line per tie on points, saying how it was broken (rank in the last round, then gold)."""
    t = _t(lang)
    scores = result.get("scores") or []
    details = result.get("details") or {}
    ranks = details.get("last_round_rank") or []
    gold = details.get("gold") or []
    order = [s for place in result.get("ranking") or [] for s in place]
    notes = []
    seen: set[int] = set()
    for s in order:
        if s in seen or s >= len(scores):
            continue
        same = [o for o in order if o < len(scores) and scores[o] == scores[s]]
        seen.update(same)
        if len(same) < 2:
            continue
        who = ", ".join(names[o] for o in same)

        def at(xs: list, o: int) -> Any:
            return xs[o] if o < len(xs) else "?"

        if len({at(ranks, o) for o in same}) > 1:
            notes.append(t["tie_rank"].format(names=who, score=scores[s], ranks=", ".join(f"{names[o]} {at(ranks, o)}" for o in same)))
        elif len({at(gold, o) for o in same}) > 1:
            notes.append(t["tie_gold"].format(names=who, score=scores[s], golds=", ".join(f"{names[o]} {at(gold, o)}" for o in same)))
        else:
            notes.append(t["tie_shared"].format(names=who, score=scores[s]))
    return notes


def _results(img: Image.Image, d: ImageDraw.ImageDraw, y: int, names: list[str], breakdown: list[dict[str, int]],
             ranking: list[list[int]], t: dict[str, str], ties: list[str]) -> None:
    """Game over: a table of the final scores, best first (ties share a place), and how ties on
    points were broken."""
    n = len(breakdown)
    d.rectangle((0, y, W, y + RES_HEAD + RES_ROW * n + 30 * len(ties) + 8), fill=UI["panel"])
    cols = t["res_cols"].split("|")
    xs = [W - MARGIN - 50 - 110 * k for k in range(4, -1, -1)]
    text(d, (MARGIN, y + 24), t["res_head"], 26, UI["accent"], anchor="lm", bold=True)
    for x, c in zip(xs, cols, strict=True):
        text(d, (x, y + 62), c, 20, UI["muted"], anchor="mm", max_width=108)
    y += RES_HEAD
    for place, seats in enumerate(ranking, start=1):
        for s in seats:
            b = breakdown[s] if s < len(breakdown) else {}
            ink = UI["good"] if place == 1 else UI["text"]
            text(d, (MARGIN, y + RES_ROW / 2), f"{place}.", 22, ink, anchor="lm", bold=True)
            text(d, (MARGIN + 36, y + RES_ROW / 2), names[s], 22, ink, anchor="lm", bold=True, max_width=xs[0] - 60 - MARGIN - 36)
            vals = [b.get("districts", 0), b.get("five_colours", 0), b.get("complete", 0), b.get("purple_bonus", 0)]
            for x, v in zip(xs, vals, strict=False):
                text(d, (x, y + RES_ROW / 2), str(v) if v else "–", 22, UI["text"] if v else UI["muted"], anchor="mm")
            text(d, (xs[-1], y + RES_ROW / 2), str(b.get("total", 0)), 24, ink, anchor="mm", bold=True)
            y += RES_ROW
    for note in ties:
        text(d, (MARGIN, y + 15), note, 20, UI["muted"], anchor="lm", max_width=W - 2 * MARGIN)
        y += 30


def board_png(view: dict[str, Any], names: list[str], lang: str = "en") -> bytes:
    """The public board picture (PNG bytes). ``names[i]`` is seat i's display name."""
    return encode_png(board_image(view, names, lang))


# ---------------------------------------------------------------------------------------------
# The private picture


HAND_W = W
HCARD_W, HCARD_H = CARD_W, 120
HCHAR_H = 80
SECTION_H = 44


def _cards_rows(cards: list[Any], per_row: int) -> list[list[Any]]:
    return [cards[i : i + per_row] for i in range(0, len(cards), per_row)] or [[]]


def hand_image(view: dict[str, Any], lang: str = "en") -> Image.Image:
    """The viewer's private picture as a PIL image (see :func:`hand_png`)."""
    with legible(HAND_W):
        return _hand_image(view, lang)


def _hand_image(view: dict[str, Any], lang: str) -> Image.Image:
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
    per_row = PER_ROW
    gap = 8
    tw_, th = HCARD_W, HCHAR_H

    # layout heights
    H = 60  # title bar
    H += SECTION_H + len(_cards_rows(mine, per_row)) * (th + gap) + 8  # characters
    if choices:
        H += SECTION_H + len(_cards_rows(choices, per_row)) * (th + gap) + 8
    for _, cards in extra_rows:
        H += SECTION_H + len(_cards_rows(cards, per_row)) * (HCARD_H + gap) + 6
    H += SECTION_H + len(_cards_rows(hand, per_row)) * (HCARD_H + gap) + 10
    img = new_canvas(HAND_W, H)
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, HAND_W, 60), fill=UI["panel"])
    text(d, (MARGIN, 30), t["round"].format(n=view.get("round", 1)), 30, UI["text"], anchor="lm", bold=True)
    player = next((p for p in view.get("players", []) if p["seat"] == me), None)
    right = HAND_W - MARGIN
    if player is not None:
        right -= text(d, (right, 30), f"{len(player['city'])}/{view.get('districts_to_end', 8)}", 24, UI["muted"], anchor="rm") + 22
        right -= text(d, (right, 30), str(player["hand_size"]), 26, UI["text"], anchor="rm", bold=True) + 6
        paste(img, card_icon(22, 30), (right - 24, 15))
        right -= 40
        right -= text(d, (right, 30), str(player["gold"]), 26, UI["text"], anchor="rm", bold=True) + 6
        paste(img, coin(15, ""), (right - 30, 15))
        right -= 40
    if view.get("crown") == me and me is not None:
        paste(img, crown(40, 30), (right - 44, 15))
    y = 60

    def section(title: str, y: int) -> int:
        text(d, (MARGIN, y + SECTION_H / 2 + 2), title, 24, UI["accent"], anchor="lm", bold=True, max_width=HAND_W - 2 * MARGIN)
        return y + SECTION_H

    def tiles(chars: list[str], y: int, state_of) -> int:
        for row in _cards_rows(chars, per_row):
            for i, ch in enumerate(row):
                paste(img, character_tile(ch, RANK[ch], lg, tw_, th, state_of(ch)), (MARGIN + i * (tw_ + gap), y))
            y += th + gap
        return y + 8

    y = section(t["you_are"], y)
    if mine:
        revealed = view.get("revealed") or {}
        tn = view.get("turn") or {}

        def state(ch: str) -> str:
            if ch == view.get("murdered"):
                return "murdered"
            if tn.get("character") == ch and tn.get("seat") == me:
                return "current"
            return "called" if ch in revealed else ""

        y = tiles(mine, y, state)
    else:
        text(d, (MARGIN, y + th / 2), t["no_char"], 24, UI["muted"], anchor="lm")
        y += th + gap + 8
    if choices:
        y = section(t["discard_pick"] if draft.get("step") == "discard" else t["choices"], y)
        y = tiles(choices, y, lambda ch: "")
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


def turn_image(view: dict[str, Any], names: list[str], lang: str = "en") -> Image.Image:
    """The one picture of a turn DM for a seat view: the table with each city as compact chips
    (the districts built since the viewer's last turn framed: ``view["since"]``), then the
    viewer's characters, picks and hand (as :func:`hand_image`)."""
    with legible(W):
        board = _board_image(view, names, lang, compact=True)
        hand = _hand_image({**view, "names": view.get("names") or names}, lang)
    img = new_canvas(W, board.height + hand.height)
    img.paste(board, (0, 0))
    img.paste(hand, (0, board.height))
    return img


def turn_png(view: dict[str, Any], names: list[str], lang: str = "en") -> bytes:
    """PNG bytes of :func:`turn_image`."""
    return encode_png(turn_image(view, names, lang))


def hand_png(view: dict[str, Any], lang: str = "en") -> bytes:
    """The viewer's private picture (PNG bytes) from a seat view (``view['hand']`` is a list)."""
    if view.get("hand") is None:
        raise ValueError("hand_png needs a seat view with a hand, not the public view")
    return encode_png(hand_image(view, lang))


__all__ = ["board_png", "board_image", "hand_png", "hand_image", "district_card", "character_tile", "rounded_sprite"]
