"""Every option, number and duration a person types: accepted within its bounds or refused with one
line (en/es) naming the allowed range; never another exception (issue 19).

The fuzz walks every option of every command that takes typed values (``/partida new`` with each
game's options, the timers, ``ai=`` and ``post=``; ``/partida deadline``; ``/quiet``; ``/away``;
``/partida seat number``) with a seeded generator: >= 20,000 texts in a few seconds."""

from __future__ import annotations

import json
import random
import time

import pytest

from bot.core.options import new_options
from bot.core.service import UserError
from bot.core.timers import check_timer_settings, quiet_settings, split_options
from bot.discord.commands import parse_options
from bot.discord.flows import user_error_text
from bot.i18n import options_problem
from engines import registry

GAMES = registry.available()
BIG = "9" * 4400


def refusal(fn, *args):
    """The one-line refusal ``fn(*args)`` gives, in both languages (fails on anything else)."""
    with pytest.raises(UserError) as e:
        fn(*args)
    texts = [user_error_text(e.value, lang) for lang in ("en", "es")]
    for text in texts:
        assert "\n" not in text and len(text) < 400 and "{" not in text, text
    assert texts[0] != texts[1]
    return e.value, texts


def new_timers(text: str):
    return split_options(parse_options(text))[1]


@pytest.mark.parametrize("text", ["deadline=1e400", "deadline=NaN", "deadline=-Infinity", "deadline=Infinity",
                                  f"deadline={BIG}", "deadline=0.0001", "deadline=-3", "deadline=1e-9",
                                  "deadline=[1]", "deadline=true", "deadline=99999999999999999999d"])
def test_a_deadline_out_of_bounds_is_refused_naming_the_range(text):
    err, (en, es) = refusal(new_timers, text)
    assert err.code == "timer.bad_deadline"
    assert "1h" in en and "14d" in en and "1h" in es and "14d" in es


@pytest.mark.parametrize("text", ["misses=1e400", "misses=NaN", "misses=-Infinity", f"misses={BIG}", "misses=2.5",
                                  "misses=0", "misses=11", "misses=-1", "misses=[3]"])
def test_misses_out_of_bounds_are_refused_naming_the_range(text):
    err, (en, es) = refusal(new_timers, text)
    assert err.code == "timer.bad_misses"
    assert "1" in en and "10" in en and "10" in es


@pytest.mark.parametrize("value", ["1e400", "NaN", "-Infinity", BIG, "0.0001", 0.0001, float("nan"), float("inf"),
                                   int(BIG[:4000]), -5, "5h5h"])
def test_partida_deadline_time_is_refused_in_one_line(value):
    err, _ = refusal(check_timer_settings, {"deadline": value})
    assert err.code == "timer.bad_deadline"


@pytest.mark.parametrize("value", [int(BIG[:4000]), -(10**30), 0, 11, float("nan"), "NaN", BIG])
def test_partida_deadline_misses_is_refused_in_one_line(value):
    err, _ = refusal(check_timer_settings, {"misses": value})
    assert err.code == "timer.bad_misses"


def test_values_within_bounds_still_pass():
    assert check_timer_settings({"deadline": "1h", "misses": "10", "policy": " Wait "}) == {"deadline": 3600, "misses": 10, "policy": "wait"}
    assert check_timer_settings({"deadline": 1.5})["deadline"] == 5400  # hours
    assert check_timer_settings({"deadline": "1.5"})["deadline"] == 5400
    assert check_timer_settings({"deadline": "1d12h"})["deadline"] == 36 * 3600
    assert check_timer_settings({"deadline": "off", "misses": 3.0}) == {"deadline": 0, "misses": 3}
    assert new_timers("deadline=0")["deadline"] == 0


# -- the fuzz ----------------------------------------------------------------------------------------

WEIRD = ["NaN", "Infinity", "-Infinity", "1e400", "-1e400", "1e-400", "0.0001", "0", "-0", "00", "1", "3", "10", "11",
         "true", "false", "null", "[]", "{}", '"3"', "[1,2]", '{"a":1}', "48h", "2d", "1d12h", "90m", "30m", "15d",
         "off", "OFF", " ", "é", "١٢", "½", "3.5", ".5", "5.", "+3", "--3", "0x10", "1_000", "\x00", "h", "d",
         "easy", "strong", "edit", "new", "wait", "end", "venice", "queen", "1,5"]
HEAD_KEYS = ["deadline", "policy", "misses", "ai", "post", "x", "", "=", "rounds"]


def _keys() -> list[str]:
    keys = set(HEAD_KEYS)
    for key in GAMES:
        keys.update(registry.get(key).Options.model_fields)
    return sorted(keys)


def _value(rng: random.Random) -> str:
    r = rng.random()
    if r < 0.35:
        return rng.choice(WEIRD)
    if r < 0.45:
        return rng.choice("9[{-") * rng.choice([1, 20, 400, 4299, 4300, 4301, 4400, 5000])
    if r < 0.6:
        return str(rng.choice([rng.randint(-10**6, 10**6), rng.uniform(-1e6, 1e6), f"{rng.random()}e{rng.randint(-400, 400)}"]))
    if r < 0.7:
        return f"{rng.randint(0, 999)}{rng.choice('dhm')}{rng.randint(0, 99)}{rng.choice('dhm')}"
    if r < 0.85:
        return json.dumps(rng.choice([[1], {"x": [None]}, "s" * rng.randint(0, 60), rng.random(), rng.randint(-9, 10**30)]))
    return "".join(rng.choice("0123456789.eE+-:hdmoffNaIinty[]{}\",=é \t") for _ in range(rng.randint(0, 25)))


def _text(rng: random.Random, keys: list[str]) -> str:
    if rng.random() < 0.05:
        return "".join(chr(rng.randint(1, 0x2FF)) for _ in range(rng.randint(0, 40)))
    return " ".join(f"{rng.choice(keys)}={_value(rng)}" for _ in range(rng.randint(1, 4)))


def _one_line(e: UserError) -> None:
    for lang in ("en", "es"):
        text = user_error_text(e, lang)
        assert "\n" not in text and len(text) < 1000, text


def _new(game: str, text: str) -> None:
    """/partida new game:<game> options:<text> up to the lobby: every check the command makes."""
    try:
        new_options(game, text)
    except UserError as e:
        if e.code == "bad_options":
            for lang in ("en", "es"):
                problem = options_problem(game, e.params["options"], lang)
                assert problem is None or "\n" not in problem
        raise


def test_option_fuzz_every_option_of_every_command_one_line_refusals_only():
    rng = random.Random(19)
    keys = _keys()
    n, refused, t0 = 0, 0, time.perf_counter()
    while n < 21_000:
        text = _text(rng, keys)
        value = _value(rng)
        calls = [
            (_new, rng.choice(GAMES), text),  # /partida new
            (check_timer_settings, {"deadline": value}),  # /partida deadline time:
            (check_timer_settings, {"policy": value}),  # /partida deadline policy:
            (check_timer_settings, {"misses": rng.choice([value, rng.randint(-10**40, 10**40), int("9" * rng.randint(1, 4000))])}),
            (quiet_settings, value, _value(rng), rng.choice([value, "Europe/Madrid", "../etc", "UTC"])),  # /quiet
        ]
        for fn, *args in calls:
            n += 1
            try:
                fn(*args)
            except UserError as e:
                refused += 1
                _one_line(e)
    took = time.perf_counter() - t0
    assert n >= 20_000 and n // 4 < refused < n - 100  # most refused, some accepted
    print(f"{n} option texts, {refused} refused in one line, {took:.1f} s")
