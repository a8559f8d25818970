"""``truco verify RECORD`` checks a whole match record offline, and says which deal fails."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from truco.cli.main import main
from truco.protocol.replays import download_record
from truco.table.hands import match_record

from .test_replays import played_match


def _record(tmp_path: Path, record: object) -> str:
    path = tmp_path / "match.json"
    path.write_text(json.dumps(record))
    return str(path)


def test_truco_verify_accepts_a_downloaded_match_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    d = played_match()
    assert main(["verify", _record(tmp_path, download_record(match_record(d.t)))]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["verified"] and out["deals"] == len(d.t.hands) and out["contributions"] == 1
    assert out["match_over"] and out["score"] == list(d.t.result.score)


def test_truco_verify_reads_a_stored_match_record_too(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    d = played_match()
    assert main(["verify", _record(tmp_path, match_record(d.t))]) == 0
    assert json.loads(capsys.readouterr().out)["verified"]


def test_truco_verify_catches_a_card_swapped_after_the_deal(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]):
    record = download_record(match_record(played_match().t))
    hands = record["deals"][1]["hands"]
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]
    assert main(["verify", _record(tmp_path, record)]) == 1
    out = json.loads(capsys.readouterr().out)
    assert not out["verified"] and "deals[1]" in out["error"] and "other cards" in out["error"]


def test_truco_verify_catches_a_secret_that_is_not_the_committed_one(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]):
    record = download_record(match_record(played_match().t))
    record["deals"][0]["fairness"]["secret"] = "00" * 32
    assert main(["verify", _record(tmp_path, record)]) == 1
    assert "commitment" in json.loads(capsys.readouterr().out)["error"]


def test_truco_verify_refuses_what_is_not_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    path = tmp_path / "x.json"
    path.write_text("{not json")
    assert main(["verify", str(path)]) == 2
    assert "not valid JSON" in capsys.readouterr().err
