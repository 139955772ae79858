"""``unomas train``: the learned bot's network from a seed (see :mod:`unomas.bots.train`).

:func:`register` adds the command to the ``unomas`` app; the training, and PyTorch (the
``train`` extra), load only when it runs. Without PyTorch it stops before playing a round,
with the error ``setup.no_train`` in the reader's language.
"""

# No ``from __future__ import annotations``: Typer reads the command's hints at start-up
# (see ``unomas.cli.app``).

from pathlib import Path
from typing import Annotated, Optional

import typer

from unomas.cli.lines import LangOption, fail, translations
from unomas.errors import SettingsError

__all__ = ["register"]


def train_command(
    out: Annotated[
        Path,
        typer.Option(
            metavar="FOLDER",
            file_okay=False,
            help="Folder for the self-play data, checkpoints, weights (learned.npz), log and learning curve;"
            " run the same command again to go on where a stopped run left off.",
        ),
    ],
    seed: Annotated[int, typer.Option(metavar="SEED", help="Seed: the same seed makes the same data and network.")] = 0,
    games: Annotated[int, typer.Option("--games", "-n", min=1, metavar="N", help="Self-play rounds, 1 or more.")] = 600,
    iterations: Annotated[
        int, typer.Option(min=1, metavar="N", help="The search's iterations per recorded decision, 1 or more.")
    ] = 500,
    chunk: Annotated[int, typer.Option(min=1, metavar="N", help="Rounds per data file, 1 or more.")] = 10,
    epochs: Annotated[int, typer.Option(min=1, metavar="N", help="Passes over the data, 1 or more.")] = 20,
    workers: Annotated[
        int, typer.Option(min=1, metavar="N", help="Processes playing the self-play rounds, 1 or more.")
    ] = 1,
    teacher: Annotated[
        str,
        typer.Option(
            metavar="NAME",
            help="Whose decisions the network learns: ismcts (the search's visit shares) or heuristic (its moves).",
        ),
    ] = "ismcts",
    players: Annotated[
        Optional[list[int]],  # noqa: UP045
        typer.Option(
            min=2, max=10, metavar="N", help="A player count of the self-play tables (repeatable; default 2 to 10)."
        ),
    ] = None,
    hidden: Annotated[
        Optional[list[int]],  # noqa: UP045
        typer.Option(min=1, metavar="N", help="A hidden layer's size (repeatable; default 256 twice)."),
    ] = None,
    eval_every: Annotated[
        int,
        typer.Option(
            min=0, metavar="N", help="Epochs, and improvement iterations, between games against heuristic (0: none)."
        ),
    ] = 10,
    eval_rounds: Annotated[
        int, typer.Option(min=1, metavar="N", help="Two-player rounds of each evaluation, 1 or more.")
    ] = 200,
    improve: Annotated[
        int,
        typer.Option(
            min=0,
            metavar="N",
            help="Iterations of improvement after the fitting: the network plays heuristic and itself"
            " and learns from the rounds' results (0: none).",
        ),
    ] = 0,
    improve_rounds: Annotated[
        int, typer.Option(min=1, metavar="N", help="Rounds of each improvement iteration, 1 or more.")
    ] = 4000,
    lang: LangOption = None,
) -> None:
    """Train the learned bot's network: a teacher's self-play decisions (the search, or heuristic), then PyTorch.

    A progress bar for each stage, games against heuristic every --eval-every epochs, a checkpoint after every epoch."""
    t = translations(lang)
    from unomas.bots.train import PLAYER_COUNTS, train

    try:
        train(
            out,
            seed=seed,
            games=games,
            iterations=iterations,
            chunk=chunk,
            epochs=epochs,
            workers=workers,
            counts=players or PLAYER_COUNTS,
            teacher=teacher,
            hidden=hidden or [256, 256],
            eval_every=eval_every,
            eval_rounds=eval_rounds,
            improvements=improve,
            improve_rounds=improve_rounds,
        )
    except SettingsError as error:
        from unomas.i18n.wording import error_line

        raise fail(error_line(error, t)) from None


def register(app: typer.Typer, command: type) -> None:
    """Add ``train`` to the ``unomas`` app (``command``: the app's command class)."""
    app.command(name="train", cls=command)(train_command)
