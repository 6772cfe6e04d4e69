"""Citadels (classic rules, with the Dark City characters and districts) as a Partida engine.

See docs/citadels.md for the rules decisions. Internally an action is a small tuple whose first
item names it (``("build", 12)``, ``("draft", "king")``); districts are card numbers 0..79
(see :mod:`engines.citadels.cards`), characters their string ids.
"""

from __future__ import annotations

from typing import Any

from ..core import BadAction, BadOptions, BadSetup, Event, Game, IllegalAction, Outcome, Result, rank_by
from ..rng import Rng
from . import actions as A
from . import cards as C
from .actions import Action, Options

KIND = C.CARD_KIND
COST = C.CARD_COST
COLOUR = C.CARD_COLOUR
CARD_ID = C.CARD_ID
RANK = C.RANK

# fields of the state, in dump order (all JSON-able except rng)
_FIELDS = (
    "n",
    "dark_city",
    "end_at",
    "any_order",
    "roster",
    "deck",
    "hands",
    "cities",
    "gold",
    "crown",
    "round",
    "phase",
    "pool",
    "face_up",
    "face_down",
    "steps",
    "step_i",
    "picks",
    "seen",
    "discarded",
    "call_i",
    "owner",
    "revealed",
    "murdered",
    "robbed",
    "bewitched",
    "thief_seat",
    "witch_seat",
    "tax_seat",
    "bishop_seat",
    "crown_given_to",
    "t_seat",
    "t_char",
    "t_mode",
    "t_income",
    "t_builds",
    "t_built",
    "t_spent",
    "t_used",
    "t_thank",
    "t_beaut",
    "pending",
    "built_round",
    "beautified",
    "museum",
    "bell",
    "complete_order",
    "last_round",
    "final_round",
    "draws",
    "builders",
)


class State:
    """Mutable match state (only the Citadels game understands it)."""

    def __init__(self) -> None:
        self.rng = Rng(0)
        self.n = 0
        self.dark_city = False
        self.end_at = 8  # districts_to_end option (Bell Tower may lower the effective value)
        self.any_order = True  # turn_order option: "any" (True) or "classic"
        self.roster: list[str] = []  # characters of this match in rank order
        self.deck: list[int] = []  # top = end of list
        self.hands: list[list[int]] = []
        self.cities: list[list[int]] = []
        self.gold: list[int] = []
        self.crown = 0
        self.round = 0
        self.phase = "draft"  # draft | turn | over
        # draft
        self.pool: list[str] = []
        self.face_up: list[str] = []
        self.face_down: list[str] = []
        self.steps: list[list] = []  # [seat, "pick" | "discard"]
        self.step_i = 0
        self.picks: list[list[str]] = []
        self.seen: list[list[list[str]]] = []  # per seat, the choices it saw at each of its draft steps
        self.discarded: list[list[str]] = []  # per seat, characters it discarded face down (2 players)
        # calling
        self.call_i = -1
        self.owner: dict[str, int] = {}
        self.revealed: dict[str, int] = {}
        self.murdered: str | None = None
        self.robbed: str | None = None
        self.bewitched: str | None = None
        self.thief_seat: int | None = None
        self.witch_seat: int | None = None
        self.tax_seat: int | None = None
        self.bishop_seat: int | None = None
        self.crown_given_to: int | None = None
        # the turn being played
        self.t_seat = -1
        self.t_char = ""
        self.t_mode = "normal"  # normal | witch (resumed) | victim (bewitched) | hospital (murdered)
        self.t_income = False
        self.t_builds = 0
        self.t_built = 0
        self.t_spent = 0
        self.t_used: list[str] = []
        self.t_thank = False
        self.t_beaut = 0
        self.pending: dict | None = None
        # districts
        self.built_round: dict[str, int] = {}  # card id -> round it was built
        self.beautified: list[int] = []
        self.museum: list[int] = []  # cards under the Museum
        self.bell = False  # Bell Tower announcement in force
        self.complete_order: list[int] = []
        self.last_round: dict | None = None
        self.final_round = 0
        self.draws = 0  # cards drawn from the deck so far (tells whether a step revealed cards)
        self.builders: list[int] = []  # seats that built in a finished turn this round (Tax Collector)


class CitadelsGame(Game[State]):
    key = "citadels"
    name = "Citadels"
    names = {"en": "Citadels", "es": "Ciudadelas"}
    min_players = 2
    max_players = 8
    Options = Options
    Action = Action
    variants = (
        {},
        {"districts_to_end": 7, "turn_order": "classic"},
        {"dark_city": True, "rank1": "witch", "rank2": "tax_collector", "rank3": "wizard", "rank4": "emperor",
         "rank5": "abbot", "rank6": "alchemist", "rank7": "navigator", "rank8": "diplomat"},
        {"dark_city": True, "rank9": "artist"},
    )

    # ------------------------------------------------------------------ setup

    def new_state(self, n_seats: int, options: Any, seed: int | None, setup: Any) -> State:
        self.check_seats(n_seats)
        o = options if isinstance(options, Options) else self.parse_options(options)
        roster = [o.rank1, o.rank2, o.rank3, o.rank4, o.rank5, o.rank6, o.rank7, o.rank8]
        r9 = o.rank9
        if r9 is None:
            r9 = "queen" if n_seats == 8 else "none"
        if n_seats == 8 and r9 == "none":
            raise BadOptions("rank9_required", "8 players need a rank-9 character (artist or queen)")
        if r9 == "queen" and n_seats < 5:
            raise BadOptions("queen_needs_5", "the Queen is only used with 5 or more players", got=n_seats)
        if r9 != "none":
            roster.append(r9)
        st = State()
        st.n = n_seats
        st.dark_city = o.dark_city
        st.end_at = o.districts_to_end
        st.any_order = o.turn_order == "any"
        st.roster = roster
        deck = list(C.BASE_CARDS) + (list(C.DARK_CITY_CARDS) if o.dark_city else [])
        crown = None
        if setup is not None:
            if not isinstance(setup, dict) or set(setup) - {"deck", "crown", "seed"}:
                raise BadSetup("bad_setup", "setup must be an object with optional 'deck', 'crown', 'seed'")
            rng_seed = setup.get("seed", 0)
            if not isinstance(rng_seed, int) or isinstance(rng_seed, bool):
                raise BadSetup("bad_setup", "setup 'seed' must be an integer")
            st.rng = Rng(rng_seed)
            if "deck" in setup:
                ids = setup["deck"]
                if (
                    not isinstance(ids, list)
                    or not all(isinstance(i, str) for i in ids)
                    or sorted(ids) != sorted(CARD_ID[c] for c in deck)
                ):
                    raise BadSetup("bad_deck", "setup deck must list every district card id of the match once")
                deck = [C.CARD_OF_ID[i] for i in reversed(ids)]  # given top first
            else:
                st.rng.shuffle(deck)
            crown = setup.get("crown", 0)
            if not isinstance(crown, int) or isinstance(crown, bool) or not 0 <= crown < n_seats:
                raise BadSetup("bad_crown", "setup crown must be a seat number")
        else:
            st.rng = Rng(seed if seed is not None else 0)
            st.rng.shuffle(deck)
            crown = st.rng.randrange(n_seats)
        st.deck = deck
        st.hands = [[] for _ in range(n_seats)]
        for s in range(n_seats):
            for _ in range(4):
                st.hands[s].append(st.deck.pop())
        st.cities = [[] for _ in range(n_seats)]
        st.gold = [2] * n_seats
        st.crown = crown
        self._start_round(st, [])
        return st

    # ------------------------------------------------------------------ helpers

    @staticmethod
    def _has(st: State, seat: int, kind: str) -> bool:
        for c in st.cities[seat]:  # noqa: SIM110 - a plain loop is faster here
            if KIND[c] == kind:
                return True
        return False

    @staticmethod
    def _end_count(st: State) -> int:
        return 7 if st.bell else st.end_at

    def _draw(self, st: State, k: int) -> list[int]:
        out = []
        for _ in range(k):
            if not st.deck:
                break
            out.append(st.deck.pop())
        st.draws += len(out)
        return out

    @staticmethod
    def _bottom(st: State, cards: list[int]) -> None:
        for c in cards:
            st.deck.insert(0, c)

    def _set_crown(self, st: State, seat: int, ev: list[Event], why: str) -> None:
        if seat == st.crown:
            return
        old = st.crown
        st.crown = seat
        ev.append(Event("crown", seat, {"from": old, "why": why}))
        for s in range(st.n):
            if self._has(st, s, "throne_room"):
                st.gold[s] += 1
                ev.append(Event("throne_room", s, {"gold": 1}))

    def _power(self, st: State) -> bool:
        return st.phase == "turn" and st.t_mode in ("normal", "witch")

    # ------------------------------------------------------------------ round flow

    def _start_round(self, st: State, ev: list[Event]) -> None:
        st.round += 1
        st.phase = "draft"
        n = st.n
        chars = list(st.roster)
        st.rng.shuffle(chars)
        st.face_down = [chars.pop()]
        st.face_up = []
        if n >= 4:
            k = max(0, len(st.roster) - 2 - n)
            while len(st.face_up) < k:
                # a rank-4 character (King / Emperor) is never set aside face up: take the next one
                i = len(chars) - 1
                while RANK[chars[i]] == 4:
                    i -= 1
                st.face_up.append(chars.pop(i))
        st.pool = sorted(chars, key=RANK.__getitem__)
        st.face_up.sort(key=RANK.__getitem__)
        c = st.crown
        if n == 2:
            a, b = c, 1 - c
            st.steps = [
                [a, "pick"],
                [b, "pick"],
                [b, "discard"],
                [a, "pick"],
                [a, "discard"],
                [b, "pick"],
                [b, "discard"],
            ]
        elif n == 3:
            st.steps = [[(c + i) % 3, "pick"] for i in range(6)]
        else:
            st.steps = [[(c + i) % n, "pick"] for i in range(n)]
        st.step_i = 0
        st.picks = [[] for _ in range(n)]
        st.seen = [[] for _ in range(n)]
        st.discarded = [[] for _ in range(n)]
        st.owner = {}
        st.revealed = {}
        st.murdered = st.robbed = st.bewitched = None
        st.thief_seat = st.witch_seat = st.tax_seat = st.bishop_seat = st.crown_given_to = None
        st.call_i = -1
        st.builders = []
        st.pending = None
        st.t_seat = -1
        st.t_char = ""
        ev.append(
            Event("round_start", None, {"round": st.round, "crown": st.crown, "face_up": list(st.face_up)})
        )
        self._note_seen(st)

    def _last_rule(self, st: State) -> bool:
        """The last drafter of a 4+ player round with one card left may also take the face-down one."""
        return st.n >= 4 and st.step_i == len(st.steps) - 1 and len(st.pool) == 1

    def draft_choices(self, st: State) -> list[str]:
        if st.phase != "draft":
            return []
        if self._last_rule(st):
            return sorted(st.pool + st.face_down, key=RANK.__getitem__)
        return list(st.pool)

    def _note_seen(self, st: State) -> None:
        if st.phase == "draft" and st.step_i < len(st.steps):
            seat = st.steps[st.step_i][0]
            st.seen[seat].append(self.draft_choices(st))

    def _draft(self, st: State, seat: int, ch: str, discard: bool, ev: list[Event]) -> None:
        if discard:
            st.pool.remove(ch)
            st.face_down.append(ch)
            st.discarded[seat].append(ch)
            ev.append(Event("draft_discard", seat, {"character": ch}, private_to=(seat,)))
        else:
            if ch in st.pool:
                st.pool.remove(ch)
            else:  # last-drafter rule: took the face-down card, the last one goes face down instead
                st.face_down.remove(ch)
                st.face_down.append(st.pool.pop())
            st.picks[seat].append(ch)
            st.owner[ch] = seat
            ev.append(Event("draft_pick", seat, {"character": ch}, private_to=(seat,)))
        st.step_i += 1
        if st.step_i < len(st.steps):
            self._note_seen(st)
            return
        st.face_down.extend(st.pool)
        st.pool = []
        st.phase = "turn"
        ev.append(Event("draft_done", None, {}))
        self._call_next(st, ev)

    def _call_next(self, st: State, ev: list[Event]) -> None:
        while True:
            st.call_i += 1
            if st.call_i >= len(st.roster):
                self._end_round(st, ev)
                return
            ch = st.roster[st.call_i]
            seat = st.owner.get(ch)
            if ch == st.murdered:
                # skipped in silence: nobody learns yet whether anyone had chosen it
                if seat is not None and self._has(st, seat, "hospital"):
                    st.revealed[ch] = seat
                    ev.append(Event("called", seat, {"character": ch, "hospital": True}))
                    self._begin_turn(st, seat, ch, "hospital", ev)
                    return
                ev.append(Event("call_murdered", None, {"character": ch}))
                continue
            if seat is None:
                ev.append(Event("call_nobody", None, {"character": ch}))
                continue
            st.revealed[ch] = seat
            ev.append(Event("called", seat, {"character": ch}))
            if ch == st.robbed and st.thief_seat is not None:
                g = st.gold[seat]
                st.gold[seat] = 0
                st.gold[st.thief_seat] += g
                ev.append(Event("robbed", st.thief_seat, {"from": seat, "gold": g, "character": ch}))
            if ch == "king":
                self._set_crown(st, seat, ev, "king")
            if ch == st.bewitched:
                self._begin_turn(st, seat, ch, "victim", ev)
            else:
                self._begin_turn(st, seat, ch, "normal", ev)
            return

    def _begin_turn(self, st: State, seat: int, ch: str, mode: str, ev: list[Event]) -> None:
        st.t_seat = seat
        st.t_char = ch
        st.t_mode = mode
        st.t_income = mode == "witch"
        st.t_built = 0
        st.t_spent = 0
        st.t_used = []
        st.t_beaut = 0
        st.pending = None
        if mode in ("victim", "hospital"):
            st.t_builds = 0
        else:
            st.t_builds = 3 if ch == "architect" else 0 if ch == "navigator" else 1
        st.t_thank = False
        if mode != "witch" and st.crown != seat and self._has(st, st.crown, "ball_room"):
            st.t_thank = True
        if mode in ("normal", "witch"):
            if ch == "tax_collector":
                st.tax_seat = seat
                # taxes reach back to the turns played before the Tax Collector was revealed
                for b in st.builders:
                    if b != seat and st.gold[b] > 0:
                        st.gold[b] -= 1
                        st.gold[seat] += 1
                        ev.append(Event("tax", b, {"to": seat, "gold": 1}))
            elif ch == "bishop":
                st.bishop_seat = seat
            elif ch == "queen":
                partner = st.owner.get("king") if "king" in st.roster else st.crown_given_to
                if partner is not None and partner != seat and (partner - seat) % st.n in (1, st.n - 1):
                    st.gold[seat] += 3
                    ev.append(Event("queen_gold", seat, {"gold": 3, "neighbour": partner}))
        if mode == "witch":
            ev.append(Event("witch_resumes", seat, {"character": ch}))
            self._after_income(st, ev)

    def _after_income(self, st: State, ev: list[Event]) -> None:
        """The bonuses a character gets right after its gold-or-cards action."""
        if not self._power(st):
            return
        seat = st.t_seat
        if st.t_char == "merchant":
            st.gold[seat] += 1
            ev.append(Event("merchant_gold", seat, {"gold": 1}))
        elif st.t_char == "architect":
            got = self._draw(st, 2)
            st.hands[seat].extend(got)
            ev.append(Event("architect_draw", seat, {"cards": [CARD_ID[c] for c in got]}, private_to=(seat,)))

    def _end_turn(self, st: State, ev: list[Event]) -> None:
        seat = st.t_seat
        power = self._power(st) and "forfeit" not in st.t_used
        if power and st.t_char in C.INCOME_COLOUR and "collect" not in st.t_used:
            self._collect(st, ev)
        if power and st.t_char == "alchemist" and st.t_spent:
            st.gold[seat] += st.t_spent
            ev.append(Event("alchemist_refund", seat, {"gold": st.t_spent}))
        if st.t_built:
            st.builders.append(seat)
        if st.tax_seat is not None and seat != st.tax_seat and st.t_built and st.gold[seat] > 0:
            st.gold[seat] -= 1
            st.gold[st.tax_seat] += 1
            ev.append(Event("tax", seat, {"to": st.tax_seat, "gold": 1}))
        if st.gold[seat] == 0 and self._has(st, seat, "poor_house"):
            st.gold[seat] = 1
            ev.append(Event("poor_house", seat, {"gold": 1}))
        if not st.hands[seat] and self._has(st, seat, "park"):
            got = self._draw(st, 2)
            st.hands[seat].extend(got)
            ev.append(Event("park_draw", seat, {"cards": [CARD_ID[c] for c in got]}, private_to=(seat,)))
        ev.append(Event("turn_end", seat, {"character": st.t_char}))
        st.pending = None
        if st.t_mode == "victim" and st.witch_seat is not None:
            self._begin_turn(st, st.witch_seat, st.t_char, "witch", ev)
            return
        self._call_next(st, ev)

    def _end_round(self, st: State, ev: list[Event]) -> None:
        chars = dict(st.revealed)
        if st.murdered is not None and st.murdered in st.owner:
            seat = st.owner[st.murdered]
            chars[st.murdered] = seat
            if st.murdered not in st.revealed:
                ev.append(Event("murdered_revealed", seat, {"character": st.murdered}))
            if st.murdered == "king":  # a murdered King still takes the crown, at the end of the round
                self._set_crown(st, seat, ev, "king")
        st.last_round = {
            "round": st.round,
            "characters": {c: s for c, s in sorted(chars.items(), key=lambda kv: RANK[kv[0]])},
            "murdered": st.murdered,
            "robbed": st.robbed,
            "bewitched": st.bewitched,
        }
        ev.append(Event("round_end", None, {"round": st.round}))
        st.t_seat = -1
        st.t_char = ""
        if st.complete_order:
            st.phase = "over"
            st.final_round = st.round
            ev.append(Event("game_over", None, {"scores": self._scores(st)}))
            return
        self._start_round(st, ev)

    # ------------------------------------------------------------------ scoring

    def _five_colours(self, st: State, seat: int, final_round: int) -> bool:
        cols = set()
        haunted = False
        for c in st.cities[seat]:
            if KIND[c] == "haunted_city" and st.built_round.get(CARD_ID[c], 0) < final_round:
                haunted = True
            else:
                cols.add(COLOUR[c])
        return len(cols) >= 5 or (haunted and len(cols) >= 4)

    def _score_parts(self, st: State, seat: int, final_round: int) -> dict[str, int]:
        city = st.cities[seat]
        districts = sum(C.CARD_POINTS[c] for c in city) + sum(1 for c in city if c in st.beautified)
        parts = {
            "districts": districts,
            "five_colours": 3 if self._five_colours(st, seat, final_round) else 0,
        }
        complete = len(city) >= self._end_count(st)
        parts["complete"] = 0
        if complete and st.complete_order:
            parts["complete"] = 4 if st.complete_order[0] == seat else 2
        extra = 0
        for c in city:
            k = KIND[c]
            if k == "museum":
                extra += len(st.museum)
            elif k == "imperial_treasury":
                extra += st.gold[seat]
            elif k == "map_room":
                extra += len(st.hands[seat])
            elif k == "wishing_well":
                extra += sum(1 for d in city if COLOUR[d] == "purple" and d != c)
        parts["purple_bonus"] = extra
        parts["total"] = sum(parts.values())
        return parts

    def _scores(self, st: State) -> list[int]:
        fr = st.final_round or st.round + 1
        return [self._score_parts(st, s, fr)["total"] for s in range(st.n)]

    def scores(self, st: State) -> list[int]:
        """The points each city is worth now (the final scores once the game is over)."""
        return self._scores(st)

    # ------------------------------------------------------------------ contract

    def to_move(self, st: State) -> tuple[int, ...]:
        if st.phase == "over":
            return ()
        if st.phase == "draft":
            return (st.steps[st.step_i][0],)
        if st.pending is not None:
            return (st.pending["seat"],)
        return (st.t_seat,)

    def legal(self, st: State, seat: int) -> list:
        if st.phase == "over":
            return []
        if st.phase == "draft":
            s, kind = st.steps[st.step_i]
            if s != seat:
                return []
            if kind == "discard":
                return [("discard_character", c) for c in st.pool]
            return [("draft", c) for c in self.draft_choices(st)]
        p = st.pending
        if p is not None:
            if p["seat"] != seat:
                return []
            return self._legal_pending(st, seat, p)
        if st.t_seat != seat:
            return []
        out = self._legal_turn(st, seat)
        if st.t_thank:
            out.insert(0, ("thank",))
        return out

    def _legal_pending(self, st: State, seat: int, p: dict) -> list:
        k = p["kind"]
        if k == "keep":
            return [("keep", c) for c in p["cards"]]
        if k == "redraw":
            return [("magician_discard", c) for c in st.hands[seat]] + [("magician_draw",)]
        if k == "wizard":
            out = []
            for c in st.hands[p["target"]]:
                out.append(("wizard_take", c, 0))
                if st.gold[seat] >= self._build_cost(st, seat, c):
                    out.append(("wizard_take", c, 1))
            return out
        if k == "graveyard":
            return [("graveyard", 1), ("graveyard", 0)]
        if k == "tribute":
            out = [("tribute", -1)] if st.gold[seat] > 0 else []
            return out + [("tribute", c) for c in st.hands[seat]]
        if k == "lighthouse":
            return [("lighthouse", c) for c in sorted(st.deck)]
        if k == "bell":
            return [("bell_tower", 1), ("bell_tower", 0)]
        raise AssertionError(k)  # pragma: no cover

    def _build_cost(self, st: State, seat: int, card: int) -> int:
        cost = COST[card]
        if COLOUR[card] == "purple" and KIND[card] != "factory" and self._has(st, seat, "factory"):
            cost -= 1
        return cost

    def _can_duplicate(self, st: State, seat: int) -> bool:
        if self._power(st) and st.t_char == "wizard":
            return True
        if self._has(st, seat, "quarry"):
            kinds = [KIND[c] for c in st.cities[seat]]
            return len(kinds) == len(set(kinds))
        return False

    def _buildable(self, st: State, seat: int, card: int, dup_ok: bool | None = None) -> bool:
        if st.gold[seat] < self._build_cost(st, seat, card):
            return False
        k = KIND[card]
        for c in st.cities[seat]:
            if KIND[c] == k:
                return self._can_duplicate(st, seat) if dup_ok is None else dup_ok
        return True

    # -- the Warlord's and the Diplomat's targets: the one place for these rules ----------------

    def _city_shielded(self, st: State, owner: int) -> bool:
        """A whole city out of reach of the Warlord and the Diplomat: completed, or the revealed
        and living Bishop's."""
        return len(st.cities[owner]) >= self._end_count(st) or owner == st.bishop_seat

    def _shielded(self, st: State, owner: int, card: int) -> bool:
        """Out of reach of the Warlord and the Diplomat: the Keep, or a shielded city's district."""
        return KIND[card] == "keep" or self._city_shielded(st, owner)

    def destroy_price(self, st: State, owner: int, card: int, wall: bool | None = None) -> int | None:
        """What the Warlord pays to destroy ``card`` of ``owner``'s city now; None if he cannot.
        Its cost - 1, +1 if beautified, +1 if the owner has the Great Wall (and it is not it).
        ``wall``: whether the owner has the Great Wall, when the caller knows it already."""
        if self._shielded(st, owner, card):
            return None
        if wall is None:
            wall = self._has(st, owner, "great_wall")
        cost = COST[card] + (1 if card in st.beautified else 0) - 1
        if wall and KIND[card] != "great_wall":
            cost += 1
        return cost

    def collect_gold(self, st: State, seat: int, character: str) -> int | None:
        """The gold ``collect`` gives ``character`` now (None for a character without a colour):
        one per district of its colour, the School of Magic counting as any colour."""
        colour = C.INCOME_COLOUR.get(character)
        if colour is None:
            return None
        return sum(1 for c in st.cities[seat] if COLOUR[c] == colour or KIND[c] == "school_of_magic")

    def _legal_turn(self, st: State, seat: int) -> list:
        out: list = []
        used = st.t_used
        hand = st.hands[seat]
        mode = st.t_mode
        ch = st.t_char
        if not st.t_income:
            out.append(("income", "gold"))
            if st.deck:
                out.append(("income", "cards"))
        if mode in ("victim", "hospital"):
            if st.t_income:
                out.append(("end_turn",))
            return out
        if ch == "witch":
            if st.t_income:
                for c in st.roster:
                    if RANK[c] >= 2 and c not in st.face_up:
                        out.append(("bewitch", c))
            return out
        # builds, and the powers that the classic order keeps until after the action
        free = st.t_income or st.any_order
        if free and st.t_builds > 0:
            dup = self._can_duplicate(st, seat)
            for c in hand:
                if self._buildable(st, seat, c, dup):
                    out.append(("build", c))
        # character powers
        if ch in C.INCOME_COLOUR and "collect" not in used:
            out.append(("collect",))
        if ch == "assassin" and "murder" not in used:
            out += [("murder", c) for c in st.roster if RANK[c] >= 2 and c not in st.face_up]
        elif ch == "thief" and "rob" not in used:
            out += [
                ("rob", c)
                for c in st.roster
                if RANK[c] >= 3 and c not in st.face_up and c != st.murdered and c != st.bewitched
            ]
        elif ch == "magician" and "magic" not in used:
            out += [("swap_hands", s) for s in range(st.n) if s != seat]
            out += [("magician_discard", c) for c in hand]
        elif ch == "wizard" and "look" not in used:
            out += [("wizard_look", s) for s in range(st.n) if s != seat and st.hands[s]]
        elif ch == "emperor" and "crown" not in used:
            out += [("give_crown", s) for s in self._crown_targets(st, seat)]
        elif ch == "abbot" and "abbot" not in used:
            out += [("abbot_take", s) for s in self._abbot_targets(st, seat)]
        elif ch == "navigator" and free and "navigate" not in used:
            out.append(("navigate", "gold"))
            if st.deck:
                out.append(("navigate", "cards"))
        elif ch == "warlord" and free and "destroy" not in used:
            out += self._destroy_targets(st, seat)
        elif ch == "diplomat" and free and "exchange" not in used:
            out += self._exchange_targets(st, seat)
        elif ch == "artist" and st.t_beaut < 2 and st.gold[seat] >= 1:
            out += [("beautify", c) for c in st.cities[seat] if c not in st.beautified]
        # purple districts
        city = st.cities[seat]
        for c in city:
            k = KIND[c]
            if k == "laboratory" and "laboratory" not in used:
                out += [("laboratory", h) for h in hand]
            elif k == "smithy" and "smithy" not in used and st.gold[seat] >= 2 and st.deck:
                out.append(("smithy",))
            elif k == "museum" and "museum" not in used:
                out += [("museum", h) for h in hand]
            elif k == "armory":
                for s in range(st.n):
                    if s != seat:
                        out += [("armory", d) for d in st.cities[s]]
        if st.t_income and not (ch == "emperor" and "crown" not in used and self._crown_targets(st, seat)):
            out.append(("end_turn",))
        return out

    def _crown_targets(self, st: State, seat: int) -> list[int]:
        return [s for s in range(st.n) if s != seat and s != st.crown]

    def _abbot_targets(self, st: State, seat: int) -> list[int]:
        others = [s for s in range(st.n) if s != seat]
        if not others:
            return []
        top = max(st.gold[s] for s in others)
        if top <= st.gold[seat] or top == 0:
            return []
        return [s for s in others if st.gold[s] == top]

    def _destroy_targets(self, st: State, seat: int) -> list:
        out = []
        g = st.gold[seat]
        for s in range(st.n):
            if self._city_shielded(st, s):
                continue
            wall = self._has(st, s, "great_wall")
            for d in st.cities[s]:
                price = self.destroy_price(st, s, d, wall)
                if price is not None and price <= g:
                    out.append(("destroy", d))
        return out

    def _exchange_targets(self, st: State, seat: int) -> list:
        out = []
        mine = st.cities[seat]
        if not mine:
            return out
        my_kinds = [KIND[c] for c in mine]
        for s in range(st.n):
            if s == seat:
                continue
            if self._city_shielded(st, s):
                continue
            city = st.cities[s]
            their_kinds = [KIND[c] for c in city]
            for t in city:
                kt = KIND[t]
                if kt == "keep":  # the rest of _shielded: the city is not
                    continue
                for m in mine:
                    km = KIND[m]
                    if km != kt and (kt in my_kinds or km in their_kinds):
                        continue
                    if max(0, COST[t] - COST[m]) <= st.gold[seat]:
                        out.append(("exchange", m, t))
        return out

    # ------------------------------------------------------------------ check / step

    def check(self, st: State, seat: int, code: Any) -> None:
        if st.phase == "over":
            raise IllegalAction("game_over", "the game is over")
        if seat not in self.to_move(st):
            raise IllegalAction("not_your_turn", f"it is not seat {seat}'s turn", seat=seat)
        if code in self.legal(st, seat):
            return
        c, reason, params = self._why(st, seat, code)
        raise IllegalAction(c, reason, **params)

    def _why(self, st: State, seat: int, code: Any) -> tuple:
        op = code[0] if isinstance(code, tuple) and code else None
        if st.phase == "draft":
            return ("not_available", f"{code!r} is not possible in the draft now", {})
        if st.pending is not None:
            return (
                "decision_pending",
                f"first decide: {st.pending['kind']}",
                {"pending": st.pending["kind"]},
            )
        if op == "build":
            c = code[1]
            if not st.t_income and not st.any_order:
                return ("income_first", "take gold or cards before building", {})
            if st.t_builds <= 0:
                return ("no_builds_left", "you may not build more districts this turn", {})
            if c not in st.hands[seat]:
                return ("not_in_hand", "that district is not in your hand", {})
            if st.gold[seat] < self._build_cost(st, seat, c):
                return ("cannot_afford", "not enough gold", {"cost": self._build_cost(st, seat, c)})
            return ("duplicate", "you already have a district with that name", {})
        if op == "income" and st.t_income:
            return ("income_taken", "you already took gold or cards this turn", {})
        if op == "end_turn" and not st.t_income:
            return ("income_first", "take gold or cards before ending the turn", {})
        if op == "end_turn":
            return ("crown_first", "the Emperor must give the crown first", {})
        try:
            what = self.describe(code)
        except Exception:
            what = repr(code)
        return ("not_allowed", f"{what} is not allowed now", {})

    def step(self, st: State, seat: int, code: Any) -> Outcome:
        before = (st.draws, st.call_i, st.round, st.phase)
        out = self._step(st, seat, code)
        if not out.revealed and before != (st.draws, st.call_i, st.round, st.phase):
            out.revealed = True
        if before[1:] != (st.call_i, st.round, st.phase):
            out.turn_ended = True  # another character is called (or a new round): even by the same seat
        return out

    def _step(self, st: State, seat: int, code: Any) -> Outcome:
        ev: list[Event] = []
        op = code[0]
        if st.phase == "draft":
            self._draft(st, seat, code[1], op == "discard_character", ev)
            return Outcome(ev, True)
        p = st.pending
        if p is not None:
            return Outcome(ev, self._PENDING[p["kind"]](self, st, seat, code, p, ev))
        if st.t_thank:
            st.t_thank = False
            if op == "thank":
                ev.append(Event("thank", seat, {}))
                return Outcome(ev, False)
            ev.append(Event("ball_room_forfeit", seat, {"character": st.t_char}))
            st.t_used.append("forfeit")
            self._end_turn(st, ev)
            return Outcome(ev, True)
        return Outcome(ev, self._HANDLERS[op](self, st, seat, code, ev))

    # -- one handler per action of a turn: apply it, return whether it revealed hidden information

    def _on_income(self, st: State, seat: int, code: Any, ev: list[Event]) -> bool:
        gold = st.gold
        hand = st.hands[seat]
        st.t_income = True
        if code[1] == "gold":
            gold[seat] += 2
            ev.append(Event("income", seat, {"take": "gold", "gold": 2}))
            self._after_income(st, ev)
        else:
            obs = self._has(st, seat, "observatory")
            lib = self._has(st, seat, "library")
            drawn = self._draw(st, 3 if obs else 2)
            keep = 2 if lib else 1
            ev.append(Event("income", seat, {"take": "cards", "drawn": len(drawn)}))
            if len(drawn) <= keep:
                hand.extend(drawn)
                ev.append(Event("keep", seat, {"cards": [CARD_ID[c] for c in drawn]}, private_to=(seat,)))
                self._after_income(st, ev)
            else:
                st.pending = {"kind": "keep", "seat": seat, "cards": drawn, "n": keep}
        return False

    def _on_end_turn(self, st: State, seat: int, code: Any, ev: list[Event]) -> bool:
        self._end_turn(st, ev)
        return True

    def _on_build(self, st: State, seat: int, code: Any, ev: list[Event]) -> bool:
        self._build(st, seat, code[1], ev)
        return bool(st.pending and st.pending["kind"] == "lighthouse")

    def _on_collect(self, st: State, seat: int, code: Any, ev: list[Event]) -> bool:
        self._collect(st, ev)
        return False

    def _on_murder(self, st: State, seat: int, code: Any, ev: list[Event]) -> bool:
        st.murdered = code[1]
        st.t_used.append("murder")
        ev.append(Event("murder", seat, {"character": code[1]}))
        return False

    def _on_bewitch(self, st: State, seat: int, code: Any, ev: list[Event]) -> bool:
        st.bewitched = code[1]
        st.witch_seat = seat
        ev.append(Event("bewitch", seat, {"character": code[1]}))
        self._end_turn(st, ev)
        return True

    def _on_rob(self, st: State, seat: int, code: Any, ev: list[Event]) -> bool:
        st.robbed = code[1]
        st.thief_seat = seat
        st.t_used.append("rob")
        ev.append(Event("rob", seat, {"character": code[1]}))
        return False

    def _on_swap_hands(self, st: State, seat: int, code: Any, ev: list[Event]) -> bool:
        o = code[1]
        st.t_used.append("magic")
        st.hands[seat], st.hands[o] = st.hands[o], st.hands[seat]
        ev.append(Event("swap_hands", seat, {"with": o}))
        return True

    def _on_magician_discard(self, st: State, seat: int, code: Any, ev: list[Event]) -> bool:
        st.t_used.append("magic")
        st.pending = {"kind": "redraw", "seat": seat, "count": 0}
        self._pending_redraw(st, seat, code, st.pending, ev)
        return False

    def _on_wizard_look(self, st: State, seat: int, code: Any, ev: list[Event]) -> bool:
        st.t_used.append("look")
        st.pending = {"kind": "wizard", "seat": seat, "target": code[1]}
        ev.append(Event("wizard_look", seat, {"target": code[1]}))
        return True

    def _on_give_crown(self, st: State, seat: int, code: Any, ev: list[Event]) -> bool:
        gold = st.gold
        st.t_used.append("crown")
        t = code[1]
        self._set_crown(st, t, ev, "emperor")
        st.crown_given_to = t
        if st.gold[t] > 0 or st.hands[t]:
            if st.hands[t]:
                st.pending = {"kind": "tribute", "seat": t, "to": seat}
            else:
                st.gold[t] -= 1
                gold[seat] += 1
                ev.append(Event("tribute", t, {"to": seat, "pay": "gold"}))
        return False

    def _on_abbot_take(self, st: State, seat: int, code: Any, ev: list[Event]) -> bool:
        gold = st.gold
        st.t_used.append("abbot")
        gold[code[1]] -= 1
        gold[seat] += 1
        ev.append(Event("abbot_take", seat, {"from": code[1], "gold": 1}))
        return False

    def _on_navigate(self, st: State, seat: int, code: Any, ev: list[Event]) -> bool:
        gold = st.gold
        hand = st.hands[seat]
        st.t_used.append("navigate")
        if code[1] == "gold":
            gold[seat] += 4
            ev.append(Event("navigate", seat, {"take": "gold", "gold": 4}))
            return False
        got = self._draw(st, 4)
        hand.extend(got)
        ev.append(Event("navigate", seat, {"take": "cards", "drawn": len(got)}))
        ev.append(Event("draw", seat, {"cards": [CARD_ID[c] for c in got]}, private_to=(seat,)))
        return True

    def _on_destroy(self, st: State, seat: int, code: Any, ev: list[Event]) -> bool:
        gold = st.gold
        st.t_used.append("destroy")
        if not st.any_order:
            st.t_builds = 0  # classic order: the Warlord acts at the end of his turn, no building afterwards
        d = code[1]
        owner = self._owner_of(st, d)
        cost = self.destroy_price(st, owner, d)
        gold[seat] -= cost
        ev.append(Event("destroy", seat, {"district": CARD_ID[d], "owner": owner, "gold": cost}))
        self._remove_district(st, owner, d, ev)
        g = next((s for s in range(st.n) if self._has(st, s, "graveyard")), None)
        if g is not None and g != seat and st.gold[g] >= 1 and KIND[d] != "graveyard":
            st.pending = {"kind": "graveyard", "seat": g, "card": d}
        else:
            self._bottom(st, [d])
        return False

    def _on_exchange(self, st: State, seat: int, code: Any, ev: list[Event]) -> bool:
        gold = st.gold
        st.t_used.append("exchange")
        if not st.any_order:
            st.t_builds = 0  # likewise an end-of-turn power in the classic order
        m, t = code[1], code[2]
        owner = self._owner_of(st, t)
        diff = max(0, COST[t] - COST[m])
        gold[seat] -= diff
        gold[owner] += diff
        mine, theirs = st.cities[seat], st.cities[owner]
        mine[mine.index(m)] = t
        theirs[theirs.index(t)] = m
        ev.append(
            Event("exchange", seat, {"give": CARD_ID[m], "take": CARD_ID[t], "with": owner, "gold": diff})
        )
        return False

    def _on_beautify(self, st: State, seat: int, code: Any, ev: list[Event]) -> bool:
        gold = st.gold
        st.t_beaut += 1
        gold[seat] -= 1
        st.beautified.append(code[1])
        ev.append(Event("beautify", seat, {"district": CARD_ID[code[1]]}))
        return False

    def _on_laboratory(self, st: State, seat: int, code: Any, ev: list[Event]) -> bool:
        gold = st.gold
        hand = st.hands[seat]
        st.t_used.append("laboratory")
        hand.remove(code[1])
        self._bottom(st, [code[1]])
        gold[seat] += 1
        ev.append(Event("laboratory", seat, {"gold": 1}))
        return False

    def _on_smithy(self, st: State, seat: int, code: Any, ev: list[Event]) -> bool:
        gold = st.gold
        hand = st.hands[seat]
        st.t_used.append("smithy")
        gold[seat] -= 2
        got = self._draw(st, 3)
        hand.extend(got)
        ev.append(Event("smithy", seat, {"drawn": len(got)}))
        ev.append(Event("draw", seat, {"cards": [CARD_ID[c] for c in got]}, private_to=(seat,)))
        return True

    def _on_museum(self, st: State, seat: int, code: Any, ev: list[Event]) -> bool:
        hand = st.hands[seat]
        st.t_used.append("museum")
        hand.remove(code[1])
        st.museum.append(code[1])
        ev.append(Event("museum", seat, {"count": len(st.museum)}))
        return False

    def _on_armory(self, st: State, seat: int, code: Any, ev: list[Event]) -> bool:
        d = code[1]
        owner = self._owner_of(st, d)
        arm = next(c for c in st.cities[seat] if KIND[c] == "armory")
        ev.append(Event("armory", seat, {"district": CARD_ID[d], "owner": owner}))
        self._remove_district(st, seat, arm, ev)
        self._remove_district(st, owner, d, ev)
        self._bottom(st, [arm, d])
        return False

    _HANDLERS: dict[str, Any] = {}  # filled below the class: action type -> handler

    # -- one handler per pending decision (somebody must answer before the turn goes on)

    def _pending_keep(self, st: State, seat: int, code: Any, p: dict, ev: list[Event]) -> bool:
        c = code[1]
        p["cards"].remove(c)
        st.hands[seat].append(c)
        p["n"] -= 1
        ev.append(Event("keep", seat, {"cards": [CARD_ID[c]]}, private_to=(seat,)))
        if p["n"] <= 0 or not p["cards"]:
            self._bottom(st, p["cards"])
            st.pending = None
            self._after_income(st, ev)
        return False

    def _pending_redraw(self, st: State, seat: int, code: Any, p: dict, ev: list[Event]) -> bool:
        op = code[0]
        if op == "magician_discard":
            st.hands[seat].remove(code[1])
            self._bottom(st, [code[1]])
            p["count"] += 1
            return False
        st.pending = None
        got = self._draw(st, p["count"])
        st.hands[seat].extend(got)
        ev.append(Event("magician_redraw", seat, {"count": len(got)}))
        ev.append(Event("draw", seat, {"cards": [CARD_ID[c] for c in got]}, private_to=(seat,)))
        return True

    def _pending_wizard(self, st: State, seat: int, code: Any, p: dict, ev: list[Event]) -> bool:
        c, build = code[1], code[2]
        st.hands[p["target"]].remove(c)
        st.pending = None
        ev.append(Event("wizard_take", seat, {"from": p["target"]}))
        if build:
            st.hands[seat].append(c)
            self._build(st, seat, c, ev, extra=True)
            return bool(st.pending and st.pending["kind"] == "lighthouse")
        st.hands[seat].append(c)
        ev.append(Event("wizard_card", seat, {"card": CARD_ID[c]}, private_to=(seat, p["target"])))
        return False

    def _pending_graveyard(self, st: State, seat: int, code: Any, p: dict, ev: list[Event]) -> bool:
        d = p["card"]
        st.pending = None
        if code[1]:
            st.gold[seat] -= 1
            st.hands[seat].append(d)
            ev.append(Event("graveyard", seat, {"district": CARD_ID[d], "gold": 1}))
        else:
            self._bottom(st, [d])
            ev.append(Event("graveyard_pass", seat, {}))
        return False

    def _pending_tribute(self, st: State, seat: int, code: Any, p: dict, ev: list[Event]) -> bool:
        to = p["to"]
        st.pending = None
        if code[1] == -1:
            st.gold[seat] -= 1
            st.gold[to] += 1
            ev.append(Event("tribute", seat, {"to": to, "pay": "gold"}))
            return False
        st.hands[seat].remove(code[1])
        st.hands[to].append(code[1])
        ev.append(Event("tribute", seat, {"to": to, "pay": "card"}))
        ev.append(Event("tribute_card", seat, {"card": CARD_ID[code[1]]}, private_to=(seat, to)))
        return True

    def _pending_lighthouse(self, st: State, seat: int, code: Any, p: dict, ev: list[Event]) -> bool:
        st.pending = None
        st.deck.remove(code[1])
        st.hands[seat].append(code[1])
        st.rng.shuffle(st.deck)
        ev.append(Event("lighthouse", seat, {}))
        ev.append(Event("lighthouse_card", seat, {"card": CARD_ID[code[1]]}, private_to=(seat,)))
        self._after_build(st, seat, ev)
        return True

    def _pending_bell(self, st: State, seat: int, code: Any, p: dict, ev: list[Event]) -> bool:
        st.pending = None
        if code[1]:
            st.bell = True
            ev.append(Event("bell_tower", seat, {"announce": True}))
            for s in [seat] + [x for x in range(st.n) if x != seat]:
                if len(st.cities[s]) >= 7 and s not in st.complete_order:
                    st.complete_order.append(s)
        else:
            ev.append(Event("bell_tower", seat, {"announce": False}))
        return False

    _PENDING: dict[str, Any] = {}  # filled below the class: pending kind -> handler

    def _owner_of(self, st: State, card: int) -> int:
        for s in range(st.n):
            if card in st.cities[s]:
                return s
        raise AssertionError(card)  # pragma: no cover

    def _collect(self, st: State, ev: list[Event]) -> None:
        seat = st.t_seat
        st.t_used.append("collect")
        colour = C.INCOME_COLOUR[st.t_char]
        n = self.collect_gold(st, seat, st.t_char) or 0
        st.gold[seat] += n
        ev.append(Event("collect", seat, {"colour": colour, "gold": n}))

    def _build(self, st: State, seat: int, card: int, ev: list[Event], extra: bool = False) -> None:
        cost = self._build_cost(st, seat, card)
        st.hands[seat].remove(card)
        st.gold[seat] -= cost
        st.cities[seat].append(card)
        st.built_round[CARD_ID[card]] = st.round
        if not extra:
            st.t_builds -= 1
        st.t_built += 1
        st.t_spent += cost
        ev.append(Event("build", seat, {"district": CARD_ID[card], "gold": cost}))
        k = KIND[card]
        if k == "lighthouse" and st.deck:
            st.pending = {"kind": "lighthouse", "seat": seat}
            return
        self._after_build(st, seat, ev)
        if k == "bell_tower" and not st.bell and st.end_at == 8:
            st.pending = {"kind": "bell", "seat": seat}

    def _after_build(self, st: State, seat: int, ev: list[Event]) -> None:
        if len(st.cities[seat]) >= self._end_count(st) and seat not in st.complete_order:
            st.complete_order.append(seat)
            ev.append(Event("city_complete", seat, {"first": len(st.complete_order) == 1}))

    def _remove_district(self, st: State, owner: int, d: int, ev: list[Event]) -> None:
        st.cities[owner].remove(d)
        st.built_round.pop(CARD_ID[d], None)
        if d in st.beautified:
            st.beautified.remove(d)
        k = KIND[d]
        if k == "museum" and st.museum:
            self._bottom(st, st.museum)
            st.museum = []
        if k == "bell_tower" and st.bell:
            st.bell = False
            st.complete_order = [s for s in st.complete_order if len(st.cities[s]) >= st.end_at]
            ev.append(Event("bell_tower_reverts", owner, {}))

    # ------------------------------------------------------------------ views

    def _city_json(self, st: State, seat: int) -> list[dict]:
        out = []
        wall = self._has(st, seat, "great_wall")
        for c in st.cities[seat]:
            d = C.card_json(c)
            d["beautified"] = c in st.beautified
            d["destroy_price"] = self.destroy_price(st, seat, c, wall)  # None: out of the Warlord's reach
            out.append(d)
        return out

    def view(self, st: State, seat: int | None) -> dict[str, Any]:
        n = st.n
        over = st.phase == "over"
        players = []
        fr = st.final_round or st.round + 1
        for s in range(n):
            chars = [c for c in st.picks[s] if st.revealed.get(c) == s]
            if over and st.last_round:
                chars = [c for c, o in st.last_round["characters"].items() if o == s]
            parts = self._score_parts(st, s, fr)
            players.append(
                {
                    "seat": s,
                    "gold": st.gold[s],
                    "hand_size": len(st.hands[s]),
                    "city": self._city_json(st, s),
                    "characters": chars,
                    "complete": len(st.cities[s]) >= self._end_count(st),
                    "score": parts["total"],
                }
            )
        v: dict[str, Any] = {
            "game": "citadels",
            "viewer": seat,
            "round": st.round,
            "phase": st.phase,
            "to_move": list(self.to_move(st)),
            "crown": st.crown,
            "characters": list(st.roster),
            "dark_city": st.dark_city,
            "districts_to_end": self._end_count(st),
            "bell_tower": st.bell,
            "deck_size": len(st.deck),
            "museum_size": len(st.museum),
            "face_up": list(st.face_up),
            "face_down_count": len(st.face_down),
            "players": players,
            "murdered": st.murdered,
            "robbed": st.robbed,
            "bewitched": st.bewitched,
            "revealed": {c: s for c, s in st.revealed.items()},
            "complete_order": list(st.complete_order),
            "last_round": st.last_round,
            "draft": None,
            "turn": None,
            "pending": None,
        }
        if st.phase == "draft":
            drafter, kind = st.steps[st.step_i]
            v["draft"] = {
                "drafter": drafter,
                "step": kind,
                "order": [s for s, _ in st.steps],
                "step_index": st.step_i,
                "choices": self.draft_choices(st) if seat == drafter else None,
            }
        elif st.phase == "turn":
            v["turn"] = {
                "seat": st.t_seat,
                "character": st.t_char,
                "rank": RANK[st.t_char],
                "mode": st.t_mode,
                "income_taken": st.t_income,
                "builds_left": st.t_builds,
                "built": st.t_built,
                "used": list(st.t_used),
                "must_thank": st.t_thank,
                "collect_gold": self.collect_gold(st, st.t_seat, st.t_char),
                "any_order": st.any_order,
            }
        p = st.pending
        if p is not None:
            pv: dict[str, Any] = {"kind": p["kind"], "seat": p["seat"]}
            mine = seat is not None and seat == p["seat"]
            if p["kind"] == "keep":
                pv["count"] = len(p["cards"])
                pv["keep"] = p["n"]
                pv["cards"] = [C.card_json(c) for c in p["cards"]] if mine else None
            elif p["kind"] == "redraw":
                pv["discarded"] = p["count"]
            elif p["kind"] == "wizard":
                pv["target"] = p["target"]
                pv["cards"] = [C.card_json(c) for c in st.hands[p["target"]]] if mine else None
            elif p["kind"] == "graveyard":
                pv["district"] = C.card_json(p["card"])
            elif p["kind"] == "tribute":
                pv["to"] = p["to"]
            elif p["kind"] == "lighthouse":
                pv["cards"] = [C.card_json(c) for c in sorted(st.deck)] if mine else None
            v["pending"] = pv
        if seat is not None:
            v["hand"] = [C.card_json(c) for c in st.hands[seat]]
            v["my_characters"] = list(st.picks[seat])
            v["draft_seen"] = [list(x) for x in st.seen[seat]]
            v["my_discards"] = list(st.discarded[seat])
            mus_owner = next((s for s in range(n) if self._has(st, s, "museum")), None)
            v["museum_cards"] = [C.card_json(c) for c in st.museum] if mus_owner == seat else None
        else:
            v["hand"] = None
            v["my_characters"] = None
            v["draft_seen"] = None
            v["my_discards"] = None
            v["museum_cards"] = None
        r = self.result(st) if over else None
        v["result"] = r.to_json() if r else None
        return v

    # ------------------------------------------------------------------ result

    def result(self, st: State) -> Result | None:
        if st.phase != "over":
            return None
        fr = st.final_round
        parts = [self._score_parts(st, s, fr) for s in range(st.n)]
        scores = tuple(p["total"] for p in parts)
        top_rank = [max((RANK[c] for c in st.picks[s]), default=0) for s in range(st.n)]
        ranking = rank_by(list(scores), top_rank, list(st.gold))
        return Result(
            scores=scores,
            ranking=ranking,
            tiebreak="highest character rank held in the last round, then most gold",
            details={
                "breakdown": parts,
                "last_round_rank": top_rank,
                "gold": list(st.gold),
                "first_complete": st.complete_order[0] if st.complete_order else None,
            },
        )

    # ------------------------------------------------------------------ JSON boundary

    def encode(self, code: Any) -> dict[str, Any]:
        try:
            return A.to_json(code)
        except A.DeclError as e:
            raise BadAction(e.code, e.reason) from None

    def decode(self, a: dict[str, Any]) -> Any:
        try:
            return A.to_code(a)
        except A.DeclError as e:
            raise BadAction(e.code, e.reason) from None

    def describe(self, code: Any) -> str:
        return " ".join(str(v) for v in self.encode(code).values())

    # ------------------------------------------------------------------ hidden information

    def redeal(self, st: State, seat: int | None, rng: Any) -> State:
        """Deal anew what ``seat`` cannot see: the deck order, the other hands, cards another seat
        is choosing from, the cards under somebody else's Museum, and the randomness state."""
        new = self.clone(st)
        p = new.pending
        mine = seat is not None and p is not None and p["seat"] == seat
        pools: list[list[int]] = [new.deck]
        for s in range(new.n):
            if s != seat and not (mine and p["kind"] == "wizard" and p["target"] == s):
                pools.append(new.hands[s])
        if p is not None and p["kind"] == "keep" and not mine:
            pools.append(p["cards"])
        if seat is None or not self._has(new, seat, "museum"):
            pools.append(new.museum)
        cards = [c for pool in pools for c in pool]
        rng.shuffle(cards)
        for pool in pools:
            pool[:] = [cards.pop() for _ in pool]
        new.rng = Rng(rng.randrange(2**32), rng.randrange(100))
        return new

    # ------------------------------------------------------------------ persistence

    def dump(self, st: State) -> dict[str, Any]:
        import copy

        d = {f: copy.deepcopy(getattr(st, f)) for f in _FIELDS}
        d["rng"] = st.rng.to_json()
        d["format"] = 1
        return d

    def load(self, data: dict[str, Any]) -> State:
        import copy

        st = State()
        for f in _FIELDS:
            if f in data:  # a field added later keeps its default in older dumps
                setattr(st, f, copy.deepcopy(data[f]))
        st.rng = Rng.from_json(data["rng"])
        return st

    def clone(self, st: State) -> State:
        new = State.__new__(State)
        d = new.__dict__
        for k, v in st.__dict__.items():
            if isinstance(v, list):
                d[k] = [list(x) if isinstance(x, list) else x for x in v]
            elif isinstance(v, dict):
                d[k] = {kk: (list(vv) if isinstance(vv, list) else vv) for kk, vv in v.items()}
            elif isinstance(v, Rng):
                d[k] = Rng(v.seed, v.n)
            else:
                d[k] = v
        return new


CitadelsGame._HANDLERS = {op: getattr(CitadelsGame, f"_on_{op}") for op in ("income", "end_turn", "build", "collect", "murder", "bewitch", "rob", "swap_hands", "magician_discard", "wizard_look", "give_crown", "abbot_take", "navigate", "destroy", "exchange", "beautify", "laboratory", "smithy", "museum", "armory")}
CitadelsGame._PENDING = {k: getattr(CitadelsGame, f"_pending_{k}") for k in ("keep", "redraw", "wizard", "graveyard", "tribute", "lighthouse", "bell")}

GAME = CitadelsGame()
