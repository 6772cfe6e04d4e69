"""Carcassonne on Discord: pick a place for the drawn tile, then how to turn it, then a meeple spot.

Private turn steps (``controls``), each a select whose values encode the path so far:

1. ``None`` / ``pg~N`` - the places where the tile fits, nearest to the last tile first; more than
   25 go on pages of ``PAGE`` (render.carcassonne.place_pages: each page a compact patch of the
   table), and each page comes with its own picture of those places (``turn_png(page=N)``), the
   letters on the picture and in the menu the same (``place_labels(view, PAGE)``).
2. ``at.X.Y`` / ``rt.X.Y.R`` - a preview of the tile laid there (first legal rotation, or R) with
   its meeple spots numbered and the other legal rotations in small, one button per legal spot
   plus "no meeple" (each carries the whole place action), and a select to turn the tile.

Action tokens (``token``/``action``): ``P.X.Y.R`` (no meeple), ``P.X.Y.R.F`` (meeple on feature F),
``M`` (dig with the Medina archaeologist), ``C.T`` (keep tile T after a dig).
"""

from __future__ import annotations

import re
from typing import Any

from engines.carcassonne import actions as CA
from engines.carcassonne import texts as engine_texts

from . import paging
from .base import Choice, Controls, GameUI, Manifest

T = {
    "place": {
        "en": "Your tile: **{tile}**. Where do you lay it? It fits in {n} places, lettered A, B… on the picture.",
        "es": "Tu loseta: **{tile}**. ¿Dónde la pones? Cabe en {n} sitios, con letras A, B… en la imagen.",
    },
    "place1": {
        "en": "Your tile: **{tile}**. It fits in one place only (A on the picture).",
        "es": "Tu loseta: **{tile}**. Solo cabe en un sitio (A en la imagen).",
    },
    "pick_pos": {"en": "Where to lay the tile", "es": "Dónde poner la loseta"},
    "page": {"en": " Page {p} of {n}.", "es": " Página {p} de {n}."},
    "pick_pos_range": {"en": "Where to lay the tile: {a} … {b}", "es": "Dónde poner la loseta: {a} … {b}"},
    "pick_rot": {"en": "How to turn it", "es": "Cómo girarla"},
    "meeple_step": {
        "en": "Your tile ({tile}) on place **{label}**, turned {deg}°. Put a meeple on a numbered spot, or none.",
        "es": "Tu loseta ({tile}) en el sitio **{label}**, girada {deg}°. Pon un meeple en un sitio numerado, o ninguno.",
    },
    "no_meeples": {
        "en": "Your tile ({tile}) on place **{label}**, turned {deg}°. You have no meeples left: confirm to lay it.",
        "es": "Tu loseta ({tile}) en el sitio **{label}**, girada {deg}°. No te quedan meeples: confirma para ponerla.",
    },
    "dig_note": {
        "en": "\nYou may first dig with your archaeologist (draws an extra tile to choose from).",
        "es": "\nAntes puedes excavar con tu arqueólogo (roba otra loseta para elegir).",
    },
    "choose_step": {
        "en": "Your archaeologist dug up a tile: choose which one to play ({a}, or {b}); the other goes back into the pile.",
        "es": "Tu arqueólogo ha desenterrado una loseta: elige cuál jugar ({a}, o {b}); la otra vuelve a la reserva.",
    },
    "pos_label": {"en": "Place {label}", "es": "Sitio {label}"},
    "fits": {"en": "fits {n} ways · ({x}, {y})", "es": "cabe de {n} formas · ({x}, {y})"},
    "fits1": {"en": "fits one way · ({x}, {y})", "es": "cabe de una forma · ({x}, {y})"},
    "back": {"en": "← Another place", "es": "← Otro sitio"},
    "rot0": {"en": "Not turned (0°)", "es": "Sin girar (0°)"},
    "rot": {"en": "Turned {deg}° clockwise", "es": "Girada {deg}° a la derecha"},
    "spots": {"en": "meeple spots: {what}", "es": "sitios para meeple: {what}"},
    "no_spots": {"en": "no meeple spot", "es": "sin sitio para meeple"},
    "no_meeple": {"en": "No meeple", "es": "Sin meeple"},
    "lay": {"en": "Lay the tile", "es": "Poner la loseta"},
    "meeple_btn": {"en": "{n} · Meeple: {what}", "es": "{n} · Meeple: {what}"},
    "farmer_btn": {"en": "{n} · Farmer: {what}", "es": "{n} · Granjero: {what}"},
    "archaeologist_btn": {"en": "{n} · Archaeologist: {what}", "es": "{n} · Arqueólogo: {what}"},
    "dig": {"en": "Dig with the archaeologist", "es": "Excavar con el arqueólogo"},
    "play_tile": {"en": "Play {tile}", "es": "Jugar {tile}"},
    "d_place": {"en": "{who}: tile at ({x}, {y}), {rot}, {meeple}", "es": "{who}: loseta en ({x}, {y}), {rot}, {meeple}"},
    "s_place": {"en": "{who} laid {tile}", "es": "{who} puso {tile}"},
    "s_tile": {"en": "a tile", "es": "una loseta"},
    "s_meeple": {"en": ", with a meeple on the {what}", "es": ", con un meeple en {what}"},
    "s_farmer": {"en": ", with a farmer on the {what}", "es": ", con un granjero en {what}"},
    "s_points": {"en": " · {who} +{n} ({what})", "es": " · {who} +{n} ({what})"},
    "s_none": {"en": " · no points", "es": " · sin puntos"},
    "d_rot0": {"en": "not turned", "es": "sin girar"},
    "d_rot": {"en": "turned {deg}°", "es": "girada {deg}°"},
    "d_none": {"en": "no meeple", "es": "sin meeple"},
    "d_meeple": {"en": "meeple on {kind} {fid}", "es": "meeple en {kind} {fid}"},
    "d_dig": {"en": "{who} digs with the archaeologist", "es": "{who} excava con el arqueólogo"},
    "d_choose": {"en": "{who} plays {tile}", "es": "{who} juega {tile}"},
    "status": {"en": "Tiles left {n} · {scores} · {ed}", "es": "Quedan {n} losetas · {scores} · {ed}"},
    "ed": {"en": "{n}{sfx} edition rules", "es": "reglas de la {n}.ª edición"},
}

KIND_WORDS = {  # the kinds the engine's "scored" events name
    "city": {"en": "city", "es": "ciudad"},
    "road": {"en": "road", "es": "camino"},
    "farm": {"en": "field", "es": "campo"},
    "monastery": {"en": "monastery", "es": "monasterio"},
    "ruins": {"en": "ruins", "es": "ruinas"},
}

PICK_RE = re.compile(r"^(?:at\.(-?\d{1,6})\.(-?\d{1,6})|rt\.(-?\d{1,6})\.(-?\d{1,6})\.([0-3]))$")
PAGES = "pg"  # the paging node of the places (bot/games/paging.py): "pg~N"
PAGE = paging.size()  # places a page (room left for "previous" and "more" in one select)

# Engine refusal texts (codes from engines/carcassonne): the engine's own en/es texts, with the
# Spanish "feature_occupied" reworded so it does not show the English kind name it is given.
RULE_TEXTS = {code: dict(entry) for code, entry in engine_texts.ERRORS.items()}
RULE_TEXTS["feature_occupied"] = {
    "en": "That {kind} already has a meeple on it (through its connections).",
    "es": "Esa zona ya tiene un meeple (a través de sus conexiones).",
}
RULE_TEXTS["edges_mismatch"] = {
    "en": "Tile {tile} does not match its neighbours at ({x}, {y}) turned that way.",
    "es": "La loseta {tile} no encaja con sus vecinas en ({x}, {y}) girada así.",
}


def tr(key: str, lang: str, **kw: Any) -> str:
    entry = T[key]
    return (entry.get(lang) or entry["en"]).format(**kw)


def _ev(event: Any, key: str) -> Any:
    """A field of an engine event, whether an Event object or its JSON dict."""
    if event is None:
        return None
    if isinstance(event, dict):
        return event.get(key)
    return getattr(event, key, None)


def _edition(n: int, lang: str) -> str:
    return tr("ed", lang, n=n, sfx={1: "st", 2: "nd", 3: "rd"}.get(n, "th"))


# The illustrated guide of /partida rules (render/carcassonne_guide.py draws it with these words).
GUIDE: dict[str, dict[str, str]] = {
    "en": {
        "cc1_title": "Carcassonne · your turn",
        "cc1_tile": "1. You draw a tile",
        "cc1_place": "2. Lay it next to the table: every touching edge must match (city, road, field). Letters mark where it fits",
        "cc1_meeple": "3. You may put a meeple on one part of it nobody holds yet (numbers)",
        "cc2_title": "Carcassonne · scoring",
        "cc2_road": "Finished road: 1 point a tile",
        "cc2_city": "Finished city: 2 a tile and 2 a shield",
        "cc2_mon": "Monastery with all 8 neighbours: 9",
        "cc2_editions": "Rules edition {eds}: {n}",
        "cc2_end": "At the end, open roads, cities and monasteries score 1 a tile (a shield 1) and farmers score their fields. The meeple goes back when its part is finished.",
    },
    "es": {
        "cc1_title": "Carcassonne · tu turno",
        "cc1_tile": "1. Robas una loseta",
        "cc1_place": "2. Ponla junto al tablero: cada borde que toca debe coincidir (ciudad, camino, campo). Las letras marcan dónde cabe",
        "cc1_meeple": "3. Puedes poner un meeple en una parte suya que nadie ocupe (números)",
        "cc2_title": "Carcassonne · puntuación",
        "cc2_road": "Camino terminado: 1 punto por loseta",
        "cc2_city": "Ciudad terminada: 2 por loseta y 2 por escudo",
        "cc2_mon": "Monasterio con sus 8 vecinas: 9",
        "cc2_editions": "Reglas de la edición {eds}: {n}",
        "cc2_end": "Al final, caminos, ciudades y monasterios abiertos dan 1 por loseta (y 1 por escudo) y los granjeros puntúan sus campos. El meeple vuelve cuando su parte se termina.",
    },
}


class CarcassonneUI(GameUI):
    key = "carcassonne"
    rules = {
        "en": (
            "**Carcassonne** (2-6 players, 7 meeples each). Lay your tile so every touching edge matches "
            "(city, road, field), then you may put a meeple on one of its features nobody holds yet. Finished: "
            "road 1 a tile, city 2 a tile and pennant, monastery 9; the meeples come back. At the end open "
            "features score 1 a tile/pennant and farmers score fields. **Editions** (`rules`): 3 (default) "
            "3 per finished city each field touches; 2: each city once per player, 2-tile cities 2 points; "
            "1: 4 per city to the most farmers around it. `sets=N` marathon, `medina=true` Medina Azahara. "
            "`/partida status` shows this match's edition."
        ),
        "es": (
            "**Carcassonne** (2-6 jugadores, 7 meeples cada uno). Pon tu loseta con todos los bordes que se tocan "
            "iguales (ciudad, camino, campo) y, si quieres, un meeple en un elemento suyo que nadie ocupe. "
            "Terminados: camino 1 por loseta, ciudad 2 por loseta y escudo, monasterio 9; los meeples vuelven. "
            "Al final lo abierto da 1 por loseta/escudo y los granjeros puntúan campos. **Ediciones** (`rules`): "
            "3 (por defecto) 3 por ciudad terminada que toca cada campo; 2: cada ciudad una vez por jugador, "
            "ciudades de 2 losetas 2 puntos; 1: 4 por ciudad a quien más granjeros tenga alrededor. `sets=N` "
            "maratón, `medina=true` Medina Azahara. `/partida estado` muestra la edición de esta partida."
        ),
    }
    guide = GUIDE

    def guide_images(self, lang):
        from render.carcassonne_guide import guide_images

        return self._guide(guide_images, lang)

    refusals = RULE_TEXTS  # the engine's refusal texts, two reworded above

    # -- pictures ------------------------------------------------------------------------------------

    def board_png(self, view, names, lang):
        from render.carcassonne import board_png

        return board_png(view, names, lang)

    def mark_since(self, view, actions):
        placed = [[a["x"], a["y"]] for _seat, a in actions if a.get("type") == "place"]
        return {**view, "since": placed} if placed else view

    def turn_png(self, view, names, lang, page=0):
        """The turn DM's one picture: the table around the places of menu page ``page`` (the first
        one in the DM), lettered as in the menu, the drawn tile and the tiles laid since the
        viewer's last turn; not their turn: the table."""
        from render.carcassonne import turn_png

        return turn_png(view, names, lang, page=page, per_page=PAGE)

    def hand_png(self, view, lang):
        from render.carcassonne import board_png, hand_png

        names = view.get("names")  # the shared layer adds the players' names to the view it passes
        viewer = view.get("viewer")
        if viewer is not None and viewer in (view.get("to_move") or []) and (view.get("legal") or view.get("hand")):
            return hand_png(view, names, lang)
        return board_png(view, names, lang)

    # -- tokens --------------------------------------------------------------------------------------

    def token(self, action: dict[str, Any]) -> str:
        return CA.to_token(action)

    def action(self, token: str) -> dict[str, Any]:
        return CA.from_token(token)

    # -- controls ------------------------------------------------------------------------------------

    @staticmethod
    def _group(legal: list[dict[str, Any]]) -> dict[tuple[int, int], dict[int, list[str | None]]]:
        """(x, y) -> rot -> meeple options (None first), from the legal actions."""
        out: dict[tuple[int, int], dict[int, list[str | None]]] = {}
        for a in legal:
            if a.get("type") != "place":
                continue
            rots = out.setdefault((a["x"], a["y"]), {})
            opts = rots.setdefault(a["rot"], [])
            m = a.get("meeple")
            if m is None:
                opts.insert(0, None)
            else:
                opts.append(m)
        return out

    @staticmethod
    def _order(view: dict[str, Any], cells: list[tuple[int, int]]) -> list[tuple[int, int]]:
        last = view.get("last")
        fx, fy = (last["x"], last["y"]) if last else (0, 0)
        return sorted(cells, key=lambda c: (abs(c[0] - fx) + abs(c[1] - fy), c[1], c[0]))

    def controls(self, view, legal, lang, picked=None, auto_end=True):
        buttons: list[Choice] = []
        if view.get("phase") == "choose" or any(a.get("type") == "choose" for a in legal):
            tiles = [a["tile"] for a in legal if a.get("type") == "choose"]
            words = [self._tile(view, t, lang) for t in tiles]
            for t, w in zip(tiles, words, strict=True):
                buttons.append(Choice(tr("play_tile", lang, tile=w)[:80], self.token({"type": "choose", "tile": t}), "primary"))
            a, b = (words + ["?", "?"])[:2]
            return Controls(tr("choose_step", lang, a=a, b=b), buttons=buttons)
        can_dig = any(a.get("type") == "medina_use" for a in legal)
        dig = [Choice(tr("dig", lang), "M", "success")] if can_dig else []
        note = tr("dig_note", lang) if can_dig else ""
        groups = self._group(legal)
        order = self._order(view, list(groups))
        tile = view.get("tile") or "?"
        tname = self._tile(view, tile, lang)  # in words, never its internal letter
        m = PICK_RE.match(picked) if isinstance(picked, str) else None
        cell: tuple[int, int] | None = None
        rot: int | None = None
        page = 0
        paged = paging.parse(picked)
        if paged and paged[0] == PAGES:
            page = paged[1]
        elif m and m[1] is not None:
            cell = (int(m[1]), int(m[2]))
        elif m and m[3] is not None:
            cell, rot = (int(m[3]), int(m[4])), int(m[5])
        if cell is not None and cell not in groups:
            cell, rot = None, None  # not a legal place (an old message): start again
        if cell is not None and rot is not None and rot not in groups[cell]:
            rot = None
        if cell is not None and rot is None:
            # straight to the meeple step with the first way to turn it: the preview shows the
            # other ways too, and the select changes it (one tap less per turn than a rotation step)
            rot = sorted(groups[cell])[0]
        if cell is None:
            pages = self._pages(view)
            page = min(page, len(pages) - 1)
            text = tr("place", lang, tile=tname, n=len(order)) if len(order) != 1 else tr("place1", lang, tile=tname)
            if len(pages) > 1:
                text += tr("page", lang, p=page + 1, n=len(pages))
            picture = None
            if picked is not None:  # another page, or back to the first step: its own picture
                picture = self.turn_png(view, view.get("names"), lang, page=page)
            labels = self._labels(view)
            head = tr("pick_pos", lang)
            if len(pages) > 1:  # "Where to lay the tile: X … AT": the letters on this page's picture
                shown = sorted((labels[c] for c in pages[page]), key=lambda a: (len(a), a))
                head = tr("pick_pos_range", lang, a=shown[0], b=shown[-1])
            return Controls(text + note, head, self._position_choices(groups, pages, page, lang, labels), dig, picture)
        x, y = cell
        place = self._labels(view).get(cell, "?")
        rots = sorted(groups[cell])
        from render.carcassonne import preview_png, spot_label

        options = groups[cell][rot]
        spots = [f for f in options if f is not None]
        for i, fid in enumerate(spots):
            what = spot_label(view, tile, rot, fid, lang)
            kind = CA.feature_kind(fid, tile)
            key = "farmer_btn" if kind == "farm" else "archaeologist_btn" if kind == "ruins" else "meeple_btn"
            buttons.append(Choice(tr(key, lang, n=i + 1, what=what)[:80], self.token(
                {"type": "place", "x": x, "y": y, "rot": rot, "meeple": fid}), "secondary"))
        if None in options:
            label = tr("no_meeple", lang) if spots else tr("lay", lang)
            buttons.insert(0, Choice(label, self.token({"type": "place", "x": x, "y": y, "rot": rot, "meeple": None}), "primary"))
        text = tr("meeple_step" if spots else "no_meeples", lang, tile=tname, label=place, deg=90 * rot)
        if len(rots) > 1:
            select = self._rotation_choices(view, groups, order, cell, lang)
            placeholder = tr("pick_rot", lang)
        else:
            pages = self._pages(view)
            select = self._position_choices(groups, pages, self._page_of(pages, cell), lang, self._labels(view))
            placeholder = tr("pick_pos", lang)
        picture = preview_png(view, None, lang, x, y, rot, spots=spots, rots=rots)
        return Controls(text + note, placeholder, select, (dig + buttons)[:20], picture)

    @staticmethod
    def _tile(view: dict[str, Any] | None, tile: str | None, lang: str) -> str:
        """A tile in words ("a city corner with a curved road"), from its geometry."""
        from engines.carcassonne.tiles import GEOMETRY
        from render.carcassonne import tile_words

        if not tile:
            return "?"
        return tile_words(view if view and view.get("geometry") else {"geometry": GEOMETRY}, tile, lang)

    @staticmethod
    def _labels(view: dict[str, Any]) -> dict[tuple[int, int], str]:
        """The letters of the places on the mover's picture (render.carcassonne.place_labels, in
        the order of the pages when there are more than one)."""
        from render.carcassonne import place_labels

        return place_labels(view, PAGE)

    @staticmethod
    def _pages(view: dict[str, Any]) -> list[list[tuple[int, int]]]:
        """The places by menu page, as the pictures of the pages show them (at least one page)."""
        from render.carcassonne import place_pages

        return place_pages(view, PAGE) or [[]]

    @staticmethod
    def _page_of(pages: list[list[tuple[int, int]]], cell: tuple[int, int]) -> int:
        return next((i for i, p in enumerate(pages) if cell in p), 0)

    def _position_choices(self, groups, pages, page, lang, labels) -> list[Choice]:
        """The places of menu page ``page`` in the order of their letters, with "previous" and
        "more" (bot/games/paging.py values) around them when there are several pages."""
        page = min(max(page, 0), len(pages) - 1)
        cells = sorted((c for c in pages[page] if c in groups), key=lambda c: (len(labels.get(c, "")), labels.get(c, "")))
        out = []
        for x, y in cells:
            k = len(groups[(x, y)])
            out.append(Choice(
                tr("pos_label", lang, label=labels.get((x, y), "?")), f"at.{x}.{y}",
                description=tr("fits1", lang, x=x, y=y) if k == 1 else tr("fits", lang, n=k, x=x, y=y),
            ))
        if len(pages) > 1:
            total = sum(len(p) for p in pages)
            start = sum(len(p) for p in pages[:page])
            if page > 0:
                a = start - len(pages[page - 1]) + 1
                out.insert(0, Choice(paging.text("prev", lang, a=a, b=start, n=total), paging.value(PAGES, page - 1)))
            if page < len(pages) - 1:
                end = start + len(pages[page])
                out.append(Choice(paging.text("more", lang, a=end + 1, b=end + len(pages[page + 1]), n=total), paging.value(PAGES, page + 1)))
        return out

    def _rotation_choices(self, view, groups, order, cell, lang) -> list[Choice]:
        from render.carcassonne import KIND_NAMES

        x, y = cell
        tile = view.get("tile") or "B"
        geo = (view.get("geometry") or {}).get(tile, {"features": []})
        kinds = {f["id"]: f["kind"] for f in geo["features"]}
        out = []
        for r in sorted(groups[cell]):
            spots = [f for f in groups[cell][r] if f is not None]
            names = list(dict.fromkeys(KIND_NAMES.get(kinds.get(f, ""), {}).get(lang, f) for f in spots))
            desc = tr("spots", lang, what=", ".join(names)) if names else tr("no_spots", lang)
            label = tr("rot0", lang) if r == 0 else tr("rot", lang, deg=90 * r)
            out.append(Choice(label, f"rt.{x}.{y}.{r}", description=desc[:100]))
        out.append(Choice(tr("back", lang), paging.value(PAGES, self._page_of(self._pages(view), cell))))
        return out

    # -- words ---------------------------------------------------------------------------------------

    def describe(self, action, name, lang, names=None, events=None):
        """A move in words for the story. With the move's engine ``events`` (the tile laid, the
        points scored) it names the tile in words and the points: "Ana laid a city corner with a
        curved road, with a meeple on the road (south) · Ana +4 (road)"."""
        kind = action.get("type")
        if kind in ("medina_use", "choose"):
            return tr(CA.BY_TYPE[kind].story, lang, who=name, tile=self._tile(None, action.get("tile"), lang))
        return self._story(action, name, lang, names or [], events or [])

    def _story(self, action, name, lang, names, events) -> str:
        from engines.carcassonne.tiles import GEOMETRY
        from render.carcassonne import spot_label, tile_words

        geo = {"geometry": GEOMETRY}
        placed = next((e for e in events if _ev(e, "kind") == "placed"), None)
        tile = (_ev(placed, "data") or {}).get("tile") if placed else None
        out = tr("s_place", lang, who=name, tile=tile_words(geo, tile, lang) if tile else tr("s_tile", lang))
        fid = action.get("meeple")
        if fid:
            if tile:
                what = spot_label(geo, tile, int(action.get("rot", 0)), fid, lang)
            else:
                what = KIND_WORDS.get(CA.feature_kind(fid), {}).get(lang, fid)
            out += tr("s_farmer" if CA.is_farmer(fid, tile) else "s_meeple", lang, what=what)
        if events:
            scored = [_ev(e, "data") or {} for e in events if _ev(e, "kind") == "scored"]
            if not scored:
                out += tr("s_none", lang)
            for sc in scored:
                who = " & ".join(names[s] if 0 <= s < len(names) else "?" for s in sc.get("seats") or [])
                what = KIND_WORDS.get(sc.get("feature"), {}).get(lang, str(sc.get("feature")))
                out += tr("s_points", lang, who=who or "?", n=sc.get("points", 0), what=what)
        return out

    def label(self, action, lang):
        """A short, distinct name for a legal move (typed moves): where, how turned, which spot."""
        kind = action.get("type")
        if kind in ("medina_use", "choose"):
            return tr(CA.BY_TYPE[kind].label, lang, tile=self._tile(None, action.get("tile"), lang))
        rot = int(action.get("rot", 0))
        rtxt = tr("d_rot0", lang) if rot == 0 else tr("d_rot", lang, deg=90 * rot)
        fid = action.get("meeple")
        if fid:
            what = KIND_WORDS.get(CA.feature_kind(fid), {}).get(lang, fid)
            mtxt = tr("d_meeple", lang, kind=what, fid=fid)
        else:
            mtxt = tr("d_none", lang)
        return tr(CA.BY_TYPE["place"].label, lang, who="", x=action.get("x"), y=action.get("y"), rot=rtxt, meeple=mtxt).lstrip(": ")

    def status(self, view, names, lang):
        pairs = list(zip(names, view["scores"], strict=False))
        if view.get("phase") == "over":  # the final scores best first
            pairs.sort(key=lambda p: -p[1])
        scores = " · ".join(f"{n} {s}" for n, s in pairs)
        return tr("status", lang, n=view.get("tiles_left", 0), scores=scores, ed=_edition(view.get("rules", 3), lang))


MANIFEST = Manifest("carcassonne", CarcassonneUI())
