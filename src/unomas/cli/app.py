"""``unomas simulate``, ``unomas tournament`` and ``unomas replay``."""

# No ``from __future__ import annotations``: Typer reads every command's hints at start-up,
# and hints kept as strings would each be compiled and evaluated then (some 13 ms).

import gc
import json
import sys
import time
from collections.abc import Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer
from typer._click.exceptions import (
    BadOptionUsage,
    BadParameter,
    ClickException,
    MissingParameter,
    NoArgsIsHelpError,
    NoSuchOption,
    UsageError,
)
from typer._click.types import BoolParamType, FloatParamType, IntParamType, ParamType
from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption

from unomas import __version__, record
from unomas.cli import seats, training
from unomas.cli.lines import LangOption
from unomas.console import INTERRUPTED, progress_bar, rules_from_settings, simulate
from unomas.errors import RecordError, SettingsError
from unomas.rules import PRESETS, Rules
from unomas.runs.backends import BACKENDS, Backend, BackendUnavailable
from unomas.runs.plot import PLOT_INSTALL, plot, plot_available
from unomas.runs.selfplay import POLICIES, check_policy

if TYPE_CHECKING:  # loaded by the commands that print with them: start-up imports what the command needs
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    from unomas.game import Game
    from unomas.i18n import Translations
    from unomas.runs.tournament import TournamentResult


def _by_metavar(params: list[Any]) -> list[Any]:
    """``params`` named in the help by their metavars, never by a type: a flag shows none
    (not ``BOOLEAN``), an option its metavar or its name (``--backend BACKEND``, not
    ``TEXT``), an argument its metavar (``FILE...``)."""
    for param in params:
        if isinstance(param, TyperOption):
            if param.is_flag or isinstance(param.type, BoolParamType):
                param.metavar = ""
            elif param.metavar is None:
                param.metavar = (param.name or "value").upper()
        elif isinstance(param, TyperArgument) and param.metavar is not None and not isinstance(param.type, Unnamed):
            shown = param.metavar + ("..." if param.nargs != 1 else "")
            param.get_usage_pieces = lambda ctx, shown=shown: [shown]  # type: ignore[method-assign,misc]
            param.type = Unnamed(param.type)
    return params


def _numbers_in_words(params: list[Any]) -> list[Any]:
    """``params`` whose numbers refuse a value by saying what was given and what was
    wanted (:class:`Number`); their limits are in the help's words."""
    for param in params:
        if isinstance(param.type, IntParamType | FloatParamType):
            param.type = Number(param.type)
    return params


class Unnamed(ParamType):
    """An argument's type that the help does not name: its metavar says what it takes."""

    def __init__(self, base: ParamType) -> None:
        self.base = base
        self.name = base.name

    def convert(self, value: Any, param: Any, ctx: Any) -> Any:
        return self.base.convert(value, param, ctx)

    def get_metavar(self, param: Any, ctx: Any) -> str:
        return ""

    def shell_complete(self, ctx: Any, param: Any, incomplete: str) -> Any:
        return self.base.shell_complete(ctx, param, incomplete)


class BadNumber(BadParameter):
    """A value a number option could not take: ``value`` as given, and why (``problem``:
    ``whole``, ``number``, ``low`` or ``high``, with the ``limit`` it broke)."""

    def __init__(self, value: str, problem: str, limit: float | None, param: Any, ctx: Any) -> None:
        super().__init__(f"{value!r}: {problem} {limit}", ctx=ctx, param=param)
        self.value, self.problem, self.limit = value, problem, limit


class Number(ParamType):
    """A number option's type (an integer or float, maybe in a range) whose refusals are
    :class:`BadNumber`, so their words come from the catalogs and not from click's text."""

    def __init__(self, base: IntParamType | FloatParamType) -> None:
        self.base = base
        self.name = base.name

    def convert(self, value: Any, param: Any, ctx: Any) -> Any:
        try:
            return self.base.convert(value, param, ctx)
        except BadParameter:
            whole = isinstance(self.base, IntParamType)
            try:
                number = int(value) if whole else float(value)
            except (TypeError, ValueError):
                raise BadNumber(str(value), "whole" if whole else "number", None, param, ctx) from None
            low, high = getattr(self.base, "min", None), getattr(self.base, "max", None)
            if low is not None and number < low:
                raise BadNumber(str(value), "low", low, param, ctx) from None
            if high is not None and number > high:
                raise BadNumber(str(value), "high", high, param, ctx) from None
            raise


class Refused(UsageError):
    """A mistake on the command line, already said in one line in the reader's language."""


def _words(args: Sequence[str] = ()) -> "Translations":
    """The catalog of the reader's language, for the command line's errors: the locale's,
    or the one a ``--lang`` among ``args`` names."""
    from itertools import pairwise

    from unomas.i18n import LANGUAGES, default_language, translator

    given = [value for flag, value in pairwise(args) if flag == "--lang"]
    given += [arg.removeprefix("--lang=") for arg in args if arg.startswith("--lang=")]
    return translator(next((lang for lang in given if lang in LANGUAGES), default_language()))


class Command(TyperCommand):
    """A command whose help names values by their metavars (:func:`_by_metavar`), whose
    numbers are refused in words (:func:`_numbers_in_words`) and which refuses extra
    arguments in the reader's words."""

    def get_params(self, ctx: Any) -> list[Any]:
        return _numbers_in_words(_by_metavar(super().get_params(ctx)))

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        allowed, ctx.allow_extra_args = ctx.allow_extra_args, True
        rest: list[str] = super().parse_args(ctx, args)
        ctx.allow_extra_args = allowed
        if rest and not allowed:
            words = _words().gettext("{command} takes no arguments (given: {values}).")
            raise Refused(words.format(command=ctx.command_path, values=" ".join(rest)), ctx)
        return rest


class Group(TyperGroup):
    """The ``unomas`` command: a mistake on the command line is one line on standard error
    in the reader's language (and exit status 2), not a box of usage text."""

    def get_params(self, ctx: Any) -> list[Any]:
        return _numbers_in_words(_by_metavar(super().get_params(ctx)))

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        if args and not args[0].startswith("-") and self.get_command(ctx, args[0]) is None:
            words = _words().gettext("There is no command {name} (the commands are {known}).")
            raise Refused(words.format(name=args[0], known=", ".join(self.list_commands(ctx))), ctx)
        return super().resolve_command(ctx, args)

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
            line = usage_line(error, _words(sys.argv[1:] if args is None else list(args)))
            if line:  # the help of "unomas" alone has been shown already
                typer.echo(line, err=True)
            sys.exit(error.exit_code)
        except typer.Abort:
            sys.exit(INTERRUPTED)
        sys.exit(result if isinstance(result, int) else 0)


def usage_line(error: ClickException, t: "Translations") -> str:
    """A mistake on the command line as one line in ``t``'s language; a mistake the parser
    found ends with where the command's help is (``(unomas simulate --help)``)."""
    if isinstance(error, Refused | NoArgsIsHelpError):  # already words; or the help itself
        return error.format_message().rstrip("\n")
    ctx = getattr(error, "ctx", None)
    line = _parser_words(error, t)
    return line if ctx is None else f"{line} ({ctx.command_path} --help)"


def _parser_words(error: ClickException, t: "Translations") -> str:
    """The words of a mistake the command-line parser found (an option that does not
    exist, a missing or badly typed value), by its kind and its parameter."""
    if isinstance(error, NoSuchOption):
        if error.possibilities:
            words = t.gettext("There is no option {option}; did you mean {options}?")
            return words.format(option=error.option_name, options=", ".join(sorted(error.possibilities)))
        return t.gettext("There is no option {option}.").format(option=error.option_name)
    if isinstance(error, BadOptionUsage):
        option = _option(error.ctx, error.option_name)
        if option is not None and option.is_flag:
            return t.gettext("{option} takes no value.").format(option=error.option_name)
        return t.gettext("{option} needs a value.").format(option=error.option_name)
    if isinstance(error, MissingParameter) and error.param is not None:
        return t.gettext("{name} is missing.").format(name=_param_name(error.param))
    if isinstance(error, BadParameter):
        name = _param_name(error.param) if error.param is not None else str(error.param_hint or "")
        if isinstance(error, BadNumber):
            given = {"option": name, "value": error.value, "limit": error.limit}
            if error.problem == "whole":
                return t.gettext("{option} takes a whole number, not {value}.").format(**given)
            if error.problem == "number":
                return t.gettext("{option} takes a number, not {value}.").format(**given)
            if error.problem == "low":
                return t.gettext("{option} must be {limit} or more, not {value}.").format(**given)
            return t.gettext("{option} must be {limit} or less, not {value}.").format(**given)
        return t.gettext("{option}: {reason}").format(option=name, reason=error.message)
    return error.format_message()


def _option(ctx: Any, name: str) -> Any:
    """The option of ``ctx``'s command that ``name`` (``--games``) names, or None."""
    params = [] if ctx is None else ctx.command.get_params(ctx)
    return next((p for p in params if isinstance(p, TyperOption) and name in p.opts), None)


def _param_name(param: Any) -> str:
    """A parameter as the command line writes it: ``--games`` for an option, ``FILE`` for an argument."""
    if isinstance(param, TyperOption):
        return str(param.opts[0])
    return str(param.metavar or param.name or "").upper()


def _refused(error: SettingsError, option: str | None = None, lang: str | None = None) -> Refused:
    """A bad setting of a command as one line in the reader's words (``lang``'s, else the
    locale's; by its code, see :func:`unomas.i18n.wording.error_line`), after the option
    it came from."""
    from unomas.i18n.wording import error_line

    t = _words(["--lang", lang] if lang else [])
    line = error_line(error, t)
    return Refused(line if option is None else t.gettext("{option}: {reason}").format(option=option, reason=line))


app = typer.Typer(
    help="UNO with every house rule: simulate matches, run tournaments between bots, replay and check records.",
    no_args_is_help=True,
    add_completion=False,
    cls=Group,
)


def _console(stderr: bool) -> "Console":
    """Rich's console on standard output or error, made (and Rich imported) when a command
    prints with it, under the terminal's settings then: ``simulate`` loads no Rich."""
    from rich.console import Console

    return Console(stderr=True) if stderr else Console(soft_wrap=True)


def _out() -> "Console":
    return _console(False)


def _err() -> "Console":
    return _console(True)


def _markup_literal(text: str) -> str:
    """``text`` shown as it is in a help text, which Typer reads as Rich markup (what
    ``rich.markup.escape`` makes of a bracketed name, without importing Rich to start)."""
    return text.replace("[", "\\[")


def rules_from_options(players: int | None, preset: str, settings: list[str], lang: str | None = None) -> Rules:
    """The rules of a preset, with ``--players`` and ``--set NAME=VALUE`` applied (a bad
    one refused in ``lang``, else the locale's language)."""
    try:
        return rules_from_settings(players, preset, settings)
    except SettingsError as error:
        raise _refused(error, lang=lang) from None


RAY_EXTRA = "unomas[ray]"
"""The extra the ray backend needs."""

BackendOption = Annotated[
    str,
    typer.Option(
        "--backend",
        metavar="NAME",
        help=f"Where to play: {' or '.join(BACKENDS)} (a Ray cluster, {_markup_literal(RAY_EXTRA)}).",
    ),
]
AddressOption = Annotated[
    Optional[str],  # noqa: UP045
    typer.Option(
        metavar="ADDR", help="The Ray cluster to join (--backend ray); without it a local Ray instance is started."
    ),
]
JobsOption = Annotated[
    Optional[int],  # noqa: UP045
    typer.Option(
        "--jobs",
        "-j",
        min=1,
        metavar="J",
        help="Worker processes, 1 or more (default 1), or a local Ray instance's CPUs (all).",
    ),
]


def backend_from_options(name: str, jobs: int | None, address: str | None) -> Backend:
    """The backend of ``--backend``, ``--jobs`` and ``--address``; a bad combination is
    refused in the reader's words."""
    t = _words()
    if name not in BACKENDS:
        words = t.gettext("--backend: there is no backend {name} (the backends are {known}).")
        raise Refused(words.format(name=name, known=", ".join(BACKENDS)))
    if address is not None and name != "ray":
        raise Refused(t.gettext("--address is for --backend ray."))
    if address is not None and jobs is not None:
        raise Refused(t.gettext("--jobs is for this machine: a Ray cluster's workers are its CPUs (give no --jobs)."))
    return Backend(name, jobs, address)


def _unavailable(error: BackendUnavailable) -> Refused:
    """A backend that cannot be used here, in the reader's words: Ray not installed, or no
    cluster at the address (the reason as the network gave it)."""
    import importlib.util

    t = _words()
    if importlib.util.find_spec("ray") is None:
        return Refused(
            t.gettext("--backend ray needs Ray, which is not installed: {install}").format(
                install=f"pip install '{RAY_EXTRA}'"
            )
        )
    from unomas.i18n.wording import error_line

    return Refused(t.gettext("--address: {reason}").format(reason=error_line(error, t)))


def _check_specs(specs: Sequence[str], option: str) -> None:
    """Refuse, in the reader's words, a bot spec that names no bot, or a bot's option it
    does not have or a value of the wrong kind; a ``cmd:`` program is tried only when the
    match starts."""
    from unomas.bots import bot_names, make_bot

    t = _words()
    for spec in specs:
        if spec.startswith("cmd:"):
            continue
        try:
            make_bot(spec).close()
        except SettingsError:
            name = spec.split(":")[0]
            if name not in bot_names():
                words = t.gettext("{option}: {spec} is not a bot (the bots are {known}, or cmd:COMMAND for a program).")
                raise Refused(words.format(option=option, spec=repr(spec), known=", ".join(bot_names()))) from None
            known = _options_of(name)
            if known:
                words = t.gettext("{option}: {spec}: the options of {bot} are {known}.")
            else:
                words = t.gettext("{option}: {spec}: {bot} takes no options.")
            raise Refused(words.format(option=option, spec=repr(spec), bot=name, known=", ".join(known))) from None


def _options_of(name: str) -> list[str]:
    """The options a bot takes in its spec, each with the kind of its value (``iterations=N``)."""
    import typing

    from unomas.bots import make_bot

    kinds: dict[object, str] = {int: "N", float: "X", bool: "true|false"}
    kinds |= {int | None: "N", float | None: "X", bool | None: "true|false"}
    bot = make_bot(name)
    bot.close()
    hints = typing.get_type_hints(type(bot).__init__)
    return [f"{key}={kinds.get(kind, 'TEXT')}" for key, kind in hints.items() if key != "return"]


@app.command(name="simulate", cls=Command)
def simulate_command(
    games: Annotated[int, typer.Option("--games", "-n", min=1, metavar="N", help="Matches to play, 1 or more.")] = 100,
    players: Annotated[Optional[int], typer.Option(metavar="N", help="Seats, 2 to 10 (default 4).")] = None,  # noqa: UP045
    rules_preset: Annotated[
        str, typer.Option("--rules", metavar="PRESET", help=f"Preset: {' or '.join(PRESETS)}.")
    ] = "official",
    settings: Annotated[
        Optional[list[str]],  # noqa: UP045
        typer.Option("--set", metavar="NAME=VALUE", help="A setting of the rules (repeatable)."),
    ] = None,
    seed: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option(metavar="SEED", help="Seed: the same seed gives the same records."),
    ] = None,
    policy: Annotated[
        str,
        typer.Option(metavar="POLICY", help=f"The bot every seat plays: {' or '.join(POLICIES)} (default playfirst)."),
    ] = "playfirst",
    records: Annotated[
        Optional[Path],  # noqa: UP045
        typer.Option(metavar="FILE", help="Write every match's record to this file, as JSON Lines.", dir_okay=False),
    ] = None,
    backend: BackendOption = "local",
    address: AddressOption = None,
    jobs: JobsOption = None,
) -> None:
    """Play matches between baseline bots (self-play) and report how fast the engine went."""
    rules = rules_from_options(players, rules_preset, settings or [])
    try:
        check_policy(policy)
    except SettingsError:
        words = _words().gettext("--policy: there is no policy {name} (the policies are {known}).")
        raise Refused(words.format(name=repr(policy), known=", ".join(POLICIES))) from None
    where = backend_from_options(backend, jobs, address)
    try:
        code = simulate(rules, games, policy, seed, records, where)
    except BackendUnavailable as error:
        raise _unavailable(error) from None
    if code:
        raise typer.Exit(code=code)


@app.command(name="tournament", cls=Command)
def tournament_command(
    bots: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option(
            metavar="SPECS",
            help="Bot specs, comma separated, one per seat (random, playfirst, heuristic, ismcts:iterations=200, ...).",
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
    games: Annotated[int, typer.Option("--games", "-n", min=1, metavar="N", help="Matches to play, 1 or more.")] = 100,
    rules_preset: Annotated[
        str, typer.Option("--rules", metavar="PRESET", help=f"Preset: {' or '.join(PRESETS)}.")
    ] = "official",
    players: Annotated[
        Optional[int],  # noqa: UP045
        typer.Option(
            metavar="N", help="Seats (default: one per bot); with more seats than bots, the bots repeat in order."
        ),
    ] = None,
    settings: Annotated[
        Optional[list[str]],  # noqa: UP045
        typer.Option("--set", metavar="NAME=VALUE", help="A setting of the rules (repeatable)."),
    ] = None,
    jobs: JobsOption = None,
    backend: BackendOption = "local",
    address: AddressOption = None,
    seed: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option(metavar="SEED", help="Seed: the same seed gives the same results."),
    ] = None,
    records: Annotated[
        Optional[Path],  # noqa: UP045
        typer.Option(metavar="FILE", help="Write every match's record to this file, as JSON Lines.", dir_okay=False),
    ] = None,
    results: Annotated[
        Optional[Path],  # noqa: UP045
        typer.Option(
            "--out",
            metavar="FILE",
            help="Write the results (settings, per-bot figures) to this JSON file.",
            dir_okay=False,
        ),
    ] = None,
    chart: Annotated[
        Optional[Path],  # noqa: UP045
        typer.Option(
            "--plot",
            metavar="FILE",
            help=f"Draw the win rates to this image (needs {_markup_literal(PLOT_INSTALL)}).",
            dir_okay=False,
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
    t = _words()
    if not specs:
        raise Refused(t.gettext("Give at least one bot: --bots or --bot."))
    _check_specs(specs, "--bots" if bots else "--bot")
    if players is None and len(specs) == 1:
        raise Refused(t.gettext("A tournament needs 2 seats or more: give two bots or more, or --players."))
    rules = rules_from_options(players if players is not None else len(specs), rules_preset, settings or [])
    if rules.players < len(specs):
        words = t.gettext("{bots} bots need {bots} seats or more, not {players}.")
        raise Refused(words.format(bots=len(specs), players=rules.players))
    if chart is not None and not plot_available():
        typer.echo(
            t.gettext("--plot needs matplotlib, which is not installed: {install}").format(install=PLOT_INSTALL),
            err=True,
        )
        raise typer.Exit(code=2)
    where = backend_from_options(backend, jobs, address)
    interrupted = False
    started = time.perf_counter()
    with ExitStack() as stack:
        advance = progress_bar(stack, "playing", games)
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
                progress=lambda done, _total: advance(done),
            )
        except BackendUnavailable as error:
            raise _unavailable(error) from None
        except SettingsError as error:
            raise _refused(error, "--bots" if bots else "--bot") from None
        except TournamentInterrupted as stop:
            result, interrupted = stop.result, True
    elapsed = time.perf_counter() - started
    from rich.markup import escape

    _out().print(_tournament_table(result, elapsed))
    for failure in result.errors:
        _out().print(
            f"[red]error[/] in match {failure.match}: {escape(failure.bot or 'a bot')}: {escape(failure.reason)}"
        )
    if results is not None:
        results.write_text(json.dumps(result.to_json(), indent=2) + "\n", encoding="utf-8")
    if chart is not None:
        plot(result, chart)
    if interrupted:
        kept = "" if results is None else f"; results so far written to {escape(str(results))}"
        _err().print(f"[red]interrupted[/] after {len(result.matches)} of {games} matches{kept}")
        raise typer.Exit(code=INTERRUPTED)
    if result.errors and not allow_errors:
        raise typer.Exit(code=1)


def _tournament_table(result: "TournamentResult", elapsed: float) -> "Table":
    """The per-bot figures of a tournament, best rated first.

    Every entrant plays every counted match and round (a forfeit counts for all), so the
    title gives those counts once and the rows give wins only: the table fits 80 columns.
    """
    from rich import box
    from rich.markup import escape
    from rich.table import Table

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
    notes.append(_slips_note(result))
    notes.append("pts: points scored; answer: any decision asked of a bot")
    notes.append("rating: openskill Plackett-Luce mu - 3 sigma")
    table.caption = "\n".join(notes)
    return table


def _slips_note(result: "TournamentResult") -> str:
    """How often each built-in entrant forgets UNO and lets a catch go (a program's own)."""
    from unomas.bots.levels import slips

    specs = [bot.name.partition("#")[0] for bot in result.bots if not bot.name.startswith("cmd:")]  # bot#2: a twin
    rates = [(spec, *slips(spec)) for spec in dict.fromkeys(specs)]
    shown = ", ".join(f"{name} {forget * 100:.0f} %/{miss * 100:.0f} %" for name, forget, miss in rates)
    return f"slips (forgets UNO/misses a catch): {shown}"


def _bot_cell(name: str, given: str | None) -> "Text":
    """An entrant's name (under the name its bot gave itself, if any), each line cut short
    with an ellipsis rather than wrapped."""
    from rich.text import Text

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
    lang: LangOption = None,
    plain: Annotated[bool, typer.Option("--plain", help="Line mode, for screen readers and pipes.")] = False,
    resume: Annotated[bool, typer.Option("--resume", help="Continue the last unfinished match.")] = False,
    pace: Annotated[float, typer.Option(metavar="SECONDS", help="Seconds between bot actions.")] = 0.8,
    window: Annotated[
        Optional[float],  # noqa: UP045
        typer.Option(
            metavar="SECONDS",
            help="Seconds an out-of-turn chance holds the bots back for you (default: the setup's, 2.5).",
        ),
    ] = None,
    name: Annotated[Optional[str], typer.Option(metavar="NAME", help="Your name at the table.")] = None,  # noqa: UP045
    seed: Annotated[Optional[str], typer.Option(metavar="SEED", help="Seed of the shuffles and the bots.")] = None,  # noqa: UP045
    join: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option(metavar="URL", help="Play a seat of a room of unomas serve instead (its link)."),
    ] = None,
) -> None:
    """Play a match against bots in the terminal (the record is saved as you play)."""
    if join is not None:
        seats.play_room(join, name, lang, plain=plain)
        return
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
    lang: LangOption = None,
) -> None:
    """Replay and check records; exit non-zero if any is invalid (or is no record at all)."""
    from unomas.cli.lines import fail, translations
    from unomas.cli.play import unreadable, watch_record

    if watch:
        watch_record(files[0], lang)
        return
    from rich.markup import escape

    from unomas import fairness

    t = translations(lang)
    problems = [problem for problem in (unreadable(path, t) for path in files) if problem is not None]
    for problem in problems[:-1]:
        typer.echo(problem, err=True)
    if problems:
        raise fail(problems[-1])
    bad = 0
    for path in files:
        for number, item in enumerate(record.iter_file(path)):
            name = t.gettext("{path}: record {number}").format(path=path, number=number)
            try:
                if isinstance(item, RecordError):
                    raise item
                game = fairness.verify(item) if verify else record.replay(item)
            except RecordError as error:
                bad += 1
                if error.code in ("record.no_shuffle", "record.seed_not_revealed"):  # valid, nothing to check
                    unverified = t.gettext("UNVERIFIED")
                    _out().print(f"[yellow]{escape(unverified)}[/] {escape(name)}: {escape(_where(error, t))}")
                    continue
                invalid = t.gettext("INVALID")
                _out().print(f"[red]{escape(invalid)}[/] {escape(name)}: {escape(_where(error, t))}")
                continue
            scores = " ".join(str(s) for s in game.scores)
            summary = t.gettext("scores {scores}; winner {winner}").format(scores=scores, winner=_winner(item, game, t))
            if verify:
                summary += t.gettext(
                    "; every deal and reshuffle comes from the committed seed (not that it was kept secret)"
                )
            valid = t.gettext("valid")
            _out().print(f"[green]{escape(valid)}[/] {escape(name)}: {escape(summary)}")
    if bad:
        raise typer.Exit(code=1)


def _winner(item: dict[str, Any], game: "Game", t: "Translations") -> str:
    """The match's winner in words: its seat, the seat a forfeit gave it to (a tournament
    record's ``forfeit`` field), or none yet."""
    lost = item.get("forfeit")
    seats = range(game.players)
    if game.winner is None and isinstance(lost, dict) and lost.get("seat") in seats and lost.get("winner") in seats:
        return t.gettext("seat {seat} by forfeit of seat {loser}").format(seat=lost["winner"], loser=lost["seat"])
    if game.winner is None:
        return t.gettext("none yet")
    return t.gettext("seat {seat}").format(seat=game.winner)


@app.command(name="serve", cls=Command)
def serve_command(
    host: Annotated[
        str, typer.Option(metavar="HOST", help="Address to listen on (0.0.0.0: every interface).")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, metavar="PORT", help="Port to listen on, 1 to 65535.")] = 8000,
    db: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option(
            metavar="PATH|DSN",
            help="SQLite database (default: unomas.sqlite3 in the user data folder), or a PostgreSQL one"
            " (postgresql://…, the postgres extra) that several servers share.",
        ),
    ] = None,
    instance: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option(
            metavar="NAME",
            help="This server's name among those sharing a PostgreSQL database (default: host name and port).",
        ),
    ] = None,
    lease_seconds: Annotated[
        float,
        typer.Option(
            min=0.5,
            metavar="SECONDS",
            help="Seconds (0.5 or more) after which the rooms of a server that stopped answering are taken"
            " over by another sharing its PostgreSQL database.",
        ),
    ] = 3.0,
    grace: Annotated[
        float, typer.Option(min=0, metavar="SECONDS", help="Seconds (0 or more) away before a bot plays for a player.")
    ] = 30.0,
    bot_delay: Annotated[
        float, typer.Option(min=0, metavar="SECONDS", help="Seconds (0 or more) a bot waits before it acts.")
    ] = 0.8,
    window: Annotated[
        float,
        typer.Option(
            min=0,
            metavar="SECONDS",
            help="Seconds (0 or more) every person gets to catch, call UNO late or jump in before a bot acts,"
            " in rooms whose setup does not say.",
        ),
    ] = 2.5,
    trust_proxy: Annotated[
        list[str],
        typer.Option(
            metavar="ADDR", help="A reverse proxy's address whose X-Forwarded-For names the client (repeatable)."
        ),
    ] = [],  # noqa: B006
    allow_origin: Annotated[
        list[str],
        typer.Option(
            metavar="ORIGIN", help="Another origin whose pages may use this server, e.g. https://example.org."
        ),
    ] = [],  # noqa: B006
    allowed_host: Annotated[
        list[str],
        typer.Option(
            metavar="NAME",
            help="Another name this server answers to, e.g. uno.example.org (repeatable); requests naming"
            " any other are refused.",
        ),
    ] = [],  # noqa: B006
    public_url: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option(
            metavar="URL",
            help="The address people open, e.g. https://uno.example.org: its name is answered to and its"
            " pages may use the server.",
        ),
    ] = None,
    metrics_token: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option(
            metavar="TOKEN",
            envvar="UNOMAS_METRICS_TOKEN",
            help="A secret /metrics asks for (Authorization: Bearer TOKEN); also read from UNOMAS_METRICS_TOKEN.",
        ),
    ] = None,
    keep_lobby: Annotated[
        float, typer.Option(min=1, metavar="SECONDS", help="Seconds (1 or more) an empty lobby is kept.")
    ] = 600.0,
    max_rooms: Annotated[
        Optional[int],  # noqa: UP045
        typer.Option(
            min=1,
            metavar="ROOMS",
            help="Rooms (1 or more) held at once, by all the instances sharing a PostgreSQL database; "
            "a lobby nobody sits in gives way to a new one "
            "(default: as many as half the memory holds, 256 KiB a room, on each instance).",
        ),
    ] = None,
    keep_finished: Annotated[
        float,
        typer.Option(
            min=1,
            metavar="SECONDS",
            help="Seconds (1 or more) a finished room stays open (its record is kept for good).",
        ),
    ] = 3600.0,
    certfile: Annotated[
        Optional[Path],  # noqa: UP045
        typer.Option(metavar="FILE", help="TLS certificate (PEM): serve https and wss.", exists=True, dir_okay=False),
    ] = None,
    keyfile: Annotated[
        Optional[Path],  # noqa: UP045
        typer.Option(metavar="FILE", help="TLS private key (PEM) of --certfile.", exists=True, dir_okay=False),
    ] = None,
) -> None:
    """Serve the browser game: rooms with friends and bots, every game kept in the database.

    Plain HTTP is for this machine or a reverse proxy that adds TLS (see the README); to
    listen on a public address give --certfile and --keyfile."""
    try:
        import uvicorn  # noqa: F401 - serve() runs on it

        from unomas.server import PublicUrl, Settings, default_db_path, serve
    except ImportError as error:
        words = _words().gettext("The server needs its extra: {install} ({error}).")
        typer.echo(words.format(install="pip install 'unomas[server]'", error=error), err=True)
        raise typer.Exit(code=1) from None
    try:
        public = PublicUrl.parse(public_url)
    except SettingsError as error:
        raise _refused(error, "--public-url") from None
    path = db or str(default_db_path())
    shown = path.split("@")[-1] if path.startswith(("postgresql://", "postgres://")) else path  # no password
    scheme = "https" if certfile is not None else "http"
    _err().print(f"unomas server on {scheme}://{host}:{port}/  (games kept in {shown})")
    if certfile is None and host not in ("127.0.0.1", "localhost", "::1"):
        _err().print("[yellow]warning:[/] plain HTTP on a public address: put it behind a TLS proxy or give --certfile")
    settings = Settings(
        grace=grace,
        bot_delay=bot_delay,
        window=window,
        keep_empty_lobby=keep_lobby,
        keep_finished=keep_finished,
        trusted_proxies=frozenset(trust_proxy),
        allowed_origins=frozenset(allow_origin) | public.origins,
        allowed_hosts=frozenset({"localhost", host, *allowed_host}) | public.hosts,
        metrics_token=metrics_token or None,
        max_rooms=max_rooms,
        lease_seconds=lease_seconds,
    )
    import socket

    owner = instance or f"{socket.gethostname()}:{port}"
    serve(host, port, path, settings, certfile=certfile, keyfile=keyfile, instance=owner)


seats.register(app, Command)  # unomas bot --join, unomas mcp
training.register(app, Command)  # unomas train


def _where(error: RecordError, t: "Translations") -> str:
    """A record error in ``t``'s language, without the record number (already printed)."""
    from unomas.i18n import record_error_text
    from unomas.i18n.wording import language

    return record_error_text(error.code, error.params, language(t), record=False)


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
    """Entry point of the ``unomas`` console script.

    What the imports made lives as long as the process: frozen, the garbage collector never
    scans it again (some 30 M instructions of every command, most at exit)."""
    gc.freeze()
    app()


if __name__ == "__main__":  # pragma: no cover
    main()
