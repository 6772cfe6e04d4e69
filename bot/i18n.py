"""Every text a player sees, in English and Spanish.

``t(key, lang, **params)`` formats a message; ``bot.core.refusals.error_text`` turns an engine or bot
error (a stable ``code`` plus ``params``) into a sentence with the games' own words. Languages: "en"
(default) and "es"; the language of a reply is the interaction's locale, the language of channel posts is the match's.
"""

from __future__ import annotations

import json
import typing
from typing import Any

from pydantic import ValidationError

from engines import registry

LANGS = ("en", "es")


def lang_of(locale: Any) -> str:
    """The language of a Discord locale (or its text): Spanish for es-*, else English."""
    value = str(getattr(locale, "value", locale) or "")
    return "es" if value.lower().startswith("es") else "en"


M: dict[str, dict[str, str]] = {
    # -- lobby -----------------------------------------------------------------------------------
    "lobby.title": {"en": "New {game} match", "es": "Nueva partida de {game}"},
    "lobby.body": {
        "en": "Host: {host}\nPlayers ({n}/{max}): {players}\nOptions: {options}\nJoin with the button below; the host starts when {range} players are in.",
        "es": "Anfitrión: {host}\nJugadores ({n}/{max}): {players}\nOpciones: {options}\nÚnete con el botón; el anfitrión empieza cuando haya {range} jugadores.",
    },
    "lobby.join": {"en": "Join", "es": "Unirme"},
    "lobby.leave": {"en": "Leave", "es": "Salir"},
    "lobby.start": {"en": "Start", "es": "Empezar"},
    "lobby.add_ai": {"en": "Add AI", "es": "Añadir IA"},
    "lobby.joined": {"en": "You joined the match.", "es": "Te has unido a la partida."},
    "lobby.left": {"en": "You left the match.", "es": "Has salido de la partida."},
    "lobby.ai_added": {"en": "AI player added.", "es": "Jugador IA añadido."},
    "lobby.none": {"en": "nobody yet", "es": "nadie todavía"},
    "lobby.started": {"en": "The match has started!", "es": "¡La partida ha empezado!"},
    "ai.name": {"en": "AI {n}", "es": "IA {n}"},
    # -- turns -----------------------------------------------------------------------------------
    "turn.now": {"en": "It is {player}'s turn.", "es": "Le toca a {player}."},
    "board.line": {"en": "{story} → {turn} · [board]({link})", "es": "{story} → {turn} · [tablero]({link})"},
    "board.line_turn": {"en": "{turn} · [board]({link})", "es": "{turn} · [tablero]({link})"},
    "err.bad_post_mode": {"en": "post={mode} is not a choice: use post=new (a new board picture each turn) or post=edit (one board message updated in place, and a one-line post each turn).", "es": "post={mode} no es una opción: usa post=new (una imagen del tablero nueva en cada turno) o post=edit (un único mensaje del tablero que se actualiza, y una línea por turno)."},
    "turn.button": {"en": "Take your turn", "es": "Jugar mi turno"},
    "mentions.on": {
        "en": "On your turns you will also be mentioned in the channel, besides the turn DM.",
        "es": "En tus turnos también te mencionaré en el canal, además del mensaje privado.",
    },
    "mentions.off": {
        "en": "On your turns the turn DM alone tells you (a mention in the channel only if your DMs are closed).",
        "es": "En tus turnos solo te avisa el mensaje privado (una mención en el canal solo si tienes cerrados los mensajes privados).",
    },
    "turn.button_match": {"en": "Take your turn · #{id}", "es": "Jugar mi turno · #{id}"},
    "turn.dm": {
        "en": "Your turn in **{game}** on {where} (match #{id}). Play here or in the channel: {link}",
        "es": "Te toca en **{game}** en {where} (partida #{id}). Juega aquí o en el canal: {link}",
    },
    "turn.dm_closed": {
        "en": "{player}, I can't send you direct messages: use the \"Take your turn\" button here (only you will see your hand).",
        "es": "{player}, no puedo enviarte mensajes directos: usa el botón \"Jugar mi turno\" aquí (solo tú verás tu mano).",
    },
    "turn.your_hand": {"en": "Your hand.", "es": "Tu mano."},
    "status.failed_turn": {
        "en": "⚠️ I could not reach {player} to tell them it is their turn ({error}).",
        "es": "⚠️ No he podido avisar a {player} de que le toca ({error}).",
    },
    "status.failed_board": {
        "en": "⚠️ I could not post the board in this channel ({error}).",
        "es": "⚠️ No he podido publicar el tablero en este canal ({error}).",
    },
    "status.failed_ai": {
        "en": "⚠️ An AI turn could not be played ({error}); the bot's log says more.",
        "es": "⚠️ No se ha podido jugar un turno de la IA ({error}); el registro del bot da detalles.",
    },
    "turn.done": {"en": "Done. Your turn is over.", "es": "Hecho. Tu turno ha terminado."},
    "turn.not_yours": {"en": "It is not your turn: it is {player}'s.", "es": "No es tu turno: le toca a {player}."},
    "turn.waiting": {"en": "Waiting for {player}.", "es": "Esperando a {player}."},
    "game.over": {"en": "The match is over.", "es": "La partida ha terminado."},
    "game.result": {"en": "Final scores: {scores}. Winner: {winners}.", "es": "Puntuación final: {scores}. Gana: {winners}."},
    "game.result_tie": {"en": "Final scores: {scores}. Tie between {winners}.", "es": "Puntuación final: {scores}. Empate entre {winners}."},
    "stale": {
        "en": "This button is out of date: the match has moved on. Here is where it stands now.",
        "es": "Este botón está desactualizado: la partida ha avanzado. Así está ahora.",
    },
    "not_player": {"en": "You are not playing in this match.", "es": "No juegas en esta partida."},
    "no_match": {"en": "There is no match in this channel. Start one with /partida new.", "es": "No hay partida en este canal. Empieza una con /partida nueva."},
    "no_such_match": {"en": "That match no longer exists.", "es": "Esa partida ya no existe."},
    "not_active": {"en": "That match is not being played (it is {status}).", "es": "Esa partida no está en juego (está {status})."},
    "status.lobby": {"en": "waiting for players", "es": "esperando jugadores"},
    "status.active": {"en": "in play", "es": "en juego"},
    "status.finished": {"en": "finished", "es": "terminada"},
    "status.abandoned": {"en": "abandoned", "es": "abandonada"},
    # -- bot errors (the user did something the bot cannot do) ---------------------------------
    "err.channel_busy": {"en": "This channel already has a match (#{id}). Finish or abandon it first.", "es": "Este canal ya tiene una partida (#{id}). Termínala o abandónala antes."},
    "err.already_joined": {"en": "You are already in this match.", "es": "Ya estás en esta partida."},
    "err.not_joined": {"en": "You are not in this match.", "es": "No estás en esta partida."},
    "err.full": {"en": "The match is full ({max} players).", "es": "La partida está completa ({max} jugadores)."},
    "err.host_only": {"en": "Only the host ({host}) can do that.", "es": "Solo el anfitrión ({host}) puede hacer eso."},
    "err.not_enough": {"en": "{game} needs at least {min} players.", "es": "{game} necesita al menos {min} jugadores."},
    "err.host_leave": {"en": "The host cannot leave; abandon the match instead.", "es": "El anfitrión no puede salir; abandona la partida."},
    "err.not_lobby": {"en": "The match has already started.", "es": "La partida ya ha empezado."},
    "err.abandon_rights": {"en": "Only the host or someone with Manage Channels can abandon the match.", "es": "Solo el anfitrión o alguien con Gestionar canales puede abandonar la partida."},
    "err.unknown_game": {"en": "Unknown game {game}.", "es": "Juego desconocido: {game}."},
    "err.bad_options": {"en": "Invalid options: {reason}", "es": "Opciones no válidas: {reason}"},
    "err.bad_option_text": {"en": "Options look like key=value, separated by spaces (e.g. rounds=3 purple=true).", "es": "Las opciones son clave=valor separadas por espacios (p. ej. rounds=3 purple=true)."},
    "err.guild_only": {"en": "Use this command in a server channel.", "es": "Usa este comando en un canal de un servidor."},
    "err.damaged_match": {"en": "Match #{id} in this channel cannot be read (its stored {part} is damaged); the bot's operator has it in the log. Every other match goes on.", "es": "La partida #{id} de este canal no se puede leer (su {part} guardado está dañado); quien opera el bot lo tiene en el registro. Las demás partidas siguen."},
    "err.store_busy": {"en": "The match storage is busy for a moment; nothing was changed: try again in a moment.", "es": "El almacén de partidas está ocupado ahora mismo; no ha cambiado nada: inténtalo de nuevo en un momento."},
    "err.wrong_channel": {"en": "That button belongs to match #{id}, in another channel: use it there.", "es": "Ese botón es de la partida #{id}, de otro canal: úsalo allí."},
    "err.internal": {"en": "Something went wrong on my side; nothing was changed. Try again.", "es": "Algo ha fallado por mi parte; no ha cambiado nada. Inténtalo de nuevo."},
    "err.bad_move": {"en": "I don't understand the move {move!r}: pick one from the list while typing.", "es": "No entiendo la jugada {move!r}: elige una de la lista mientras escribes."},
    "err.bad_prefs": {"en": "I can't use those orders: {reason}", "es": "No puedo usar esas órdenes: {reason}"},
    "err.no_prefs": {"en": "This game takes no standing orders.", "es": "Este juego no admite órdenes permanentes."},
    "err.prefs_unknown": {
        "en": "I can't use those orders: I don't know the character {name!r}.",
        "es": "No puedo usar esas órdenes: no conozco el personaje {name!r}.",
    },
    "err.prefs_empty": {"en": "I can't use those orders: no character given.", "es": "No puedo usar esas órdenes: no has dado ningún personaje."},
    "prefs.saved": {"en": "Saved. Your standing orders: {orders}.", "es": "Guardado. Tus órdenes: {orders}."},
    "err.export_live": {
        "en": "Match #{id} is still being played: its log holds the seed, which would show every hand. Export it once the match is over.",
        "es": "La partida #{id} sigue en juego: su registro lleva la semilla, que mostraría todas las manos. Expórtalo cuando termine.",
    },
    "err.busy": {"en": "Another move is being saved right now; try again in a moment.", "es": "Se está guardando otra jugada ahora mismo; inténtalo en un momento."},
    # -- engine refusals (codes from the rules engines) -------------------------------------------
    "rule.not_your_turn": {"en": "It is not your turn.", "es": "No es tu turno."},
    "rule.game_over": {"en": "The match is over.", "es": "La partida ha terminado."},
    "rule.bad_action": {"en": "That is not a valid action.", "es": "Esa acción no es válida."},
    "rule.bad_options": {"en": "Invalid options: {reason}", "es": "Opciones no válidas: {reason}"},
    "rule.bad_seat_count": {"en": "This game needs {min}-{max} players, not {got}.", "es": "Este juego necesita {min}-{max} jugadores, no {got}."},
    "rule.unknown_game": {"en": "Unknown game {game}.", "es": "Juego desconocido: {game}."},
    # -- commands --------------------------------------------------------------------------------
    "status.body": {"en": "**{game}** match #{id}: {status}. Players: {players}.", "es": "Partida #{id} de **{game}**: {status}. Jugadores: {players}."},
    "log.title": {"en": "Last moves of match #{id}:", "es": "Últimas jugadas de la partida #{id}:"},
    "log.empty": {"en": "No moves yet.", "es": "Todavía no hay jugadas."},
    "export.done": {"en": "The log of match #{id}. Replay it with `python -m engines replay {file}`.", "es": "El registro de la partida #{id}. Reprodúcelo con `python -m engines replay {file}`."},
    "abandon.done": {"en": "Match #{id} abandoned by {user}.", "es": "{user} ha abandonado la partida #{id}."},
    "invite.body": {"en": "{user} invites you to play **{game}** in {channel}: {link}", "es": "{user} te invita a jugar a **{game}** en {channel}: {link}"},
    "invite.sent": {"en": "Invitation sent to {user}.", "es": "Invitación enviada a {user}."},
    "invite.closed": {"en": "{user} does not accept direct messages; I posted the invitation here instead.", "es": "{user} no acepta mensajes directos; he publicado la invitación aquí."},
    "err.thread_permission": {"en": "You need the Create Public Threads permission in this channel to open a match in a new thread (start it here without thread:true).", "es": "Necesitas el permiso Crear hilos públicos en este canal para abrir una partida en un hilo nuevo (empiézala aquí sin thread:true)."},
    "err.invite_not_player": {"en": "Only the players of this match and its host can invite people to it.", "es": "Solo los jugadores de esta partida y su anfitrión pueden invitar a otras personas."},
    "err.bad_ai_level": {"en": "ai={level} is not a level: use ai=easy, ai=normal or ai=strong (the stronger, the longer an AI turn takes).", "es": "ai={level} no es un nivel: usa ai=easy, ai=normal o ai=strong (cuanto más fuerte, más tarda un turno de la IA)."},
    "err.slow_down": {"en": "You have done that several times in a short while: try again in {minutes} min.", "es": "Lo has hecho varias veces en poco tiempo: vuelve a intentarlo en {minutes} min."},
    "err.invite_bot": {"en": "{user} is a bot: only people can be invited (add AI players from the lobby).", "es": "{user} es un bot: solo se puede invitar a personas (añade jugadores IA desde la sala)."},
    "mygames.none": {"en": "You have no active matches.", "es": "No tienes partidas activas."},
    "mygames.title": {"en": "Your active matches (waiting on you first):", "es": "Tus partidas activas (primero las que esperan por ti):"},
    "mygames.your_turn": {"en": "your turn", "es": "te toca"},
    "mygames.lobby": {"en": "lobby", "es": "sala de espera"},
}


def t(key: str, lang: str, **params: Any) -> str:
    entry = M.get(key)
    if entry is None:
        return key
    text = entry.get(lang) or entry["en"]
    try:
        return text.format(**params)
    except (KeyError, IndexError):
        return text


# Engine refusal texts that game presentations add (bot/games/<game>.py calls register_rules):
# code -> {"en": ..., "es": ...}, formatted with the error's params.
GAME_RULES: dict[str, dict[str, str]] = {}
GAME_RULES_BY_GAME: dict[str, dict[str, dict[str, str]]] = {}


def register_rules(texts: dict[str, dict[str, str]], game: str | None = None) -> None:
    """Add a game's refusal texts; with ``game`` they win over other games' texts for that game."""
    if game is not None:
        GAME_RULES_BY_GAME.setdefault(game, {}).update(texts)
    for code, entry in texts.items():
        GAME_RULES.setdefault(code, entry)


def format_entry(entry: dict[str, str], lang: str, params: dict[str, Any]) -> str:
    """One text entry ({"en": ..., "es": ...}) in ``lang`` (else English), formatted with ``params``
    (on a bad or missing param: the text as it is)."""
    text = entry.get(lang) or entry["en"]
    try:
        return text.format(**params)
    except (KeyError, IndexError, ValueError):
        return text


_format = format_entry  # the name bot/games/lost_cities.py imports


def game_name(game: Any, lang: str) -> str:
    """A game's name in the reader's language (a Game, or a registry key)."""
    if isinstance(game, str):
        try:
            game = registry.get(game)
        except Exception:
            return game
    return (getattr(game, "names", None) or {}).get(lang) or game.name


# -- match options: what is wrong with them, and what each one means -------------------------------

OPTION_TEXTS: dict[str, dict[str, str]] = {
    "unknown": {"en": "unknown option {key} (this game has: {known})", "es": "opción desconocida {key} (este juego tiene: {known})"},
    "bad": {"en": "{key}={value} is not allowed: use {allowed}", "es": "{key}={value} no vale: usa {allowed}"},
    "int_range": {"en": "a whole number from {lo} to {hi}", "es": "un número entero de {lo} a {hi}"},
    "int": {"en": "a whole number", "es": "un número entero"},
    "bool": {"en": "true or false", "es": "true o false"},
    "one_of": {"en": "one of {values}", "es": "uno de {values}"},
}

# What each option does (the /partida new autocomplete shows it), by option name.
OPTION_HELP: dict[str, dict[str, str]] = {
    "rounds": {"en": "rounds in the match", "es": "rondas de la partida"},
    "purple": {"en": "add the sixth, purple expedition", "es": "añade la sexta expedición, la morada"},
    "rules": {"en": "scoring edition 1, 2 or 3", "es": "edición de las reglas de puntuación: 1, 2 o 3"},
    "sets": {"en": "copies of the tile set (marathon)", "es": "copias del juego de losetas (maratón)"},
    "medina": {"en": "add the Medina Azahara tile", "es": "añade la loseta de Medina Azahara"},
    "dark_city": {"en": "add the Dark City districts", "es": "añade los distritos de Ciudad Oscura"},
    "districts_to_end": {"en": "districts that end the game", "es": "distritos que acaban la partida"},
    "long": {"en": "Cities, 2 players: 7 rounds, 3x5 neighbourhoods", "es": "Cities, 2 jugadores: 7 rondas, barrios de 3x5"},
    "board": {"en": "Cities achievement board, e.g. venice (random if unset)", "es": "tablero de logros de Cities, p. ej. venice (al azar si no se da)"},
    "ai": {"en": "AI seats: easy, normal or strong", "es": "asientos de IA: easy, normal o strong"},
    "post": {"en": "board: a new post each turn (default: one message edited)", "es": "tablero: una publicación nueva cada turno (por defecto: un mensaje editado)"},
}


def _allowed(field: Any, lang: str) -> str:
    ann = field.annotation
    args = [a for a in typing.get_args(ann) if a is not type(None)]
    if len(args) == 1 and typing.get_origin(ann) is not typing.Literal:
        ann, args = args[0], list(typing.get_args(args[0]))
    if ann is bool:
        return t_option("bool", lang)
    if typing.get_origin(ann) is typing.Literal:
        return t_option("one_of", lang, values=", ".join(str(a).lower() if isinstance(a, bool) else str(a) for a in args))
    if ann is int:
        lo = next((m.ge for m in field.metadata if hasattr(m, "ge")), None)
        hi = next((m.le for m in field.metadata if hasattr(m, "le")), None)
        if lo is not None and hi is not None:
            return t_option("int_range", lang, lo=lo, hi=hi)
        return t_option("int", lang)
    return str(field.default)


def t_option(which: str, lang: str, **params: Any) -> str:
    return format_entry(OPTION_TEXTS[which], lang, params)


def options_problem(game_key: str, raw: dict[str, Any], lang: str) -> str | None:
    """What is wrong with a game's options, in the reader's language (None: nothing found)."""
    try:
        model = registry.get(game_key).Options
        model.model_validate(dict(raw))
        return None
    except ValidationError as e:
        errors = e.errors()
    except Exception:
        return None
    fields = model.model_fields
    out = []
    for err in errors:
        key = str(err["loc"][0]) if err.get("loc") else "?"
        if err.get("type") == "extra_forbidden" or key not in fields:
            out.append(t_option("unknown", lang, key=key, known=", ".join(fields)))
        else:
            value = raw.get(key)
            shown = json.dumps(value) if not isinstance(value, str) else value
            out.append(t_option("bad", lang, key=key, value=shown[:40], allowed=_allowed(fields[key], lang)))
    return "; ".join(dict.fromkeys(out)) or None


# -- slash command names and descriptions --------------------------------------------------------

COMMAND_ES = {
    "partida": "partida",
    "Play tabletop games in this channel": "Juega a juegos de mesa en este canal",
    "new": "nueva",
    "Start a new match in this channel": "Empieza una partida nueva en este canal",
    "game": "juego",
    "Which game": "Qué juego",
    "options": "opciones",
    "Options as key=value pairs, e.g. rounds=3 purple=true": "Opciones como clave=valor, p. ej. rounds=3 purple=true",
    "thread": "hilo",
    "Open the match in a new thread": "Abrir la partida en un hilo nuevo",
    "play": "jugar",
    "Make a move by typing it (the list shows your legal moves)": "Haz una jugada escribiéndola (la lista muestra tus jugadas legales)",
    "move": "jugada",
    "Your move": "Tu jugada",
    "prefer": "preferencias",
    "Leave standing orders, e.g. your draft priority list": "Deja órdenes permanentes, p. ej. tu orden de preferencia de personajes",
    "orders": "órdenes",
    "Comma-separated, most wanted first (empty to clear)": "Separadas por comas, la más deseada primero (vacío para borrar)",
    "invite": "invitar",
    "Invite someone to this channel's match": "Invita a alguien a la partida de este canal",
    "user": "usuario",
    "Who to invite": "A quién invitar",
    "status": "estado",
    "Show the match in this channel": "Muestra la partida de este canal",
    "hand": "mano",
    "See your hand (only you)": "Mira tu mano (solo tú)",
    "log": "registro",
    "Recent moves in words": "Las últimas jugadas, en palabras",
    "export": "exportar",
    "Download the match log as JSON": "Descarga el registro de la partida en JSON",
    "rules": "reglas",
    "A short summary of the rules": "Un resumen breve de las reglas",
    "abandon": "abandonar",
    "Abandon the match in this channel": "Abandona la partida de este canal",
    "mygames": "mispartidas",
    "Your active matches on every server": "Tus partidas activas en todos los servidores",
    "mentions": "menciones",
    "Be mentioned in the channel on your turns too (by default the turn DM alone tells you)":
        "Que también te mencionen en el canal en tus turnos (por defecto solo te avisa el mensaje privado)",
    "True: a mention in the channel as well; False: the turn DM only": "True: también una mención en el canal; False: solo el mensaje privado",
}


# The table's texts (undo, votes, leaving, abandon, shuffles, rematch, stats, the log): own module.
from .table_texts import COMMANDS_ES as _TABLE_COMMANDS_ES  # noqa: E402
from .table_texts import TEXTS as _TABLE_TEXTS  # noqa: E402

M.update(_TABLE_TEXTS)
COMMAND_ES.update(_TABLE_COMMANDS_ES)
