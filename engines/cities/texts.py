"""Player-facing texts of the Cities engine in English and Spanish.

* ``ERRORS[code]`` - refusal messages keyed by ``EngineError.code``, formatted with its params;
  ``error_text(code, params, lang)`` also translates the colour / design / item the params name.
* ``EVENTS[kind]`` - one line per event kind (``{player}`` is the acting seat's name);
  ``event_text(event_json, lang, players)`` fills it in.
* ``action_label(action_json, lang)`` - a short label for a button or a select option.
* ``TERMS`` - the game's own words (Spanish as in the Devir edition's terms).
"""

from __future__ import annotations

from typing import Any

from .components import COLOURS, TILE_INDEX, name

TERMS: dict[str, dict[str, str]] = {
    "city_tile": {"en": "city tile", "es": "loseta de ciudad"},
    "starting_tile": {"en": "starting tile", "es": "loseta inicial"},
    "feature_tile": {"en": "feature tile", "es": "loseta de característica"},
    "building_piece": {"en": "building piece", "es": "pieza de edificio"},
    "building": {"en": "building", "es": "edificio"},
    "scoring_card": {"en": "scoring card", "es": "carta de puntuación"},
    "achievement": {"en": "achievement", "es": "logro"},
    "neighbourhood": {"en": "neighbourhood", "es": "barrio"},
    "row": {"en": "row", "es": "fila"},
    "worker": {"en": "worker", "es": "trabajador"},
    "star": {"en": "star", "es": "estrella"},
    "bag": {"en": "bag", "es": "bolsa"},
    "face_down": {"en": "face down", "es": "boca abajo"},
    "water": {"en": "water", "es": "agua"},
    "park": {"en": "park", "es": "parque"},
    "monument": {"en": "monument", "es": "monumento"},
    "wild": {"en": "wild space", "es": "espacio comodín"},
    "points": {"en": "VP", "es": "PV"},
}

# what each row offers
ROWS: dict[str, dict[str, str]] = {
    "A": {"en": "scoring cards", "es": "cartas de puntuación"},
    "B": {"en": "city tiles", "es": "losetas de ciudad"},
    "C": {"en": "feature tiles", "es": "losetas de característica"},
    "D": {"en": "building pieces", "es": "piezas de edificio"},
}

# a piece (pieza, feminine) of a colour
_PIECE_COLOUR = {
    "en": {c: c for c in COLOURS},
    "es": {"red": "roja", "blue": "azul", "green": "verde", "yellow": "amarilla"},
}

ERRORS: dict[str, dict[str, str]] = {
    "bad_action": {"en": "That is not a Cities move.", "es": "Eso no es una jugada de Cities."},
    "bad_decline": {"en": "Decline exactly one item.", "es": "Descarta exactamente un elemento."},
    "unknown_tile": {"en": "There is no tile {tile}.", "es": "No existe la loseta {tile}."},
    "unknown_feature": {"en": "There is no feature tile {feature}.", "es": "No existe la loseta de característica {feature}."},
    "game_over": {"en": "The match is over.", "es": "La partida ha terminado."},
    "not_your_turn": {"en": "It is not your turn.", "es": "No es tu turno."},
    "must_pick_start": {"en": "First pick your starting tile.", "es": "Primero elige tu loseta inicial."},
    "start_not_offered": {"en": "{tile} is not one of the starting tiles left.", "es": "{tile} no es una de las losetas iniciales que quedan."},
    "start_done": {"en": "The starting tiles are already chosen.", "es": "Las losetas iniciales ya están elegidas."},
    "must_take": {
        "en": "First put a worker on a row slot to take what lies there.",
        "es": "Primero coloca un trabajador en un hueco de una fila para tomar lo que hay.",
    },
    "slot_taken": {"en": "Row {row} slot {slot} is already taken.", "es": "El hueco {slot} de la fila {row} ya está ocupado."},
    "row_used": {
        "en": "You already have a worker in row {row} this round.",
        "es": "Ya tienes un trabajador en la fila {row} esta ronda.",
    },
    "row_used_twice": {
        "en": "You already have two workers in row {row} this round.",
        "es": "Ya tienes dos trabajadores en la fila {row} esta ronda.",
    },
    "must_place": {"en": "First place or decline what you took.", "es": "Primero coloca o descarta lo que has tomado."},
    "no_tile": {"en": "You have no city tile to place.", "es": "No tienes ninguna loseta de ciudad que colocar."},
    "not_pending": {"en": "You are not holding {item}.", "es": "No tienes {item} para colocar."},
    "tile_fits": {
        "en": "The city tile fits in your neighbourhood: place it.",
        "es": "La loseta de ciudad cabe en tu barrio: colócala.",
    },
    "cell_taken": {"en": "There is already a tile at ({x}, {y}).", "es": "Ya hay una loseta en ({x}, {y})."},
    "not_adjacent": {
        "en": "({x}, {y}) does not touch a tile of your neighbourhood along an edge.",
        "es": "({x}, {y}) no toca por un lado ninguna loseta de tu barrio.",
    },
    "too_big": {
        "en": "A tile at ({x}, {y}) would make your neighbourhood bigger than {size} tiles.",
        "es": "Una loseta en ({x}, {y}) haría tu barrio mayor de {size} losetas.",
    },
    "no_space": {"en": "Your neighbourhood has no space ({x}, {y}).", "es": "Tu barrio no tiene el espacio ({x}, {y})."},
    "space_has_feature": {
        "en": "Space ({x}, {y}) already holds a feature tile.",
        "es": "El espacio ({x}, {y}) ya tiene una loseta de característica.",
    },
    "grey_on_city": {
        "en": "A {design} goes only on an empty city space; ({x}, {y}) is not a city space.",
        "es": "Un(a) {design} solo va en un espacio de ciudad vacío; ({x}, {y}) no es de ciudad.",
    },
    "space_built": {
        "en": "A {design} goes only on an empty city space; ({x}, {y}) has a building.",
        "es": "Un(a) {design} solo va en un espacio de ciudad vacío; ({x}, {y}) tiene un edificio.",
    },
    "wrong_background": {
        "en": "A {design} goes on a space of its own background, not on ({x}, {y}).",
        "es": "Un(a) {design} va en un espacio de su mismo fondo, no en ({x}, {y}).",
    },
    "not_city": {
        "en": "Buildings go only on city spaces; ({x}, {y}) is not one.",
        "es": "Los edificios solo van en espacios de ciudad; ({x}, {y}) no lo es.",
    },
    "wrong_colour": {
        "en": "A {colour} piece goes on a {colour} city space, a wild space or a {colour} building, not on ({x}, {y}).",
        "es": "Una pieza {colour} va en un espacio de ciudad de su color, un espacio comodín o un edificio de su color, no en ({x}, {y}).",
    },
    "too_high": {
        "en": "The building at ({x}, {y}) is already {max} high.",
        "es": "El edificio en ({x}, {y}) ya tiene altura {max}.",
    },
    "long_needs_two": {"en": "The long variant is for 2 players only.", "es": "La variante larga es solo para 2 jugadores."},
    "bad_setup": {"en": "That set-up is not valid.", "es": "Esa preparación no es válida."},
}

EVENTS: dict[str, dict[str, str]] = {
    "start_pick": {"en": "{player} starts with tile {tile}.", "es": "{player} empieza con la loseta {tile}."},
    "took": {"en": "{player} takes from row {row}: {items}.", "es": "{player} toma de la fila {row}: {items}."},
    "placed_tile": {
        "en": "{player} places city tile {tile} at ({x}, {y}).",
        "es": "{player} coloca la loseta de ciudad {tile} en ({x}, {y}).",
    },
    "placed_feature": {"en": "{player} places {feature} at ({x}, {y}).", "es": "{player} coloca {feature} en ({x}, {y})."},
    "built": {
        "en": "{player} builds {colour} at ({x}, {y}), now {height} high.",
        "es": "{player} construye {colour} en ({x}, {y}), ahora de altura {height}.",
    },
    "declined": {"en": "{player} removes {item} from the game.", "es": "{player} retira {item} del juego."},
    "claimed": {
        "en": "{player} claims the achievement {achievement} ({points} VP).",
        "es": "{player} consigue el logro {achievement} ({points} PV).",
    },
    "round_end": {
        "en": "Round {round} is over; {star} takes the star.",
        "es": "Termina la ronda {round}; {star} toma la estrella.",
    },
    "round_start": {"en": "Round {round} begins.", "es": "Empieza la ronda {round}."},
    "game_over": {"en": "The match is over.", "es": "La partida ha terminado."},
}


def item_name(item: str, lang: str) -> str:
    """A row item (card, tile, feature tile or colour of a piece) in words."""
    if item in COLOURS:
        return f"pieza {_PIECE_COLOUR['es'][item]}" if lang == "es" else f"{item} piece"
    if item in TILE_INDEX:
        return f"{TERMS['city_tile'].get(lang, TERMS['city_tile']['en'])} {item}"
    return name(item, lang)


def error_text(code: str, params: dict[str, Any] | None, lang: str = "en") -> str:
    entry = ERRORS.get(code)
    if entry is None:
        return ERRORS["bad_action"].get(lang, ERRORS["bad_action"]["en"])
    p = dict(params or {})
    if "colour" in p:
        p["colour"] = _PIECE_COLOUR.get(lang, _PIECE_COLOUR["en"]).get(p["colour"], p["colour"])
    if "design" in p:
        p["design"] = name(p["design"], lang).lower()
    if "item" in p:
        p["item"] = item_name(p["item"], lang)
    try:
        return (entry.get(lang) or entry["en"]).format(**p)
    except (KeyError, IndexError):
        return entry.get(lang) or entry["en"]


def event_text(event: dict[str, Any], lang: str = "en", players: list[str] | None = None) -> str:
    kind = event.get("kind")
    entry = EVENTS.get(kind)
    if entry is None:
        return ""
    data = dict(event.get("data") or {})
    players = players or []

    def who(seat: Any) -> str:
        return players[seat] if isinstance(seat, int) and 0 <= seat < len(players) else f"#{seat}"

    p = {**data, "player": who(event.get("seat"))}
    if "items" in data:
        p["items"] = ", ".join(item_name(i, lang) for i in data["items"]) or "-"
    if "feature" in data:
        p["feature"] = name(data["feature"], lang)
    if "colour" in data:
        p["colour"] = _PIECE_COLOUR.get(lang, _PIECE_COLOUR["en"]).get(data["colour"], data["colour"])
    if "item" in data:
        p["item"] = item_name(data["item"], lang)
    if "achievement" in data:
        p["achievement"] = name(data["achievement"], lang)
    if "star" in data:
        p["star"] = who(data["star"])
    try:
        return (entry.get(lang) or entry["en"]).format(**p)
    except (KeyError, IndexError):
        return entry.get(lang) or entry["en"]


_LABELS: dict[str, dict[str, str]] = {
    "start": {"en": "Start with {tile}", "es": "Empezar con {tile}"},
    "take": {"en": "Row {row}, slot {slot}", "es": "Fila {row}, hueco {slot}"},
    "tile": {"en": "Tile at ({x}, {y}), turned {rot}", "es": "Loseta en ({x}, {y}), girada {rot}"},
    "feature": {"en": "{feature} on ({x}, {y})", "es": "{feature} en ({x}, {y})"},
    "build": {"en": "{colour} piece on ({x}, {y})", "es": "Pieza {colour} en ({x}, {y})"},
    "decline": {"en": "Remove {item} from the game", "es": "Retirar {item} del juego"},
}
_TURNS = {"en": ("", " 90°", " 180°", " 270°"), "es": ("", " 90°", " 180°", " 270°")}


def action_label(action: dict[str, Any], lang: str = "en") -> str:
    """A short label for a legal action (rows are A-D, slots counted from 1)."""
    kind = action.get("type")
    entry = _LABELS.get(kind)
    if entry is None:
        return str(action)
    text = entry.get(lang) or entry["en"]
    p = dict(action)
    if kind == "take":
        p["slot"] = action["slot"] + 1
    elif kind == "tile":
        text = text.replace(", turned {rot}", "{rot}").replace(", girada {rot}", "{rot}")
        p["rot"] = _TURNS["en"][action["rot"]]
    elif kind == "feature":
        p["feature"] = name(action["feature"], lang)
    elif kind == "build":
        p["colour"] = _PIECE_COLOUR.get(lang, _PIECE_COLOUR["en"])[action["colour"]]
        if lang == "en":
            p["colour"] = p["colour"].capitalize()
    elif kind == "decline":
        item = action.get("tile") or action.get("feature") or action.get("piece")
        p["item"] = item_name(item, lang)
    return text.format(**p)
