"""unomas.client against a real server: links and tickets, whole matches from the asyncio
client and the blocking one, the ply guard, the server's refusals by code, and a dropped
connection that comes back to its seat."""

from __future__ import annotations

import ast
import asyncio
import contextlib
import itertools
import os
import stat
import sys
import textwrap
import threading
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from codes import raises_code

pytest.importorskip("websockets")

from server_support import running
from unomas import fairness
from unomas.bots import make_bot
from unomas.bots import process as bot_process
from unomas.bots.room import join_with_bot, play_seat
from unomas.cli import app
from unomas.client import (
    LinkError,
    Refused,
    RoomClient,
    RoomLink,
    SimpleSeat,
    Ticket,
    create_room,
    fetch_record,
    join_room,
)
from unomas.client import remote as client_remote
from unomas.errors import BotError, UnoError
from unomas.i18n import translator
from unomas.server.protocol import RoomSetup
from unomas.server.storage import SQLiteStore
from unomas.tui.remote_plain import play_room

QUICK_RULES = {"players": 2, "target_score": 0}


def test_a_room_is_named_by_its_link_its_websocket_or_its_code() -> None:
    assert RoomLink.parse("https://uno.example.org/r/ABCD2345EF/") == RoomLink("https://uno.example.org", "ABCD2345EF")
    assert RoomLink.parse("wss://uno.example.org/ws/abcd2345ef").http == "https://uno.example.org"
    assert RoomLink.parse("abcd2345ef", server="uno.example.org:8000").websocket == (
        "ws://uno.example.org:8000/ws/ABCD2345EF"
    )
    for bad in ("ftp://x/r/ABCD2345EF", "http://x/somewhere", "no spaces here", ""):
        with pytest.raises(LinkError) as caught:
            RoomLink.parse(bad)
        assert caught.value.code == "link.invalid"


def test_a_ticket_is_kept_in_a_file_its_owner_alone_may_read(tmp_path: Path) -> None:
    ticket = Ticket("http://127.0.0.1:8000", "ABCD2345EF", 2, "secret-token-of-the-seat")
    path = tmp_path / "seats" / "ABCD2345EF.json"
    ticket.save(path)
    assert Ticket.load(path) == ticket
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert Ticket.load(tmp_path / "none.json") is None
    path.write_text("{not json")
    assert Ticket.load(path) is None


def first_legal(view: dict[str, Any]) -> dict[str, Any]:
    """The first play the server listed, else its first action (the client never builds one)."""
    legal = view["legal_actions"]
    return dict(next((action for action in legal if action["a"] == "play"), legal[0]))


def test_two_scripts_play_a_match_to_its_end_on_the_blocking_client() -> None:
    with running(SQLiteStore(":memory:")) as address:
        host = SimpleSeat.create(f"http://{address}", "Ana", rules=QUICK_RULES)
        guest = SimpleSeat.join(host.link, "Beto")
        assert host.room is not None and guest.room is not None
        assert (host.room["you"], guest.room["you"]) == (0, 1)

        def play(seat: SimpleSeat) -> None:
            while (view := seat.wait_turn(timeout=30)) is not None:
                try:
                    seat.act(first_legal(view))
                except Refused as refusal:
                    assert refusal.code == "move.stale"

        with host, guest:
            host.start()
            other = threading.Thread(target=play, args=(guest,))
            other.start()
            play(host)
            other.join(30)
            assert host.wait_over(10) is not None and guest.wait_over(10) is not None
            assert host.ticket is not None
            record = fetch_record(host.ticket.room)
        game = fairness.verify(record)
        assert game.is_over and record["names"] == ["Ana", "Beto"] and record["bots"] == []
        assert {e["p"] for r in record["rounds"] for e in r["events"] if "p" in e} == {0, 1}
        assert host.changes and host.changes[-1].narration  # the story, in words


async def seated(address: str, rules: dict[str, Any] = QUICK_RULES) -> tuple[RoomClient, RoomClient]:
    """A two-seat room started, both seats connected."""
    ticket, _ = await asyncio.to_thread(create_room, f"http://{address}", "Ana", rules=rules)
    guest_ticket = await asyncio.to_thread(join_room, ticket.room, "Beto")
    host, guest = RoomClient.of(ticket), RoomClient.of(guest_ticket)
    await host.connect()
    await guest.connect()
    await host.start()
    assert await host.wait_for(lambda: host.view is not None, 10)
    return host, guest


def test_refusals_carry_the_server_s_codes_and_change_nothing() -> None:
    async def scenario(address: str) -> None:
        host, guest = await seated(address)
        watcher = RoomClient(host.link)
        await watcher.connect()
        await guest.wait_for(lambda: guest.view is not None, 10)
        mover = host if host.my_decision() else guest
        other = guest if mover is host else host
        assert mover.view is not None
        ply = mover.view["ply"]
        await mover.act(first_legal(mover.view))
        assert mover.view["ply"] > ply
        with pytest.raises(Refused) as stale:  # the ply guard: that view has passed
            await other.act({"p": other.seat, "a": "draw"}, ply=ply)
        assert stale.value.code == "move.stale" and stale.value.params == {"ply": ply, "now": ply + 1}
        with pytest.raises(Refused) as foreign:
            await other.act({"p": mover.seat, "a": "draw"})
        assert foreign.value.code == "seat.not_yours"
        assert watcher.seat is None
        await watcher.wait_for(lambda: watcher.view is not None, 10)
        with pytest.raises(Refused) as spectator:
            await watcher.act({"p": 0, "a": "draw"})
        assert spectator.value.code == "seat.spectator"
        assert watcher.view is not None and watcher.view["hand"] == [] and watcher.view["legal_actions"] == []
        stranger = RoomClient(host.link, "not-the-token-of-any-seat")
        with pytest.raises(Refused) as bad:
            await stranger.connect()
        assert bad.value.code == "auth.bad_token"
        await stranger.close()
        for client in (host, guest, watcher):
            await client.close()

    with running(SQLiteStore(":memory:")) as address:
        asyncio.run(asyncio.wait_for(scenario(address), 60))


def test_a_dropped_connection_comes_back_to_its_seat_with_the_round_so_far() -> None:
    async def play(client: RoomClient) -> None:
        while (view := await client.wait_turn(30)) is not None:
            try:
                await client.act(first_legal(view))
            except (Refused, client_remote.ConnectionLost):
                await asyncio.sleep(0.05)

    async def scenario(address: str) -> None:
        host, guest = await seated(address, {"players": 2, "target_score": 100})
        both = asyncio.gather(play(host), play(guest))
        await guest.wait_for(lambda: guest.view is not None and guest.view["ply"] >= 6, 30)
        heard = [change.narration for change in guest.changes]
        await guest.drop()
        assert await guest.wait_for(lambda: guest.connects == 2 and guest.room is not None, 10)
        await asyncio.wait_for(both, 60)
        assert guest.seat == 1 and guest.over is not None and guest.failed is None
        assert [change.narration for change in guest.changes[: len(heard)]] == heard  # nothing heard twice
        assert host.connects == 1
        for client in (host, guest):
            await client.close()

    with running(SQLiteStore(":memory:")) as address:
        asyncio.run(asyncio.wait_for(scenario(address), 90))


CLIENT_PACKAGES = ("client",)
SECRETS = ("hands", "drawn", "shown", "accused_guilty")


def test_the_client_never_reads_a_game_s_secrets() -> None:
    package = Path(client_remote.__file__).parent
    for path in sorted(package.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr in SECRETS:
                owner = node.value
                named = owner.id if isinstance(owner, ast.Name) else getattr(owner, "attr", "")
                assert "game" not in named.lower(), f"{path.name}:{node.lineno} reads {named}.{node.attr}"


ROOT = Path(__file__).resolve().parent.parent
RANDOM_BOT = f"cmd:{sys.executable} {ROOT / 'examples' / 'random_bot.py'}"


async def play_first(client: RoomClient) -> None:
    """A simple person: the first play listed, else the first action, until the end."""
    while (view := await client.wait_turn(60)) is not None:
        try:
            await client.act(first_legal(view))
        except (Refused, client_remote.ConnectionLost):
            await asyncio.sleep(0.05)


def test_a_program_takes_the_seat_kept_for_programs_and_plays_it_to_the_end() -> None:
    async def scenario(address: str) -> dict[str, Any]:
        rules = {"players": 3, "target_score": 0}
        ticket, _ = await asyncio.to_thread(create_room, f"http://{address}", "Ana", rules=rules, programs=[1])
        person = await asyncio.to_thread(join_room, ticket.room, "Beto")
        assert person.seat == 2  # people never take a seat kept for programs
        program = asyncio.ensure_future(join_with_bot(ticket.room, make_bot(RANDOM_BOT), "random_bot"))
        host, guest = RoomClient.of(ticket), RoomClient.of(person)
        await host.connect()
        await guest.connect()
        assert await host.wait_for(lambda: host.room is not None and host.room["seats"][1] is not None, 20)
        with pytest.raises(Refused) as full:
            await asyncio.to_thread(join_room, ticket.room, "Carla")
        assert full.value.code == "room.full"
        assert host.room is not None
        assert [seat["program"] for seat in host.room["seats"]] == [False, True, False]
        assert host.room["programs"] == [1]
        await host.start()
        await asyncio.gather(play_first(host), play_first(guest))
        bot_ticket, over = await asyncio.wait_for(program, 30)
        assert bot_ticket.seat == 1 and over is not None and over["reason"] == "target"
        for client in (host, guest):
            await client.close()
        return await asyncio.to_thread(fetch_record, ticket.room)

    with running(SQLiteStore(":memory:")) as address:
        record = asyncio.run(asyncio.wait_for(scenario(address), 120))
    assert fairness.verify(record).is_over
    assert record["names"] == ["Ana", "random_bot", "Beto"] and record["bots"] == []
    assert 1 in {e["p"] for r in record["rounds"] for e in r["events"] if "p" in e}


def test_a_bot_s_dropped_connection_comes_back_to_its_seat() -> None:
    async def scenario(address: str) -> None:
        host, guest = await seated(address, {"players": 2, "target_score": 100})
        bot = asyncio.ensure_future(play_seat(guest, make_bot("heuristic")))
        person = asyncio.ensure_future(play_first(host))
        await guest.wait_for(lambda: guest.view is not None and guest.view["ply"] >= 5, 30)
        await guest.drop()
        over = await asyncio.wait_for(bot, 90)
        await person
        assert over is not None and guest.connects == 2 and guest.seat == 1
        for client in (host, guest):
            await client.close()

    with running(SQLiteStore(":memory:")) as address:
        asyncio.run(asyncio.wait_for(scenario(address), 120))


def test_unomas_bot_joins_a_room_by_its_link_and_keeps_its_ticket(tmp_path: Path) -> None:
    ticket = tmp_path / "seat.json"
    with running(SQLiteStore(":memory:")) as address:
        host_ticket, link = create_room(f"http://{address}", "Ana", rules=QUICK_RULES)
        command = ["bot", "--join", link, "--bot", "heuristic", "--ticket", str(ticket), "--lang", "en"]
        results: list[Any] = []
        bot = threading.Thread(target=lambda: results.append(CliRunner().invoke(app, command)))
        bot.start()

        async def host() -> None:
            client = RoomClient.of(host_ticket)
            await client.connect()
            assert await client.wait_for(lambda: client.room is not None and client.room["seats"][1], 30)
            await client.start()
            await play_first(client)
            await client.close()

        asyncio.run(asyncio.wait_for(host(), 90))
        bot.join(30)
    result = results[0]
    assert result.exit_code == 0, result.output
    assert f"heuristic joins the room {link}." in result.output
    assert "The match is over (seat 2); scores:" in result.output  # seats as people count them, from 1
    kept = Ticket.load(ticket)
    assert kept is not None and kept.code == host_ticket.code and kept.seat == 1


def test_unomas_host_creates_a_room_shares_its_link_and_plays_its_host_seat() -> None:
    with running(SQLiteStore(":memory:")) as address:
        command = ["host", f"http://{address}", "--players", "3", "--set", "target_score=0", "--program-seat", "2"]
        result = CliRunner().invoke(app, [*command, "--name", "Ana", "--lang", "en"], input="\n" + "1\n0\n" * 2000)
    assert result.exit_code == 0, result.output
    assert f"The room's link, to share: http://{address}/r/" in result.output
    assert "wins the match" in result.output and "bot 2" in result.output and "bot 3" in result.output


@pytest.mark.parametrize(
    ("arguments", "words"),
    [
        (["bot", "--join", "nowhere at all", "--bot", "heuristic"], "--join: 'nowhere at all' is not a room's link"),
        (["bot", "--join", "ABCD2345EF", "--bot", "nobody"], "--bot: 'nobody' is not a bot"),
        (["play", "--join", "ftp://x/r/ABCD2345EF"], "--join: 'ftp://x/r/ABCD2345EF' is not a room's link"),
        (
            ["bot", "--join", "ABCD2345EF", "--bot", "heuristic", "--lang", "xx"],
            "--lang: Unknown language: xx. (es, en)",
        ),
        (["host", "http://127.0.0.1:9", "--lang", "xx"], "--lang: Unknown language: xx. (es, en)"),
        (["mcp", "--lang", "xx"], "--lang: Unknown language: xx. (es, en)"),
    ],
)
def test_a_bad_link_spec_or_language_is_one_line_and_status_2(arguments: list[str], words: str) -> None:
    result = CliRunner().invoke(app, [*arguments, *([] if "--lang" in arguments else ["--lang", "en"])])
    assert result.exit_code == 2 and words in result.output and len(result.output.strip().splitlines()) == 1


def test_joining_a_room_that_has_started_is_one_line_in_the_person_s_language() -> None:
    with running(SQLiteStore(":memory:")) as address:
        host = SimpleSeat.create(f"http://{address}", "Ana", rules=QUICK_RULES)
        with host:
            host.start()
            for command in (["play", "--join", host.link], ["bot", "--join", host.link, "--bot", "playfirst"]):
                result = CliRunner().invoke(app, [*command, "--lang", "es"])
                assert result.exit_code == 1 and "La partida ya ha empezado." in result.output, result.output


def test_a_person_in_the_terminal_plays_a_room_to_its_end_through_a_dropped_connection() -> None:
    with running(SQLiteStore(":memory:")) as address:
        host = SimpleSeat.create(f"http://{address}", "Ana", rules={"players": 2, "target_score": 100})
        person = SimpleSeat.join(host.link, "Beto", lang="es")
        answers = itertools.chain(["99", "x", "", "0"], itertools.cycle(["1", "0"]))  # no view lists 100 actions
        lines: list[str] = []
        ended: list[dict[str, Any] | None] = []
        asked_connected: list[bool] = []

        def read(prompt: str) -> str:
            lines.append(prompt)
            asked_connected.append(person.client.connected)
            answer = next(answers)
            if len(asked_connected) == 4:  # the connection drops as the person answers
                asyncio.run_coroutine_threadsafe(person.client.drop(), person.loop).result(10)
            return answer

        with host, person:
            host.start()
            terminal = threading.Thread(
                target=lambda: ended.append(play_room(person, translator("es"), read, lines.append))
            )
            terminal.start()
            while (view := host.wait_turn(timeout=30)) is not None:
                with contextlib.suppress(Refused):
                    host.act(first_legal(view))
            terminal.join(30)
            assert ended and ended[0] is not None and ended[0]["type"] == "over"
            assert person.client.connects == 2 and person.room is not None and person.room["you"] == 1
    assert "Se perdió la conexión; reconectando…" in lines
    assert all(asked_connected)  # nothing asked while the connection was being restored
    assert "No hay ninguna acción 99." in lines and "No hay ninguna acción x." not in lines  # x: a challenge
    assert any(line.startswith("Tu acción: su número o su letra") for line in lines)
    assert any("gana la partida" in line for line in lines)
    assert lines.count("Ronda 1: reparte Ana.") == 1  # nothing told twice after the reconnection


@pytest.mark.parametrize(
    ("setup", "code"),
    [
        ({"programs": [0]}, "setup.bot_seat"),
        ({"programs": [1, 1]}, "setup.seat_twice"),
        ({"bots": [1], "programs": [1]}, "setup.program_and_bot"),
    ],
)
def test_a_seat_kept_for_a_program_is_one_of_the_guests_seats_and_no_bot_s(setup: dict[str, Any], code: str) -> None:
    with raises_code(UnoError, code):
        RoomSetup(name="Ana", rules={"players": 3}, **setup).check_seats()


def test_the_codes_of_the_clients_and_the_agents_have_words_in_both_languages() -> None:
    from unomas.i18n import error_messages, error_text

    for code in ("link.invalid", "client.connection_lost", "table.unknown"):
        assert code in error_messages("en") and error_messages("es")[code] != error_messages("en")[code]
    assert error_text("link.invalid", {"text": "'x y'"}, "es") == (
        "'x y' no es el enlace de una sala, ni su código, ni la dirección de un servidor."
    )


@pytest.mark.parametrize(
    ("arguments", "module", "words"),
    [
        (["mcp"], "unomas.agents.server", "El servidor MCP necesita su extra: pip install 'unomas[mcp]'"),
        (["bot", "--join", "ABCD2345EF", "--bot", "random"], "unomas.bots.room", "El cliente necesita su extra"),
        (["play", "--join", "ABCD2345EF"], "unomas.tui.remote_plain", "El cliente necesita su extra"),
    ],
)
def test_a_missing_extra_is_one_line_in_the_reader_s_language(
    monkeypatch: pytest.MonkeyPatch, arguments: list[str], module: str, words: str
) -> None:
    monkeypatch.setitem(sys.modules, module, None)  # importing it fails, as without its extra
    result = CliRunner().invoke(app, [*arguments, "--lang", "es"])
    assert result.exit_code == 1 and words in result.output and len(result.output.strip().splitlines()) == 1


def test_a_client_told_to_keep_nothing_hears_the_match_but_holds_no_change() -> None:
    async def scenario(address: str) -> None:
        ticket, _ = await asyncio.to_thread(create_room, f"http://{address}", "Ana", rules=QUICK_RULES)
        guest_ticket = await asyncio.to_thread(join_room, ticket.room, "Beto")
        host, guest = RoomClient.of(ticket), RoomClient.of(guest_ticket, keep_changes=False)
        await host.connect()
        await guest.connect()
        await host.start()
        await asyncio.gather(play_first(host), play_first(guest))
        assert host.changes and not host.inbox.empty()
        assert guest.over is not None and guest.updates > 1
        assert guest.changes == [] and guest.inbox.empty()
        for client in (host, guest):
            await client.close()

    with running(SQLiteStore(":memory:")) as address:
        asyncio.run(asyncio.wait_for(scenario(address), 120))


def test_a_seat_cancelled_just_as_its_answer_arrives_is_cancelled() -> None:
    """The answer and the cancellation in one turn of the loop: the cancellation wins (it
    was once lost, and a benchmark's seat played on after being stopped)."""

    class Socket:
        async def send(self, text: str) -> None:
            pass

    async def scenario() -> None:
        client = RoomClient(RoomLink.parse("ws://127.0.0.1:1/ws/ABCD2345EF"), "token")
        client.view = {"ply": 3, "legal_actions": [{"p": 0, "a": "draw"}]}
        client._socket = Socket()
        acting = asyncio.ensure_future(client.act({"p": 0, "a": "draw"}))
        while not client._pending:
            await asyncio.sleep(0)
        ref = next(iter(client._pending))
        client._answer(ref, result={"type": "update", "ref": ref})
        acting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await acting

    asyncio.run(scenario())


def test_a_program_whose_move_the_room_refuses_is_ended_and_its_refusal_is_the_reason(tmp_path: Path) -> None:
    """The same rule as in a tournament: a protocol-2 program that answers an illegal move
    is killed at once (never kept for another match) and its seat's play stops with the reason."""
    pids = tmp_path / "pids"
    body = f"""
    import json, os, sys
    open({str(pids)!r}, "a").write(f"{{os.getpid()}}\\n")
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] in ("hello", "match"):
            answer = {{"type": "ready", "protocol": "unomas-bot/2"}}
        elif message["type"] == "act":
            answer = {{"type": "action", "action": {{"p": message["view"]["seat"], "a": "pass"}}}}
        elif message["type"] == "react":
            answer = {{"type": "action", "action": None}}
        else:
            continue
        print(json.dumps(answer), flush=True)
    """
    (tmp_path / "cheat.py").write_text(textwrap.dedent(body))
    spec = f"cmd:{sys.executable} {tmp_path / 'cheat.py'}"

    async def scenario(address: str) -> None:
        host, guest = await seated(address)
        person = asyncio.ensure_future(play_first(host))
        with raises_code(BotError, "bot.refused") as failed:
            await asyncio.wait_for(play_seat(guest, make_bot(spec)), 60)
        assert failed.value.params["cause_code"] == "move.pass_not_allowed"
        person.cancel()
        for client in (host, guest):
            await client.close()

    with running(SQLiteStore(":memory:")) as address:
        asyncio.run(asyncio.wait_for(scenario(address), 90))
    (pid,) = map(int, pids.read_text().split())
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)  # ended, not kept idle for another match
    assert not any(idle for key, idle in bot_process.IDLE.items() if key[0][-1].endswith("cheat.py"))


def test_unomas_bot_seats_a_program_under_the_name_its_hello_gives(tmp_path: Path) -> None:
    body = """
    import json, sys
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] in ("hello", "match"):
            answer = {"type": "ready", "name": "Zorro", "protocol": "unomas-bot/2"}
        elif message["type"] == "act":
            legal = message["view"]["legal_actions"]
            answer = {"type": "action", "action": next((a for a in legal if a["a"] == "play"), legal[0])}
        elif message["type"] == "react":
            answer = {"type": "action", "action": None}
        else:
            continue
        print(json.dumps(answer), flush=True)
    """
    (tmp_path / "zorro.py").write_text(textwrap.dedent(body))
    spec = f"cmd:{sys.executable} {tmp_path / 'zorro.py'}"
    with running(SQLiteStore(":memory:")) as address:
        host_ticket, link = create_room(f"http://{address}", "Ana", rules=QUICK_RULES, programs=[1])
        results: list[Any] = []
        command = ["bot", "--join", link, "--bot", spec, "--lang", "en"]
        bot = threading.Thread(target=lambda: results.append(CliRunner().invoke(app, command)))
        bot.start()

        async def host() -> list[str]:
            client = RoomClient.of(host_ticket)
            await client.connect()
            assert await client.wait_for(lambda: client.room is not None and client.room["seats"][1], 30)
            assert client.room is not None
            names = [seat["name"] for seat in client.room["seats"]]
            await client.start()
            await play_first(client)
            await client.close()
            return names

        names = asyncio.run(asyncio.wait_for(host(), 90))
        bot.join(30)
    assert names == ["Ana", "Zorro"]
    assert results[0].exit_code == 0, results[0].output
    assert f"Zorro joins the room {link}." in results[0].output


def test_a_person_at_a_room_s_lines_answers_with_the_letters_of_the_local_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """d draws, p passes, as at a local table; a letter the view does not offer gets the
    server's reason; on the person's own turn nothing says a chance may be let go."""
    monkeypatch.setattr(fairness, "new_seed", lambda: b"letters" * 4)  # no Wild Draw Four to challenge at first
    with running(SQLiteStore(":memory:")) as address:
        host = SimpleSeat.create(f"http://{address}", "Ana", rules={"players": 2, "target_score": 0})
        person = SimpleSeat.join(host.link, "Beto", lang="es")
        answers = iter(["x", "d", "p", "d", "p"])
        prompts: list[str] = []
        lines: list[str] = []

        def read(prompt: str) -> str:
            prompts.append(prompt)
            answer = next(answers, None)
            if answer is None:
                raise EOFError
            return answer

        with host, person:
            host.start()
            terminal = threading.Thread(target=lambda: play_room(person, translator("es"), read, lines.append))
            terminal.start()
            while terminal.is_alive() and (view := host.wait_turn(timeout=5)) is not None:
                with contextlib.suppress(Refused):
                    host.act(first_legal(view))
            terminal.join(30)
    assert not any(line.startswith("No hay ninguna acción") for line in lines), lines
    assert "no hay ningún Comodín roba cuatro que desafiar" in lines  # x: the server's reason
    assert sum(line.startswith("Beto roba") for line in lines) >= 2  # d, twice (p kept or was refused)
    assert prompts and not any("deja pasar" in prompt for prompt in prompts)


def test_the_host_s_lines_say_when_a_person_leaves_and_a_bot_takes_their_seat() -> None:
    """The host hears, in its language, that a joiner lost the connection and that a bot
    plays for them once the grace period is over."""
    with running(SQLiteStore(":memory:")) as address:
        host = SimpleSeat.create(f"http://{address}", "Ana", lang="es", rules={"players": 2, "target_score": 0})
        person = SimpleSeat.join(host.link, "Beto")
        lines: list[str] = []
        answers = itertools.count()

        def read(_: str) -> str:
            if next(answers) > 100 or any("un bot juega" in line for line in lines):
                raise EOFError
            return "0"

        with host:
            host.start()
            person.close()  # Beto closes the terminal
            play_room(host, translator("es"), read, lines.append)
    assert "Beto perdió la conexión." in lines, lines
    assert "Beto no está: un bot juega por su asiento." in lines, lines


def test_unomas_host_s_usage_errors_are_one_line_in_the_reader_s_language_and_exit_2() -> None:
    with running(SQLiteStore(":memory:")) as address:
        seat = CliRunner().invoke(app, ["host", f"http://{address}", "--bot-seat", "1", "--lang", "es", "--plain"])
    assert seat.exit_code == 2, seat.output
    assert seat.output == "--bot-seat 1: los asientos van del 1 al 4, y el 1 es el tuyo\n"
    setting = CliRunner().invoke(app, ["host", "http://127.0.0.1:9", "--set", "jump_in=maybe", "--lang", "es"])
    assert setting.exit_code == 2 and setting.output.count("\n") == 1, setting.output
    assert setting.output == "jump_in debe ser true o false, no 'maybe'.\n"
