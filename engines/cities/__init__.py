"""Cities (Phil Walker-Harding and Steve Finn, Devir 2024) for 2-4 players.

Rules summary (our words): each player grows a neighbourhood (barrio) of 2x2-space city tiles,
at most 3x3 tiles (3x5 in the long two-player variant). Each round the board shows four rows:
A scoring cards, B city tiles, C feature tiles in groups 2/1/1/1+1, D building pieces in groups
4/3/3 plus the star space (2 pieces drawn from the bag). From the star holder, clockwise, players
put one worker at a time on a row slot and take what lies there: at most one worker per row per
round with 3-4 players; with 2 players 8 workers each, exactly two per row. A card is kept; a
tile is placed at once, edge-adjacent, any rotation; each feature goes on a free space of its
background (water, park, or an empty city space for grey ones); each piece goes on a city space
of its colour or on a stack of its colour, at most 4 high; a wild feature makes its space any
colour, fixed by the first piece. What cannot or will not be placed is removed from the game.
At the end of a turn the player claims every achievement now met (ring on the highest vacant
value). After the last round: rings + cards (per occurrence) + each water and park area by its
different features (1/3/6/10) + 2 per monument; ties go to achievement points, then are shared.

A turn is several actions: ``take`` a row slot, then one ``tile`` / ``feature`` / ``build`` /
``decline`` action per item taken, so ``legal()`` lists concrete placements. See docs/cities.md.

Modules: ``components`` (the catalogue), ``scoring`` (a neighbourhood and what it scores),
``state`` (the table and its JSON form), ``actions`` (action models and codes), ``setup`` (options,
a new table, dealing a round), ``game`` (the rules of a turn, views).
"""

from .actions import Action, Build, Decline, PlaceFeature, PlaceTile, StartPick, Take
from .components import ACHIEVEMENTS, CITY_IDS, MONUMENT, START_IDS
from .game import CARDS_VP, GAME, Cities, preview
from .setup import Options
from .state import (
    COVERED,
    HIDDEN,
    OVER,
    PHASES,
    PLACE,
    ROUNDS,
    ROUNDS_2P,
    ROUNDS_LONG,
    ROW_A,
    ROW_B,
    ROW_C,
    ROW_D,
    ROWS,
    STAR_DRAW,
    STAR_SLOT,
    START,
    TAKE,
    State,
    per_row,
    workers_per_seat,
)
from .state import item_id as _item_id  # noqa: F401 - the old private name, still imported by tests

__all__ = [
    "Action", "Build", "Decline", "PlaceFeature", "PlaceTile", "StartPick", "Take",
    "ACHIEVEMENTS", "CARDS_VP", "CITY_IDS", "COVERED", "GAME", "HIDDEN", "MONUMENT", "OVER", "PHASES",
    "PLACE", "ROUNDS", "ROUNDS_2P", "ROUNDS_LONG", "ROWS", "ROW_A", "ROW_B", "ROW_C", "ROW_D",
    "STAR_DRAW", "STAR_SLOT", "START", "START_IDS", "TAKE", "Cities", "Options", "State", "per_row",
    "preview", "workers_per_seat",
]
