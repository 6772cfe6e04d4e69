"""FROZEN REFERENCE: the Lost Cities engine as it was before the compact state (issue 14).

Kept only so tests can check the fast engine gives identical states, views and scores for the
same seed and log. Do not change it. Original docstring follows.

Lost Cities (Reiner Knizia) for two players, over a match of several rounds.

Rules summary (our words): 60 cards, five expeditions (yellow, blue, white, green, red), each with
number cards 2-10 and three wager cards; the optional purple expedition adds a sixth colour. Each
player holds 8 cards. A turn is two steps: play a card onto your own expedition of its colour or
discard it face up onto that colour's pile, then draw the top card of the deck or of any discard
pile except the card you just discarded. An expedition strictly increases; wagers may only start
it (several are allowed) before its first number card. The round ends the moment the last deck
card is drawn. Each started expedition scores (sum of numbers - 20) x (1 + wagers), plus an
unmultiplied 20 when it holds 8 or more cards (wagers count). Rounds add up; the player ahead
starts the next round (on a tie, the player who did not start the round just played).

Internal codes (ints): a card is ``colour * 12 + slot`` (slots 0-2 wagers, 3-11 numbers 2-10);
actions are ``card`` (play), ``DISCARD + card`` (discard), ``DRAW_DECK``, ``DRAW_PILE + colour``.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field

from engines.core import (
    BadAction,
    BadSetup,
    Event,
    Game,
    IllegalAction,
    Outcome,
    Result,
    StrictModel,
    rank_by,
)
from engines.rng import Rng

COLOURS = ("yellow", "blue", "white", "green", "red", "purple")
HAND_SIZE = 8
SLOTS = 12  # 3 wagers + numbers 2..10
DISCARD = 100
DRAW_DECK = 200
DRAW_PILE = 201


def card_id(card: int) -> str:
    colour, slot = divmod(card, SLOTS)
    return f"{COLOURS[colour]}-w{slot + 1}" if slot < 3 else f"{COLOURS[colour]}-{slot - 1}"


CARD_NAMES = [card_id(c) for c in range(len(COLOURS) * SLOTS)]
CARD_IDS = {name: c for c, name in enumerate(CARD_NAMES)}
RANK = [0 if c % SLOTS < 3 else c % SLOTS - 1 for c in range(len(COLOURS) * SLOTS)]  # 0 = wager
COLOUR_OF = [c // SLOTS for c in range(len(COLOURS) * SLOTS)]


def expedition_score(cards: list[int]) -> int:
    """(sum - 20) x (1 + wagers), + 20 unmultiplied for 8 or more cards; 0 if never started."""
    if not cards:
        return 0
    wagers = 0
    total = 0
    for c in cards:
        r = RANK[c]
        if r:
            total += r
        else:
            wagers += 1
    return (total - 20) * (1 + wagers) + (20 if len(cards) >= 8 else 0)


# Outcomes of the common actions are built once and shared (outcomes and events are read-only
# values): a random playout then allocates nothing per play, discard or draw.
_OUTCOMES = [
    {
        **{c: Outcome([Event("play", seat, {"card": CARD_NAMES[c]})], False) for c in range(len(CARD_NAMES))},
        **{DISCARD + c: Outcome([Event("discard", seat, {"card": CARD_NAMES[c]})], False) for c in range(len(CARD_NAMES))},
    }
    for seat in (0, 1)
]
_DRAW_OUTCOMES = [
    (
        # from a discard pile: public
        [Outcome([Event("draw", seat, {"from": COLOURS[c // SLOTS], "card": CARD_NAMES[c]})], False, turn_ended=True)
         for c in range(len(CARD_NAMES))],
        # from the deck: only the drawer learns the card
        [Outcome([Event("draw", seat, {"from": "deck", "card": CARD_NAMES[c]}, private_to=(seat,))], True, turn_ended=True)
         for c in range(len(CARD_NAMES))],
    )
    for seat in (0, 1)
]

# -- options and actions --------------------------------------------------------------------------


class Options(StrictModel):
    rounds: int = Field(3, ge=1, le=5, description="Rounds in the match (1-5)")
    purple: bool = Field(False, description="Add the sixth, purple expedition")


class Play(StrictModel):
    type: Literal["play"]
    card: str


class Discard(StrictModel):
    type: Literal["discard"]
    card: str


class Draw(StrictModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)
    type: Literal["draw"]
    from_: str = Field(alias="from")


Action = Annotated[Play | Discard | Draw, Field(discriminator="type")]


# -- state ----------------------------------------------------------------------------------------

PLAY, DRAW, OVER = 0, 1, 2
PHASES = ("play", "draw", "over")
_MOVER = ((0,), (1,))


class State:
    __slots__ = (
        "colours", "rounds", "round", "hands", "exps", "tops", "piles", "deck", "turn", "phase",
        "just", "round_scores", "starters", "rng", "setup", "last",
    )

    def __init__(self) -> None:
        self.colours = 5
        self.rounds = 3
        self.round = 0
        self.hands: list[list[int]] = [[], []]
        self.exps: list[list[list[int]]] = []
        self.tops: list[list[int]] = []  # rank of each expedition's top card, -1 when empty
        self.piles: list[list[int]] = []
        self.deck: list[int] = []  # top of the deck is the END of the list
        self.turn = 0
        self.phase = PLAY
        self.just = -1  # colour discarded this turn
        self.round_scores: list[list[int]] = []
        self.starters: list[int] = []
        self.rng: Rng | None = None
        self.setup: dict | None = None
        self.last: list | None = None  # [seat, card, "play"|"discard", draw source or None]

    def totals(self) -> list[int]:
        return [sum(r[s] for r in self.round_scores) for s in (0, 1)]


class LostCities(Game[State]):
    key = "lost-cities"
    name = "Lost Cities"
    names = {"en": "Lost Cities", "es": "Lost Cities (Ciudades Perdidas)"}
    min_players = 2
    max_players = 2
    Options = Options
    Action = Action

    # -- setup ---------------------------------------------------------------------------------

    def new_state(self, n_seats: int, options: Options, seed: int | None, setup: Any) -> State:
        self.check_seats(n_seats)
        s = State()
        s.colours = 6 if options.purple else 5
        s.rounds = options.rounds
        if setup is not None:
            s.setup = self._check_setup(setup, s.colours, s.rounds)
        else:
            s.rng = Rng(seed if seed is not None else 0)
        self._deal(s, starter=0)
        return s

    def _check_setup(self, setup: Any, colours: int, rounds: int) -> dict:
        if not isinstance(setup, dict) or not isinstance(setup.get("rounds"), list):
            raise BadSetup("bad_setup", 'the setup must be {"rounds": [{"hands": [[...], [...]], "deck": [...]}, ...]}')
        if len(setup["rounds"]) < rounds:
            raise BadSetup("bad_setup", f"the setup describes {len(setup['rounds'])} rounds; the match has {rounds}")
        expected = {card_id(c) for c in range(colours * SLOTS)}
        for i, rnd in enumerate(setup["rounds"][:rounds]):
            try:
                hands, deck = rnd["hands"], rnd["deck"]
                ids = [*hands[0], *hands[1], *deck]
                ok = len(hands) == 2 and all(len(h) == HAND_SIZE for h in hands)
            except (KeyError, TypeError, IndexError):
                raise BadSetup("bad_setup", f"setup round {i + 1}: needs 'hands' (two lists of 8) and 'deck'") from None
            if not ok:
                raise BadSetup("bad_setup", f"setup round {i + 1}: each hand must hold exactly {HAND_SIZE} cards")
            if len(ids) != len(expected) or set(ids) != expected:
                raise BadSetup("bad_setup", f"setup round {i + 1}: hands and deck must hold each of the {len(expected)} cards exactly once")
        return setup

    def _deal(self, s: State, starter: int) -> None:
        n = s.colours * SLOTS
        if s.setup is not None:
            rnd = s.setup["rounds"][s.round]
            s.hands = [[CARD_IDS[i] for i in rnd["hands"][0]], [CARD_IDS[i] for i in rnd["hands"][1]]]
            s.deck = [CARD_IDS[i] for i in reversed(rnd["deck"])]
        else:
            cards = list(range(n))
            s.rng.shuffle(cards)
            s.hands = [cards[:HAND_SIZE], cards[HAND_SIZE : 2 * HAND_SIZE]]
            s.deck = cards[2 * HAND_SIZE :]
        s.exps = [[[] for _ in range(s.colours)] for _ in (0, 1)]
        s.tops = [[-1] * s.colours for _ in (0, 1)]
        s.piles = [[] for _ in range(s.colours)]
        s.turn = starter
        s.phase = PLAY
        s.just = -1
        s.starters.append(starter)
        s.last = None

    # -- queries -------------------------------------------------------------------------------

    def to_move(self, s: State) -> tuple[int, ...]:
        return () if s.phase == OVER else _MOVER[s.turn]

    def legal(self, s: State, seat: int) -> list[int]:
        if s.phase == OVER or seat != s.turn:
            return []
        if s.phase == PLAY:
            tops = s.tops[seat]
            hand = s.hands[seat]
            # playable: higher than the top, or a wager on an expedition holding only wagers (or none)
            out = [c for c in hand if (r := RANK[c]) > (t := tops[COLOUR_OF[c]]) or r == t == 0]
            out += [c + DISCARD for c in hand]
            return out
        out = [DRAW_DECK]
        just = s.just
        for k, pile in enumerate(s.piles):
            if pile and k != just:
                out.append(DRAW_PILE + k)
        return out

    def check(self, s: State, seat: int, code: Any) -> None:
        if not isinstance(code, int) or isinstance(code, bool):
            raise BadAction("bad_action", "not a Lost Cities action")
        if s.phase == OVER:
            raise IllegalAction("game_over", "the match is over")
        if seat != s.turn:
            raise IllegalAction("not_your_turn", "it is not your turn", seat=s.turn)
        if code < DRAW_DECK:
            card = code % DISCARD
            if code < 0 or card >= s.colours * SLOTS:
                raise BadAction("unknown_card", "there is no such card in this match")
            if s.phase != PLAY:
                raise IllegalAction("must_draw", "you already played this turn: now draw a card")
            if card not in s.hands[seat]:
                raise IllegalAction("not_in_hand", f"{card_id(card)} is not in your hand", card=card_id(card))
            if code < DISCARD:
                col = COLOUR_OF[card]
                top = s.tops[seat][col]
                r = RANK[card]
                if r == 0 and top > 0:
                    raise IllegalAction(
                        "wager_after_number",
                        f"wagers only go before the first number card; your {COLOURS[col]} expedition already has numbers",
                        card=card_id(card), colour=COLOURS[col],
                    )
                if r != 0 and r <= top:
                    raise IllegalAction(
                        "not_higher",
                        f"{card_id(card)} must be higher than {card_id(s.exps[seat][col][-1])}, the top of your {COLOURS[col]} expedition",
                        card=card_id(card), top=card_id(s.exps[seat][col][-1]), colour=COLOURS[col],
                    )
            return
        if s.phase != DRAW:
            raise IllegalAction("must_play_first", "first play or discard a card, then draw")
        if code == DRAW_DECK:
            return
        k = code - DRAW_PILE
        if not 0 <= k < s.colours:
            raise BadAction("unknown_pile", "there is no such discard pile in this match")
        if not s.piles[k]:
            raise IllegalAction("pile_empty", f"the {COLOURS[k]} discard pile is empty", colour=COLOURS[k])
        if k == s.just:
            raise IllegalAction(
                "just_discarded", "you cannot draw back the card you just discarded", colour=COLOURS[k]
            )

    # -- applying ------------------------------------------------------------------------------

    def step(self, s: State, seat: int, code: int) -> Outcome:
        if code < DISCARD:
            s.hands[seat].remove(code)
            col = COLOUR_OF[code]
            s.exps[seat][col].append(code)
            s.tops[seat][col] = RANK[code]
            s.phase = DRAW
            s.last = [seat, code, "play", None]
            return _OUTCOMES[seat][code]
        if code < DRAW_DECK:
            card = code - DISCARD
            s.hands[seat].remove(card)
            col = COLOUR_OF[card]
            s.piles[col].append(card)
            s.just = col
            s.phase = DRAW
            s.last = [seat, card, "discard", None]
            return _OUTCOMES[seat][code]
        if code == DRAW_DECK:
            card = s.deck.pop()
            source = "deck"
        else:
            k = code - DRAW_PILE
            card = s.piles[k].pop()
            source = COLOURS[k]
        s.hands[seat].append(card)
        if s.last is not None:
            s.last[3] = source
        s.just = -1
        s.phase = PLAY
        s.turn = 1 - seat
        outcome = _DRAW_OUTCOMES[seat][code == DRAW_DECK][card]
        if not s.deck:
            events = list(outcome.events)
            self._end_round(s, events)
            return Outcome(events, outcome.revealed, turn_ended=True)
        return outcome

    def _end_round(self, s: State, events: list[Event]) -> None:
        scores = [sum(expedition_score(e) for e in s.exps[p]) for p in (0, 1)]
        s.round_scores.append(scores)
        totals = s.totals()
        events.append(Event("round_end", None, {"round": s.round + 1, "scores": scores, "totals": totals}))
        if s.round + 1 >= s.rounds:
            s.phase = OVER
            res = self.result(s)
            events.append(Event("game_over", None, res.to_json()))
            return
        starter = (0 if totals[0] > totals[1] else 1) if totals[0] != totals[1] else 1 - s.starters[-1]
        s.round += 1
        self._deal(s, starter)

    # -- views and results ---------------------------------------------------------------------

    def view(self, s: State, seat: int | None) -> dict[str, Any]:
        cols = COLOURS[: s.colours]
        last = None
        if s.last is not None:
            last = {"seat": s.last[0], "card": card_id(s.last[1]), "how": s.last[2], "draw": s.last[3]}
        res = self.result(s)
        return {
            "game": self.key,
            "colours": list(cols),
            "round": s.round + 1,
            "rounds": s.rounds,
            "phase": PHASES[s.phase],
            "to_move": list(self.to_move(s)),
            "viewer": seat,
            "hand": [card_id(c) for c in sorted(s.hands[seat])] if seat is not None else None,
            "hand_sizes": [len(h) for h in s.hands],
            "deck": len(s.deck),
            "discards": {cols[k]: [card_id(c) for c in s.piles[k]] for k in range(s.colours)},
            "expeditions": [{cols[k]: [card_id(c) for c in s.exps[p][k]] for k in range(s.colours)} for p in (0, 1)],
            "expedition_scores": [
                {cols[k]: expedition_score(s.exps[p][k]) for k in range(s.colours)} for p in (0, 1)
            ],
            "round_score": [0, 0] if s.phase == OVER else [sum(expedition_score(e) for e in s.exps[p]) for p in (0, 1)],
            "round_scores": [list(r) for r in s.round_scores],
            "totals": s.totals(),
            "scores": self.scores(s),
            "just_discarded": COLOURS[s.just] if s.just >= 0 else None,
            "last": last,
            "winner": list(res.ranking[0]) if res else None,
        }

    def result(self, s: State) -> Result | None:
        if s.phase != OVER:
            return None
        totals = s.totals()
        tie = totals[0] == totals[1]
        return Result(
            scores=tuple(totals),
            ranking=rank_by(totals),
            tiebreak="equal totals: the players share first place" if tie else "none needed",
            details={"rounds": [list(r) for r in s.round_scores]},
        )

    def scores(self, s: State) -> list[int]:
        """Totals of finished rounds plus the running score of the round being played."""
        totals = s.totals()
        if s.phase == OVER:
            return totals
        return [totals[p] + sum(expedition_score(e) for e in s.exps[p]) for p in (0, 1)]

    def round_scores(self, s: State) -> list[list[int]]:
        return [list(r) for r in s.round_scores]

    # -- JSON ----------------------------------------------------------------------------------

    def encode(self, code: int) -> dict[str, Any]:
        if code < DISCARD:
            return {"type": "play", "card": card_id(code)}
        if code < DRAW_DECK:
            return {"type": "discard", "card": card_id(code - DISCARD)}
        if code == DRAW_DECK:
            return {"type": "draw", "from": "deck"}
        return {"type": "draw", "from": COLOURS[code - DRAW_PILE]}

    def decode(self, action: dict[str, Any]) -> int:
        kind = action.get("type")
        if kind in ("play", "discard"):
            card = CARD_IDS.get(action.get("card"))
            if card is None:
                raise BadAction("unknown_card", f"there is no card {action.get('card')!r}", card=action.get("card"))
            return card if kind == "play" else DISCARD + card
        if kind == "draw":
            src = action.get("from")
            if src == "deck":
                return DRAW_DECK
            if src in COLOURS:
                return DRAW_PILE + COLOURS.index(src)
            raise BadAction("unknown_pile", f"draw from 'deck' or a colour, not {src!r}", source=src)
        raise BadAction("bad_action", f"unknown action type {kind!r}")

    def describe(self, code: int) -> str:
        a = self.encode(code)
        return f"{a['type']} {a.get('card') or a.get('from')}"

    def dump(self, s: State) -> dict[str, Any]:
        return {
            "colours": s.colours,
            "rounds": s.rounds,
            "round": s.round,
            "hands": [[card_id(c) for c in h] for h in s.hands],
            "exps": [[[card_id(c) for c in e] for e in p] for p in s.exps],
            "piles": [[card_id(c) for c in p] for p in s.piles],
            "deck_top_last": [card_id(c) for c in s.deck],
            "turn": s.turn,
            "phase": PHASES[s.phase],
            "just": s.just,
            "round_scores": s.round_scores,
            "starters": s.starters,
            "rng": s.rng.to_json() if s.rng else None,
            "setup": s.setup,
            "last": None if s.last is None else [s.last[0], card_id(s.last[1]), s.last[2], s.last[3]],
        }

    def load(self, d: dict[str, Any]) -> State:
        s = State()
        s.colours = d["colours"]
        s.rounds = d["rounds"]
        s.round = d["round"]
        s.hands = [[CARD_IDS[c] for c in h] for h in d["hands"]]
        s.exps = [[[CARD_IDS[c] for c in e] for e in p] for p in d["exps"]]
        s.tops = [[RANK[e[-1]] if e else -1 for e in p] for p in s.exps]
        s.piles = [[CARD_IDS[c] for c in p] for p in d["piles"]]
        s.deck = [CARD_IDS[c] for c in d["deck_top_last"]]
        s.turn = d["turn"]
        s.phase = PHASES.index(d["phase"])
        s.just = d["just"]
        s.round_scores = [list(r) for r in d["round_scores"]]
        s.starters = list(d["starters"])
        s.rng = Rng.from_json(d["rng"]) if d["rng"] else None
        s.setup = d["setup"]
        s.last = None if d["last"] is None else [d["last"][0], CARD_IDS[d["last"][1]], d["last"][2], d["last"][3]]
        return s

    def clone(self, s: State) -> State:
        n = State()
        n.colours = s.colours
        n.rounds = s.rounds
        n.round = s.round
        n.hands = [h[:] for h in s.hands]
        n.exps = [[e[:] for e in p] for p in s.exps]
        n.tops = [t[:] for t in s.tops]
        n.piles = [p[:] for p in s.piles]
        n.deck = s.deck[:]
        n.turn = s.turn
        n.phase = s.phase
        n.just = s.just
        n.round_scores = [r[:] for r in s.round_scores]
        n.starters = s.starters[:]
        n.rng = Rng(s.rng.seed, s.rng.n) if s.rng else None
        n.setup = s.setup  # never mutated
        n.last = s.last[:] if s.last else None
        return n


GAME = LostCities()
