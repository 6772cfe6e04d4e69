"""Lost Cities on Discord: pick a card, play or discard it, then choose where to draw from."""

from __future__ import annotations

from typing import Any

from catalogs import lookup, table
from engines.lost_cities import actions as LA

from .base import Choice, Controls, GameUI, Manifest

DOMAIN = "lost-cities"

# A turn is two taps: one button plays or discards a card (no "which card?" menu first), one
# button draws. Buttons: the plays (green) on their own rows, then the discards (grey) on theirs,
# in hand order.

# The game's texts: catalogs/<lang>/lost-cities.po (English, Spanish, Portuguese), as
# {key: {lang: text}}. Colours as a pile or a wager is named (feminine in Spanish and Portuguese:
# la pila, a pilha, la apuesta, a aposta); "number.<colour>" as a number card is (masculine).
_TEXTS = table(DOMAIN)
T = {key: entry for key, entry in _TEXTS.items() if "." not in key and key not in ("wager", "card", "rules")}
COLOUR_NAMES = {key[len("colour."):]: entry for key, entry in _TEXTS.items() if key.startswith("colour.")}


def card_name(card: str, lang: str) -> str:
    """'red-7' -> 'red 7' / '7 rojo'; 'red-w2' -> 'red wager' / 'apuesta roja'. The Spanish colour
    agrees with what it describes, as on the pictures: a number is masculine ("el 7 rojo"), a
    wager (la apuesta) and a pile (la pila) feminine (tests/bot/test_spanish.py)."""
    from render.lost_cities import COLOUR_NAMES as MASCULINE

    colour, _, value = card.partition("-")
    if lang not in ("en", "es"):  # the pictures' names know English and Spanish; others: the catalogue
        if value.startswith("w"):
            return tr("wager", lang, colour=tr("colour." + colour, lang))
        return tr("card", lang, colour=tr("number." + colour, lang), value=value)
    if value.startswith("w"):
        c = COLOUR_NAMES.get(colour, {}).get(lang, colour)
        return f"{c} wager" if lang == "en" else f"apuesta {c}"
    if lang == "en":
        return f"{colour} {value}"
    return f"{value} {MASCULINE.get(lang, MASCULINE['en']).get(colour, colour)}"


# The engine's refusals, worded (params: cards and colours are translated first).
RULES = {key[len("rule."):]: entry for key, entry in _TEXTS.items() if key.startswith("rule.")}


def _one_wager(cards: list[str]) -> list[str]:
    """Wager cards of one colour are all alike: offer one button for them, not one each."""
    seen: set[str] = set()
    out = []
    for c in cards:
        colour, _, value = c.rpartition("-")
        if value.startswith("w"):
            if colour in seen:
                continue
            seen.add(colour)
        out.append(c)
    return out


def tr(key: str, lang: str, **kw: Any) -> str:
    text = lookup(lang, key, kw, domain=DOMAIN) or lookup("en", key, kw, domain=DOMAIN) or key
    return text.format(**kw)


# The illustrated guide of /partida rules (render/lost_cities_guide.py draws it with these words).
GUIDE: dict[str, dict[str, str]] = {
    lang: {key[len("guide."):]: entry[lang] for key, entry in _TEXTS.items() if key.startswith("guide.") and lang in entry}
    for lang in _TEXTS["rules"]
}


class LostCitiesUI(GameUI):
    key = "lost-cities"
    controls_draw = False
    rules = dict(_TEXTS["rules"])  # {lang: the rules summary}, from the catalogues
    guide = GUIDE

    def guide_images(self, lang):
        from render.lost_cities_guide import guide_images

        return self._guide(guide_images, lang)

    def board_png(self, view, names, lang):
        from render.lost_cities import board_png

        return board_png(view, names, lang)

    def turn_png(self, view, names, lang):
        from render.lost_cities import turn_png

        return turn_png(view, names, lang) if view.get("hand") is not None else None

    def hand_png(self, view, lang):
        from render.lost_cities import hand_png

        return hand_png(view, lang) if view.get("hand") is not None else None

    # Tokens: "p.red-7" play, "x.red-7" discard, "d.deck" / "d.red" draw: the engine's declarations
    def token(self, action: dict[str, Any]) -> str:
        return LA.to_token(action)

    def action(self, token: str) -> dict[str, Any]:
        return LA.from_token(token)

    def controls(self, view, legal, lang, picked=None, auto_end=True):
        if view["phase"] == "draw":
            buttons = []
            for a in legal:
                if a["from"] == "deck":
                    buttons.append(Choice(tr("deck", lang, n=view["deck"]), self.token(a), "primary"))
                else:
                    top = view["discards"][a["from"]][-1]
                    buttons.append(Choice(tr("pile", lang, card=card_name(top, lang)), self.token(a)))
            return Controls(tr("draw_phase", lang), buttons=buttons)
        hand = list(view.get("hand") or [])
        order = {c: i for i, c in enumerate(hand)}
        plays = sorted((a["card"] for a in legal if a["type"] == "play"), key=lambda c: order.get(c, 99))
        discards = sorted((a["card"] for a in legal if a["type"] == "discard"), key=lambda c: order.get(c, 99))
        # plays and discards never share a row: a slip must not cost a card (issue 20); 5 a row,
        # the plays on rows 0-1, the discards on rows 2-3
        buttons = [self._button({"type": "play", "card": c}, lang, "success", k // 5) for k, c in enumerate(_one_wager(plays)[:10])]
        buttons += [self._button({"type": "discard", "card": c}, lang, "secondary", 2 + k // 5)
                    for k, c in enumerate(_one_wager(discards)[:10])]
        return Controls(tr("play_phase", lang), buttons=buttons)

    def _button(self, action: dict[str, Any], lang: str, style: str, row: int) -> Choice:
        """A play or discard button: its label's key and its token from the action's declaration."""
        return Choice(tr(LA.BY_TYPE[action["type"]].label, lang, card=card_name(action["card"], lang)), self.token(action), style,
                      row=row)

    refusals = RULES

    def refusal_params(self, params: dict[str, Any], lang: str) -> dict[str, Any]:
        """Cards and colours of a refusal in the reader's language."""
        shown = dict(params)
        for key in ("card", "top"):
            if isinstance(shown.get(key), str):
                shown[key] = card_name(shown[key], lang)
        if isinstance(shown.get("colour"), str):
            shown["colour"] = COLOUR_NAMES.get(shown["colour"], {}).get(lang, shown["colour"])
        return shown

    def describe(self, action, name, lang, names=None, events=None):
        """A move in words. With the move's engine ``events`` a draw from a discard pile names the
        card taken (public: it lay face up); a draw from the deck never does."""
        from render.lost_cities import card_name as board_words  # "the red 7", "el 7 rojo": as on the board

        def card_words(card: str, lang: str) -> str:
            return board_words(card, lang) if lang in ("en", "es") else card_name(card, lang)

        if action["type"] in ("play", "discard"):
            return tr(LA.BY_TYPE[action["type"]].story, lang, who=name, card=card_words(action["card"], lang))
        if action["from"] == "deck":
            return tr("d_deck", lang, who=name)
        colour = COLOUR_NAMES[action["from"]].get(lang) or COLOUR_NAMES[action["from"]]["en"]
        card = action.get("card") or next(
            (
                (e.data or {}).get("card")
                for e in events or []
                if getattr(e, "kind", None) == "draw" and not getattr(e, "private_to", None)
                and (e.data or {}).get("from") == action["from"]
            ),
            None,
        )
        if card:
            return tr("d_pile_card", lang, who=name, card=card_words(card, lang), colour=colour)
        return tr("d_pile", lang, who=name, colour=colour)

    def status(self, view, names, lang):
        total = view["scores"]  # the engine's: finished rounds plus the round being played
        return tr(
            "status", lang, round=view["round"], rounds=view["rounds"], deck=view["deck"],
            a=names[0], sa=total[0], b=names[1], sb=total[1],
        )


MANIFEST = Manifest("lost-cities", LostCitiesUI())
