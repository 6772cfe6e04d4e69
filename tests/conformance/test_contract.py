"""The engine contract (engines/core.py), checked on every registered game, variant and seat count.

Nothing here knows a game: each case is a random playout through the JSON boundary (see
playouts.py), and the checks run at a few positions of it.
"""

from __future__ import annotations

import json
import random

import pytest

from engines.__main__ import main
from engines.core import EngineError, Result
from engines.match import Match

from .playouts import case_id, cases, match_at, playout, seed_of, seen_actions

CASES = cases()
CASE = pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])


def positions(case):
    _, picks = playout(case)
    for i in picks:
        yield i, match_at(case, i)


def test_every_game_is_in_the_suite():
    from engines import registry

    assert {c[0] for c in CASES} == set(registry.available())


@CASE
def test_random_playout_ends_with_a_result(case):
    log, _ = playout(case)
    match = Match.from_log(log)
    game, n = match.game, len(match.seats)
    assert match.over and match.to_move() == ()
    assert all(game.legal(match.state, s) == [] for s in range(n))
    res = match.result()
    assert isinstance(res, Result) and len(res.scores) == n
    assert sorted(s for place in res.ranking for s in place) == list(range(n))
    assert list(res.scores) == list(game.scores(match.state))
    json.dumps(res.to_json())


@CASE
def test_only_the_seats_to_move_have_actions_and_codes_survive_json(case):
    for _, match in positions(case):
        game, n = match.game, len(match.seats)
        movers = match.to_move()
        for s in range(n):
            legal = game.legal(match.state, s)
            assert bool(legal) == (s in movers), (s, movers)
            assert len(set(legal)) == len(legal), "legal() lists an action twice"
            for code in legal:
                action = json.loads(json.dumps(game.encode(code)))
                assert game.code_of(action) == code


@CASE
def test_legal_actions_are_exactly_the_accepted_ones_and_refusals_change_nothing(case):
    rng = random.Random(seed_of(case))
    seen = seen_actions(case)
    for _, match in positions(case):
        game, n = match.game, len(match.seats)
        for s in range(n):
            legal = set(game.legal(match.state, s))
            candidates = [game.encode(c) for c in legal] + rng.sample(seen, min(60, len(seen)))
            through_match = 6  # refusals also tried through Match.apply (slower: it dumps the state)
            for action in candidates:
                code = game.canonical(match.state, game.code_of(action))
                try:
                    game.check(match.state, s, code)
                    accepted = True
                except EngineError:
                    accepted = False
                assert accepted == (code in legal), (s, action)
                if not accepted and through_match:
                    through_match -= 1
                    before = json.dumps(game.dump(match.state), sort_keys=True)
                    with pytest.raises(EngineError):
                        match.apply(s, action)
                    assert json.dumps(game.dump(match.state), sort_keys=True) == before
                    assert len(match.actions) == len(match.revealed)


@CASE
def test_dump_load_and_clone_give_equal_states_that_go_on_alike(case):
    log, _ = playout(case)
    for i, match in positions(case):
        game = match.game
        dumped = game.dump(match.state)
        text = json.dumps(dumped, sort_keys=True)
        loaded = game.load(json.loads(text))
        cloned = game.clone(match.state)
        assert json.dumps(game.dump(loaded), sort_keys=True) == text
        assert json.dumps(game.dump(cloned), sort_keys=True) == text
        if i < len(log["actions"]):
            entry = log["actions"][i]
            code = game.code_of(entry["action"])
            out_loaded = game.step(loaded, entry["seat"], code)
            out_cloned = game.step(cloned, entry["seat"], code)
            assert json.dumps(game.dump(loaded), sort_keys=True) == json.dumps(game.dump(cloned), sort_keys=True)
            assert [e.to_json() for e in out_loaded.events] == [e.to_json() for e in out_cloned.events]
            assert json.dumps(game.dump(match.state), sort_keys=True) == text  # the original is untouched


@CASE
def test_a_view_does_not_change_with_what_its_seat_cannot_see(case):
    rng = random.Random(seed_of(case))
    for _, match in positions(case):
        game, n = match.game, len(match.seats)
        for seat in [None, *range(n)]:
            view = game.view(match.state, seat)
            text = json.dumps(view, sort_keys=True)
            try:
                other = game.redeal(match.state, seat, rng)
            except NotImplementedError:
                pytest.skip(f"{game.key} does not provide redeal(): its views cannot be checked for leaks")
            assert json.dumps(game.view(other, seat), sort_keys=True) == text, seat
            before = json.dumps(game.dump(match.state), sort_keys=True)
            assert json.dumps(game.dump(other), sort_keys=True) != before or match.over or _nothing_hidden(game, match)


def _nothing_hidden(game, match) -> bool:
    """True when a redeal could not change anything (e.g. an empty pile and no hands)."""
    rng = random.Random(0)
    before = json.dumps(game.dump(match.state), sort_keys=True)
    return all(json.dumps(game.dump(game.redeal(match.state, None, rng)), sort_keys=True) == before for _ in range(3))


@CASE
def test_redeal_keeps_the_seat_own_cards_and_changes_hidden_ones(case):
    """The leak check above is only as good as redeal(): somewhere in the match it must change the state."""
    rng = random.Random(seed_of(case))
    changed = 0
    for _, match in positions(case):
        game = match.game
        try:
            other = game.redeal(match.state, None, rng)
        except NotImplementedError:
            pytest.skip(f"{game.key} does not provide redeal()")
        changed += json.dumps(game.dump(other), sort_keys=True) != json.dumps(game.dump(match.state), sort_keys=True)
    assert changed


@CASE
def test_a_log_replays_to_the_identical_state(case):
    log, _ = playout(case)
    first = Match.from_log(json.loads(json.dumps(log)))
    again = Match.from_log(json.loads(json.dumps(first.to_log())))
    game = first.game
    assert first.to_log() == log
    assert json.dumps(game.dump(first.state), sort_keys=True) == json.dumps(game.dump(again.state), sort_keys=True)


@CASE
def test_scores_and_result_work_mid_game(case):
    for _, match in positions(case):
        game, n = match.game, len(match.seats)
        scores = game.scores(match.state)
        assert len(scores) == n and all(isinstance(x, int) for x in scores)
        res = game.result(match.state)
        assert (res is None) == (not match.over)
        rounds = game.round_scores(match.state)
        assert rounds is None or all(len(r) == n for r in rounds)
        json.dumps(game.view(match.state, None))


@CASE
def test_a_random_truncated_log_replays_and_prints_json(case, tmp_path, capsys):
    log, _ = playout(case)
    cut = random.Random(seed_of(case)).randrange(len(log["actions"]) + 1)
    path = tmp_path / "log.json"
    path.write_text(json.dumps({**log, "actions": log["actions"][:cut]}))
    assert main(["replay", str(path)]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["game"] == log["game"] and summary["actions"] == cut
    assert summary["over"] == (cut == len(log["actions"]))
    assert len(summary["scores"]) == len(log["seats"])


# -- other seeds, seat counts and variants, drawn by hypothesis (few: the cases above are the bulk)


@pytest.mark.parametrize("key", sorted({c[0] for c in CASES}))
def test_random_seeds_play_to_the_end(key):
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from engines import registry

    from .playouts import MAX_ACTIONS, check_outcome

    game = registry.get(key)

    @settings(max_examples=4, deadline=None, derandomize=True)
    @given(seed=st.integers(0, 2**40), n=st.integers(game.min_players, game.max_players),
           options=st.sampled_from(game.variants), pick=st.randoms(use_true_random=False))
    def play(seed, n, options, pick):
        try:
            match = Match.create(key, [f"p{i}" for i in range(n)], options, seed=seed)
        except EngineError:
            return  # a variant that does not allow this many seats (e.g. the Queen with 4)
        while not match.over:
            assert len(match.actions) < MAX_ACTIONS
            seat = pick.choice(match.to_move())
            check_outcome(match.apply_code(seat, pick.choice(game.legal(match.state, seat))), n)
        assert match.result() is not None

    play()
