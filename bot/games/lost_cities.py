"""Lost Cities on Discord: pick a card, play or discard it, then choose where to draw from."""

from __future__ import annotations

from typing import Any

from engines.lost_cities import actions as LA

from .base import Choice, Controls, GameUI, Manifest

# A turn is two taps: one button plays or discards a card (no "which card?" menu first), one
# button draws. Buttons: the plays (green) on their own rows, then the discards (grey) on theirs,
# in hand order.

T = {
    "play_phase": {
        "en": "Your turn: press **Play** (green) to add a card to its expedition, or **Discard** (grey) to put it on its pile. Then you draw.",
        "es": "Tu turno: pulsa **Jugar** (verde) para añadir una carta a su expedición, o **Descartar** (gris) para dejarla en su pila. Después robas.",
    },
    "draw_phase": {"en": "Now draw a card: from the deck or from a discard pile.", "es": "Ahora roba una carta: del mazo o de una pila de descarte."},
    "play": {"en": "Play {card}", "es": "Jugar {card}"},
    "discard": {"en": "Discard {card}", "es": "Descartar {card}"},
    "deck": {"en": "Draw from the deck ({n})", "es": "Robar del mazo ({n})"},
    "pile": {"en": "Take {card}", "es": "Tomar {card}"},
    "d_play": {"en": "{who} played {card}", "es": "{who} jugó {card}"},
    "d_discard": {"en": "{who} discarded {card}", "es": "{who} descartó {card}"},
    "d_deck": {"en": "{who} drew from the deck", "es": "{who} robó del mazo"},
    "d_pile": {"en": "{who} took the top card of the {colour} pile", "es": "{who} tomó la carta de arriba de la pila {colour}"},
    "d_pile_card": {"en": "{who} took {card} from the {colour} pile", "es": "{who} tomó {card} de la pila {colour}"},
    "status": {"en": "Round {round}/{rounds} · deck {deck} · {a} {sa} – {b} {sb}", "es": "Ronda {round}/{rounds} · mazo {deck} · {a} {sa} – {b} {sb}"},
}


# Colours as a pile or a wager is named (feminine in Spanish: la pila, la apuesta).
COLOUR_NAMES = {
    "yellow": {"en": "yellow", "es": "amarilla"},
    "blue": {"en": "blue", "es": "azul"},
    "white": {"en": "white", "es": "blanca"},
    "green": {"en": "green", "es": "verde"},
    "red": {"en": "red", "es": "roja"},
    "purple": {"en": "purple", "es": "morada"},
}


def card_name(card: str, lang: str) -> str:
    """'red-7' -> 'red 7' / '7 rojo'; 'red-w2' -> 'red wager' / 'apuesta roja'. The Spanish colour
    agrees with what it describes, as on the pictures: a number is masculine ("el 7 rojo"), a
    wager (la apuesta) and a pile (la pila) feminine (tests/bot/test_spanish.py)."""
    from render.lost_cities import COLOUR_NAMES as MASCULINE

    colour, _, value = card.partition("-")
    if value.startswith("w"):
        c = COLOUR_NAMES.get(colour, {}).get(lang, colour)
        return f"{c} wager" if lang == "en" else f"apuesta {c}"
    if lang == "en":
        return f"{colour} {value}"
    return f"{value} {MASCULINE.get(lang, MASCULINE['en']).get(colour, colour)}"


# The engine's refusals, worded (params: cards and colours are translated first).
RULES = {
    "must_draw": {"en": "You already played a card this turn: now draw one.", "es": "Ya has jugado una carta este turno: ahora roba una."},
    "must_play_first": {"en": "First play or discard a card, then draw.", "es": "Primero juega o descarta una carta; después roba."},
    "not_in_hand": {"en": "{card} is not in your hand.", "es": "Esa carta ({card}) no está en tu mano."},
    "not_higher": {"en": "{card} must be higher than {top}, the top of your {colour} expedition.", "es": "Tu {card} debe ser mayor que el {top}, la última carta de tu expedición {colour}."},
    "wager_after_number": {"en": "Wagers only go before the first number card; your {colour} expedition already has numbers.", "es": "Las apuestas solo van antes de la primera carta numerada; tu expedición {colour} ya tiene números."},
    "pile_empty": {"en": "The {colour} discard pile is empty.", "es": "La pila de descarte {colour} está vacía."},
    "just_discarded": {"en": "You cannot take back the card you just discarded.", "es": "No puedes recuperar la carta que acabas de descartar."},
    "unknown_card": {"en": "There is no such card in this match.", "es": "Esa carta no existe en esta partida."},
    "unknown_pile": {"en": "There is no such pile.", "es": "Esa pila no existe."},
}


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
    return T[key].get(lang, T[key]["en"]).format(**kw)


# The illustrated guide of /partida rules (render/lost_cities_guide.py draws it with these words).
GUIDE: dict[str, dict[str, str]] = {
    "en": {
        "lc1_title": "Lost Cities · your turn in two steps",
        "lc1_play": "Play a card on your expedition of its colour: higher than the last one",
        "lc1_discard": "…or discard it face up on its colour's pile",
        "lc1_draw": "Then draw: from the deck, or the top card of any pile (not the one you just discarded)",
        "lc1_hand": "Your hand",
        "lc1_exp": "Your expedition",
        "lc1_pile": "Discard pile",
        "lc1_deck": "Deck",
        "lc2_title": "Lost Cities · how an expedition scores",
        "lc2_rule": "(sum of the numbers − 20) × (1 + wagers), +20 with 8 or more cards",
        "lc2_a": "{cards} = {sum} → ({sum} − 20) × {mult} = {points}",
        "lc2_b": "{cards} = {sum} → {sum} − 20 = {points}: a started expedition costs 20",
        "lc2_c": "A colour you never start scores 0. The round ends with the last deck card.",
    },
    "es": {
        "lc1_title": "Lost Cities · tu turno en dos pasos",
        "lc1_play": "Juega una carta en tu expedición de su color: mayor que la última",
        "lc1_discard": "…o descártala boca arriba en la pila de su color",
        "lc1_draw": "Después roba: del mazo o la carta de arriba de cualquier pila (no la que acabas de descartar)",
        "lc1_hand": "Tu mano",
        "lc1_exp": "Tu expedición",
        "lc1_pile": "Pila de descarte",
        "lc1_deck": "Mazo",
        "lc2_title": "Lost Cities · cómo puntúa una expedición",
        "lc2_rule": "(suma de los números − 20) × (1 + apuestas), +20 con 8 cartas o más",
        "lc2_a": "{cards} = {sum} → ({sum} − 20) × {mult} = {points}",
        "lc2_b": "{cards} = {sum} → {sum} − 20 = {points}: empezar una expedición cuesta 20",
        "lc2_c": "Un color que no empiezas puntúa 0. La ronda acaba con la última carta del mazo.",
    },
}


class LostCitiesUI(GameUI):
    key = "lost-cities"
    controls_draw = False
    rules = {
        "en": (
            "**Lost Cities** (2 players, 3 rounds). Each turn: **1.** play a card on your expedition of its "
            "colour (each card higher than the last; wagers only before the first number) or discard it on "
            "its colour's pile; **2.** draw from the deck or the top of a discard pile (not the card you just "
            "discarded). The round ends when the last deck card is drawn. Each started expedition scores "
            "(sum − 20) × (1 + wagers), +20 with 8 or more cards. Rounds add up; the leader starts the next."
        ),
        "es": (
            "**Lost Cities** (2 jugadores, 3 rondas). En tu turno: **1.** juega una carta en tu expedición de su "
            "color (cada carta mayor que la anterior; las apuestas solo antes del primer número) o descártala "
            "en la pila de su color; **2.** roba del mazo o de lo alto de una pila de descarte (no la carta que "
            "acabas de descartar). La ronda termina al robar la última carta del mazo. Cada expedición empezada "
            "puntúa (suma − 20) × (1 + apuestas), +20 con 8 cartas o más. Las rondas se suman; empieza el que va ganando."
        ),
    }
    guide = GUIDE

    def guide_images(self, lang):
        from render.lost_cities_guide import guide_images

        return self._guide(guide_images, lang)

    def board_png(self, view, names, lang):
        from render.lost_cities import board_png

        return board_png(view, names, lang)

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
        from render.lost_cities import card_name as card_words  # "the red 7", "el 7 rojo": as on the board

        if action["type"] in ("play", "discard"):
            return tr(LA.BY_TYPE[action["type"]].story, lang, who=name, card=card_words(action["card"], lang))
        if action["from"] == "deck":
            return tr("d_deck", lang, who=name)
        colour = COLOUR_NAMES[action["from"]][lang]
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
