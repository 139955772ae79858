"""Every kind of player at one table of a real ``unomas serve``: a person in chromium (the
host), a person in the terminal (``unomas play --join``), a program bot (``unomas bot
--join --bot cmd:...``) and an AI agent (the MCP SDK's own client over stdio, choosing among
the listed actions). The match is played to its end; the browser reloads on the way and
keeps its seat; the record downloaded passes ``unomas replay --verify``."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp")
pytest.importorskip("playwright.sync_api")
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from server_support import free_port
from test_mcp import call, choice
from test_server_browser import ARGS, CHROMIUM, CLICKS, STEP, playwright_api
from unomas.client import RoomLink, room_info

ROOT = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
UNOMAS = [sys.executable, "-m", "unomas"]
RANDOM_BOT = f"cmd:{sys.executable} {ROOT / 'examples' / 'random_bot.py'}"


def agent_plays(link: str, outcome: dict[str, Any]) -> None:
    """The agent's whole match, over stdio, in a thread of its own."""

    async def play() -> None:
        server = StdioServerParameters(command=sys.executable, args=["-m", "unomas", "mcp"], env=ENV, cwd=str(ROOT))
        async with Client(server) as agent:
            state = await call(agent, "join_room", link=link, name="Dana")
            outcome["seat"] = state["seat"]
            while not state["over"]:
                state = await call(agent, "wait", timeout=60)
                if state["ready"] and not state["over"]:
                    outcome["turns"] = outcome.get("turns", 0) + 1
                    result = await agent.call_tool("act", {"action_id": choice(state), "ply": state["ply"]})
                    if result.is_error:  # overtaken by another seat: look again
                        text = result.content[0].text  # type: ignore[union-attr]
                        outcome.setdefault("refusals", []).append(json.loads(text[text.index("{") :])["code"])
            outcome["record"] = await call(agent, "get_record")

    try:
        asyncio.run(asyncio.wait_for(play(), 300))
    except BaseException as error:  # reported by the test
        outcome["error"] = error


@pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (.ci/run installs it)")
def test_a_browser_a_terminal_a_program_and_an_agent_play_one_match_to_a_verified_record(tmp_path: Path) -> None:
    port = free_port()
    http = f"http://127.0.0.1:{port}"
    serve = [*UNOMAS, "serve", "--port", str(port), "--db", str(tmp_path / "rooms.sqlite3")]
    server = subprocess.Popen([*serve, "--bot-delay", "0.05", "--grace", "60"], env=ENV, stderr=subprocess.DEVNULL)
    others: list[subprocess.Popen[bytes]] = []
    logs = [(tmp_path / "terminal.txt").open("wb"), (tmp_path / "bot.txt").open("wb")]  # a pipe could fill up
    try:
        deadline = time.monotonic() + 20
        while True:
            with contextlib.suppress(OSError):
                urllib.request.urlopen(f"{http}/healthz", timeout=1).close()
                break
            assert time.monotonic() < deadline, "unomas serve did not start"
            time.sleep(0.1)
        with playwright_api.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            page = browser.new_context(viewport={"width": 1100, "height": 900}).new_page()
            page.set_default_timeout(15_000)
            # The host creates the room in the browser: four seats, one round.
            page.goto(f"{http}/")
            page.fill("#create-form input[name=name]", "Ana")
            page.fill("#create-form input[name=players]", "4")
            page.fill("#create-form input[name=target_score]", "0")
            page.click("#create-form button[type=submit]")
            page.wait_for_selector("#lobby:not([hidden])")
            link = page.input_value("#link")
            room = RoomLink.parse(link)

            # A person in the terminal, a program bot and an agent join by the link.
            terminal = subprocess.Popen(
                [*UNOMAS, "play", "--join", link, "--name", "Beto", "--lang", "en"],
                env=ENV | {"UNOMAS_DATA": str(tmp_path)},  # where it keeps the seat's ticket
                stdin=subprocess.PIPE,
                stdout=logs[0],
                stderr=subprocess.STDOUT,
            )
            others.append(terminal)
            assert terminal.stdin is not None
            terminal.stdin.write(b"1\n0\n" * 600)  # a play when there is one, else the first action listed
            terminal.stdin.flush()
            bot = subprocess.Popen(
                [*UNOMAS, "bot", "--join", link, "--bot", RANDOM_BOT, "--name", "random_bot"],
                env=ENV,
                stdout=logs[1],
                stderr=subprocess.STDOUT,
            )
            others.append(bot)
            outcome: dict[str, Any] = {}
            agent = threading.Thread(target=agent_plays, args=(link, outcome), daemon=True)
            agent.start()
            deadline = time.monotonic() + 60
            while not all(room_info(room)["seats"]):
                assert time.monotonic() < deadline and "error" not in outcome, outcome
                time.sleep(0.2)
            seats = room_info(room)["seats"]
            assert {seat["name"] for seat in seats} == {"Ana", "Beto", "random_bot", "Dana"}
            assert [seat["program"] for seat in seats if seat["name"] in ("random_bot", "Dana")] == [True, True]
            page.wait_for_function("() => document.querySelectorAll('#lobby-seats li').length === 4")
            page.click("#start")
            page.wait_for_selector("#hand .card")

            reloaded = False
            deadline = time.monotonic() + 300
            while (step := page.evaluate(STEP)) != "over":
                assert time.monotonic() < deadline, "the match did not end in time"
                assert "error" not in outcome, outcome
                if not reloaded and step == "play":  # the browser's connection dropped: same seat
                    page.reload()
                    page.wait_for_selector("#hand .card")
                    reloaded = True
                elif step == "draw":
                    page.keyboard.press("d")
                elif step == "pass":
                    page.keyboard.press("p")
                elif step in CLICKS:
                    with contextlib.suppress(playwright_api.TimeoutError):
                        page.locator(CLICKS[step]).first.click(timeout=1000)
                else:
                    page.wait_for_timeout(30)
            page.wait_for_function("() => document.querySelector('#fairness').textContent.includes('--verify')")
            browser.close()
        agent.join(60)
        assert "error" not in outcome and "record" in outcome, outcome
        bot.wait(60)
        terminal.stdin.close()
        terminal.wait(60)
    finally:
        for process in [*others, server]:
            process.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(10)
        for log in logs:
            log.close()
    bot_out = (tmp_path / "bot.txt").read_text()
    assert bot.returncode == 0 and "The match is over" in bot_out, bot_out
    terminal_out = (tmp_path / "terminal.txt").read_text()
    assert terminal.returncode == 0 and "wins the match" in terminal_out, terminal_out[-2000:]
    # Overtaken by another seat: a stale ply, or at most once the move that ended the match.
    refusals = outcome.get("refusals", [])
    assert outcome["turns"] > 0 and set(refusals) <= {"move.stale", "match.over"}
    assert "match.over" not in refusals[:-1], refusals

    record = outcome["record"]
    by_name = {name: seat for seat, name in enumerate(record["names"])}
    moved = {e["p"] for r in record["rounds"] for e in r["events"] if "p" in e}
    assert {by_name["Ana"], by_name["Beto"], by_name["random_bot"], by_name["Dana"]} <= moved
    assert record["bots"] == [] and record["winner"] is not None
    path = tmp_path / "match.json"
    path.write_text(json.dumps(record))
    verified = subprocess.run([*UNOMAS, "replay", "--verify", str(path)], env=ENV, capture_output=True, text=True)
    assert verified.returncode == 0, verified.stdout + verified.stderr
