"""The console script: ``unomas simulate`` with plain options starts without Typer and runs
as the Typer command does; everything else is the Typer app's."""

from __future__ import annotations

import sys

import pytest
import typer
from typer.testing import CliRunner

from unomas import console
from unomas.cli import app


def figures_without_times(output: str) -> list[str]:
    """The lines of a simulation's figures, those that depend on the clock left out."""
    return [line for line in output.splitlines() if line.split()[:1] not in (["seconds"], ["games/s"], ["actions/s"])]


@pytest.mark.parametrize(
    "args",
    [
        ["simulate", "--help"],
        ["simulate", "--games"],
        ["simulate", "--games", "0"],
        ["simulate", "--games", "x"],
        ["simulate", "--games", "+3"],
        ["simulate", "--games", "٣"],
        ["simulate", "--games", "2", "--games", "3"],
        ["simulate", "--games=3"],
        ["simulate", "--seed", "-1"],
        ["simulate", "--records", "out.jsonl"],
        ["simulate", "--backend", "ray"],
        ["tournament", "--games", "3"],
        [],
    ],
)
def test_what_is_not_plain_is_left_to_typer(args: list[str]) -> None:
    assert console.quick_options(args) is None
    assert console.quick(args) is None


def test_plain_options_are_read_by_their_parameters_names() -> None:
    args = ["simulate", "-n", "4", "--players", "3", "--rules", "all", "--set", "a=1", "--set", "b=2", "--seed", "s"]
    assert console.quick_options([*args, "--policy", "random", "--jobs", "1"]) == {
        "games": 4,
        "players": 3,
        "rules_preset": "all",
        "settings": ["a=1", "b=2"],
        "seed": "s",
        "policy": "random",
        "jobs": 1,
    }


def test_the_quick_options_are_the_commands_own() -> None:
    """Every option the quick start reads is the Typer command's, setting the same parameter."""
    command = typer.main.get_command(app).commands["simulate"]  # type: ignore[attr-defined]
    by_flag = {flag: param.name for param in command.params for flag in param.opts}
    assert {flag: by_flag.get(flag) for flag in console.SIMULATE} == console.SIMULATE


@pytest.mark.parametrize(
    "options",
    [["--set", "no_such_setting=1"], ["--policy", "nobody"], ["--rules", "nothing"], ["--players", "11"]],
)
def test_a_refused_setting_is_left_to_typer_which_words_it(options: list[str]) -> None:
    args = ["simulate", "--games", "1", *options]
    assert console.quick(args) is None
    assert CliRunner().invoke(app, args).exit_code == 2


def test_the_quick_start_prints_what_the_typer_command_prints(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["simulate", "--games", "3", "--players", "3", "--seed", "5", "--set", "target_score=100"]
    assert console.quick(args) == 0
    quick = capsys.readouterr().out
    typer_run = CliRunner().invoke(app, args)
    assert typer_run.exit_code == 0, typer_run.output
    assert figures_without_times(quick) == figures_without_times(typer_run.output)
    assert "  games         3" in quick


def test_the_console_script_runs_simulate_quickly_and_the_rest_through_typer(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "argv", ["unomas", "simulate", "--games", "1", "--players", "2"])
    with pytest.raises(SystemExit) as done:
        console.main()
    assert done.value.code == 0
    assert capsys.readouterr().out.startswith("simulation\n")
    monkeypatch.setattr(sys, "argv", ["unomas", "--version"])
    with pytest.raises(SystemExit) as done:
        console.main()
    assert done.value.code == 0
    assert capsys.readouterr().out.strip().startswith("unomas ")


def test_an_interrupted_run_prints_the_figures_of_the_matches_played(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from unomas.runs import simulation

    def two_then_ctrl_c(*args: object, **options: object) -> object:
        yield from list(played)[:2]
        raise KeyboardInterrupt

    from unomas.rules import Rules

    played = simulation.run_simulation(Rules(players=2, target_score=0), 2, seed=1)
    monkeypatch.setattr(simulation, "run_simulation", two_then_ctrl_c)
    assert console.quick(["simulate", "--games", "5", "--players", "2"]) == console.INTERRUPTED
    out, err = capsys.readouterr()
    assert "  games         2" in out
    assert "interrupted after 2 of 5 matches" in err


@pytest.mark.parametrize("package", ["unomas", "unomas.bots"])
def test_a_packages_names_load_from_their_modules_when_asked_for(package: str) -> None:
    """``from unomas import Game`` and ``from unomas.bots import HeuristicBot`` give the
    objects of the modules that define them, loaded on the first ask; other names are refused."""
    import importlib

    module = importlib.import_module(package)
    for name in module.__all__:
        value = getattr(module, name)
        if getattr(value, "__module__", None) == package:
            continue  # defined by the package itself
        vars(module).pop(name)  # asked for afresh: loaded again from its module
        again = getattr(module, name)
        assert again is value or (name == "BUILTIN_BOTS" and again == value)
        vars(module)[name] = value
    with pytest.raises(AttributeError, match="no_such_name"):
        _ = module.no_such_name
