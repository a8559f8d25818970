"""The ``neural`` level: a network trained by ``truco train`` from a teacher's self-play."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from tests.bots.matches import views_of_a_match
from truco.bots import training
from truco.bots.arena import ArenaConfig, run_arena
from truco.bots.neural import (
    ACTIONS,
    N_FEATURES,
    Net,
    NeuralBot,
    action_index,
    features,
    legal_mask,
    shipped,
    shipped_path,
)
from truco.cli.main import main
from truco.engine import Rules

TABLES = [Rules(players=2), Rules(players=4), Rules(players=6), Rules(players=8), Rules(players=4, flor=True),
          Rules(players=2, target=15, flor=True)]


@pytest.mark.parametrize("rules", TABLES, ids=lambda r: f"{r.players}p-{r.target}-flor{int(r.flor)}")
def test_every_view_becomes_the_same_number_of_features_each_about_zero_to_one(rules: Rules) -> None:
    seen = 0
    for _, view in views_of_a_match(rules, seed=rules.players * 3 + rules.flor, max_hands=6):
        x = features(view)
        assert x.shape == (N_FEATURES,) and x.dtype == np.float32
        assert np.isfinite(x).all() and x.min() >= 0.0 and x.max() <= 1.0 + 1e-6
        mask = legal_mask(view)
        assert mask.sum() == len({action_index(view, a) for a in view.legal})
        for a in view.legal:
            assert mask[action_index(view, a)]
        seen += 1
    assert seen > 20


def test_a_card_is_named_by_its_rank_in_the_hand_strongest_first() -> None:
    for _, view in views_of_a_match(Rules(players=2), seed=5, max_hands=3):
        plays = [a for a in view.legal if a.do.value == "play"]
        idx = sorted(action_index(view, a) for a in plays)
        assert idx == list(range(len(plays)))
        assert all(ACTIONS[i].value == "play" for i in idx)


@pytest.mark.parametrize("rules", TABLES, ids=lambda r: f"{r.players}p-{r.target}-flor{int(r.flor)}")
def test_the_shipped_network_plays_only_legal_actions_and_hint_equals_choose(rules: Rules) -> None:
    bot = NeuralBot(7)
    for _, view in views_of_a_match(rules, seed=11 + rules.players, max_hands=6):
        a = bot.choose(view)
        assert a in view.legal
        assert bot.hint(view) == a


def test_the_shipped_weights_are_small_and_say_how_they_were_trained() -> None:
    path = shipped_path()
    assert path.stat().st_size < 200_000
    with np.load(path) as data:
        meta = dict(str(x).split("=", 1) for x in data["meta"])
    assert meta["teacher"] == "maestro" and int(meta["features"]) == N_FEATURES
    assert int(meta["seed"]) >= 0 and int(meta["matches"]) >= 100
    net = shipped()
    assert net.weights[0].shape[0] == N_FEATURES and net.weights[-1].shape[1] == len(ACTIONS)


def test_a_file_for_other_features_is_refused(tmp_path: Path) -> None:
    bad = Net((np.zeros((3, len(ACTIONS)), dtype=np.float32),), (np.zeros(len(ACTIONS), dtype=np.float32),))
    bad.save(tmp_path / "bad.npz", {})
    with pytest.raises(ValueError, match="not a network"):
        Net.load(tmp_path / "bad.npz")


def _data(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    x, mask, y, _ = training.self_play("normal", 6, seed).arrays()
    return x, mask, y


def test_training_twice_from_the_same_seed_gives_the_same_weights() -> None:
    x, mask, y = _data(3)
    config = training.TrainConfig(epochs=2, hidden=(32, 16))
    a = training.train(x, mask, y, 9, config)
    b = training.train(*_data(3), 9, config)
    c = training.train(x, mask, y, 10, config)
    assert all(np.array_equal(u, v) for u, v in zip(a.weights + a.biases, b.weights + b.biases, strict=True))
    assert not np.array_equal(a.weights[0], c.weights[0])


def test_the_network_learns_its_teachers_choices_beyond_the_most_common_one() -> None:
    x, mask, y = _data(4)
    config = training.TrainConfig(epochs=8, hidden=(64, 32))
    untrained = training.train(x, mask, y, 1, training.TrainConfig(epochs=0, hidden=(64, 32)))
    net = training.train(x, mask, y, 1, config)
    majority = np.bincount(y).max() / len(y)
    learnt = training.agreement(net, x, mask, y)
    assert learnt > majority + 0.1
    assert learnt > training.agreement(untrained, x, mask, y) + 0.1


def test_truco_train_writes_weights_the_level_can_load(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "w.npz"
    rc = main(["train", "--teacher", "facil", "--matches", "6", "--epochs", "2", "--hidden", "16",
               "--rounds", "2", "--seed", "2", "--out", str(out), "--json"])
    assert rc == 0
    report = json.loads(capsys.readouterr().out)
    assert report["samples"] > 50 and 0.0 <= report["agreement"]["held_out"] <= 1.0
    assert report["rounds"] == 2
    net = Net.load(out)
    assert [w.shape for w in net.weights] == [(N_FEATURES, 16), (16, len(ACTIONS))]
    for _, view in views_of_a_match(Rules(players=4), seed=1, max_hands=2):
        assert NeuralBot(0, net).choose(view) in view.legal


def test_truco_train_refuses_a_nonsense_size(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["train", "--matches", "0"]) == 2
    assert "positive" in capsys.readouterr().err


def test_the_network_beats_random_play_on_duplicate_deals() -> None:
    result = run_arena(ArenaConfig(a="neural", b="random", players=2, matches=20, seed=3))
    assert result.summary()["a_wins"] >= 18


def test_self_play_gives_the_same_decisions_whatever_the_number_of_processes() -> None:
    one = training.self_play("facil", 12, 5, jobs=1)
    two = training.self_play("facil", 12, 5, jobs=2)
    assert one.y == two.y and one.match == two.match
    assert all(np.array_equal(a, b) for a, b in zip(one.x, two.x, strict=True))
