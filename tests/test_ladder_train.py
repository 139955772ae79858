"""The strength ladder's command and the training command, on tiny budgets."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner, Result

from codes import raises_code
from unomas.bots.learned import FEATURES, MOVES, Network
from unomas.bots.train import generate, load, require_torch, table_rules
from unomas.cli import app
from unomas.errors import SettingsError
from unomas.runs.ladder import main as ladder


def cli(*args: str) -> Result:
    """``unomas ARGS`` in English on a wide screen."""
    return CliRunner().invoke(app, list(args), env={"COLUMNS": "200", "NO_COLOR": "1", "LANGUAGE": "en"})


def test_the_ladder_command_writes_every_table(tmp_path: Path) -> None:
    out = tmp_path / "strength.md"
    ladder(["--rounds", "2", "--bots", "random", "playfirst", "learned", "--out", str(out)])
    text = out.read_text()
    for heading in (
        "2 players / jugadores, `official`",
        "2 players / jugadores, `all`",
        "4 players / jugadores, `all`",
    ):
        assert heading in text
    assert text.count("n=2") == 4 * 3 * 2  # every pairing both ways round, at every table
    assert "python -m unomas.runs.ladder --rounds 2" in text
    assert "| `random` |" in text and "| 50 % | 50 % |" in text  # each bot's slips beside its speed
    verdicts = [line for line in text.splitlines() if line.startswith("- ") and "`learned`" in line]
    assert len(verdicts) == 4 and all("`playfirst`" in line and "separad" in line for line in verdicts)


def test_self_play_tables_vary_in_players_and_rules() -> None:
    rng = random.Random(0)
    tables = [table_rules(rng) for _ in range(60)]
    assert {rules.players for rules in tables} >= {2, 4, 10}
    assert len({(rules.seven_zero, rules.jump_in, rules.stack_draw_two) for rules in tables}) > 2
    assert all(rules.target_score == 0 for rules in tables)


def test_self_play_data_is_made_once_and_its_targets_are_open_moves(tmp_path: Path) -> None:
    paths = generate(tmp_path, seed=0, games=2, iterations=8, chunk=1)
    assert [path.name for path in paths] == ["chunk-0000.npz", "chunk-0001.npz"]
    stamps = [path.stat().st_mtime_ns for path in paths]
    assert generate(tmp_path, seed=0, games=2, iterations=8, chunk=1) == paths
    assert [path.stat().st_mtime_ns for path in paths] == stamps  # resumed: nothing made again
    data = load(paths)
    count = len(data["won"])
    assert count > 0 and data["features"].shape == (count, FEATURES) and data["masks"].shape == (count, MOVES)
    assert np.allclose(data["moves"].sum(axis=1), 1.0)
    assert not (data["moves"] * ~data["masks"]).any()
    assert 0 < data["won"].sum() < count


def test_unomas_train_reproduces_from_a_seed_and_resumes(tmp_path: Path) -> None:
    pytest.importorskip("torch", reason="training needs the train extra (PyTorch)")
    from unomas.bots.train import main

    arguments = ["--games", "2", "--iterations", "8", "--chunk", "1", "--eval-every", "1", "--eval-rounds", "2"]
    first = cli("train", "--out", str(tmp_path / "a"), "--epochs", "1", *arguments)
    assert first.exit_code == 0, first.output
    assert "against heuristic" in first.output  # the periodic evaluation
    assert (tmp_path / "a" / "checkpoint.pt").exists()
    again = cli("train", "--out", str(tmp_path / "a"), "--epochs", "2", *arguments)  # resumed from the checkpoint
    assert again.exit_code == 0, again.output
    main(["--out", str(tmp_path / "b"), "--epochs", "2", *arguments])  # the module's command line, the same run
    rows = [json.loads(line) for line in (tmp_path / "a" / "log.jsonl").read_text().splitlines()]
    assert [row["epoch"] for row in rows] == [1, 2] and "win_rate" in rows[1]
    one = Network.load(str(tmp_path / "a" / "learned.npz"))
    other = Network.load(str(tmp_path / "b" / "learned.npz"))
    assert all(np.array_equal(a[0], b[0]) for a, b in zip(one.hidden, other.hidden, strict=True))


def test_unomas_train_without_pytorch_stops_before_playing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "torch", None)  # as if the train extra were not installed
    with raises_code(SettingsError, "setup.no_train", install="pip install 'unomas[train]'"):
        require_torch()
    result = cli("train", "--out", str(tmp_path / "run"), "--games", "1", "--lang", "es")
    assert result.exit_code == 1
    assert "unomas[train]" in result.output and "PyTorch" in result.output
    assert not (tmp_path / "run").exists()  # no round was played


def test_training_evaluates_a_weights_file_and_plots_its_curve(tmp_path: Path) -> None:
    from importlib import resources

    from unomas.bots.train import evaluate, plot

    shipped = resources.files("unomas.bots.weights").joinpath("learned.npz")
    rate, low, high = evaluate(Path(str(shipped)), rounds=4, seed=1)
    assert 0.0 <= low <= rate <= high <= 1.0
    pytest.importorskip("matplotlib", reason="the plot needs the plot extra")
    rows = [{"epoch": 1, "loss": 3.0, "held_out": 3.1}, {"epoch": 2, "loss": 2.9, "held_out": 3.0}]
    rows[1] |= {"win_rate": rate, "low": low, "high": high}
    (tmp_path / "log.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows))
    plot(tmp_path)
    assert (tmp_path / "curve.png").stat().st_size > 1000
