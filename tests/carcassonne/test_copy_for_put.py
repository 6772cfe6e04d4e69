"""``copy_for_put``: the AI's cheap copy for laying one tile must lay exactly like a full copy and
leave the table it was taken from unchanged (it shares the features away from the new tile)."""

import random

import pytest

from engines.carcassonne import GAME
from engines.carcassonne.ai import GreedyPlayer
from engines.carcassonne.board import copy_for_put


def internals(s):
    """Everything laying a tile can change, union-find included, in a comparable form."""
    feats = []
    for a in range(len(s.parent)):
        r = s.find(a)
        feats.append((
            r, s.kind[r], s.open[r], s.pen[r],
            None if s.tiles[r] is None else sorted(s.tiles[r]),
            sorted(s.mee[r] or []),
            None if s.cities[r] is None else sorted({s.find(c) for c in s.cities[r]}),
        ))
    return (
        feats, dict(s.pos), dict(s.fsig), {k: sorted(v) for k, v in s.buckets.items() if v}, dict(s.mon),
        {k: sorted(v) for k, v in s.tmee.items()}, list(s.supply), list(s.scores), [list(r) for r in s.by_kind],
        s.arch, s.last, s.current, GAME.dump(s),
    )


def position(seed, steps, sets=1):
    st = GAME.new_state(2, GAME.parse_options({"sets": sets}), seed, None)
    p = GreedyPlayer()
    for k in range(steps):
        seat = GAME.to_move(st)[0]
        GAME.step(st, seat, p.choose(GAME, st, seat, random.Random(k)))
    return st


@pytest.mark.parametrize(("seed", "steps", "sets"), [(1, 0, 1), (2, 20, 1), (3, 45, 1), (4, 60, 1), (5, 300, 6)])
def test_a_tile_laid_on_the_cheap_copy_gives_the_table_a_full_copy_gives(seed, steps, sets):
    st = position(seed, steps, sets)
    seat = GAME.to_move(st)[0]
    before = internals(st)
    legal = GAME.legal(st, seat)
    rng = random.Random(seed)
    for code in rng.sample(legal, min(25, len(legal))):
        full, cheap = GAME.clone(st), copy_for_put(st, code[0], code[1])
        GAME.lay(full, seat, code, [])
        GAME.lay(cheap, seat, code, [])
        assert internals(cheap) == internals(full)
        # and a second tile on a cheap copy of the cheap copy (the lookahead's answer)
        full.current = cheap.current = rng.choice(st.pile or full.tt)
        answers = GAME.legal(full, seat)
        if answers:
            reply = rng.choice(answers)
            full2, cheap2 = GAME.clone(full), copy_for_put(cheap, reply[0], reply[1])
            GAME.lay(full2, seat, reply, [])
            GAME.lay(cheap2, seat, reply, [])
            assert internals(cheap2) == internals(full2)
            assert internals(cheap) == internals(full)
    assert internals(st) == before
