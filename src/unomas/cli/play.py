"""``unomas play`` and ``unomas replay --watch``: the terminal game, loaded only when asked for."""

from __future__ import annotations

import logging
import math
import sys
from pathlib import Path
from typing import Any

import typer

from unomas import record
from unomas.bots import make_bot
from unomas.bots.levels import LEVELS
from unomas.cli.lines import fail, translations
from unomas.errors import RecordError, SettingsError, UnoError
from unomas.i18n import Translations, record_error_text, wording
from unomas.rules import Rules
from unomas.tui import plain as line_mode
from unomas.tui.session import NAMES, Session, Setup, Watch, last_unfinished, resume


def play(
    *,
    players: int | None,
    bots: str | None,
    preset: str | None,
    settings: list[str] | None,
    lang: str | None,
    plain: bool,
    resume_last: bool,
    pace: float,
    window: float | None,
    name: str | None,
    seed: str | None,
) -> None:
    """The terminal game: the setup screen, or the match the flags describe (their rules
    start from ``--rules``, the official preset by default, never from the last setup
    screen), or the last unfinished match (``--resume``, which takes none of those flags)."""
    t = translations(lang)
    logging.getLogger("unomas").addHandler(logging.NullHandler())  # the screen tells what went wrong
    for flag, seconds in (("--pace", pace), ("--window", window)):
        if seconds is not None and seconds < 0:
            raise fail(
                t.gettext("{flag} is a number of seconds, 0 or more, not {value}.").format(flag=flag, value=seconds), 2
            )
    if resume_last:
        given = {"--players": players, "--bots": bots, "--rules": preset, "--set": settings, "--name": name}
        given |= {"--seed": seed}
        refused = [flag for flag, value in given.items() if value is not None and value != []]
        if refused:
            message = t.gettext("--resume continues a saved match as it was: it takes no {flags}.")
            raise fail(message.format(flags=", ".join(refused)), code=2)
    setup = Setup.load()
    if name:
        setup.name = name
    flags = players is not None or bots is not None or preset is not None or bool(settings)
    if flags:
        setup.preset = preset or "official"
        setup.settings = {}
    if players is not None:
        setup.players = players
    if bots is not None:
        setup.bots = [spec.strip() for spec in bots.split(",") if spec.strip()]
        for spec in setup.bots:
            _check_bot(spec, t)
    try:
        setup = setup.fitted()
        rules = setup.rules().with_settings(settings or [])
    except SettingsError as error:
        raise fail(wording.error_line(error, t), code=2) from None

    if window is not None:
        setup.window = window
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        plain = True  # no terminal to draw the game screen on: a pipe reads and writes lines
    if plain:  # the line mode waits for the person at every chance: an empty line lets it go
        setup.window = math.inf

    def start(chosen: Setup, chosen_rules: Rules | None = None) -> Session:
        names = [chosen.name, *NAMES[1 : chosen.players]]
        rules = chosen_rules or chosen.rules()
        return Session(rules, chosen.bots, names=names, seed=seed, pace=pace, window=chosen.window)

    session: Session | None = None
    if resume_last:
        try:
            path = last_unfinished()
        except UnoError as error:
            raise fail(wording.error_line(error, t)) from None
        if path is None:
            raise fail(t.gettext("There is no unfinished match to resume."))
        try:
            session = resume(path, pace=pace, window=setup.window)
        except UnoError as error:
            raise fail(wording.error_line(error, t)) from None
    elif flags or plain:
        try:
            session = start(setup, rules)
        except SettingsError as error:
            raise fail(wording.error_line(error, t), code=2) from None
        except UnoError as error:  # the data folder cannot be written
            raise fail(wording.error_line(error, t)) from None
    if session is not None:
        session.sort_hand = setup.sort_hand
    if plain:
        assert session is not None
        line_mode.run(session, t, input, line_mode.terminal_writer())
        return
    from unomas.tui.app import UnomasApp

    app = UnomasApp(t, session=session, setup=setup, make_session=start)
    app.run()
    played = app.session
    if isinstance(played, Session) and played.path is not None and not played.game.is_over:
        typer.echo(wording.saved_line(t))


def _check_bot(spec: str, t: Translations) -> None:
    """Refuse, in one line, a ``--bots`` spec that names no bot (or a bot's bad option)."""
    try:
        make_bot(spec).close()
    except SettingsError:
        levels = ", ".join(dict.fromkeys(level.spec.split(":")[0] for level in LEVELS))
        message = t.gettext("--bots: {spec} is not a bot (the levels are {levels}, or cmd:COMMAND for a program).")
        raise fail(message.format(spec=repr(spec), levels=levels), code=2) from None


def unreadable(path: Path, t: Translations) -> str | None:
    """Why ``path`` holds no record to read (missing, a directory, empty, not text), in
    ``t``'s language, or None."""
    if path.is_dir():
        return t.gettext("{path}: a directory, not a record file").format(path=path)
    try:
        content = path.read_bytes()
    except FileNotFoundError:
        return t.gettext("{path}: no such file").format(path=path)
    except OSError as error:
        return f"{path}: {error.strerror or error}"
    if not content.strip():
        return t.gettext("{path}: empty, no record in it").format(path=path)
    try:
        content.decode("utf-8")
    except UnicodeDecodeError:
        return t.gettext("{path}: not a text file (records are UTF-8 JSON)").format(path=path)
    return None


def watch_record(path: Path, lang: str | None) -> None:
    """``unomas replay FILE --watch``: the file's first record on the game screen."""
    t = translations(lang)
    problem = unreadable(path, t)
    if problem is not None:
        raise fail(problem)
    try:
        data: Any = record.read_file(path)[0]
        watched = Watch(data)
    except RecordError as error:
        raise fail(f"{path}: {record_error_text(error.code, error.params, wording.language(t))}") from None
    from unomas.tui.app import UnomasApp

    UnomasApp(t, watch=watched).run()
