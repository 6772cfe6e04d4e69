"""bot/core/pace.py: people's pace and the finish forecast (issue 21)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bot.core import pace
from engines.progress import Progress

NOW = datetime(2030, 3, 4, 12, 0, tzinfo=UTC)
H = 3600.0


def _steady(hours: float) -> pace.PersonPace:
    return pace.PersonPace(hours * H, 0.01, 50)


def test_person_pace_draws_this_match_towards_the_person_and_the_default():
    assert abs(pace.person_pace([]).median - pace.DEFAULT_TURN) < 1e-6
    assert abs(pace.person_pace([], [600.0] * 9 + [6000.0]).median - 600.0) < 1e-6
    few = pace.person_pace([60.0], [6000.0] * 20).median
    many = pace.person_pace([60.0] * 40, [6000.0] * 20).median
    assert 60.0 < many < few < 6000.0 and many < 120.0
    slow_and_fast = pace.person_pace([], [60.0, 600.0, 6000.0, 60000.0] * 3)
    steady = pace.person_pace([], [600.0, 610.0, 590.0, 605.0] * 3)
    assert slow_and_fast.spread > steady.spread >= pace.MIN_SPREAD
    assert slow_and_fast.low < slow_and_fast.median < slow_and_fast.high


def test_turn_times_merge_a_seats_consecutive_actions():
    t = [NOW + timedelta(minutes=m) for m in range(6)]
    turns = pace.turn_times([(0, t[1]), (0, t[2]), (1, t[3]), (0, t[5])], NOW)
    assert turns == [(0, NOW, t[2]), (1, t[2], t[3]), (0, t[3], t[5])]


def test_forecast_adds_the_turns_at_each_persons_pace():
    prog = Progress(0.5, (5.0, 5.0), 0.0, (0, 1))
    f = pace.forecast(NOW, prog, {0: _steady(1), 1: _steady(3)})
    assert abs((f.expected - NOW).total_seconds() - 20 * H) < 0.5 * H  # 5 x 1 h + 5 x 3 h
    assert f.early <= f.expected <= f.late and f.turns == 10
    # an AI seat takes no time to speak of
    with_ai = pace.forecast(NOW, prog, {0: _steady(1), 1: None})
    assert (with_ai.expected - NOW).total_seconds() < 5.5 * H
    # waiting already for a while shortens the first turn
    waited = pace.forecast(NOW, prog, {0: _steady(1), 1: _steady(3)}, waited=0.5 * H)
    assert waited.expected < f.expected
    assert pace.forecast(NOW, Progress(1.0, (0.0, 0.0), 0.0, (0, 1)), {}).expected == NOW


def test_quiet_hours_and_away_days_push_the_finish_back():
    prog = Progress(0.5, (5.0, 5.0), 0.0, (0, 1))
    paces = {0: _steady(1), 1: _steady(1)}
    plain = pace.forecast(NOW, prog, paces)
    nights = [(NOW + timedelta(hours=2 + 24 * d), NOW + timedelta(hours=10 + 24 * d)) for d in range(5)]
    quiet = pace.forecast(NOW, prog, paces, pauses={1: nights})
    assert quiet.expected >= plain.expected + timedelta(hours=7)
    away = pace.forecast(NOW, prog, paces, pauses={0: [(NOW, NOW + timedelta(days=3))]})
    assert away.expected >= NOW + timedelta(days=3) and away.expected > quiet.expected


def test_uncertainty_grows_with_uneven_people_and_an_uncertain_turn_count():
    prog = Progress(0.5, (10.0, 10.0), 0.0, (0, 1))
    steady = pace.forecast(NOW, prog, {0: _steady(2), 1: _steady(2)})
    erratic = pace.forecast(NOW, prog, {0: pace.PersonPace(2 * H, 1.5, 50), 1: pace.PersonPace(2 * H, 1.5, 50)})
    unsure = pace.forecast(NOW, Progress(0.5, (10.0, 10.0), 8.0, (0, 1)), {0: _steady(2), 1: _steady(2)})
    assert steady.uncertainty < timedelta(hours=1)
    assert erratic.uncertainty > 5 * steady.uncertainty and unsure.uncertainty > 5 * steady.uncertainty
    # reproducible: the same seed gives the same forecast
    assert pace.forecast(NOW, prog, {0: pace.PersonPace(2 * H, 1.5, 50), 1: None}, seed=4) == pace.forecast(
        NOW, prog, {0: pace.PersonPace(2 * H, 1.5, 50), 1: None}, seed=4
    )


def test_uneven_shares_follow_the_engine():
    # Cities-like: seat 1 has more turns left than seat 0; the slow person is seat 1
    prog = Progress(0.5, (1.0, 4.0), 0.0, (0, 1))
    f = pace.forecast(NOW, prog, {0: _steady(1), 1: _steady(5)})
    assert abs((f.expected - NOW).total_seconds() - 21 * H) < H


def test_a_persons_long_turns_weigh_in_the_sum():
    # nine quick turns and a two-day one: the median is an hour, the sum of many turns is not
    turns = [H] * 9 + [48 * H]
    p = pace.person_pace(turns, turns)
    assert abs(p.median - H) < 0.01 * H
    prog = Progress(0.5, (20.0, 0.0), 0.0, (0, 1))
    f = pace.forecast(NOW, prog, {0: p, 1: None})
    assert f.expected - NOW > timedelta(hours=60)  # about 20 x (0.9 h + 4.8 h)
    assert f.late - f.early > timedelta(hours=48)
