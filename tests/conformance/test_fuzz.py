"""Fuzzing (hypothesis) of what people type or upload: `/partida new` option strings and match logs.

Whatever the input, the answer is the result or one clear refusal (BadOptions / LogError, exit 2
with one line from the command line): never another exception, never a traceback.
"""

from __future__ import annotations

import copy
import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.core.service import UserError
from bot.discord.client import parse_options
from bot.i18n import options_problem
from engines import registry
from engines.__main__ import main
from engines.core import BadOptions
from engines.match import LogError, Match

from .playouts import cases, playout

FEW = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
GAMES = registry.available()

# -- option strings ------------------------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
option_names = st.sampled_from(["rounds", "purple", "rules", "sets", "medina", "dark_city", "rank1", "rank9",
                                "districts_to_end", "turn_order", "x", ""])
weird_values = st.one_of(
    json_values.map(lambda v: json.dumps(v, separators=(",", ":"))),
    st.text(max_size=30),
    st.integers(min_value=1, max_value=5000).map(lambda n: "9" * n),
    st.integers(min_value=1, max_value=3000).map(lambda n: "[" * n),
    st.integers(min_value=1, max_value=900).map(lambda n: "[" * n + "]" * n),
    st.sampled_from(["NaN", "Infinity", "-Infinity", "1e999", "true", "null", "3", '"3"']),
)
option_texts = st.one_of(
    st.text(max_size=60),
    st.lists(st.tuples(option_names, weird_values), max_size=4).map(lambda kv: " ".join(f"{k}={v}" for k, v in kv)),
)


@FEW
@given(text=option_texts)
def test_any_option_text_is_accepted_or_refused_in_one_line(text):
    try:
        options = parse_options(text)
    except UserError as e:
        assert e.code == "bad_option_text"
        return
    for key in GAMES:
        try:
            registry.get(key).parse_options(options)
        except BadOptions as e:
            assert e.reason and "\n" not in e.reason and len(e.reason) < 400
            for lang in ("en", "es"):
                problem = options_problem(key, options, lang)
                assert problem is None or ("\n" not in problem and len(problem) < 1000)


# -- logs ----------------------------------------------------------------------------------------

LOGS = {c[0]: playout(c)[0] for c in cases() if json.loads(c[1]) == {}}


def _paths(node, path=()):
    """Every path to a value inside a JSON document."""
    yield path
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, (*path, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths(v, (*path, i))


def _replace(doc, path, value):
    if not path:
        return value
    out = copy.deepcopy(doc)
    node = out
    for p in path[:-1]:
        node = node[p]
    node[path[-1]] = value
    return out


@st.composite
def mutated_logs(draw):
    """A real log of some game (cut short) with a few values replaced by arbitrary JSON."""
    log = LOGS[draw(st.sampled_from(sorted(LOGS)))]
    log = {**log, "actions": log["actions"][: draw(st.integers(0, min(40, len(log["actions"]))))]}
    for _ in range(draw(st.integers(1, 3))):
        paths = list(_paths(log))
        log = _replace(log, draw(st.sampled_from(paths)), draw(json_values))
    return log


@FEW
@given(log=mutated_logs())
def test_a_mutated_log_replays_or_is_refused_as_a_log_error(log):
    try:
        match = Match.from_log(log)
    except LogError as e:
        assert e.reason and "\n" not in e.reason
        return
    json.dumps(match.to_log())
    match.game.scores(match.state)


@FEW
@given(log=mutated_logs())
def test_the_replay_command_answers_a_mutated_log_with_json_or_one_line(log, tmp_path_factory):
    path = tmp_path_factory.mktemp("fuzz") / "log.json"
    path.write_text(json.dumps(log))
    _replay(path)


@st.composite
def spliced_log_texts(draw):
    """A real log's text with one number replaced by something JSON parsers choke on."""
    text = json.dumps(LOGS[draw(st.sampled_from(sorted(LOGS)))])
    numbers = [i for i, ch in enumerate(text) if ch.isdigit() and not text[i - 1].isdigit()]
    at = draw(st.sampled_from(numbers))
    end = at
    while end < len(text) and text[end].isdigit():
        end += 1
    bad = draw(st.one_of(
        st.integers(4000, 6000).map(lambda n: "7" * n),
        st.integers(500, 100_000).map(lambda n: "[" * n + "]" * n),
        st.integers(500, 100_000).map(lambda n: '{"a":' * n + "1" + "}" * n),
        st.sampled_from(["Infinity", "-Infinity", "NaN", "1e400", "-0", "1.5", "true", "null", '"0"']),
    ))
    return text[:at] + bad + text[end:]


@FEW
@given(text=st.one_of(st.text(max_size=200), st.binary(max_size=200).map(lambda b: b.decode("latin-1")),
                      spliced_log_texts()))
def test_the_replay_command_answers_any_text_with_json_or_one_line(text, tmp_path_factory):
    path = tmp_path_factory.mktemp("fuzz") / "log.json"
    path.write_text(text, encoding="utf-8", errors="surrogateescape")
    _replay(path)


def _replay(path):
    import contextlib
    import io

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(["replay", str(path)])
        except SystemExit as e:
            code = e.code
    if code == 0:
        summary = json.loads(out.getvalue())
        assert {"game", "actions", "over", "scores"} <= set(summary)
    else:
        assert code == 2, (code, err.getvalue()[:300])
        text = err.getvalue()
        assert text.startswith("error: ") and text.count("\n") == 1 and "Traceback" not in text
