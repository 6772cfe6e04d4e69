"""The rules of a Cities turn: who moves, the legal actions and why others are refused, applying
an action (the end of a turn, of a round and of the game), scores, views and redealing what
nobody sees. The table is ``state``, the setup ``setup``, the action codes ``actions``."""

from __future__ import annotations

import copy
from typing import Any

from ..core import BadAction, Event, Game, IllegalAction, Outcome, Result, rank_by
from ..rng import Rng
from . import actions, state
from .actions import TAKE_CODES, Action, well_formed
from .components import (
    BOARDS,
    CARD_IDS,
    CARDS,
    COLOURS,
    DESIGN_BG,
    DESIGNS,
    FEATURE_DESIGN,
    FEATURE_IDS,
    FEATURE_INDEX,
    MAX_HEIGHT,
    ROTATED,
    SPACE_TYPES,
    TILE_IDS,
    TILE_INDEX,
    WILD,
)
from .scoring import ACHIEVEMENT_COUNTERS, CARD_COUNTERS, Hood, end_points, fits
from .setup import Options, deal, new_table
from .state import (
    COVERED,
    HIDDEN,
    KEYS,
    OVER,
    PHASES,
    PLACE,
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
    item_id,
    per_row,
)

CARDS_VP = tuple(c["vp"] for c in CARDS)


class Cities(Game[State]):
    key = "cities"
    name = "Cities"
    names = {"en": "Cities", "es": "Cities"}
    min_players = 2
    max_players = 4
    Options = Options
    Action = Action

    # -- setup ---------------------------------------------------------------------------------

    def new_state(self, n_seats: int, options: Options, seed: int | None, setup: Any) -> State:
        self.check_seats(n_seats)
        return new_table(n_seats, options, seed, setup)

    def to_move(self, s: State) -> tuple[int, ...]:
        if s.phase == OVER:
            return ()
        if s.phase == START:
            return (s.pick_order[0],)
        return (s.turn,)

    def _tile_ok(self, s: State, seat: int, tx: int, ty: int) -> str | None:
        h = s.hoods[seat]
        if (tx, ty) in h.tcells:
            return "cell_taken"
        tc = h.tcells
        if not ((tx + 1, ty) in tc or (tx - 1, ty) in tc or (tx, ty + 1) in tc or (tx, ty - 1) in tc):
            return "not_adjacent"
        if not fits(h.spans_after(tx, ty), s.long):
            return "too_big"
        return None

    @staticmethod
    def _feature_ok(h: Hood, f: int, i: int | None) -> str | None:
        if i is None:
            return "no_space"
        if h.feat[i] >= 0:
            return "space_has_feature"
        bg = DESIGN_BG[FEATURE_DESIGN[f]]
        if bg < 0:
            if h.stype[i] >= 4:
                return "grey_on_city"
            if h.height[i]:
                return "space_built"
            return None
        if h.stype[i] != bg:
            return "wrong_background"
        return None

    @staticmethod
    def _piece_ok(h: Hood, c: int, i: int | None) -> str | None:
        if i is None:
            return "no_space"
        if h.stype[i] >= 4:
            return "not_city"
        feat = h.feat[i]
        if feat >= 0 and feat != WILD:
            return "space_has_feature"
        height = h.height[i]
        if height == 0:
            if h.stype[i] != c and feat != WILD:
                return "wrong_colour"
            return None
        if h.colour[i] != c:
            return "wrong_colour"
        if height >= MAX_HEIGHT:
            return "too_high"
        return None

    def legal(self, s: State, seat: int) -> list[Any]:
        if s.phase == OVER or seat not in self.to_move(s):
            return []
        if s.phase == START:
            return [("start", t) for t in s.start_left]
        if s.phase == TAKE:
            cap = per_row(s.n)
            used = s.used[seat]
            out = []
            for r in range(4):
                if used[r] < cap:
                    w = s.workers[r]
                    out += [t for t, k in zip(TAKE_CODES[r], w, strict=True) if k < 0]
            return out
        h = s.hoods[seat]
        if s.p_tile >= 0:
            spots = h.tile_spots(s.long)
            if not spots:
                return [("decline_tile", s.p_tile)]
            return [("tile", tx, ty, rot) for tx, ty in spots for rot in range(4)]
        out = []
        feat, stype, height, xy = h.feat, h.stype, h.height, h.xy
        if s.p_feats:
            # one pass over the spaces; the spaces of each held feature in space order
            held = list(dict.fromkeys(s.p_feats))
            by_f: dict[int, list[Any]] = {f: [] for f in held}
            bgs = [(f, DESIGN_BG[FEATURE_DESIGN[f]]) for f in held]
            for i in range(len(stype)):
                if feat[i] >= 0:
                    continue
                st = stype[i]
                for f, bg in bgs:
                    if st == bg or (bg < 0 and st < 4 and not height[i]):
                        x, y = xy[i]
                        by_f[f].append(("feature", f, x, y))
            for f in held:
                out += by_f[f]
                out.append(("decline_feature", f))
            return out
        colour = h.colour
        held_c = list(dict.fromkeys(s.p_pieces))
        by_c: dict[int, list[Any]] = {c: [] for c in held_c}
        for i in h.city:
            ht = height[i]
            if ht == 0:
                fe = feat[i]
                if fe < 0:
                    lst = by_c.get(stype[i])
                    if lst is not None:
                        x, y = xy[i]
                        lst.append(("build", stype[i], x, y))
                elif fe == WILD:
                    x, y = xy[i]
                    for c in held_c:
                        by_c[c].append(("build", c, x, y))
            elif ht < MAX_HEIGHT:  # a stack: never on a monument, maybe on a wild space
                lst = by_c.get(colour[i])
                if lst is not None:
                    x, y = xy[i]
                    lst.append(("build", colour[i], x, y))
        for c in held_c:
            out += by_c[c]
            out.append(("decline_piece", c))
        return out

    def check(self, s: State, seat: int, code: Any) -> None:
        if not well_formed(code):
            raise BadAction("bad_action", "not a Cities action")
        kind = code[0]
        if s.phase == OVER:
            raise IllegalAction("game_over", "the match is over")
        if seat not in self.to_move(s):
            raise IllegalAction("not_your_turn", "it is not your turn", seat=self.to_move(s)[0])
        if s.phase == START:
            if kind != "start":
                raise IllegalAction("must_pick_start", "first pick your starting tile")
            if code[1] not in s.start_left:
                raise IllegalAction("start_not_offered", f"{TILE_IDS[code[1]]} is not one of the starting tiles left",
                                    tile=TILE_IDS[code[1]])
            return
        if kind == "start":
            raise IllegalAction("start_done", "the starting tiles are already chosen")
        if s.phase == TAKE:
            if kind != "take":
                raise IllegalAction("must_take", "first put a worker on a row slot to take what lies there")
            _, r, k = code
            row = ROWS[r]
            if s.workers[r][k] >= 0:
                raise IllegalAction("slot_taken", f"row {row} slot {k + 1} is already taken", row=row, slot=k + 1)
            cap = per_row(s.n)
            if s.used[seat][r] >= cap:
                if cap == 1:
                    raise IllegalAction("row_used", f"you already have a worker in row {row} this round", row=row)
                raise IllegalAction("row_used_twice", f"you already have two workers in row {row} this round", row=row)
            return
        # PLACE
        if kind == "take":
            raise IllegalAction("must_place", "first place or decline what you took")
        h = s.hoods[seat]
        if kind in ("tile", "decline_tile"):
            if s.p_tile < 0:
                raise IllegalAction("no_tile", "you have no city tile to place")
            if kind == "decline_tile":
                if code[1] != s.p_tile:
                    raise IllegalAction("not_pending", f"you are not holding {TILE_IDS[code[1]]}", item=TILE_IDS[code[1]])
                if h.tile_spots(s.long):
                    raise IllegalAction("tile_fits", "the city tile fits in your neighbourhood: place it")
                return
            _, tx, ty, _rot = code
            why = self._tile_ok(s, seat, tx, ty)
            if why:
                raise IllegalAction(why, _TILE_REASONS[why].format(x=tx, y=ty, size="3x5" if s.long else "3x3"),
                                    x=tx, y=ty, size="3x5" if s.long else "3x3")
            return
        if kind in ("feature", "decline_feature"):
            f = code[1]
            if f not in s.p_feats:
                raise IllegalAction("not_pending", f"you are not holding {FEATURE_IDS[f]}", item=FEATURE_IDS[f])
            if kind == "decline_feature":
                return
            _, _, x, y = code
            why = self._feature_ok(h, f, h.cells.get((x, y)))
            if why:
                design = DESIGNS[FEATURE_DESIGN[f]]
                raise IllegalAction(why, _FEATURE_REASONS[why].format(x=x, y=y, design=design), x=x, y=y, design=design)
            return
        c = code[1]
        if c not in s.p_pieces:
            raise IllegalAction("not_pending", f"you are not holding a {COLOURS[c]} piece", item=COLOURS[c])
        if kind == "decline_piece":
            return
        _, _, x, y = code
        why = self._piece_ok(h, c, h.cells.get((x, y)))
        if why:
            raise IllegalAction(why, _PIECE_REASONS[why].format(x=x, y=y, colour=COLOURS[c], max=MAX_HEIGHT),
                                x=x, y=y, colour=COLOURS[c], max=MAX_HEIGHT)

    # -- applying ------------------------------------------------------------------------------

    def step(self, s: State, seat: int, code: Any) -> Outcome:
        kind = code[0]
        events: list[Event] = []
        revealed = False
        if kind == "start":
            t = code[1]
            s.start_left.remove(t)
            s.hoods[seat].add_tile(t, 0, 0, 0)
            s.pick_order.pop(0)
            events.append(Event("start_pick", seat, {"tile": TILE_IDS[t]}))
            s.last = {"seat": seat, "action": "start", "tile": TILE_IDS[t]}
            if not s.pick_order:
                s.removed["tiles"].extend(s.start_left)
                s.start_left = []
                s.phase = TAKE
                s.turn = s.star
            return Outcome(events, False, turn_ended=True)
        h = s.hoods[seat]
        if kind == "take":
            _, r, k = code
            items = s.rows[r][k]
            s.rows[r][k] = []
            s.workers[r][k] = seat
            s.used[seat][r] += 1
            s.left[seat] -= 1
            revealed = (r, k) in HIDDEN
            if r == ROW_A:
                s.cards[seat].extend(items)
                names = [CARD_IDS[i] for i in items]
            elif r == ROW_B:
                if items:
                    s.p_tile = items[0]
                names = [TILE_IDS[i] for i in items]
            elif r == ROW_C:
                s.p_feats = list(items)
                names = [FEATURE_IDS[i] for i in items]
            else:
                if k == STAR_SLOT:
                    items = s.bag[len(s.bag) - STAR_DRAW:][::-1]
                    del s.bag[max(0, len(s.bag) - STAR_DRAW):]
                    revealed = True
                s.p_pieces = list(items)
                names = [COLOURS[i] for i in items]
            events.append(Event("took", seat, {"row": ROWS[r], "slot": k, "items": names}))
            s.last = {"seat": seat, "action": "take", "row": ROWS[r], "slot": k, "items": names}
        elif kind == "tile":
            _, tx, ty, rot = code
            t = s.p_tile
            h.add_tile(t, tx, ty, rot)
            s.dirty[seat] = True
            s.p_tile = -1
            events.append(Event("placed_tile", seat, {"tile": TILE_IDS[t], "x": tx, "y": ty, "rot": rot}))
            s.last = {"seat": seat, "action": "tile", "tile": TILE_IDS[t], "x": tx, "y": ty, "rot": rot}
        elif kind == "feature":
            _, f, x, y = code
            i = h.cells[(x, y)]
            h.feat[i] = FEATURE_DESIGN[f]
            s.dirty[seat] = True
            h.fid[i] = f
            s.p_feats.remove(f)
            events.append(Event("placed_feature", seat, {"feature": FEATURE_IDS[f], "x": x, "y": y}))
            s.last = {"seat": seat, "action": "feature", "feature": FEATURE_IDS[f], "x": x, "y": y}
        elif kind == "build":
            _, c, x, y = code
            i = h.cells[(x, y)]
            h.height[i] += 1
            s.dirty[seat] = True
            h.colour[i] = c
            s.p_pieces.remove(c)
            events.append(Event("built", seat, {"colour": COLOURS[c], "x": x, "y": y, "height": h.height[i]}))
            s.last = {"seat": seat, "action": "build", "colour": COLOURS[c], "x": x, "y": y, "height": h.height[i]}
        else:
            item = code[1]
            if kind == "decline_tile":
                s.p_tile = -1
                s.removed["tiles"].append(item)
                label = TILE_IDS[item]
            elif kind == "decline_feature":
                s.p_feats.remove(item)
                s.removed["features"].append(item)
                label = FEATURE_IDS[item]
            else:
                s.p_pieces.remove(item)
                s.removed["pieces"].append(item)
                label = COLOURS[item]
            events.append(Event("declined", seat, {"item": label}))
            s.last = {"seat": seat, "action": "decline", "item": label}
        if s.p_tile >= 0 or s.p_feats or s.p_pieces:
            s.phase = PLACE
            return Outcome(events, revealed, turn_ended=False)
        revealed |= self._end_turn(s, seat, events)
        return Outcome(events, revealed, turn_ended=True)

    def _end_turn(self, s: State, seat: int, events: list[Event]) -> bool:
        """Claim achievements, pass the turn; end the round (and the game) when no worker is left.
        Returns True when new items were revealed (a new round dealt)."""
        s.phase = TAKE
        s.turns += 1
        self._claim(s, seat, events)
        n = s.n
        for k in range(1, n + 1):
            nxt = (seat + k) % n
            if s.left[nxt]:
                s.turn = nxt
                return False
        # end of the round: the worker nearest the star space takes the star
        star = next(w for w in reversed(s.workers[ROW_D]) if w >= 0)
        leftovers: dict[str, list[int]] = {"cards": [], "tiles": [], "features": [], "pieces": []}
        hidden = 0
        for r, key in enumerate(KEYS):
            for k in range(4):
                hid = HIDDEN.get((r, k))
                for j, x in enumerate(s.rows[r][k]):
                    if j == hid:  # never turned up: it leaves the game face down
                        s.removed["hidden_" + key].append(x)
                        hidden += 1
                    else:
                        leftovers[key].append(x)
                        s.removed[key].append(x)
                s.rows[r][k] = []
        left_ids = {key: [item_id(r, x) for x in leftovers[key]] for r, key in enumerate(KEYS)}
        left_ids["hidden"] = hidden
        events.append(Event("round_end", None, {"round": s.round + 1, "star": star, "removed": left_ids}))
        s.round += 1
        s.star = star
        s.turn = star
        if s.round >= s.rounds:
            s.phase = OVER
            events.append(Event("game_over", None, self.result(s).to_json()))
            return True  # the leftovers' hidden faces are shown
        deal(s)
        events.append(Event("round_start", None, {"round": s.round + 1, "star": star}))
        return True

    def _claim(self, s: State, seat: int, events: list[Event]) -> None:
        if not s.dirty[seat]:
            return  # nothing new to meet: the last check saw this very neighbourhood
        s.dirty[seat] = False
        board = BOARDS[s.board]["achievements"]
        h = s.hoods[seat]
        for a, ach in enumerate(board):
            rings = s.rings[a]
            if seat in rings or -1 not in rings:
                continue
            if ACHIEVEMENT_COUNTERS[ach["id"]](h) >= ach.get("need", 1):
                pos = rings.index(-1)
                rings[pos] = seat
                events.append(Event("claimed", seat, {"achievement": ach["id"], "points": ach["values"][pos]}))

    # -- scores --------------------------------------------------------------------------------

    def achievement_points(self, s: State) -> list[int]:
        pts = [0] * s.n
        for a, ach in enumerate(BOARDS[s.board]["achievements"]):
            for pos, seat in enumerate(s.rings[a]):
                if seat >= 0:
                    pts[seat] += ach["values"][pos]
        return pts

    def breakdown(self, s: State) -> list[dict[str, Any]]:
        """Per seat: points from achievements, cards (and each card), water, park, monuments, total."""
        ach = self.achievement_points(s)
        out = []
        for seat in range(s.n):
            h = s.hoods[seat]
            per_card = {CARD_IDS[c]: CARD_COUNTERS[c](h) * CARDS_VP[c] for c in s.cards[seat]}
            rest = end_points(h)
            cards = sum(per_card.values())
            total = ach[seat] + cards + rest["water"] + rest["park"] + rest["monuments"]
            out.append({"achievements": ach[seat], "cards": cards, **rest, "total": total, "per_card": per_card})
        return out

    def scores(self, s: State) -> list[int]:
        return [b["total"] for b in self.breakdown(s)]

    def result(self, s: State) -> Result | None:
        if s.phase != OVER:
            return None
        b = self.breakdown(s)
        totals = [x["total"] for x in b]
        ach = [x["achievements"] for x in b]
        ranking = rank_by(totals, ach)
        top = [p for p in range(s.n) if totals[p] == max(totals)]
        if len(top) == 1:
            tiebreak = "none needed"
        elif len(ranking[0]) == 1:
            tiebreak = "equal points: most achievement points wins"
        else:
            tiebreak = "equal points and achievement points: the win is shared"
        return Result(scores=tuple(totals), ranking=ranking, tiebreak=tiebreak, details={"breakdown": b})

    # -- views ---------------------------------------------------------------------------------

    def view(self, s: State, seat: int | None) -> dict[str, Any]:
        rows = []
        for r in range(4):
            slots = []
            for k in range(4):
                items = s.rows[r][k]
                hidden_pos = HIDDEN.get((r, k))
                shown = [x for j, x in enumerate(items) if j != hidden_pos]
                slot = {
                    "slot": k,
                    "items": [item_id(r, x) for x in shown],
                    "hidden": len(items) - len(shown),
                    "worker": s.workers[r][k] if s.workers[r][k] >= 0 else None,
                }
                if r == ROW_D and k == STAR_SLOT:
                    slot["star"] = True
                    slot["draws"] = STAR_DRAW
                slots.append(slot)
            rows.append({"row": ROWS[r], "slots": slots})
        board = BOARDS[s.board]
        b = self.breakdown(s)
        players = []
        for p in range(s.n):
            h = s.hoods[p]
            players.append({
                "seat": p,
                "tiles": [{"tile": TILE_IDS[t], "x": tx, "y": ty, "rot": rot} for t, tx, ty, rot in h.tiles],
                "spaces": [
                    {
                        "x": x, "y": y, "type": SPACE_TYPES[h.stype[i]],
                        "feature": FEATURE_IDS[h.fid[i]] if h.fid[i] >= 0 else None,
                        "design": DESIGNS[h.feat[i]] if h.feat[i] >= 0 else None,
                        "colour": COLOURS[h.colour[i]] if h.height[i] else None,
                        "height": h.height[i],
                    }
                    for i, (x, y) in enumerate(h.xy)
                ],
                "cards": [CARD_IDS[c] for c in s.cards[p]],
                "achievements": [a["id"] for k, a in enumerate(board["achievements"]) if p in s.rings[k]],
                "workers_left": s.left[p],
                "workers_by_row": dict(zip(ROWS, s.used[p], strict=True)),
                "score": b[p],
            })
        pending = None
        if s.phase == PLACE:
            pending = {
                "seat": s.turn,
                "tile": TILE_IDS[s.p_tile] if s.p_tile >= 0 else None,
                "features": [FEATURE_IDS[f] for f in s.p_feats],
                "pieces": [COLOURS[c] for c in s.p_pieces],
            }
        res = self.result(s)
        return {
            "game": self.key,
            "viewer": seat,
            "seats": s.n,
            "long": s.long,
            "max_size": [5, 3] if s.long else [3, 3],
            "round": min(s.round + 1, s.rounds),
            "rounds": s.rounds,
            "phase": PHASES[s.phase],
            "to_move": list(self.to_move(s)),
            "star": s.star,
            "first": s.first,
            "start_tiles": [TILE_IDS[t] for t in s.start_left] if s.phase == START else [],
            "board": {
                "id": board["id"],
                "achievements": [
                    {
                        "id": a["id"],
                        "need": a.get("need", 1),
                        "rings": [
                            {"value": a["values"][pos], "seat": w if w >= 0 else None, "covered": w == COVERED}
                            for pos, w in enumerate(s.rings[k])
                        ],
                    }
                    for k, a in enumerate(board["achievements"])
                ],
            },
            "rows": rows,
            "players": players,
            "pending": pending,
            "bag": len(s.bag),
            "decks": {"cards": len(s.deck_cards), "tiles": len(s.deck_tiles), "features": len(s.deck_features)},
            "removed": {
                **{key: [item_id(r, x) for x in s.removed[key]] for r, key in enumerate(KEYS)},
                "hidden": sum(len(s.removed["hidden_" + key]) for key in KEYS[:3]),
            },
            "last": dict(s.last) if s.last else None,
            "winner": list(res.ranking[0]) if res else None,
        }

    # -- JSON ----------------------------------------------------------------------------------

    def encode(self, code: Any) -> dict[str, Any]:
        return actions.encode(code)

    def decode(self, a: dict[str, Any]) -> Any:
        return actions.decode(a)

    def describe(self, code: Any) -> str:
        return actions.describe(code)

    def dump(self, s: State) -> dict[str, Any]:
        return state.dump(s)

    def load(self, d: dict[str, Any]) -> State:
        return state.load(d)

    def clone(self, s: State) -> State:
        return state.clone(s)

    def redeal(self, s: State, seat: int | None, rng: Any) -> State:
        """Deal anew what nobody sees (Cities has no private hands): each deck's order together with
        the face-down items of its row and the face-down leftovers removed unseen, the bag's order
        and the randomness state. The conformance suite checks every view is unchanged by it."""
        t = self.clone(s)
        kinds = ((t.deck_cards, "hidden_cards"), (t.deck_tiles, "hidden_tiles"), (t.deck_features, "hidden_features"))
        for r, (deck, gone) in enumerate(kinds):
            holders: list[tuple[list[int], int]] = [(deck, i) for i in range(len(deck))]
            holders += [(t.removed[gone], i) for i in range(len(t.removed[gone]))]
            for (row, k), j in HIDDEN.items():
                if row == r and len(t.rows[row][k]) > j:
                    holders.append((t.rows[row][k], j))
            items = [lst[i] for lst, i in holders]
            rng.shuffle(items)
            for (lst, i), item in zip(holders, items, strict=True):
                lst[i] = item
        rng.shuffle(t.bag)
        t.rng = Rng(rng.randrange(2**32), rng.randrange(100)) if t.rng else None
        return t



_TILE_REASONS = {
    "cell_taken": "there is already a tile at ({x}, {y})",
    "not_adjacent": "({x}, {y}) does not touch a tile of your neighbourhood along an edge",
    "too_big": "a tile at ({x}, {y}) would make your neighbourhood bigger than {size} tiles",
}
_FEATURE_REASONS = {
    "no_space": "your neighbourhood has no space ({x}, {y})",
    "space_has_feature": "space ({x}, {y}) already has a feature tile",
    "grey_on_city": "a {design} goes only on an empty city space, and ({x}, {y}) is not a city space",
    "space_built": "a {design} goes only on an empty city space, and ({x}, {y}) has a building",
    "wrong_background": "a {design} does not go on space ({x}, {y}): it needs a space of its background",
}
_PIECE_REASONS = {
    "no_space": "your neighbourhood has no space ({x}, {y})",
    "not_city": "buildings go only on city spaces, and ({x}, {y}) is not one",
    "space_has_feature": "space ({x}, {y}) holds a feature tile: no building there",
    "wrong_colour": "a {colour} piece goes on a {colour} city space, a wild space or a {colour} building, not on ({x}, {y})",
    "too_high": "the building at ({x}, {y}) is already {max} high",
}




def preview(view: dict[str, Any], action: dict[str, Any]) -> dict[str, Any]:
    """A copy of ``view`` with one placement (a legal ``tile`` / ``feature`` / ``build`` action of
    the seat holding the items) drawn into that seat's neighbourhood, for a "preview before
    confirming" picture. It only moves what the view already shows; legality is the engine's
    (``legal`` lists what may be previewed). Other actions return an unchanged copy."""
    out = copy.deepcopy(view)
    pending = out.get("pending") or {}
    seat = pending.get("seat")
    if seat is None:
        return out
    player = out["players"][seat]
    kind = action.get("type")
    if kind == "tile" and pending.get("tile"):
        t = TILE_INDEX[pending["tile"]]
        tx, ty, rot = action["x"], action["y"], action["rot"]
        player["tiles"].append({"tile": pending["tile"], "x": tx, "y": ty, "rot": rot})
        for q, st in enumerate(ROTATED[t][rot]):
            player["spaces"].append({"x": 2 * tx + (q & 1), "y": 2 * ty + (q >> 1), "type": SPACE_TYPES[st],
                                     "feature": None, "design": None, "colour": None, "height": 0})
        pending["tile"] = None
        return out
    spaces = {(sp["x"], sp["y"]): sp for sp in player["spaces"]}
    sp = spaces.get((action.get("x"), action.get("y")))
    if sp is None:
        return out
    if kind == "feature" and action.get("feature") in pending.get("features", []):
        sp["feature"] = action["feature"]
        sp["design"] = DESIGNS[FEATURE_DESIGN[FEATURE_INDEX[action["feature"]]]]
        pending["features"].remove(action["feature"])
    elif kind == "build" and action.get("colour") in pending.get("pieces", []):
        sp["colour"] = action["colour"]
        sp["height"] = sp["height"] + 1
        pending["pieces"].remove(action["colour"])
    return out




GAME = Cities()
