"""Display names of Citadels characters, districts and colours in English and Spanish.

``name(kind, id, lang)`` with ``kind`` one of "character", "district", "colour" and ``lang`` "en" or
"es". District ids may be given as kinds ("trading_post") or card ids ("trading_post#2").
The Spanish district names are the project's own translation.
"""

from __future__ import annotations

CHARACTER_NAMES: dict[str, tuple[str, str]] = {
    "assassin": ("Assassin", "Asesino"),
    "thief": ("Thief", "Ladrón"),
    "magician": ("Magician", "Mago"),
    "king": ("King", "Rey"),
    "bishop": ("Bishop", "Obispo"),
    "merchant": ("Merchant", "Mercader"),
    "architect": ("Architect", "Arquitecto"),
    "warlord": ("Warlord", "Condotiero"),
    "witch": ("Witch", "Bruja"),
    "tax_collector": ("Tax Collector", "Recaudador"),
    "wizard": ("Wizard", "Hechicero"),
    "emperor": ("Emperor", "Emperador"),
    "abbot": ("Abbot", "Abad"),
    "alchemist": ("Alchemist", "Alquimista"),
    "navigator": ("Navigator", "Navegante"),
    "diplomat": ("Diplomat", "Diplomático"),
    "artist": ("Artist", "Artista"),
    "queen": ("Queen", "Reina"),
}

DISTRICT_NAMES: dict[str, tuple[str, str]] = {
    "manor": ("Manor", "Mansión"),
    "castle": ("Castle", "Castillo"),
    "palace": ("Palace", "Palacio"),
    "temple": ("Temple", "Templo"),
    "church": ("Church", "Iglesia"),
    "monastery": ("Monastery", "Monasterio"),
    "cathedral": ("Cathedral", "Catedral"),
    "tavern": ("Tavern", "Taberna"),
    "market": ("Market", "Mercado"),
    "trading_post": ("Trading Post", "Puesto comercial"),
    "docks": ("Docks", "Muelles"),
    "harbor": ("Harbor", "Puerto"),
    "town_hall": ("Town Hall", "Ayuntamiento"),
    "watchtower": ("Watchtower", "Atalaya"),
    "prison": ("Prison", "Prisión"),
    "battlefield": ("Battlefield", "Campo de batalla"),
    "fortress": ("Fortress", "Fortaleza"),
    "haunted_city": ("Haunted City", "Ciudad encantada"),
    "keep": ("Keep", "Torreón"),
    "laboratory": ("Laboratory", "Laboratorio"),
    "smithy": ("Smithy", "Herrería"),
    "observatory": ("Observatory", "Observatorio"),
    "graveyard": ("Graveyard", "Cementerio"),
    "dragon_gate": ("Dragon Gate", "Puerta del dragón"),
    "university": ("University", "Universidad"),
    "library": ("Library", "Biblioteca"),
    "great_wall": ("Great Wall", "Gran muralla"),
    "school_of_magic": ("School of Magic", "Escuela de magia"),
    "lighthouse": ("Lighthouse", "Faro"),
    "armory": ("Armory", "Polvorín"),
    "museum": ("Museum", "Museo"),
    "imperial_treasury": ("Imperial Treasury", "Tesoro imperial"),
    "map_room": ("Map Room", "Sala de mapas"),
    "wishing_well": ("Wishing Well", "Pozo de los deseos"),
    "quarry": ("Quarry", "Cantera"),
    "poor_house": ("Poor House", "Asilo"),
    "bell_tower": ("Bell Tower", "Campanario"),
    "factory": ("Factory", "Fábrica"),
    "park": ("Park", "Parque"),
    "hospital": ("Hospital", "Hospital"),
    "throne_room": ("Throne Room", "Sala del trono"),
    "ball_room": ("Ball Room", "Salón de baile"),
}

COLOUR_NAMES: dict[str, tuple[str, str]] = {
    "yellow": ("noble (yellow)", "nobiliario (amarillo)"),
    "blue": ("religious (blue)", "religioso (azul)"),
    "green": ("trade (green)", "comercial (verde)"),
    "red": ("military (red)", "militar (rojo)"),
    "purple": ("special (purple)", "maravilla (violeta)"),
}

_TABLES = {"character": CHARACTER_NAMES, "district": DISTRICT_NAMES, "colour": COLOUR_NAMES}
LANGS = ("en", "es")


def name(kind: str, id: str, lang: str = "en") -> str:
    """Display name of a character, district (kind or card id) or colour. KeyError if unknown."""
    table = _TABLES[kind]
    key = id.split("#", 1)[0] if kind == "district" else id
    pair = table[key]
    return pair[LANGS.index(lang)] if lang in LANGS else pair[0]
