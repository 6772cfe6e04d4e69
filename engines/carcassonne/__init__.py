"""Carcassonne (Klaus-Jürgen Wrede) base game: 72 tiles, 2-6 players, 7 meeples each.

Rules summary (our words): the start tile lies face up; in turn each player draws a tile and adds
it to the table so that it touches at least one tile and every touching edge matches (city to
city, road to road, field to field). A tile that fits nowhere is set aside and another is drawn.
The player may then put one meeple from their supply on a feature of the tile just placed (a
road, a city, the monastery or a field) unless that feature, through its connections, already
holds a meeple. A finished road (1 point per tile), city (2 per tile and per pennant) or
monastery (9, once its 8 neighbours are all placed) scores at once for the player(s) with most
meeples on it, and those meeples go back. At the end unfinished features score 1 per tile / per
pennant / per tile around the monastery, and farmers score their fields. Option ``rules`` picks
the 1st, 2nd or 3rd (current) edition farm and 2-tile-city scoring; ``sets`` shuffles N copies of
the tile set for marathon tables; ``medina`` adds the Medina Azahara tile (see docs/carcassonne.md).

Modules: ``tiles`` (the tile data), ``board`` (the table and its union-find of features),
``scoring`` (features and farms), ``game`` (the rules of a turn, setups, views, JSON).
"""

from .board import MEEPLES, State
from .game import ARCHAEOLOGIST_USES, GAME, USE, Carcassonne, Options

__all__ = ["ARCHAEOLOGIST_USES", "GAME", "MEEPLES", "USE", "Carcassonne", "Options", "State"]
