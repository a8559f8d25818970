"""Hand records and ``truco replay``: the JSON form, exit codes and messages of issue 2."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from truco.cli.main import main

EXAMPLE = {
    "rules": {"players": 4, "target": 30, "flor": False, "falta": "leader", "chicos": 1},
    "score": [0, 0],
    "dealer": 3,
    "hands": [["1e", "4c", "5o"], ["3c", "4b", "5b"], ["2e", "6c", "7c"], ["12o", "11b", "10e"]],
    "actions": [{"seat": 0, "do": "envido"}, {"seat": 1, "do": "quiero"},
                {"seat": 0, "do": "play", "card": "1e"}],
}


def run_replay(record, capsys, monkeypatch) -> tuple[int, str, str]:
    import io
    monkeypatch.setattr(sys, "stdin", io.StringIO(record if isinstance(record, str) else json.dumps(record)))
    rc = main(["replay", "-"])
    out, err = capsys.readouterr()
    return rc, out, err


def test_replay_prints_the_score_and_every_point_award(capsys, monkeypatch):
    rc, out, err = run_replay(EXAMPLE, capsys, monkeypatch)
    assert rc == 0 and err == ""
    result = json.loads(out)
    # tantos: seat 0 has 5, seat 1 has 25 (4b 5b), seat 2 has 33 (6c 7c); seat 2 wins for team 0
    assert result["score"] == [2, 0]
    assert result["events"] == [{"team": 0, "points": 2, "reason": "envido"}]
    assert result["hand_over"] is False and result["match_over"] is False and result["winner"] is None


def test_rules_and_score_may_be_omitted(capsys, monkeypatch):
    record = {k: v for k, v in EXAMPLE.items() if k not in ("rules", "score")}
    rc, out, _ = run_replay(record, capsys, monkeypatch)
    assert rc == 0 and json.loads(out)["score"] == [2, 0]


def test_an_illegal_action_exits_2_naming_its_index(capsys, monkeypatch):
    record = dict(EXAMPLE, actions=[*EXAMPLE["actions"], {"seat": 0, "do": "play", "card": "4c"}])
    rc, out, err = run_replay(record, capsys, monkeypatch)
    assert rc == 2 and out == ""
    assert err.splitlines()[0] == "action 3: it is not your turn"


def test_a_card_played_with_a_call_pending_is_refused(capsys, monkeypatch):
    record = dict(EXAMPLE, actions=[{"seat": 0, "do": "truco"}, {"seat": 0, "do": "play", "card": "1e"}])
    rc, out, err = run_replay(record, capsys, monkeypatch)
    assert rc == 2 and out == ""
    assert err.startswith("action 1: the truco must be answered first")


@pytest.mark.parametrize(("record", "message"), [
    ("not json", "record: not valid JSON"),
    ([1, 2], "record: a record is a JSON object"),
    (dict(EXAMPLE, hands=[["1e", "4c", "5o"]]), "record: hands must be a list of 4 hands"),
    (dict(EXAMPLE, hands=[["1e", "1e", "5o"], ["3c", "4b", "5b"], ["2e", "6c", "7c"], ["12o", "11b", "10e"]]),
     "record: a card is dealt twice"),
    (dict(EXAMPLE, hands=[["8e", "4c", "5o"], ["3c", "4b", "5b"], ["2e", "6c", "7c"], ["12o", "11b", "10e"]]),
     "record: hands[0]: unknown card '8e'"),
    (dict(EXAMPLE, rules={"players": 5}), "record: rules: players must be 2, 4, 6 or 8"),
    (dict(EXAMPLE, dealer=7), "record: dealer must be a seat from 0 to 3"),
    (dict(EXAMPLE, score=[30, 0]), "record: score must be below the target"),
])
def test_a_malformed_record_exits_2_with_a_record_reason(record, message, capsys, monkeypatch):
    rc, out, err = run_replay(record, capsys, monkeypatch)
    assert rc == 2 and out == ""
    assert err.splitlines()[0].startswith(message)


@pytest.mark.parametrize(("action", "message"), [
    ({"seat": 9, "do": "envido"}, "action 0: seat must be 0 to 3"),
    ({"seat": 0, "do": "dance"}, "action 0: unknown action 'dance'"),
    ({"seat": 0, "do": "play"}, "action 0: play needs a card"),
    ({"seat": 0, "do": "envido", "card": "1e"}, "action 0: envido takes no card"),
    ({"seat": 0, "do": "play", "card": "3c"}, "action 0: you do not hold that card"),
])
def test_a_malformed_action_exits_2_naming_its_index(action, message, capsys, monkeypatch):
    rc, out, err = run_replay(dict(EXAMPLE, actions=[action]), capsys, monkeypatch)
    assert rc == 2 and out == ""
    assert err.splitlines()[0] == message


def test_the_replay_command_reads_a_file_and_runs_as_a_console_script(tmp_path):
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(EXAMPLE))
    proc = subprocess.run([sys.executable, "-m", "truco.cli.main", "replay", str(path)],
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["score"] == [2, 0]


def test_a_record_that_reaches_the_target_reports_the_winner(capsys, monkeypatch):
    record = dict(EXAMPLE, score=[28, 0], actions=EXAMPLE["actions"][:2])
    rc, out, _ = run_replay(record, capsys, monkeypatch)
    result = json.loads(out)
    assert rc == 0 and result["match_over"] is True and result["winner"] == 0 and result["score"] == [30, 0]
