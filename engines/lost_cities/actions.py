"""Lost Cities actions: one declaration per action (engines/tokens.py) gives the compact token a
Discord button carries and the keys of its words in bot/games/lost_cities.py.

Tokens (never change them: they live in Discord messages): ``p.red-7`` play, ``x.red-7``
discard, ``d.deck`` / ``d.red`` draw.
"""

from __future__ import annotations

from ..tokens import Arg, Codec, Decl

_CARD = r"(?:yellow|blue|white|green|red|purple)-(?:w[1-3]|[2-9]|10)"
_FROM = r"deck|yellow|blue|white|green|red|purple"

DECLS: tuple[Decl, ...] = (
    Decl("play", "p", (Arg("card", _CARD),), "d_play", "play"),
    Decl("discard", "x", (Arg("card", _CARD),), "d_discard", "discard"),
    Decl("draw", "d", (Arg("from", _FROM),), "d_deck", "deck"),
)
CODEC = Codec(DECLS)
BY_TYPE = {d.type: d for d in DECLS}
to_token = CODEC.to_token
from_token = CODEC.from_token

__all__ = ["BY_TYPE", "CODEC", "DECLS", "from_token", "to_token"]
