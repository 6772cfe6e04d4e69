"""python -m engines selfplay / replay for Cities: 2-4 seats and the long variant."""

import json

import pytest

from engines.__main__ import main


@pytest.mark.parametrize(("seats", "options"), [(2, []), (3, []), (4, []), (2, ["long=true"])])
def test_selfplay_then_replay(tmp_path, capsys, seats, options):
    out = tmp_path / "log.json"
    args = ["selfplay", "cities", "--seed", "7", "--seats", str(seats), "--ai", "random", "--out", str(out)]
    for o in options:
        args += ["--option", o]
    assert main(args) == 0
    log = json.loads(out.read_text())
    assert log["game"] == "cities" and len(log["seats"]) == seats
    assert log["options"]["long"] == bool(options)
    assert main(["replay", str(out)]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["over"] and len(summary["scores"]) == seats
    assert summary["scores"] == summary["result"]["scores"]


def test_the_long_variant_with_three_players_is_refused_in_one_line(capsys):
    with pytest.raises(SystemExit) as e:
        main(["selfplay", "cities", "--seed", "1", "--seats", "3", "--option", "long=true"])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "2 players" in err
