"""Texts of the table (undo, votes, leaving and replacing, abandon, verifiable shuffles, rematch,
stats, the whole log) in English and Spanish; merged into ``bot.i18n.M`` and ``COMMAND_ES``."""

from __future__ import annotations

TEXTS: dict[str, dict[str, str]] = {
    # -- undo ------------------------------------------------------------------------------------
    "undo.button": {"en": "Undo", "es": "Deshacer"},
    "undo.story": {"en": "{player} took back: {moves}", "es": "{player} ha deshecho: {moves}"},
    "undo.done": {"en": "Taken back: {moves}", "es": "Deshecho: {moves}"},
    "undo.asked": {
        "en": "Your undo needs the other players' approval ({reason}); I asked them in the channel.",
        "es": "Tu deshacer necesita la aprobación de los demás ({reason}); se lo he preguntado en el canal.",
    },
    "undo.reason_revealed": {"en": "it revealed hidden information", "es": "reveló información oculta"},
    "undo.reason_others": {"en": "another player has moved since", "es": "otro jugador ha jugado después"},
    "undo.vote": {
        "en": "{player} asks to take back: {moves} ({reason}). {voters}: every other player must approve.",
        "es": "{player} pide deshacer: {moves} ({reason}). {voters}: todos los demás deben aprobarlo.",
    },
    "err.undo_nothing": {"en": "You have no move to take back.", "es": "No tienes ninguna jugada que deshacer."},
    "err.undo_refused_revealed": {
        "en": "You cannot take that back: it revealed hidden information, and there is nobody to approve it.",
        "es": "No puedes deshacer eso: reveló información oculta y no hay nadie que pueda aprobarlo.",
    },
    "err.undo_refused_others": {
        "en": "You cannot take that back: another player has moved since.",
        "es": "No puedes deshacer eso: otro jugador ha jugado después.",
    },
    "err.undo_needs_vote_revealed": {
        "en": "That move revealed hidden information: the other players must approve the undo.",
        "es": "Esa jugada reveló información oculta: los demás jugadores deben aprobar el deshacer.",
    },
    "err.undo_needs_vote_others": {
        "en": "Another player has moved since: they must approve the undo.",
        "es": "Otro jugador ha jugado después: debe aprobar el deshacer.",
    },
    "err.undo_already": {
        "en": "You already took that move back.",
        "es": "Ya has deshecho esa jugada.",
    },
    "err.undo_no_vote_needed": {"en": "No vote is needed for that undo.", "es": "Ese deshacer no necesita votación."},
    # -- votes -----------------------------------------------------------------------------------
    "vote.yes": {"en": "Approve", "es": "Aprobar"},
    "vote.no": {"en": "Refuse", "es": "Rechazar"},
    "vote.counted": {"en": "Vote counted ({yes}/{need}).", "es": "Voto registrado ({yes}/{need})."},
    "vote.passed": {"en": "Approved by {voters}.", "es": "Aprobado por {voters}."},
    "vote.rejected": {"en": "Refused by {voters}.", "es": "Rechazado por {voters}."},
    "vote.outdated": {
        "en": "This vote is out of date: the match has moved on since it was asked.",
        "es": "Esta votación está desactualizada: la partida ha avanzado desde que se pidió.",
    },
    "err.vote_over": {"en": "This vote is over.", "es": "Esta votación ha terminado."},
    "err.vote_not_yours": {"en": "This vote is not yours to cast.", "es": "No te corresponde votar aquí."},
    # -- abandon ---------------------------------------------------------------------------------
    "abandon.confirm": {
        "en": "Abandon match #{id} for everyone? This cannot be undone.",
        "es": "¿Abandonar la partida #{id} para todos? No se puede deshacer.",
    },
    "abandon.confirm_vote": {
        "en": "Ask the other players to abandon match #{id}? A majority of the players must agree.",
        "es": "¿Pedir a los demás que abandonen la partida #{id}? Debe estar de acuerdo la mayoría.",
    },
    "abandon.button": {"en": "Abandon the match", "es": "Abandonar la partida"},
    "abandon.ask_button": {"en": "Ask for a vote", "es": "Pedir votación"},
    "abandon.vote": {
        "en": "{player} asks to abandon match #{id}. {voters}: {need} more yes needed.",
        "es": "{player} pide abandonar la partida #{id}. {voters}: hacen falta {need} síes más.",
    },
    "abandon.asked": {"en": "I asked the other players.", "es": "Se lo he preguntado a los demás."},
    "abandon.seed": {
        "en": "Seed {seed}, salt {salt}: its SHA-256 is {hash} (shown at the start). The log is attached: check it with `python -m engines replay {file}`.",
        "es": "Semilla {seed}, sal {salt}: su SHA-256 es {hash} (mostrado al empezar). El registro va adjunto: compruébalo con `python -m engines replay {file}`.",
    },
    # -- leaving and replacing -------------------------------------------------------------------
    "seat.ai_name": {"en": "{name} (AI)", "es": "{name} (IA)"},
    "leave.done": {
        "en": "{player} left match #{id}; the AI plays their seat from now on.",
        "es": "{player} ha dejado la partida #{id}; la IA juega su puesto a partir de ahora.",
    },
    "leave.host": {"en": "{host} is the host now.", "es": "{host} es ahora el anfitrión."},
    "leave.ended": {
        "en": "{player} left match #{id}, and nobody is left to play: the match is abandoned.",
        "es": "{player} ha dejado la partida #{id} y no queda nadie: la partida queda abandonada.",
    },
    "seat.invite": {
        "en": "{host} invites you to take seat {seat} ({name}) in **{game}**, match #{id} in {channel}: you inherit its hand, score and turn. {link}",
        "es": "{host} te invita a ocupar el puesto {seat} ({name}) en **{game}**, partida #{id} en {channel}: heredas su mano, puntos y turno. {link}",
    },
    "seat.take": {"en": "Take the seat", "es": "Ocupar el puesto"},
    "seat.invited": {"en": "Invitation to seat {seat} sent to {user}.", "es": "Invitación al puesto {seat} enviada a {user}."},
    "seat.taken": {"en": "{player} takes seat {seat} (was {old}).", "es": "{player} ocupa el puesto {seat} (era {old})."},
    "err.seat_not_free": {
        "en": "Seat {seat} is not played by the AI: only an AI seat can be handed to someone.",
        "es": "El puesto {seat} no lo juega la IA: solo se puede ceder un puesto de la IA.",
    },
    "err.seat_not_invited": {"en": "You have no invitation to that seat.", "es": "No tienes invitación para ese puesto."},
    # -- verifiable shuffles ---------------------------------------------------------------------
    "seed.hash": {
        "en": "🔒 Shuffle commitment: SHA-256 `{hash}`. The seed is published with the log at the end, so anyone can check the deal.",
        "es": "🔒 Compromiso del barajado: SHA-256 `{hash}`. La semilla se publica con el registro al final, para que cualquiera compruebe el reparto.",
    },
    "seed.reveal": {
        "en": "🔓 Seed {seed}, salt `{salt}`: SHA-256 `{hash}`, as shown at the start. Check the attached log with `python -m engines replay {file}`.",
        "es": "🔓 Semilla {seed}, sal `{salt}`: SHA-256 `{hash}`, como al empezar. Comprueba el registro adjunto con `python -m engines replay {file}`.",
    },
    # -- rematch ---------------------------------------------------------------------------------
    "rematch.button": {"en": "Rematch", "es": "Revancha"},
    "rematch.started": {
        "en": "Rematch! {player} started match #{id} with the same players and options, and a new seed.",
        "es": "¡Revancha! {player} ha empezado la partida #{id} con los mismos jugadores y opciones, y una semilla nueva.",
    },
    "err.rematch_not_over": {"en": "A rematch is for a finished match.", "es": "La revancha es para una partida terminada."},
    "err.rematch_exists": {"en": "The rematch is already on: match #{id}.", "es": "La revancha ya está en marcha: partida #{id}."},
    # -- the log ---------------------------------------------------------------------------------
    "log.whole_title": {"en": "Moves of match #{id}:", "es": "Jugadas de la partida #{id}:"},
    "log.page": {"en": "Page {page}/{pages}", "es": "Página {page}/{pages}"},
    "log.older": {"en": "◀ Older", "es": "◀ Anteriores"},
    "log.newer": {"en": "Newer ▶", "es": "Siguientes ▶"},
    "log.left": {"en": "{player} left; the AI plays their seat", "es": "{player} se ha ido; la IA juega su puesto"},
    "log.seat_taken": {"en": "{player} took the seat of {old}", "es": "{player} ha ocupado el puesto de {old}"},
    "log.abandoned": {"en": "{player} abandoned the match", "es": "{player} ha abandonado la partida"},
    "log.abandoned_vote": {"en": "The players voted to abandon the match", "es": "Los jugadores han votado abandonar la partida"},
    "log.rematch": {"en": "{player} started a rematch: match #{id}", "es": "{player} ha empezado una revancha: partida #{id}"},
    # -- stats -----------------------------------------------------------------------------------
    "stats.title": {"en": "**Statistics of this server**", "es": "**Estadísticas de este servidor**"},
    "stats.none": {"en": "No finished match on this server yet.", "es": "Todavía no hay partidas terminadas en este servidor."},
    "stats.game": {"en": "{game}: {n} matches", "es": "{game}: {n} partidas"},
    "stats.player": {
        "en": "{player}: {played} played, {wins} won ({rate}%), {moves} moves, {avg} per move on average",
        "es": "{player}: {played} jugadas, {wins} ganadas ({rate} %), {moves} movimientos, {avg} por movimiento de media",
    },
    "stats.leaderboard": {"en": "**Leaderboard{game}**", "es": "**Clasificación{game}**"},
    "stats.row": {
        "en": "{rank}. {player}: {wins} wins in {played} matches ({rate}%)",
        "es": "{rank}. {player}: {wins} victorias en {played} partidas ({rate} %)",
    },
}

COMMANDS_ES: dict[str, str] = {
    "undo": "deshacer",
    "Take back your last move (the others approve when needed)": "Deshaz tu última jugada (los demás la aprueban si hace falta)",
    "leave": "salir",
    "Leave this match: the AI takes your seat": "Deja esta partida: la IA ocupa tu puesto",
    "seat": "puesto",
    "Hand an AI seat to someone (host)": "Cede un puesto de la IA a alguien (anfitrión)",
    "Who takes the seat": "Quién ocupa el puesto",
    "Seat number (default: the first seat someone left)": "Número de puesto (por defecto: el primero que alguien dejó)",
    "number": "numero",
    "stats": "estadisticas",
    "Matches, wins and time per move on this server": "Partidas, victorias y tiempo por jugada en este servidor",
    "leaderboard": "clasificacion",
    "Who wins most on this server": "Quién gana más en este servidor",
    "Only this game": "Solo este juego",
    "The whole match in words, page by page": "Toda la partida en palabras, página a página",
}
