"""The command line: ``unomas simulate`` and ``unomas replay``."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from unomas import record
from unomas.cli import app

EXAMPLES = Path(__file__).resolve().parent / "examples"
"""The sample records of RECORD.md, kept beside the tests."""

runner = CliRunner()


def run(*args: str) -> Result:
    return runner.invoke(app, list(args), env={"COLUMNS": "200", "NO_COLOR": "1", "LANGUAGE": "en"})


def flat(text: str) -> str:
    """Output with box drawing removed and runs of space joined (messages may be wrapped)."""
    return " ".join(re.sub(r"[│╭╮╰╯─┌┐└┘├┤┬┴┼]", " ", text).split())


def simulate_to(path: Path, *args: str) -> Result:
    result = run("simulate", "--records", str(path), *args)
    assert result.exit_code == 0, result.output
    return result


def example(name: str) -> dict[str, Any]:
    path = EXAMPLES / name
    loaded: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return loaded


# ---------------------------------------------------------------- simulate


def test_simulate_prints_a_summary(tmp_path: Path) -> None:
    result = simulate_to(tmp_path / "r.jsonl", "--games", "5", "--seed", "1", "--set", "target_score=100")
    text = flat(result.output)
    for label in ("games", "rounds", "actions", "games/s", "actions/s"):
        assert re.search(rf"(^| ){re.escape(label)} [\d,.]+", text), (label, text)
    assert re.search(r"games 5( |$)", text)


def test_simulate_without_records() -> None:
    result = run("simulate", "-n", "3", "--players", "3", "--set", "target_score=0")
    assert result.exit_code == 0, result.output
    assert "actions/s" in result.output


def test_simulate_writes_records_that_replay(tmp_path: Path) -> None:
    path = tmp_path / "records.jsonl"
    simulate_to(path, "--games", "4", "--seed", "7", "--set", "target_score=100")
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 4
    for line in lines:
        written = json.loads(line)
        assert written["format"] == "unomas-record/1"
        assert written["winner"] is not None
    result = run("replay", str(path))
    assert result.exit_code == 0, result.output
    assert result.output.count("valid") == 4
    for number, line in enumerate(lines):
        written = json.loads(line)
        scores = " ".join(str(s) for s in written["scores"])
        assert re.search(rf"record {number}\b.*scores {scores}; winner seat {written['winner']}", result.output)


def test_same_seed_same_records(tmp_path: Path) -> None:
    first, second, other = tmp_path / "a.jsonl", tmp_path / "b.jsonl", tmp_path / "c.jsonl"
    options = ("--games", "3", "--set", "target_score=80", "--rules", "all", "--players", "5")
    simulate_to(first, "--seed", "42", *options)
    simulate_to(second, "--seed", "42", *options)
    simulate_to(other, "--seed", "43", *options)
    assert first.read_bytes() == second.read_bytes()
    assert first.read_bytes() != other.read_bytes()


@pytest.mark.parametrize("policy", ["playfirst", "random"])
def test_each_policy_plays_matches_that_replay(tmp_path: Path, policy: str) -> None:
    path = tmp_path / f"{policy}.jsonl"
    result = simulate_to(path, "--policy", policy, "--games", "3", "--seed", "3", "--set", "target_score=0")
    assert re.search(r"games 3( |$)", flat(result.output))
    replayed = run("replay", str(path))
    assert replayed.exit_code == 0, replayed.output
    assert replayed.output.count("valid") == 3
    assert [r["winner"] is not None for r in record.read_file(path)] == [True] * 3


def test_all_rules(tmp_path: Path) -> None:
    path = tmp_path / "all.jsonl"
    simulate_to(path, "--rules", "all", "--games", "3", "--seed", "5", "--set", "target_score=60")
    for written in record.read_file(path):
        settings = written["rules"]
        numbers = ("players", "hand_size", "target_score", "uno_penalty", "hand_limit")
        assert all(settings[name] is True for name in settings if name not in numbers)
        assert (settings["uno_penalty"], settings["hand_limit"]) == (4, 25)
    assert run("replay", str(path)).exit_code == 0


def test_settings_on_the_command_line(tmp_path: Path) -> None:
    path = tmp_path / "mixed.jsonl"
    simulate_to(path, "--set", "stack_mixed=true", "--set", "target_score=0", "--games", "2", "--seed", "9")
    for written in record.read_file(path):
        assert written["rules"]["stack_mixed"] is True
        assert written["rules"]["target_score"] == 0
        assert len(written["rounds"]) == 1
    assert run("replay", str(path)).exit_code == 0


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (("--set", "bogus=1"), "bogus"),
        (("--set", "jump_in=maybe"), "jump_in"),
        (("--set", "players=11"), "players"),
        (("--set", "hand_size=x"), "hand_size"),
        (("--set", "target_score=-5"), "The target score must be 0 or more, not -5."),
        (("--set", "stack_mixed"), "stack_mixed"),
        (("--players", "1"), "players"),
        (("--rules", "chaos"), "chaos"),
        (("--policy", "clever"), "--policy: there is no policy 'clever' (the policies are playfirst, random)."),
        (("--policy", "uniform"), "there is no policy 'uniform'"),
    ],
)
def test_bad_settings_are_refused(tmp_path: Path, args: tuple[str, ...], named: str) -> None:
    path = tmp_path / "never.jsonl"
    result = run("simulate", "--games", "1", "--records", str(path), *args)
    assert result.exit_code != 0
    assert named in flat(result.output)
    assert "Traceback" not in result.output


# ---------------------------------------------------------------- replay


def test_replay_examples() -> None:
    paths = sorted(EXAMPLES.glob("*.json"))
    result = run("replay", *(str(p) for p in paths))
    assert result.exit_code == 0, result.output
    for path in paths:
        written = json.loads(path.read_text(encoding="utf-8"))
        scores = " ".join(str(s) for s in written["scores"])
        winner = "none yet" if written["winner"] is None else f"seat {written['winner']}"
        assert f"scores {scores}; winner {winner}" in result.output


def test_replay_bad_file(tmp_path: Path) -> None:
    good = example("legal-basic-round-01.json")
    bad = copy.deepcopy(good)
    bad["rounds"][0]["events"][2]["cards"] = ["B8"]  # seat 1 drew B7
    seven = example("legal-seven-swap-01.json")
    path = tmp_path / "mixed.jsonl"
    lines = [record.dumps(good), record.dumps(bad), "{this is not json", record.dumps(seven)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = run("replay", str(path))
    assert result.exit_code != 0
    text = flat(result.output)
    assert re.search(r"valid \S*mixed\.jsonl: record 0: scores 12 0; winner seat 0", text), text
    assert re.search(r"INVALID \S*mixed\.jsonl: record 1: round 0, event 2: .*B8", text), text
    assert re.search(r"INVALID \S*mixed\.jsonl: record 2: .*not JSON", text), text
    assert re.search(r"valid \S*mixed\.jsonl: record 3: scores 0 8; winner seat 1", text), text


def test_replay_names_the_event_of_an_illegal_move(tmp_path: Path) -> None:
    bad = example("legal-seven-swap-01.json")
    bad["rounds"][0]["events"][2]["card"] = "B1"  # seat 1 holds B1 but the colour in play is R
    path = tmp_path / "one.json"
    path.write_text(json.dumps(bad, indent=1), encoding="utf-8")
    result = run("replay", str(path))
    assert result.exit_code == 1
    text = flat(result.output)
    assert "record 0" in text and "round 0, event 2" in text and "illegal" in text and "B1" in text


def in_spanish(*args: str) -> Result:
    """The command as a reader whose locale is Spanish runs it."""
    env = {"COLUMNS": "200", "NO_COLOR": "1", "LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": "", "LANG": "es_ES.UTF-8"}
    return runner.invoke(app, list(args), env=env)


def _rules_null(data: dict[str, Any]) -> None:
    data["rules"] = None


def _bad_format(data: dict[str, Any]) -> None:
    data["format"] = "unomas-record/0"


def _scores_differ(data: dict[str, Any]) -> None:
    data["scores"] = [1, 2]


def _illegal_move(data: dict[str, Any]) -> None:
    data["rounds"][0]["events"][2]["card"] = "B1"


def _short_hand(data: dict[str, Any]) -> None:
    data["rounds"][0]["hands"][0].pop()


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (_rules_null, "registro 0: reglas (rules): los ajustes deben ser un objeto, no null"),
        (_bad_format, "registro 0: format debe ser 'unomas-record/1', no 'unomas-record/0'"),
        (_scores_differ, "registro 0: las puntuaciones son [1, 2], pero la repetición da [0, 8]"),
        (_illegal_move, "registro 0: ronda 0, evento 2: jugada no permitida: el jugador 1 no tiene ningún B1"),
        (_short_hand, "registro 0: ronda 0: reparto: la mano 0 tiene {cards} cartas, no {size}"),
    ],
    ids=["rules null", "bad format", "scores differ", "illegal move", "short hand"],
)
def test_replay_says_what_is_wrong_in_the_reader_s_language(
    tmp_path: Path, change: Callable[[dict[str, Any]], None], words: str
) -> None:
    bad = example("legal-seven-swap-01.json")
    size = bad["rules"]["hand_size"]
    change(bad)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad), encoding="utf-8")
    result = in_spanish("replay", str(path))
    assert result.exit_code == 1
    assert result.output.splitlines() == [f"NO VÁLIDO {path}: {words.format(cards=size - 1, size=size)}"]


def test_replay_of_a_good_record_and_a_line_not_json_in_spanish(tmp_path: Path) -> None:
    path = tmp_path / "two.jsonl"
    path.write_text(record.dumps(example("legal-seven-swap-01.json")) + "\n{not json\n", encoding="utf-8")
    result = in_spanish("replay", str(path))
    assert result.exit_code == 1
    assert result.output.splitlines() == [
        f"válido {path}: registro 0: puntuaciones 0 8; ganador asiento 1",
        f"NO VÁLIDO {path}: registro 1: la línea 2 no es JSON (columna 2)",
    ]


def test_a_record_that_breaks_off_is_placed_by_its_line_and_column_in_spanish(tmp_path: Path) -> None:
    path = tmp_path / "cut.json"
    path.write_text('{\n  "format": "unomas-record/1",\n  "rules": \n', encoding="utf-8")
    result = in_spanish("replay", str(path))
    assert result.exit_code == 1
    assert result.output.splitlines() == [f"NO VÁLIDO {path}: registro 0: la línea 4 no es JSON (columna 1)"]


def test_replay_verify_says_what_is_wrong_with_the_seed_in_spanish(tmp_path: Path) -> None:
    paths = []
    for name, shuffle in (
        ("not-hex", {"commitment": "ab", "seed": "zz"}),
        ("other", {"commitment": "ab", "seed": "00"}),
    ):
        data = example("legal-seven-swap-01.json")
        data["shuffle"] = shuffle
        paths.append(tmp_path / f"{name}.json")
        paths[-1].write_text(json.dumps(data), encoding="utf-8")
    result = in_spanish("replay", "--verify", *(str(path) for path in paths))
    assert result.exit_code == 1
    assert result.output.splitlines() == [
        f"NO VÁLIDO {paths[0]}: registro 0: la semilla 'zz' no es hexadecimal",
        f"NO VÁLIDO {paths[1]}: registro 0: la semilla no corresponde al compromiso (su SHA-256 es otro)",
    ]


def test_replay_of_a_missing_file(tmp_path: Path) -> None:
    result = run("replay", str(tmp_path / "absent.jsonl"))
    assert result.exit_code != 0
    assert "absent.jsonl" in flat(result.output)
