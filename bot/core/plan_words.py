"""Plans made ahead (issue 21) in words: the choices a player is offered, a plan as its owner reads
it, and why one was dropped. What can be planned is the engine's (``engines/<game>/plans.py``);
this module only offers it from the player's own view and words it.

A choice is ``(label, token)``: the token (at most 100 characters, a Discord select's or an
autocomplete's value) becomes the plan's JSON with ``raw_plan`` against the view the player sees
when they pick it (a Cities lot keeps the items it shows then). ``OFF`` clears the plan.
"""

from __future__ import annotations

from typing import Any

from engines.plans import Cancel

from ..games import ui_for
from ..games.citadels import ch_name
from ..games.lost_cities import card_name
from ..i18n import t

OFF = "off"
MAX_CHOICES = 25  # a Discord select, an autocomplete


def _card(card: str, lang: str) -> str:
    return card_name(card, lang)


def _character(ch: str, lang: str) -> str:
    return ch_name(ch, lang)


def _lot_items(row: str, slot: int, items: list[str], lang: str) -> str:
    """A lot's items in the game's own words (tiles as coloured squares, features by name)."""
    ui = ui_for("cities")
    shown = {"rows": [{"row": row, "slots": [{"slot": slot, "items": list(items), "hidden": 0}]}]}
    if hasattr(ui, "_slot_label"):
        return ui._slot_label(shown, row, slot, lang).split(" · ", 1)[-1]
    return ", ".join(items)


def _lc_unseen(view: dict[str, Any]) -> list[str]:
    """Cards the player cannot see now (not in their hand, on an expedition or a discard pile):
    the ones the other player may discard. Those extending an expedition of theirs come first."""
    from engines.lost_cities import CARD_NAMES

    seen = set(view["hand"]) | {c for pile in view["discards"].values() for c in pile}
    for exp in view["expeditions"]:
        seen |= {c for cards in exp.values() for c in cards}
    mine = view["expeditions"][view["viewer"]]
    colours = set(view["colours"])

    def rank(card: str) -> tuple[int, str]:
        colour = card.split("-")[0]
        return (0 if mine.get(colour) else 1, card)

    return sorted((c for c in CARD_NAMES if c not in seen and c.split("-")[0] in colours), key=rank)


def choices(game: str, view: dict[str, Any], names: list[str], lang: str, typed: str = "") -> list[tuple[str, str]]:
    """What the player may plan now, as (label, token), at most ``MAX_CHOICES`` (``typed``: filter)."""
    out: list[tuple[str, str]] = []
    if game == "lost-cities":
        out.append((t("plan.lc.deck", lang), "lc:deck"))
        for card in _lc_unseen(view):
            out.append((t("plan.lc.take", lang, card=_card(card, lang)), f"lc:take:{card}"))
    elif game == "carcassonne":
        out += [(t("plan.cc.only", lang), "cc:only"), (t("plan.cc.nofollower", lang), "cc:never")]
    elif game == "citadels":
        chars = [c for c in view.get("characters", []) if c not in view.get("face_up", [])]
        for ch in chars:
            if ch != "assassin":
                out.append((t("plan.ci.murder", lang, character=_character(ch, lang)), f"ci:murder:{ch}"))
        for ch in chars:
            if ch not in ("assassin", "thief"):
                out.append((t("plan.ci.rob", lang, character=_character(ch, lang)), f"ci:rob:{ch}"))
        for p in view.get("players", []):
            if p["seat"] != view.get("viewer") and p["seat"] < len(names):
                out.append((t("plan.ci.destroy", lang, player=names[p["seat"]]), f"ci:destroy:{p['seat']}"))
    elif game == "cities":
        for row in view.get("rows", []):
            for lot in row["slots"]:
                if lot["worker"] is None and not lot["hidden"] and lot["items"]:
                    label = t("plan.ct.take", lang, lot=ui_for("cities").label({"type": "take", "row": row["row"], "slot": lot["slot"]}, lang),
                              items=_lot_items(row["row"], lot["slot"], lot["items"], lang))
                    out.append((label, f"ct:{row['row']}:{lot['slot']}"))
    if typed:
        out = [c for c in out if typed.lower() in c[0].lower()]
    return out[:MAX_CHOICES]


def raw_plan(game: str, token: str, view: dict[str, Any]) -> dict[str, Any] | None:
    """The plan's JSON for a chosen token (None: ``OFF``); ValueError for a token of no choice."""
    if token == OFF:
        return None
    parts = token.split(":")
    try:
        if game == "lost-cities" and parts[0] == "lc":
            if parts[1] == "deck":
                return {"kind": "draw_deck"}
            if parts[1] == "take":
                return {"kind": "take_if_discarded", "card": parts[2], "otherwise": "deck"}
        if game == "carcassonne" and parts[0] == "cc":
            return {"kind": {"only": "only_place", "never": "no_follower"}[parts[1]]}
        if game == "citadels" and parts[0] == "ci":
            what, target = parts[1], parts[2]
            if what == "destroy":
                return {"kind": "targets", "destroy": [int(target)]}
            if what in ("murder", "rob"):
                return {"kind": "targets", what: [target]}
        if game == "cities" and parts[0] == "ct":
            from engines.cities.plans import lot

            row, slot = parts[1], int(parts[2])
            there = lot(view, row, slot)
            if there is not None:
                return {"kind": "take_lot", "row": row, "slot": slot, "items": list(there["items"]), "round": view.get("round")}
    except (IndexError, KeyError, ValueError):
        pass
    raise ValueError(token)


def plan_text(game: str, plan: Any, names: list[str], lang: str) -> str:
    """A plan in its owner's words."""
    if plan is None:
        return t("plan.none", lang)
    kind = getattr(plan, "kind", "")
    if kind == "draw_deck":
        return t("plan.lc.deck", lang)
    if kind == "take_if_discarded":
        return t("plan.lc.take", lang, card=_card(plan.card, lang))
    if kind == "only_place":
        return t("plan.cc.only", lang)
    if kind == "no_follower":
        return t("plan.cc.nofollower", lang)
    if kind == "draft":
        return t("plan.ci.draft", lang, characters=", ".join(_character(c, lang) for c in plan.priority))
    if kind == "targets":
        parts = [t("plan.ci.murder", lang, character=_character(c, lang)) for c in plan.murder[:1]]
        parts += [t("plan.ci.rob", lang, character=_character(c, lang)) for c in plan.rob[:1]]
        parts += [t("plan.ci.destroy", lang, player=names[s] if s < len(names) else "?") for s in plan.destroy[:1]]
        return "; ".join(parts) or t("plan.none", lang)
    if kind == "take_lot":
        lot = ui_for("cities").label({"type": "take", "row": plan.row, "slot": plan.slot}, lang)
        return t("plan.ct.take", lang, lot=lot, items=_lot_items(plan.row, plan.slot, plan.items, lang))
    return str(kind)


REASONS = ("card_not_there", "deck_empty", "fits_several", "follower_not_possible", "none_offered", "no_target",
           "new_round", "lot_gone", "not_legal", "undo", "seat")


def plan_off_text(off: dict[str, Any] | Cancel, game: str, lang: str) -> str:
    """Why a plan was dropped (a ``Cancel`` or the note kept of it), in words."""
    if isinstance(off, Cancel):
        reason, params = off.reason, dict(off.params)
    else:
        reason, params = off.get("reason", "not_legal"), dict(off.get("params") or {})
    if reason not in REASONS:
        reason = "not_legal"
    words: dict[str, Any] = {}
    if reason == "card_not_there":
        words["card"] = _card(str(params.get("card", "")), lang)
    elif reason == "fits_several":
        words["n"] = int(params.get("spots", 2))
    elif reason == "lot_gone":
        words["lot"] = ui_for("cities").label({"type": "take", "row": params.get("row", "?"), "slot": int(params.get("slot", 0))}, lang)
    return t("plan.off." + reason, lang, **words)
