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

from engines.citadels import actions as A
from engines.citadels import cards as C
from engines.citadels import texts as CT
from engines.citadels.names import name

from . import paging
from .base import Choice, Controls, GameUI, Manifest, PrefsError

# -- texts ---------------------------------------------------------------------------------------

T: dict[str, tuple[str, str]] = {
    "seat": ("Player {n}", "Jugador {n}"),
    "draft_pick": ("Round {round} · your pick: choose a character.", "Ronda {round} · te toca elegir personaje."),
    "draft_discard": (
        "Round {round}: set one of these characters aside face down (nobody will play it).",
        "Ronda {round}: aparta boca abajo uno de estos personajes (nadie lo jugará).",
    ),
    "face_up": ("Set aside face up (nobody has them): {list}.", "Apartados boca arriba (nadie los tiene): {list}."),
    "face_down": ("Face down: {n}.", "Boca abajo: {n}."),
    "you_have": ("You already hold: {list}.", "Ya tienes: {list}."),
    "you_discarded": ("You set aside: {list}.", "Apartaste: {list}."),
    "seen_before": ("Earlier this round you saw: {list}.", "Antes, en esta ronda, viste: {list}."),
    "passed_on": ("In the draft you passed on: {list}.", "En la elección dejaste pasar: {list}."),
    "purse": ("You have {gold} gold and {cards} cards; your city: {city}/{end} districts.", "Tienes {gold} de oro y {cards} cartas; tu ciudad: {city}/{end} distritos."),
    "take": ("Take the {ch}", "Elegir {ch}"),
    "set_aside": ("Set aside the {ch}", "Apartar {ch}"),
    "turn_head": ("Round {round} · you are the **{ch}** ({rank}).", "Ronda {round} · tu personaje es **{ch}** ({rank})."),
    "turn_victim": (
        "Round {round} · you are the **{ch}**, bewitched: take gold or cards, then your turn ends (the Witch uses your power).",
        "Ronda {round} · tu personaje, **{ch}**, está hechizado: toma oro o cartas y tu turno acaba (la Bruja usa tu poder).",
    ),
    "turn_hospital": (
        "Round {round} · you are the murdered **{ch}**, but your Hospital lets you take gold or cards.",
        "Ronda {round} · tu personaje, **{ch}**, fue asesinado, pero tu Hospital te deja tomar oro o cartas.",
    ),
    "turn_witch": (
        "Round {round} · as the Witch you play the bewitched **{ch}**'s turn with its power.",
        "Ronda {round} · como Bruja juegas el turno del personaje hechizado, **{ch}**, con su poder.",
    ),
    "income_first": ("First: take 2 gold or draw cards.", "Primero: toma 2 de oro o roba cartas."),
    "income_due": ("Still to do: take 2 gold or draw cards (before or after building).",
                   "Pendiente: toma 2 de oro o roba cartas (antes o después de construir)."),
    "builds_left": ("You may build {n} more.", "Puedes construir {n} más."),
    "no_build": ("No more building this turn.", "No puedes construir más este turno."),
    "must_thank": (
        "The crown holder has the Ball Room: thank them first, or you lose the turn.",
        "Quien tiene la corona tiene el Salón de baile: dale las gracias primero o perderás el turno.",
    ),
    "targets": ("Murdered: {m} · robbed: {r} · bewitched: {b}.", "Asesinado: {m} · robado: {r} · hechizado: {b}."),
    "none": ("-", "-"),
    "placeholder": ("Choose a district…", "Elige un distrito…"),
    "keep_head": ("Keep {k} of the cards you drew:", "Quédate con {k} de las cartas robadas:"),
    "redraw_head": (
        "Discard more cards to the bottom of the deck, or draw {n} new cards now.",
        "Descarta más cartas bajo el mazo o roba ya {n} cartas nuevas.",
    ),
    "wizard_head": ("Take one card from {who}'s hand:", "Toma una carta de la mano de {who}:"),
    "graveyard_head": (
        "The Warlord destroyed the {d}: pay 1 gold to take it into your hand (Graveyard)?",
        "El Condotiero destruyó {d}: ¿pagas 1 de oro para recuperarlo en tu mano (Cementerio)?",
    ),
    "tribute_head": (
        "{who} gave you the crown (Emperor): pay 1 gold or 1 card.",
        "{who} te dio la corona (Emperador): paga 1 de oro o 1 carta.",
    ),
    "lighthouse_head": ("Lighthouse: take any card of the deck.", "Faro: toma cualquier carta del mazo."),
    "bell_head": (
        "Bell Tower: announce that the game ends when a city has 7 districts?",
        "Campanario: ¿anuncias que la partida acaba cuando una ciudad tenga 7 distritos?",
    ),
    "waiting": ("Nothing to do.", "Nada que hacer."),
    # buttons
    "b_gold": ("Take 2 gold", "Tomar 2 de oro"),
    "b_cards": ("Draw cards", "Robar cartas"),
    "b_end": ("End the turn", "Terminar el turno"),
    "b_collect": ("Collect {colour} gold (+{n})", "Cobrar por tus distritos {colour} (+{n})"),
    "b_collect_any": ("Collect district gold", "Cobrar por tus distritos"),
    "b_thank": ("Thank you, your Excellency", "Gracias, Excelencia"),
    "b_smithy": ("Smithy: 2 gold → 3 cards", "Herrería: 2 de oro → 3 cartas"),
    "b_mdraw": ("Draw the new cards", "Robar las cartas nuevas"),
    "b_nav_gold": ("Navigator: +4 gold", "Navegante: +4 de oro"),
    "b_nav_cards": ("Navigator: +4 cards", "Navegante: +4 cartas"),
    "b_murder": ("Murder the {ch}", "Asesinar al personaje {ch}"),
    "b_bewitch": ("Bewitch the {ch}", "Hechizar al personaje {ch}"),
    "b_rob": ("Rob the {ch}", "Robar al personaje {ch}"),
    "b_swap": ("Swap hands with {who}", "Cambiar mano con {who}"),
    "b_look": ("Look at {who}'s hand", "Mirar la mano de {who}"),
    "b_crown": ("Give the crown to {who}", "Dar la corona a {who}"),
    "b_abbot": ("Take 1 gold from {who}", "Tomar 1 de oro de {who}"),
    "b_keep": ("Keep {d}", "Quedarme con {d}"),
    "b_gy_yes": ("Take it back (1 gold)", "Recuperarlo (1 de oro)"),
    "b_gy_no": ("Let it go", "Dejarlo"),
    "l_tribute_gold": ("Pay 1 gold", "Pagar 1 de oro"),
    "b_bell_yes": ("Announce: end at 7", "Anunciar: fin con 7"),
    "b_bell_no": ("No announcement", "Sin anuncio"),
    "b_back": ("← Back", "← Volver"),
    # select groups
    "g_build": ("Build a district", "Construir un distrito"),
    "g_mdiscard": ("Magician: discard cards and redraw", "Mago: descartar y robar cartas"),
    "g_lab": ("Laboratory: discard a card for 1 gold", "Laboratorio: descarta una carta por 1 de oro"),
    "g_museum": ("Museum: put a card under it", "Museo: guarda una carta debajo"),
    "g_beautify": ("Artist: beautify a district (1 gold)", "Artista: embellecer un distrito (1 de oro)"),
    "g_destroy": ("Warlord: destroy a district", "Condotiero: destruir un distrito"),
    "g_exchange": ("Diplomat: exchange districts", "Diplomático: cambiar distritos"),
    "g_armory": ("Armory: blow it up with a district", "Polvorín: volarlo junto con un distrito"),
    "g_wizard": ("Take a card", "Tomar una carta"),
    "g_tribute": ("Pay with a card", "Pagar con una carta"),
    "g_lighthouse": ("Lighthouse: take a card", "Faro: tomar una carta"),
    "g_choices": ("{n} choices", "{n} opciones"),
    # select / confirm labels
    "l_build": ("Build {d}", "Construir {d}"),
    "l_mdiscard": ("Discard {d}", "Descartar {d}"),
    "l_lab": ("Discard {d} for 1 gold", "Descartar {d} por 1 de oro"),
    "l_museum": ("Put {d} under the Museum", "Guardar {d} bajo el Museo"),
    "l_beautify": ("Beautify {d}", "Embellecer {d}"),
    "l_destroy": ("Destroy {d} of {who} ({gold} gold)", "Destruir {d} de {who} ({gold} de oro)"),
    "l_exchange": ("Give {give}, take {d} of {who}", "Dar {give}, tomar {d} de {who}"),
    "l_exchange_take": ("Take {d} of {who}", "Tomar {d} de {who}"),
    "l_armory": ("Blow up {d} of {who}", "Volar {d} de {who}"),
    "l_wtake_no": ("Take {d}", "Tomar {d}"),
    "l_wtake_yes": ("Take and build {d}", "Tomar y construir {d}"),
    "l_tribute_card": ("Give {d}", "Entregar {d}"),
    "l_lighthouse": ("Take {d}", "Tomar {d}"),
    "d_card": ("{colour} · costs {cost}", "{colour} · cuesta {cost}"),
    "city_of": ("{who}'s city", "Ciudad de {who}"),
    # the story (describe)
    "s_draft": ("{who} picks a character", "{who} elige un personaje"),
    "s_discard_character": ("{who} sets a character aside face down", "{who} aparta un personaje boca abajo"),
    "s_income_gold": ("{who} takes 2 gold", "{who} toma 2 de oro"),
    "s_income_cards": ("{who} draws cards", "{who} roba cartas"),
    "s_keep": ("{who} keeps a card", "{who} se queda con una carta"),
    "s_build": ("{who} builds the {d}", "{who} construye el distrito {d}"),
    "s_end_turn": ("{who} ends the turn", "{who} termina el turno"),
    "s_collect": ("{who} collects gold for their districts", "{who} cobra oro por sus distritos"),
    "s_thank": ("{who}: “Thank you, your Excellency”", "{who}: «Gracias, Excelencia»"),
    "s_murder": ("{who} murders the {ch}", "{who} asesina al personaje {ch}"),
    "s_bewitch": ("{who} bewitches the {ch}", "{who} hechiza al personaje {ch}"),
    "s_rob": ("{who} will rob the {ch}", "{who} robará al personaje {ch}"),
    "s_swap_hands": ("{who} swaps hands with {other}", "{who} cambia su mano con {other}"),
    "s_magician_discard": ("{who} discards a card to redraw", "{who} descarta una carta para robar otra"),
    "s_magician_draw": ("{who} draws new cards", "{who} roba cartas nuevas"),
    "s_wizard_look": ("{who} looks at {other}'s hand", "{who} mira la mano de {other}"),
    "s_wizard_take_no": ("{who} takes a card", "{who} toma una carta"),
    "s_wizard_take_yes": ("{who} takes and builds the {d}", "{who} toma y construye el distrito {d}"),
    "s_give_crown": ("{who} gives the crown to {other}", "{who} da la corona a {other}"),
    "s_tribute_gold": ("{who} pays 1 gold for the crown", "{who} paga 1 de oro por la corona"),
    "s_tribute_card": ("{who} pays a card for the crown", "{who} paga una carta por la corona"),
    "s_abbot_take": ("{who} takes 1 gold from {other}", "{who} toma 1 de oro de {other}"),
    "s_navigate_gold": ("{who} takes 4 gold (Navigator)", "{who} toma 4 de oro (Navegante)"),
    "s_navigate_cards": ("{who} draws 4 cards (Navigator)", "{who} roba 4 cartas (Navegante)"),
    "s_destroy": ("{who} destroys the {d}", "{who} destruye {d}"),
    "s_exchange": ("{who} exchanges the {give} for the {d}", "{who} cambia {give} por {d}"),
    "s_beautify": ("{who} beautifies the {d}", "{who} embellece {d}"),
    "s_laboratory": ("{who} discards a card for 1 gold (Laboratory)", "{who} descarta una carta por 1 de oro (Laboratorio)"),
    "s_smithy": ("{who} pays 2 gold for 3 cards (Smithy)", "{who} paga 2 de oro por 3 cartas (Herrería)"),
    "s_museum": ("{who} puts a card under the Museum", "{who} guarda una carta bajo el Museo"),
    "s_armory": ("{who} blows up the Armory and the {d}", "{who} vuela el Polvorín y {d}"),
    "s_graveyard_yes": ("{who} takes back the destroyed district (Graveyard)", "{who} recupera el distrito destruido (Cementerio)"),
    "s_graveyard_no": ("{who} lets the destroyed district go", "{who} deja ir el distrito destruido"),
    "s_lighthouse": ("{who} takes a card from the deck (Lighthouse)", "{who} toma una carta del mazo (Faro)"),
    "s_bell_yes": ("{who} announces the end at 7 districts (Bell Tower)", "{who} anuncia el final con 7 distritos (Campanario)"),
    "s_bell_no": ("{who} makes no announcement (Bell Tower)", "{who} no hace ningún anuncio (Campanario)"),
    # status
    "st_draft": ("Round {round} · character draft: {who} picks ({i}/{n})", "Ronda {round} · elección de personajes: elige {who} ({i}/{n})"),
    "st_turn": ("Round {round} · {rank}. {ch}: {who}", "Ronda {round} · {rank}. {ch}: {who}"),
    "st_pending": ("waiting for {who}", "esperando a {who}"),
    "st_tail": ("crown: {crown} · deck {deck} · leader: {lead} ({pts})", "corona: {crown} · mazo {deck} · en cabeza: {lead} ({pts})"),
    "st_over": ("Game over after {round} rounds", "Partida terminada tras {round} rondas"),
}

# short colour words for labels, with a coloured square so they read at a glance
COLOUR_WORD = {
    "yellow": ("🟨 noble", "🟨 noble"),
    "blue": ("🟦 religious", "🟦 religioso"),
    "green": ("🟩 trade", "🟩 comercial"),
    "red": ("🟥 military", "🟥 militar"),
    "purple": ("🟪 special", "🟪 especial"),
}
COLOUR_ADJ = {  # for "Collect {colour} gold" / "Cobrar por tus distritos {colour}" (plural in Spanish)
    "yellow": ("noble", "nobles"),
    "blue": ("religious", "religiosos"),
    "green": ("trade", "comerciales"),
    "red": ("military", "militares"),
}

POWERS: dict[str, tuple[str, str]] = {
    "assassin": ("murders a character: it loses its turn", "asesina a un personaje: pierde su turno"),
    "thief": ("robs a character (rank 3+): takes all its gold", "roba a un personaje (rango 3+): se lleva todo su oro"),
    "magician": ("swaps hands with a player, or discards and redraws", "cambia su mano con un jugador, o descarta y roba"),
    "king": ("takes the crown; +1 gold per noble district", "toma la corona; +1 de oro por distrito noble"),
    "bishop": ("+1 per religious district; the Warlord can't touch his city", "+1 por distrito religioso; el Condotiero no toca su ciudad"),
    "merchant": ("+1 gold, +1 per trade district", "+1 de oro, +1 por distrito comercial"),
    "architect": ("draws 2 more cards; may build 3 districts", "roba 2 cartas más; puede construir 3 distritos"),
    "warlord": ("+1 per military district; may destroy a district", "+1 por distrito militar; puede destruir un distrito"),
    "witch": ("bewitches a character and plays its power", "hechiza a un personaje y juega su poder"),
    "tax_collector": ("1 gold from every player who builds", "1 de oro de cada jugador que construye"),
    "wizard": ("looks at a hand and takes a card (may build it)", "mira una mano y toma una carta (puede construirla)"),
    "emperor": ("+1 per noble district; gives the crown for a tribute", "+1 por distrito noble; da la corona a cambio de un tributo"),
    "abbot": ("+1 per religious district; 1 gold from the richest", "+1 por distrito religioso; 1 de oro del más rico"),
    "alchemist": ("gets back the gold spent building", "recupera el oro gastado en construir"),
    "navigator": ("+4 gold or +4 cards; cannot build", "+4 de oro o +4 cartas; no puede construir"),
    "diplomat": ("+1 per military district; exchanges a district", "+1 por distrito militar; intercambia un distrito"),
    "artist": ("beautifies up to 2 districts (+1 point each)", "embellece hasta 2 distritos (+1 punto cada uno)"),
    "queen": ("+3 gold when sitting next to the King", "+3 de oro si se sienta junto al Rey"),
}


PURPLE: dict[str, tuple[str, str]] = {  # what a special district does, in a few words
    "haunted_city": ("any colour for the five-colour bonus", "cualquier color para el bono de cinco colores"),
    "keep": ("the Warlord cannot destroy it", "el Condotiero no puede destruirlo"),
    "laboratory": ("once a turn: discard a card for 1 gold", "una vez por turno: descarta una carta por 1 de oro"),
    "smithy": ("once a turn: pay 2 gold, draw 3 cards", "una vez por turno: paga 2 de oro y roba 3 cartas"),
    "observatory": ("draw 3 cards instead of 2", "roba 3 cartas en vez de 2"),
    "graveyard": ("buy back a destroyed district for 1 gold", "recupera por 1 de oro un distrito destruido"),
    "dragon_gate": ("worth 8 points", "vale 8 puntos"),
    "university": ("worth 8 points", "vale 8 puntos"),
    "library": ("keep every card you draw", "te quedas todas las cartas que robas"),
    "great_wall": ("the Warlord pays 1 more for your districts", "el Condotiero paga 1 más por tus distritos"),
    "school_of_magic": ("counts as your character's colour for income", "cuenta como el color de tu personaje al cobrar"),
    "lighthouse": ("when built, take any card of the deck", "al construirlo, toma cualquier carta del mazo"),
    "armory": ("blow it up to destroy any district", "vuélalo para destruir cualquier distrito"),
    "museum": ("tuck a card under it each turn: +1 point each", "guarda una carta debajo cada turno: +1 punto cada una"),
    "imperial_treasury": ("+1 point per gold at the end", "+1 punto por cada oro al final"),
    "map_room": ("+1 point per card in hand at the end", "+1 punto por carta en la mano al final"),
    "wishing_well": ("+1 point per other purple district", "+1 punto por cada otro distrito violeta"),
    "quarry": ("you may build one repeated district", "puedes construir un distrito repetido"),
    "poor_house": ("end a turn with no gold: +1 gold", "si acabas el turno sin oro: +1 de oro"),
    "bell_tower": ("may end the game at 7 districts", "puede hacer que la partida acabe con 7 distritos"),
    "factory": ("other purple districts cost you 1 less", "los demás distritos violetas te cuestan 1 menos"),
    "park": ("end a turn with no cards: draw 2", "si acabas el turno sin cartas: roba 2"),
    "hospital": ("murdered, you still take gold or cards", "si te asesinan, aún tomas oro o cartas"),
    "throne_room": ("+1 gold whenever the crown changes hands", "+1 de oro cada vez que cambia la corona"),
    "ball_room": ("with the crown, others must thank you first", "con la corona, los demás deben darte las gracias"),
}


def tr(key: str, lang: str, **kw: Any) -> str:
    return T[key][1 if lang == "es" else 0].format(**kw)


def ch_name(ch: str, lang: str) -> str:
    return name("character", ch, lang)


def d_name(did: str, lang: str) -> str:
    return name("district", did, lang)


def seat_name(view: dict[str, Any], seat: int, lang: str) -> str:
    names = view.get("names") or []
    if 0 <= seat < len(names) and names[seat]:
        return str(names[seat])
    return tr("seat", lang, n=seat + 1)


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
    i = 1 if lang == "es" else 0
    colour = COLOUR_WORD.get(card["colour"], (card["colour"],) * 2)[i]
    if card["kind"] in PURPLE:
        colour = f"🟪 {PURPLE[card['kind']][i]}"
    return tr("d_card", lang, colour=colour, cost=card["cost"])


def _card_label(did: str, lang: str, cost: int | None = None) -> str:
    c = C.card_json(C.CARD_OF_ID[did])
    sq = COLOUR_WORD[c["colour"]][0].split()[0]
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
            words["ch"] = ch_name(v, lang)
        elif arg.kind == "seat":
            words["who"] = seat_name(view, v, lang)
        elif arg.kind == "card" or (arg.kind == "pay" and a.get("card")):
            did = a["card"] if arg.kind == "pay" else v
            words["give" if arg.name == "give" else "d"] = d_name(did, lang)
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
            label = tr("b_collect", lang, colour=COLOUR_ADJ[colour][1 if lang == "es" else 0], n=n) if colour and n is not None else tr("b_collect_any", lang)
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
    sub = (card["colour"], COLOUR_WORD[card["colour"]][1 if lang == "es" else 0]) if op == "lighthouse" else None
    sq = COLOUR_WORD[card["colour"]][0].split()[0]
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
            out.append(Choice(tr(GROUP_KEYS[g], "es" if lang == "es" else "en"), f"@{g}", description=tr("g_choices", lang, n=n)))
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


# The illustrated guide of /partida rules (render/citadels_guide.py draws it with these words).
GUIDE: dict[str, dict[str, str]] = {
    "en": {
        "cit1_title": "Citadels · a round",
        "cit1_draft": "1. Starting with the crown, each player secretly picks a character",
        "cit1_call": "2. Characters are called in rank order: 1, 2, 3… the one who holds it plays its turn",
        "cit1_power": "Each character has a power: the Assassin (1) makes one lose its turn, the King (4) takes the crown…",
        "cit2_title": "Citadels · your turn",
        "cit2_income": "1. Take 2 gold or draw 2 cards and keep 1",
        "cit2_build": "2. Build at most one district from your hand: pay its cost in gold",
        "cit2_score": "The round a city reaches 8 districts is the last. Points: district costs, +3 for all five colours, +4 first complete city (+2 the others), special districts",
        "gold": "gold",
        "cards": "cards",
        "city": "Your city",
    },
    "es": {
        "cit1_title": "Ciudadelas · una ronda",
        "cit1_draft": "1. Empezando por quien tiene la corona, cada jugador elige en secreto un personaje",
        "cit1_call": "2. Los personajes se llaman por rango: 1, 2, 3… quien lo tiene juega su turno",
        "cit1_power": "Cada personaje tiene un poder: el Asesino (1) hace perder el turno a otro, el Rey (4) toma la corona…",
        "cit2_title": "Ciudadelas · tu turno",
        "cit2_income": "1. Toma 2 de oro o roba 2 cartas y quédate con 1",
        "cit2_build": "2. Construye como mucho un distrito de tu mano: paga su coste en oro",
        "cit2_score": "La ronda en que una ciudad llega a 8 distritos es la última. Puntos: coste de los distritos, +3 por los cinco colores, +4 la primera ciudad completa (+2 las demás), distritos especiales",
        "gold": "oro",
        "cards": "cartas",
        "city": "Tu ciudad",
    },
}


class CitadelsUI(GameUI):
    key = "citadels"
    rules = {
        "en": (
            "**Citadels** (2-8 players). Each round everyone secretly drafts a character (crown holder "
            "first; some cards are set aside). Characters are then called in rank order: 1 Assassin, "
            "2 Thief, 3 Magician, 4 King, 5 Bishop, 6 Merchant, 7 Architect, 8 Warlord. On your turn: "
            "take 2 gold **or** draw 2 cards and keep 1, then build at most one district from your hand "
            "(pay its cost; no two with the same name) and use your character's power. The round after a "
            "city reaches 8 districts the game ends: district costs + 3 for all five colours + 4 for the "
            "first complete city (2 for the others) + purple bonuses. Leave a draft priority list with "
            "`/partida prefer orders: Architect, King, Merchant`."
        ),
        "es": (
            "**Ciudadelas** (2-8 jugadores). Cada ronda todos eligen en secreto un personaje (empieza quien "
            "tiene la corona; algunos se apartan). Después se llaman por rango: 1 Asesino, 2 Ladrón, 3 Mago, "
            "4 Rey, 5 Obispo, 6 Mercader, 7 Arquitecto, 8 Condotiero. En tu turno: toma 2 de oro **o** roba "
            "2 cartas y quédate con 1; después construye como mucho un distrito de tu mano (pagando su coste; "
            "nunca dos con el mismo nombre) y usa el poder de tu personaje. Al acabar la ronda en que una "
            "ciudad llega a 8 distritos termina la partida: coste de los distritos + 3 por los cinco colores "
            "+ 4 por la primera ciudad completa (2 las demás) + bonos violetas. Deja tu lista de preferencia "
            "con `/partida preferencias órdenes: Arquitecto, Rey, Mercader`."
        ),
    }
    guide = GUIDE

    def guide_images(self, lang):
        from render.citadels_guide import guide_images

        return self._guide(guide_images, lang)

    # the engine's refusal texts (engines/citadels/texts.py)
    refusals = {code: {"en": en, "es": es} for code, (en, es) in CT.ERRORS.items()}

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
                lines.append(f"**{C.RANK[c]} · {ch_name(c, lang)}** — {POWERS[c][1 if lang == 'es' else 0]}")
        elif pending is not None and pending.get("seat") == me:
            lines.extend(self._pending_text(view, pending, lang))
        elif view.get("turn"):
            tn = view["turn"]
            ch = ch_name(tn["character"], lang)
            key = {"victim": "turn_victim", "hospital": "turn_hospital", "witch": "turn_witch"}.get(tn.get("mode"), "turn_head")
            lines.append(tr(key, lang, round=rnd, ch=ch, rank=tn.get("rank")))
            if tn.get("mode") == "normal":
                lines.append(f"_{POWERS[tn['character']][1 if lang == 'es' else 0]}_")
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
            lines.append(tr("purse", lang, gold=player["gold"], cards=player["hand_size"], city=len(player["city"]),
                            end=view.get("districts_to_end", 8)))
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
            return [tr("graveyard_head", lang, d=d_name(p["district"]["id"], lang))]
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
                words["ch"] = ch_name(v, lang)
            elif arg.kind == "seat":
                words["other"] = seat_name({"names": names}, v, lang)
            elif arg.kind == "card":
                words["give" if arg.name == "give" else "d"] = d_name(v, lang)
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
    s = re.sub(r"^(the|el|la)\s+", "", s)
    return re.sub(r"[\s_\-]+", " ", s).strip()


def _character_names() -> dict[str, tuple[str, str]]:
    from engines.citadels.names import CHARACTER_NAMES

    return CHARACTER_NAMES


MANIFEST = Manifest("citadels", CitadelsUI())
