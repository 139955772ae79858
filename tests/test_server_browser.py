"""End to end in a real browser (Debian's chromium through Playwright): two people and a
bot play a whole match to a rematch, the host at desktop size (1280×800) in English, the
guest on a phone (390×844) in Spanish, with a reload and a dropped connection in the middle;
axe-core, run in the page, finds no critical or serious problem on the home, lobby, table
and match-over screens. Screenshots of every screen are saved under pytest's temporary
folder (the path is printed)."""

from __future__ import annotations

import contextlib
import shutil
import time
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from server_support import get, post, running
from unomas.bots import HeuristicBot
from unomas.i18n.switches import switch_groups
from unomas.live import host as live_host
from unomas.rules import Rules
from unomas.server.rooms import Settings
from unomas.server.storage import SQLiteStore
from unomas.testing import make_game

playwright_api = pytest.importorskip("playwright.sync_api")

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
needs_chromium = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (.ci/run installs it)")

# One step of a player: whatever the page offers now, as a person would pick it.
STEP = """() => {
  if (document.querySelector('#over-banner')) return 'over';
  if (document.querySelector('#dialog[open]')) return 'dialog';
  if (document.querySelector('#actions [data-a=uno]')) return 'uno';
  if (document.querySelector('#actions .say-uno[aria-pressed=false]')) return 'say-uno';
  if (document.querySelector('#actions [data-a=color]')) return 'color';
  if (document.querySelector('#hand .card.playable')) return 'play';
  if (document.querySelector('#actions [data-a=draw]')) return 'draw';
  if (document.querySelector('#actions [data-a=pass]')) return 'pass';
  return 'wait';
}"""

# Every error the server sends a page is kept, to check that the page only ever sent
# actions the view offered (a refusal can then only be a race lost to another seat), and
# every action it sent, to check that each names the ply of the view it answers. The
# sockets are kept too, so a test can drop them.
KEEP_ERRORS = """(() => {
  window.unomasErrors = [];
  window.unomasSent = [];
  window.unomasSockets = [];
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      window.unomasSockets.push(this);
      this.addEventListener('message', (event) => {
        const message = JSON.parse(event.data);
        if (message.type === 'error') window.unomasErrors.push(message.code);
      });
    }
    send(data) {
      const message = JSON.parse(data);
      if (message.type === 'act') window.unomasSent.push(message);
      super.send(data);
    }
  };
})();"""

# A modal dialog takes the focus (the browser then keeps it there until it closes).
FOCUS_IN_DIALOG = "() => !document.querySelector('#dialog[open]') || !!document.activeElement.closest('#dialog')"
FOCUS_KEPT = "() => document.activeElement !== document.body && document.activeElement !== null"

CLICKS = {
    "dialog": "#dialog-body button",
    "uno": "#actions [data-a=uno]",
    "say-uno": "#actions .say-uno",
    "color": "#actions [data-a=color]",
    "play": "#hand .card.playable",
}


def axe_problems(page: Any) -> list[str]:
    """The critical and serious violations axe-core finds in the page as it is now, once a
    move's sign has faded (a decorative flash of 1.1 s, half-transparent on its way in and
    out; the log says the same in words)."""
    axe = pytest.importorskip("axe_playwright_python")
    page.wait_for_function("() => !document.querySelector('.burst')", timeout=5000)
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate((resources.files(axe) / "axe.min.js").read_text())
    found = page.evaluate("axe.run(document, {resultTypes: ['violations']}).then((r) => r.violations)")
    return [
        f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']]}"
        for v in found
        if v["impact"] in ("critical", "serious")
    ]


class Screens:
    """Screenshots of each screen, in one folder under pytest's temporary path."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        print(f"\nscreenshots: {folder}")

    def __call__(self, page: Any, name: str, full: bool = False) -> None:
        page.screenshot(path=str(self.folder / f"{name}.png"), full_page=full)


def play_until_over(pages: dict[str, Any], screens: Screens, during: Any = None, seconds: float = 180) -> list[str]:
    """Both people play whatever their page offers until both see the match's end; the
    host draws by tapping the pile, the guest with the keyboard. ``during(steps)`` is
    called on every round of the loop (for what the test does mid-match). Returns the
    moments the focus fell to nothing after a play."""
    deadline = time.monotonic() + seconds
    done = dict.fromkeys(pages, False)
    lost_focus: list[str] = []
    steps = 0
    while not all(done.values()):
        if time.monotonic() > deadline:
            for name, page in pages.items():
                screens(page, f"stuck-{name}")
            raise AssertionError(f"the match did not end in time (see {screens.folder}/stuck-*.png)")
        steps += 1
        if during is not None:
            during(steps)
        for name, page in pages.items():
            if done[name]:
                continue
            step = page.evaluate(STEP)
            if step == "over":
                done[name] = True
            elif step == "draw":
                if name == "host":
                    with contextlib.suppress(playwright_api.TimeoutError):
                        page.locator("#piles button.pile:not([aria-disabled])").click(timeout=1000)
                else:
                    page.keyboard.press("d")  # the keyboard shortcut for Draw
            elif step == "pass":
                page.keyboard.press("p")
            elif step == "dialog" and not page.evaluate(FOCUS_IN_DIALOG):
                raise AssertionError("a dialog opened without the focus in it")
            elif step in CLICKS:
                # The moment may pass (another seat moved first): then look again.
                with contextlib.suppress(playwright_api.TimeoutError):
                    page.locator(CLICKS[step]).first.click(timeout=1000)
                    if step in ("play", "dialog") and not page.evaluate("!!document.querySelector('#dialog[open]')"):
                        page.wait_for_timeout(150)
                        if not page.evaluate(FOCUS_KEPT):
                            lost_focus.append(f"{name} after a {step}")
            else:
                page.wait_for_timeout(30)
    return lost_focus


@needs_chromium
def test_two_people_and_a_bot_play_a_match_to_a_rematch(tmp_path_factory: pytest.TempPathFactory) -> None:
    screens = Screens(tmp_path_factory.mktemp("browser-screens"))
    settings = Settings(grace=60, bot_delay=0.05, window=0, round_pause=0.3)
    with running(SQLiteStore(":memory:"), settings) as address, playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        host_context = browser.new_context(viewport={"width": 1280, "height": 800})
        guest_context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
        host, guest = host_context.new_page(), guest_context.new_page()
        for page in (host, guest):
            page.set_default_timeout(15_000)
            page.add_init_script(KEEP_ERRORS)

        # The host creates a room: three seats, the third a bot, short rounds, a turn timer.
        host.goto(f"http://{address}/")
        host.wait_for_selector("#switches input")
        groups = switch_groups("en")
        assert host.locator("#switches fieldset legend").all_text_contents() == [g.title for g in groups]
        for switch in (s for g in groups for s in g.switches):
            box = host.locator(f"#switches input[name={switch.name}]")
            assert box.is_checked() == getattr(Rules.preset("official"), switch.name)
            assert host.text_content(f"#{box.get_attribute('aria-describedby')}") == switch.explanation
        host.check("#presets input[value=all]")  # the presets set every switch at once
        assert all(host.locator("#switches input[type=checkbox]").evaluate_all("(l) => l.map((i) => i.checked)"))
        assert host.input_value("#create-form [name=uno_penalty]") == "4"
        for preset in ("familia", "caos"):  # the house-rule presets, with their numbers
            host.check(f"#presets input[value={preset}]")
            rules = Rules.preset(preset)
            for switch in (s for g in groups for s in g.switches):
                assert host.locator(f"#switches input[name={switch.name}]").is_checked() == getattr(rules, switch.name)
            assert host.input_value("#create-form [name=elimination]") == str(rules.elimination)
        host.check("#presets input[value=official]")
        assert host.input_value("#create-form [name=uno_penalty]") == "2"
        screens(host, "home", full=True)
        assert axe_problems(host) == []
        host.fill("#create-form input[name=name]", "Ana")
        host.fill("#create-form input[name=players]", "3")
        host.dispatch_event("#create-form input[name=players]", "input")
        assert [t.strip() for t in host.locator("#bot-seats label").all_inner_texts()] == ["Seat 2", "Seat 3"]
        host.check("#bot-seats input[value='2']")
        host.fill("#create-form input[name=target_score]", "120")
        host.fill("#create-form input[name=hand_size]", "3")
        host.fill("#create-form input[name=turn_seconds]", "8")
        host.check("#switches input[name=jump_in]")
        host.click("#create-form button[type=submit]")
        host.wait_for_selector("#lobby:not([hidden])")
        link = host.input_value("#link")
        assert link.startswith(f"http://{address}/r/")
        lobby = host.text_content("#lobby")
        assert "Seat 3" in lobby and "bot 3" in lobby  # the setup's seat 3 is the lobby's seat 3
        assert "Turn timer: 8 s" in lobby and "Plays to 120 points" in lobby and "Jump in" in lobby
        host.click("#copy")
        host.wait_for_function("() => document.querySelector('#copied').textContent.length > 0")
        screens(host, "lobby")
        assert axe_problems(host) == []

        # A friend opens the link on a phone, in Spanish: sees who is in, takes a name.
        guest.goto(link)
        guest.select_option("#lang", "es")
        guest.wait_for_selector("#join:not([hidden])")
        guest.wait_for_function("() => document.querySelector('#join-form button').textContent === 'Unirse'")
        assert "Ana" in guest.text_content("#join-seats")
        assert "Tiempo por turno: 8 s" in guest.text_content("#join-rules")
        guest.fill("#join-form input[name=name]", "ana")  # taken (case aside): told in Spanish
        guest.click("#join-form button")
        guest.wait_for_selector("#error:not([hidden])")
        assert guest.text_content("#error") == "Alguien en esta sala ya se llama ana."
        screens(guest, "join-phone")
        assert axe_problems(guest) == []
        guest.fill("#join-form input[name=name]", "Beto")
        guest.click("#join-form button")
        guest.wait_for_selector("#lobby:not([hidden])")
        host.wait_for_function("() => document.querySelector('#lobby-seats').textContent.includes('Beto')")
        screens(guest, "lobby-phone")

        host.click("#start")
        for page in (host, guest):
            page.wait_for_selector("#table:not([hidden])")
            page.wait_for_selector("#hand .card")
        assert host.get_attribute("#status", "role") == "status"
        cards = host.locator("#hand .card")
        assert cards.count() == 3 == host.locator("#hand .card[aria-disabled=true], #hand .card.playable").count()
        assert host.locator("#hand .card:disabled").count() == 0  # every card reachable with Tab
        screens(host, "table")
        screens(guest, "table-phone")
        assert axe_problems(host) == []
        assert axe_problems(guest) == []

        # A reload comes back to the same seat, with the match so far in its log.
        guest.reload()
        guest.wait_for_selector("#hand .card")
        guest.wait_for_function("() => document.querySelectorAll('#log li').length > 0")
        assert guest.locator("#log li").first.text_content().startswith("Ronda 1:")
        assert "SHA-256" in host.text_content("#fairness")
        commitment = host.text_content("#fairness")
        # A spectator who comes in late sees the match so far, as a spectator may.
        watcher = browser.new_page()
        watcher.goto(link)
        watcher.wait_for_function("() => document.querySelectorAll('#log li').length > 1")
        assert watcher.locator("#log li").first.text_content().startswith("Round 1:")
        assert "Spectating" in watcher.text_content("#status") and watcher.is_hidden("#reactions")
        assert watcher.locator("#hand .card").count() == 0
        watcher.close()
        # Switching language tells the log again in the new words; then back to Spanish.
        guest.select_option("#lang", "en")
        guest.wait_for_function("() => document.querySelector('#log li').textContent.startsWith('Round 1:')")
        guest.select_option("#lang", "es")
        guest.wait_for_function("() => document.querySelector('#log li').textContent.startsWith('Ronda 1:')")
        # A quick reaction reaches the others, in their words.
        guest.click("#reactions summary")
        guest.click("#reactions button[data-reaction=good_game]")
        host.wait_for_function("() => document.querySelector('#log').textContent.includes('Beto: 🤝 Good game!')")
        # The mute switch and the hand's order are remembered by the browser.
        host.click("#mute")
        host.click("#sort")
        host.reload()
        host.wait_for_selector("#hand .card")
        assert host.get_attribute("#mute", "aria-pressed") == "true"
        assert host.get_attribute("#sort", "aria-pressed") == "false"
        host.click("#sort")

        dropped: dict[str, Any] = {}

        def drop_the_guest(steps: int) -> None:
            """Mid-match, the guest's connection drops: the host sees it at once with the
            grace countdown, the guest sees the outage; then it comes back."""
            if steps == 2 and not dropped:
                # Closed first, then offline: closed while offline, a socket's closing
                # handshake waits for a timeout before the page hears of it.
                guest.evaluate("window.unomasSockets.forEach((s) => s.close())")
                guest.wait_for_selector("#offline:not([hidden])")
                guest_context.set_offline(True)  # its retries fail until it is back
                host.wait_for_function(
                    "() => document.querySelector('#seats [data-seat=\"1\"]').textContent.includes('a bot plays in')"
                )
                dropped["tag"] = host.text_content('#seats [data-seat="1"]')
                dropped["guest_buttons"] = guest.evaluate(
                    "getComputedStyle(document.querySelector('#table button')).pointerEvents"
                )
                screens(host, "dropped-host")
                screens(guest, "dropped-phone")
                guest_context.set_offline(False)
                guest.wait_for_selector("#offline", state="hidden")
                host.wait_for_function(
                    "() => !document.querySelector('#seats [data-seat=\"1\"]').textContent.includes('a bot plays in')"
                )

        lost = play_until_over({"host": host, "guest": guest}, screens, drop_the_guest)
        if not dropped:
            screens(host, "ended-early")
            screens(guest, "ended-early-phone")
        assert dropped, f"the match ended before the connection could be dropped (see {screens.folder})"
        assert "connection lost: a bot plays in" in dropped["tag"] and dropped["guest_buttons"] == "none"
        assert lost == []

        # The end: a winner banner, the standings round by round, the status says it is over.
        for page in (host, guest):
            page.wait_for_function("() => document.querySelector('#fairness').textContent.includes('--verify')")
        screens(host, "match-over")
        screens(guest, "match-over-phone")
        assert axe_problems(host) == [] and axe_problems(guest) == []
        assert host.title() == "unomas"  # no turn is anyone's now
        banner = guest.text_content("#over-banner")
        assert "gana" in banner.lower() or "ganas" in banner.lower()
        assert "Match over" in host.text_content("#status") and "turn" not in host.text_content("#status")
        assert host.locator(".standings tbody tr").count() == 3
        record = host.evaluate("fetch(document.querySelector('#over-body a').href).then((r) => r.json())")
        assert record["winner"] is not None and record["names"] == ["Ana", "Beto", "bot 3"]
        assert host.locator(".standings thead th").count() == 2 + len(record["rounds"])
        for page in (host, guest):
            errors = page.evaluate("window.unomasErrors")
            assert set(errors) <= {"move.stale"}, errors
            sent = page.evaluate("window.unomasSent")
            assert sent and all(isinstance(message["ply"], int) for message in sent)

        # Play again: each opts in; then both are seated in the new match, a new commitment.
        old_url = host.url
        host.click("#again")
        host.wait_for_function("() => document.querySelector('#rematch-status').textContent.includes('Beto')")
        guest.click("#again")
        for page in (host, guest):
            page.wait_for_function(f"() => location.href !== {old_url!r}")
            page.wait_for_selector("#hand .card")
        assert host.url == guest.url
        host.wait_for_function("() => document.querySelector('#fairness').textContent.includes('SHA-256')")
        assert host.text_content("#fairness") != commitment and host.is_hidden("#over")
        screens(host, "rematch")
        screens(guest, "rematch-phone")
        browser.close()


@needs_chromium
def test_a_refusal_is_shown_in_the_page_s_language() -> None:
    """Joining a room that filled up meanwhile, in Spanish: the server's code, Spanish words;
    an unknown room's link is told so, and the address goes back to the home page."""
    with running(SQLiteStore(":memory:")) as address, playwright_api.sync_playwright() as p:
        _, room = post(address, "/api/rooms", {"name": "Ana", "rules": {"players": 2}})
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page()
        page.set_default_timeout(15_000)
        page.goto(f"http://{address}/r/{room['code']}")
        page.select_option("#lang", "es")
        page.wait_for_selector("#join:not([hidden])")
        page.click("#join-form button")  # no name yet: the browser's own check, in Spanish words
        assert page.eval_on_selector("#join-form input[name=name]", "i => i.validationMessage") == "Rellena este campo."
        page.fill("#join-form input[name=name]", "Carla")
        assert page.eval_on_selector("#join-form input[name=name]", "i => i.validationMessage") == ""
        status, _ = post(address, f"/api/rooms/{room['code']}/join", {"name": "Beto"})  # the last seat goes
        assert status == 200
        page.click("#join-form button")
        page.wait_for_selector("#error:not([hidden])")
        assert page.text_content("#error") == "La sala está llena."
        page.goto(f"http://{address}/r/NOPE00")  # an unknown room, told in Spanish too
        page.wait_for_function("() => document.querySelector('#error').textContent.includes('NOPE00')")
        assert page.text_content("#error") == "No hay ninguna sala NOPE00."
        assert page.url == f"http://{address}/"
        # A pasted link, or a code with spaces, finds the room.
        page.fill("#join-code-form input[name=code]", f"  http://{address}/r/{room['code'].lower()} ")
        page.click("#join-code-form button")
        page.wait_for_selector("#join:not([hidden])")
        assert page.url.endswith(f"/r/{room['code']}") and page.is_visible("#join-full")
        browser.close()


@needs_chromium
def test_a_ten_seat_table_on_a_phone_in_the_dark_keeps_the_hand_and_the_log_in_view(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """Nine bots and a person on a phone with the system's dark theme: the seats fit above
    the hand, the log starts within the screen, and nothing breaks mid-word."""
    screens = Screens(tmp_path_factory.mktemp("browser-ten-seats"))
    settings = Settings(grace=60, bot_delay=5, window=0, round_pause=0.3)  # the bots wait: the table stays still
    with running(SQLiteStore(":memory:"), settings) as address, playwright_api.sync_playwright() as p:
        _, room = post(address, "/api/rooms", {"name": "Ana", "rules": {"players": 10}, "bots": list(range(1, 10))})
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        context = browser.new_context(
            viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, color_scheme="dark"
        )
        page = context.new_page()
        page.set_default_timeout(15_000)
        page.add_init_script(f"localStorage.setItem('unomas:{room['code']}', {room['token']!r})")
        page.goto(f"http://{address}/r/{room['code']}")
        page.wait_for_selector("#lobby:not([hidden])")
        page.click("#start")
        page.wait_for_selector("#hand .card")
        screens(page, "ten-seats-dark-phone")
        assert page.locator("#seats .seat").count() == 10
        page.emulate_media(reduced_motion="reduce")  # no spinning arrow, no travelling cards
        assert page.evaluate("getComputedStyle(document.querySelector('.direction .arrow')).animationName") == "none"
        assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(12, 32, 25)"  # the dark theme
        assert page.evaluate("document.querySelector('#log-box').getBoundingClientRect().top") < 844
        assert page.evaluate("document.documentElement.scrollWidth") <= 390  # nothing wider than the phone
        assert page.is_hidden(".keys")  # a touch screen: no keyboard shortcuts to tell
        assert axe_problems(page) == []
        browser.close()


@needs_chromium
def test_the_turn_timer_counts_down_on_screen_and_the_log_says_when_time_ran_out() -> None:
    settings = Settings(grace=60, bot_delay=0, window=0, round_pause=0.3)
    with running(SQLiteStore(":memory:"), settings) as address, playwright_api.sync_playwright() as p:
        setup = {"name": "Ana", "rules": {"players": 2, "target_score": 0}, "bots": [1], "turn_seconds": 3}
        _, room = post(address, "/api/rooms", setup)
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page()
        page.set_default_timeout(15_000)
        page.add_init_script(f"localStorage.setItem('unomas:{room['code']}', {room['token']!r})")
        page.goto(f"http://{address}/r/{room['code']}")
        page.wait_for_selector("#lobby:not([hidden])")
        assert "Turn timer: 3 s" in page.text_content("#lobby-rules")
        page.click("#start")
        page.wait_for_selector("#seats .seat.turn .ring")  # the timer: a ring on the seat on turn
        shown: set[str | None] = set()
        while not page.locator("#log li.note").count():  # Ana does nothing
            shown.update(page.locator("#seats .ring").evaluate_all("(l) => l.map((r) => r.getAttribute('aria-label'))"))
            page.wait_for_timeout(100)
        assert {"Seconds left: 3", "Seconds left: 2", "Seconds left: 1"} <= shown
        assert page.locator("#log li.note").first.text_content() == "Time ran out for Ana: the server played for them."
        browser.close()


@needs_chromium
def test_each_situation_is_explained_where_it_happens(
    monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """A stacked match of Ana (host, desktop) and Beto (phone): a starting Wild, a jump-in
    chance, the UNO call offered only by a play that leaves one card, a Wild Draw Four's
    challenge, each said in words where it happens; the X key challenges."""
    screens = Screens(tmp_path_factory.mktemp("browser-situations"))
    rules = {"players": 2, "hand_size": 4, "target_score": 0, "jump_in": True}
    game = make_game([["W+4", "G1", "G2", "B3"], ["R9", "R9", "R5", "G6"]], ["W", "B7"], **rules)
    monkeypatch.setattr(live_host, "Game", lambda rules, seed: game)
    with running(SQLiteStore(":memory:"), Settings(grace=60, bot_delay=0, window=0, round_pause=5)) as address:
        _, room = post(address, "/api/rooms", {"name": "Ana", "rules": rules})
        _, beto = post(address, f"/api/rooms/{room['code']}/join", {"name": "Beto"})
        with playwright_api.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            ana = browser.new_page(viewport={"width": 1280, "height": 800})
            phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
            beto_page = phone.new_page()
            for page, token in ((ana, room["token"]), (beto_page, beto["token"])):
                page.set_default_timeout(15_000)
                page.add_init_script(f"localStorage.setItem('unomas:{room['code']}', {token!r})")
                page.goto(f"http://{address}/r/{room['code']}")
                page.wait_for_selector("#lobby:not([hidden])")
            ana.click("#start")

            def says(page: Any, words: str) -> None:
                page.wait_for_function(f"() => document.querySelector('#status').textContent.includes({words!r})")

            # The starting card is a Wild: the dealer is asked for its colour, the other told.
            says(ana, "The starting card is a Wild: choose the colour play starts with.")
            says(beto_page, "The starting card is a Wild: Ana chooses the colour.")
            screens(ana, "starting-wild")
            ana.click("#actions [data-a=color].pick-red")
            # Beto plays one R9; Ana is on turn, and Beto, holding the other, may jump in.
            says(beto_page, "Your turn: play a card that matches, or draw.")
            assert beto_page.locator("#actions .say-uno").count() == 0  # four cards: no UNO to call
            assert beto_page.title() == "● Your turn — unomas" and ana.title() == "unomas"  # the tab says whose turn
            beto_page.locator("#hand .card.playable[data-card=R9]").first.click()
            says(beto_page, "Jump in! You hold the very card on top: play it now, out of turn.")
            screens(beto_page, "jump-in-phone")
            beto_page.locator("#hand .card.playable[data-card=R9]").first.click()
            # Ana draws (B7 does not play on R9); Beto's R5 would leave one card: UNO is offered.
            says(ana, "Your turn")
            ana.click("#piles button.pile")
            says(beto_page, "Your turn")
            beto_page.wait_for_selector("#actions .say-uno[aria-pressed=false]")
            screens(beto_page, "uno-offered-phone")
            beto_page.click("#actions .say-uno")
            beto_page.locator("#hand .card.playable[data-card=R5]").click()
            ana.wait_for_function("() => document.querySelector('#log').textContent.includes('UNO')")
            # Ana's Wild Draw Four: Beto is told what a challenge risks.
            ana.locator("#hand .card.playable[data-card='W+4']").click()
            ana.click("#dialog .pick-green")
            says(beto_page, "Ana played a Wild Draw Four. Draw 4, or challenge:")
            assert beto_page.text_content("#actions [data-a=draw]") == "Draw 4 cards"
            assert beto_page.text_content("#actions [data-a=challenge]") == "Challenge (you draw 6 if it fails)"
            screens(beto_page, "challenge-phone")
            assert axe_problems(beto_page) == []
            assert ana.is_visible(".keys") and beto_page.is_hidden(".keys")  # shortcuts told where there are keys
            beto_page.keyboard.press("x")  # the terminal game's key for a challenge
            ana.wait_for_function("() => document.querySelector('#log').textContent.includes('Beto challenges Ana')")
            browser.close()


@needs_chromium
def test_the_host_keeps_a_seat_for_a_program_and_the_lobby_tags_it(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The create form keeps seat 3 for a program (a seat is a bot's or a program's, not
    both); the lobby says so until a program takes it, then tags it a program's."""
    with running(SQLiteStore(":memory:")) as address, playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.set_default_timeout(15_000)
        page.goto(f"http://{address}/")
        page.wait_for_selector("#program-seats label")
        page.fill("#create-form input[name=name]", "Ana")
        page.fill("#create-form input[name=players]", "3")
        page.dispatch_event("#create-form input[name=players]", "input")
        assert [t.strip() for t in page.locator("#program-seats label").all_inner_texts()] == ["Seat 2", "Seat 3"]
        page.check("#bot-seats input[value='2']")
        page.check("#program-seats input[value='2']")  # the same seat: no longer a bot's
        assert not page.is_checked("#bot-seats input[value='2']")
        assert axe_problems(page) == []
        page.click("#create-form button[type=submit]")
        page.wait_for_selector("#lobby:not([hidden])")
        code = page.url.rsplit("/", 1)[1]
        third = page.locator("#lobby-seats li").nth(2)
        assert "kept for a program" in third.text_content()
        status, _ = post(address, f"/api/rooms/{code}/join", {"name": "Robo", "program": True})
        assert status == 200
        page.wait_for_function("() => document.querySelector('#lobby').textContent.includes('Robo')")
        third = page.locator("#lobby-seats li").nth(2)
        assert "Robo" in third.text_content() and "program" in third.text_content()
        assert "kept for a program" not in third.text_content()
        shots = tmp_path_factory.mktemp("browser-programs")
        page.screenshot(path=str(shots / "lobby-program.png"))
        print(f"\nscreenshots: {shots}")
        browser.close()


# The log's lines after the last one seen (the log keeps its latest 500 lines).
TOLD_AFTER = """(last) => {
  const lines = [...document.querySelectorAll('#log li')].map((li) => li.textContent);
  return lines.slice(lines.lastIndexOf(last) + 1);
}"""
CLICK_NOW = "(selector) => { const node = document.querySelector(selector); if (node) node.click(); }"

# A catch the person's page offers on her own turn (the bots' chances before it are over).
CATCH_ON_TURN = "() => document.querySelector('#actions [data-a=catch]') !== null"

# What the person's page offers out of turn: a catch, or a card to jump in with.
CHANCE = """() => {
  if (document.querySelector('#over-banner')) return 'over';
  if (!document.querySelector('#actions [data-key=let-go]')) return 'none';
  if (document.querySelector('#actions [data-a=catch]')) return 'catch';
  if (document.querySelector('#hand .card.playable')) return 'jump';
  return 'other';
}"""


@needs_chromium
def test_a_person_in_the_browser_catches_a_bot_that_forgot_uno_and_jumps_in_while_the_bots_wait(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """Three bots that forget UNO, jump-in on: the person's page is
    offered the catches and the jump-ins, the bots hold still while it is (the window is 10 s), and the person
    takes them (by a click and by the C key, out of turn or on her turn); Space lets another chance go at once."""
    screens = Screens(tmp_path_factory.mktemp("browser-chances"))
    settings = Settings(grace=60, bot_delay=0, round_pause=0.3)
    taken: dict[str, int] = {"catch": 0, "jump": 0, "let go": 0}
    lost_jumps: list[list[str]] = []  # what was told after a lost jump-in, what was sent and refused
    with running(SQLiteStore(":memory:"), settings) as address, playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.set_default_timeout(15_000)
        page.add_init_script(KEEP_ERRORS)
        for _ in range(30):  # single rounds until each chance came (about one in five has a catch of hers)
            rules = {"players": 4, "target_score": 0, "jump_in": True}
            setup = {"name": "Ana", "rules": rules, "bots": [1, 2, 3], "bot": "random", "window": 10}
            _, room = post(address, "/api/rooms", setup)
            page.add_init_script(f"localStorage.setItem('unomas:{room['code']}', {room['token']!r})")
            page.goto(f"http://{address}/r/{room['code']}")
            page.wait_for_selector("#lobby:not([hidden])")
            assert "10 s to catch or jump in before a bot acts" in page.text_content("#lobby-rules")
            page.click("#start")
            page.wait_for_selector("#hand .card")
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline:
                chance = page.evaluate(CHANCE)
                if chance == "over":
                    break
                if chance in ("catch", "jump", "other"):
                    log = page.text_content("#log")
                    last = page.evaluate("document.querySelector('#log').lastElementChild.textContent")
                    page.wait_for_timeout(1000)  # the bots wait for the person
                    after = page.text_content("#log")
                    assert after == log and page.evaluate(CHANCE) == chance
                    if chance == "catch":
                        screens(page, "a-catch-offered")
                        page.keyboard.press("c")
                    elif chance == "jump" and not taken["jump"]:
                        screens(page, "a-jump-in-offered")
                        page.evaluate(CLICK_NOW, "#hand .card.playable")
                    else:
                        chance = "let go"
                        if taken["let go"] % 2:
                            page.locator("#actions [data-key=let-go]").click()
                        else:  # Space, with the focus on no button (Space would press that one)
                            page.evaluate("document.activeElement.blur()")
                            page.keyboard.press(" ")
                    # The person's action (or the bots', at once once the chance is let go) is told.
                    moved = f"() => document.querySelector('#log').textContent !== {log!r}"
                    page.wait_for_function(moved, timeout=2000)
                    told = page.evaluate(TOLD_AFTER, last)
                    if chance == "catch":
                        assert told[0].startswith("Ana catches"), told
                    elif chance == "jump" and not told[0].startswith("Ana jumps in"):
                        # Seen once in many runs: the click's jump-in was not the next thing told.
                        # Not counted; the test still needs one jump-in told first, below. What
                        # the page sent and was refused goes with it, to tell why if it recurs.
                        sent = page.evaluate("window.unomasSent.slice(-2)")
                        lost_jumps.append([*told, repr(sent), repr(page.evaluate("window.unomasErrors"))])
                        continue
                    taken[chance] += 1
                    continue
                if chance == "none" and page.evaluate(CATCH_ON_TURN):  # a bot forgot UNO just before her turn
                    log = page.text_content("#log")
                    last = page.evaluate("document.querySelector('#log').lastElementChild.textContent")
                    page.keyboard.press("c")
                    page.wait_for_function(f"() => document.querySelector('#log').textContent !== {log!r}")
                    assert page.evaluate(TOLD_AFTER, last)[0].startswith("Ana catches")
                    taken["catch"] += 1
                    continue
                # On the person's own turn, a click at once on what the page shows now (a click
                # that waited for its target could land on a card that became a jump-in since).
                step = page.evaluate(STEP)
                selector = {**CLICKS, "draw": "#actions [data-a=draw]", "pass": "#actions [data-a=pass]"}.get(step)
                if selector is not None:
                    page.evaluate(CLICK_NOW, selector)
                page.wait_for_timeout(50)
            if taken["catch"] and taken["jump"] and taken["let go"]:
                break
        errors = page.evaluate("window.unomasErrors")
        browser.close()
    assert taken["catch"] >= 1 and taken["jump"] >= 1 and taken["let go"] >= 1, (taken, lost_jumps)
    assert len(lost_jumps) <= 1, lost_jumps
    assert set(errors) <= {"move.stale"}, errors


@needs_chromium
def test_coming_back_to_an_expired_lobby_with_a_saved_seat_lands_on_the_home_page_told_why(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """The lobby was forgotten while nobody was in it; the browser still keeps its seat's
    token: the page goes home and says, in its language, that the room is gone (no blank page
    reconnecting for ever)."""
    settings = Settings(grace=60, bot_delay=0, window=0, round_pause=0, keep_empty_lobby=0.2, keep_unvisited_lobby=0.2)
    with running(SQLiteStore(":memory:"), settings) as address, playwright_api.sync_playwright() as p:
        _, room = post(address, "/api/rooms", {"name": "Ana", "rules": {"players": 2}})
        deadline = time.monotonic() + 10
        while get(address, f"/api/rooms/{room['code']}")[0] != 404:
            assert time.monotonic() < deadline, "the empty lobby was never forgotten"
            time.sleep(0.1)
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page()
        page.set_default_timeout(5_000)
        page.add_init_script(KEEP_ERRORS)
        page.add_init_script("localStorage.setItem('unomas:lang', 'es')")
        page.add_init_script(f"localStorage.setItem('unomas:{room['code']}', {room['token']!r})")
        page.goto(f"http://{address}/r/{room['code']}")
        page.wait_for_selector("#home:not([hidden])")
        assert page.url == f"http://{address}/"
        gone = f"La sala {room['code']} ya no existe: se cierra si nadie está en ella un rato."
        assert page.text_content("#error") == gone
        assert page.is_hidden("#offline")
        page.wait_for_timeout(1500)  # no retrying: one connection, refused once
        assert page.evaluate("window.unomasSockets.length") == 1
        assert page.evaluate(f"localStorage.getItem('unomas:{room['code']}')") is None
        assert axe_problems(page) == []
        screens = Screens(tmp_path_factory.mktemp("browser-expired"))
        for name, size in (("desktop", {"width": 1280, "height": 800}), ("phone", {"width": 390, "height": 844})):
            page.set_viewport_size(size)
            screens(page, f"expired-lobby-{name}")
        browser.close()


# What a screen reader is given to say: the text put into a live region (one whose
# politeness is not "off"), with the region's id, in order.
HEARD = """(() => {
  window.unomasHeard = [];
  const live = '[aria-live], [role=status], [role=log], [role=alert]';
  new MutationObserver((mutations) => {
    for (const mutation of mutations) {
      const target = mutation.target.nodeType === 1 ? mutation.target : mutation.target.parentElement;
      const region = target && target.closest(live);
      if (!region || region.getAttribute('aria-live') === 'off') continue;
      for (const node of mutation.addedNodes) {
        const text = node.textContent.trim();
        if (text) window.unomasHeard.push([region.id, text]);
      }
    }
  }).observe(document, { childList: true, subtree: true });
})();"""


@needs_chromium
def test_a_screen_reader_hears_every_move_of_a_whole_turn_in_the_page_s_language(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Ana (Spanish) against a bot: from her turn to her next one, her play and the bot's
    moves are each said once, in Spanish, by a polite live region, in the order the log
    shows them; the log is a log (role=log) that does not say its lines a second time."""
    rules = {"players": 2, "hand_size": 3, "target_score": 0}
    game = make_game([["R5", "G2", "G3"], ["R7", "B4", "B5"]], ["R1", "Y9", "Y8", "Y7"], **rules)
    monkeypatch.setattr(live_host, "Game", lambda rules, seed: game)
    monkeypatch.setattr(HeuristicBot, "forget", 0.0)  # the bot calls its UNO: the turn is exact
    settings = Settings(grace=60, bot_delay=0.3, window=0, round_pause=5)
    with running(SQLiteStore(":memory:"), settings) as address, playwright_api.sync_playwright() as p:
        _, room = post(address, "/api/rooms", {"name": "Ana", "rules": rules, "bots": [1]})
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.set_default_timeout(10_000)
        page.add_init_script("localStorage.setItem('unomas:lang', 'es')")
        page.add_init_script(f"localStorage.setItem('unomas:{room['code']}', {room['token']!r})")
        page.add_init_script(HEARD)
        page.goto(f"http://{address}/r/{room['code']}")
        page.wait_for_selector("#lobby:not([hidden])")
        page.click("#start")
        page.wait_for_selector("#hand .card.playable")
        assert page.evaluate("document.querySelector('#log').closest('[role=log]').getAttribute('aria-label')") == (
            "Qué ha pasado"
        )
        page.evaluate("window.unomasHeard = []")
        log_before = page.locator("#log li").count()
        page.locator("#hand .card.playable").first.click()
        page.wait_for_function("() => document.querySelector('#status').textContent.startsWith('Tu turno')")
        page.wait_for_timeout(500)
        heard = page.evaluate("window.unomasHeard")
        logged = page.locator("#log li").all_text_contents()[log_before:]
        moves = [text for region, text in heard if region == "announce"]
        assert moves == logged == ["Ana juega 5 rojo (R5).", "bot 2 juega 5 azul (B5).", "¡bot 2 canta UNO!"]
        assert heard[-1] == ["status", "Tu turno: nada coincide, roba una carta."]
        assert all(region in ("announce", "status") for region, _ in heard)  # the log does not say them again
        assert axe_problems(page) == []
        browser.close()


FOCUSED_CARD = """() => {
  const card = document.activeElement.closest('#hand .card');
  return card ? [...document.querySelectorAll('#hand .card')].indexOf(card) : null;
}"""


@needs_chromium
def test_keyboard_play_starts_in_the_hand_and_moves_by_arrows_and_digits_with_visible_focus(
    monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Ana starts the match with the keyboard: the focus lands on her hand (not on nothing);
    digits pick a card as in the terminal (1 the first, 0 the tenth), arrows and Home/End
    move between the cards, the focused card is outlined, and Enter plays it."""
    screens = Screens(tmp_path_factory.mktemp("browser-keyboard"))
    rules = {"players": 2, "hand_size": 5, "target_score": 0}
    game = make_game([["G2", "R5", "G3", "B4", "Y5"], ["R7", "B7", "B8", "B9", "Y9"]], ["R1", "Y1", "Y2"], **rules)
    monkeypatch.setattr(live_host, "Game", lambda rules, seed: game)
    settings = Settings(grace=60, bot_delay=5, window=0, round_pause=5)  # the bot waits: the hand stays
    with running(SQLiteStore(":memory:"), settings) as address, playwright_api.sync_playwright() as p:
        _, room = post(address, "/api/rooms", {"name": "Ana", "rules": rules, "bots": [1]})
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.set_default_timeout(10_000)
        page.add_init_script(f"localStorage.setItem('unomas:{room['code']}', {room['token']!r})")
        page.goto(f"http://{address}/r/{room['code']}")
        page.wait_for_selector("#lobby:not([hidden])")
        page.focus("#start")
        page.keyboard.press("Enter")
        page.wait_for_selector("#hand .card.playable")
        page.wait_for_function("() => document.activeElement.closest('#hand') !== null")
        assert page.evaluate(FOCUSED_CARD) == 0
        assert [c.get_attribute("data-card") for c in page.locator("#hand .card").all()] == [
            "R5",
            "Y5",
            "G2",
            "G3",
            "B4",
        ]
        page.keyboard.press("3")
        assert page.evaluate(FOCUSED_CARD) == 2
        page.keyboard.press("ArrowRight")
        assert page.evaluate(FOCUSED_CARD) == 3
        page.keyboard.press("ArrowLeft")
        page.keyboard.press("ArrowLeft")
        assert page.evaluate(FOCUSED_CARD) == 1
        page.keyboard.press("End")
        assert page.evaluate(FOCUSED_CARD) == 4
        page.keyboard.press("ArrowRight")  # the last card stays
        assert page.evaluate(FOCUSED_CARD) == 4
        page.keyboard.press("Home")
        assert page.evaluate(FOCUSED_CARD) == 0
        page.keyboard.press("9")  # no ninth card: the focus stays
        assert page.evaluate(FOCUSED_CARD) == 0
        outline = page.evaluate(
            "(() => { const s = getComputedStyle(document.activeElement); return [s.outlineStyle, s.outlineWidth]; })()"
        )
        assert outline[0] == "solid" and float(outline[1].rstrip("px")) >= 3
        screens(page, "keyboard-focus-desktop")
        page.set_viewport_size({"width": 390, "height": 844})
        page.keyboard.press("2")
        screens(page, "keyboard-focus-phone")
        assert axe_problems(page) == []
        page.keyboard.press("1")
        page.keyboard.press("Enter")  # R5 on R1
        page.wait_for_function("() => document.querySelector('#log').textContent.includes('Ana plays')")
        assert "(R5)" in page.locator("#log li").last.text_content()
        browser.close()


@needs_chromium
def test_on_a_phone_one_tap_plays_against_bots_and_the_full_form_is_one_step_away(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """A first visit on a phone, in Spanish: "Jugar contra bots" is in the first screen; one
    tap seats the person with three bots and the match starts at once. The form with every
    setting opens from the home page in one more tap."""
    screens = Screens(tmp_path_factory.mktemp("browser-quick"))
    with running(SQLiteStore(":memory:")) as address, playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        desktop = browser.new_page(viewport={"width": 1280, "height": 800})
        desktop.add_init_script("localStorage.setItem('unomas:lang', 'es')")
        desktop.goto(f"http://{address}/")
        desktop.wait_for_selector("#quick-play")
        screens(desktop, "home-desktop")
        context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
        page = context.new_page()
        page.set_default_timeout(10_000)
        page.add_init_script("localStorage.setItem('unomas:lang', 'es')")
        page.goto(f"http://{address}/")
        page.wait_for_function("() => document.querySelector('#quick-play').textContent === 'Jugar contra bots'")
        box = page.locator("#quick-play").bounding_box()
        assert box is not None and box["y"] + box["height"] <= 844  # above the fold
        assert page.is_hidden("#create-form")  # the full form is folded away...
        screens(page, "home-phone")
        assert axe_problems(page) == []
        page.click("#create-box summary")  # ...one tap away
        assert page.is_visible("#create-form button[type=submit]")
        page.select_option("#create-form select[name=bot]", "learned")  # the longest level's words
        assert page.evaluate("document.documentElement.scrollWidth") <= 390  # nothing wider than the phone
        screens(page, "home-form-phone")
        page.click("#create-box summary")
        page.tap("#quick-play")
        page.wait_for_selector("#hand .card")
        assert page.url.startswith(f"http://{address}/r/")
        assert page.locator("#seats .seat").count() == 4
        assert page.locator("#seats .seat .tag", has_text="bot").count() == 3
        assert page.text_content('#seats [data-seat="0"] .name') == "Jugador"
        screens(page, "quick-table-phone")
        browser.close()


@needs_chromium
def test_a_full_server_says_so_in_a_panel_that_asks_again_and_gets_the_room_once_one_frees(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """One room fits; Ana plays in it. Beto, on a phone in Spanish, asks for a match: a panel
    says the server is full and counts down to asking again. Ana leaves, her match ends (no
    one is left in it) and its room closes; Beto's "try again" gets him a table."""
    screens = Screens(tmp_path_factory.mktemp("browser-full"))
    settings = Settings(
        grace=30, bot_delay=0.2, window=0, round_pause=0, max_rooms=1, keep_unattended_match=1.0, keep_finished=0.2
    )
    with running(SQLiteStore(":memory:"), settings) as address, playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        ana = browser.new_page()
        ana.set_default_timeout(15_000)
        ana.goto(f"http://{address}/")
        ana.click("#quick-play")
        ana.wait_for_selector("#hand .card")
        context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
        beto = context.new_page()
        beto.set_default_timeout(15_000)
        beto.add_init_script("localStorage.setItem('unomas:lang', 'es')")
        beto.goto(f"http://{address}/")
        beto.wait_for_function("() => document.querySelector('#quick-play').textContent === 'Jugar contra bots'")
        beto.tap("#quick-play")
        beto.wait_for_selector("#dialog[open]")
        assert beto.text_content("#dialog-title") == "El servidor está lleno"
        countdown = beto.text_content("#dialog-body [role=status]") or ""
        assert countdown.startswith("Se vuelve a pedir en ") and countdown.endswith(" s.")
        assert beto.evaluate(FOCUS_IN_DIALOG) and beto.url == f"http://{address}/"
        screens(beto, "full-phone")
        assert axe_problems(beto) == []
        ana.close()
        deadline = time.monotonic() + 20
        while get(address, "/healthz")[1]["rooms"]:
            assert time.monotonic() < deadline, "Ana's room did not close"
            time.sleep(0.2)
        beto.click("#dialog-body .choices button")
        beto.wait_for_selector("#hand .card")
        assert beto.url.startswith(f"http://{address}/r/") and not beto.is_visible("#dialog")
        browser.close()


@needs_chromium
def test_the_seven_swap_dialog_names_only_the_seats_to_swap_with(
    monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """7-0 on: Ana's 7 asks whom to swap hands with, the two other seats and a way back,
    and nothing else (no stray word where the dialog has no explanation)."""
    screens = Screens(tmp_path_factory.mktemp("browser-seven"))
    rules = {"players": 3, "hand_size": 3, "target_score": 0, "seven_zero": True}
    hands = [["R7", "G2", "G3"], ["R4", "B4", "B5"], ["R6", "R8", "R9"]]
    game = make_game(hands, ["R1", "Y1", "Y2", "Y3"], **rules)
    monkeypatch.setattr(live_host, "Game", lambda rules, seed: game)
    settings = Settings(grace=60, bot_delay=0, window=0, round_pause=5)
    with running(SQLiteStore(":memory:"), settings) as address, playwright_api.sync_playwright() as p:
        _, room = post(address, "/api/rooms", {"name": "Ana", "rules": rules, "bots": [1, 2]})
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 390, "height": 844})
        page.set_default_timeout(10_000)
        page.add_init_script(f"localStorage.setItem('unomas:{room['code']}', {room['token']!r})")
        page.goto(f"http://{address}/r/{room['code']}")
        page.wait_for_selector("#lobby:not([hidden])")
        page.click("#start")
        page.locator("#hand .card.playable[data-card=R7]").click()
        page.wait_for_selector("#dialog[open]")
        assert page.locator("#dialog-body button").all_inner_texts() == ["bot 2", "bot 3", "Cancel"]
        assert page.text_content("#dialog-body") == "Swap hands withbot 2bot 3Cancel"  # no stray word
        screens(page, "seven-swap-phone")
        page.set_viewport_size({"width": 1280, "height": 800})
        screens(page, "seven-swap-desktop")
        assert axe_problems(page) == []
        browser.close()


@needs_chromium
def test_a_spectator_is_told_why_and_shown_no_controls_of_a_hand(tmp_path_factory: pytest.TempPathFactory) -> None:
    """One spectator found the room full and chose to watch; another came after the start.
    Each is told why they watch, and neither is offered a hand's sort or the keys to play."""
    screens = Screens(tmp_path_factory.mktemp("browser-spectators"))
    settings = Settings(grace=60, bot_delay=5, window=0, round_pause=5)
    with running(SQLiteStore(":memory:"), settings) as address, playwright_api.sync_playwright() as p:
        _, room = post(address, "/api/rooms", {"name": "Ana", "rules": {"players": 3}, "bots": [2]})
        post(address, f"/api/rooms/{room['code']}/join", {"name": "Beto"})
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        link = f"http://{address}/r/{room['code']}"
        ana, early, late = (browser.new_page(viewport={"width": 1280, "height": 800}) for _ in range(3))
        late.set_viewport_size({"width": 390, "height": 844})
        for page in (ana, early, late):
            page.set_default_timeout(10_000)
        ana.add_init_script(f"localStorage.setItem('unomas:{room['code']}', {room['token']!r})")
        ana.goto(link)
        early.goto(link)
        early.wait_for_selector("#join-full:not([hidden])")
        early.click("#watch")
        early.wait_for_selector("#lobby:not([hidden])")
        ana.click("#start")
        ana.wait_for_selector("#hand .card")
        late.goto(link)
        for page, why in (
            (early, "You are watching: every seat was taken when you came."),
            (late, "You are watching: the match had begun when you came."),
        ):
            page.wait_for_selector("#table:not([hidden])")
            page.wait_for_function(f"() => document.querySelector('#status').textContent.includes({why!r})")
            assert page.is_hidden("#sort") and page.is_hidden(".keys")
            assert axe_problems(page) == []
        assert ana.is_visible("#sort") and ana.is_visible(".keys")
        screens(early, "spectator-desktop")
        screens(late, "spectator-phone")
        browser.close()


# Each pair of seat plates that overlap, with how far (px), and the plates not wholly within the window.
OVERLAPS = """() => {
  const overlap = (a, b) => Math.round(Math.min(
    Math.min(a.right, b.right) - Math.max(a.left, b.left), Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top)));
  const rects = [...document.querySelectorAll('#seats .seat')].map((s) => s.getBoundingClientRect());
  const piles = document.querySelector('#piles').getBoundingClientRect();
  const out = [];
  rects.forEach((a, i) => {
    rects.slice(i + 1).forEach((b, k) => { if (overlap(a, b) > 0) out.push([i, i + 1 + k, overlap(a, b)]); });
    if (overlap(a, piles) > 0) out.push([i, 'piles', overlap(a, piles)]);
    if (a.left < 0 || a.top < 0 || a.right > innerWidth) out.push([i, 'outside']);
  });
  return out;
}"""


@needs_chromium
@pytest.mark.parametrize("players", [9, 10])
def test_nine_or_ten_seats_do_not_overlap_on_a_desktop(players: int, tmp_path_factory: pytest.TempPathFactory) -> None:
    """At 1280×800 every seat's plate stands clear of the others and of the piles, within the window."""
    screens = Screens(tmp_path_factory.mktemp("browser-many-seats"))
    settings = Settings(grace=60, bot_delay=5, window=0, round_pause=5)
    with running(SQLiteStore(":memory:"), settings) as address, playwright_api.sync_playwright() as p:
        setup = {"name": "Ana", "rules": {"players": players}, "bots": list(range(1, players))}
        _, room = post(address, "/api/rooms", setup)
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.set_default_timeout(10_000)
        page.add_init_script(f"localStorage.setItem('unomas:{room['code']}', {room['token']!r})")
        page.goto(f"http://{address}/r/{room['code']}")
        page.wait_for_selector("#lobby:not([hidden])")
        page.click("#start")
        page.wait_for_selector("#hand .card")
        screens(page, f"seats-{players}-desktop")
        assert page.locator("#seats .seat").count() == players
        assert page.evaluate(OVERLAPS) == []
        assert axe_problems(page) == []
        browser.close()
