"""End to end in a real browser (Debian's chromium through Playwright): two people create
and join a room, play a whole match with a bot, by mouse and keyboard; a refusal is shown
in the page's language; screenshots are saved in ``test-artifacts/`` at the repository's root."""

from __future__ import annotations

import contextlib
import shutil
import time
from pathlib import Path

import pytest

from server_support import post, running
from unomas.i18n.switches import switch_groups
from unomas.rules import Rules
from unomas.server.rooms import Settings
from unomas.server.storage import SQLiteStore

playwright_api = pytest.importorskip("playwright.sync_api")

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts"
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

# One step of a player: whatever the page offers now, as a person would pick it.
STEP = """() => {
  if (document.querySelector('#over-banner')) return 'over';
  if (document.querySelector('#dialog[open]')) return 'dialog';
  if (document.querySelector('#actions [data-a=uno]')) return 'uno';
  if (document.querySelector('#actions [data-a=color]')) return 'color';
  if (document.querySelector('#hand .card.playable')) return 'play';
  if (document.querySelector('#actions [data-a=draw]')) return 'draw';
  if (document.querySelector('#actions [data-a=pass]')) return 'pass';
  return 'wait';
}"""


# Every error the server sends a page is kept, to check that the page only ever sent
# actions the view offered (a refusal can then only be a race lost to another seat), and
# every action it sent, to check that each names the ply of the view it answers.
KEEP_ERRORS = """(() => {
  window.unomasErrors = [];
  window.unomasSent = [];
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
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

CLICKS = {
    "dialog": "#dialog-body button",
    "uno": "#actions [data-a=uno]",
    "color": "#actions [data-a=color]",
    "play": "#hand .card.playable",
}


@pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (.ci/run installs it)")
def test_two_people_and_a_bot_play_a_match_in_the_browser() -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    settings = Settings(grace=60, bot_delay=0.05, round_pause=0.2)
    with running(SQLiteStore(":memory:"), settings) as address, playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        host = browser.new_context(viewport={"width": 1100, "height": 900}).new_page()
        guest = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True).new_page()
        for page in (host, guest):
            page.set_default_timeout(15_000)
            page.add_init_script(KEEP_ERRORS)

        # The host creates a room: three seats, the third a bot, one round, jump-in on.
        host.goto(f"http://{address}/")
        host.fill("#create-form input[name=name]", "Ana")
        host.fill("#create-form input[name=players]", "3")
        host.check("#bot-seats input[value='2']")
        host.fill("#create-form input[name=target_score]", "0")
        # The house rules are the server's list: grouped, each explained, the official ones on.
        groups = switch_groups("en")
        assert host.locator("#switches fieldset legend").all_text_contents() == [g.title for g in groups]
        for switch in (s for g in groups for s in g.switches):
            box = host.locator(f"#switches input[name={switch.name}]")
            assert box.is_checked() == getattr(Rules.preset("official"), switch.name)
            assert host.text_content(f"#{box.get_attribute('aria-describedby')}") == switch.explanation
        host.screenshot(path=str(ARTIFACTS / "browser-create.png"), full_page=True)
        host.check("#switches input[name=jump_in]")
        host.click("#create-form button[type=submit]")
        host.wait_for_selector("#lobby:not([hidden])")
        link = host.input_value("#link")
        assert link.startswith(f"http://{address}/r/")

        # A friend opens the link, in Spanish, and joins by name.
        guest.goto(link)
        guest.select_option("#lang", "es")
        guest.wait_for_selector("#join:not([hidden])")
        assert guest.text_content("#join-form button") == "Unirse"
        guest.fill("#join-form input[name=name]", "Beto")
        guest.click("#join-form button")
        guest.wait_for_selector("#lobby:not([hidden])")
        host.wait_for_function("document.querySelectorAll('#lobby-seats li').length === 3")
        assert "Beto" in host.text_content("#lobby-seats")

        host.click("#start")
        for page in (host, guest):
            page.wait_for_selector("#table:not([hidden])")
            page.wait_for_selector("#hand .card")
        # A reload comes back to the same seat, with the round so far in its log.
        guest.reload()
        guest.wait_for_selector("#hand .card")
        guest.wait_for_function("document.querySelectorAll('#log li').length > 0")
        assert guest.locator("#log li").first.text_content().startswith("Ronda 1:")
        assert "SHA-256" in host.text_content("#fairness")

        deadline = time.monotonic() + 240
        done = {"host": False, "guest": False}
        shot = False
        while not all(done.values()):
            if time.monotonic() > deadline:
                host.screenshot(path=str(ARTIFACTS / "browser-stuck-host.png"))
                guest.screenshot(path=str(ARTIFACTS / "browser-stuck-guest.png"))
                raise AssertionError(f"the match did not end in time (see {ARTIFACTS}/browser-stuck-*.png)")
            for name, page in (("host", host), ("guest", guest)):
                if done[name]:
                    continue
                step = page.evaluate(STEP)
                if step == "over":
                    done[name] = True
                elif step == "play" and not shot:
                    host.screenshot(path=str(ARTIFACTS / "browser-table.png"))
                    guest.screenshot(path=str(ARTIFACTS / "browser-table-phone.png"))
                    shot = True
                elif step == "draw":
                    page.keyboard.press("d")  # the keyboard shortcut for Draw
                elif step == "pass":
                    page.keyboard.press("p")
                elif step == "dialog" and not page.evaluate(FOCUS_IN_DIALOG):
                    raise AssertionError("a dialog opened without the focus in it")
                elif step in CLICKS:
                    # The moment may pass (another seat moved first): then look again.
                    with contextlib.suppress(playwright_api.TimeoutError):
                        page.locator(CLICKS[step]).first.click(timeout=1000)
                else:
                    page.wait_for_timeout(30)

        host.screenshot(path=str(ARTIFACTS / "browser-match-over.png"))
        for page in (host, guest):
            page.wait_for_function("document.querySelector('#fairness').textContent.includes('--verify')")
        assert "Fin de la partida" in guest.text_content("#over-banner")
        assert host.locator("#log li").count() > 5  # the narration of the match
        for page in (host, guest):
            errors = page.evaluate("window.unomasErrors")
            assert set(errors) <= {"move.stale"}, errors
            sent = page.evaluate("window.unomasSent")
            assert sent and all(isinstance(message["ply"], int) for message in sent)
        record = host.evaluate("fetch(document.querySelector('#over-banner a').href).then((r) => r.json())")
        assert record["winner"] is not None and record["names"][:2] == ["Ana", "Beto"]
        browser.close()
    assert (ARTIFACTS / "browser-table.png").stat().st_size > 10_000


@pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (.ci/run installs it)")
def test_a_refusal_is_shown_in_the_page_s_language() -> None:
    """Joining a room that filled up meanwhile, in Spanish: the server's code, Spanish words."""
    with running(SQLiteStore(":memory:")) as address, playwright_api.sync_playwright() as p:
        _, room = post(address, "/api/rooms", {"name": "Ana", "rules": {"players": 2}})
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page()
        page.set_default_timeout(15_000)
        page.goto(f"http://{address}/r/{room['code']}")
        page.select_option("#lang", "es")
        page.wait_for_selector("#join:not([hidden])")
        page.fill("#join-form input[name=name]", "Carla")
        status, _ = post(address, f"/api/rooms/{room['code']}/join", {"name": "Beto"})  # the last seat goes
        assert status == 200
        page.click("#join-form button")
        page.wait_for_selector("#error:not([hidden])")
        assert page.text_content("#error") == "La sala está llena."
        page.goto(f"http://{address}/r/NOPE00")  # an unknown room, told in Spanish too
        page.wait_for_function("document.querySelector('#error').textContent.includes('NOPE00')")
        assert page.text_content("#error") == "No hay ninguna sala NOPE00."
        browser.close()
