"""Carcassonne on Discord: pick a place for the drawn tile, then how to turn it, then a meeple spot.

Private turn steps (``controls``), each a select whose values encode the path so far:

1. ``None`` / ``pg~N`` - the places where the tile fits, nearest to the last tile first; more than
   25 go on pages of ``PAGE`` (render.carcassonne.place_pages: the first page the places nearest
   the player's meeples and the last tile, the others compact patches of the table), and each
   page comes with its own picture of those places (``turn_png(page=N)``), the letters on the
   picture and in the menu the same (``place_labels(view, PAGE)``). A place where nothing is left
   to choose (one way to turn the tile, no meeple to put) has the move itself as its value: the
   pick lays the tile (``pick_action``; Undo is the safety net).
2. ``at.X.Y`` / ``rt.X.Y.R`` - a preview of the tile laid there (first legal rotation, or R) with
   its meeple spots numbered and the other legal rotations in small, one button per legal spot
   plus "no meeple" (each carries the whole place action), one button per other rotation laying
   it without a meeple, and a select to turn the tile (to see it large, with its spots).

Action tokens (``token``/``action``): ``P.X.Y.R`` (no meeple), ``P.X.Y.R.F`` (meeple on feature F),
``M`` (dig with the Medina archaeologist), ``C.T`` (keep tile T after a dig).
"""

from __future__ import annotations

import re
from typing import Any

from catalogs import lookup, table
from engines.carcassonne import actions as CA

from . import paging
from .base import Choice, Controls, GameUI, Manifest

DOMAIN = "carcassonne"

# The game's texts: catalogs/<lang>/carcassonne.po (English, Spanish, Portuguese), as
# {key: {lang: text}}; a text that counts is a plural entry, worded by ``tr`` with its count.
_TEXTS = table(DOMAIN)
T = {key: entry for key, entry in _TEXTS.items() if "." not in key and key != "rules"}

# a place picked in the select that lays the tile at once (one way to turn it, no meeple to put)
LAY_RE = re.compile(r"^P\.-?\d{1,6}\.-?\d{1,6}\.[0-3]$")
PICK_RE = re.compile(r"^(?:at\.(-?\d{1,6})\.(-?\d{1,6})|rt\.(-?\d{1,6})\.(-?\d{1,6})\.([0-3]))$")
PAGES = "pg"  # the paging node of the places (bot/games/paging.py): "pg~N"
PAGE = paging.size()  # places a page (room left for "previous" and "more" in one select)

# The engine's refusals (EngineError.code -> its words), formatted with the refusal's params in words.
RULE_TEXTS = {key[len("rule."):]: entry for key, entry in _TEXTS.items() if key.startswith("rule.")}
_TILE_IN_WORDS = {"edges_mismatch", "no_such_feature", "not_in_hand"}  # the refusals naming a tile of the match


def tr(key: str, lang: str, **kw: Any) -> str:
    """A text of the game in ``lang`` (English when the language has none), its plural form chosen
    by its count (CLDR rules), formatted with ``kw``."""
    text = lookup(lang, key, kw, domain=DOMAIN) or lookup("en", key, kw, domain=DOMAIN) or key
    return text.format(**kw)


def kind_word(kind: str | None, lang: str) -> str:
    """A tile part's kind in words ("city", "ciudad", "cidade")."""
    return tr(f"kind.{kind}", lang) if f"kind.{kind}" in _TEXTS else str(kind)


def on_word(kind: str | None, lang: str, fallback: str = "") -> str:
    """"on the city", "en la ciudad", "na cidade": where a meeple stands, with its article."""
    return tr(f"on.{kind}", lang) if f"on.{kind}" in _TEXTS else fallback


def _ev(event: Any, key: str) -> Any:
    """A field of an engine event, whether an Event object or its JSON dict."""
    if event is None:
        return None
    if isinstance(event, dict):
        return event.get(key)
    return getattr(event, key, None)


def _edition(n: int, lang: str) -> str:
    return tr(f"ed.{n}", lang) if f"ed.{n}" in _TEXTS else str(n)


# The illustrated guide of /partida rules (render/carcassonne_guide.py draws it with these words).
GUIDE: dict[str, dict[str, str]] = {
    lang: {key[len("guide."):]: entry[lang] for key, entry in _TEXTS.items() if key.startswith("guide.") and lang in entry}
    for lang in _TEXTS["rules"]
}


class CarcassonneUI(GameUI):
    key = "carcassonne"
    rules = dict(_TEXTS["rules"])  # {lang: the rules summary}, from the catalogues
    guide = GUIDE

    def guide_images(self, lang):
        from render.carcassonne_guide import guide_images

        return self._guide(guide_images, lang)

    refusals = RULE_TEXTS  # the engine's refusal texts, from the catalogues

    def refusal_params(self, params: dict[str, Any], lang: str, code: str = "") -> dict[str, Any]:
        """A refusal's tile and kind in words, never the engine's letter codes (a set-up's tile
        letters stay: they name what the set-up listed)."""
        shown = dict(params)
        if isinstance(shown.get("tile"), str) and shown["tile"] and code in _TILE_IN_WORDS:
            shown["tile"] = self._tile(None, shown["tile"], lang)
        if isinstance(shown.get("kind"), str):
            shown["kind"] = kind_word(shown["kind"], lang)
        return shown

    def rule_text(self, code: str, params: dict[str, Any], lang: str) -> str | None:
        """An engine refusal in the reader's language, in the plural form its count asks for."""
        if code not in self.refusals:
            return None
        shown = self.refusal_params(params, lang, code)
        text = lookup(lang, f"rule.{code}", shown, domain=DOMAIN) or lookup("en", f"rule.{code}", shown, domain=DOMAIN) or code
        try:
            return text.format(**shown)
        except (KeyError, IndexError, ValueError):
            return text

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

    def pick_action(self, value):
        """A place picked in the select lays the tile at once when the pick leaves nothing to
        choose (one way to turn the tile there, no meeple to put): its value is then the action
        token; Undo is the safety net. Other picks only narrow the choice."""
        return CA.from_token(value) if isinstance(value, str) and LAY_RE.match(value) else None

    @staticmethod
    def _lays_at_once(options: dict[int, list[str | None]]) -> int | None:
        """The one rotation of a place where picking it leaves nothing to choose, else None."""
        if len(options) == 1:
            (rot, opts), = options.items()
            if opts == [None]:
                return rot
        return None

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
            text = tr("place", lang, tile=tname, n=len(order))
            if len(pages) > 1:  # the first page: where the player is playing (render.carcassonne.near_first)
                text += tr("page_near" if page == 0 else "page", lang, p=page + 1, n=len(pages))
            picture = None
            if picked is not None:  # another page, or back to the first step: its own picture
                picture = self.turn_png(view, view.get("names"), lang, page=page)
            labels = self._labels(view)
            head = tr("pick_pos", lang)
            if len(pages) > 1:  # "Where to lay the tile: X … AT": the letters on this page's picture
                shown = sorted((labels[c] for c in pages[page]), key=lambda a: (len(a), a))
                head = tr("pick_pos_range", lang, a=shown[0], b=shown[-1])
            # three pages or more: a second select goes to any other page at once (each an area
            # of the table, named by its letters and coordinates on the picture's edges)
            more = [(tr("pick_page", lang), self._page_choices(pages, page, labels, lang))] if len(pages) > 2 else []
            return Controls(text + note, head, self._position_choices(groups, pages, page, lang, labels), dig, picture,
                            more_selects=more)
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
        # the other ways to turn it (drawn small under the preview) laid without a meeple in one
        # tap each; to put a meeple on one of them, the select shows it large with its spots
        bare = not any(f is not None for opts in groups[cell].values() for f in opts)
        row = 4 if len(dig) + len(buttons) <= 15 else None  # a row of their own when there is room
        for r in rots:
            if r != rot and None in groups[cell][r]:
                buttons.append(Choice(tr("lay_rot" if bare else "lay_rot_bare", lang, deg=90 * r)[:80], self.token(
                    {"type": "place", "x": x, "y": y, "rot": r, "meeple": None}), "secondary", row=row))
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
            rot = self._lays_at_once(groups[(x, y)])
            if rot is not None:  # nothing left to choose there: the pick lays the tile (pick_action)
                value = self.token({"type": "place", "x": x, "y": y, "rot": rot, "meeple": None})
                desc = tr("lays_now", lang, x=x, y=y)
            else:
                value, desc = f"at.{x}.{y}", tr("fits", lang, n=k, x=x, y=y)
            out.append(Choice(tr("pos_label", lang, label=labels.get((x, y), "?")), value, description=desc))
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

    @staticmethod
    def _page_choices(pages, page, labels, lang) -> list[Choice]:
        """One option per other page of places: its letters, and where its places are (the first
        page: nearest the player's meeples and the last tile; the others: their span of x and y)."""
        out = []
        for i, cells in enumerate(pages):
            if i == page or not cells:
                continue
            shown = sorted((labels.get(c, "?") for c in cells), key=lambda a: (len(a), a))
            if i == 0:
                desc = tr("page_near_desc", lang)
            else:
                xs, ys = [c[0] for c in cells], [c[1] for c in cells]
                desc = tr("page_area", lang, x0=min(xs), x1=max(xs), y0=min(ys), y1=max(ys))
            out.append(Choice(tr("page_opt", lang, p=i + 1, a=shown[0], b=shown[-1]), paging.value(PAGES, i),
                              description=desc[:100]))
        return out[:25]

    def _rotation_choices(self, view, groups, order, cell, lang) -> list[Choice]:
        x, y = cell
        tile = view.get("tile") or "B"
        geo = (view.get("geometry") or {}).get(tile, {"features": []})
        kinds = {f["id"]: f["kind"] for f in geo["features"]}
        out = []
        for r in sorted(groups[cell]):
            spots = [f for f in groups[cell][r] if f is not None]
            names = list(dict.fromkeys(kind_word(kinds.get(f), lang) if kinds.get(f) else f for f in spots))
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
        from render.carcassonne import spot_where, tile_words

        geo = {"geometry": GEOMETRY}
        placed = next((e for e in events if _ev(e, "kind") == "placed"), None)
        tile = (_ev(placed, "data") or {}).get("tile") if placed else None
        out = tr("s_place", lang, who=name, tile=tile_words(geo, tile, lang) if tile else tr("s_tile", lang))
        fid = action.get("meeple")
        if fid:
            if tile:
                where = spot_where(geo, tile, int(action.get("rot", 0)), fid, lang)
            else:
                where = on_word(CA.feature_kind(fid), lang, fid)
            out += tr("s_farmer" if CA.is_farmer(fid, tile) else "s_meeple", lang, where=where)
        if events:
            scored = [_ev(e, "data") or {} for e in events if _ev(e, "kind") == "scored"]
            if not scored:
                out += tr("s_none", lang)
            for sc in scored:
                who = " & ".join(names[s] if 0 <= s < len(names) else "?" for s in sc.get("seats") or [])
                what = kind_word(sc.get("feature"), lang)
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
            mtxt = tr("d_meeple", lang, where=on_word(CA.feature_kind(fid), lang, fid), fid=fid)
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
