"""Cities on Discord: take a row slot (one tap), then place what it held, one item at a time.

Private turn steps (``controls``); every choice comes from the engine's legal actions:

* start phase - one button per starting tile still offered;
* take phase - one button per legal row slot ("A1 · Lakes", "D★ · 🟥🟨"), one button row per
  worker row, colour squares for the pieces and the tiles' spaces: one tap;
* place phase - the item being placed is the one named in ``picked`` or else the first held one
  (the city tile, then the feature tiles, then the pieces). Its legal places are lettered on a
  picture of the neighbourhood; "Remove … from the game" is one button; other held items are
  entries of a select, to place them first.
  - a feature tile or a piece: up to 20 legal spaces are one button each, lettered as on the
    picture (one tap places it); more go in a select whose picks place it at once
    (``pick_action``); Undo is the safety net, no preview-and-confirm step;
  - the city tile: picking a free cell shows the tile there turned each legal way, one button per
    way (2 taps); a cell with only one way is itself the move (one pick).

``picked`` values: ``i.t`` / ``i.f.<feature>`` / ``i.p.<colour>`` (+ ``~<page>``, bot/games/paging.py) the item,
``c.<x>.<y>`` a tile cell; ``s.f.<feature>.<x>.<y>`` / ``s.p.<colour>.<x>.<y>`` (a space's preview
and confirm) only in messages sent before picks acted at once.
Action tokens: ``S.<tile>``, ``K.<row><slot>``, ``T.<x>.<y>.<rot>``, ``F.<feature>.<x>.<y>``,
``B.<colour>.<x>.<y>``, ``X.t.<tile>`` / ``X.f.<feature>`` / ``X.p.<colour>``. Typed moves also
accept ``A1``..``D4`` for a take.
"""

from __future__ import annotations

import re
from typing import Any

from catalogs import lookup, table
from engines.cities import actions as CX
from engines.cities import components as comp

from . import paging
from .base import Choice, Controls, GameUI, Manifest

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
MAX_BUTTONS = 20  # Discord: 25 components a message, a row of them for the select
DOMAIN = "cities"

# The game's texts: catalogs/<lang>/cities.po (English, Spanish, Portuguese), as {key: {lang: text}};
# a text that counts is a plural entry, worded by ``tr`` with its count. The components' names are
# "name.<id>" entries, the engine's refusals "rule.<code>", its events "event.<kind>".
_TEXTS = table(DOMAIN)
T = {key: entry for key, entry in _TEXTS.items() if "." not in key and key != "rules"}
RULE_TEXTS = {key[len("rule."):]: entry for key, entry in _TEXTS.items() if key.startswith("rule.")}


def tr(key: str, lang: str, **kw: Any) -> str:
    """A text of the game in ``lang`` (English when the language has none), its plural form chosen
    by its count (CLDR rules), formatted with ``kw``."""
    text = lookup(lang, key, kw, domain=DOMAIN) or lookup("en", key, kw, domain=DOMAIN) or key
    return text.format(**kw)


def comp_name(key: str, lang: str) -> str:
    """A component in words: a card, an achievement, a board, a feature design or feature tile
    (``boat-3`` -> Boat), ``colour:red`` or ``space:park``; other ids name themselves."""
    if f"name.{key}" not in _TEXTS and key in comp.FEATURE_INDEX:
        key = comp.DESIGNS[comp.FEATURE_DESIGN[comp.FEATURE_INDEX[key]]]
    return tr(f"name.{key}", lang) if f"name.{key}" in _TEXTS else key


def _piece(colour: str, lang: str) -> str:
    """'red piece', 'pieza roja', 'peça vermelha'."""
    return tr(f"piece.{colour}", lang) if f"piece.{colour}" in _TEXTS else colour


def _item_words(kind: str, item: str, lang: str) -> str:
    """A held item in words: 'city tile 🟥🟦/🌳💧', 'Boat feature tile', 'red piece'."""
    if kind == "t":  # its spaces as colour squares, never its internal code
        return tr("item.tile", lang, layout=_layout(item))
    if kind == "p":
        return _piece(item, lang)
    return tr("item.feature", lang, name=comp_name(item, lang))


def item_name(item: str, lang: str) -> str:
    """A row item of the engine (a card, a tile, a feature tile or the colour of a piece) in words."""
    if item in comp.COLOURS:
        return _piece(item, lang)
    if item in comp.TILE_INDEX:
        return tr("item.tile_id", lang, tile=item)
    if item in comp.FEATURE_INDEX:
        return _item_words("f", item, lang)
    return comp_name(item, lang)


def _format(key: str, lang: str, params: dict[str, Any]) -> str:
    text = lookup(lang, key, params, domain=DOMAIN) or lookup("en", key, params, domain=DOMAIN) or key
    try:
        return text.format(**params)
    except (KeyError, IndexError, ValueError):
        return text


def error_text(code: str, params: dict[str, Any] | None, lang: str = "en") -> str:
    """An engine refusal in words, its colour, design and item translated."""
    if code not in RULE_TEXTS:
        code = "bad_action"
    p = dict(params or {})
    if "colour" in p:
        p["colour"] = tr(f"piece_colour.{p['colour']}", lang) if f"piece_colour.{p['colour']}" in _TEXTS else p["colour"]
    if "design" in p:
        p["design"] = comp_name(p["design"], lang).lower()
    if "item" in p:
        p["item"] = item_name(p["item"], lang)
    return _format(f"rule.{code}", lang, p)


def event_text(event: dict[str, Any], lang: str = "en", players: list[str] | None = None) -> str:
    """One engine event (its JSON) in words; '' for a kind with no words."""
    kind = event.get("kind")
    if f"event.{kind}" not in _TEXTS:
        return ""
    data = dict(event.get("data") or {})
    players = players or []

    def who(seat: Any) -> str:
        return players[seat] if isinstance(seat, int) and 0 <= seat < len(players) else f"#{seat}"

    p = {**data, "player": who(event.get("seat"))}
    if "items" in data:
        p["items"] = ", ".join(item_name(i, lang) for i in data["items"]) or "-"
    if "feature" in data:
        p["feature"] = comp_name(data["feature"], lang)
    if "colour" in data:
        p["colour"] = tr(f"piece_colour.{data['colour']}", lang) if f"piece_colour.{data['colour']}" in _TEXTS else data["colour"]
    if "item" in data:
        p["item"] = item_name(data["item"], lang)
    if "achievement" in data:
        p["achievement"] = comp_name(data["achievement"], lang)
    if "star" in data:
        p["star"] = who(data["star"])
    return _format(f"event.{kind}", lang, p)


_TURNS = ("", " 90°", " 180°", " 270°")


def action_label(action: dict[str, Any], lang: str = "en") -> str:
    """A short label for a legal action (rows are A-D, slots counted from 1)."""
    kind = action.get("type")
    if f"label.{kind}" not in _TEXTS:
        return str(action)
    p = dict(action)
    if kind == "take":
        p["slot"] = action["slot"] + 1
    elif kind == "tile":
        p["rot"] = _TURNS[action["rot"]]
    elif kind == "feature":
        p["feature"] = comp_name(action["feature"], lang)
    elif kind == "build":
        piece = _piece(action["colour"], lang)
        p["piece"] = piece[:1].upper() + piece[1:]  # it starts the label
    elif kind == "decline":
        item = action.get("tile") or action.get("feature") or action.get("piece")
        p["item"] = item_name(item, lang)
    return tr(f"label.{kind}", lang, **p)


# What a button shows for a space type or a building colour: a coloured square, and a picture for
# the park and the water (so the green piece and the park never read alike)
SQUARE = {"red": "🟥", "blue": "🟦", "green": "🟩", "yellow": "🟨", "park": "🌳", "water": "💧"}


def _layout(tile: str) -> str:
    """A tile's four spaces as squares, '🟥🟦/🌳💧' (top row / bottom row, unturned)."""
    sp = comp.ROTATED[comp.TILE_INDEX[tile]][0]
    marks = [SQUARE.get(comp.SPACE_TYPES[s], comp.SPACE_LETTERS[s]) for s in sp]
    return f"{marks[0]}{marks[1]}/{marks[2]}{marks[3]}"


def _ev(event: Any) -> dict[str, Any]:
    if isinstance(event, dict):
        return event
    return {"kind": getattr(event, "kind", None), "seat": getattr(event, "seat", None), "data": getattr(event, "data", {})}


TYPED_TAKE_RE = re.compile(r"^([A-Da-d])\s*([1-4])$")
PICK_RE = re.compile(
    r"^(?:i\.(?P<ik>[tfp])(?:\.(?P<iv>[A-Za-z0-9-]{1,12}))?"
    r"|c\.(?P<cx>-?\d{1,3})\.(?P<cy>-?\d{1,3})"
    r"|s\.(?P<sk>[fp])\.(?P<sv>[A-Za-z0-9-]{1,12})\.(?P<sx>-?\d{1,3})\.(?P<sy>-?\d{1,3}))$"
)


# The illustrated guide of /partida rules (render/cities_guide.py draws it with these words).
GUIDE: dict[str, dict[str, str]] = {
    lang: {key[len("guide."):]: entry[lang] for key, entry in _TEXTS.items() if key.startswith("guide.") and lang in entry}
    for lang in _TEXTS["rules"]
}


class CitiesUI(GameUI):
    key = "cities"
    rules = dict(_TEXTS["rules"])  # {lang: the rules summary}, from the catalogues
    refusals = RULE_TEXTS  # the engine's refusal codes (worded by rule_text below)
    guide = GUIDE

    def guide_images(self, lang):
        from render.cities_guide import guide_images

        return self._guide(guide_images, lang)

    # -- pictures ------------------------------------------------------------------------------------

    def mark_since(self, view, actions):
        marks = []
        for seat, a in actions:
            if a.get("type") == "tile":
                marks.append([seat, "tile", a["x"], a["y"]])
            elif a.get("type") in ("feature", "build"):
                marks.append([seat, "space", a["x"], a["y"]])
        return {**view, "since": marks} if marks else view

    def board_png(self, view, names, lang):
        from render.cities import board_png

        return board_png(view, names, lang)

    def turn_png(self, view, names, lang):
        """The table once (nothing in Cities is private), what the others placed since the viewer's
        last turn marked; the place step's controls show the lettered neighbourhood instead."""
        from render.cities import turn_png

        return turn_png(view, names, lang)

    def hand_png(self, view, lang):
        """The mover's picture: the table (rows, achievements, every neighbourhood). At the place
        step the controls replace it with the mover's own neighbourhood, lettered."""
        from render.cities import board_png

        names = view.get("names") or [str(k + 1) for k in range(view.get("seats", 0))]
        return board_png(view, names, lang)

    # -- tokens --------------------------------------------------------------------------------------

    def token(self, action: dict[str, Any]) -> str:
        return CX.to_token(action)

    def action(self, token: str) -> dict[str, Any]:
        """The action of a token (the engine's declarations), or of a typed take "A1".."D4"."""
        if not isinstance(token, str):
            raise ValueError(token)
        typed = TYPED_TAKE_RE.match(token.strip())
        if typed:
            return {"type": "take", "row": typed[1].upper(), "slot": int(typed[2]) - 1}
        return CX.from_token(token.strip())

    # -- controls ------------------------------------------------------------------------------------

    def pick_action(self, value):
        """A place picked in the select acts at once when its value is an action token."""
        try:
            return CX.from_token(value) if isinstance(value, str) else None
        except ValueError:
            return None

    def controls(self, view, legal, lang, picked=None, auto_end=True):
        kinds = {a.get("type") for a in legal}
        if "start" in kinds:
            buttons = [
                Choice(tr("start_btn", lang, tile=a["tile"], layout=_layout(a["tile"])), self.token(a), "primary")
                for a in legal if a["type"] == "start"
            ]
            return Controls(tr("start", lang), buttons=buttons)
        if "take" in kinds:
            return self._take_controls(view, legal, lang)
        return self._place_controls(view, legal, lang, picked)

    def _slot_label(self, view, row: str, slot: int, lang: str) -> str:
        r = next((x for x in view.get("rows") or [] if x["row"] == row), None)
        s = next((x for x in (r or {}).get("slots", []) if x["slot"] == slot), {}) if r else {}
        items = list(s.get("items") or [])
        parts = []
        if row == "A":
            parts = [comp_name(i, lang) for i in items]
        elif row == "B":
            parts = [_layout(i) for i in items]
        elif row == "C":
            parts = [comp_name(i, lang) for i in items]
        elif row == "D":
            parts = ["".join(SQUARE.get(c, c) for c in items)] if items else []
        if s.get("hidden"):
            parts.append(tr("face_down", lang))
        if s.get("star") and not items:
            parts.append(tr("star_draw", lang))
        head = f"{row}{'★' if s.get('star') else slot + 1}"
        return f"{head} · {' + '.join(parts) or '-'}"[:80]

    def _take_controls(self, view, legal, lang) -> Controls:
        me = view.get("viewer")
        player = next((p for p in view.get("players") or [] if p["seat"] == me), {})
        buttons = []
        for a in sorted((a for a in legal if a["type"] == "take"), key=lambda a: (a["row"], a["slot"])):
            style = {"A": "primary", "B": "success", "C": "secondary", "D": "danger"}[a["row"]]
            # one button row per worker row (A on the first, D on the fourth)
            buttons.append(Choice(self._slot_label(view, a["row"], a["slot"], lang), self.token(a), style, row="ABCD".index(a["row"])))
        text = tr("take", lang, round=view.get("round"), rounds=view.get("rounds"), left=player.get("workers_left", "?"))
        return Controls(f"{text}\n{tr('take_rows', lang)}", buttons=buttons)

    # the items held, in placing order: ("t", tile) then ("f", feature)... then ("p", colour) once per colour
    @staticmethod
    def _held(view) -> list[tuple[str, str]]:
        pending = view.get("pending") or {}
        out: list[tuple[str, str]] = []
        if pending.get("tile"):
            out.append(("t", pending["tile"]))
        out += [("f", f) for f in pending.get("features") or []]
        out += [("p", c) for c in dict.fromkeys(pending.get("pieces") or [])]
        return out

    @staticmethod
    def _places(legal, kind: str, item: str) -> list[dict[str, Any]]:
        if kind == "t":
            return [a for a in legal if a["type"] == "tile"]
        if kind == "f":
            return [a for a in legal if a["type"] == "feature" and a["feature"] == item]
        return [a for a in legal if a["type"] == "build" and a["colour"] == item]

    @staticmethod
    def _decline(legal, kind: str, item: str) -> dict[str, Any] | None:
        key = {"t": "tile", "f": "feature", "p": "piece"}[kind]
        return next((a for a in legal if a["type"] == "decline" and a.get(key) == item), None)

    def _holding_text(self, view, lang) -> str:
        pending = view.get("pending") or {}
        words = []
        if pending.get("tile"):
            words.append(_item_words("t", pending["tile"], lang))
        words += [_item_words("f", f, lang) for f in pending.get("features") or []]
        for c in dict.fromkeys(pending.get("pieces") or []):
            n = pending["pieces"].count(c)
            words.append(tr(f"pieces.{c}", lang, n=n) if n > 1 and f"pieces.{c}" in _TEXTS else _item_words("p", c, lang))
        return tr("holding", lang, items=", ".join(words) or "-")

    def _place_controls(self, view, legal, lang, picked) -> Controls:
        from engines.cities import preview
        from render.cities import marked_hood_png, rotations_png

        seat = view.get("viewer")
        held = self._held(view)
        page = 0
        paged = paging.parse(picked)  # "i.<kind>.<item>~<page>": a page of that item's places
        if paged:
            picked, page = paged
        m = PICK_RE.match(picked) if isinstance(picked, str) else None
        current: tuple[str, str] | None = None
        cell: tuple[int, int] | None = None
        space: tuple[int, int] | None = None
        if m and m["ik"]:
            current = (m["ik"], m["iv"] or (view.get("pending") or {}).get("tile") or "")
        elif m and m["cx"] is not None:
            current, cell = ("t", (view.get("pending") or {}).get("tile") or ""), (int(m["cx"]), int(m["cy"]))
        elif m and m["sk"]:
            current, space = (m["sk"], m["sv"]), (int(m["sx"]), int(m["sy"]))
        if current not in held:  # nothing picked, or an old pick: the first held item
            current, cell, space, page = (held[0] if held else None), None, None, 0
        if current is None:  # nothing held (should not happen with legal actions left): what is legal
            return Controls(self._holding_text(view, lang), buttons=[
                Choice(self.label(a, lang)[:80], self.token(a)) for a in legal[:20]])
        kind, item = current
        places = self._places(legal, kind, item)
        decline = self._decline(legal, kind, item)
        words = _item_words(kind, item, lang)
        buttons: list[Choice] = []
        others = [
            Choice(tr("switch", lang, item=_item_words(k, v, lang))[:100], f"i.{k}.{v}")
            for k, v in held if (k, v) != current
        ]  # select entries (a button would apply an action)
        if decline is not None:
            buttons.append(Choice(tr(CX.CODEC.decl(decline).label, lang, item=words)[:80], self.token(decline), "danger"))
        head = self._holding_text(view, lang)
        if not places:
            return Controls(f"{head}\n{tr('no_place', lang, item=words)}", tr("pick_space", lang), others, buttons)
        if kind == "t":
            cells = list(dict.fromkeys((a["x"], a["y"]) for a in places))
            labels = {c: LETTERS[k % 26] + ("" if k < 26 else str(k // 26)) for k, c in enumerate(cells)}
            if len(cells) == 1:  # one place only: straight to its ways to turn the tile (a tap saved)
                cell = cells[0]
            room = paging.LIMIT - len(others)
            if cell in labels:
                page = paging.holding(cells.index(cell), len(cells), room)
            ways_at = {c: [a for a in places if (a["x"], a["y"]) == c] for c in cells}
            select = paging.page([
                # a cell with one way to turn the tile: picking it lays the tile at once
                Choice(tr("opt_cell", lang, label=labels[c], x=c[0], y=c[1]),
                       self.token(ways_at[c][0]) if len(ways_at[c]) == 1 else f"c.{c[0]}.{c[1]}",
                       description=tr("opt_ways", lang, n=len(ways_at[c])))
                for c in cells
            ], f"i.t.{item}", page, lang, room) + others
            if cell in labels:
                ways = [a for a in places if (a["x"], a["y"]) == cell]
                views = [(tr("rot_caption", lang, label=labels[cell], deg=90 * a["rot"]), preview(view, a)) for a in ways]
                picture = rotations_png(views, seat, cell)
                rot_buttons = [
                    Choice(tr("rot0_btn", lang) if a["rot"] == 0 else tr("rot_btn", lang, deg=90 * a["rot"]),
                           self.token(a), "success")
                    for a in ways
                ]
                text = f"{head}\n{tr('rotations', lang, tile=_layout(item), label=labels[cell])}"
                return Controls(text, tr("pick_cell", lang), select, rot_buttons + buttons, picture)
            picture = marked_hood_png(view, seat, labels, unit="tile")
            text = f"{head}\n{tr('place_tile', lang, tile=_layout(item))}"
            return Controls(text, tr("pick_cell", lang), select, buttons, picture)
        spaces = list(dict.fromkeys((a["x"], a["y"]) for a in places))
        labels = {c: LETTERS[k % 26] + ("" if k < 26 else str(k // 26)) for k, c in enumerate(spaces)}
        by_xy = {(sp["x"], sp["y"]): sp for sp in view["players"][seat]["spaces"]}
        at = {(a["x"], a["y"]): a for a in places}
        if space not in labels and len(spaces) + len(buttons) <= MAX_BUTTONS:
            # few places: one button each, lettered as on the picture; a press places the item
            # (one tap; Undo is the safety net)
            space_buttons = [
                Choice(tr("space_btn", lang, label=labels[c], what=self._space_words(by_xy.get(c) or {}, lang))[:80],
                       self.token(at[c]), "success")
                for c in spaces
            ]
            picture = marked_hood_png(view, seat, labels)
            text = f"{head}\n{tr('place_item_btn', lang, item=words)}"
            return Controls(text, tr("pick_space", lang) if others else None, others, space_buttons + buttons, picture)
        room = paging.LIMIT - len(others)
        if space in labels:
            page = paging.holding(spaces.index(space), len(spaces), room)
        select = self._space_choices(spaces, labels, by_xy, kind, item, page, lang, room, places) + others
        if space in labels:
            action = next(a for a in places if (a["x"], a["y"]) == space)
            shown = preview(view, action)
            sp = {(s["x"], s["y"]): s for s in shown["players"][seat]["spaces"]}.get(space) or {}
            height = tr("height", lang, n=sp.get("height")) if kind == "p" else ""
            picture = marked_hood_png(shown, seat, focus=space)
            confirm = Choice(tr(CX.CODEC.decl(action).label, lang, item=words, x=space[0], y=space[1])[:80], self.token(action), "success")
            text = f"{head}\n{tr('preview', lang, item=words, x=space[0], y=space[1], height=height)}"
            return Controls(text, tr("pick_space", lang), select, [confirm, *buttons], picture)
        picture = marked_hood_png(view, seat, labels)
        text = f"{head}\n{tr('place_item', lang, item=words)}"
        return Controls(text, tr("pick_space", lang), select, buttons, picture)

    def _space_choices(self, spaces, labels, by_xy, kind, item, page, lang, room=paging.LIMIT, places=()) -> list[Choice]:
        out = []
        for x, y in spaces:
            sp = by_xy.get((x, y)) or {}
            out.append(Choice(
                tr("opt_space", lang, label=labels[(x, y)], x=x, y=y, what=self._space_words(sp, lang)),
                self.token(next(a for a in places if (a["x"], a["y"]) == (x, y))),  # acts at once
            ))
        return paging.page(out, f"i.{kind}.{item}", page, lang, room)

    @staticmethod
    def _space_words(sp: dict[str, Any], lang: str) -> str:
        if sp.get("height"):
            colour = comp_name("colour:" + sp["colour"], lang).lower()
            return tr("on_height", lang, colour=colour, h=sp["height"], n=sp["height"] + 1)
        if sp.get("design") == "wild":
            return tr("wild_space", lang)
        return tr("empty_space", lang, space=comp_name("space:" + sp.get("type", ""), lang).lower())

    # -- words ---------------------------------------------------------------------------------------

    def describe(self, action, name, lang, names=None, events=None):
        """A move in public words. With the move's (public) engine ``events`` it tells what was
        taken - a face-down item only now that it is taken - placed, claimed, and the round's end."""
        names = list(names or [])
        if events:
            seat = next((_ev(e).get("seat") for e in events if _ev(e).get("seat") is not None), None)
            if seat is not None and not (0 <= seat < len(names)):
                names += [name] * (seat + 1 - len(names))
            if seat is not None and names[seat] != name:
                names = [*names]
                names[seat] = name
            lines = [event_text(_ev(e), lang, names) for e in events if _ev(e).get("kind") != "game_over"]
            lines = [x for x in lines if x]
            if lines:
                return " ".join(lines)
        kind = action.get("type")
        if kind == "take":
            return tr(CX.CODEC.decl(action).story, lang, who=name, row=action.get("row"), slot=int(action.get("slot", 0)) + 1)
        return f"{name}: {action_label(action, lang)}"

    def label(self, action, lang):
        """A short, distinct name for a legal move (typed moves)."""
        kind = action.get("type")
        if kind in ("start", "tile"):
            return tr(CX.CODEC.decl(action).label, lang, tile=action.get("tile"), layout=_layout(action["tile"]) if kind == "start" else "",
                      x=action.get("x"), y=action.get("y"), deg=90 * int(action.get("rot") or 0))
        return action_label(action, lang)

    def rule_text(self, code: str, params: dict[str, Any], lang: str) -> str | None:
        """An engine refusal in the reader's language (colours and items translated)."""
        if code not in RULE_TEXTS:
            return None
        return error_text(code, params, lang)

    def status(self, view, names, lang):
        scores = " · ".join(f"{n} {p['score']['total']}" for n, p in zip(names, view["players"], strict=False))
        line = tr("status", lang, round=view.get("round"), rounds=view.get("rounds"), scores=scores)
        return line + tr("status_start", lang) if view.get("phase") == "start" else line


MANIFEST = Manifest("cities", CitiesUI())
