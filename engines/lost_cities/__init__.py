"""Lost Cities (Reiner Knizia) for two players, over a match of several rounds.

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

The state is compact so that search can afford hundreds of thousands of actions a second: ints,
bit masks and tuples, a few short lists, and the deck as a shared tuple with a count. A hand is
kept as its discard codes in hand order; the cards a seat could legally play and the non-empty
discard piles are kept up to date by ``step`` (masks), so ``legal`` only concatenates or looks up.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field

from ..core import (
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
from ..rng import Rng

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
_W = 6  # expeditions of seat p are exps[p * _W + colour]

# KEEP[c]: the mask of cards still playable on an expedition after c is played on it (everything
# except the cards of c's colour that are not higher than c; a wager keeps everything).
_KEEP = []
for _c in range(len(COLOURS) * SLOTS):
    _kill = 0
    if RANK[_c]:
        for _o in range(COLOUR_OF[_c] * SLOTS, COLOUR_OF[_c] * SLOTS + SLOTS):
            if RANK[_o] <= RANK[_c]:
                _kill |= 1 << _o
    _KEEP.append(~_kill)
# The cards taken from the piles (State.tk): seat p's card c is bit p * _TK + c.
_TK = len(COLOURS) * SLOTS
_TK_SEAT = (1 << _TK) - 1
_TAKE = [[1 << (p * _TK + c) for c in range(_TK)] for p in (0, 1)]
# The draw actions for each mask of drawable (non-empty, not just discarded) piles.
_DRAWS = [tuple([DRAW_DECK] + [DRAW_PILE + k for k in range(len(COLOURS)) if m >> k & 1]) for m in range(1 << len(COLOURS))]
_SOURCE = {DRAW_DECK: "deck", **{DRAW_PILE + k: COLOURS[k] for k in range(len(COLOURS))}}
_SOURCE_CODE = {v: k for k, v in _SOURCE.items()}


class Info:
    """What stays the same for a whole round: options, the round's deck, past rounds, the rng.
    Never changed once built (a new one is made when a round starts), so clones share it."""

    __slots__ = ("colours", "rounds", "round", "deck", "round_scores", "starters", "rng", "setup")

    def __init__(self, colours: int = 5, rounds: int = 3) -> None:
        self.colours = colours
        self.rounds = rounds
        self.round = 0
        self.deck: tuple[int, ...] = ()  # the top is deck[State.dn - 1]
        self.round_scores: tuple[tuple[int, int], ...] = ()
        self.starters: tuple[int, ...] = ()
        self.rng: Rng | None = None
        self.setup: dict | None = None

    def copy(self) -> Info:
        n = Info(self.colours, self.rounds)
        n.round, n.deck, n.round_scores, n.starters = self.round, self.deck, self.round_scores, self.starters
        n.rng = Rng(self.rng.seed, self.rng.n) if self.rng else None
        n.setup = self.setup
        return n


class State:
    __slots__ = (
        "m", "dh", "plays", "pm", "exps", "piles", "pmask", "dn", "turn", "mover", "movers", "phase", "jbit",
        "last", "lastdraw", "tk",
    )

    def __init__(self) -> None:
        self.m = Info()
        self.dh: list[list[int]] = [[], []]  # per seat: DISCARD + card for each card in hand, hand order
        self.plays: list[list[int]] = [[], []]  # per seat: the hand's playable cards, hand order
        self.pm = [0, 0]  # per seat: mask of the cards that seat could play now (in hand or not)
        self.exps: list[tuple[int, ...]] = [()] * (2 * _W)
        self.piles: list[tuple[int, ...]] = [()] * _W
        self.pmask = 0  # bit k: discard pile k is not empty
        self.dn = 0  # cards left in the deck
        self.turn = 0
        self.mover = 0  # turn, or -1 once the match is over
        self.movers: tuple[int, ...] = (0,)
        self.phase = PLAY
        self.jbit = 0  # 1 << the colour discarded this turn, 0 when none
        self.last = -1  # the play or discard code of the last turn, -1 at a round start
        self.lastdraw = -1  # the draw code that ended the last turn (meaningful in the play phase)
        # the cards each seat took from a discard pile this round (public: everyone saw the take),
        # one int for both seats: bit card for seat 0, bit _TK + card for seat 1. Set on a pile
        # draw, cleared only when a round is dealt: a card that left the hand can only come back
        # to it from a pile (which sets the bit again), so "taken" and "in the hand now" are
        # exactly the hand's cards everyone saw taken (``taken``), and ``step`` pays nothing on
        # plays and discards
        self.tk = 0

    @property
    def taken(self) -> list[int]:
        """Per seat, the mask of the cards in its hand that it took from a discard pile."""
        tk = self.tk
        if not tk:
            return [0, 0]
        return [(tk >> (p * _TK)) & _TK_SEAT & sum(1 << (d - DISCARD) for d in self.dh[p]) for p in (0, 1)]

    @property
    def just(self) -> int:
        """The colour discarded this turn, -1 when none."""
        return self.jbit.bit_length() - 1

    @property
    def colours(self) -> int:
        return self.m.colours

    def totals(self) -> list[int]:
        return [sum(r[s] for r in self.m.round_scores) for s in (0, 1)]

    # Read-only list views of the compact fields (tests, debugging).
    @property
    def hands(self) -> list[list[int]]:
        return [[d - DISCARD for d in h] for h in self.dh]

    @property
    def cards_in_deck(self) -> list[int]:
        """The deck, top card last."""
        return list(self.m.deck[: self.dn])

    @property
    def expeditions(self) -> list[list[list[int]]]:
        return [[list(self.exps[p * _W + k]) for k in range(self.m.colours)] for p in (0, 1)]

    @property
    def discard_piles(self) -> list[list[int]]:
        return [list(self.piles[k]) for k in range(self.m.colours)]


def _score(s: State, p: int) -> int:
    base = p * _W
    return sum(expedition_score(s.exps[base + k]) for k in range(s.m.colours))


def _names(mask: int) -> list[str]:
    """The names of the cards in ``mask``, in card order (sorted by colour, then wagers and rank)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(CARD_NAMES[low.bit_length() - 1])
        mask ^= low
    return out


def _top(exp: tuple[int, ...]) -> int:
    return RANK[exp[-1]] if exp else -1


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
        m = s.m = Info(6 if options.purple else 5, options.rounds)
        if setup is not None:
            m.setup = self._check_setup(setup, m.colours, m.rounds)
        else:
            m.rng = Rng(seed if seed is not None else 0)
        self._deal(s, m, starter=0)
        return s

    def _check_setup(self, setup: Any, colours: int, rounds: int) -> dict:
        """The setup, refused in one line unless it deals every card of the match exactly once."""
        shape = 'the setup must be {"rounds": [{"hands": [[8 cards], [8 cards]], "deck": [cards]}, ...]}'
        if not isinstance(setup, dict) or set(setup) != {"rounds"} or not isinstance(setup["rounds"], list):
            raise BadSetup("bad_setup", shape)
        if len(setup["rounds"]) < rounds:
            raise BadSetup("bad_setup", f"the setup describes {len(setup['rounds'])} rounds; the match has {rounds}")
        expected = CARD_NAMES[: colours * SLOTS]
        known = set(expected)
        for i, rnd in enumerate(setup["rounds"]):  # every listed round, dealt or not
            where = f"setup round {i + 1}"
            if not isinstance(rnd, dict) or set(rnd) != {"hands", "deck"}:
                raise BadSetup("bad_setup", f"{where}: needs exactly 'hands' (two lists of 8 cards) and 'deck' (a list of cards)")
            hands, deck = rnd["hands"], rnd["deck"]
            if not isinstance(hands, list) or len(hands) != 2 or not all(isinstance(h, list) for h in hands):
                raise BadSetup("bad_setup", f"{where}: 'hands' must be two lists of cards")
            if not isinstance(deck, list):
                raise BadSetup("bad_setup", f"{where}: 'deck' must be a list of cards")
            if any(len(h) != HAND_SIZE for h in hands):
                raise BadSetup("bad_setup", f"{where}: each hand must hold exactly {HAND_SIZE} cards")
            seen: set[str] = set()
            for c in (*hands[0], *hands[1], *deck):
                if not isinstance(c, str):
                    raise BadSetup("bad_setup", f"{where}: cards are names such as 'red-5' or 'red-w1', not {type(c).__name__} values")
                if c not in known:
                    raise BadSetup("bad_setup", f"{where}: there is no card {c[:40]!r} in this match")
                if c in seen:
                    raise BadSetup("bad_setup", f"{where}: the card {c} is dealt twice")
                seen.add(c)
            if len(seen) != len(expected):
                missing = [c for c in expected if c not in seen]
                raise BadSetup(
                    "bad_setup",
                    f"{where}: hands and deck must hold each of the {len(expected)} cards exactly once; missing {', '.join(missing[:5])}"
                    + (" ..." if len(missing) > 5 else ""),
                )
        return setup

    def _deal(self, s: State, m: Info, starter: int) -> None:
        """Deal round ``m.round`` into s; m is a fresh Info that becomes the state's."""
        n = m.colours * SLOTS
        if m.setup is not None:
            rnd = m.setup["rounds"][m.round]
            hands = [[CARD_IDS[i] for i in rnd["hands"][0]], [CARD_IDS[i] for i in rnd["hands"][1]]]
            m.deck = tuple(CARD_IDS[i] for i in reversed(rnd["deck"]))
        else:
            cards = list(range(n))
            m.rng.shuffle(cards)
            hands = [cards[:HAND_SIZE], cards[HAND_SIZE : 2 * HAND_SIZE]]
            m.deck = tuple(cards[2 * HAND_SIZE :])
        m.starters += (starter,)
        s.m = m
        s.dn = len(m.deck)
        full = (1 << n) - 1
        s.pm = [full, full]
        s.dh = [[c + DISCARD for c in h] for h in hands]
        s.plays = [list(h) for h in hands]
        s.exps = [()] * (2 * _W)
        s.piles = [()] * _W
        s.pmask = 0
        s.turn = s.mover = starter
        s.movers = _MOVER[starter]
        s.phase = PLAY
        s.jbit = 0
        s.last = -1
        s.lastdraw = -1
        s.tk = 0

    # -- queries -------------------------------------------------------------------------------

    def to_move(self, s: State) -> tuple[int, ...]:
        return s.movers

    def legal(self, s: State, seat: int) -> list[int]:
        if seat != s.mover:
            return []
        if s.phase == PLAY:
            return s.plays[seat] + s.dh[seat]
        return list(_DRAWS[s.pmask & ~s.jbit])

    def check(self, s: State, seat: int, code: Any) -> None:
        if not isinstance(code, int) or isinstance(code, bool):
            raise BadAction("bad_action", "not a Lost Cities action")
        if s.phase == OVER:
            raise IllegalAction("game_over", "the match is over")
        if seat != s.turn:
            raise IllegalAction("not_your_turn", "it is not your turn", seat=s.turn)
        if code < DRAW_DECK:
            card = code % DISCARD
            if code < 0 or card >= s.m.colours * SLOTS:
                raise BadAction("unknown_card", "there is no such card in this match")
            if s.phase != PLAY:
                raise IllegalAction("must_draw", "you already played this turn: now draw a card")
            if card + DISCARD not in s.dh[seat]:
                raise IllegalAction("not_in_hand", f"{card_id(card)} is not in your hand", card=card_id(card))
            if code < DISCARD:
                col = COLOUR_OF[card]
                exp = s.exps[seat * _W + col]
                top = _top(exp)
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
                        f"{card_id(card)} must be higher than {card_id(exp[-1])}, the top of your {COLOURS[col]} expedition",
                        card=card_id(card), top=card_id(exp[-1]), colour=COLOURS[col],
                    )
            return
        if s.phase != DRAW:
            raise IllegalAction("must_play_first", "first play or discard a card, then draw")
        if code == DRAW_DECK:
            return
        k = code - DRAW_PILE
        if not 0 <= k < s.m.colours:
            raise BadAction("unknown_pile", "there is no such discard pile in this match")
        if not s.piles[k]:
            raise IllegalAction("pile_empty", f"the {COLOURS[k]} discard pile is empty", colour=COLOURS[k])
        if s.jbit >> k & 1:
            raise IllegalAction(
                "just_discarded", "you cannot draw back the card you just discarded", colour=COLOURS[k]
            )

    # -- applying ------------------------------------------------------------------------------

    def step(self, s: State, seat: int, code: int) -> Outcome:
        if code < DISCARD:  # play
            s.dh[seat].remove(code + DISCARD)
            s.exps[seat * _W + COLOUR_OF[code]] += (code,)
            s.phase = DRAW
            s.last = code
            if RANK[code]:
                s.pm[seat] = pm = s.pm[seat] & _KEEP[code]
                s.plays[seat] = [c for c in s.plays[seat] if pm >> c & 1]
            else:
                s.plays[seat].remove(code)
            return _OUTCOMES[seat][code]
        if code < DRAW_DECK:  # discard
            card = code - DISCARD
            s.dh[seat].remove(code)
            if s.pm[seat] >> card & 1:
                s.plays[seat].remove(card)
            col = COLOUR_OF[card]
            s.piles[col] += (card,)
            s.pmask |= 1 << col
            s.jbit = 1 << col
            s.phase = DRAW
            s.last = code
            return _OUTCOMES[seat][code]
        if code == DRAW_DECK:
            s.dn = dn = s.dn - 1
            card = s.m.deck[dn]
        else:
            dn = -1
            k = code - DRAW_PILE
            pile = s.piles[k]
            card = pile[-1]
            s.piles[k] = pile = pile[:-1]
            if not pile:
                s.pmask &= ~(1 << k)
            s.tk |= _TAKE[seat][card]
        s.dh[seat].append(card + DISCARD)
        if s.pm[seat] >> card & 1:
            s.plays[seat].append(card)
        s.lastdraw = code
        s.jbit = 0
        s.phase = PLAY
        s.turn = s.mover = other = 1 - seat
        s.movers = _MOVER[other]
        outcome = _DRAW_OUTCOMES[seat][code == DRAW_DECK][card]
        if dn == 0:
            events = list(outcome.events)
            self._end_round(s, events)
            return Outcome(events, outcome.revealed, turn_ended=True)
        return outcome

    def _end_round(self, s: State, events: list[Event]) -> None:
        scores = [_score(s, 0), _score(s, 1)]
        m = s.m = s.m.copy()
        m.round_scores += (tuple(scores),)
        totals = s.totals()
        events.append(Event("round_end", None, {"round": m.round + 1, "scores": scores, "totals": totals}))
        if m.round + 1 >= m.rounds:
            s.phase = OVER
            s.mover = -1
            s.movers = ()
            res = self.result(s)
            events.append(Event("game_over", None, res.to_json()))
            return
        starter = (0 if totals[0] > totals[1] else 1) if totals[0] != totals[1] else 1 - m.starters[-1]
        m.round += 1
        self._deal(s, m, starter)

    # -- views and results ---------------------------------------------------------------------

    def _last(self, s: State) -> list | None:
        """[seat, card, "play"|"discard", draw source or None] of the last turn, None at a round start."""
        if s.last < 0:
            return None
        seat = s.turn if s.phase == DRAW else 1 - s.turn
        how = "play" if s.last < DISCARD else "discard"
        return [seat, s.last % DISCARD, how, None if s.phase == DRAW else _SOURCE[s.lastdraw]]

    def view(self, s: State, seat: int | None) -> dict[str, Any]:
        m = s.m
        cols = COLOURS[: m.colours]
        ncol = m.colours
        just = s.just
        last = None
        if (lst := self._last(s)) is not None:
            last = {"seat": lst[0], "card": card_id(lst[1]), "how": lst[2], "draw": lst[3]}
        res = self.result(s)
        exps = s.exps
        return {
            "game": self.key,
            "colours": list(cols),
            "round": m.round + 1,
            "rounds": m.rounds,
            "phase": PHASES[s.phase],
            "to_move": list(s.movers),
            "viewer": seat,
            "hand": [CARD_NAMES[d - DISCARD] for d in sorted(s.dh[seat])] if seat is not None else None,
            "hand_sizes": [len(h) for h in s.dh],
            "deck": s.dn,
            "discards": {cols[k]: [CARD_NAMES[c] for c in s.piles[k]] for k in range(ncol)},
            "expeditions": [{cols[k]: [CARD_NAMES[c] for c in exps[p * _W + k]] for k in range(ncol)} for p in (0, 1)],
            "expedition_scores": [{cols[k]: expedition_score(exps[p * _W + k]) for k in range(ncol)} for p in (0, 1)],
            "round_score": [0, 0] if s.phase == OVER else [_score(s, 0), _score(s, 1)],
            "round_scores": [list(r) for r in m.round_scores],
            "totals": s.totals(),
            "scores": self.scores(s),  # each seat's score now: the totals plus the round being played
            "just_discarded": COLOURS[just] if just >= 0 else None,
            "last": last,
            # public: per seat, the cards in its hand that everyone saw it take from a discard pile
            "known": [_names(m) for m in s.taken],
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
            details={"rounds": [list(r) for r in s.m.round_scores]},
        )

    def scores(self, s: State) -> list[int]:
        """Totals of finished rounds plus the running score of the round being played."""
        totals = s.totals()
        if s.phase == OVER:
            return totals
        return [totals[0] + _score(s, 0), totals[1] + _score(s, 1)]

    def round_scores(self, s: State) -> list[list[int]]:
        return [list(r) for r in s.m.round_scores]

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

    variants = ({}, {"purple": True, "rounds": 1})

    def redeal(self, s: State, seat: int | None, rng: Any) -> State:
        """Deal anew what ``seat`` cannot see (``None``: nobody): the deck's order together with the
        other hand (each hand keeps its size), and the randomness state that deals later rounds."""
        d = self.dump(s)
        hidden = [p for p in (0, 1) if p != seat]
        deck = d["deck_top_last"]
        # the cards a hand was seen taking from a pile stay in it (they are public)
        known = [set(names) for names in d["taken"]]
        pool = list(deck) + [c for p in hidden for c in d["hands"][p] if c not in known[p]]
        rng.shuffle(pool)
        d["deck_top_last"], rest = pool[: len(deck)], pool[len(deck):]
        for p in hidden:
            keep = [c for c in d["hands"][p] if c in known[p]]
            n = len(d["hands"][p]) - len(keep)
            d["hands"][p], rest = keep + rest[:n], rest[n:]
        if d["rng"] is not None:
            d["rng"] = Rng(rng.randrange(2**32), rng.randrange(100)).to_json()
        return self.load(d)

    def dump(self, s: State) -> dict[str, Any]:
        last = self._last(s)
        m = s.m
        return {
            "colours": m.colours,
            "rounds": m.rounds,
            "round": m.round,
            "hands": [[CARD_NAMES[d - DISCARD] for d in h] for h in s.dh],
            "exps": [[[CARD_NAMES[c] for c in s.exps[p * _W + k]] for k in range(m.colours)] for p in (0, 1)],
            "piles": [[CARD_NAMES[c] for c in s.piles[k]] for k in range(m.colours)],
            "deck_top_last": [CARD_NAMES[c] for c in m.deck[: s.dn]],
            "turn": s.turn,
            "phase": PHASES[s.phase],
            "just": s.just,
            "round_scores": [list(r) for r in m.round_scores],
            "starters": list(m.starters),
            "rng": m.rng.to_json() if m.rng else None,
            "setup": m.setup,
            "last": None if last is None else [last[0], card_id(last[1]), last[2], last[3]],
            "taken": [_names(m) for m in s.taken],
        }

    def load(self, d: dict[str, Any]) -> State:
        s = State()
        m = s.m = Info(d["colours"], d["rounds"])
        m.round = d["round"]
        hands = [[CARD_IDS[c] for c in h] for h in d["hands"]]
        s.dh = [[c + DISCARD for c in h] for h in hands]
        s.exps = [()] * (2 * _W)
        full = (1 << (m.colours * SLOTS)) - 1
        s.pm = [full, full]
        for p, exps in enumerate(d["exps"]):
            for k, e in enumerate(exps):
                cards = tuple(CARD_IDS[c] for c in e)
                s.exps[p * _W + k] = cards
                for c in cards:
                    s.pm[p] &= _KEEP[c]
        s.plays = [[c for c in hands[p] if s.pm[p] >> c & 1] for p in (0, 1)]
        s.piles = [()] * _W
        for k, pile in enumerate(d["piles"]):
            s.piles[k] = tuple(CARD_IDS[c] for c in pile)
            if pile:
                s.pmask |= 1 << k
        m.deck = tuple(CARD_IDS[c] for c in d["deck_top_last"])
        s.dn = len(m.deck)
        s.turn = d["turn"]
        s.phase = PHASES.index(d["phase"])
        s.mover = -1 if s.phase == OVER else s.turn
        s.movers = () if s.phase == OVER else _MOVER[s.turn]
        s.jbit = 1 << d["just"] if d["just"] >= 0 else 0
        m.round_scores = tuple(tuple(r) for r in d["round_scores"])
        m.starters = tuple(d["starters"])
        m.rng = Rng.from_json(d["rng"]) if d["rng"] else None
        m.setup = d["setup"]
        last = d["last"]
        if last is not None:
            card = CARD_IDS[last[1]]
            s.last = card if last[2] == "play" else card + DISCARD
            s.lastdraw = -1 if last[3] is None else _SOURCE_CODE[last[3]]
        # dumps made before the key existed load with nothing remembered
        s.tk = sum(_TAKE[p][CARD_IDS[c]] for p, names in enumerate(d.get("taken", ([], []))) for c in names)
        return s

    def clone(self, s: State) -> State:
        n = State.__new__(State)
        n.m = s.m  # shared: never changed once built
        dh = s.dh
        n.dh = [dh[0][:], dh[1][:]]
        pl = s.plays
        n.plays = [pl[0][:], pl[1][:]]
        n.pm = s.pm[:]
        n.exps = s.exps[:]
        n.piles = s.piles[:]
        n.pmask = s.pmask
        n.dn = s.dn
        n.turn = s.turn
        n.mover = s.mover
        n.movers = s.movers
        n.phase = s.phase
        n.jbit = s.jbit
        n.last = s.last
        n.lastdraw = s.lastdraw
        n.tk = s.tk
        return n


GAME = LostCities()
