"""The browser game, felt, in a real browser (Debian's chromium through Playwright): what the
table shows at a glance (the timer's ring, four-coloured wilds, corners without colour
letters, a colour-blind mode), the motion of every move, the podium with the points counted
card by card, the outage banner's promise, a rematch's quiet start, refusals that name seats
as the page does, and the installable app (PNG icons, a service worker with an offline page,
compressed and revalidated files and catalogs, the first and repeat load measured)."""

from __future__ import annotations

import gzip
import struct
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from server_support import post, running
from test_server_browser import ARGS, CHROMIUM, KEEP_ERRORS, Screens, axe_problems, needs_chromium
from unomas.bots import HeuristicBot
from unomas.live import host as live_host
from unomas.server.rooms import Settings
from unomas.server.storage import SQLiteStore
from unomas.testing import make_game

playwright_api = pytest.importorskip("playwright.sync_api")

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


def open_seat(browser: Any, address: str, room: dict[str, Any], lang: str = "en", **context: Any) -> Any:
    """A page holding the room's seat of ``room`` (its token saved), in ``lang``."""
    page = browser.new_context(**({"viewport": DESKTOP} | context)).new_page()
    page.set_default_timeout(10_000)
    page.add_init_script(KEEP_ERRORS)
    page.add_init_script(f"localStorage.setItem('unomas:lang', {lang!r})")
    page.add_init_script(f"localStorage.setItem('unomas:{room['code']}', {room['token']!r})")
    page.goto(f"http://{address}/r/{room['code']}")
    return page


def stack(monkeypatch: pytest.MonkeyPatch, hands: list[list[str]], pile: list[str], **rules: Any) -> None:
    """Every match of the server deals ``hands`` from ``pile`` (a rematch too)."""
    monkeypatch.setattr(live_host, "Game", lambda _rules, seed: make_game(hands, pile, **rules))


# Each card that travels (a ghost) and each effect (a burst), as it appears: its class, where
# it starts (its box's centre) and the seat it pops on.
MOVES = """(() => {
  window.unomasMoves = [];
  new MutationObserver((mutations) => {
    for (const m of mutations) for (const node of m.addedNodes) {
      if (node.nodeType !== 1) continue;
      if (node.classList.contains('ghost')) {
        const r = node.getBoundingClientRect();
        window.unomasMoves.push(['ghost', r.left + r.width / 2, r.top + r.height / 2]);
      } else if (node.classList.contains('burst')) {
        const seat = node.closest('[data-seat]');
        window.unomasMoves.push(['burst', node.textContent, seat ? Number(seat.dataset.seat) : node.parentElement.id]);
      }
    }
  }).observe(document, { childList: true, subtree: true });
})();"""

CENTRE = """(selector) => { const r = document.querySelector(selector).getBoundingClientRect();
  return [r.left + r.width / 2, r.top + r.height / 2]; }"""


@needs_chromium
def test_an_opponent_s_play_flies_from_their_seat_with_its_effect_and_nothing_moves_under_reduced_motion(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Ana deals; the bot opens with a red Skip: its card travels from its seat to the pile
    and "⊘" pops on Ana's seat. The direction arrow does not spin while nothing changes.
    With reduced motion the same moves show no travelling card and no effect."""
    stack(monkeypatch, [["R5", "G2", "G3"], ["RS", "B4", "B5"]], ["R1", "Y9", "Y8", "Y7"], target_score=0)
    monkeypatch.setattr(HeuristicBot, "forget", 0.0)
    settings = Settings(grace=60, bot_delay=0.6, window=0, round_pause=5)
    with running(SQLiteStore(":memory:"), settings) as address, playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        for motion in ("no-preference", "reduce"):
            _, room = post(address, "/api/rooms", {"name": "Ana", "rules": {"players": 2}, "bots": [1]})
            page = open_seat(browser, address, room, reduced_motion=motion)
            page.add_init_script(MOVES)
            page.reload()
            page.wait_for_selector("#lobby:not([hidden])")
            page.click("#start")
            page.wait_for_function("() => document.querySelector('#discard').getAttribute('aria-label').includes('RS')")
            page.wait_for_timeout(300)
            assert page.evaluate("getComputedStyle(document.querySelector('#direction .arrow')).animationName") == "none"
            bot_seat = page.evaluate(CENTRE, '#seats [data-seat="1"]')
            moves = page.evaluate("window.unomasMoves")
            if motion == "reduce":
                assert moves == []
                continue
            ghosts = [m for m in moves if m[0] == "ghost"]
            assert any(abs(x - bot_seat[0]) < 5 and abs(y - bot_seat[1]) < 5 for _, x, y in ghosts), (ghosts, bot_seat)
            assert ["burst", "⊘", 0] in moves
        browser.close()


@needs_chromium
def test_the_turn_timer_is_a_ring_on_the_seat_whose_turn_it_is(tmp_path_factory: pytest.TempPathFactory) -> None:
    """A 20-second timer: the ring sits on the plate of the seat on turn and empties; no
    line of text under the status any more."""
    screens = Screens(tmp_path_factory.mktemp("felt-timer"))
    settings = Settings(grace=60, bot_delay=0.2, window=0, round_pause=5)
    with running(SQLiteStore(":memory:"), settings) as address, playwright_api.sync_playwright() as p:
        setup = {"name": "Ana", "rules": {"players": 2, "target_score": 0}, "bots": [1], "turn_seconds": 20}
        _, room = post(address, "/api/rooms", setup)
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = open_seat(browser, address, room, lang="es")
        page.wait_for_selector("#lobby:not([hidden])")
        page.click("#start")
        page.wait_for_selector("#seats .seat.turn .ring")
        assert page.locator("#timer").count() == 0
        assert page.locator("#seats .ring").count() == 1
        assert page.get_attribute("#seats .seat.turn", "data-seat") == "0"  # Ana's turn: the ring on her plate
        assert page.get_attribute('#seats [data-seat="0"] .ring', "role") == "timer"
        label = page.get_attribute("#seats .ring", "aria-label")
        assert label is not None and label.startswith("Segundos: ")
        first = float(page.get_attribute("#seats .ring .left", "stroke-dashoffset") or 0)
        page.wait_for_timeout(1200)
        assert float(page.get_attribute("#seats .ring .left", "stroke-dashoffset") or 0) > first  # it empties
        for name, size in (("desktop", DESKTOP), ("phone", PHONE)):
            page.set_viewport_size(size)
            screens(page, f"timer-ring-{name}")
            assert axe_problems(page) == []
        browser.close()
