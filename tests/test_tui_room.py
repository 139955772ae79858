"""The game screen at a room of a real ``unomas serve``: a person joins, plays by keys
against the server's bot to the end of the match, reads the server's refusals in their
language, and keeps their seat through a dropped connection."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

pytest.importorskip("websockets")

from server_support import running
from tui_fixtures import next_keys, screen_text
from unomas import fairness
from unomas.actions import Action, Kind
from unomas.cli import app as cli_app
from unomas.cli import seats
from unomas.client import RoomClient, SimpleSeat, Ticket, create_room, fetch_record, join_room
from unomas.game import Phase
from unomas.i18n import translator
from unomas.server.storage import SQLiteStore
from unomas.tui import remote_plain
from unomas.tui.app import GameScreen, Narration, SummaryScreen, UnomasApp
from unomas.tui.remote import RemoteTable

ONE_ROUND = {"players": 2, "target_score": 0}


@pytest.fixture(autouse=True)
def data_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("UNOMAS_DATA", str(tmp_path))
    return tmp_path


async def seated(address: str, lang: str) -> RoomClient:
    """Beto's seat (1) of a started room whose host, Ana, has left: the server's bot plays her seat."""
    ticket, _ = await asyncio.to_thread(create_room, f"http://{address}", "Ana", rules=ONE_ROUND)
    person = RoomClient.of(await asyncio.to_thread(join_room, ticket.room, "Beto"), lang=lang)
    await person.connect()
    host = RoomClient.of(ticket)
    await host.connect()
    await host.start()
    await host.close()
    assert await person.wait_for(lambda: person.view is not None, 10)
    return person


Pilot = Any
"""Textual's pilot of the app under test."""


async def play_by_keys(
    app: UnomasApp, pilot: Pilot, table: RemoteTable, during: Callable[[], Awaitable[None]] | None = None
) -> str:
    """Press the keys of the next legal action whenever the seat has one, until the
    match's summary is shown; its text. ``during`` runs once, after the third action."""
    pressed_at = -1
    actions = 0
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        await pilot.pause(0.02)
        if isinstance(app.screen, SummaryScreen):
            return screen_text(app)
        view = table.view()
        if view.legal_actions and view.ply != pressed_at and isinstance(app.screen, GameScreen):
            pressed_at = view.ply
            for key in next_keys(table):
                await pilot.press(key)
            actions += 1
            if actions == 3 and during is not None:
                await during()
    raise AssertionError(f"no summary in time; the screen:\n{screen_text(app)}")


@pytest.mark.parametrize(
    ("lang", "you", "wins"),
    [
        ("en", r"Beto: \d+ cards?, 0 pts \(you\)", "wins the match"),
        ("es", r"Beto: \d+ cartas?, 0 pts \(tú\)", "gana la partida"),
    ],
)
def test_a_person_plays_a_room_to_its_end_on_the_game_screen(lang: str, you: str, wins: str) -> None:
    async def scenario(address: str) -> tuple[str, str, RoomClient]:
        client = await seated(address, lang)
        table = RemoteTable(client)
        app = UnomasApp(translator(lang), session=table)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause(0.1)
            first = screen_text(app)
            final = await play_by_keys(app, pilot, table)
            await pilot.press("enter")  # the match is over: Enter closes the game
            await pilot.pause()
            assert not app.is_running
        await client.close()
        return first, final, client

    with running(SQLiteStore(":memory:")) as address:
        first, final, client = asyncio.run(asyncio.wait_for(scenario(address), 120))
        record = fetch_record(client.link)
    assert client.over is not None and client.over["reason"] == "target"
    assert {"en": "Round 1 · Top:", "es": "Ronda 1 · Mesa:"}[lang] in first
    assert re.search(you, first) and "Ana: " in first
    winner = ("Ana", "Beto")[record["winner"]]
    assert f"{winner} {wins}" in final.replace("¡", "") and str(max(client.over["scores"])) in final
    game = fairness.verify(record)
    assert game.is_over and {e["p"] for r in record["rounds"] for e in r["events"] if "p" in e} == {0, 1}


def test_the_server_s_refusal_is_worded_on_the_screen_in_the_person_s_language() -> None:
    async def scenario(address: str) -> list[str]:
        client = await seated(address, "es")
        table = RemoteTable(client)
        app = UnomasApp(translator("es"), session=table)
        prompts: list[str] = []
        async with app.run_test(size=(80, 24)) as pilot:
            screen = app.screen
            assert isinstance(screen, GameScreen)
            await client.wait_for(lambda: client.my_decision(), 20)
            await pilot.pause(0.1)
            view = table.view()
            for action in (Action.draw(0), Action.pass_(1)):  # Ana's seat; a pass with no card drawn
                if action.kind is Kind.PASS and view.phase != Phase.TURN:
                    continue
                screen._apply(action)
                for _ in range(50):
                    await pilot.pause(0.02)
                    if table.trouble() is not None:
                        break
                prompts.append(str(screen.query_one("#prompt").render()))
                assert table.view().ply == view.ply  # refused: nothing changed
        await client.close()
        return prompts

    with running(SQLiteStore(":memory:")) as address:
        prompts = asyncio.run(asyncio.wait_for(scenario(address), 60))
    assert prompts[0] == "Solo puedes jugar por tu propio asiento."  # seat.not_yours
    assert prompts[1:] in ([], ["solo se puede pasar después de robar una carta que sirva"])  # move.pass_not_allowed


def test_a_dropped_connection_is_restored_and_the_seat_kept() -> None:
    async def scenario(address: str) -> tuple[list[str], str, RoomClient, list[str]]:
        client = await seated(address, "es")
        table = RemoteTable(client)
        app = UnomasApp(translator("es"), session=table)
        seen: list[str] = []

        async def drop() -> None:
            await client.drop()
            for _ in range(20):
                await pilot.pause(0.01)
                seen.append(screen_text(app))

        async with app.run_test(size=(80, 24)) as pilot:
            final = await play_by_keys(app, pilot, table, during=drop)
            game = next(screen for screen in app.screen_stack if isinstance(screen, GameScreen))
            said = list(game.query_one(Narration).said)
        await client.close()
        return seen, final, client, said

    with running(SQLiteStore(":memory:")) as address:
        seen, final, client, said = asyncio.run(asyncio.wait_for(scenario(address), 120))
    assert any("Se perdió la conexión; reconectando…" in screen for screen in seen)
    assert client.connects == 2 and client.seat == 1 and client.over is not None
    assert "gana la partida" in final
    deals = [line for line in said if line.startswith("Ronda 1: reparte")]
    assert len(deals) == 1, said  # nothing told twice after the reconnection
    assert said.count("Ana perdió la conexión.") == 1 and said.count("Ana no está: un bot juega por su asiento.") == 1


@pytest.mark.parametrize(
    ("flags", "terminal_out", "chosen"), [([], True, "screen"), (["--plain"], True, "lines"), ([], False, "lines")]
)
def test_play_join_takes_the_screen_on_a_terminal_the_lines_with_plain_or_a_pipe_and_the_seat_held(
    monkeypatch: pytest.MonkeyPatch, flags: list[str], terminal_out: bool, chosen: str
) -> None:
    played: list[tuple[str, int | None, str]] = []

    async def on_screen(ticket: Ticket, t: Any, language: str) -> None:
        played.append(("screen", ticket.seat, language))

    def lines(seat: SimpleSeat, *_: Any) -> None:
        played.append(("lines", seat.room["you"] if seat.room else None, seat.client.lang))

    monkeypatch.setattr(seats, "on_terminal", lambda: terminal_out)
    monkeypatch.setattr(seats, "_on_screen", on_screen)
    monkeypatch.setattr(remote_plain, "play_room", lines)
    with running(SQLiteStore(":memory:")) as address:
        _, link = create_room(f"http://{address}", "Ana", rules=ONE_ROUND | {"players": 3})
        result = CliRunner().invoke(cli_app, ["play", "--join", link, "--name", "Beto", "--lang", "es", *flags])
        other = CliRunner().invoke(cli_app, ["play", "--join", link, "--name", "Carla", "--lang", "es", *flags])
        again = CliRunner().invoke(cli_app, ["play", "--join", link, "--name", "Beto", "--lang", "es", *flags])
    assert result.exit_code == 0 and other.exit_code == 0 and again.exit_code == 0, result.output + again.output
    # Beto's seat, then Carla's own (another name is another player), then Beto's again, not the next free one.
    assert played == [(chosen, 1, "es"), (chosen, 2, "es"), (chosen, 1, "es")]
    assert f"Juegas en el asiento 2 de {link}." in result.output
    assert f"Juegas en el asiento 3 de {link}." in other.output  # seats as people count them, from 1
    assert f"Vuelves al asiento 2 de {link}." in again.output


def test_unomas_host_starts_the_match_on_enter_and_plays_the_host_s_seat_on_the_game_screen(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    played: list[tuple[int, bool]] = []

    async def on_screen(ticket: Ticket, t: Any, language: str, *, start: bool = False) -> None:
        played.append((ticket.seat, start))

    monkeypatch.setattr(seats, "on_terminal", lambda: True)
    monkeypatch.setattr(seats, "_on_screen", on_screen)
    with running(SQLiteStore(":memory:")) as address:
        result = CliRunner().invoke(
            cli_app, ["host", f"http://{address}", "--players", "2", "--lang", "en"], input="\n"
        )
    assert result.exit_code == 0, result.output
    assert played == [(0, True)] and "The room's link, to share: http://" in result.output


class AwayClient:
    """A room's client as it stands when the person quits the screen: no match over, no
    refusal, and (``connected``) the server within reach or not."""

    def __init__(self, connected: bool) -> None:
        self.connected = connected
        self.view: dict[str, Any] | None = {"ply": 0}
        self.over: dict[str, Any] | None = None
        self.failed: Exception | None = None

    async def __aenter__(self) -> AwayClient:
        return self

    async def __aexit__(self, *_: object) -> None:
        return None


@pytest.mark.parametrize(
    ("connected", "said"),
    [
        (True, "Has salido de la sala: un bot juega por ti hasta que vuelvas a entrar con su enlace."),
        (
            False,
            "Has salido de la sala sin llegar al servidor: vuelve a entrar con su enlace para recuperar tu asiento.",
        ),
    ],
)
def test_quitting_a_room_says_a_bot_plays_only_when_the_server_could_hear_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], connected: bool, said: str
) -> None:
    async def quit_at_once(_app: UnomasApp) -> None:
        return None

    client = AwayClient(connected)
    monkeypatch.setattr(RoomClient, "of", lambda *_args, **_kwargs: client)
    monkeypatch.setattr(UnomasApp, "run_async", quit_at_once)
    monkeypatch.setattr("unomas.tui.remote.RemoteTable", lambda _client: None)
    ticket = Ticket("http://127.0.0.1:9", "ABCDEFGHJK", 1, "token")
    asyncio.run(seats._on_screen(ticket, translator("es"), "es"))
    assert capsys.readouterr().out.splitlines() == [said]
