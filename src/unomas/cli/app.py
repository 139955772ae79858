"""``unomas simulate``, ``unomas tournament`` and ``unomas replay``."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer
from rich import box
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text
from typer._click.exceptions import ClickException, UsageError
from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption

from unomas import __version__, record
from unomas.errors import RecordError, SettingsError
from unomas.rules import PRESETS, Rules
from unomas.runs.backends import BACKENDS, Backend, BackendUnavailable
from unomas.runs.plot import PLOT_INSTALL, plot, plot_available
from unomas.runs.selfplay import POLICIES, check_policy
from unomas.runs.simulation import Totals, run_simulation

if TYPE_CHECKING:  # loaded by the tournament command alone: start-up imports what the command needs
    from unomas.runs.tournament import TournamentResult


class Command(TyperCommand):
    """A command whose help names values by their metavar, never by a Python type: a flag
    shows none (not ``<bool>``), an argument its metavar (``FILE...``, not ``{files}...``)."""

    def get_params(self, ctx: Any) -> list[Any]:
        params: list[Any] = super().get_params(ctx)
        for param in params:
            if isinstance(param, TyperOption) and param.type_descriptor.annotation is bool:
                param.metavar = ""
            elif isinstance(param, TyperArgument) and param.metavar is not None:
                shown = param.metavar + ("..." if param.nargs != 1 else "")
                param.display_type_rich = lambda ctx: None  # type: ignore[method-assign]
                param.get_usage_pieces = lambda ctx, shown=shown: [shown]  # type: ignore[method-assign,misc]
        return params


class Group(TyperGroup):
    """The ``unomas`` command: a mistake on the command line is one line on standard error
    (and exit status 2), not a box of usage text."""

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        windows_expand_args: bool = True,
        **extra: Any,
    ) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, windows_expand_args, **extra)
        try:
            result = super().main(args, prog_name, complete_var, False, windows_expand_args, **extra)
        except ClickException as error:
            hint = f" ({error.ctx.command_path} --help)" if isinstance(error, UsageError) and error.ctx else ""
            typer.echo(f"{error.format_message()}{hint}", err=True)
            sys.exit(error.exit_code)
        except typer.Abort:
            sys.exit(INTERRUPTED)
        sys.exit(result if isinstance(result, int) else 0)


app = typer.Typer(
    help="UNO with every house rule: simulate matches, run tournaments between bots, replay and check records.",
    no_args_is_help=True,
    add_completion=False,
    cls=Group,
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


BackendOption = Annotated[
    str, typer.Option("--backend", help=f"Where to play: {' or '.join(BACKENDS)} (a Ray cluster, unomas[ray]).")
]
AddressOption = Annotated[
    Optional[str],  # noqa: UP045
    typer.Option(help="The Ray cluster to join (--backend ray); without it a local Ray instance is started."),
]
JobsOption = Annotated[
    Optional[int],  # noqa: UP045
    typer.Option("--jobs", "-j", min=1, help="Worker processes (default 1), or a local Ray instance's CPUs (all)."),
]
INTERRUPTED = 130
"""The exit code after Ctrl-C."""


def backend_from_options(name: str, jobs: int | None, address: str | None) -> Backend:
    """The backend of ``--backend``, ``--jobs`` and ``--address``."""
    try:
        return Backend(name, jobs, address)
    except SettingsError as error:
        raise typer.BadParameter(str(error), param_hint="--backend") from None


@app.command(name="simulate", cls=Command)
def simulate_command(
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="Matches to play.")] = 100,
    players: Annotated[Optional[int], typer.Option(help="Seats, 2 to 10 (default 4).")] = None,  # noqa: UP045
    rules_preset: Annotated[str, typer.Option("--rules", help=f"Preset: {' or '.join(PRESETS)}.")] = "official",
    settings: Annotated[
        Optional[list[str]],  # noqa: UP045
        typer.Option("--set", metavar="NAME=VALUE", help="A setting of the rules (repeatable)."),
    ] = None,
    seed: Annotated[Optional[str], typer.Option(help="Seed: the same seed gives the same records.")] = None,  # noqa: UP045
    policy: Annotated[
        str, typer.Option(help=f"The bot every seat plays: {' or '.join(POLICIES)} (default playfirst).")
    ] = "playfirst",
    records: Annotated[
        Optional[Path],  # noqa: UP045
        typer.Option(help="Write every match's record to this file, as JSON Lines.", dir_okay=False),
    ] = None,
    backend: BackendOption = "local",
    address: AddressOption = None,
    jobs: JobsOption = None,
) -> None:
    """Play matches between baseline bots (self-play) and report how fast the engine went."""
    rules = rules_from_options(players, rules_preset, settings or [])
    try:
        check_policy(policy)
    except SettingsError as error:
        raise typer.BadParameter(str(error), param_hint="--policy") from None
    where = backend_from_options(backend, jobs, address)
    totals = Totals(rules.players)
    interrupted = False
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
        try:
            for result in run_simulation(
                rules, games, policy=policy, seed=seed, history=sink is not None, backend=where
            ):
                totals.add(result)
                if sink is not None and result.record is not None:
                    sink.write(record.dumps(result.record) + "\n")
                progress.advance(task)
        except BackendUnavailable as error:
            raise typer.BadParameter(str(error), param_hint="--backend") from None
        except KeyboardInterrupt:
            interrupted = True
    elapsed = max(time.perf_counter() - started, 1e-9)
    table = Table(title="simulation", show_header=False)
    table.add_row("games", f"{totals.games:,}")
    table.add_row("rounds", f"{totals.rounds:,}")
    table.add_row("actions", f"{totals.actions:,}")
    if totals.abandoned:
        table.add_row("abandoned (no end in sight)", f"{totals.abandoned:,}")
    if totals.errors:
        table.add_row("not played (task failed)", f"{len(totals.errors):,}")
    table.add_row("wins by seat", " ".join(str(w) for w in totals.wins))
    table.add_row("seconds", f"{elapsed:.2f}")
    table.add_row("games/s", f"{totals.games / elapsed:,.1f}")
    table.add_row("actions/s", f"{totals.actions / elapsed:,.0f}")
    out.print(table)
    for failure in totals.errors:
        out.print(f"[red]error[/] in match {failure.number}: {escape(failure.error or '')}")
    if interrupted:
        err.print(f"[red]interrupted[/] after {totals.games} of {games} matches; the figures are theirs")
        raise typer.Exit(code=INTERRUPTED)


@app.command(name="tournament", cls=Command)
def tournament_command(
    bots: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option(
            help="Bot specs, comma separated, one per seat (random, playfirst, heuristic, ismcts:iterations=200, ...)."
        ),
    ] = None,
    bot: Annotated[
        Optional[list[str]],  # noqa: UP045
        typer.Option(
            "--bot",
            metavar="SPEC",
            help="One bot spec (repeatable), after those of --bots; a cmd: command may hold commas.",
            show_default=False,
        ),
    ] = None,
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="Matches to play.")] = 100,
    rules_preset: Annotated[str, typer.Option("--rules", help=f"Preset: {' or '.join(PRESETS)}.")] = "official",
    players: Annotated[
        Optional[int],  # noqa: UP045
        typer.Option(help="Seats (default: one per bot); with more seats than bots, the bots repeat in order."),
    ] = None,
    settings: Annotated[
        Optional[list[str]],  # noqa: UP045
        typer.Option("--set", metavar="NAME=VALUE", help="A setting of the rules (repeatable)."),
    ] = None,
    jobs: JobsOption = None,
    backend: BackendOption = "local",
    address: AddressOption = None,
    seed: Annotated[Optional[str], typer.Option(help="Seed: the same seed gives the same results.")] = None,  # noqa: UP045
    records: Annotated[
        Optional[Path],  # noqa: UP045
        typer.Option(help="Write every match's record to this file, as JSON Lines.", dir_okay=False),
    ] = None,
    results: Annotated[
        Optional[Path],  # noqa: UP045
        typer.Option("--out", help="Write the results (settings, per-bot figures) to this JSON file.", dir_okay=False),
    ] = None,
    chart: Annotated[
        Optional[Path],  # noqa: UP045
        typer.Option(
            "--plot", help=f"Draw the win rates to this image (needs {escape(PLOT_INSTALL)}).", dir_okay=False
        ),
    ] = None,
    allow_errors: Annotated[
        bool,
        typer.Option("--allow-errors", help="Exit with 0 even when a match was stopped by an error."),
    ] = False,
) -> None:
    """Play matches between bots, seats rotated, and report win rates and ratings.

    Exits with 1 when a match was stopped by an error (after printing and writing the
    results), unless --allow-errors is given.
    """
    from unomas.runs.tournament import TournamentInterrupted, run_tournament

    specs = [spec.strip() for spec in (bots or "").split(",") if spec.strip()]
    specs += [spec.strip() for spec in bot or [] if spec.strip()]
    if not specs:
        raise typer.BadParameter("give at least one bot", param_hint="--bots or --bot")
    rules = rules_from_options(players if players is not None else len(specs), rules_preset, settings or [])
    if rules.players < len(specs):
        raise typer.BadParameter(f"{len(specs)} bots need {len(specs)} seats or more, not {rules.players}")
    if chart is not None and not plot_available():
        err.print(f"[red]error:[/] --plot needs matplotlib, which is not installed: {escape(PLOT_INSTALL)}")
        raise typer.Exit(code=2)
    where = backend_from_options(backend, jobs, address)
    interrupted = False
    started = time.perf_counter()
    with Progress(
        TextColumn("playing"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=err,
        disable=not err.is_terminal,
    ) as progress:
        task = progress.add_task("matches", total=games)
        try:
            result = run_tournament(
                rules,
                specs,
                games,
                seed=seed,
                jobs=where.jobs,
                backend=where.name,
                address=where.address,
                records=records,
                progress=lambda done, _total: progress.update(task, completed=done),
            )
        except BackendUnavailable as error:
            raise typer.BadParameter(str(error), param_hint="--backend") from None
        except SettingsError as error:
            raise typer.BadParameter(str(error), param_hint="--bots") from None
        except TournamentInterrupted as stop:
            result, interrupted = stop.result, True
    elapsed = time.perf_counter() - started
    out.print(_tournament_table(result, elapsed))
    for failure in result.errors:
        out.print(f"[red]error[/] in match {failure.match}: {escape(failure.bot or 'a bot')}: {escape(failure.reason)}")
    if results is not None:
        results.write_text(json.dumps(result.to_json(), indent=2) + "\n", encoding="utf-8")
    if chart is not None:
        plot(result, chart)
    if interrupted:
        kept = "" if results is None else f"; results so far written to {escape(str(results))}"
        err.print(f"[red]interrupted[/] after {len(result.matches)} of {games} matches{kept}")
        raise typer.Exit(code=INTERRUPTED)
    if result.errors and not allow_errors:
        raise typer.Exit(code=1)


def _tournament_table(result: TournamentResult, elapsed: float) -> Table:
    """The per-bot figures of a tournament, best rated first.

    Every entrant plays every counted match and round (a forfeit counts for all), so the
    title gives those counts once and the rows give wins only: the table fits 80 columns.
    """
    seed = "" if result.seed is None else f", seed {result.seed}"
    rounds = result.bots[0].rounds if result.bots else 0
    table = Table(
        title=escape(
            f"tournament: {len(result.matches):,} matches, {rounds:,} rounds, {result.rules.players} seats{seed}"
        ),
        box=box.SIMPLE_HEAD,
        pad_edge=False,
        padding=(0, 0),
    )
    headings = [
        "bot",
        "match\nwins",
        "match\nwin %\n95 % CI",
        "round\nwins",
        "round\nwin %\n95 % CI",
        "pts/\nround\nwon",
        "pts/\nround",
        "ms/\nanswer",
        "rating",
    ]
    if result.errors:
        headings.append("errors")
    # The figures never wrap: a narrow terminal shortens the names instead (_bot_cell).
    table.add_column(headings[0], justify="left", min_width=8, max_width=30)
    for heading in headings[1:]:
        table.add_column(heading, justify="right", no_wrap=True)
    for bot in sorted(result.bots, key=lambda b: -b.rating):
        row: list[Text | str] = [
            _bot_cell(bot.name, bot.given_name),
            f"{bot.match_wins:,}",
            _rate(bot.match_win_rate, bot.match_win_interval),
            f"{bot.round_wins:,}",
            _rate(bot.round_win_rate, bot.round_win_interval),
            _figure(bot.points_per_round_won),
            _figure(bot.points_per_round),
            _figure(None if bot.seconds_per_decision is None else 1000 * bot.seconds_per_decision, 3),
            f"{bot.rating:.1f}",
        ]
        if result.errors:
            row.append(str(bot.errors))
        table.add_row(*row)
    notes = [f"{elapsed:.1f} s"]
    if result.abandoned:
        notes.append(f"{result.abandoned} abandoned (no end in sight)")
    if result.errors:
        notes.append(f"{len(result.errors)} stopped by a bot error")
    notes.append("pts: points scored; answer: any decision asked of a bot")
    notes.append("rating: openskill Plackett-Luce mu - 3 sigma")
    table.caption = "\n".join(notes)
    return table


def _bot_cell(name: str, given: str | None) -> Text:
    """An entrant's name (under the name its bot gave itself, if any), each line cut short
    with an ellipsis rather than wrapped."""
    return Text(name if given is None else f"{given}\n{name}", no_wrap=True, overflow="ellipsis")


def _rate(rate: float, bounds: tuple[float, float]) -> str:
    return f"{100 * rate:.1f}\n{100 * bounds[0]:.1f}–{100 * bounds[1]:.1f}"


def _figure(value: float | None, digits: int = 1) -> str:
    return "–" if value is None else f"{value:,.{digits}f}"


@app.command(name="play", cls=Command)
def play_command(
    players: Annotated[
        Optional[int],  # noqa: UP045
        typer.Option(metavar="N", help="Seats, 2 to 10 (skips the setup screen)."),
    ] = None,
    bots: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option(metavar="BOTS", help="Bot specs for the other seats, comma separated; the last one repeats."),
    ] = None,
    rules_preset: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option(
            "--rules",
            metavar="PRESET",
            help=f"Preset the flags start from: {' or '.join(PRESETS)} (default {PRESETS[0]}).",
        ),
    ] = None,
    settings: Annotated[
        Optional[list[str]],  # noqa: UP045
        typer.Option("--set", metavar="NAME=VALUE", help="A setting of the rules (repeatable)."),
    ] = None,
    lang: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option(metavar="LANG", help="es or en (default: from the locale)."),
    ] = None,
    plain: Annotated[bool, typer.Option("--plain", help="Line mode, for screen readers and pipes.")] = False,
    resume: Annotated[bool, typer.Option("--resume", help="Continue the last unfinished match.")] = False,
    pace: Annotated[float, typer.Option(metavar="SECONDS", help="Seconds between bot actions.")] = 0.8,
    window: Annotated[
        float, typer.Option(metavar="SECONDS", help="Seconds an out-of-turn chance stays open for you.")
    ] = 2.5,
    name: Annotated[Optional[str], typer.Option(metavar="NAME", help="Your name at the table.")] = None,  # noqa: UP045
    seed: Annotated[Optional[str], typer.Option(metavar="SEED", help="Seed of the shuffles and the bots.")] = None,  # noqa: UP045
) -> None:
    """Play a match against bots in the terminal (the record is saved as you play)."""
    from unomas.cli.play import play

    play(
        players=players,
        bots=bots,
        preset=rules_preset,
        settings=settings,
        lang=lang,
        plain=plain,
        resume_last=resume,
        pace=pace,
        window=window,
        name=name,
        seed=seed,
    )


@app.command(name="replay", cls=Command)
def replay_command(
    files: Annotated[list[Path], typer.Argument(metavar="FILE", help="Record files: JSON, or JSON Lines of records.")],
    verify: Annotated[
        bool, typer.Option("--verify", help="Also check the revealed seed: its commitment and every deal.")
    ] = False,
    watch: Annotated[bool, typer.Option("--watch", help="Step through the (first) record on the game screen.")] = False,
    lang: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option(metavar="LANG", help="es or en, for --watch (default: from the locale)."),
    ] = None,
) -> None:
    """Replay and check records; exit non-zero if any is invalid (or is no record at all)."""
    from unomas.cli.play import fail, unreadable, watch_record

    if watch:
        watch_record(files[0], lang)
        return
    from unomas import fairness

    problems = [problem for problem in map(unreadable, files) if problem is not None]
    for problem in problems[:-1]:
        typer.echo(problem, err=True)
    if problems:
        raise fail(problems[-1])
    bad = 0
    for path in files:
        for number, item in enumerate(record.iter_file(path)):
            name = f"{path}: record {number}"
            try:
                if isinstance(item, RecordError):
                    raise item
                game = fairness.verify(item) if verify else record.replay(item)
            except RecordError as error:
                bad += 1
                out.print(f"[red]INVALID[/] {name}: {_where(error)}")
                continue
            winner = "none yet" if game.winner < 0 else f"seat {game.winner}"
            scores = " ".join(str(s) for s in game.scores)
            dealt = "; every deal and reshuffle comes from the committed seed" if verify else ""
            out.print(f"[green]valid[/] {name}: scores {scores}; winner {winner}{dealt}")
    if bad:
        raise typer.Exit(code=1)


@app.command(name="serve", cls=Command)
def serve_command(
    host: Annotated[str, typer.Option(help="Address to listen on (0.0.0.0: every interface).")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help="Port to listen on.")] = 8000,
    db: Annotated[
        Optional[Path],  # noqa: UP045
        typer.Option(help="SQLite database (default: unomas.sqlite3 in the user data folder).", dir_okay=False),
    ] = None,
    grace: Annotated[float, typer.Option(min=0, help="Seconds away before a bot plays for a player.")] = 30.0,
    bot_delay: Annotated[float, typer.Option(min=0, help="Seconds a bot waits before it acts.")] = 0.8,
    trust_proxy: Annotated[
        list[str], typer.Option(help="A reverse proxy's address whose X-Forwarded-For names the client (repeatable).")
    ] = [],  # noqa: B006
    allow_origin: Annotated[
        list[str], typer.Option(help="Another origin whose pages may use this server, e.g. https://example.org.")
    ] = [],  # noqa: B006
    keep_lobby: Annotated[float, typer.Option(min=1, help="Seconds an empty lobby is kept.")] = 600.0,
    certfile: Annotated[
        Optional[Path],  # noqa: UP045
        typer.Option(help="TLS certificate (PEM): serve https and wss.", exists=True, dir_okay=False),
    ] = None,
    keyfile: Annotated[
        Optional[Path],  # noqa: UP045
        typer.Option(help="TLS private key (PEM) of --certfile.", exists=True, dir_okay=False),
    ] = None,
) -> None:
    """Serve the browser game: rooms with friends and bots, every game kept in the database.

    Plain HTTP is for this machine or a reverse proxy that adds TLS (see the README); to
    listen on a public address give --certfile and --keyfile."""
    try:
        import uvicorn  # noqa: F401 - serve() runs on it

        from unomas.server import Settings, default_db_path, serve
    except ImportError as error:
        typer.echo(f"the server needs its extra: pip install 'unomas[server]' ({error})", err=True)
        raise typer.Exit(code=1) from None
    path = db or default_db_path()
    scheme = "https" if certfile is not None else "http"
    err.print(f"unomas server on {scheme}://{host}:{port}/  (games kept in {path})")
    if certfile is None and host not in ("127.0.0.1", "localhost", "::1"):
        err.print("[yellow]warning:[/] plain HTTP on a public address: put it behind a TLS proxy or give --certfile")
    settings = Settings(
        grace=grace,
        bot_delay=bot_delay,
        keep_empty_lobby=keep_lobby,
        trusted_proxies=frozenset(trust_proxy),
        allowed_origins=frozenset(allow_origin),
    )
    serve(host, port, path, settings, certfile=certfile, keyfile=keyfile)


def _where(error: RecordError) -> str:
    """The location of a record error without the record number (already printed)."""
    parts = []
    if error.round is not None:
        parts.append(f"round {error.round}")
    if error.event is not None:
        parts.append(f"event {error.event}")
    return f"{', '.join(parts)}: {error.reason}" if parts else error.reason


def _version(asked: bool) -> None:
    if asked:
        typer.echo(f"unomas {__version__}")
        raise typer.Exit()


@app.callback()
def _options(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Print the version and exit.")
    ] = False,
) -> None:
    """The options before any command (``--version``)."""


def main() -> None:
    """Entry point of the ``unomas`` console script."""
    app()


if __name__ == "__main__":  # pragma: no cover
    main()
