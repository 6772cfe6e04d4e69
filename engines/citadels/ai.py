"""Citadels AI players. They see the match only through ``game.view`` and ``game.legal``."""

from __future__ import annotations

import random
from typing import Any

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
        legal = game.legal(state, seat)
        if len(legal) == 1:
            return legal[0]
        v = game.view(state, seat)
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


PLAYERS = {"heuristic": HeuristicPlayer}
