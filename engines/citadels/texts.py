"""English and Spanish texts for Citadels events and refusals.

``event_text(event, lang, players)`` turns an :class:`engines.core.Event` (or its JSON) into one
line; ``error_text(code, params, lang)`` explains a refusal code. Seats become player names,
character and district ids become display names (see :mod:`engines.citadels.names`).
"""

from __future__ import annotations

from typing import Any

from .names import name

# {p} = the acting player; other fields come from the event data (translated when they name
# a seat, a character, a district or a list of cards).
EVENTS: dict[str, tuple[str, str]] = {
    "round_start": (
        "Round {round} begins; {crown} holds the crown.",
        "Empieza la ronda {round}; {crown} tiene la corona.",
    ),
    "draft_pick": ("{p} takes the {character}.", "{p} elige el personaje {character}."),
    "draft_discard": ("{p} sets the {character} aside face down.", "{p} aparta boca abajo el personaje {character}."),
    "draft_done": ("All characters are chosen.", "Todos los personajes están elegidos."),
    "called": ("{p} is the {character}.", "{p} juega como {character}."),
    "call_nobody": ("Nobody is the {character}.", "Nadie juega como {character}."),
    "call_murdered": (
        "The {character} was murdered and loses the turn.",
        "El personaje {character} fue asesinado y pierde el turno.",
    ),
    "murdered_revealed": ("{p} was the murdered {character}.", "{p} jugaba como {character}, el personaje asesinado."),
    "robbed": ("{p} robs {from} of {gold} gold.", "{p} roba {gold} de oro a {from}."),
    "crown": ("{p} takes the crown.", "{p} recibe la corona."),
    "throne_room": ("{p} gains 1 gold (Throne Room).", "{p} gana 1 de oro (Sala del trono)."),
    "queen_gold": (
        "{p} gains 3 gold beside {neighbour} (Queen).",
        "{p} gana 3 de oro junto a {neighbour} (Reina).",
    ),
    "witch_resumes": (
        "{p} finishes the turn as the {character} (Witch).",
        "{p} termina el turno como {character} (Bruja).",
    ),
    "merchant_gold": ("{p} gains 1 gold (Merchant).", "{p} gana 1 de oro (Mercader)."),
    "architect_draw": ("{p} draws 2 cards (Architect): {cards}.", "{p} roba 2 cartas (Arquitecto): {cards}."),
    "alchemist_refund": (
        "{p} gets back {gold} gold (Alchemist).",
        "{p} recupera {gold} de oro (Alquimista).",
    ),
    "tax": ("{p} pays 1 gold tax to {to}.", "{p} paga 1 de oro de impuesto a {to}."),
    "poor_house": ("{p} gains 1 gold (Poor House).", "{p} gana 1 de oro (Asilo)."),
    "park_draw": ("{p} draws 2 cards (Park): {cards}.", "{p} roba 2 cartas (Parque): {cards}."),
    "turn_end": ("{p} ends the turn.", "{p} termina su turno."),
    "round_end": ("Round {round} is over.", "Termina la ronda {round}."),
    "game_over": ("The game is over.", "La partida ha terminado."),
    "income": ("{p} takes {take}.", "{p} toma {take}."),
    "keep": ("{p} keeps {cards}.", "{p} se queda con {cards}."),
    "build": ("{p} builds the {district} for {gold} gold.", "{p} construye {district} por {gold} de oro."),
    "collect": (
        "{p} collects {gold} gold for {colour} districts.",
        "{p} cobra {gold} de oro por distritos {colour}.",
    ),
    "murder": ("{p} murders the {character}.", "{p} asesina al personaje {character}."),
    "bewitch": ("{p} bewitches the {character}.", "{p} hechiza al personaje {character}."),
    "rob": ("{p} will rob the {character}.", "{p} robará al personaje {character}."),
    "swap_hands": ("{p} swaps hands with {with}.", "{p} cambia su mano con {with}."),
    "magician_redraw": ("{p} discards and draws {count} cards.", "{p} descarta y roba {count} cartas."),
    "draw": ("{p} draws {cards}.", "{p} roba {cards}."),
    "wizard_look": ("{p} looks at the hand of {target}.", "{p} mira la mano de {target}."),
    "wizard_take": ("{p} takes a card from {from}.", "{p} toma una carta de {from}."),
    "wizard_card": ("{p} takes the {card}.", "{p} toma {card}."),
    "tribute": ("{p} pays {pay} to {to}.", "{p} paga {pay} a {to}."),
    "tribute_card": ("{p} gives the {card}.", "{p} entrega {card}."),
    "abbot_take": ("{p} takes 1 gold from {from} (Abbot).", "{p} toma 1 de oro de {from} (Abad)."),
    "navigate": ("{p} takes 4 more {take} (Navigator).", "{p} toma 4 {take} más (Navegante)."),
    "destroy": (
        "{p} destroys the {district} of {owner} for {gold} gold.",
        "{p} destruye {district} de {owner} por {gold} de oro.",
    ),
    "exchange": (
        "{p} exchanges the {give} for the {take} of {with}, paying {gold} gold.",
        "{p} cambia {give} por {take} de {with}, pagando {gold} de oro.",
    ),
    "beautify": ("{p} beautifies the {district}.", "{p} embellece {district}."),
    "laboratory": (
        "{p} discards a card for 1 gold (Laboratory).",
        "{p} descarta una carta por 1 de oro (Laboratorio).",
    ),
    "smithy": (
        "{p} pays 2 gold and draws {drawn} cards (Smithy).",
        "{p} paga 2 de oro y roba {drawn} cartas (Herrería).",
    ),
    "museum": (
        "{p} puts a card under the Museum ({count}).",
        "{p} guarda una carta bajo el Museo ({count}).",
    ),
    "armory": (
        "{p} blows up the Armory and the {district} of {owner}.",
        "{p} hace estallar el Polvorín y {district} de {owner}.",
    ),
    "graveyard": (
        "{p} pays 1 gold to take back the {district} (Graveyard).",
        "{p} paga 1 de oro para recuperar {district} (Cementerio).",
    ),
    "graveyard_pass": ("{p} lets the district go.", "{p} deja ir el distrito."),
    "lighthouse": ("{p} searches the deck (Lighthouse).", "{p} busca en el mazo (Faro)."),
    "lighthouse_card": ("{p} takes the {card}.", "{p} toma {card}."),
    "bell_tower": ("{p} rings the Bell Tower: {announce}.", "{p} hace sonar el Campanario: {announce}."),
    "bell_tower_reverts": (
        "The Bell Tower is gone: the game ends at 8 districts again.",
        "El Campanario ha caído: la partida vuelve a acabar con 8 distritos.",
    ),
    "city_complete": ("{p} completes the city.", "{p} completa su ciudad."),
    "thank": ("{p}: \u201cThank you, your Excellency.\u201d", "{p}: \u00abGracias, Excelencia.\u00bb"),
    "ball_room_forfeit": (
        "{p} forgot to thank the crown and loses the turn (Ball Room).",
        "{p} olvidó dar las gracias a la corona y pierde el turno (Salón de baile).",
    ),
}

# what everybody else reads for an event whose data is private to some seats (Event.public())
HIDDEN_EVENTS: dict[str, tuple[str, str]] = {
    "draft_pick": ("{p} chooses a character.", "{p} elige un personaje."),
    "draft_discard": ("{p} sets a character aside face down.", "{p} aparta un personaje boca abajo."),
    "architect_draw": ("{p} draws 2 cards (Architect).", "{p} roba 2 cartas (Arquitecto)."),
    "park_draw": ("{p} draws 2 cards (Park).", "{p} roba 2 cartas (Parque)."),
    "keep": ("{p} keeps a card.", "{p} se queda con una carta."),
    "draw": ("{p} draws cards.", "{p} roba cartas."),
    "wizard_card": ("{p} keeps the card.", "{p} se queda con la carta."),
    "tribute_card": ("{p} gives a card.", "{p} entrega una carta."),
    "lighthouse_card": ("{p} takes a card.", "{p} toma una carta."),
}

ERRORS: dict[str, tuple[str, str]] = {
    "game_over": ("The game is over.", "La partida ha terminado."),
    "not_your_turn": ("It is not your turn.", "No es tu turno."),
    "not_available": ("That character cannot be chosen now.", "No puedes elegir ese personaje ahora."),
    "decision_pending": ("Someone must decide first.", "Primero hay que tomar una decisión pendiente."),
    "income_first": ("Take gold or cards first.", "Primero toma oro o cartas."),
    "no_builds_left": (
        "You cannot build more districts this turn.",
        "No puedes construir más distritos este turno.",
    ),
    "not_in_hand": ("That district is not in your hand.", "Ese distrito no está en tu mano."),
    "cannot_afford": ("Not enough gold (it costs {cost}).", "No tienes oro suficiente (cuesta {cost})."),
    "duplicate": ("You already have a district with that name.", "Ya tienes un distrito con ese nombre."),
    "income_taken": ("You already took gold or cards this turn.", "Ya tomaste oro o cartas este turno."),
    "crown_first": ("The Emperor must give the crown first.", "El Emperador debe entregar antes la corona."),
    "not_allowed": ("That is not allowed now.", "Eso no está permitido ahora."),
    "rank9_required": (
        "8 players need the Artist or the Queen.",
        "Con 8 jugadores hace falta la Artista o la Reina.",
    ),
    "queen_needs_5": ("The Queen needs 5 or more players.", "La Reina necesita 5 o más jugadores."),
    "unknown_card": ("Unknown district card.", "Carta de distrito desconocida."),
    "unknown_character": ("Unknown character.", "Personaje desconocido."),
    "bad_seat": ("There is no such seat.", "Ese asiento no existe."),
    "bad_action": ("That action is not well formed.", "Esa acción no es válida."),
    "bad_setup": ("The setup is not valid.", "La preparación no es válida."),
    "bad_deck": ("The setup deck is not valid.", "El mazo de la preparación no es válido."),
    "bad_crown": ("The setup crown is not a seat.", "La corona de la preparación no es un asiento."),
}

_WORDS = {
    "gold": ("gold", "oro"),
    "cards": ("cards", "cartas"),
    "card": ("a card", "una carta"),
    True: ("the game will end at 7 districts", "la partida acabará con 7 distritos"),
    False: ("no announcement", "sin anuncio"),
}
_SEATS = ("from", "to", "with", "owner", "neighbour", "target", "crown")


def _lang_i(lang: str) -> int:
    return 1 if lang == "es" else 0


def _fmt(key: str, value: Any, lang: str, players: list[str]) -> str:
    i = _lang_i(lang)
    if key in _SEATS and isinstance(value, int):
        return players[value] if 0 <= value < len(players) else str(value)
    if key == "character":
        return name("character", value, lang)
    if key in ("district", "card", "give", "take") and isinstance(value, str) and "#" in value:
        return name("district", value, lang)
    if key == "cards" and isinstance(value, list):
        return ", ".join(name("district", c, lang) for c in value) or ("nothing", "nada")[i]
    if key == "colour":
        return name("colour", value, lang)
    if key in ("take", "pay", "announce") and value in _WORDS:
        return _WORDS[value][i]
    return str(value)


class _Safe(dict):
    def __missing__(self, key: str) -> str:
        return "?"


def event_text(event: Any, lang: str = "en", players: list[str] | None = None) -> str:
    """One line describing an event (an Event or its JSON) for the given language."""
    ev = event.to_json() if hasattr(event, "to_json") else event
    players = players or []
    tmpl = EVENTS.get(ev["kind"])
    if not ev.get("data") and ev["kind"] in HIDDEN_EVENTS:
        tmpl = HIDDEN_EVENTS[ev["kind"]]
    if tmpl is None:
        return ev["kind"]
    seat = ev.get("seat")
    fields = _Safe({k: _fmt(k, v, lang, players) for k, v in (ev.get("data") or {}).items()})
    fields["p"] = _fmt("from", seat, lang, players) if seat is not None else ""
    return tmpl[_lang_i(lang)].format_map(fields)


def error_text(code: str, params: dict | None = None, lang: str = "en") -> str:
    tmpl = ERRORS.get(code)
    if tmpl is None:
        return code
    return tmpl[_lang_i(lang)].format_map(_Safe({k: str(v) for k, v in (params or {}).items()}))
