"""The server facing the open internet, measured on a real server with raw sockets:
spoofed forwarded headers, huge and slow request heads, idle and crowding sockets."""

from __future__ import annotations

import json
import logging
import socket
import threading
import time
from dataclasses import replace
from typing import Any

import pytest

pytest.importorskip("uvicorn")

from server_support import running
from unomas.server.rooms import Settings
from unomas.server.storage import SQLiteStore
from unomas.server.transport import not_rate_limited

QUICK = Settings(grace=30, bot_delay=0, window=0, round_pause=0, refusal_delay=0)


def connect(address: str, source: str = "127.0.0.1") -> socket.socket:
    """A raw TCP connection to ``address`` from the loopback address ``source``."""
    host, port = address.rsplit(":", 1)
    sock = socket.socket()
    sock.settimeout(10)
    sock.bind((source, 0))
    sock.connect((host, int(port)))
    return sock


def exchange(address: str, request: bytes, source: str = "127.0.0.1") -> tuple[int, bytes]:
    """Send ``request`` on a new connection; the status and body of the answer."""
    with connect(address, source) as sock:
        sock.sendall(request)
        return read_response(sock)


def read_response(sock: socket.socket) -> tuple[int, bytes]:
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError(f"closed after {data!r}")
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = next(
        (int(line.split(b":")[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:")), 0
    )
    while len(body) < length:
        body += sock.recv(65536)
    return int(head.split(b" ")[1]), body


def create_request(name: str = "Ana", *headers: str) -> bytes:
    body = json.dumps({"name": name}).encode()
    lines = ["POST /api/rooms HTTP/1.1", "Host: 127.0.0.1", "Content-Type: application/json", *headers]
    lines.append(f"Content-Length: {len(body)}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


def closed_within(sock: socket.socket, seconds: float) -> bool:
    """Whether the server closes ``sock`` within ``seconds`` (whatever it says first)."""
    sock.settimeout(seconds)
    try:
        while sock.recv(65536):
            pass
    except TimeoutError:
        return False
    except ConnectionResetError:
        pass
    return True


def error_code(body: bytes) -> Any:
    return json.loads(body)["error"]["code"]


@pytest.mark.parametrize("trusted", [frozenset[str](), frozenset({"127.0.0.1"})])
def test_a_forwarded_header_names_the_client_only_through_a_trusted_proxy(trusted: frozenset[str]) -> None:
    """Twelve creates from the loopback, each claiming another client: without
    ``--trust-proxy`` they all count as the loopback, whose burst is ten."""
    with running(SQLiteStore(":memory:"), replace(QUICK, trusted_proxies=trusted, max_rooms_held=20)) as address:
        statuses = [exchange(address, create_request("Ana", f"X-Forwarded-For: 203.0.113.{n}"))[0] for n in range(12)]
    if trusted:
        assert statuses == [200] * 12
    else:
        assert statuses == [200] * 10 + [429] * 2


def test_a_request_head_over_the_cap_is_refused_431_with_its_code() -> None:
    with running(SQLiteStore(":memory:"), QUICK) as address:
        huge = create_request("Ana", "X-Pad: " + "a" * 100_000)
        status, body = exchange(address, huge)
        assert status == 431 and error_code(body) == "request.head_too_large"
        many = create_request("Ana", *(f"X-{n}: 1" for n in range(101)))
        status, body = exchange(address, many)
        assert status == 431 and error_code(body) == "request.too_many_headers"
        lines = b"".join(b"X-%d: 1\r\n" % n for n in range(10_000))
        sent = 0
        with connect(address) as sock, pytest.raises(OSError):  # closed once the head passes the cap
            sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            while sent < 64_000_000:  # a head that never ends
                sock.sendall(lines)
                sent += len(lines)
        with connect(address) as sock, pytest.raises(OSError):  # one header line that never ends
            sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Long: ")
            for _ in range(64_000):
                sock.sendall(b"a" * 1000)
        assert exchange(address, create_request("Bea", *(f"X-{n}: 1" for n in range(90))))[0] == 200


def test_a_client_over_its_rate_waits_for_its_refusal_and_nobody_else_waits() -> None:
    settings = replace(QUICK, create_rate=(0.01, 1), refusal_delay=1.5)
    with running(SQLiteStore(":memory:"), settings) as address:
        assert exchange(address, create_request("Ana"))[0] == 200
        finished: list[str] = []

        def refused() -> None:
            status, body = exchange(address, create_request("Ana"))
            assert status == 429 and error_code(body) == "client.limited"
            finished.append("refused")

        started = time.monotonic()
        flooder = threading.Thread(target=refused)
        flooder.start()
        time.sleep(0.2)
        assert exchange(address, create_request("Bea"), "127.0.0.2")[0] == 200
        finished.append("other")
        flooder.join()
        assert finished == ["other", "refused"] and time.monotonic() - started >= 1.5


def test_the_access_log_leaves_out_the_rate_limits_refusals() -> None:
    def line(status: int) -> logging.LogRecord:
        args = ("127.0.0.1:5000", "POST", "/api/rooms", "1.1", status)
        return logging.LogRecord("uvicorn.access", logging.INFO, "", 0, '%s - "%s %s HTTP/%s" %d', args, None)

    assert not_rate_limited(line(200)) and not_rate_limited(line(404)) and not not_rate_limited(line(429))


def test_slow_and_silent_connections_are_closed_at_the_head_deadline() -> None:
    settings = replace(QUICK, header_timeout=0.5)
    with running(SQLiteStore(":memory:"), settings) as address:
        silent = connect(address)
        slow = connect(address)
        slow.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        started = time.monotonic()
        for _ in range(3):  # a header every so often does not buy more time
            time.sleep(0.1)
            slow.sendall(b"X-Slow: 1\r\n")
        assert closed_within(silent, 3) and closed_within(slow, 3)
        assert time.monotonic() - started < 3
        silent.close()
        slow.close()


def test_a_body_that_does_not_come_is_refused_at_its_deadline() -> None:
    settings = replace(QUICK, body_timeout=0.5)
    with running(SQLiteStore(":memory:"), settings) as address, connect(address) as sock:
        sock.sendall(create_request("Ana").replace(b"Content-Length: 14", b"Content-Length: 400")[:-4])
        status, body = read_response(sock)
        assert status == 408 and error_code(body) == "body.late"


def test_an_idle_keep_alive_connection_is_closed() -> None:
    settings = replace(QUICK, idle_timeout=1)
    with running(SQLiteStore(":memory:"), settings) as address, connect(address) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert read_response(sock)[0] == 200
        assert closed_within(sock, 3)


def test_one_address_holds_only_so_many_sockets_of_any_kind() -> None:
    settings = replace(QUICK, max_sockets=5)
    with running(SQLiteStore(":memory:"), settings) as address:
        silent = [connect(address) for _ in range(5)]
        time.sleep(0.2)
        with connect(address, "127.0.0.3") as other:
            other.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            assert json.loads(read_response(other)[1])["sockets"] == 6
        status, body = exchange(address, b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert status == 429 and error_code(body) == "client.limited"
        # another address is not held up by this one's sockets
        assert exchange(address, b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", "127.0.0.2")[0] == 200
        for sock in silent:
            sock.close()
        time.sleep(0.2)
        assert exchange(address, b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")[0] == 200


def test_an_origin_of_the_other_scheme_is_refused() -> None:
    with running(SQLiteStore(":memory:"), QUICK) as address:

        def create_from(origin: str) -> tuple[int, bytes]:
            request = create_request("Ana", f"Origin: {origin}")
            return exchange(address, request.replace(b"Host: 127.0.0.1", f"Host: {address}".encode()))

        status, body = create_from(f"https://{address}")
        assert status == 403 and error_code(body) == "origin.forbidden"
        assert create_from(f"http://{address}")[0] == 200


def test_a_host_not_allowed_is_refused_so_dns_rebinding_reaches_nothing() -> None:
    """A page of ``evil.example`` whose name now resolves to the server sends ``Host:
    evil.example`` and its own origin: refused, on HTTP and WebSocket alike. Addresses and
    the allowed names are served."""
    settings = replace(QUICK, allowed_hosts=frozenset({"localhost", "uno.example"}))
    with running(SQLiteStore(":memory:"), settings) as address:
        port = address.rsplit(":", 1)[1]
        rebound = [f"Host: evil.example:{port}", f"Origin: http://evil.example:{port}"]
        request = create_request("Ana", *rebound).replace(b"Host: 127.0.0.1\r\n", b"")
        status, body = exchange(address, request)
        assert status == 421 and error_code(body) == "host.unknown"
        page = exchange(address, f"GET / HTTP/1.1\r\nHost: evil.example:{port}\r\n\r\n".encode())
        assert page[0] == 421
        upgrade = (
            f"GET /ws/ABCDEFGHJK HTTP/1.1\r\nHost: evil.example:{port}\r\nOrigin: http://evil.example:{port}\r\n"
            "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n"
        )
        status, body = exchange(address, upgrade.encode())
        assert status == 421 and error_code(body) == "host.unknown"
        for host in (f"localhost:{port}", f"uno.example:{port}", f"[::1]:{port}", "127.0.0.1"):
            assert exchange(address, f"GET /healthz HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())[0] == 200


def test_serve_answers_to_its_bound_host_its_public_url_and_the_allowed_names(monkeypatch: pytest.MonkeyPatch) -> None:
    from typer.testing import CliRunner

    import unomas.server
    from unomas.cli.app import app
    from unomas.i18n import default_language, error_text

    seen: list[Settings] = []
    monkeypatch.setattr(unomas.server, "serve", lambda host, port, db, settings, **tls: seen.append(settings))
    arguments = ["serve", "--host", "0.0.0.0", "--public-url", "https://Uno.example.org", "--allowed-host", "uno.lan"]
    result = CliRunner().invoke(app, arguments, env={"UNOMAS_METRICS_TOKEN": "s3cret"})
    assert result.exit_code == 0, result.output
    (settings,) = seen
    assert {"uno.example.org", "uno.lan", "localhost"} <= settings.allowed_hosts
    assert settings.allowed_origins == {"https://uno.example.org"}
    assert settings.metrics_token == "s3cret"
    result = CliRunner().invoke(app, ["serve", "--public-url", "uno.example.org"])
    words = error_text("serve.public_url", {"url": "uno.example.org"}, default_language())
    assert result.exit_code == 2 and words in " ".join(result.output.split()), result.output


@pytest.mark.parametrize(
    "hidden",
    [
        "\u200b",  # zero-width space
        "\u200c",  # zero-width non-joiner
        "\u200d",  # zero-width joiner
        "\u2060",  # word joiner
        "\u00ad",  # soft hyphen
        "\ufe0f",  # variation selector 16
        "\U000e0100",  # variation selector 17
        "\u034f",  # combining grapheme joiner
        "\u180e",  # Mongolian vowel separator
        "\u115f",  # Hangul choseong filler
        "\u3164",  # Hangul filler
        "\uffa0",  # half-width Hangul filler
        "\u2028",  # line separator
        "\u2029",  # paragraph separator
        "\U000e0041",  # tag letter A
    ],
)
def test_a_name_with_a_character_drawn_as_nothing_is_refused(hidden: str) -> None:
    from codes import raises_code
    from unomas.errors import Refusal
    from unomas.server.names import clean_name

    for name in (f"A{hidden}na", f"Ana{hidden}", hidden * 3):
        with raises_code(Refusal, "name.hidden"):
            clean_name(name)


@pytest.mark.parametrize("wide", ["\ufdfd", "\U0001242b", "\ua9c5"])
def test_a_name_of_characters_drawn_many_letters_wide_is_refused(wide: str) -> None:
    from codes import raises_code
    from unomas.errors import Refusal
    from unomas.server.names import clean_name

    for name in (wide * 24, f"Ana{wide}"):
        with raises_code(Refusal, "name.wide"):
            clean_name(name)
    assert clean_name("بسم الله") == "بسم الله"  # the letters themselves are a name


def test_lookalike_names_share_a_key_and_the_page_s_words_are_no_name() -> None:
    from codes import raises_code
    from unomas.errors import Refusal
    from unomas.server.names import clean_name, name_key

    same = {
        "Ana": ["\u0410na", "ANA", "\u0391na", "Ａｎａ", "Ana"],  # Cyrillic А, Greek Α, full-width
        "bot 2": ["b\u03bft 2", "b\u043et 2", "BOT 2", "bot ２", "bot  2"],
        "paypal": ["\u0440\u0430\u0443\u0440\u0430l", "PAYPAL"],
        "Ian": ["lan", "\u0399an"],  # a capital I looks like an l
    }
    for name, lookalikes in same.items():
        for lookalike in lookalikes:
            assert name_key(clean_name(lookalike)) == name_key(name), lookalike
    assert len({name_key(name) for name in ("Ana", "Ann", "Eva", "Ava", "bot 2", "bot 3")}) == 6
    for name in ("Ana (you)", "Bea (host)", "Bea (HOST)", "Ana (tú)", "Bea (anfitrión)", "Lu (b\u03bft)"):
        with raises_code(Refusal, "name.page_words"):
            clean_name(name)
    with raises_code(Refusal, "name.too_long", limit=24):
        clean_name("\ufdfa" * 2)  # one character each, a whole phrase each once normalised
    assert clean_name("Zoë (Lu)") == "Zoë (Lu)"


def test_readyz_is_false_while_the_store_fails_and_while_the_server_drains() -> None:
    from test_server_faults import faulty_store

    store, faults = faulty_store()
    apps: list[Any] = []
    with running(store, QUICK, apps=apps) as address:
        health = b"GET /readyz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        status, body = exchange(address, health)
        assert status == 200 and json.loads(body) == {"ready": True, "reason": None}
        faults.fail = "BEGIN"
        assert exchange(address, create_request())[0] == 503  # store.unavailable
        status, body = exchange(address, health)
        assert status == 503 and json.loads(body) == {"ready": False, "reason": "store"}
        status, body = exchange(address, b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert status == 200  # up all the same: not a reason to restart it
        faults.fail = None
        assert exchange(address, health)[0] == 200  # the store takes writes again
        server = apps[0].state.server
        server.loop.call_soon_threadsafe(server.restarting)
        time.sleep(0.2)
        status, body = exchange(address, health)
        assert status == 503 and json.loads(body) == {"ready": False, "reason": "draining"}


def test_metrics_need_the_token_when_one_is_set() -> None:
    with running(SQLiteStore(":memory:"), replace(QUICK, metrics_token="s3cret")) as address:
        request = "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n{}\r\n"
        for header in ("", "Authorization: Bearer nope\r\n", "Authorization: Basic s3cret\r\n"):
            status, body = exchange(address, request.format(header).encode())
            assert status == 401 and error_code(body) == "metrics.token"
        status, body = exchange(address, request.format("Authorization: Bearer s3cret\r\n").encode())
        assert status == 200 and b"unomas_rooms" in body


def test_hsts_only_over_tls() -> None:
    settings = replace(QUICK, trusted_proxies=frozenset({"127.0.0.1"}))
    with running(SQLiteStore(":memory:"), settings) as address:
        for proto, hsts in (("https", True), ("http", False)):
            with connect(address) as sock:
                sock.sendall(f"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Forwarded-Proto: {proto}\r\n\r\n".encode())
                head = sock.recv(65536).split(b"\r\n\r\n")[0].lower()
            assert (b"strict-transport-security: max-age=31536000" in head) is hsts


def test_serve_exits_0_after_a_complete_sigterm_shutdown(tmp_path: Any) -> None:
    import signal
    import subprocess
    import sys
    import urllib.request

    from server_support import free_port

    port = free_port()
    command = [sys.executable, "-c", "from unomas.cli import main; main()", "serve", "--port", str(port)]
    server = subprocess.Popen([*command, "--db", str(tmp_path / "db.sqlite3")], stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1)
                break
            except OSError:
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.1)
        server.send_signal(signal.SIGTERM)
        _, errors = server.communicate(timeout=20)
    finally:
        server.kill()
    assert server.returncode == 0, errors
    assert "Application shutdown complete" in errors


def test_a_flood_of_creates_from_many_addresses_leaves_room_for_a_real_player() -> None:
    """Addresses 127.x.y.z each create rooms they never enter, past the server's capacity:
    each holds only so many, the lobbies nobody sits in give way to new rooms, and a room
    whose host is in stays."""
    import asyncio

    import websockets

    settings = replace(QUICK, max_rooms=40, max_rooms_held=3)
    with running(SQLiteStore(":memory:"), settings) as address:
        statuses = [exchange(address, create_request(), f"127.0.{n}.{k}")[0] for n in range(1, 31) for k in (1,) * 4]
        assert statuses == [200, 200, 200, 429] * 30
        status, body = exchange(address, create_request())
        assert status == 200
        room = json.loads(body)

        async def host_stays_while_the_flood_goes_on() -> list[int]:
            async with websockets.connect(f"ws://{address}/ws/{room['code']}") as socket:
                await socket.send(json.dumps({"type": "hello", "token": room["token"]}))
                assert json.loads(await socket.recv())["type"] == "room"
                flood = [exchange(address, create_request(), f"127.1.{n}.1")[0] for n in range(1, 61)]
                info = exchange(address, f"GET /api/rooms/{room['code']} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
                return [*flood, info[0]]

        assert asyncio.run(host_stays_while_the_flood_goes_on()) == [200] * 61
        for _ in range(3):
            exchange(address, create_request(), "127.2.0.1")
        status, body = exchange(address, create_request(), "127.2.0.1")
        assert status == 429 and error_code(body) == "client.rooms_held"
