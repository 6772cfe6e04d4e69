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

from engines.cities import actions as CX
from engines.cities import components as comp
from engines.cities import texts as engine_texts

from . import paging
from .base import Choice, Controls, GameUI, Manifest

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
MAX_BUTTONS = 20  # Discord: 25 components a message, a row of them for the select
PIECE_ES = {"red": "roja", "blue": "azul", "green": "verde", "yellow": "amarilla"}

T = {
    "start": {
        "en": "Choose your starting tile (the picture shows the table). The others pick after you, counter-clockwise.",
        "es": "Elige tu loseta inicial (la imagen muestra la mesa). Los demás eligen después, en sentido antihorario.",
    },
    "start_btn": {"en": "Start with {layout}", "es": "Empezar con {layout}"},
    "take": {
        "en": "Round {round}/{rounds} · {left} worker(s) left. Put a worker on a row slot to take what lies there:",
        "es": "Ronda {round}/{rounds} · te quedan {left} trabajador(es). Pon un trabajador en un hueco de una fila para tomar lo que hay:",
    },
    "take_rows": {
        "en": "A scoring cards · B city tiles · C feature tiles · D building pieces (★: the star space, 2 pieces from the bag).",
        "es": "A cartas de puntuación · B losetas de ciudad · C losetas de característica · D piezas de edificio (★: la estrella, 2 piezas de la bolsa).",
    },
    "face_down": {"en": "? face down", "es": "? boca abajo"},
    "star_draw": {"en": "+2 from the bag", "es": "+2 de la bolsa"},
    "holding": {"en": "You hold: {items}.", "es": "Tienes: {items}."},
    "place_item": {
        "en": "Place the **{item}**: choose a space (lettered on the picture; numbers on the edges are x and y).",
        "es": "Coloca la **{item}**: elige un espacio (con letra en la imagen; los números del borde son x e y).",
    },
    "place_tile": {
        "en": "Place the **city tile {tile}**: choose a free place next to your neighbourhood (lettered on the picture).",
        "es": "Coloca la **loseta de ciudad {tile}**: elige un sitio libre junto a tu barrio (con letra en la imagen).",
    },
    "no_place": {
        "en": "The **{item}** fits nowhere in your neighbourhood: it leaves the game.",
        "es": "La **{item}** no cabe en ningún sitio de tu barrio: sale del juego.",
    },
    "preview": {
        "en": "Preview: **{item}** on ({x}, {y}){height}. Confirm, or choose another space.",
        "es": "Vista previa: **{item}** en ({x}, {y}){height}. Confirma o elige otro espacio.",
    },
    "height": {"en": ", {n} high", "es": ", altura {n}"},
    "rotations": {
        "en": "The **city tile {tile}** on place **{label}**: the picture shows each way to turn it; press one to place it.",
        "es": "La **loseta de ciudad {tile}** en el sitio **{label}**: la imagen muestra cada forma de girarla; pulsa una para colocarla.",
    },
    "pick_space": {"en": "Where to place it", "es": "Dónde colocarla"},
    "place_item_btn": {
        "en": "Place the **{item}**: press the letter of a space (as on the picture), or remove it from the game.",
        "es": "Coloca la **{item}**: pulsa la letra de un espacio (como en la imagen) o retírala del juego.",
    },
    "space_btn": {"en": "{label} · {what}", "es": "{label} · {what}"},
    "pick_cell": {"en": "Where to place the city tile", "es": "Dónde colocar la loseta de ciudad"},
    "opt_space": {"en": "{label} · ({x}, {y}) {what}", "es": "{label} · ({x}, {y}) {what}"},
    "opt_cell": {"en": "Place {label} · tile cell ({x}, {y})", "es": "Sitio {label} · celda ({x}, {y})"},
    "opt_ways": {"en": "{n} way(s) to turn it", "es": "{n} forma(s) de girarla"},
    "on_height": {"en": "on {colour} {h} → {n} high", "es": "sobre {colour} {h} → altura {n}"},
    "empty_space": {"en": "{space}", "es": "{space}"},
    "wild_space": {"en": "wild space", "es": "espacio comodín"},
    "confirm": {"en": "Confirm: {item} on ({x}, {y})", "es": "Confirmar: {item} en ({x}, {y})"},
    "rot_btn": {"en": "Place it turned {deg}°", "es": "Colocarla girada {deg}°"},
    "rot0_btn": {"en": "Place it as shown (0°)", "es": "Colocarla así (0°)"},
    "rot_caption": {"en": "{label} turned {deg}°", "es": "{label} girada {deg}°"},
    "decline": {"en": "Remove {item} from the game", "es": "Retirar {item} del juego"},
    "switch": {"en": "Place {item} first", "es": "Colocar antes {item}"},
    "status": {"en": "Round {round}/{rounds} · {scores}", "es": "Ronda {round}/{rounds} · {scores}"},
    "l_tile": {"en": "City tile at ({x}, {y}), turned {deg}°", "es": "Loseta de ciudad en ({x}, {y}), girada {deg}°"},
    "status_start": {"en": " · choosing starting tiles", "es": " · eligiendo losetas iniciales"},
    "s_take": {"en": "{who} takes row {row}, slot {slot}", "es": "{who} toma la fila {row}, hueco {slot}"},
}


def tr(key: str, lang: str, **kw: Any) -> str:
    entry = T[key]
    return (entry.get(lang) or entry["en"]).format(**kw)


def _piece(colour: str, lang: str) -> str:
    return f"pieza {PIECE_ES.get(colour, colour)}" if lang == "es" else f"{colour} piece"


def _item_words(kind: str, item: str, lang: str) -> str:
    """A held item in words: 'city tile T07', 'Boat', 'red piece'."""
    if kind == "t":  # its spaces as colour squares, never its internal code
        term = engine_texts.TERMS["city_tile"].get(lang, engine_texts.TERMS["city_tile"]["en"])
        return f"{term} {_layout(item)}"
    if kind == "p":
        return _piece(item, lang)
    term = engine_texts.TERMS["feature_tile"][lang if lang in ("en", "es") else "en"]
    return f"{term} {comp.name(item, lang)}" if lang == "es" else f"{comp.name(item, lang)} {term}"


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
    "en": {
        "ci1_title": "Cities · your turn",
        "ci1_take": "Put a worker on a slot of a row and take what lies there",
        "ci1_rows": "A scoring cards · B city tiles · C feature tiles · D building pieces (★ the star space: 2 pieces from the bag)",
        "ci1_place_title": "Cities · your neighbourhood",
        "ci1_place": "Then place it in your neighbourhood: city tiles edge to edge, pieces on a space of their colour or on their colour, features on their own space. Or remove it from the game",
        "ci2_title": "Cities · scoring",
        "ci2_cards": "Achievements as soon as you meet them; scoring cards at the end, for each time your neighbourhood shows their pattern",
        "ci2_areas": "Each water and each park area: {points} points for 1 to {n} different features",
        "ci2_monuments": "Each monument: {n} points",
        "ci2_end": "The match ends after the last round; the most points wins.",
    },
    "es": {
        "ci1_title": "Cities · tu turno",
        "ci1_take": "Pon un trabajador en un hueco de una fila y toma lo que hay",
        "ci1_rows": "A cartas de puntuación · B losetas de ciudad · C losetas de característica · D piezas de edificio (★ la estrella: 2 piezas de la bolsa)",
        "ci1_place_title": "Cities · tu barrio",
        "ci1_place": "Después colócalo en tu barrio: losetas de ciudad lado con lado, piezas en un espacio de su color o sobre su color, características en su espacio. O retíralo del juego",
        "ci2_title": "Cities · puntuación",
        "ci2_cards": "Los logros, en cuanto los cumples; las cartas de puntuación al final, por cada vez que tu barrio muestra su patrón",
        "ci2_areas": "Cada zona de agua y cada zona de parque: {points} puntos por 1 a {n} características distintas",
        "ci2_monuments": "Cada monumento: {n} puntos",
        "ci2_end": "La partida acaba tras la última ronda; gana quien tiene más puntos.",
    },
}


class CitiesUI(GameUI):
    key = "cities"
    rules = {
        "en": (
            "**Cities** (2-4 players, 8 rounds; 2 players: 4 rounds). Each round the four rows are dealt: "
            "**A** scoring cards, **B** city tiles, **C** feature tiles, **D** building pieces (★ the star space: "
            "2 pieces from the bag). In turn, put a worker on a slot and take what lies there (3-4 players: one "
            "worker per row a round; 2 players: two per row), then place it in your **neighbourhood**: city tiles "
            "edge to edge, at most 3x3 tiles; pieces on a city space of their colour or on their colour, at most 4 "
            "high; water and park features on their own space, monuments and the wild lot on an empty city space. "
            "You may remove a feature or piece instead. Achievements are claimed at once. At the end: achievements, "
            "scoring cards (per occurrence), each water and park area 1/3/6/10 for 1/2/3/4 different features, "
            "monuments 2. Options: `board=venice` (the achievement board, random by default), `long=true` "
            "(2 players: 7 rounds, 3x5 neighbourhoods)."
        ),
        "es": (
            "**Cities** (2-4 jugadores, 8 rondas; con 2 jugadores, 4). Cada ronda se reparten las cuatro filas: "
            "**A** cartas de puntuación, **B** losetas de ciudad, **C** losetas de característica, **D** piezas de "
            "edificio (★ la estrella: 2 piezas de la bolsa). Por turnos, pon un trabajador en un hueco y toma lo que "
            "hay (3-4 jugadores: un trabajador por fila y ronda; 2 jugadores: dos por fila) y colócalo en tu "
            "**barrio**: losetas de ciudad lado con lado, como mucho 3x3; piezas en un espacio de ciudad de su color "
            "o sobre su color, hasta altura 4; características de agua y parque en su espacio, monumentos y el solar "
            "comodín en un espacio de ciudad vacío. Puedes retirar una característica o pieza. Los logros se "
            "consiguen al momento. Al final: logros, cartas de puntuación (por cada vez), cada zona de agua y de "
            "parque 1/3/6/10 por 1/2/3/4 características distintas, monumentos 2. Opciones: `board=venice` "
            "(el tablero de logros; al azar por defecto), `long=true` (2 jugadores: 7 rondas, barrios de 3x5)."
        ),
    }
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
            parts = [comp.name(i, lang) for i in items]
        elif row == "B":
            parts = [_layout(i) for i in items]
        elif row == "C":
            parts = [comp.name(i, lang) for i in items]
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
            words.append(f"{n} × {_item_words('p', c, lang)}" if n > 1 else _item_words("p", c, lang))
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
            colour = comp.name("colour:" + sp["colour"], lang).lower()
            return tr("on_height", lang, colour=colour, h=sp["height"], n=sp["height"] + 1)
        if sp.get("design") == "wild":
            return tr("wild_space", lang)
        return tr("empty_space", lang, space=comp.name("space:" + sp.get("type", ""), lang).lower())

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
            lines = [engine_texts.event_text(_ev(e), lang, names) for e in events if _ev(e).get("kind") != "game_over"]
            lines = [x for x in lines if x]
            if lines:
                return " ".join(lines)
        kind = action.get("type")
        if kind == "take":
            return tr(CX.CODEC.decl(action).story, lang, who=name, row=action.get("row"), slot=int(action.get("slot", 0)) + 1)
        return f"{name}: {engine_texts.action_label(action, lang)}"

    def label(self, action, lang):
        """A short, distinct name for a legal move (typed moves)."""
        kind = action.get("type")
        if kind in ("start", "tile"):
            return tr(CX.CODEC.decl(action).label, lang, tile=action.get("tile"), layout=_layout(action["tile"]) if kind == "start" else "",
                      x=action.get("x"), y=action.get("y"), deg=90 * int(action.get("rot") or 0))
        return engine_texts.action_label(action, lang)

    def rule_text(self, code: str, params: dict[str, Any], lang: str) -> str | None:
        """An engine refusal in the reader's language (colours and items translated)."""
        if code not in engine_texts.ERRORS:
            return None
        return engine_texts.error_text(code, params, lang)

    def status(self, view, names, lang):
        scores = " · ".join(f"{n} {p['score']['total']}" for n, p in zip(names, view["players"], strict=False))
        line = tr("status", lang, round=view.get("round"), rounds=view.get("rounds"), scores=scores)
        return line + tr("status_start", lang) if view.get("phase") == "start" else line


MANIFEST = Manifest("cities", CitiesUI())
