"""The ``unomas`` console script, and the run of ``unomas simulate``.

``unomas simulate`` given only plain options (``--games 10000 --players 4 --set
target_score=0``, each option and its value as two words) starts without the command line's
library: :func:`quick` reads them with the names the command declares (:data:`SIMULATE`) and
plays the run with :func:`simulate`, the same function the Typer command calls. Importing
Typer and building its command tree would take longer than a thousand matches. Anything else
(another command, ``--help``, a value it cannot take at once, a setting the rules refuse)
goes to the Typer app (:mod:`unomas.cli.app`), which reads it and says what is wrong in the
reader's language.

>>> quick_options(["simulate", "--games", "3", "--set", "target_score=0", "--set", "players=2"])
{'settings': ['target_score=0', 'players=2'], 'games': 3}
>>> quick_options(["simulate", "--games", "0"]) is None  # Typer says why
True
"""

from __future__ import annotations

import gc
import sys
import time
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from pathlib import Path

    from unomas.rules import Rules
    from unomas.runs.backends import Backend

INTERRUPTED: Final = 130
"""The exit code after Ctrl-C."""

SIMULATE: Final = {
    "--games": "games",
    "-n": "games",
    "--players": "players",
    "--rules": "rules_preset",
    "--set": "settings",
    "--seed": "seed",
    "--policy": "policy",
    "--jobs": "jobs",
}
"""The options of ``unomas simulate`` that :func:`quick` reads, by the name of the Typer
command's parameter each sets (a test checks them against the command)."""

WHOLE: Final = {"games": 1, "players": 0, "jobs": 1}
"""The options that take a whole number, with the least :func:`quick` accepts itself."""


def main() -> None:
    """Entry point of the ``unomas`` console script: :func:`quick`, else the Typer app.

    What the imports made lives as long as the process: frozen, the garbage collector never
    scans it again (some 30 M instructions of every command, most at exit)."""
    gc.freeze()
    code = quick(sys.argv[1:])
    if code is None:
        from unomas.cli.app import main as typer_main

        typer_main()
    else:
        sys.exit(code)


def quick_options(args: Sequence[str]) -> dict[str, Any] | None:
    """The options of ``unomas simulate`` in ``args`` if all are plain (see the module), by
    parameter name; None if the Typer app must read them."""
    if not args or args[0] != "simulate" or len(args) % 2 == 0:
        return None
    options: dict[str, Any] = {"settings": []}
    for name, value in zip(args[1::2], args[2::2], strict=True):
        key = SIMULATE.get(name)
        if key is None or value.startswith("-") or (key in options and key != "settings"):
            return None
        if key in WHOLE:
            if not (value.isascii() and value.isdigit()) or int(value) < WHOLE[key]:
                return None
            options[key] = int(value)
        elif key == "settings":
            options[key].append(value)
        else:
            options[key] = value
    return options


def quick(args: Sequence[str]) -> int | None:
    """Run ``unomas simulate`` from plain options in ``args``: its exit code, or None (and
    nothing done) if the Typer app must read them."""
    options = quick_options(args)
    if options is None:
        return None
    from unomas.errors import SettingsError
    from unomas.runs.backends import Backend
    from unomas.runs.selfplay import check_policy

    policy = options.get("policy", "playfirst")
    try:
        preset = options.get("rules_preset", "official")
        rules = rules_from_settings(options.get("players"), preset, options["settings"])
        check_policy(policy)
        where = Backend("local", options.get("jobs"))
    except SettingsError:
        return None  # the Typer app refuses them in the reader's words
    return simulate(rules, options.get("games", 100), policy, options.get("seed"), None, where)


def rules_from_settings(players: int | None, preset: str, settings: list[str]) -> Rules:
    """The rules of a preset, with ``players`` and ``NAME=VALUE`` settings applied; a bad one
    raises :class:`~unomas.errors.SettingsError`."""
    from unomas.rules import Rules

    rules = Rules.preset(preset)
    if players is not None:
        rules = rules.replace(players=players)
    return rules.with_settings(settings)


def simulate(rules: Rules, games: int, policy: str, seed: str | None, records: Path | None, where: Backend) -> int:
    """Play the run of ``unomas simulate`` and print its figures; the exit code (0, or
    :data:`INTERRUPTED` after Ctrl-C, the figures then those of the matches played).
    Raises :class:`~unomas.runs.backends.BackendUnavailable` for a backend not usable here."""
    from unomas.runs.simulation import Totals, run_simulation

    totals = Totals(rules.players)
    interrupted = False
    started = time.perf_counter()
    with ExitStack() as stack:
        sink = stack.enter_context(records.open("w", encoding="utf-8")) if records else None
        advance = progress_bar(stack, "simulating", games)
        try:
            for result in run_simulation(
                rules, games, policy=policy, seed=seed, history=sink is not None, backend=where
            ):
                totals.add(result)
                if sink is not None and result.record is not None:
                    from unomas import record  # (loaded by a run that writes records)

                    sink.write(record.dumps(result.record) + "\n")
                advance(totals.games)
        except KeyboardInterrupt:
            interrupted = True
    elapsed = max(time.perf_counter() - started, 1e-9)
    rows = [("games", f"{totals.games:,}"), ("rounds", f"{totals.rounds:,}"), ("actions", f"{totals.actions:,}")]
    if totals.abandoned:
        rows.append(("abandoned (no end in sight)", f"{totals.abandoned:,}"))
    if totals.errors:
        rows.append(("not played (task failed)", f"{len(totals.errors):,}"))
    rows.append(("wins by seat", " ".join(str(w) for w in totals.wins)))
    if rules.team_count:  # house rule teams: a match won by a seat is won by its team
        teams = [(seat, *rules.partners(seat)) for seat in range(rules.team_count)]
        won = (f"{'+'.join(str(s) for s in team)}: {sum(totals.wins[s] for s in team)}" for team in teams)
        rows.append(("wins by team", "  ".join(won)))
    rows += [
        ("seconds", f"{elapsed:.2f}"),
        ("games/s", f"{totals.games / elapsed:,.1f}"),
        ("actions/s", f"{totals.actions / elapsed:,.0f}"),
    ]
    print(figures("simulation", rows), flush=True)
    for failure in totals.errors:
        print(f"error in match {failure.number}: {failure.error or ''}", flush=True)
    if interrupted:
        print(f"interrupted after {totals.games} of {games} matches; the figures are theirs", file=sys.stderr)
        return INTERRUPTED
    return 0


def figures(title: str, rows: list[tuple[str, str]]) -> str:
    """Named figures under a title, as aligned plain lines (for a person and for a script)."""
    width = max(len(name) for name, _ in rows)
    return "\n".join([title, *(f"  {name.ljust(width)}  {value}" for name, value in rows)])


def progress_bar(stack: ExitStack, label: str, total: int) -> Callable[[int], None]:
    """A progress bar of ``total`` matches on a terminal's standard error, open until
    ``stack`` closes; it is set to the matches done so far. Elsewhere nothing is shown
    (nor imported)."""
    if not sys.stderr.isatty():
        return lambda done: None
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    columns = (TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    progress = stack.enter_context(Progress(*columns, console=Console(stderr=True)))
    task = progress.add_task("matches", total=total)
    return lambda done: progress.update(task, completed=done)
