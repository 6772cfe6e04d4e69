"""The command line: self-play, replay, and one clear line with status 2 for every bad input."""

import json
import subprocess
import sys

import pytest

from engines.__main__ import main


def run(*args, cwd=None):
    p = subprocess.run([sys.executable, "-m", "engines", *args], capture_output=True, text=True, cwd=cwd)
    return p.returncode, p.stdout, p.stderr


def test_selfplay_then_replay_prints_the_scores_reached(tmp_path):
    out = tmp_path / "a.json"
    code, _, err = run("selfplay", "lost-cities", "--seed", "1", "--out", str(out))
    assert code == 0, err
    log = json.loads(out.read_text())
    assert log["format"] == 1 and log["game"] == "lost-cities" and log["seed"] == 1 and log["setup"] is None
    code, stdout, err = run("replay", str(out))
    assert code == 0, err
    summary = json.loads(stdout)
    assert summary["game"] == "lost-cities" and summary["over"] is True and summary["to_move"] == []
    assert len(summary["round_scores"]) == 3
    assert summary["scores"] == [sum(r[i] for r in summary["round_scores"]) for i in (0, 1)]


def test_same_seed_writes_identical_files_and_other_seeds_differ(tmp_path, capsys):
    for name, seed in (("a", 4), ("b", 4), ("c", 5)):
        assert main(["selfplay", "lost-cities", "--seed", str(seed), "--out", str(tmp_path / f"{name}.json")]) == 0
    a, b, c = ((tmp_path / f"{n}.json").read_bytes() for n in "abc")
    assert a == b and a != c


def test_options_and_stdout(capsys):
    assert main(["selfplay", "lost-cities", "--seed", "2", "--option", "rounds=1", "--option", "purple=true"]) == 0
    log = json.loads(capsys.readouterr().out)
    assert log["options"] == {"rounds": 1, "purple": True}


def fails(capsys, *argv):
    with pytest.raises(SystemExit) as e:
        main(list(argv))
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: ") and "Traceback" not in err
    return err


def write(tmp_path, data):
    p = tmp_path / "log.json"
    p.write_text(data if isinstance(data, str) else json.dumps(data))
    return str(p)


def good_log(capsys):
    main(["selfplay", "lost-cities", "--seed", "3"])
    return json.loads(capsys.readouterr().out)


def test_unknown_game_and_bad_options(capsys):
    assert "unknown game" in fails(capsys, "selfplay", "chess", "--seed", "1")
    assert "rounds" in fails(capsys, "selfplay", "lost-cities", "--seed", "1", "--option", "rounds=9")
    assert "colour" in fails(capsys, "selfplay", "lost-cities", "--seed", "1", "--option", "colour=red")
    assert "key=value" in fails(capsys, "selfplay", "lost-cities", "--seed", "1", "--option", "rounds")
    assert "seed" in fails(capsys, "selfplay", "lost-cities")


def test_broken_files(capsys, tmp_path):
    assert "No such file" in fails(capsys, "replay", str(tmp_path / "missing.json"))
    assert "not a JSON file" in fails(capsys, "replay", write(tmp_path, "{nope"))
    assert "JSON object" in fails(capsys, "replay", write(tmp_path, "[1, 2]"))
    assert "format" in fails(capsys, "replay", write(tmp_path, {"format": 9}))
    log = good_log(capsys)
    del log["seats"]
    assert "seats" in fails(capsys, "replay", write(tmp_path, log))


def test_illegal_action_names_its_index(capsys, tmp_path):
    log = good_log(capsys)
    # the 6th action (index 5) becomes a draw when a play is due, or vice versa
    log["actions"][5] = {"seat": log["actions"][5]["seat"], "action": {"type": "fly"}}
    assert "action 5:" in fails(capsys, "replay", write(tmp_path, log))
    log = good_log(capsys)
    log["actions"][2]["seat"] = 1 - log["actions"][2]["seat"]
    err = fails(capsys, "replay", write(tmp_path, log))
    assert "action 2:" in err and "not your turn" in err
    log = good_log(capsys)
    log["actions"].insert(0, {"seat": 0, "action": {"type": "draw", "from": "deck"}})
    assert "action 0: first play or discard" in fails(capsys, "replay", write(tmp_path, log))
    log = good_log(capsys)
    log["actions"][0] = {"seat": 0}
    assert "action 0" in fails(capsys, "replay", write(tmp_path, log))


def test_partial_log_replays_to_the_position(capsys, tmp_path):
    log = good_log(capsys)
    log["actions"] = log["actions"][:11]
    assert main(["replay", write(tmp_path, log)]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["over"] is False and summary["actions"] == 11 and len(summary["to_move"]) == 1
