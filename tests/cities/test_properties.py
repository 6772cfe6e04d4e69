"""Properties over seeded random Cities matches: playouts end, replays are identical, legal actions
are exactly the accepted ones, refusals change nothing, views never show hidden items."""

import json
import random

import pytest

from engines.ai import RandomPlayer
from engines.cities import GAME, HIDDEN, _item_id
from engines.cities.components import FEATURE_IDS, N_START, TILE_IDS
from engines.core import EngineError
from engines.match import Match

from .helpers import NAMES

CASES = [(2, False), (3, False), (4, False), (2, True)]


def random_match(n, long, seed, steps=100_000):
    m = Match.create("cities", NAMES[:n], {"long": long}, seed=seed)
    rng = random.Random(seed)
    p = RandomPlayer()
    for _ in range(steps):
        if m.over:
            break
        seat = m.to_move()[0]
        m.apply_code(seat, p.choose(GAME, m.state, seat, rng))
        yield m


@pytest.mark.parametrize(("n", "long"), CASES)
def test_random_playouts_end_and_replay_identically(n, long):
    for seed in range(3):
        *_, m = random_match(n, long, seed)
        assert m.over
        res = m.result()
        assert len(res.scores) == n and sorted(s for place in res.ranking for s in place) == list(range(n))
        # every tile ends in a neighbourhood, nobody exceeds the size limit
        for p in m.view(None)["players"]:
            xs = {t["x"] for t in p["tiles"]}
            ys = {t["y"] for t in p["tiles"]}
            w, h = max(xs) - min(xs) + 1, max(ys) - min(ys) + 1
            assert (max(w, h), min(w, h)) <= ((5, 3) if long else (3, 3))
        log = json.loads(json.dumps(m.to_log()))
        again = Match.from_log(log)
        assert GAME.dump(again.state) == GAME.dump(m.state)
        assert again.result() == res
        # a truncated log replays to the same intermediate state
        half = len(log["actions"]) // 2
        part = Match.from_log({**log, "actions": log["actions"][:half]})
        full = Match.create("cities", NAMES[:n], {"long": long}, seed=seed)
        for entry in log["actions"][:half]:
            full.apply(entry["seat"], entry["action"])
        assert GAME.dump(part.state) == GAME.dump(full.state)


def test_components_are_conserved():
    *_, m = random_match(3, False, 11)
    s = m.state
    cards = [c for cs in s.cards for c in cs] + s.deck_cards + s.removed["cards"] + s.removed["hidden_cards"]
    assert sorted(cards) == list(range(32))
    tiles = [t for h in s.hoods for t, *_ in h.tiles] + s.deck_tiles + s.removed["tiles"] + s.removed["hidden_tiles"]
    assert sorted(tiles) == list(range(len(TILE_IDS)))
    feats = [f for h in s.hoods for f in h.fid if f >= 0] + s.deck_features + s.removed["features"] + s.removed["hidden_features"]
    assert sorted(feats) == list(range(len(FEATURE_IDS)))
    pieces = sum(sum(h.height) for h in s.hoods) + len(s.bag) + len(s.removed["pieces"])
    assert pieces == 100


def candidates(s):
    """A universe of codes around the current state: every take and start, tiles, features and
    pieces on and around every neighbourhood, declines of held and not-held items."""
    out = [("start", t) for t in range(N_START)] + [("take", r, k) for r in range(4) for k in range(4)]
    xs = [x for h in s.hoods for x, _ in h.xy] or [0]
    ys = [y for h in s.hoods for _, y in h.xy] or [0]
    coords = [(x, y) for x in range(min(xs) - 1, max(xs) + 2) for y in range(min(ys) - 1, max(ys) + 2)]
    tcoords = {(x // 2, y // 2) for x, y in coords}
    out += [("tile", tx, ty, r) for tx, ty in tcoords for r in range(4)]
    out += [("decline_tile", t) for t in {N_START, len(TILE_IDS) - 1, max(s.p_tile, N_START)}]
    feats = set(s.p_feats) | {0, len(FEATURE_IDS) - 1}
    out += [("feature", f, x, y) for f in feats for x, y in coords] + [("decline_feature", f) for f in feats]
    out += [("build", c, x, y) for c in range(4) for x, y in coords] + [("decline_piece", c) for c in range(4)]
    return out


@pytest.mark.parametrize(("n", "long"), [(2, False), (4, False)])
def test_legal_actions_are_exactly_the_accepted_ones_and_refusals_change_nothing(n, long):
    checked = 0
    for i, m in enumerate(random_match(n, long, 5)):
        if i % 9 or m.over:
            continue
        s = m.state
        before = GAME.dump(s)
        for seat in range(n):
            legal = GAME.legal(s, seat)
            assert len(set(legal)) == len(legal)
            if seat in m.to_move():
                assert legal  # the mover always has something to do
            lset = set(legal)
            for code in candidates(s) + legal:
                try:
                    GAME.check(s, seat, code)
                    ok = True
                except EngineError as e:
                    ok = False
                    assert e.reason and "\n" not in e.reason
                assert ok == (code in lset), (seat, GAME.describe(code))
                checked += 1
            for code in legal[:3]:
                assert GAME.decode(GAME.encode(code)) == code
                clone = GAME.clone(s)
                GAME.step(clone, seat, code)
        assert GAME.dump(s) == before
        assert GAME.dump(GAME.load(json.loads(json.dumps(before)))) == before
        assert GAME.dump(GAME.clone(s)) == before
        assert GAME.scores(s) == GAME.scores(GAME.load(before))
    assert checked > 1000


def _hide_differently(s, rng):
    """The same state except for what nobody may see: deck orders, the bag, face-down items."""
    t = GAME.clone(s)
    for deck in (t.deck_cards, t.deck_tiles, t.deck_features, t.bag):
        rng.shuffle(deck)
    for (r, k), j in HIDDEN.items():
        deck = (t.deck_cards, t.deck_tiles, t.deck_features)[r]
        slot = t.rows[r][k]
        if len(slot) > j and deck:
            slot[j], deck[0] = deck[0], slot[j]
    return t


def test_views_never_show_face_down_items_or_the_bag_order():
    rng = random.Random(1)
    seen_hidden = 0
    for n in (2, 3, 4):
        for i, m in enumerate(random_match(n, False, 20 + n)):
            if i % 5:
                continue
            s = m.state
            other = _hide_differently(s, rng)
            for seat in (None, *range(n)):
                v = GAME.view(s, seat)
                assert v == GAME.view(other, seat)
                text = json.dumps(v)
                for (r, k), j in HIDDEN.items():
                    slot = s.rows[r][k]
                    if len(slot) > j:
                        seen_hidden += 1
                        item = slot[j]
                        assert f'"{_item_id(r, item)}"' not in text
                assert "bag_order" not in text and set(v["decks"]) == {"cards", "tiles", "features"}
                assert isinstance(v["bag"], int)
    assert seen_hidden > 0
