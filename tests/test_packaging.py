"""The engine core stays light: importing it pulls in no front end and no heavy library."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

import unomas

HEAVY = ("typer", "rich", "textual", "starlette", "numpy", "click", "ray")
ENGINE = ("cards", "rules", "actions", "events", "game", "view", "record", "errors", "error_codes")
OUTER = ("cli", "bots", "tui", "server", "rl", "runs")
PACKAGE = Path(unomas.__file__).resolve().parent


def loaded_after(statement: str) -> list[str]:
    """The names in ``sys.modules`` after running ``statement`` in a fresh interpreter."""
    code = f"import sys, json\n{statement}\nprint(json.dumps(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    names: list[str] = json.loads(done.stdout.splitlines()[-1])
    return names


def test_import_unomas_loads_nothing_heavy() -> None:
    modules = loaded_after("import unomas")
    assert "unomas" in modules
    heavy = sorted(m for m in modules if m.split(".")[0] in HEAVY)
    assert heavy == []
    outer = sorted(m for m in modules if m.split(".")[:2] in [["unomas", o] for o in OUTER])
    assert outer == []


def test_ray_and_matplotlib_are_loaded_only_when_chosen() -> None:
    modules = loaded_after("import unomas.cli, unomas.runs.tournament, unomas.runs.simulation, unomas.runs.plot")
    assert "unomas.runs.backends" in modules
    assert not [m for m in modules if m == "ray" or m.startswith(("ray.", "unomas.runs.backends.ray"))]
    assert not [m for m in modules if m.split(".")[0] == "matplotlib"]


def test_the_command_line_loads_only_what_simulate_needs() -> None:
    """``unomas simulate`` starts without the process pools (played in this process by
    default), the tournament, the terminal game, the server or asyncio (the commands that
    join a room load it)."""
    modules = loaded_after("import unomas.cli")
    assert "unomas.cli.app" in modules
    unwanted = (
        "pebble",
        "multiprocessing",
        "textual",
        "starlette",
        "uvicorn",
        "unomas.tui",
        "unomas.server",
        "asyncio",
    )
    assert [m for m in modules if m.startswith(unwanted) or m == "unomas.runs.tournament"] == []


def test_a_simulate_run_loads_only_what_it_uses() -> None:
    """Not pydantic (Typer 0.29 checks every option with it: some 70 ms more for every
    command), nor the entry points of bots it does not ask for, nor a progress bar that a
    pipe does not show, nor Rich at all: its figures are plain lines (Rich's console and
    table cost some 15 ms)."""
    run = "from unomas.cli import app\napp(['simulate', '--games', '1', '--players', '2'], standalone_mode=False)"
    modules = loaded_after(run)
    assert "unomas.runs.simulation" in modules
    unwanted = ("pydantic", "pydantic_core", "importlib.metadata", "rich")
    assert [m for m in modules if m.startswith(unwanted)] == []


START_UP_FORBIDDEN = ("typer", "click", "rich", "pydantic", "importlib.metadata", "unomas.cli", "unomas.bots.process")
"""What ``unomas simulate`` with plain options never loads: the command line's library (its
command tree costs more than the run of a match) and what only other commands use."""

START_UP_LATER = ("unomas.bots.base", "unomas.record", "unomas.fairness", "hashlib", "string")
"""What such a run loads only when it needs it: bots, records, commitments (with
``--seed``) and the error registry's placeholders."""


@pytest.mark.parametrize("args", [["--games", "1"], ["--games", "2", "--players", "4", "--set", "target_score=0"]])
def test_simulate_starts_without_the_command_line_library(args: list[str]) -> None:
    """``unomas simulate`` with plain options starts with the engine and self-play alone."""
    run = (
        "from unomas.console import main\n"
        f"sys.argv = ['unomas', 'simulate', *{args!r}]\n"
        "try:\n    main()\nexcept SystemExit as done:\n    assert done.code == 0, done.code"
    )
    modules = loaded_after(run)
    assert "unomas.runs.simulation" in modules
    assert [m for m in modules if m.startswith(START_UP_FORBIDDEN)] == []
    assert [m for m in modules if m in START_UP_LATER] == []


def test_simulate_help_and_mistakes_go_through_typer() -> None:
    """What the quick start does not read plainly (help, a mistake) is the Typer app's."""
    run = (
        "from unomas.console import main\n"
        "sys.argv = ['unomas', 'simulate', '--help']\n"
        "try:\n    main()\nexcept SystemExit:\n    pass"
    )
    assert "typer" in loaded_after(run)


def test_the_console_script_freezes_what_the_imports_made() -> None:
    """The collector never scans the start-up's objects again: a run's collections and the
    one at exit skip them (some 30 M instructions of every command)."""
    run = (
        "import gc, importlib\n"
        "cli = importlib.import_module('unomas.cli.app')\n"
        "cli.app = lambda: print(gc.get_freeze_count())\n"
        "cli.main()"
    )
    frozen = subprocess.run([sys.executable, "-c", run], capture_output=True, text=True, check=True).stdout
    assert int(frozen) > 10_000


def test_the_commands_hints_are_objects_not_strings() -> None:
    """Typer reads every command's hints at start-up: a hint kept as a string (postponed
    annotations) would be compiled and evaluated then, some 5 ms on every command."""
    import importlib
    import inspect

    app_module = importlib.import_module("unomas.cli.app")
    strings = [
        f"{command.callback.__name__}({name})"
        for command in app_module.app.registered_commands
        if command.callback is not None
        for name, parameter in inspect.signature(command.callback).parameters.items()
        if isinstance(parameter.annotation, str)
    ]
    assert strings == []


@pytest.mark.parametrize("module", ENGINE)
def test_engine_module_imports_no_outer_layer(module: str) -> None:
    modules = loaded_after(f"import unomas.{module}")
    assert f"unomas.{module}" in modules
    outer = sorted(
        m for m in modules if m.split(".")[0] == "unomas" and len(m.split(".")) > 1 and m.split(".")[1] in OUTER
    )
    assert outer == []
    assert sorted(m for m in modules if m.split(".")[0] in HEAVY) == []


def imported_names(tree: ast.AST) -> set[str]:
    """Every module named by an import statement in ``tree`` (lazy imports included)."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module is not None and node.level == 0:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def type_checking_names(tree: ast.Module) -> set[str]:
    """The modules named only inside ``if TYPE_CHECKING:`` blocks: never imported at run time."""
    blocks = [node for node in tree.body if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING"]
    inside = set().union(*(imported_names(block) for block in blocks))
    outside = set().union(*(imported_names(node) for node in tree.body if node not in blocks))
    return inside - outside


@pytest.mark.parametrize("module", ENGINE)
def test_engine_source_imports_only_the_standard_library_and_the_core(module: str) -> None:
    """The stdlib and the core alone; the compiled build's native types (``mypy_extensions``)
    are named for type checking only, never imported at run time."""
    path = PACKAGE / f"{module}.py"
    assert path.is_file()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = type_checking_names(tree)
    for name in imported_names(tree):
        top = name.split(".")[0]
        if top == "mypy_extensions" and name in typing_only:
            continue
        if top == "unomas":
            parts = name.split(".")
            assert len(parts) < 2 or parts[1] not in OUTER, f"{module} imports {name}"
        else:
            assert top in sys.stdlib_module_names or top == "__future__", f"{module} imports {name}"


@pytest.mark.parametrize("module", ["unomas.cli.app", "unomas.tui.session", "unomas.tui.plain", "unomas.i18n"])
def test_textual_loads_only_with_the_game_screen(module: str) -> None:
    modules = loaded_after(f"import {module}")
    assert module in modules
    assert sorted(m for m in modules if m.split(".")[0] == "textual") == []
    assert "textual" in {m.split(".")[0] for m in loaded_after("import unomas.tui.app")}


FRONT_DOORS = ("cli", "tui", "server", "rl", "runs")
"""The packages that put matches in front of someone: they play through the conductor."""
SECRETS = ("hands", "drawn", "shown", "accused_guilty")
"""The game's attributes that hold what some seat may not know (the pile's order too, but its size is public)."""


def sources(*packages: str) -> list[Path]:
    return sorted(path for package in packages for path in (PACKAGE / package).rglob("*.py"))


def test_redaction_happens_in_the_conductor_only() -> None:
    users = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        named = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
        named |= {node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)}
        named |= {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
        if "redact" in named:
            users.append(path.relative_to(PACKAGE).as_posix())
    assert users == ["conductor.py", "events.py"]


@pytest.mark.parametrize("path", sources(*FRONT_DOORS), ids=lambda p: p.relative_to(PACKAGE).as_posix())
def test_no_front_door_reads_a_games_secrets(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in SECRETS:
            owner = node.value
            named = owner.id if isinstance(owner, ast.Name) else owner.attr if isinstance(owner, ast.Attribute) else ""
            assert "game" not in named.lower(), f"line {node.lineno} reads {named}.{node.attr}"


def unomas_imports(path: Path) -> set[str]:
    """The unomas modules ``path`` imports, by their dotted names below ``unomas``."""
    names = imported_names(ast.parse(path.read_text(encoding="utf-8")))
    return {name.removeprefix("unomas.") for name in names if name.startswith("unomas.")}


def test_the_conductor_imports_no_bot() -> None:
    """Bots are players of the conductor (:class:`~unomas.bots.player.BotPlayer`), not
    something it knows of: the compiled conductor stands below them."""
    imported = unomas_imports(PACKAGE / "conductor.py")
    assert sorted(name for name in imported if name.split(".")[0] == "bots") == []


CLIENT_MAY_IMPORT = (*ENGINE, "position", "client")
"""What the protocol library stands on: the engine's values, its errors and itself; no
screen, no words, no bot and no conductor."""


@pytest.mark.parametrize("path", sources("client"), ids=lambda p: p.relative_to(PACKAGE).as_posix())
def test_the_client_is_a_protocol_library_below_every_screen(path: Path) -> None:
    outside = sorted(name for name in unomas_imports(path) if name.split(".")[0] not in CLIENT_MAY_IMPORT)
    assert outside == []


@pytest.mark.parametrize("path", sources("server"), ids=lambda p: p.relative_to(PACKAGE).as_posix())
def test_the_server_imports_no_client(path: Path) -> None:
    """The server speaks the protocol the client library reads: neither stands on the other."""
    assert sorted(name for name in unomas_imports(path) if name.split(".")[0] == "client") == []


def test_only_the_game_and_the_conductor_set_whether_a_game_reports() -> None:
    """Quiet mode (``Game.reporting``) is the conductor's to decide: no other module assigns
    a ``reporting`` attribute or passes ``reporting=`` to a call."""
    setters = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                flat = [t for target in targets for t in ast.walk(target)]
                if any(isinstance(t, ast.Attribute) and t.attr == "reporting" for t in flat):
                    setters.append(path.relative_to(PACKAGE).as_posix())
            elif isinstance(node, ast.keyword) and node.arg == "reporting":
                setters.append(path.relative_to(PACKAGE).as_posix())
    assert sorted(set(setters)) == ["conductor.py", "game.py"]
