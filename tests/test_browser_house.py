"""The browser and the house rules: several cards of one number, a deflected penalty."""

from __future__ import annotations

from typing import Any

import pytest

from server_support import post, running
from test_server_browser import ARGS, CHROMIUM, Screens, needs_chromium
from unomas.live import host as live_host
from unomas.server.rooms import Settings
from unomas.server.storage import SQLiteStore
from unomas.testing import make_game

playwright_api = pytest.importorskip("playwright.sync_api")


def room_page(p: Any, address: str, rules: dict[str, Any], lang: str = "en") -> tuple[Any, Any]:
    """Ana's page (a desktop, in ``lang``) in a room of hers with two bots, the match started."""
    _, room = post(address, "/api/rooms", {"name": "Ana", "rules": rules, "bots": [1, 2]})
    browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.set_default_timeout(10_000)
    page.add_init_script(f"localStorage.setItem('unomas:{room['code']}', {room['token']!r})")
    page.add_init_script(f"localStorage.setItem('unomas:lang', {lang!r})")
    page.goto(f"http://{address}/r/{room['code']}")
    page.wait_for_selector("#lobby:not([hidden])")
    page.click("#start")
    return browser, page


def playable_cards(page: Any) -> list[str]:
    return list(page.locator("#hand .card.playable").evaluate_all("(cards) => cards.map((c) => c.dataset.card)"))


@needs_chromium
def test_several_fives_are_played_from_the_hand_and_the_pass_button_ends_the_turn(
    monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Bots play R4 and R6; Ana plays R5, then G5 (any colour), and passes keeping B5."""
    screens = Screens(tmp_path_factory.mktemp("browser-same"))
    rules = {"players": 3, "hand_size": 4, "target_score": 0, "same_number_together": True}
    hands = [["R5", "G5", "B5", "Y7"], ["R4", "B8", "B9", "B3"], ["R6", "G8", "G9", "Y9"]]
    game = make_game(hands, ["R1", "Y1", "Y2", "Y3"], **rules)
    monkeypatch.setattr(live_host, "Game", lambda rules, seed: game)
    settings = Settings(grace=60, bot_delay=0, window=0, round_pause=5)
    with running(SQLiteStore(":memory:"), settings) as address, playwright_api.sync_playwright() as p:
        browser, page = room_page(p, address, rules)
        page.locator("#hand .card.playable[data-card=R5]").click()
        page.wait_for_selector("#actions [data-a=pass]")
        assert "Another 5? Play one of any colour, or pass to end your turn." in page.text_content("#status")
        assert sorted(playable_cards(page)) == ["B5", "G5"]
        page.wait_for_timeout(1500)  # the cards have flown
        screens(page, "run-second-card")
        page.locator("#hand .card.playable[data-card=G5]").click()
        page.wait_for_function("() => document.querySelectorAll('#hand .card').length === 2")
        assert playable_cards(page) == ["B5"]
        page.locator("#actions [data-a=pass]").click()
        page.wait_for_function("() => document.querySelector('#log').textContent.includes('ends the turn')")
        assert "Ana plays no more of that number and ends the turn." in page.text_content("#log")
        page.wait_for_timeout(1500)  # the cards have flown
        screens(page, "run-passed", full=True)
        browser.close()


@needs_chromium
def test_a_reverse_sends_the_draw_two_back_in_the_browser(
    monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Bot 3 plays R+2 at Ana; she answers with her red Reverse and bot 3 must draw 2."""
    screens = Screens(tmp_path_factory.mktemp("browser-deflect"))
    rules = {"players": 3, "hand_size": 4, "target_score": 0, "reverse_deflect": True}
    hands = [["RR", "G5", "B5", "Y7"], ["R4", "B8", "B9", "B3"], ["R+2", "G8", "G9", "Y9"]]
    game = make_game(hands, ["R1", "Y1", "Y2", "Y3"], **rules)
    monkeypatch.setattr(live_host, "Game", lambda rules, seed: game)
    settings = Settings(grace=60, bot_delay=0, window=0, round_pause=5)
    with running(SQLiteStore(":memory:"), settings) as address, playwright_api.sync_playwright() as p:
        browser, page = room_page(p, address, rules)
        page.wait_for_selector("#hand .card.playable[data-card=RR]")
        assert "You must draw 2: draw, or answer with a card." in page.text_content("#status")
        page.wait_for_timeout(1500)  # the cards have flown
        screens(page, "deflect-facing")
        page.locator("#hand .card.playable[data-card=RR]").click()
        page.wait_for_function("() => document.querySelector('#log').textContent.includes('bot 3 draws 2')")
        page.wait_for_timeout(1500)  # the cards have flown
        screens(page, "deflect-sent-back", full=True)
        browser.close()


@needs_chromium
def test_the_log_says_in_spanish_when_a_seat_is_out_of_the_round(
    monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Elimination at 5 cards: bot 2 plays R+2 at bot 3, who draws to 5 and is out."""
    screens = Screens(tmp_path_factory.mktemp("browser-out"))
    rules = {"players": 3, "hand_size": 3, "target_score": 0, "elimination": 5}
    hands = [["G5", "B5", "Y7"], ["R+2", "B8", "B9"], ["G8", "G9", "Y9"]]
    game = make_game(hands, ["R1", "Y1", "Y2", "Y3"], **rules)
    monkeypatch.setattr(live_host, "Game", lambda rules, seed: game)
    settings = Settings(grace=60, bot_delay=0, window=0, round_pause=5)
    with running(SQLiteStore(":memory:"), settings) as address, playwright_api.sync_playwright() as p:
        browser, page = room_page(p, address, rules, lang="es")
        page.wait_for_function("() => document.querySelector('#log').textContent.includes('fuera de la ronda')")
        assert "bot 3 tiene 5 cartas y queda fuera de la ronda." in page.text_content("#log")
        page.wait_for_timeout(1500)  # the cards have flown
        screens(page, "eliminated-es", full=True)
        browser.close()
