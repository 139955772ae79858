"""The browser game, felt, in a real browser (Debian's chromium through Playwright): what the
table shows at a glance (the timer's ring, four-coloured wilds, corners without colour
letters, a colour-blind mode), the motion of every move, the podium with the points counted
card by card, the outage banner's promise, a rematch's quiet start, refusals that name seats
as the page does, and the installable app (PNG icons, a service worker with an offline page,
compressed and revalidated files and catalogs, the first and repeat load measured)."""

from __future__ import annotations

import gzip
import json
import struct
import time
import urllib.error
import urllib.request
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

ON_TOP = "(token) => (document.querySelector('#discard')?.getAttribute('aria-label') || '').includes(token)"

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
            page.wait_for_function(ON_TOP, arg="RS")
            page.wait_for_timeout(300)
            arrow = "getComputedStyle(document.querySelector('#direction .arrow')).animationName"
            assert page.evaluate(arrow) == "none"  # no spinning while the direction stays
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


# Each card of the hand: its token, the texts in its corners and marks, and the fills of its middle.
FACES = """() => [...document.querySelectorAll('#hand .card svg')].map((svg) => [
  svg.closest('.card').dataset.card,
  [...svg.querySelectorAll('text')].map((t) => t.textContent),
  [...svg.querySelectorAll('path[fill]')].map((p) => p.getAttribute('fill')),
])"""


@needs_chromium
def test_wilds_show_four_colours_corners_carry_no_colour_letter_and_the_colour_blind_mode_adds_shapes(
    monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """In Spanish: a Wild and a Wild Draw Four show the four colours; no corner holds R, Y,
    G or B. The colour-blind mode (remembered) adds each colour's shape and its Spanish
    initial; the colour buttons and the colour in play get the shape too."""
    screens = Screens(tmp_path_factory.mktemp("felt-cards"))
    hands = [["W", "W+4", "R7", "YS", "G+2", "BR"], ["B1", "B2", "B3", "B4", "B5", "B6"]]
    stack(monkeypatch, hands, ["G1", "Y9", "Y8"], target_score=0)
    settings = Settings(grace=60, bot_delay=5, window=0, round_pause=5)
    with running(SQLiteStore(":memory:"), settings) as address, playwright_api.sync_playwright() as p:
        _, room = post(address, "/api/rooms", {"name": "Ana", "rules": {"players": 2}, "bots": [1]})
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = open_seat(browser, address, room, lang="es")
        page.wait_for_selector("#lobby:not([hidden])")
        page.click("#start")
        page.wait_for_selector("#hand .card")
        faces = {token: (texts, fills) for token, texts, fills in page.evaluate(FACES)}
        four = ["#c62828", "#fdd835", "#2e7d32", "#1565c0"]
        assert faces["W"][1] == faces["W+4"][1] == four
        assert not {"R", "Y", "G", "B"} & {text for texts, _ in faces.values() for text in texts}
        assert faces["R7"][0] == ["7", "7", "7"] and faces["YS"][0] == ["⊘", "⊘", "⊘"]
        assert page.get_attribute("#shapes", "aria-pressed") == "false"
        page.click("#shapes")
        assert page.get_attribute("#shapes", "aria-pressed") == "true"
        faces = {token: (texts, fills) for token, texts, fills in page.evaluate(FACES)}
        assert faces["R7"][0][-1] == "R" and faces["YS"][0][-1] == "Am"
        assert faces["G+2"][0][-1] == "V" and faces["BR"][0][-1] == "Az"
        assert page.locator("#hand .card[data-card='G+2'] svg g rect").count() == 1  # green: a square
        assert page.locator("#hand .card[data-card=BR] svg g path").count() == 1  # blue: a diamond
        assert page.text_content("#piles .in-play") == "■ Color en juego: Verde (V)"
        page.reload()  # remembered
        page.wait_for_selector("#hand .card")
        assert page.get_attribute("#shapes", "aria-pressed") == "true"
        page.locator("#hand .card[data-card=W]").click()
        page.wait_for_selector("#dialog[open]")
        assert page.locator("#dialog-body .pick").all_inner_texts() == [
            "▲ Rojo (R)",
            "● Amarillo (Am)",
            "■ Verde (V)",
            "◆ Azul (Az)",
        ]
        for name, size in (("desktop", DESKTOP), ("phone", PHONE)):
            page.set_viewport_size(size)
            screens(page, f"cards-shapes-{name}")
            assert axe_problems(page) == []
        browser.close()


@needs_chromium
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_end_of_a_match_shows_a_podium_and_counts_the_points_card_by_card(
    scheme: str, monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Ana goes out with her last card: the podium puts her first; the points are counted
    from the hands left, each card with what it scored (7 and 9: 16; a Skip 20 and 8: 28), as
    the server's standings give them; Play again is still there."""
    screens = Screens(tmp_path_factory.mktemp("felt-end"))
    stack(monkeypatch, [["R5"], ["B7"], ["YS"]], ["R1", "Y9", "Y8", "Y7"], target_score=0)  # the bots draw and pass
    settings = Settings(grace=60, bot_delay=0.2, window=0, round_pause=0.2)
    with running(SQLiteStore(":memory:"), settings) as address, playwright_api.sync_playwright() as p:
        _, room = post(address, "/api/rooms", {"name": "Ana", "rules": {"players": 3}, "bots": [1, 2]})
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = open_seat(browser, address, room, color_scheme=scheme)
        page.wait_for_selector("#lobby:not([hidden])")
        page.click("#start")
        page.locator("#hand .card.playable").click()
        page.wait_for_selector("#over-banner")
        assert page.locator(".podium li .who").all_text_contents()[0] == "Ana"
        assert page.locator(".podium .place-1 .points").text_content() == "44 points"
        assert page.text_content(".counted h3") == "Ana takes 44 points from the hands left:"
        labels = page.locator(".counted .count-card").evaluate_all("(l) => l.map((c) => c.getAttribute('aria-label'))")
        assert labels == [
            "Blue 7 (B7): 7 points",
            "Yellow 9 (Y9): 9 points",
            "Yellow Skip (YS): 20 points",
            "Yellow 8 (Y8): 8 points",
        ]
        assert page.locator(".counted .pts").all_text_contents() == ["+7", "+9", "+20", "+8"]
        assert page.locator(".counted .sum").all_text_contents() == ["= 16", "= 28"]
        assert page.is_visible("#again")
        page.wait_for_timeout(600)  # the count has appeared
        for name, size in (("desktop", DESKTOP), ("phone", PHONE)):
            page.set_viewport_size(size)
            screens(page, f"end-{scheme}-{name}", full=True)
            assert axe_problems(page) == []
        browser.close()


LAST_PLY = """(() => {
  window.unomasPly = null;
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (event) => {
        const message = JSON.parse(event.data);
        if (message.type === 'update') window.unomasPly = message.view.ply;
      });
    }
  };
})();"""


@needs_chromium
def test_a_refusal_names_the_seat_as_the_page_does(monkeypatch: pytest.MonkeyPatch) -> None:
    """The server counts seats from 0 in a refusal's params; the page says the seat's name
    (here: a draw sent on the bot's turn is refused, in Spanish, naming "bot 2", not "1")."""
    stack(monkeypatch, [["R5", "G2", "G3"], ["B7", "B4", "B5"]], ["R1", "Y9", "Y8", "Y7"], target_score=0)
    settings = Settings(grace=60, bot_delay=30, window=0, round_pause=5)  # the bot's turn lasts
    with running(SQLiteStore(":memory:"), settings) as address, playwright_api.sync_playwright() as p:
        _, room = post(address, "/api/rooms", {"name": "Ana", "rules": {"players": 2}, "bots": [1]})
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = open_seat(browser, address, room, lang="es")
        page.add_init_script(LAST_PLY)
        page.reload()
        page.wait_for_selector("#lobby:not([hidden])")
        page.click("#start")
        page.wait_for_function("() => window.unomasPly !== null && window.unomasSockets.length > 0")
        page.wait_for_timeout(300)
        page.evaluate(
            """() => window.unomasSockets.at(-1).send(JSON.stringify(
                 {type: 'act', action: {a: 'draw', p: 0}, ref: 99, ply: window.unomasPly}))"""
        )
        page.wait_for_selector("#error:not([hidden])")
        error = page.text_content("#error") or ""
        assert "bot 2" in error and "jugador 1" not in error, error
        browser.close()


@needs_chromium
def test_the_outage_banner_promises_only_what_happens_and_a_rematch_starts_without_saying_anyone_is_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Ana and Beto (Spanish). Beto's connection drops: the banner says the table takes no
    clicks (not that they wait), and a card he taps meanwhile is not sent once he is back.
    Beto then goes out; both ask for a rematch: its log says nobody "ha vuelto"."""
    stack(monkeypatch, [["R5", "R2"], ["R7", "R4"]], ["R1", "Y9", "Y8", "Y7", "Y6"], target_score=0)
    settings = Settings(grace=60, bot_delay=0, window=0, round_pause=0.2)
    with running(SQLiteStore(":memory:"), settings) as address, playwright_api.sync_playwright() as p:
        _, room = post(address, "/api/rooms", {"name": "Ana", "rules": {"players": 2}})
        _, beto_seat = post(address, f"/api/rooms/{room['code']}/join", {"name": "Beto"})
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        ana = open_seat(browser, address, room, lang="es")
        beto = open_seat(browser, address, {"code": room["code"], "token": beto_seat["token"]}, lang="es")
        ana.wait_for_selector("#lobby:not([hidden])")
        ana.click("#start")
        for page in (ana, beto):
            page.wait_for_selector("#hand .card")
        # Ana deals: Beto starts; first his connection drops.
        beto.evaluate("window.unomasSockets.forEach((s) => s.close())")
        beto.wait_for_selector("#offline:not([hidden])")
        beto.context.set_offline(True)
        assert beto.text_content("#offline") == (
            "Se perdió la conexión; reconectando… La mesa no admite clics hasta que vuelva."
        )
        sent = beto.evaluate("window.unomasSent.length")
        beto.locator("#hand .card").first.click(force=True)
        beto.context.set_offline(False)
        beto.wait_for_selector("#offline", state="hidden")
        beto.wait_for_timeout(500)
        assert beto.evaluate("window.unomasSent.length") == sent  # nothing was waiting to be sent
        beto.click("#hand .card.playable[data-card=R7]")
        ana.click("#hand .card.playable[data-card=R5]")
        beto.click("#hand .card.playable[data-card=R4]")  # out: the match is over
        old_url = ana.url
        for page in (ana, beto):
            page.wait_for_selector("#again")
            page.click("#again")
        for page in (ana, beto):
            page.wait_for_function(f"() => location.href !== {old_url!r}")
            page.wait_for_selector("#hand .card")
        ana.wait_for_timeout(800)  # both are in the new room
        for page in (ana, beto):
            log = page.locator("#log li").all_text_contents()
            assert not [line for line in log if "ha vuelto" in line], log
        browser.close()


def fetch(address: str, path: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
    """GET ``path``: the status, the headers (lower-case names) and the body as sent."""
    request = urllib.request.Request(f"http://{address}{path}", headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, {k.lower(): v for k, v in answer.headers.items()}, answer.read()
    except urllib.error.HTTPError as error:
        return error.code, {k.lower(): v for k, v in error.headers.items()}, error.read()


def test_the_page_s_files_and_catalogs_are_compressed_and_revalidated_not_fetched_again() -> None:
    """gzip for a browser that takes it; an ETag and ``no-cache`` on the files and the
    catalogs (no ``no-store``), so a repeat visit is answered 304 with no body."""
    with running(SQLiteStore(":memory:")) as address:
        for path in ("/static/main.js", "/static/style.css", "/api/i18n/es"):
            status, headers, body = fetch(address, path, **{"Accept-Encoding": "gzip"})
            assert status == 200 and headers["content-encoding"] == "gzip", path
            assert headers["cache-control"] == "no-cache" and headers["etag"], path
            assert len(body) < len(gzip.decompress(body)) / 2, path
            again, _, rest = fetch(address, path, **{"If-None-Match": headers["etag"]})
            assert (again, rest) == (304, b""), path
        status, headers, _ = fetch(address, "/sw.js")
        assert status == 200 and headers["content-type"].startswith("text/javascript")


def png_size(data: bytes) -> tuple[int, int]:
    """A PNG's width and height, from its header."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_the_app_has_png_icons_for_installing_and_for_ios() -> None:
    with running(SQLiteStore(":memory:")) as address:
        _, _, manifest = fetch(address, "/static/manifest.webmanifest")
        icons = [icon for icon in json.loads(manifest)["icons"] if icon["type"] == "image/png"]
        assert {icon["sizes"] for icon in icons} == {"192x192", "512x512"}
        for icon in icons:
            _, _, data = fetch(address, icon["src"])
            assert "x".join(map(str, png_size(data))) == icon["sizes"]
        _, _, page = fetch(address, "/")
        assert b'<link rel="apple-touch-icon" href="/static/apple-touch-icon.png">' in page
        assert png_size(fetch(address, "/static/apple-touch-icon.png")[2]) == (180, 180)


# What the page fetched over the network (Chrome's count of the bytes received, headers and
# compressed bodies) and how long it took to be ready for play (the hand or the home page drawn).
LOAD = """() => {
  const entries = [performance.getEntriesByType('navigation')[0], ...performance.getEntriesByType('resource')];
  return { bytes: entries.reduce((sum, e) => sum + e.transferSize, 0), files: entries.length };
}"""


@needs_chromium
def test_the_app_installs_works_offline_and_a_repeat_load_fetches_far_less(capsys: pytest.CaptureFixture[str]) -> None:
    """The service worker takes charge of the site; with no connection a page opens the offline
    page in both languages. A repeat load of the home page revalidates instead of fetching:
    the first and repeat loads' bytes and times are printed."""
    with running(SQLiteStore(":memory:")) as address, playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        context = browser.new_context(viewport=PHONE, service_workers="block")
        page = context.new_page()
        figures = []
        for visit in ("first", "repeat"):
            start = time.monotonic()
            page.goto(f"http://{address}/") if visit == "first" else page.reload()
            page.wait_for_function("() => document.querySelector('#quick-play').textContent === 'Play against bots'")
            seconds = time.monotonic() - start
            load = page.evaluate(LOAD)
            figures.append((visit, load["bytes"], load["files"], seconds))
        with capsys.disabled():
            for visit, size, files, seconds in figures:
                print(f"\n{visit} load: {size} bytes over the network, {files} files, {seconds * 1000:.0f} ms")
        (_, first, _, _), (_, repeat, _, _) = figures
        assert first < 60_000 and repeat < first / 5
        context.close()

        context = browser.new_context(viewport=PHONE)
        page = context.new_page()
        page.goto(f"http://{address}/")
        page.wait_for_function("() => navigator.serviceWorker.controller !== null || navigator.serviceWorker.ready")
        page.evaluate("navigator.serviceWorker.ready.then(() => true)")
        page.reload()  # now under the service worker's control
        page.wait_for_function("() => navigator.serviceWorker.controller !== null")
        context.set_offline(True)
        page.goto(f"http://{address}/r/ABCDEF")
        assert page.text_content("h1") == "You are offline" and page.text_content("[lang=es] h2") == "Sin conexión"
        assert axe_problems(page) == []
        browser.close()


@needs_chromium
@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_moments_of_a_match_in_motion(
    size: str, monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """7-0 on, three seats: the deal flies out; bot 2 opens with a Skip (its card travels,
    "⊘" pops on bot 3); Ana's 7 swaps her hand with bot 3's, both hands seen crossing. Each
    moment is photographed mid-motion (see the path printed)."""
    screens = Screens(tmp_path_factory.mktemp(f"felt-moments-{size}"))
    hands = [["R7", "G2", "G3"], ["RS", "B4", "B5"], ["R8", "Y2", "Y3"]]
    stack(monkeypatch, hands, ["R1", "B9", "B8", "B7", "B6"], target_score=0, seven_zero=True)
    monkeypatch.setattr(HeuristicBot, "forget", 0.0)
    settings = Settings(grace=60, bot_delay=1.0, window=0, round_pause=5)
    with running(SQLiteStore(":memory:"), settings) as address, playwright_api.sync_playwright() as p:
        rules = {"players": 3, "seven_zero": True}
        _, room = post(address, "/api/rooms", {"name": "Ana", "rules": rules, "bots": [1, 2], "turn_seconds": 30})
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = open_seat(browser, address, room, viewport=PHONE if size == "phone" else DESKTOP)
        page.wait_for_selector("#lobby:not([hidden])")
        page.click("#start")
        page.wait_for_selector(".ghost", state="attached")
        page.wait_for_timeout(150)
        screens(page, f"deal-{size}")
        page.wait_for_selector('#seats [data-seat="2"] .burst', state="attached")  # bot 2's Skip hits bot 3
        page.wait_for_timeout(120)
        screens(page, f"opponent-skip-{size}")
        page.wait_for_selector("#hand .card.playable[data-card=R7]")
        page.wait_for_timeout(400)
        page.click("#hand .card.playable[data-card=R7]")
        page.wait_for_selector("#dialog[open]")
        page.locator("#dialog-body button", has_text="bot 3").click()
        page.wait_for_selector(".ghost", state="attached")
        page.wait_for_timeout(200)
        screens(page, f"seven-swap-{size}")
        page.wait_for_function("() => document.querySelector('#log').textContent.includes('swaps')")
        assert sorted(page.locator("#hand .card").evaluate_all("(l) => l.map((c) => c.dataset.card)")) == [
            "R8",
            "Y2",
            "Y3",
        ]  # bot 3's hand
        browser.close()


@needs_chromium
@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_axe_finds_nothing_on_the_join_page_the_lobby_and_a_ten_seat_table(
    size: str, scheme: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Every size and scheme: the page to join a room, the lobby, and ten seats mid-game with
    the timer's ring; the table photographed."""
    screens = Screens(tmp_path_factory.mktemp(f"felt-ten-{size}-{scheme}"))
    settings = Settings(grace=60, bot_delay=0.1, window=0, round_pause=5)  # the bots play on to Ana's turn
    viewport = PHONE if size == "phone" else DESKTOP
    with running(SQLiteStore(":memory:"), settings) as address, playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        _, open_room = post(address, "/api/rooms", {"name": "Ana", "rules": {"players": 3}})
        guest = browser.new_context(viewport=viewport, color_scheme=scheme).new_page()
        guest.goto(f"http://{address}/r/{open_room['code']}")
        guest.wait_for_selector("#join:not([hidden])")
        assert axe_problems(guest) == []
        setup = {"name": "Ana", "rules": {"players": 10}, "bots": list(range(1, 10)), "turn_seconds": 60}
        _, room = post(address, "/api/rooms", setup)
        page = open_seat(browser, address, room, viewport=viewport, color_scheme=scheme)
        page.wait_for_selector("#lobby:not([hidden])")
        assert axe_problems(page) == []
        page.click("#start")
        page.wait_for_selector('#seats [data-seat="0"] .ring')
        page.wait_for_timeout(800)  # the last play has landed
        assert page.locator("#seats .seat").count() == 10
        screens(page, f"ten-seats-{size}-{scheme}")
        assert axe_problems(page) == []
        browser.close()
