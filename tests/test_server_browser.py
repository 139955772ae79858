"""End to end in a real browser (Debian's chromium through Playwright): two people create
and join a room, play a whole match with a bot, by mouse and keyboard; screenshots are
saved in ``test-artifacts/`` at the repository's root."""

from __future__ import annotations

import contextlib
import re
import shutil
import time
from pathlib import Path

import pytest

from server_support import running
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
# actions the view offered (a refusal can then only be a race lost to another seat).
KEEP_ERRORS = """(() => {
  window.unomasErrors = [];
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (event) => {
        const message = JSON.parse(event.data);
        if (message.type === 'error') window.unomasErrors.push(message.message);
      });
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
            assert all(re.match(r"\d+ (play|draw|pass|uno|catch|challenge|color)\b", e) for e in errors), errors
        record = host.evaluate("fetch(document.querySelector('#over-banner a').href).then((r) => r.json())")
        assert record["winner"] is not None and record["names"][:2] == ["Ana", "Beto"]
        browser.close()
    assert (ARTIFACTS / "browser-table.png").stat().st_size > 10_000
