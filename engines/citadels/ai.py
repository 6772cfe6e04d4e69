"""Citadels AI players. The heuristic sees the match only through ``game.view`` and
``game.legal``; the searching levels (bottom of the file) also copy the table and replace every
hidden part of the copy before they look at it."""

from __future__ import annotations

import math
import random
from typing import Any

from ..rng import Rng
from ..search import level_player
from . import cards as C

# how much a character is worth to take or to hit, before the situation adjusts it
_BASE = {
    "assassin": 4.0,
    "thief": 3.0,
    "magician": 2.0,
    "king": 2.5,
    "bishop": 2.0,
    "merchant": 3.0,
    "architect": 3.0,
    "warlord": 2.0,
    "witch": 4.0,
    "tax_collector": 3.0,
    "wizard": 3.0,
    "emperor": 2.5,
    "abbot": 2.5,
    "alchemist": 2.5,
    "navigator": 3.0,
    "diplomat": 2.0,
    "artist": 2.0,
    "queen": 2.5,
}
_VICTIMS = (
    "merchant",
    "architect",
    "king",
    "emperor",
    "alchemist",
    "navigator",
    "bishop",
    "abbot",
    "warlord",
    "diplomat",
    "tax_collector",
    "wizard",
    "magician",
    "thief",
    "queen",
    "artist",
)


class HeuristicPlayer:
    """Greedy builder: takes gold while it holds something worth building, builds its dearest
    affordable district, picks characters that pay for its city, and hits the likeliest rich targets."""

    name = "heuristic"

    def choose(self, game: Any, state: Any, seat: int, rng: random.Random) -> Any:
        return self.choose_from(game, state, seat, game.legal(state, seat), rng)

    def choose_from(self, game: Any, state: Any, seat: int, legal: list, rng: random.Random, view=None) -> Any:
        """``choose`` given the seat's legal list (the search's playouts have it already) and
        optionally a view with at least the parts this player reads (see ``_light_view``)."""
        if len(legal) == 1:
            return legal[0]
        v = game.view(state, seat) if view is None else view
        by_op: dict[str, list] = {}
        for code in legal:
            by_op.setdefault(code[0], []).append(code)
        me = v["players"][seat]
        gold = me["gold"]
        city_kinds = {d["kind"] for d in me["city"]}
        hand = [C.CARD_OF_ID[d["id"]] for d in v["hand"]]
        others = [p for p in v["players"] if p["seat"] != seat]
        leader = max(others, key=lambda p: (p["score"], len(p["city"])))

        def worth(card: int) -> float:
            k = C.CARD_KIND[card]
            if k in city_kinds:
                return -1.0
            return C.CARD_POINTS[card] + (0.5 if C.CARD_COLOUR[card] == "purple" else 0.0)

        if "thank" in by_op:
            return by_op["thank"][0]
        if v["phase"] == "draft":
            return self._draft(v, seat, legal, me, hand, city_kinds, rng)
        pend = v["pending"]
        if pend is not None:
            kind = pend["kind"]
            if kind in ("keep", "lighthouse"):
                return max(legal, key=lambda c: worth(c[1]))
            if kind == "redraw":
                return by_op["magician_draw"][0]
            if kind == "wizard":
                builds = [c for c in legal if c[2] == 1 and worth(c[1]) > 0]
                if builds:
                    return max(builds, key=lambda c: worth(c[1]))
                return max(legal, key=lambda c: worth(c[1]))
            if kind == "graveyard":
                d = C.CARD_OF_ID[pend["district"]["id"]]
                return ("graveyard", 1) if worth(d) > 0 and ("graveyard", 1) in legal else ("graveyard", 0)
            if kind == "tribute":
                cards = [c for c in legal if c[1] != -1]
                if cards:
                    return min(cards, key=lambda c: worth(c[1]))
                return legal[0]
            if kind == "bell":
                mine = me["score"]
                return ("bell_tower", 1 if mine >= leader["score"] else 0)
            return legal[0]
        # --- a character turn
        for op in ("murder", "rob", "bewitch"):
            if op in by_op:
                return self._hit(v, seat, by_op[op], rng)
        if "swap_hands" in by_op:
            useful = [c for c in hand if worth(c) > 0]
            richest = max(others, key=lambda p: p["hand_size"])
            if len(useful) <= 1 and richest["hand_size"] > len(hand) + 1:
                return ("swap_hands", richest["seat"])
            dup = [c for c in by_op.get("magician_discard", []) if worth(c[1]) < 0]
            if dup:
                return dup[0]
        if "wizard_look" in by_op:
            return max(by_op["wizard_look"], key=lambda c: v["players"][c[1]]["hand_size"])
        if "abbot_take" in by_op:
            return by_op["abbot_take"][0]
        if "give_crown" in by_op:
            return min(by_op["give_crown"], key=lambda c: v["players"][c[1]]["score"])
        if "income" in by_op:
            useful = [c for c in hand if worth(c) > 0]
            affordable_soon = [c for c in useful if C.CARD_COST[c] <= gold + 4]
            if ("income", "cards") in legal and (not useful or (gold >= 6 and len(affordable_soon) <= 1)):
                return ("income", "cards")
            return ("income", "gold")
        if "navigate" in by_op:
            useful = [c for c in hand if worth(c) > 0]
            return (
                ("navigate", "gold")
                if useful or ("navigate", "cards") not in legal
                else ("navigate", "cards")
            )
        builds = [c for c in by_op.get("build", []) if worth(c[1]) > 0]
        if "collect" in by_op:
            turn = v["turn"]
            colour = C.INCOME_COLOUR.get(turn["character"])
            # collect first unless a build of the character's colour is coming
            if not any(C.CARD_COLOUR[c[1]] == colour for c in builds):
                return ("collect",)
        if builds:
            return max(builds, key=lambda c: worth(c[1]))
        if "collect" in by_op:
            return ("collect",)
        if "destroy" in by_op:
            targets = [c for c in by_op["destroy"] if _owner(v, c[1]) == leader["seat"]]
            cheap = [c for c in targets if _destroy_cost(v, c[1]) <= max(0, gold - 4)]
            if cheap and len(leader["city"]) >= 3:
                return max(cheap, key=lambda c: C.CARD_COST[c[1]])
        if "armory" in by_op and len(leader["city"]) >= 6:
            targets = [c for c in by_op["armory"] if _owner(v, c[1]) == leader["seat"]]
            if targets:
                return max(targets, key=lambda c: C.CARD_COST[c[1]])
        if "laboratory" in by_op:
            junk = [c for c in by_op["laboratory"] if worth(c[1]) < 0]
            if junk:
                return junk[0]
        if "museum" in by_op:
            junk = [c for c in by_op["museum"] if worth(c[1]) < 0]
            if junk:
                return junk[0]
        if "smithy" in by_op and gold >= 5 and not [c for c in hand if worth(c) > 0]:
            return ("smithy",)
        if "beautify" in by_op and gold >= 4:
            return max(by_op["beautify"], key=lambda c: C.CARD_COST[c[1]])
        if "end_turn" in by_op:
            return ("end_turn",)
        return legal[0]

    def _draft(self, v, seat, legal, me, hand, city_kinds, rng) -> Any:
        colours: dict[str, int] = {}
        for d in me["city"]:
            colours[d["colour"]] = colours.get(d["colour"], 0) + 1
        gold = me["gold"]
        useful = [c for c in hand if C.CARD_KIND[c] not in city_kinds]
        others = [p for p in v["players"] if p["seat"] != seat]

        def score(ch: str) -> float:
            s = _BASE.get(ch, 2.0)
            col = C.INCOME_COLOUR.get(ch)
            if col:
                s += colours.get(col, 0) + ("school_of_magic" in city_kinds)
            if ch == "architect" and gold >= 4 and len(useful) >= 2:
                s += 3
            if ch == "navigator" and gold < 4:
                s += 1
            if ch == "magician" and not useful and max(p["hand_size"] for p in others) >= 3:
                s += 3
            if ch == "thief" and max(p["gold"] for p in others) >= 4:
                s += 1
            if ch == "alchemist" and gold >= 4 and useful:
                s += 2
            if ch in ("bishop",) and len(me["city"]) >= 5:
                s += 1
            if ch in ("king", "emperor") and v["crown"] != seat:
                s += 0.5
            return s + rng.random() * 0.5

        if legal[0][0] == "discard_character":
            return max(legal, key=lambda c: score(c[1]))
        return max(legal, key=lambda c: score(c[1]))

    def _hit(self, v, seat, codes, rng) -> Any:
        mine = set(v.get("my_characters") or [])
        options = [c for c in codes if c[1] not in mine]
        if not options:
            return codes[0]
        weight = {ch: len(_VICTIMS) - i for i, ch in enumerate(_VICTIMS)}
        return max(options, key=lambda c: weight.get(c[1], 0) + rng.random() * 6)


def _owner(v, card: int) -> int:
    cid = C.CARD_ID[card]
    for p in v["players"]:
        if any(d["id"] == cid for d in p["city"]):
            return p["seat"]
    return -1


def _destroy_cost(v, card: int) -> int:
    cid = C.CARD_ID[card]
    for p in v["players"]:
        for d in p["city"]:
            if d["id"] == cid:
                wall = any(x["kind"] == "great_wall" for x in p["city"]) and d["kind"] != "great_wall"
                return d["cost"] + d["beautified"] - 1 + wall
    return 99


# -- search (issue 14) ---------------------------------------------------------------------------
#
# What a seat cannot see: the other hands, the deck order (and the Museum's cards unless it owns
# the Museum), the face-down characters, who holds the characters not yet revealed, what the
# others saw and discarded in the draft, and the seed. A determinisation is a copy of the table in
# which every one of those is replaced: district cards are the match's cards minus those the view
# shows, dealt at random in the sizes the view gives; characters come from replaying this round's
# draft (its seat order is public) with choices for the others that agree with the view -
# the choices this seat saw at each of its steps, its own picks and discards, the characters
# revealed so far and those already called with nobody answering. The others' choices are first
# guessed with the heuristic player's draft score (the usual opponent; replays the view rules out
# are rejected, accepted ones are reused within the decision), else drawn uniformly. The copy
# keeps only what every player sees (cities, gold, crown, the turn being played); tests/ai check
# that changing the hidden parts of the real state changes nothing in the decision.


def _cards_unknown(view: dict) -> list[int]:
    """The district cards this seat cannot see (sorted): the match's cards minus its hand, every
    city, the Museum's cards if it may see them and the cards of its own pending choice."""
    full = list(C.BASE_CARDS) + (list(C.DARK_CITY_CARDS) if view["dark_city"] else [])
    left: dict[int, int] = {}
    for c in full:
        left[c] = left.get(c, 0) + 1
    seen = [C.CARD_OF_ID[d["id"]] for d in view["hand"]]
    for p in view["players"]:
        seen.extend(C.CARD_OF_ID[d["id"]] for d in p["city"])
    if view["museum_cards"] is not None:
        seen.extend(C.CARD_OF_ID[d["id"]] for d in view["museum_cards"])
    pend = view["pending"]
    if pend is not None:
        if pend.get("cards"):
            seen.extend(C.CARD_OF_ID[d["id"]] for d in pend["cards"])
        if pend.get("district"):
            seen.append(C.CARD_OF_ID[pend["district"]["id"]])
    for c in seen:
        if left.get(c):
            left[c] -= 1
    return sorted(c for c, k in left.items() for _ in range(k))


def _replay_draft(view: dict, seat: int, steps: list, upto: int, rng: random.Random, model=None):
    """This round's draft replayed to step ``upto`` (exclusive) with random choices for the
    others that agree with the view: (face_down, pool, picks, seen, discarded), or None when the
    random choices reached a dead end. ``model(seat, kind, choices, rng)``, when given, is how the
    others choose (a guess at their play); a guess that the view rules out rejects the replay."""
    roster = view["characters"]
    n = len(view["players"])
    revealed = view["revealed"]
    mine_seen = [set(x) for x in view["draft_seen"]]
    my_picks = list(view["my_characters"])
    my_discards = list(view["my_discards"])
    mine = set(my_picks) | set(my_discards)
    unowned: set[str] = set()  # already called with nobody answering
    turn = view["turn"]
    if view["phase"] == "turn" and turn is not None:
        r = roster.index(turn["character"])
        unowned = {c for c in roster[:r] if c not in revealed and c != view["murdered"]}
    chars = [c for c in roster if c not in view["face_up"]]
    first = mine_seen[0] if mine_seen else set()
    my_first_step = next((i for i, (s, _k) in enumerate(steps) if s == seat), -1)
    if n >= 4 and my_first_step == len(steps) - 1:
        first = set()  # the last drafter also saw the face-down card
    last_seat = steps[-1][0] if n >= 4 else -1  # may take the face-down card at the end
    options = [c for c in chars if revealed.get(c, last_seat) == last_seat and c not in mine and c not in first]
    if not options:
        return None
    fd = options[int(rng.random() * len(options))]
    face_down = [fd]
    pool = [c for c in chars if c != fd]
    picks: list[list[str]] = [[] for _ in range(n)]
    seen: list[list[list[str]]] = [[] for _ in range(n)]
    discarded: list[list[str]] = [[] for _ in range(n)]
    k_seen = k_pick = k_disc = 0
    for i in range(upto):
        s, kind = steps[i]
        last = n >= 4 and i == len(steps) - 1 and len(pool) == 1
        choices = sorted(pool + face_down, key=roster.index) if last else list(pool)
        seen[s].append(choices)
        if s == seat:
            if k_seen >= len(mine_seen) or mine_seen[k_seen] != set(choices):
                return None
            k_seen += 1
            if kind == "discard":
                ch, k_disc = my_discards[k_disc], k_disc + 1
            else:
                ch, k_pick = my_picks[k_pick], k_pick + 1
        else:
            nxt = mine_seen[k_seen] if k_seen < len(mine_seen) else set()
            if kind == "discard":
                options = [c for c in choices if c not in nxt and c not in revealed and c not in mine]
            else:
                options = [c for c in choices if c not in nxt and c not in unowned and c not in mine
                           and revealed.get(c, s) == s]
                forced = [c for c in options if revealed.get(c) == s]
                if forced:
                    options = forced
            if not options:
                return None
            if model is not None:
                ch = model(s, kind, choices, rng)
                if ch not in options:
                    return None
            else:
                ch = options[int(rng.random() * len(options))]
        if kind == "discard":
            pool.remove(ch)
            face_down.append(ch)
            discarded[s].append(ch)
        else:
            if ch in pool:
                pool.remove(ch)
            else:  # the last drafter took the face-down card
                face_down.remove(ch)
                face_down.append(pool.pop())
            picks[s].append(ch)
    if upto >= len(steps):
        face_down.extend(pool)
        pool = []
    else:  # the seat drafting now sees the pool
        last = n >= 4 and upto == len(steps) - 1 and len(pool) == 1
        now = sorted(pool + face_down, key=roster.index) if last else list(pool)
        seen[steps[upto][0]].append(now)
        if steps[upto][0] == seat and (k_seen >= len(mine_seen) or mine_seen[k_seen] != set(now)):
            return None
    for c, s in revealed.items():
        if c not in picks[s]:
            return None
    return face_down, pool, picks, seen, discarded


class CitadelsSearch:
    """Search parts for Citadels. ``needs_table``: the determiniser starts from a copy of the
    table and replaces everything hidden in it (see above)."""

    needs_table = True

    def __init__(self, rounds_ahead: int = 0, scale: float = 4.0, model: str = "heuristic",
                 draft_tries: int = 30, draft_noise: float = 1.0, draft_pool: int = 24) -> None:
        self.draft_pool = draft_pool
        self.draft_tries = draft_tries  # replays with the others drafting like the heuristic
        self.draft_noise = draft_noise
        self.rounds_ahead = rounds_ahead
        self.scale = scale
        self.model = model
        self._heuristic = HeuristicPlayer()
        self._sample = None

    def determiniser(self, game: Any, view: dict, seat: int, table: Any = None):
        base = game.clone(table)
        n = base.n
        unknown = _cards_unknown(view)
        sizes = [p["hand_size"] if p["seat"] != seat else 0 for p in view["players"]]
        museum_hidden = view["museum_cards"] is None
        museum_size = view["museum_size"] if museum_hidden else 0
        deck_size = view["deck_size"]
        # the public parts of the table come from the view; nothing hidden survives the copy
        my_hand = [C.CARD_OF_ID[d["id"]] for d in view["hand"]]
        steps = [list(x) for x in base.steps]  # the draft order: public
        upto = base.step_i if view["phase"] == "draft" else len(steps)
        for attr in ("deck", "hands", "museum", "face_down", "pool", "picks", "owner", "seen", "discarded"):
            setattr(base, attr, None)
        base.rng = Rng(0)

        def sample(rng: random.Random) -> Any:
            d = game.clone(base)
            cards = unknown[:]
            rng.shuffle(cards)
            hands = []
            k = 0
            for s in range(n):
                if s == seat:
                    hands.append(my_hand[:])
                else:
                    hands.append(cards[k : k + sizes[s]])
                    k += sizes[s]
            d.hands = hands
            d.museum = cards[k : k + museum_size] if museum_hidden else list(table_museum)
            k += museum_size
            d.deck = cards[k : k + deck_size]
            drafted = None
            if model_tries and failed[0] < 4:
                # the others draft like the heuristic: replays that agree with the view are kept
                # (up to ``draft_pool``) and later determinisations reuse them
                if len(replays) >= self.draft_pool:
                    fd, pl, pk, sn, dc = replays[int(rng.random() * len(replays))]
                    drafted = (fd[:], pl[:], [x[:] for x in pk], [[y[:] for y in x] for x in sn], [x[:] for x in dc])
                else:
                    model = _draft_model(d, noise)
                    for _ in range(model_tries):
                        drafted = _replay_draft(view, seat, steps, upto, rng, model)
                        if drafted is not None:
                            fd, pl, pk, sn, dc = drafted
                            replays.append((fd[:], pl[:], [x[:] for x in pk], [[y[:] for y in x] for x in sn],
                                            [x[:] for x in dc]))
                            break
                    else:
                        failed[0] += 1
            if drafted is None:
                for _ in range(30):
                    drafted = _replay_draft(view, seat, steps, upto, rng)
                    if drafted is not None:
                        break
            if drafted is None:
                drafted = _loose_characters(view, seat, steps, upto, rng)
            face_down, pool, picks, seen, discarded = drafted
            d.face_down, d.pool, d.picks, d.seen, d.discarded = face_down, pool, picks, seen, discarded
            d.owner = {c: s for s in range(n) for c in picks[s]}
            d.rng = Rng(rng.getrandbits(53))
            return d

        table_museum = [C.CARD_OF_ID[x["id"]] for x in view["museum_cards"]] if not museum_hidden else []
        model_tries = self.draft_tries
        replays: list = []
        failed = [0]
        noise = self.draft_noise
        self._sample = sample
        return sample

    # -- playouts ----------------------------------------------------------------------------

    def horizon(self, game: Any, st: Any) -> int:
        return st.round + self.rounds_ahead

    def stop(self, game: Any, st: Any, mark: int) -> bool:
        return st.round > mark

    def policy(self, game: Any, st: Any, seat: int, legal: list, rng: random.Random) -> Any:
        """Every seat plays like the heuristic player (the usual opponent), on the determinised
        state; ``model="simple"``: the older rule of thumb below."""
        if self.model == "heuristic":
            if len(legal) == 1:
                return legal[0]
            return self._heuristic.choose_from(game, st, seat, legal, rng, _light_view(game, st, seat))
        return self._simple_policy(game, st, seat, legal, rng)

    def _simple_policy(self, game: Any, st: Any, seat: int, legal: list, rng: random.Random) -> Any:
        """Build the dearest district it can, take gold while it holds something to build, use
        no other ability at random more than half the time; otherwise random."""
        best, best_cost = None, -1
        income = end = None
        others = []
        for code in legal:
            op = code[0]
            if op == "build":
                cost = C.CARD_COST[code[1]]
                if cost > best_cost:
                    best, best_cost = code, cost
            elif op == "income":
                if income is None or (code[1] == "gold") == bool(st.hands[seat]):
                    income = code
            elif op == "end_turn":
                end = code
            elif op in ("collect", "thank"):
                return code
            else:
                others.append(code)
        if best is not None:
            return best
        if income is not None:
            return income
        if others and (end is None or rng.random() < 0.4):
            return others[int(rng.random() * len(others))]
        return end if end is not None else legal[int(rng.random() * len(legal))]

    def evaluate(self, game: Any, st: Any, root_seat: int) -> list[float]:
        res = game.result(st)
        n = st.n
        if res is not None:
            first = res.ranking[0]
            return [1.0 / len(first) if p in first else 0.0 for p in range(n)]
        try:
            scores = game.scores(st)
        except NotImplementedError:  # no live scores in this engine version
            scores = game._scores(st)
        value = [scores[p] + 0.5 * st.gold[p] + 0.7 * len(st.hands[p]) for p in range(n)]
        out = []
        for p in range(n):
            other = max(value[q] for q in range(n) if q != p)
            out.append(1.0 / (1.0 + math.exp(-(value[p] - other) / self.scale)))
        return out

    def prior(self, game: Any, view: dict, seat: int, legal: list, rng: random.Random) -> dict:
        """The heuristic player's choice, from a determinisation (it reads the view only)."""
        if self._sample is None:
            return {}
        d = self._sample(random.Random(rng.getrandbits(64)))
        return {HeuristicPlayer().choose(game, d, seat, random.Random(0)): 1.0}


def _draft_model(st: Any, noise: float):
    """How the heuristic player drafts (its ``_draft`` score), read from a determinised state - the
    others' hands there are a guess, and gold and cities may have moved since the draft, hence a
    little more noise than the heuristic's own."""
    n = st.n

    def score(s: int, ch: str) -> float:
        city = st.cities[s]
        kinds = {C.CARD_KIND[c] for c in city}
        v = _BASE.get(ch, 2.0)
        col = C.INCOME_COLOUR.get(ch)
        if col:
            v += sum(1 for c in city if C.CARD_COLOUR[c] == col) + ("school_of_magic" in kinds)
        gold = st.gold[s]
        if ch == "architect":
            if gold >= 4 and sum(1 for c in st.hands[s] if C.CARD_KIND[c] not in kinds) >= 2:
                v += 3
        elif ch == "navigator":
            if gold < 4:
                v += 1
        elif ch == "magician":
            if not any(C.CARD_KIND[c] not in kinds for c in st.hands[s]) and max(
                len(st.hands[q]) for q in range(n) if q != s
            ) >= 3:
                v += 3
        elif ch == "thief":
            if max(st.gold[q] for q in range(n) if q != s) >= 4:
                v += 1
        elif ch == "alchemist":
            if gold >= 4 and any(C.CARD_KIND[c] not in kinds for c in st.hands[s]):
                v += 2
        elif ch == "bishop":
            if len(city) >= 5:
                v += 1
        elif ch in ("king", "emperor") and st.crown != s:
            v += 0.5
        return v

    def model(s: int, kind: str, choices: list, rng: random.Random) -> str:
        return max(choices, key=lambda ch: score(s, ch) + rng.random() * noise)

    return model


_SCORE_SPECIAL = frozenset(("museum", "imperial_treasury", "map_room", "wishing_well", "haunted_city"))


def _score_now(game: Any, st: Any, s: int, fr: int) -> int:
    """The engine's score of seat ``s`` (``_score_parts``' total), quicker for the usual city."""
    city = st.cities[s]
    pts = 0
    cols = set()
    for c in city:
        if C.CARD_KIND[c] in _SCORE_SPECIAL:
            return game._score_parts(st, s, fr)["total"]
        pts += C.CARD_POINTS[c]
        cols.add(C.CARD_COLOUR[c])
    if st.beautified:
        pts += sum(1 for c in city if c in st.beautified)
    if len(cols) >= 5:
        pts += 3
    if st.complete_order and len(city) >= game._end_count(st):
        pts += 4 if st.complete_order[0] == s else 2
    return pts


_CARD_VIEW = {}  # (card, beautified) -> the card as a view shows it in a city (shared: read only)


def _light_view(game: Any, st: Any, seat: int) -> dict:
    """The parts of ``game.view(st, seat)`` the heuristic player reads, built faster (no
    Warlord prices, cached card dicts; of a pending choice only its kind and the Graveyard's
    district); the full view when the match is over. tests/ai check that the heuristic chooses the
    same from both."""
    if st.phase == "over":
        return game.view(st, seat)
    pend = st.pending
    if pend is not None:
        pend = {"kind": pend["kind"], "district": C.card_json(pend["card"]) if pend["kind"] == "graveyard" else None}
    fr = st.final_round or st.round + 1
    beaut = st.beautified
    players = []
    for s in range(st.n):
        city = []
        for c in st.cities[s]:
            key = (c, c in beaut)
            d = _CARD_VIEW.get(key)
            if d is None:
                d = _CARD_VIEW[key] = dict(C.card_json(c), beautified=key[1])
            city.append(d)
        players.append({"seat": s, "gold": st.gold[s], "hand_size": len(st.hands[s]), "city": city,
                        "score": _score_now(game, st, s, fr)})
    hand = []
    for c in st.hands[seat]:
        key = (c, False)
        d = _CARD_VIEW.get(key)
        if d is None:
            d = _CARD_VIEW[key] = dict(C.card_json(c), beautified=False)
        hand.append(d)
    return {
        "phase": st.phase,
        "crown": st.crown,
        "players": players,
        "hand": hand,
        "pending": pend,
        "turn": {"character": st.t_char} if st.phase == "turn" else None,
        "my_characters": list(st.picks[seat]),
    }


def _loose_characters(view: dict, seat: int, steps: list, upto: int, rng: random.Random):
    """When no draft replay agrees with the view (an unusual round): the characters this seat
    cannot place, dealt at random to the others' unrevealed picks and the face-down pile."""
    roster = view["characters"]
    n = len(view["players"])
    revealed = view["revealed"]
    picks: list[list[str]] = [[] for _ in range(n)]
    picks[seat] = list(view["my_characters"])
    for c, s in revealed.items():
        if c not in picks[s]:
            picks[s].append(c)
    counts = [0] * n
    for i in range(upto):
        s, kind = steps[i]
        if kind == "pick":
            counts[s] += 1
    known = set(view["face_up"]) | set(view["my_characters"]) | set(view["my_discards"]) | set(revealed)
    free = [c for c in roster if c not in known]
    rng.shuffle(free)
    for s in range(n):
        while len(picks[s]) < counts[s] and free:
            picks[s].append(free.pop())
    pool = []
    if view["phase"] == "draft" and view["draft"] and view["draft"]["choices"] is not None:
        pool = [c for c in view["draft"]["choices"] if c in free]
        free = [c for c in free if c not in pool]
    discarded = [[] for _ in range(n)]
    discarded[seat] = list(view["my_discards"])
    seen = [[] for _ in range(n)]
    seen[seat] = [list(x) for x in view["draft_seen"]]
    return free + list(view["my_discards"]), pool, picks, seen, discarded


# A root-only tree; the heuristic's choice as the root prior (and 15 extra visits when choosing);
# determinisations replay the draft with the others drafting like the heuristic; playouts to the
# end of the round with every seat playing like the heuristic (on a light view). Measured
# 2026-12-03, 4 players against 3 heuristics, pinned to core 1 while another tournament ran on
# core 0: strong (0.3 s, median 454 iterations) first in 29/60 = 48% (95% CI 36-61%, seeds
# 5000-5059; 71/140 = 51% with seeds 6000-6039 and 7000-7039), normal (0.1 s, ~200 iterations)
# 30/80 = 38% (seeds 5000-5039, 7000-7039); before these changes strong scored 3/20 on seeds
# 1000-1019 on the same machine. See docs/benchmarks.md.
NormalPlayer = level_player("normal", CitadelsSearch, prior_weight=10.0, depth=1, prior_final=15.0)
StrongPlayer = level_player("strong", CitadelsSearch, prior_weight=10.0, depth=1, prior_final=15.0)

PLAYERS = {"heuristic": HeuristicPlayer, "easy": HeuristicPlayer, "normal": NormalPlayer, "strong": StrongPlayer}
