"""Player-facing texts of the Carcassonne engine in English and Spanish, keyed by the stable codes
of its errors (``EngineError.code``, formatted with ``params``) and the kinds of its events
(formatted with ``seat`` as ``{player}`` plus the event's ``data``). The bot may copy or import them.
"""

from __future__ import annotations

ERRORS: dict[str, dict[str, str]] = {
    "game_over": {"en": "The match is over.", "es": "La partida ha terminado."},
    "not_your_turn": {"en": "It is not your turn.", "es": "No es tu turno."},
    "bad_action": {"en": "That is not a Carcassonne move.", "es": "Eso no es una jugada de Carcassonne."},
    "cell_taken": {"en": "There is already a tile at ({x}, {y}).", "es": "Ya hay una loseta en ({x}, {y})."},
    "not_adjacent": {"en": "({x}, {y}) does not touch any tile.", "es": "({x}, {y}) no toca ninguna loseta."},
    "edges_mismatch": {
        "en": "Tile {tile} turned {rot} does not match its neighbours at ({x}, {y}).",
        "es": "La loseta {tile} con giro {rot} no encaja con sus vecinas en ({x}, {y}).",
    },
    "no_such_feature": {"en": "Tile {tile} has no spot {feature}.", "es": "La loseta {tile} no tiene la zona {feature}."},
    "no_meeples": {"en": "You have no meeples left.", "es": "No te quedan meeples."},
    "feature_occupied": {
        "en": "That {kind} already has a meeple on it.",
        "es": "Ese elemento ({kind}) ya tiene un meeple.",
    },
    "must_choose": {"en": "First choose which tile to play.", "es": "Primero elige qué loseta jugar."},
    "nothing_to_choose": {"en": "There is no choice of tiles now.", "es": "Ahora no hay losetas entre las que elegir."},
    "not_in_hand": {"en": "{tile} is not one of your tiles.", "es": "{tile} no es una de tus losetas."},
    "no_archaeologist": {
        "en": "You have no archaeologist on the Medina Azahara ruins.",
        "es": "No tienes arqueólogo en las ruinas de Medina Azahara.",
    },
    "archaeologist_not_ready": {
        "en": "The archaeologist starts digging on your next turn.",
        "es": "El arqueólogo empieza a excavar en tu siguiente turno.",
    },
    "archaeologist_used": {
        "en": "The archaeologist already dug this turn.",
        "es": "El arqueólogo ya ha excavado este turno.",
    },
    "pile_empty": {"en": "There are no tiles left to draw.", "es": "No quedan losetas para robar."},
    "unknown_tile": {"en": "There is no tile {tile}.", "es": "No existe la loseta {tile}."},
    "medina_off": {
        "en": "The Medina Azahara tile is not in this match.",
        "es": "La loseta de Medina Azahara no está en esta partida.",
    },
    "too_many_tiles": {
        "en": "The setup holds {count} {tile} tiles; the tile set has {available}.",
        "es": "La preparación tiene {count} losetas {tile}; el juego trae {available}.",
    },
}

EVENTS: dict[str, dict[str, str]] = {
    "placed": {"en": "{player} placed tile {tile} at ({x}, {y}).", "es": "{player} colocó la loseta {tile} en ({x}, {y})."},
    "drawn": {"en": "{player} drew tile {tile}.", "es": "{player} robó la loseta {tile}."},
    "tile_set_aside": {
        "en": "Tile {tile} fits nowhere and was set aside.",
        "es": "La loseta {tile} no encaja en ningún sitio y se ha apartado.",
    },
    "medina_drawn": {
        "en": "{player} drew Medina Azahara! ¡Nos jugamos! It must be placed on their next turn.",
        "es": "¡{player} ha robado Medina Azahara! ¡Nos jugamos! La colocará en su próximo turno.",
    },
    "medina_to_place": {"en": "{player} now places Medina Azahara.", "es": "{player} coloca ahora Medina Azahara."},
    "medina_placed": {"en": "Medina Azahara is on the table.", "es": "Medina Azahara ya está en el tablero."},
    "archaeologist_used": {
        "en": "{player}'s archaeologist digs up an extra tile ({left} digs left).",
        "es": "El arqueólogo de {player} desentierra una loseta extra (le quedan {left} excavaciones).",
    },
    "chose": {
        "en": "{player} plays {tile} and puts {returned} back into the pile.",
        "es": "{player} juega {tile} y devuelve {returned} a la reserva.",
    },
    "scored": {"en": "{feature}: {points} points for {seats}.", "es": "{feature}: {points} puntos para {seats}."},
    "meeple_returned": {"en": "A meeple returns to {player}.", "es": "Un meeple vuelve a {player}."},
    "game_over": {"en": "The match is over.", "es": "La partida ha terminado."},
}

FEATURES: dict[str, dict[str, str]] = {
    "city": {"en": "city", "es": "ciudad"},
    "road": {"en": "road", "es": "camino"},
    "farm": {"en": "field", "es": "campo"},
    "monastery": {"en": "monastery", "es": "monasterio"},
    "ruins": {"en": "ruins", "es": "ruinas"},
}
