"""``unomas simulate`` and ``unomas replay``."""

from __future__ import annotations

import time
from contextlib import ExitStack
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from unomas import record
from unomas.errors import RecordError, SettingsError
from unomas.rules import PRESETS, Rules
from unomas.simulate import POLICIES, simulate

app = typer.Typer(
    help="UNO with every house rule: simulate matches, replay and check records.",
    no_args_is_help=True,
    add_completion=False,
)
out = Console(soft_wrap=True)
err = Console(stderr=True)


def rules_from_options(players: int | None, preset: str, settings: list[str]) -> Rules:
    """The rules of a preset, with ``--players`` and ``--set NAME=VALUE`` applied."""
    try:
        rules = Rules.preset(preset)
        if players is not None:
            rules = rules.replace(players=players)
        return rules.with_settings(settings)
    except SettingsError as error:
        raise typer.BadParameter(str(error)) from None


@app.command(name="simulate")
def simulate_command(
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="Matches to play.")] = 100,
    players: Annotated[Optional[int], typer.Option(help="Seats, 2 to 10 (default 4).")] = None,  # noqa: UP045
    rules_preset: Annotated[str, typer.Option("--rules", help=f"Preset: {' or '.join(PRESETS)}.")] = "official",
    settings: Annotated[
        Optional[list[str]],  # noqa: UP045
        typer.Option("--set", help="A setting of the rules, NAME=VALUE (repeatable)."),
    ] = None,
    seed: Annotated[Optional[str], typer.Option(help="Seed: the same seed gives the same records.")] = None,  # noqa: UP045
    policy: Annotated[str, typer.Option(help="playfirst (default) or uniform (every legal action).")] = "playfirst",
    records: Annotated[
        Optional[Path],  # noqa: UP045
        typer.Option(help="Write every match's record to this file, as JSON Lines.", dir_okay=False),
    ] = None,
) -> None:
    """Play matches between random players and report how fast the engine went."""
    rules = rules_from_options(players, rules_preset, settings or [])
    if policy not in POLICIES:
        raise typer.BadParameter(f"unknown policy {policy!r} (policies are {', '.join(POLICIES)})")
    totals = {"rounds": 0, "actions": 0, "abandoned": 0}
    wins = [0] * rules.players
    started = time.perf_counter()
    with ExitStack() as stack:
        sink = stack.enter_context(records.open("w", encoding="utf-8")) if records else None
        progress = stack.enter_context(
            Progress(
                TextColumn("simulating"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeRemainingColumn(),
                console=err,
                disable=not err.is_terminal,
            )
        )
        task = progress.add_task("matches", total=games)
        for result in simulate(rules, games, policy=policy, seed=seed, history=sink is not None):
            totals["rounds"] += result.rounds
            totals["actions"] += result.actions
            totals["abandoned"] += result.abandoned
            if result.game.winner >= 0:
                wins[result.game.winner] += 1
            if sink is not None:
                sink.write(record.dumps(record.to_json(result.game)) + "\n")
            progress.advance(task)
    elapsed = max(time.perf_counter() - started, 1e-9)
    table = Table(title="simulation", show_header=False)
    table.add_row("games", f"{games:,}")
    table.add_row("rounds", f"{totals['rounds']:,}")
    table.add_row("actions", f"{totals['actions']:,}")
    if totals["abandoned"]:
        table.add_row("abandoned (no end in sight)", f"{totals['abandoned']:,}")
    table.add_row("wins by seat", " ".join(str(w) for w in wins))
    table.add_row("seconds", f"{elapsed:.2f}")
    table.add_row("games/s", f"{games / elapsed:,.1f}")
    table.add_row("actions/s", f"{totals['actions'] / elapsed:,.0f}")
    out.print(table)


@app.command(name="replay")
def replay_command(
    files: Annotated[list[Path], typer.Argument(help="Record files: JSON, or JSON Lines of records.", exists=True)],
) -> None:
    """Replay and check records; exit non-zero if any is invalid."""
    bad = 0
    for path in files:
        for number, item in enumerate(record.iter_file(path)):
            name = f"{path}: record {number}"
            try:
                if isinstance(item, RecordError):
                    raise item
                game = record.replay(item)
            except RecordError as error:
                bad += 1
                out.print(f"[red]INVALID[/] {name}: {_where(error)}")
                continue
            winner = "none yet" if game.winner < 0 else f"seat {game.winner}"
            scores = " ".join(str(s) for s in game.scores)
            out.print(f"[green]valid[/] {name}: scores {scores}; winner {winner}")
    if bad:
        raise typer.Exit(code=1)


def _where(error: RecordError) -> str:
    """The location of a record error without the record number (already printed)."""
    parts = []
    if error.round is not None:
        parts.append(f"round {error.round}")
    if error.event is not None:
        parts.append(f"event {error.event}")
    return f"{', '.join(parts)}: {error.reason}" if parts else error.reason


def main() -> None:
    """Entry point of the ``unomas`` console script."""
    app()


if __name__ == "__main__":  # pragma: no cover
    main()
