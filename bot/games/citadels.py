"""Citadels on Discord: the character draft by DM, then each called character's turn.

Everything a player may do comes from the engine's legal actions. Simple choices are buttons
(income, character targets, seats, end of turn, and the districts to build when they fit among
the 20 buttons); other choices among district cards go through the select, grouped ("Build…",
"Warlord: destroy…") and paged (bot/games/paging.py) beyond Discord's 25 options. A select value
is either an action token, which acts at once when picked (``pick_action``; Undo is the safety
net), or a node of that menu ("@build", "@destroy/s2", "@lighthouse/yellow~1"). Ending the turn,
when it is the only legal move, is carried in ``Controls.auto`` (the person's auto-end setting).

Tokens (``token()`` / ``action()``, at most 80 characters of ``[A-Za-z0-9_.-]``): an operation
code and its arguments joined by "-"; a district id "manor#2" travels as "manor.2".
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from catalogs import lookup, table, text
from engines.citadels import actions as A
from engines.citadels import cards as C

from . import paging
from .base import Choice, Controls, GameUI, Manifest, PrefsError

# -- texts ---------------------------------------------------------------------------------------

DOMAIN = "citadels"

# The game's texts: catalogs/<lang>/citadels.po (English, Spanish, Portuguese), as {key: {lang:
# text}} (a plural entry: its general form). Keys: the controls' and the story's words by name;
# "character.<id>", "character_obj.<id>" (a character as the object of a verb: "the King", "al Rey",
# "o Rei"), "district.<kind>", "district_the.<kind>" (with its article: "la Universidad"),
# "colour.<c>", "colour_word.<c>", "colour_adj.<c>", "power.<id>", "purple.<kind>", "guide.<key>",
# "rules", "event.<kind>" / "hidden.<kind>" (the engine's events), "rule.<code>" (its refusals),
# "pic.<key>" (render/citadels.py). A text that counts is a plural entry (CLDR rules).
T: dict[str, dict[str, str]] = table(DOMAIN)

# the coloured square that starts a district's colour word, so it reads at a glance
SQUARE = {"yellow": "🟨", "blue": "🟦", "green": "🟩", "red": "🟥", "purple": "🟪"}
COLOURS = ("yellow", "blue", "green", "red", "purple")


def tr(key: str, lang: str, **kw: Any) -> str:
    """The text ``key`` in ``lang`` (English where missing), its plural form by its count."""
    return text(DOMAIN, key, lang, **kw)


def ch_name(ch: str, lang: str) -> str:
    return tr("character." + ch, lang)


def ch_obj(ch: str, lang: str) -> str:
    """A character as the object of a verb, with its article ("the Witch", "a la Bruja")."""
    return tr("character_obj." + ch, lang)


def _kind(did: str) -> str:
    return did.split("#", 1)[0]


def d_name(did: str, lang: str) -> str:
    return tr("district." + _kind(did), lang)


def d_the(did: str, lang: str) -> str:
    """A district with its article ("the Castle", "la Universidad", "o Castelo")."""
    return tr("district_the." + _kind(did), lang)


def power(ch: str, lang: str) -> str:
    return tr("power." + ch, lang)


def colour_word(colour: str, lang: str) -> str:
    return tr("colour_word." + colour, lang)


# what a special (purple) district does, in a few words, by kind: {kind: {lang: text}}
PURPLE: dict[str, dict[str, str]] = {key[len("purple."):]: entry for key, entry in T.items() if key.startswith("purple.")}


def seat_name(view: dict[str, Any], seat: int, lang: str) -> str:
    names = view.get("names") or []
    if 0 <= seat < len(names) and names[seat]:
        return str(names[seat])
    return tr("seat", lang, n=seat + 1)


# -- the engine's events in words ----------------------------------------------------------------

_SEATS = ("from", "to", "with", "owner", "neighbour", "target", "crown")
_DISTRICTS = ("district", "card", "give", "take")


class _Safe(dict):
    def __missing__(self, key: str) -> str:
        return "?"


def _event_field(key: str, value: Any, lang: str, players: list[str]) -> str:
    if key in _SEATS and isinstance(value, int):
        return players[value] if 0 <= value < len(players) else str(value)
    if key == "character":
        return ch_name(value, lang)
    if key in _DISTRICTS and isinstance(value, str) and "#" in value:
        return d_name(value, lang)
    if key == "cards" and isinstance(value, list):
        return ", ".join(d_name(c, lang) for c in value) or tr("word.nothing", lang)
    if key == "colour" and value in SQUARE:
        return tr("colour." + value, lang)
    if key in ("take", "pay") and value in ("gold", "cards", "card"):
        return tr("word." + value, lang)
    if key == "announce" and isinstance(value, bool):
        return tr("word.announce_yes" if value else "word.announce_no", lang)
    return str(value)


def event_text(event: Any, lang: str = "en", players: list[str] | None = None) -> str:
    """One line telling an engine event (an Event or its JSON) in ``lang``: seats become player
    names, characters and districts their names (with their article where the sentence needs
    one); an event whose data is private to some seats reads as its public form ("hidden.<kind>")."""
    ev = event.to_json() if hasattr(event, "to_json") else event
    players = players or []
    kind = ev["kind"]
    data = ev.get("data") or {}
    key = "hidden." + kind if not data and "hidden." + kind in T else "event." + kind
    if key not in T:
        return kind
    fields = _Safe({k: _event_field(k, v, lang, players) for k, v in data.items()})
    for k, v in data.items():  # the forms with an article, and the raw counts for the plural forms
        if k == "character" and isinstance(v, str):
            fields["character_obj"] = ch_obj(v, lang)
        elif k in _DISTRICTS and isinstance(v, str) and "#" in v:
            fields["the_" + k] = d_the(v, lang)
    seat = ev.get("seat")
    fields["p"] = _event_field("from", seat, lang, players) if seat is not None else ""
    counts = {k: v for k, v in data.items() if isinstance(v, int) and not isinstance(v, bool) and k not in _SEATS}
    raw = lookup(lang, key, counts, domain=DOMAIN) or lookup("en", key, counts, domain=DOMAIN) or kind
    return raw.format_map(fields)


# -- tokens: from the engine's one declaration per action ------------------------------------------

_enc = A._enc


def encode_token(a: dict[str, Any]) -> str:
    return A.to_token(a)


def decode_token(token: str) -> dict[str, Any]:
    return A.from_token(token)  # A.DeclError is a ValueError


# -- the menu of a turn --------------------------------------------------------------------------


@dataclass
class Entry:
    """One legal action as the controls show it. ``group`` None = a button."""

    token: str
    label: str  # button label, or the select option's label
    group: str | None = None
    sub: tuple[str, str] | None = None  # (key, label) for a second level inside the group
    description: str | None = None
    confirm: str | None = None  # the entry's label without its colour and cost (select entries)
    style: str = "secondary"
    special: bool = False  # a special (purple) district: its description says what it does


MAX_BUTTONS = 20


def _card_desc(card: dict[str, Any], lang: str) -> str:
    colour = colour_word(card["colour"], lang) if card["colour"] in SQUARE else card["colour"]
    if card["kind"] in PURPLE:
        colour = f"{SQUARE['purple']} {tr('purple.' + card['kind'], lang)}"
    return tr("d_card", lang, colour=colour, cost=card["cost"])


def _card_label(did: str, lang: str, cost: int | None = None) -> str:
    c = C.card_json(C.CARD_OF_ID[did])
    sq = SQUARE[c["colour"]]
    return f"{sq} {d_name(did, lang)} ({c['cost'] if cost is None else cost})"


def _owners(view: dict[str, Any]) -> dict[str, int]:
    return {d["id"]: p["seat"] for p in view.get("players", []) for d in p.get("city", [])}


# How each action shows among the mover's controls (its label's key comes from the engine's
# declaration, engines/citadels/actions.py): button colours, and the select groups of the actions
# that pick a card (a district name in a menu rather than a button each).
STYLE = {
    "draft": "primary", "discard_character": "danger", "income": "primary", "end_turn": "danger",
    "collect": "success", "thank": "success", "magician_draw": "success", "navigate": "success",
    "murder": "danger", "keep": "success", "graveyard": "success", "tribute": "primary",
}
GROUP = {
    "build": "build", "magician_discard": "mdiscard", "laboratory": "lab", "museum": "museum",
    "beautify": "beautify", "destroy": "destroy", "armory": "armory", "wizard_take": "wizard",
    "tribute": "tribute", "lighthouse": "lighthouse", "exchange": "exchange",
}


def _label_words(view: dict[str, Any], a: dict[str, Any], lang: str, owners: dict[str, int]) -> dict[str, Any]:
    """The words an action's label may use: the character, the other player, the district..."""
    words: dict[str, Any] = {}
    for arg in A.BY_TYPE[a["type"]].args:
        v = a.get(arg.name)
        if arg.kind == "character":
            words["ch"], words["ch_obj"] = ch_name(v, lang), ch_obj(v, lang)
        elif arg.kind == "seat":
            words["who"] = seat_name(view, v, lang)
        elif arg.kind == "card" or (arg.kind == "pay" and a.get("card")):
            did = a["card"] if arg.kind == "pay" else v
            key = "give" if arg.name == "give" else "d"
            words[key], words["the_" + key] = d_name(did, lang), d_the(did, lang)
            if arg.name != "give" and did in owners:
                words["who"] = seat_name(view, owners[did], lang)
    if a["type"] == "destroy":
        words["gold"] = _destroy_price(view, owners.get(a["district"], -1), a["district"])
    if a["type"] == "keep":
        words["d"] = _card_label(a["card"], lang)
    return words


def entries_for(view: dict[str, Any], legal: list[dict[str, Any]], lang: str) -> list[Entry]:
    """Every legal action as a button or a grouped select entry."""
    out: list[Entry] = []
    owners = _owners(view)
    turn = view.get("turn") or {}
    for a in legal:
        tok = encode_token(a)
        op = a["type"]
        if op in GROUP and not (op == "tribute" and a["pay"] == "gold"):
            out.append(_select_entry(view, a, tok, lang, owners))
            continue
        if op == "draft":  # the draft shows ranks: the characters are called in that order
            label = f"{C.RANK[a['character']]} · {ch_name(a['character'], lang)}"
        elif op == "collect":
            colour = C.INCOME_COLOUR.get(turn.get("character") or "")
            n = turn.get("collect_gold")  # counted by the engine
            label = tr("b_collect", lang, colour=tr("colour_adj." + colour, lang), n=n) if colour and n is not None else tr("b_collect_any", lang)
        else:
            label = tr(A.label_key(a), lang, **_label_words(view, a, lang, owners))
        style = STYLE.get(op, "secondary")
        if op == "graveyard" and not a["take"]:
            style = "secondary"
        out.append(Entry(tok, label, style=style))
    return out


def _select_entry(view, a, tok, lang, owners) -> Entry:
    op = a["type"]
    did = a["take"] if op == "exchange" else a.get("district") or a.get("card")
    card = C.card_json(C.CARD_OF_ID[did])
    desc = _card_desc(card, lang)
    group = GROUP[op]
    label = tr(A.label_key(a), lang, **_label_words(view, a, lang, owners))
    if op in ("destroy", "armory", "exchange"):
        who = seat_name(view, owners.get(did, -1), lang)
        if op == "exchange":
            sub = (_enc(did), tr("l_exchange_take", lang, d=d_name(did, lang), who=who))
            desc = f"{_card_label(a['give'], lang)} → {_card_label(did, lang)}"
        else:
            sub = (f"s{owners.get(did, -1)}", tr("city_of", lang, who=who))
        return Entry(tok, label, group, sub, desc, label)
    sub = (card["colour"], colour_word(card["colour"], lang)) if op == "lighthouse" else None
    sq = SQUARE[card["colour"]]
    return Entry(tok, f"{sq} {label} ({card['cost']})", group, sub, desc, label, "success", card["kind"] in PURPLE)


def _destroy_price(view: dict[str, Any], owner: int, did: str) -> int | str:
    """The Warlord's price as the engine states it in the view ("?" if the view lacks it)."""
    p = next((p for p in view.get("players", []) if p["seat"] == owner), None)
    d = next((d for d in p["city"] if d["id"] == did), None) if p else None
    price = d.get("destroy_price") if d else None
    return "?" if price is None else price


GROUP_KEYS = {
    "build": "g_build", "mdiscard": "g_mdiscard", "lab": "g_lab", "museum": "g_museum", "beautify": "g_beautify",
    "destroy": "g_destroy", "exchange": "g_exchange", "armory": "g_armory", "wizard": "g_wizard",
    "tribute": "g_tribute", "lighthouse": "g_lighthouse",
}


def _page(items: list[Choice], node: str, page: int, lang: str, back: str | None) -> list[Choice]:
    """At most 25 options: a back option and one page of items (bot/games/paging.py)."""
    out = paging.page(items, node, page, lang, _room(back))
    if back is not None:
        out.insert(0, Choice(tr("b_back", lang), back))
    return out


def menu(entries: list[Entry], picked: str | None, lang: str) -> tuple[list[Choice], Entry | None]:
    """The select options for the menu node ``picked`` leads to, and the picked entry if any."""
    grouped = [e for e in entries if e.group is not None]
    if not grouped:
        return [], None
    chosen = next((e for e in grouped if e.token == picked), None)
    node, page = "@", 0
    if chosen is not None:
        if _flat(grouped):
            node = "@"
        elif chosen.sub and _needs_subs(grouped, chosen.group):
            node = f"@{chosen.group}/{chosen.sub[0]}"
        else:
            node = f"@{chosen.group}"
    elif picked and picked.startswith("@"):
        node, page = paging.parse(picked) or (picked, 0)
        if node == "@" or not _items_at(grouped, node, lang):
            node = "@"
    groups = _groups(grouped)
    top = f"@{groups[0]}" if len(groups) == 1 and not _flat(grouped) else "@"  # one group: no level for it
    if node == "@":
        node = top
    items = _items_at(grouped, node, lang)
    back = None if node == top else (node.rpartition("/")[0] if "/" in node else "@")
    if chosen is not None and len(items) > _room(back):
        idx = next((i for i, c in enumerate(items) if c.token == chosen.token), 0)
        page = paging.holding(idx, len(items), _room(back))
    return _page(items, node, page, lang, back), chosen


def _room(back: str | None) -> int:
    return 25 - (1 if back is not None else 0)


def _groups(grouped: list[Entry]) -> list[str]:
    seen: list[str] = []
    for e in grouped:
        if e.group not in seen:
            seen.append(e.group)  # type: ignore[arg-type]
    return seen


def _flat(grouped: list[Entry]) -> bool:
    return len(grouped) <= 25


def _needs_subs(grouped: list[Entry], group: str) -> bool:
    members = [e for e in grouped if e.group == group]
    return len(members) > 24 and any(e.sub for e in members)


def _items_at(grouped: list[Entry], node: str, lang: str) -> list[Choice]:
    def opt(e: Entry) -> Choice:
        return Choice(e.label, e.token, description=e.description)

    if node == "@":
        if _flat(grouped):
            return [opt(e) for e in grouped]
        out = []
        for g in _groups(grouped):
            n = sum(1 for e in grouped if e.group == g)
            out.append(Choice(tr(GROUP_KEYS[g], lang), f"@{g}", description=tr("g_choices", lang, n=n)))
        return out
    group, _, sub = node[1:].partition("/")
    members = [e for e in grouped if e.group == group]
    if not members:
        return []
    if sub:
        return [opt(e) for e in members if e.sub and e.sub[0] == sub]
    if _needs_subs(members, group):
        subs: dict[str, tuple[str, int]] = {}
        for e in members:
            key, label = e.sub or ("", "?")
            lbl, n = subs.get(key, (label, 0))
            subs[key] = (lbl, n + 1)
        return [Choice(lbl, f"@{group}/{key}", description=tr("g_choices", lang, n=n)) for key, (lbl, n) in subs.items()]
    return [opt(e) for e in members]


# -- the UI --------------------------------------------------------------------------------------


# The illustrated guide of /partida rules (render/citadels_guide.py draws it with these words),
# from the catalogues' "guide.<key>" entries: {lang: {key: text}}.
GUIDE: dict[str, dict[str, str]] = {
    lang: {key[len("guide."):]: entry[lang] for key, entry in T.items() if key.startswith("guide.") and lang in entry}
    for lang in T["rules"]
}
# The engine's refusals, worded: {code: {lang: text}} from the catalogues' "rule.<code>" entries.
RULES: dict[str, dict[str, str]] = {key[len("rule."):]: entry for key, entry in T.items() if key.startswith("rule.")}


class CitadelsUI(GameUI):
    key = "citadels"
    rules = dict(T["rules"])  # {lang: the rules summary}, from the catalogues
    guide = GUIDE

    def guide_images(self, lang):
        from render.citadels_guide import guide_images

        return self._guide(guide_images, lang)

    refusals = RULES  # the engine's refusals in words (catalogs/<lang>/citadels.po, "rule.<code>")

    def refusal_params(self, params, lang):
        return {k: str(v) for k, v in params.items()}

    # -- pictures ----------------------------------------------------------------------------------

    def mark_since(self, view, actions):
        # which actions build, and what: the engine's action declarations say (A.built)
        built = [[seat, d] for seat, a in actions if (d := A.built(a)) is not None]
        return {**view, "since": built} if built else view

    def board_png(self, view, names, lang):
        from render.citadels import board_png

        return board_png(view, names, lang)

    def turn_png(self, view, names, lang):
        from render.citadels import turn_png

        return turn_png(view, names, lang) if view.get("hand") is not None else None

    def hand_png(self, view, lang):
        from render.citadels import hand_png

        return hand_png(view, lang) if view.get("hand") is not None else None

    # -- tokens ------------------------------------------------------------------------------------

    def token(self, action: dict[str, Any]) -> str:
        return encode_token(action)

    def action(self, token: str) -> dict[str, Any]:
        return decode_token(token)

    # -- standing orders: the draft priority list --------------------------------------------------

    def parse_prefs(self, text: str) -> list[str]:
        lookup: dict[str, str] = {}
        for cid, pair in _character_names().items():
            for n in pair:
                lookup[_norm(n)] = cid
            lookup[_norm(cid)] = cid
        out: list[str] = []
        for part in re.split(r"[,;\n]+", text or ""):
            key = _norm(part)
            if not key:
                continue
            cid = lookup.get(key)
            if cid is None:
                raise PrefsError("prefs_unknown", name=part.strip()[:40])
            if cid not in out:
                out.append(cid)
        if not out:
            raise PrefsError("prefs_empty")
        return out

    def secret_step(self, action):
        return A.is_secret(action)

    def auto_action(self, view, legal, prefs):
        if view.get("phase") != "draft":
            return None
        can = {a["character"]: a for a in legal if a["type"] == "draft"}
        for cid in prefs:
            if cid in can:
                return can[cid]
        return None

    # -- controls ----------------------------------------------------------------------------------

    def ends_turn(self, action):
        return A.ends_turn(action)

    def pick_action(self, value):
        """A district picked in the select acts at once (menu nodes start with "@")."""
        if not isinstance(value, str) or value.startswith("@"):
            return None
        try:
            return decode_token(value)
        except ValueError:
            return None

    def controls(self, view, legal, lang, picked=None, auto_end=True):
        entries = entries_for(view, legal, lang)
        builds = [e for e in entries if e.group == "build"]
        told: list[str] = []
        if builds and sum(1 for e in entries if e.group is None) + len(builds) <= MAX_BUTTONS:
            for e in builds:  # few districts to build: a button each, one tap (Undo if it slipped)
                e.group = None
                if e.special:  # what a special district does, which a button cannot describe
                    told.append(f"• {e.confirm}: {e.description}")
        buttons = [Choice(e.label[:80], e.token, e.style) for e in entries if e.group is None]
        if len(buttons) > MAX_BUTTONS:  # never seen in play; keep the limit whatever happens
            for e in entries[MAX_BUTTONS:]:
                if e.group is None:
                    e.group, e.confirm = "more", e.label
            buttons = buttons[:MAX_BUTTONS]
        # a district picked in the select acts at once (pick_action): no confirm step, Undo instead
        options, _chosen = menu(entries, picked, lang)
        # ending the turn as the only legal move: taken at once where the person's setting is on
        # (the button stays for a layer that does not take Controls.auto)
        text = "\n".join([self._text(view, lang), *told])
        return Controls(text, tr("placeholder", lang) if options else None, options, buttons,
                        auto=self.auto_end(legal, auto_end))

    def _text(self, view: dict[str, Any], lang: str) -> str:
        me = view.get("viewer")
        player = next((p for p in view.get("players", []) if p["seat"] == me), None)
        lines: list[str] = []
        rnd = view.get("round", 1)
        pending = view.get("pending")
        if view.get("phase") == "draft":
            draft = view.get("draft") or {}
            lines.append(tr("draft_discard" if draft.get("step") == "discard" else "draft_pick", lang, round=rnd))
            if view.get("face_up"):
                lines.append(tr("face_up", lang, list=", ".join(ch_name(c, lang) for c in view["face_up"])))
            if view.get("face_down_count"):
                lines.append(tr("face_down", lang, n=view["face_down_count"]))
            if view.get("my_characters"):
                lines.append(tr("you_have", lang, list=", ".join(ch_name(c, lang) for c in view["my_characters"])))
            if view.get("my_discards"):
                lines.append(tr("you_discarded", lang, list=", ".join(ch_name(c, lang) for c in view["my_discards"])))
            earlier = (view.get("draft_seen") or [])[:-1]
            if earlier:
                lines.append(tr("seen_before", lang, list=" / ".join(", ".join(ch_name(c, lang) for c in x) for x in earlier)))
            for c in draft.get("choices") or []:
                lines.append(f"**{C.RANK[c]} · {ch_name(c, lang)}** — {power(c, lang)}")
        elif pending is not None and pending.get("seat") == me:
            lines.extend(self._pending_text(view, pending, lang))
        elif view.get("turn"):
            tn = view["turn"]
            ch = ch_name(tn["character"], lang)
            key = {"victim": "turn_victim", "hospital": "turn_hospital", "witch": "turn_witch"}.get(tn.get("mode"), "turn_head")
            lines.append(tr(key, lang, round=rnd, ch=ch, rank=tn.get("rank")))
            if tn.get("mode") == "normal":
                lines.append(f"_{power(tn['character'], lang)}_")
                mine = set(view.get("my_characters") or []) | set(view.get("my_discards") or [])
                passed = [c for c in view.get("characters", []) if c not in mine
                          and any(c in x for x in view.get("draft_seen") or [])]
                if passed and tn.get("character") in A.targeting_characters():
                    lines.append(tr("passed_on", lang, list=", ".join(ch_name(c, lang) for c in passed)))
            if tn.get("must_thank"):
                lines.append(tr("must_thank", lang))
            any_order = tn.get("any_order", False)
            if not tn.get("income_taken"):
                lines.append(tr("income_due" if any_order else "income_first", lang))
            if tn.get("income_taken") or any_order:
                n = tn.get("builds_left", 0)
                lines.append(tr("builds_left", lang, n=n) if n > 0 else tr("no_build", lang))
            none = tr("none", lang)
            lines.append(tr(
                "targets", lang,
                m=ch_name(view["murdered"], lang) if view.get("murdered") else none,
                r=ch_name(view["robbed"], lang) if view.get("robbed") else none,
                b=ch_name(view["bewitched"], lang) if view.get("bewitched") else none,
            ))
        if player is not None:
            lines.append(tr("purse", lang, gold=tr("n_gold", lang, n=player["gold"]), cards=tr("n_cards", lang, n=player["hand_size"]),
                            city=len(player["city"]), end=view.get("districts_to_end", 8)))
        return "\n".join(lines)

    def _pending_text(self, view: dict[str, Any], p: dict[str, Any], lang: str) -> list[str]:
        k = p["kind"]
        if k == "keep":
            lines = [tr("keep_head", lang, k=p.get("keep", 1))]
            for c in p.get("cards") or []:
                lines.append(f"• {_card_label(c['id'], lang)} — {_card_desc(c, lang)}")
            return lines
        if k == "redraw":
            return [tr("redraw_head", lang, n=p.get("discarded", 0))]
        if k == "wizard":
            return [tr("wizard_head", lang, who=seat_name(view, p["target"], lang))]
        if k == "graveyard":
            return [tr("graveyard_head", lang, the_d=d_the(p["district"]["id"], lang))]
        if k == "tribute":
            giver = (view.get("turn") or {}).get("seat", 0)
            return [tr("tribute_head", lang, who=seat_name(view, giver, lang))]
        if k == "lighthouse":
            return [tr("lighthouse_head", lang)]
        if k == "bell":
            return [tr("bell_head", lang)]
        return [tr("waiting", lang)]

    # -- words -------------------------------------------------------------------------------------

    def describe(self, action, name, lang, names: list[str] | None = None, events=None):
        """The public story of an action: never names what is hidden (draft picks, kept cards...).
        ``names`` (optional, seat order) names the other player of swaps, looks, crowns..."""
        decl = A.BY_TYPE.get(action.get("type"))
        if decl is None:
            return f"{name}: {action.get('type')}"
        words: dict[str, str] = {"who": name}
        for arg in decl.args:  # each argument fills the story line's word for its kind
            v = action.get(arg.name)
            if arg.kind == "character":
                words["ch"], words["ch_obj"] = ch_name(v, lang), ch_obj(v, lang)
            elif arg.kind == "seat":
                words["other"] = seat_name({"names": names}, v, lang)
            elif arg.kind == "card":
                key = "give" if arg.name == "give" else "d"
                words[key], words["the_" + key] = d_name(v, lang), d_the(v, lang)
        return tr(A.story_key(action), lang, **words)

    def label(self, action: dict[str, Any], lang: str) -> str:
        """A private label of one of the mover's own legal actions (names hidden choices too),
        without a view: the actions whose label needs the table (whose city, what price) say
        their public story instead."""
        if action["type"] in ("collect", "destroy", "armory", "exchange"):
            return self.describe(action, "", lang).strip()
        words = _label_words({}, action, lang, {})
        if action["type"] == "keep":
            words["d"] = d_name(action["card"], lang)
        return tr(A.label_key(action), lang, **words)

    def status(self, view, names, lang):
        def nm(s: int | None) -> str:
            if s is None:
                return "-"
            return names[s] if 0 <= s < len(names) else tr("seat", lang, n=s + 1)

        rnd = view.get("round", 1)
        players = view.get("players") or []
        if view.get("phase") == "over":
            return tr("st_over", lang, round=rnd)
        if view.get("phase") == "draft":
            d = view.get("draft") or {}
            head = tr("st_draft", lang, round=rnd, who=nm(d.get("drafter")), i=d.get("step_index", 0) + 1, n=len(d.get("order") or []))
        else:
            tn = view.get("turn") or {}
            head = tr("st_turn", lang, round=rnd, rank=tn.get("rank", "?"), ch=ch_name(tn["character"], lang) if tn.get("character") else "?", who=nm(tn.get("seat")))
            p = view.get("pending")
            if p and p.get("seat") != tn.get("seat"):
                head += " · " + tr("st_pending", lang, who=nm(p["seat"]))
        lead = max(players, key=lambda p: p["score"], default=None)
        tail = tr("st_tail", lang, crown=nm(view.get("crown")), deck=view.get("deck_size", 0),
                  lead=nm(lead["seat"]) if lead else "-", pts=lead["score"] if lead else 0)
        return f"{head} · {tail}"


def _norm(s: str) -> str:
    import unicodedata

    s = unicodedata.normalize("NFKD", s.strip().lower())
    s = "".join(ch for ch in s if not unicodedata.combining(ch))
    s = re.sub(r"^(the|el|la|los|las|o|a|os|as)\s+", "", s)
    return re.sub(r"[\s_\-]+", " ", s).strip()


# Names other editions give some characters, accepted in a typed priority list as well (never
# shown: input words only, "|" between them): the Spanish edition of 2016 (la Asesina, la
# Arquitecta, el Señor de la Guerra) and the Italian word.
ALIASES: dict[str, str] = {
    "assassin": "Asesina|Assassina",
    "architect": "Arquitecta|Arquiteta",
    "warlord": "Señor de la Guerra|Condottiero|Condotiere",
}


def _character_names() -> dict[str, tuple[str, ...]]:
    """Every name of each character: in every catalogue language, and the aliases above."""
    return {cid: (*T.get("character." + cid, {}).values(), *(a for a in ALIASES.get(cid, "").split("|") if a)) for cid in C.CHARACTERS}


MANIFEST = Manifest("citadels", CitadelsUI())
