"""What every command says in one line: a failure on standard error, and the catalog of
the reader's language (``--lang``, else the locale's) that words it."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from unomas.errors import SettingsError
from unomas.i18n import Translations, default_language, error_text, translator

__all__ = ["LangOption", "fail", "translations"]

LangOption = Annotated[
    Optional[str],  # noqa: UP045
    typer.Option(metavar="LANG", help="es or en (default: from the locale)."),
]
"""The ``--lang`` option of the commands people read: their language, else the locale's."""


def fail(line: str, code: int = 1) -> typer.Exit:
    """Say what went wrong in one line on standard error; the exit to raise."""
    typer.echo(line, err=True)
    return typer.Exit(code=code)


def translations(lang: str | None) -> Translations:
    """The catalog of ``lang`` (or the locale's); an unknown language is a one-line error."""
    try:
        return translator(lang or default_language())
    except SettingsError:
        words = error_text("lang.unknown", {"lang": lang}, default_language())
        raise fail(f"--lang: {words} (es, en)", code=2) from None
