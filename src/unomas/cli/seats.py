"""``unomas bot --join`` and ``unomas mcp``: programs and agents at a table.

:func:`register` adds the commands to the ``unomas`` app; what they run is loaded only
when they run (websockets with the ``server`` extra, the MCP SDK with ``mcp``).
"""

# No ``from __future__ import annotations``: Typer reads the commands' hints at start-up
# (see ``unomas.cli.app``).

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from unomas.cli.lines import LangOption, fail, translations
from unomas.errors import SettingsError, UnoError
from unomas.i18n import Translations, default_language, error_text

if TYPE_CHECKING:
    from unomas.client import RoomLink, Ticket

__all__ = ["register"]


def _refused(error: UnoError, language: str) -> typer.Exit:
    """A refusal (the server's, by its code) or a lost connection, in one line; the
    settings of a room the server refuses are a usage error (status 2)."""
    return fail(
        error_text(error.code, error.params, language, str(error)), code=2 if error.code.startswith("setup.") else 1
    )


def _missing(words: str, extra: str, error: ImportError) -> typer.Exit:
    """A command whose extra is not installed, in one line: ``words`` (in the reader's
    language) name it and how to install it."""
    return fail(words.format(install=f"pip install 'unomas[{extra}]'", error=error))


def _seat_indices(option: str, seats: list[int], players: int, language: str) -> list[int]:
    """The room's seat indices (from 0) of seats a person numbered as the table does, from 1
    (the host's seat is 1); a seat out of 2..players is a usage error."""
    for seat in seats:
        if not 2 <= seat <= players:
            error = SettingsError("setup.host_seat", option=option, value=seat, players=players)
            raise fail(error_text(error.code, error.params, language), code=2)
    return [seat - 1 for seat in seats]


def _bad_link(join: str, t: Translations) -> typer.Exit:
    return fail(t.gettext("--join: {link} is not a room's link nor its code.").format(link=repr(join)), code=2)


def bot_command(
    join: Annotated[str, typer.Option(metavar="URL", help="The room's link (or its code, with --server).")],
    bot: Annotated[str, typer.Option(metavar="SPEC", help="Any bot spec: heuristic, ismcts:seconds=0.5, cmd:COMMAND…")],
    name: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option(
            metavar="NAME", help="The name shown at the table (default: the bot's own: a program's hello name)."
        ),
    ] = None,
    server: Annotated[str, typer.Option(metavar="URL", help="The server of a bare room code.")] = "",
    ticket: Annotated[
        Optional[Path],  # noqa: UP045
        typer.Option(metavar="FILE", help="Keep the seat's token here: started again, the bot takes its seat back."),
    ] = None,
    lang: LangOption = None,
) -> None:
    """Take a seat of a room of `unomas serve` with a bot and play it to the end of the match."""
    language = lang or default_language()
    t = translations(language)
    try:
        from unomas.bots import make_bot
        from unomas.bots.levels import LEVELS
        from unomas.bots.room import join_with_bot
        from unomas.client import DEFAULT_SERVER, RoomLink
    except ImportError as error:
        raise _missing(t.gettext("The client needs its extra: {install} ({error})."), "server", error) from None
    try:
        player = make_bot(bot)
    except SettingsError:
        levels = ", ".join(dict.fromkeys(level.spec.split(":")[0] for level in LEVELS))
        message = t.gettext("--bot: {spec} is not a bot (the levels are {levels}, or cmd:COMMAND for a program).")
        raise fail(message.format(spec=repr(bot), levels=levels), code=2) from None
    try:
        room = RoomLink.parse(join, server=server or DEFAULT_SERVER)
    except UnoError:
        player.close()
        raise _bad_link(join, t) from None

    def seated(shown: str) -> None:
        typer.echo(t.gettext("{name} joins the room {link}.").format(name=shown, link=room.link), err=True)

    try:
        import asyncio

        joining = join_with_bot(room, player, name, ticket_file=ticket, lang=language, seated=seated)
        seat, over = asyncio.run(joining)
    except UnoError as error:
        raise _refused(error, language) from None
    except KeyboardInterrupt:
        raise typer.Exit(code=130) from None
    if over is None:
        raise fail(t.gettext("The connection to the room is closed."))
    scores = " ".join(str(score) for score in over["scores"] or [])
    words = t.gettext("The match is over (seat {seat}); scores: {scores}.")
    typer.echo(words.format(seat=seat.seat + 1, scores=scores))


LOOPBACK = ("127.0.0.1", "localhost", "::1")
"""Hosts only this machine reaches: an MCP server there may go without a token."""


def mcp_command(
    http: Annotated[bool, typer.Option("--http", help="Serve streamable HTTP instead of stdio.")] = False,
    host: Annotated[str, typer.Option(help="Address of the HTTP server.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help="Port of the HTTP server.")] = 8765,
    token_file: Annotated[
        Optional[Path],  # noqa: UP045
        typer.Option(
            metavar="FILE",
            help="HTTP: a file whose first line is the bearer token every request must carry"
            " (or set UNOMAS_MCP_TOKEN); needed for a host beyond this machine.",
        ),
    ] = None,
    lang: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option(metavar="LANG", help="es or en: the default language of the words (default: en)."),
    ] = None,
) -> None:
    """Serve the MCP tools through which an AI agent plays a local match or a room (stdio by default)."""
    language = lang or "en"
    t = translations(language)
    token = _mcp_token(token_file, t) if http else None
    if http and token is None and host not in LOOPBACK:
        message = t.gettext(
            "MCP over HTTP at {host} is open beyond this machine: give a token (--token-file FILE or UNOMAS_MCP_TOKEN)."
        )
        raise fail(message.format(host=host), code=2)
    try:
        from unomas.agents.server import build_server
    except ImportError as error:
        raise _missing(t.gettext("The MCP server needs its extra: {install} ({error})."), "mcp", error) from None
    if http:
        address = f"[{host}]" if ":" in host else host
        server = build_server(language, token=token, url=None if token is None else f"http://{address}:{port}")
        server.run("streamable-http", host=host, port=port)
    else:
        build_server(language).run("stdio")


def _mcp_token(token_file: Path | None, t: Translations) -> str | None:
    """The bearer token of ``--token-file`` (its first line) or of ``UNOMAS_MCP_TOKEN``."""
    if token_file is None:
        return os.environ.get("UNOMAS_MCP_TOKEN") or None
    try:
        lines = token_file.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as error:
        message = t.gettext("--token-file: cannot read {file}: {error}")
        raise fail(message.format(file=token_file, error=error), code=2) from None
    token = lines[0].strip() if lines else ""
    if not token:
        raise fail(t.gettext("--token-file: {file} holds no token on its first line.").format(file=token_file), code=2)
    return token


def on_terminal() -> bool:
    """Whether the output is a terminal (the game screen's), not a pipe."""
    return sys.stdout.isatty()


def play_room(join: str, name: str | None, lang: str | None, *, plain: bool = False) -> None:
    """``unomas play --join URL``: take the next free seat of a room (or the seat this
    person held there: its ticket is kept in the data folder) and play it on the game
    screen (a terminal), or line by line (``plain``, or output to a pipe)."""

    language = lang or default_language()
    t = translations(language)
    try:
        from unomas.client import RoomLink, SimpleSeat
        from unomas.client.links import NAME_LIMIT
        from unomas.tui.remote_plain import play_room as play_lines
    except ImportError as error:
        raise _missing(t.gettext("The client needs its extra: {install} ({error})."), "server", error) from None
    try:
        room = RoomLink.parse(join)
    except UnoError:
        raise _bad_link(join, t) from None
    shown = (name or os.environ.get("USER") or "player")[:NAME_LIMIT]
    try:
        ticket, back = _take_seat(room, shown)
        words = (
            t.gettext("You are back at seat {seat} of {link}.")
            if back
            else t.gettext("You play seat {seat} of {link}.")
        )
        typer.echo(words.format(seat=ticket.seat + 1, link=room.link))
        if not plain and on_terminal():
            import asyncio  # (loaded by the commands that play on screen alone)

            asyncio.run(_on_screen(ticket, t, language))
            return
        seat = SimpleSeat(room, ticket, lang=language)
    except UnoError as error:
        raise _refused(error, language) from None
    except KeyboardInterrupt:
        raise typer.Exit(code=130) from None
    with seat:
        try:
            play_lines(seat, t, input, typer.echo)
        except KeyboardInterrupt:
            raise typer.Exit(code=130) from None


def _take_seat(room: "RoomLink", name: str) -> "tuple[Ticket, bool]":
    """The ticket of the seat this person, by ``name``, holds at ``room`` (kept in the data
    folder) and True, so that they come back to it; else the next free seat's, kept there,
    and False. Another name is another player: it takes a seat of its own."""
    from urllib.parse import quote

    from unomas.client import Ticket, join_room
    from unomas.tui.session import data_dir

    path = data_dir() / "seats" / f"{room.code}-{quote(name, safe='')}.json"
    held = Ticket.load(path)
    if held is not None and held.room == room:
        return held, True
    ticket = join_room(room, name)
    ticket.save(path)
    return ticket, False


async def _on_screen(ticket: "Ticket", t: Translations, language: str, *, start: bool = False) -> None:
    """The seat of ``ticket`` on the game screen, once the match has started (``start``:
    the host starts it); then the match's scores, or that a bot plays the seat of the
    person who left (or, the server out of reach, that the seat waits for them to join
    again; a refusal that ended the connection is raised)."""
    from unomas.client import RoomClient
    from unomas.tui.app import UnomasApp
    from unomas.tui.remote import RemoteTable

    async with RoomClient.of(ticket, lang=language) as client:
        if start:
            await client.start()
            await client.wait_for(lambda: client.view is not None)
        if client.view is None:
            typer.echo(t.gettext("Waiting for the host to start."))
            await client.wait_for(lambda: client.view is not None)
        if client.view is not None:
            await UnomasApp(t, session=RemoteTable(client)).run_async()
        if client.over is not None:
            scores = " ".join(str(score) for score in client.over["scores"] or [])
            words = t.gettext("The match is over (seat {seat}); scores: {scores}.")
            typer.echo(words.format(seat=ticket.seat + 1, scores=scores))
        elif client.failed is not None:
            raise client.failed
        elif not client.connected:  # the server never heard that the person left
            typer.echo(
                t.gettext(
                    "You left the room without reaching the server: join again with its link to take your seat back."
                )
            )
        else:
            typer.echo(t.gettext("You left the room: a bot plays your seat until you join again with its link."))


def host_command(
    server: Annotated[str, typer.Argument(metavar="SERVER", help="The server, e.g. http://127.0.0.1:8000.")],
    players: Annotated[int, typer.Option(metavar="N", min=2, max=10, help="Seats, 2 to 10.")] = 4,
    preset: Annotated[str, typer.Option("--rules", metavar="PRESET", help="Preset the rules start from.")] = "official",
    settings: Annotated[
        Optional[list[str]],  # noqa: UP045
        typer.Option("--set", metavar="NAME=VALUE", help="A setting of the rules (repeatable)."),
    ] = None,
    bot_seats: Annotated[
        Optional[list[int]],  # noqa: UP045
        typer.Option("--bot-seat", metavar="SEAT", help="A seat the server's bots play, 2 to N (repeatable)."),
    ] = None,
    program_seats: Annotated[
        Optional[list[int]],  # noqa: UP045
        typer.Option("--program-seat", metavar="SEAT", help="A seat kept for a program, 2 to N (repeatable)."),
    ] = None,
    name: Annotated[str, typer.Option(metavar="NAME", help="Your name at the table.")] = "host",
    lang: LangOption = None,
    plain: Annotated[bool, typer.Option("--plain", help="Line mode, for screen readers and pipes.")] = False,
) -> None:
    """Create a room on a server of `unomas serve`, share its link, and play its host's seat here."""
    from unomas.cli.app import rules_from_options

    language = lang or default_language()
    t = translations(language)
    rules = rules_from_options(players, preset, settings or [], language)
    try:
        from unomas.client import SimpleSeat, create_room
        from unomas.client.links import NAME_LIMIT
        from unomas.tui.remote_plain import play_room as play_lines
    except ImportError as error:
        raise _missing(t.gettext("The client needs its extra: {install} ({error})."), "server", error) from None
    setup = {
        "rules": rules.to_dict(),
        "bots": _seat_indices("--bot-seat", bot_seats or [], players, language),
        "programs": _seat_indices("--program-seat", program_seats or [], players, language),
    }
    try:
        ticket, link = create_room(server, name[:NAME_LIMIT], **setup)
        if not plain and on_terminal():
            typer.echo(t.gettext("The room's link, to share: {link}").format(link=link))
            input(t.gettext("Enter: start the match (seats nobody took are played by bots)") + " ")
            import asyncio  # (loaded by the commands that play on screen alone)

            asyncio.run(_on_screen(ticket, t, language, start=True))
            return
        seat = SimpleSeat(ticket.room, ticket, lang=language)
    except (EOFError, KeyboardInterrupt):
        raise typer.Exit(code=130) from None
    except UnoError as error:
        raise _refused(error, language) from None
    with seat:
        typer.echo(t.gettext("The room's link, to share: {link}").format(link=link))
        try:
            input(t.gettext("Enter: start the match (seats nobody took are played by bots)") + " ")
            seat.start()
            play_lines(seat, t, input, typer.echo)
        except (EOFError, KeyboardInterrupt):
            raise typer.Exit(code=130) from None
        except UnoError as error:
            raise _refused(error, language) from None


def register(app: typer.Typer, command: type) -> None:
    """Add ``bot``, ``host`` and ``mcp`` to the ``unomas`` app (``command``: the app's command class)."""
    app.command(name="bot", cls=command)(bot_command)
    app.command(name="host", cls=command)(host_command)
    app.command(name="mcp", cls=command)(mcp_command)
