"""The strength ladder's command and the training command, on tiny budgets."""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from typer.testing import CliRunner, Result

from codes import raises_code
from unomas.bots import train as train_module
from unomas.bots.learned import FEATURES, MOVES, Network
from unomas.bots.train import generate, load, require_torch, table_rules
from unomas.cli import app
from unomas.errors import SettingsError
from unomas.runs import rlcard_rule
from unomas.runs.ladder import main as ladder
from unomas.runs.ladder import play_ladder

SHIPPED = Path(str(resources.files("unomas.bots.weights").joinpath("learned.npz")))


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
    assert "absent from this run" in text  # no RLCard anchor was given
    verdicts = [line for line in text.splitlines() if line.startswith("- ") and "`learned`" in line]
    assert len(verdicts) == 4 and all("`playfirst`" in line and "separad" in line for line in verdicts)
    row = next(line for line in text.splitlines() if line.startswith("| `learned` | "))
    assert len(row.split("|")) == 1 + 4 + 4 + 1  # speed, two slips, a rating at each table


def test_openskill_rates_the_ladder_by_its_rounds() -> None:
    bots = ["random", "heuristic"]
    played = play_ladder(bots, 12, seed="t", jobs=1, tables=[(2, "official")])
    assert played.pairings[2, "official", "heuristic", "random"].wins > 6  # heuristic wins most of them
    random_rating, heuristic_rating = played.ratings[2, "official"]
    assert heuristic_rating > random_rating


ANCHOR_PYTHON = Path(__file__).resolve().parent.parent / "benchmarks" / ".venv-rlcard" / "bin" / "python"


@pytest.mark.skipif(not ANCHOR_PYTHON.exists(), reason="RLCard's environment (benchmarks/engine.py makes it) is absent")
def test_the_ladder_seats_rlcard_s_rule_agent_as_its_anchor(tmp_path: Path) -> None:
    out = tmp_path / "strength.md"
    given = ["--rounds", "2", "--bots", "random", "playfirst", "--rlcard-python", str(ANCHOR_PYTHON)]
    ladder([*given, "--out", str(out)])
    text = out.read_text()
    assert "absent" not in text and "`rlcard-rule` is RLCard 1.2.0's rule agent" in text
    assert "| `rlcard-rule` | " in text and text.count("n=2") == 4 * 3 * 2
    assert (
        "- `rlcard-rule` and / y `playfirst`" in text
        or "`rlcard-rule` ahead of" in text
        or "of / por delante de `rlcard-rule`" in text
    )


def view(phase: str, hand: list[str], legal: list[dict[str, Any]], sizes: tuple[int, ...] = (3, 3)) -> dict[str, Any]:
    """A bot-protocol view with what the anchor reads."""
    return {"phase": phase, "hand": hand, "legal_actions": legal, "hand_sizes": list(sizes)}


def test_the_anchor_asks_the_rule_agent_as_rlcard_s_game_would() -> None:
    asked: list[dict[str, Any]] = []

    def agent(answer: str) -> Callable[[dict[str, Any]], str]:
        def step(state: dict[str, Any]) -> str:
            asked.append(state)
            return answer

        return step

    wilds = [{"p": 0, "a": "play", "card": "W+4", "color": c} for c in "RYGB"]
    legal = [{"p": 0, "a": "draw"}, {"p": 0, "a": "play", "card": "R+2"}, *wilds]
    assert rlcard_rule.choose(view("turn", ["R+2", "W+4", "G1"], legal), agent("r-draw_2")) == legal[1]
    assert asked[-1]["raw_legal_actions"] == ["r-draw_2"]  # a Wild Draw Four only when nothing else plays
    assert asked[-1]["raw_obs"]["hand"] == ["r-draw_2", "r-wild_draw_4", "g-1"]
    assert rlcard_rule.choose(view("turn", ["W+4"], [legal[0], *wilds]), agent("b-wild_draw_4")) == wilds[3]
    assert asked[-1]["raw_legal_actions"] == ["r-wild_draw_4", "y-wild_draw_4", "g-wild_draw_4", "b-wild_draw_4"]
    assert rlcard_rule.choose(view("turn", ["G1"], [legal[0]]), agent("draw")) == legal[0]
    assert asked[-1]["raw_legal_actions"] == ["draw"]
    uno = {"p": 0, "a": "play", "card": "R7", "target": 2, "uno": True}
    swaps = [{"p": 0, "a": "play", "card": "R7", "target": 1}, {"p": 0, "a": "play", "card": "R7", "target": 2}, uno]
    assert rlcard_rule.choose(view("turn", ["R7", "G1"], swaps, (2, 5, 1)), agent("r-7")) == uno
    catch = {"p": 0, "a": "catch", "target": 1}
    assert rlcard_rule.choose(view("turn", ["G1"], [legal[0], catch]), agent("draw")) == catch
    colors = [{"p": 0, "a": "color", "color": c} for c in "RYGB"]
    assert rlcard_rule.choose(view("color", ["G1", "G2", "R5", "W"], colors), agent("")) == colors[2]
    penalty = [{"p": 0, "a": "challenge"}, {"p": 0, "a": "draw"}]
    assert rlcard_rule.choose(view("penalty", ["G1"], penalty), agent("")) == penalty[1]
    drawn = [{"p": 0, "a": "pass"}, *[{"p": 0, "a": "play", "card": "W", "color": c} for c in "RYGB"]]
    assert rlcard_rule.choose(view("drawn", ["Y1", "W"], drawn), agent("")) == drawn[2]  # the colour most held
    assert rlcard_rule.choose(view("drawn", ["Y1", "W"], drawn[:1]), agent("")) == drawn[0]


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


def test_a_self_play_round_past_the_longest_is_left_out(monkeypatch: pytest.MonkeyPatch) -> None:
    decisions = len(train_module.play_round("0/0", 8).seats)
    assert 0 < decisions < train_module.LONGEST_ROUND
    monkeypatch.setattr(train_module, "LONGEST_ROUND", decisions)
    assert len(train_module.play_round("0/0", 8).seats) == decisions
    monkeypatch.setattr(train_module, "LONGEST_ROUND", decisions - 1)
    assert train_module.play_round("0/0", 8).seats == []


def test_heuristic_as_teacher_gives_its_own_moves_and_colours_as_targets(tmp_path: Path) -> None:
    data = load(generate(tmp_path, seed=0, games=2, iterations=8, chunk=1, teacher="heuristic"))
    count = len(data["won"])
    assert count > 0 and data["features"].shape == (count, FEATURES)
    assert np.array_equal(data["moves"].max(axis=1), np.ones(count))  # the move it chose, the whole weight
    assert data["masks"][np.arange(count), data["moves"].argmax(axis=1)].all()
    assert (data["masks"].sum(axis=1) > 1).all()  # decisions with a choice only
    named = data["colors"].sum(axis=1) > 0
    assert named.any() and np.array_equal(data["colors"][named].max(axis=1), np.ones(int(named.sum())))
    assert 0 < data["won"].sum() < count


def test_an_unknown_teacher_is_refused_in_the_readers_language(tmp_path: Path) -> None:
    result = cli("train", "--out", str(tmp_path / "run"), "--teacher", "nobody", "--lang", "es")
    assert result.exit_code == 1
    assert "nobody" in result.output and "ismcts, heuristic" in result.output and "maestro" in result.output
    assert not (tmp_path / "run").exists()


def test_self_play_data_is_the_same_from_two_workers_as_from_one(tmp_path: Path) -> None:
    alone = load(generate(tmp_path / "one", seed=0, games=2, iterations=8, chunk=1))
    shared = load(generate(tmp_path / "two", seed=0, games=2, iterations=8, chunk=1, workers=2))
    assert alone.keys() == shared.keys()
    assert all(np.array_equal(alone[name], shared[name]) for name in alone)


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
    improving = ["--improve-rounds", "2", "--workers", "2"]
    once = cli("train", "--out", str(tmp_path / "a"), "--epochs", "2", "--improve", "1", *improving, *arguments)
    assert once.exit_code == 0, once.output
    assert (tmp_path / "a" / "improve.pt").exists()
    twice = cli("train", "--out", str(tmp_path / "a"), "--epochs", "2", "--improve", "2", *improving, *arguments)
    assert twice.exit_code == 0, twice.output  # resumed from the improvement's checkpoint
    # the module's command line, the same run at once and in one process
    main(["--out", str(tmp_path / "b"), "--epochs", "2", "--improve", "2", "--improve-rounds", "2", *arguments])
    rows = [json.loads(line) for line in (tmp_path / "a" / "log.jsonl").read_text().splitlines()]
    assert [row.get("epoch", row.get("iteration")) for row in rows] == [1, 2, 1, 2]
    assert "win_rate" in rows[1] and "win_rate" in rows[3] and rows[3]["decisions"] > 0
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


def test_fitting_renames_the_colours_of_every_decision_consistently(tmp_path: Path) -> None:
    pytest.importorskip("torch", reason="training needs the train extra (PyTorch)")
    import torch

    from unomas.bots.fit import renamed, renamings
    from unomas.cards import KINDS

    table = renamings()
    assert len(table["colors"]) == 24 and sorted(map(tuple, table["colors"].tolist()))[0] == (0, 1, 2, 3)
    for sources in table.values():
        assert all(sorted(row) == list(range(len(row))) for row in sources.tolist())
    assert {tuple(row) for row in table["features"].tolist()} != {tuple(range(FEATURES))}
    data = load(generate(tmp_path, seed=3, games=1, iterations=8, chunk=1))
    batch = {name: torch.from_numpy(data[name]) for name in ("features", "masks", "moves", "colors")}
    for index in range(24):
        names = torch.full((len(data["won"]),), index)
        out = renamed(batch, names, table)
        held = out["features"][:, :KINDS] + out["features"][:, 3 * KINDS : 4 * KINDS]  # the hand and a card drawn
        plays = out["masks"][:, :KINDS]
        assert bool((held[plays] > 0).all())  # every card that may be played is still one held
        assert torch.equal(out["moves"].sum(1), batch["moves"].sum(1))


def test_the_improvement_s_rounds_record_the_network_s_own_choices_and_results() -> None:
    from unomas.bots.train import explore

    data = explore(seed=0, iteration=1, numbers=range(6), weights=str(SHIPPED), counts=(2, 4))
    count = len(data["won"])
    assert count > 0 and data["features"].shape == (count, FEATURES)
    assert data["masks"][np.arange(count), data["moves"]].all()  # every move chosen was open
    choices = (data["masks"].sum(axis=1) > 1) | (data["color_masks"].sum(axis=1) > 1)
    assert choices.all()  # decisions with a choice of move or of a wild's colour only
    named = data["colors"] >= 0
    assert named.any() and data["color_masks"][np.flatnonzero(named), data["colors"][named]].all()
    assert not data["color_masks"][~named].any()
    assert ((data["chances"] > 0) & (data["chances"] <= 1)).all()
    assert 0 < data["won"].sum() < count
    assert len(np.unique(data["episodes"])) > 6  # several seats a round
    again = explore(seed=0, iteration=1, numbers=range(6), weights=str(SHIPPED), counts=(2, 4))
    assert all(np.array_equal(data[name], again[name]) for name in data)  # drawn from the seed
    other = explore(seed=0, iteration=2, numbers=range(6), weights=str(SHIPPED), counts=(2, 4))
    assert not np.array_equal(data["moves"][:50], other["moves"][:50])  # each iteration its own rounds


def test_an_improvement_step_makes_a_winning_choice_likelier() -> None:
    pytest.importorskip("torch", reason="training needs the train extra (PyTorch)")
    import torch

    from unomas.bots.fit import PolicyValue, improvement_step

    torch.manual_seed(0)
    model = PolicyValue([16])
    count = 512
    features = torch.rand(count, FEATURES)
    masks = torch.zeros(count, MOVES, dtype=torch.bool)
    masks[:, :2] = True  # two moves open: 0 and 1
    moves = torch.arange(count) % 2
    with torch.no_grad():
        logits = model(features)[0][:, :2]
        chances = torch.softmax(logits, -1).gather(1, moves[:, None]).squeeze(1)
    data = {
        "features": features,
        "masks": masks,
        "moves": moves,
        "color_masks": torch.zeros(count, 4, dtype=torch.bool),
        "colors": torch.full((count,), -1),
        "chances": chances,
        "won": (moves == 1).float(),  # move 1 always won
        "episodes": torch.arange(count),  # one decision a round
    }
    before = float(torch.softmax(logits, -1)[:, 1].mean())
    optimiser = torch.optim.Adam(model.parameters(), lr=1e-2)
    improvement_step(model, optimiser, data, generator=torch.Generator().manual_seed(0))
    with torch.no_grad():
        after = float(torch.softmax(model(features)[0][:, :2], -1)[:, 1].mean())
    assert after > before + 0.05


def test_advantages_credit_each_decision_with_what_followed_it() -> None:
    pytest.importorskip("torch", reason="training needs the train extra (PyTorch)")
    from unomas.bots import fit

    values = np.asarray([0.5, 0.6, 0.9, 0.4], dtype=np.float32)
    won = np.asarray([1.0, 1.0, 1.0, 0.0], dtype=np.float32)
    episodes = np.asarray([7, 3, 7, 3])  # two seats, their decisions interleaved
    trace = fit.TRACE
    # seat 7: 0.5 then 0.9, then it won; seat 3: 0.6 then 0.4, then it lost
    expected = [0.4 + trace * 0.1, -0.2 + trace * -0.4, 0.1, -0.4]
    assert np.allclose(fit.advantages(values, won, episodes), expected)


def test_the_improvement_s_rounds_are_the_same_from_two_workers_as_from_one() -> None:
    from unomas.bots.train import exploration

    with exploration(seed=0, rounds=4, chunk=1, workers=1, counts=(2, 3)) as play:
        alone = play(1, SHIPPED)
    with exploration(seed=0, rounds=4, chunk=1, workers=2, counts=(2, 3)) as play:
        shared = play(1, SHIPPED)
    assert alone.keys() == shared.keys() and len(alone["won"]) > 0
    assert all(np.array_equal(alone[name], shared[name]) for name in alone)


def test_an_improvement_round_past_the_longest_is_left_out(monkeypatch: pytest.MonkeyPatch) -> None:
    decisions = len(train_module.explore_round("0/0", str(SHIPPED), (2,)).seats)
    assert decisions > 0
    monkeypatch.setattr(train_module, "LONGEST_ROUND", decisions - 1)
    assert train_module.explore_round("0/0", str(SHIPPED), (2,)).seats == []


def test_each_improvement_iteration_is_logged_and_evaluated_when_due(tmp_path: Path) -> None:
    from shutil import copyfile

    from unomas.bots.train import improvement_report

    copyfile(SHIPPED, tmp_path / "learned.npz")
    (tmp_path / "log.jsonl").write_text(json.dumps({"epoch": 1, "loss": 3.0, "held_out": 3.1}) + "\n")
    after = improvement_report(tmp_path, seed=0, every=2, rounds=4)
    after(1, {"policy": -0.01, "decisions": 100.0})
    after(2, {"policy": -0.02, "decisions": 90.0})
    rows = [json.loads(line) for line in (tmp_path / "log.jsonl").read_text().splitlines()]
    assert [row.get("iteration") for row in rows] == [None, 1, 2]
    assert "win_rate" not in rows[1] and 0.0 <= rows[2]["win_rate"] <= 1.0 and rows[2]["decisions"] == 90.0
