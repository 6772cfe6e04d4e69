"""Every malformed log or setup given to `python -m engines replay` is one line and status 2.

Each case here is a reproduction from issue 13: before the fix it ended in a traceback (exit 1).
"""

import json

import pytest

from engines.__main__ import main
from engines.citadels import cards as CC
from engines.match import Match


def replay(capsys, tmp_path, text):
    p = tmp_path / "log.json"
    p.write_text(text if isinstance(text, str) else json.dumps(text))
    try:
        code = main(["replay", str(p)])
    except SystemExit as e:
        code = e.code
    out = capsys.readouterr()
    return code, out.out, out.err


def refused(capsys, tmp_path, text):
    code, out, err = replay(capsys, tmp_path, text)
    assert code == 2, (code, out, err[:300])
    assert err.count("\n") == 1 and err.startswith("error: ") and "Traceback" not in err, err[:300]
    assert len(err) < 400, err[:400]
    return err


def log(game, seats=2, seed=None, setup=None, actions=()):
    return {"format": 1, "game": game, "seats": [f"p{i}" for i in range(seats)], "options": {},
            "seed": seed, "setup": setup, "actions": list(actions)}


def test_deeply_nested_json_is_one_line(capsys, tmp_path):
    err = refused(capsys, tmp_path, "[" * 100_000 + "]" * 100_000)
    assert "nested" in err


def test_a_number_of_thousands_of_digits_is_one_line(capsys, tmp_path):
    text = json.dumps(log("citadels", seed=1)).replace('"seed": 1', '"seed": ' + "7" * 4301)
    refused(capsys, tmp_path, text)


def test_infinity_and_nan_are_not_json(capsys, tmp_path):
    text = json.dumps(log("citadels", seed=1)).replace('"seed": 1', '"seed": Infinity')
    assert "Infinity" in refused(capsys, tmp_path, text)


@pytest.mark.parametrize("seed", ["abc", [1], 1.5, True, None])
def test_citadels_setup_seed_must_be_an_integer(capsys, tmp_path, seed):
    err = refused(capsys, tmp_path, log("citadels", setup={"seed": seed}))
    assert "seed" in err


def test_citadels_setup_seed_infinity(capsys, tmp_path):
    text = json.dumps(log("citadels", setup={"seed": 1})).replace('"seed": 1}', '"seed": Infinity}')
    refused(capsys, tmp_path, text)


@pytest.mark.parametrize("deck", [[1, "a"], "abc", [None], [["x"]]])
def test_citadels_setup_deck_of_wrong_things(capsys, tmp_path, deck):
    assert "deck" in refused(capsys, tmp_path, log("citadels", setup={"deck": deck}))


def test_citadels_setup_deck_must_be_the_component_set(capsys, tmp_path):
    deck = [CC.CARD_ID[c] for c in CC.BASE_CARDS]
    refused(capsys, tmp_path, log("citadels", setup={"deck": deck[1:] + deck[:1] * 2}))  # one card twice
    assert replay(capsys, tmp_path, log("citadels", setup={"deck": deck}))[0] == 0


@pytest.mark.parametrize(
    "board",
    [
        [{"tile": "D", "x": "Infinity", "y": 0}],
        [{"tile": "D", "x": 1.5, "y": 0}],
        [{"tile": "D", "x": 0, "y": 0, "rot": True}],
        [{"tile": "D", "x": 0, "y": 0, "meeple": {"seat": "Infinity", "feature": "r0"}}],
        [{"tile": "D", "x": 0, "y": 0, "meeple": {"seat": 0.0, "feature": "r0"}}],
        [{"tile": ["D"], "x": 0, "y": 0}],
        ["D"],
    ],
)
def test_carcassonne_setup_board_numbers(capsys, tmp_path, board):
    text = json.dumps(log("carcassonne", setup={"board": board, "pile": ["E"]})).replace('"Infinity"', "Infinity")
    refused(capsys, tmp_path, text)


def test_carcassonne_board_coordinates_beyond_any_table(capsys, tmp_path):
    board = [{"tile": "D", "x": 10**30, "y": 0}]
    refused(capsys, tmp_path, log("carcassonne", setup={"board": board, "pile": ["E"]}))


def test_unfinished_citadels_log_prints_live_scores(capsys, tmp_path):
    m = Match.create("citadels", ["a", "b", "c"], {}, seed=5)
    while len(m.actions) < 40:
        seat = m.to_move()[0]
        m.apply(seat, m.legal(seat)[-1])
    code, out, err = replay(capsys, tmp_path, m.to_log())
    assert code == 0, err
    summary = json.loads(out)
    assert summary["over"] is False and summary["actions"] == 40
    assert summary["scores"] == [p["score"] for p in m.view(None)["players"]]


@pytest.mark.parametrize("text", ["rounds=" + "9" * 4301, "rounds=" + "[" * 2000, "rounds=" + "[" * 900 + "]" * 900])
def test_partida_new_options_too_big_or_too_deep_are_refused_by_the_game(text):
    from bot.discord.commands import parse_options
    from engines import registry
    from engines.core import BadOptions

    opts = parse_options(text)  # used to raise ValueError / RecursionError ("internal error")
    for key in registry.available():
        with pytest.raises(BadOptions) as e:
            registry.get(key).parse_options(opts)
        assert len(e.value.reason) < 200
