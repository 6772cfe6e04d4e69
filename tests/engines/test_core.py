"""The shared engine shape: registry, match log, Rng."""

import pytest

from engines import registry
from engines.core import BadOptions, EngineError, rank_by
from engines.match import LogError, Match
from engines.rng import Rng


def test_registry_knows_lost_cities_and_refuses_unknown_games():
    assert "lost-cities" in registry.available()
    game = registry.get("lost-cities")
    assert (game.min_players, game.max_players) == (2, 2) and game.names["es"]
    with pytest.raises(BadOptions) as e:
        registry.get("chess")
    assert e.value.code == "unknown_game"


def test_rng_is_deterministic_and_its_state_is_stored():
    a, b = Rng(5), Rng(5)
    xs, ys = list(range(30)), list(range(30))
    a.shuffle(xs)
    b.shuffle(ys)
    assert xs == ys and a == b and a.to_json() == {"seed": 5, "n": 1}
    c = Rng.from_json(a.to_json())
    a.shuffle(xs)
    c.shuffle(ys)
    assert xs == ys


def test_rank_by_shares_places_and_uses_tiebreakers():
    assert rank_by([3, 5, 3]) == ((1,), (0, 2))
    assert rank_by([3, 5, 3], [1, 0, 2]) == ((1,), (2,), (0,))


def test_a_match_needs_seed_or_setup_but_not_both():
    m = Match.create("lost-cities", ["a", "b"])
    assert isinstance(m.seed, int)  # a fresh seed is chosen and kept, so it replays
    assert Match.from_log(m.to_log()).to_log() == m.to_log()
    with pytest.raises(EngineError):
        Match.create("lost-cities", ["a", "b"], seed=1, setup={"rounds": []})
    log = m.to_log()
    log["seed"] = None
    with pytest.raises(LogError):
        Match.from_log(log)


def test_refused_action_keeps_the_log_and_version():
    m = Match.create("lost-cities", ["a", "b"], seed=1)
    with pytest.raises(EngineError):
        m.apply(1, {"type": "draw", "from": "deck"})
    with pytest.raises(EngineError):
        m.apply(7, {"type": "draw", "from": "deck"})
    assert m.version == 0 and m.actions == []
