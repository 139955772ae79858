"""``unomas play`` and ``unomas replay --watch``: the terminal game, loaded only when asked for."""

from __future__ import annotations

from pathlib import Path

import typer

from unomas import record
from unomas.errors import RecordError, SettingsError, UnoError
from unomas.i18n import Translations, default_language, translator
from unomas.rules import Rules
from unomas.tui import plain as line_mode
from unomas.tui import text
from unomas.tui.session import NAMES, Session, Setup, Watch, last_unfinished, resume


def _translations(lang: str | None) -> Translations:
    try:
        return translator(lang or default_language())
    except SettingsError as error:
        raise typer.BadParameter(str(error), param_hint="--lang") from None


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
    window: float,
    name: str | None,
    seed: str | None,
) -> None:
    t = _translations(lang)
    setup = Setup.load()
    if name:
        setup.name = name
    flags = players is not None or bots is not None or preset is not None or bool(settings)
    if players is not None:
        setup.players = players
    if bots is not None:
        setup.bots = [spec.strip() for spec in bots.split(",") if spec.strip()]
    if preset is not None:
        setup.preset = preset
        setup.settings = {k: v for k, v in setup.settings.items() if k == "target_score"}
    try:
        setup = setup.fitted()
        rules = setup.rules().with_settings(settings or [])
    except SettingsError as error:
        raise typer.BadParameter(str(error)) from None

    def start(chosen: Setup, chosen_rules: Rules | None = None) -> Session:
        names = [chosen.name, *NAMES[1 : chosen.players]]
        return Session(chosen_rules or chosen.rules(), chosen.bots, names=names, seed=seed, pace=pace, window=window)

    session: Session | None = None
    if resume_last:
        path = last_unfinished()
        if path is None:
            typer.echo(t.gettext("There is no unfinished match to resume."), err=True)
            raise typer.Exit(code=1)
        try:
            session = resume(path, pace=pace, window=window)
        except UnoError as error:
            typer.echo(text.error_line(error, t), err=True)
            raise typer.Exit(code=1) from None
    elif flags or plain:
        try:
            session = start(setup, rules)
        except SettingsError as error:
            raise typer.BadParameter(str(error)) from None
    if plain:
        assert session is not None
        line_mode.run(session, t, input, lambda line: print(line, flush=True))
        return
    from unomas.tui.app import UnomasApp

    UnomasApp(t, session=session, setup=setup, make_session=start).run()


def watch_record(path: Path, lang: str | None) -> None:
    t = _translations(lang)
    try:
        data = record.read_file(path)[0]
        watched = Watch(data)
    except RecordError as error:
        typer.echo(f"{path}: {error}", err=True)
        raise typer.Exit(code=1) from None
    from unomas.tui.app import UnomasApp

    UnomasApp(t, watch=watched).run()
