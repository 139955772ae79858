"""The terminal and the house rules: the numbers on the setup screen, a run of one number
played by keys, the 7 that names nobody."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from textual.widgets import Input, Select

from tui_fixtures import Scripted, screen_text
from unomas.actions import Action
from unomas.cards import parse_card
from unomas.events import Event, HandsSwapped, Played, RunEnded
from unomas.i18n import translator
from unomas.testing import make_game
from unomas.tui import plain
from unomas.tui.app import SetupScreen, UnomasApp
from unomas.tui.session import Session, Setup


@pytest.fixture(autouse=True)
def data_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("UNOMAS_DATA", str(tmp_path))
    return tmp_path


async def set_numbers(lang: str, hand_limit: str) -> tuple[list[Setup], str, dict[str, object]]:
    started: list[Setup] = []

    def make(setup: Setup) -> Session:
        started.append(setup)
        return Session(setup.rules(), setup.bots, pace=0, save=False, seed=1)

    app = UnomasApp(translator(lang), setup=Setup(players=3, bots=["random"]), make_session=make)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SetupScreen)
        screen.query_one("#preset-caos").scroll_visible(animate=False)
        await pilot.pause()
        await pilot.click("#preset-caos")
        await pilot.pause()
        shown: dict[str, object] = {
            "uno_penalty": screen.query_one("#number-uno_penalty", Select).value,
            "elimination": screen.query_one("#number-elimination", Input).value,
        }
        screen.query_one("#number-elimination").scroll_visible(animate=False)
        await pilot.pause()
        text = " ".join(screen_text(app).split())
        screen.query_one("#number-uno_penalty", Select).value = 6
        screen.query_one("#number-elimination", Input).value = "0"
        screen.query_one("#number-hand_limit", Input).value = hand_limit
        await pilot.press("ctrl+s")
        await pilot.pause()
        shown["error"] = " ".join(screen_text(app).split())
    return started, text, shown


def test_the_setup_screen_sets_the_house_numbers() -> None:
    started, text, shown = asyncio.run(set_numbers("en", "30"))
    assert "Hand limit" in text and "Out of the round at" in text and "Cards for a missed" in text
    assert shown["uno_penalty"] == 4 and shown["elimination"] == "25"  # as the preset caos has them
    rules = started[0].rules()
    assert (rules.uno_penalty, rules.hand_limit, rules.elimination) == (6, 30, 0)


def test_the_setup_screen_refuses_a_hand_limit_within_the_hand() -> None:
    started, text, shown = asyncio.run(set_numbers("es", "5"))
    assert not started and "Límite de la" in text
    assert "5" in str(shown["error"]) and "7" in str(shown["error"])


async def run_by_keys(keys: list[list[str]], **settings: object) -> tuple[list[Event], list[str]]:
    """Ana (seat 0, on turn after Beto's G1) holds R9 R5 G5 B5 Y1 Y2 R7 G7 (sorted on screen)."""
    game = make_game(
        [["R9", "G5", "R5", "B5", "R7", "G7", "Y1", "Y2"], ["G9", "G1", "G2", "G3", "G4", "G6", "G8", "B2"]],
        ["G9"],
        same_number_together=True,
        **settings,
    )
    game.apply(Action.play(1, parse_card("G1")))  # Ana is on turn, G1 on top
    session = Session(game.rules, [Scripted()], names=["Ana", "Beto"], game=game, pace=600, window=0, save=False)
    app = UnomasApp(translator("en"), session=session)
    screens: list[str] = []
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        for step in keys:
            await pilot.press(*step)
            await pilot.pause()
            screens.append(screen_text(app))
        await pilot.press("q")
    return [event for _action, events in session.history for event in events], screens


def test_a_run_of_fives_is_played_by_the_play_keys_and_ended_by_the_pass_key() -> None:
    # sorted: R5 R7 R9 Y1 Y2 G5 G7 B5 — G5 (6th) plays on G1, then R5 (1st), then p
    seen, screens = asyncio.run(run_by_keys([["6", "enter"], ["1", "enter"], ["p"]]))
    assert "Another 5? Play one of any colour, or pass to end your turn." in " ".join(screens[0].split())
    assert "p end the turn" in screens[0]
    plays = [e.card for e in seen if isinstance(e, Played) and e.player == 0]
    assert len(plays) == 2 and RunEnded(0) in seen
    assert "Ana plays no more of that number and ends the turn." in " ".join(screens[2].split())


def test_the_seven_naming_nobody_goes_on_by_enter_and_the_last_names_someone() -> None:
    # G7 (7th) plays on G1; Enter in the picker: nobody yet; then R7 (2nd) naming Beto (1)
    seen, screens = asyncio.run(run_by_keys([["7", "enter"], ["enter"], ["2", "enter"], ["1"]], seven_swap=True))
    assert "⏎ = nobody yet: another 7 follows" in screens[0]
    assert "Play your next 7" in " ".join(screens[1].split())
    assert [e.target for e in seen if isinstance(e, Played) and e.player == 0] == [None, 1]
    assert HandsSwapped(0, 1) in seen


def test_the_line_mode_plays_a_seven_naming_nobody_with_a_dash() -> None:
    game = make_game(
        [["R9", "G5", "R5", "B5", "R7", "G7", "Y1", "Y2"], ["G9", "G1", "G2", "G3", "G4", "G6", "G8", "B2"]],
        ["G9"],
        same_number_together=True,
        seven_swap=True,
    )
    game.apply(Action.play(1, parse_card("G1")))
    session = Session(game.rules, [Scripted()], names=["Ana", "Beto"], game=game, pace=0, save=False)
    written: list[str] = []
    answers = iter(["7", "-", "2", "1"])  # G7 (sorted 7th), nobody yet; R7 (2nd), swapping with Beto

    def read(prompt: str) -> str:
        written.append(prompt)
        answer = next(answers, None)
        if answer is None:
            raise EOFError
        return answer

    plain.run(session, translator("en"), read, written.append)
    text = "\n".join(written)
    assert "Swap hands with: 1 = Beto · - = nobody yet: another 7 follows" in text
    assert "Play your next 7" in text
    seen = [event for _action, events in session.history for event in events]
    assert [e.target for e in seen if isinstance(e, Played) and e.player == 0] == [None, 1]
    assert HandsSwapped(0, 1) in seen


def test_the_setup_screen_says_which_number_is_no_number() -> None:
    started, _text, shown = asyncio.run(set_numbers("en", "many"))
    assert not started and "hand_limit" in str(shown["error"]) and "'many'" in str(shown["error"])
