"""The ``unomas`` command line (Typer)."""

from unomas.cli.app import app, main

__all__ = ["app", "main"]
