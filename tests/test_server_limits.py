"""The server under hostile clients: takeovers, presence deltas, hello deadlines, limits
per room and per client, unguessable codes, cross-site requests."""

from __future__ import annotations

import asyncio
import json
import urllib.request
from typing import Any

import pytest

pytest.importorskip("uvicorn")
import websockets

from server_support import _fetch, get, post, running
from unomas import fairness
from unomas.server.rooms import CODE_ALPHABET, Settings
from unomas.server.storage import SQLiteStore

QUICK = Settings(grace=30, bot_delay=0, window=0, round_pause=0)


def create(address: str, **setup: Any) -> dict[str, Any]:
    status, answer = post(address, "/api/rooms", {"name": "Ana", **setup})
    assert status == 200, answer
    return dict(answer)


async def recv(socket: Any, seconds: float = 2.0) -> dict[str, Any] | None:
    try:
        return dict(json.loads(await asyncio.wait_for(socket.recv(), seconds)))
    except TimeoutError:
        return None


def test_a_hello_costs_the_others_a_small_presence_message_and_a_spectator_s_costs_nothing() -> None:
    with running(SQLiteStore(":memory:"), QUICK) as address:
        room = create(address)
        beto = post(address, f"/api/rooms/{room['code']}/join", {"name": "Beto"})[1]
        url = f"ws://{address}/ws/{room['code']}"

        async def scenario() -> None:
            async with websockets.connect(url) as host:
                await host.send(json.dumps({"type": "hello", "token": room["token"]}))
                first = await recv(host)
                assert first is not None and first["type"] == "room"
                async with websockets.connect(url) as watcher:
                    await watcher.send(json.dumps({"type": "hello"}))
                    assert (await recv(watcher)) is not None
                    assert await recv(host, 0.5) is None  # a spectator's hello: nothing for the others
                async with websockets.connect(url) as guest:
                    await guest.send(json.dumps({"type": "hello", "token": beto["token"]}))
                    told = await recv(host)
                    assert told == {"type": "presence", "seat": 1, "connected": True, "away": False}
                told = await recv(host)
                assert told == {"type": "presence", "seat": 1, "connected": False, "away": False}

        asyncio.run(scenario())


def test_a_connection_that_says_nothing_is_closed_and_one_room_takes_only_so_many_watchers() -> None:
    settings = Settings(grace=30, bot_delay=0, window=0, round_pause=0, hello_timeout=0.3, max_watchers=1)
    with running(SQLiteStore(":memory:"), settings) as address:
        room = create(address)
        url = f"ws://{address}/ws/{room['code']}"

        async def scenario() -> None:
            async with websockets.connect(url) as silent:
                message = await recv(silent)
                assert message is not None and message["code"] == "hello.late"
                with pytest.raises(websockets.ConnectionClosed):
                    await asyncio.wait_for(silent.recv(), 2)
                assert silent.close_code == 4408
            async with websockets.connect(url) as first, websockets.connect(url) as second:
                await first.send(json.dumps({"type": "hello"}))
                assert (await recv(first)) is not None
                await second.send(json.dumps({"type": "hello"}))
                refused = await recv(second)
                assert refused is not None and refused["code"] == "room.watchers_full"
                assert refused["params"] == {"limit": 1}

        asyncio.run(scenario())


def test_one_client_may_hold_only_so_many_connections() -> None:
    settings = Settings(grace=30, bot_delay=0, window=0, round_pause=0, max_connections=2)
    with running(SQLiteStore(":memory:"), settings) as address:
        room = create(address)
        url = f"ws://{address}/ws/{room['code']}"

        async def scenario() -> None:
            async with websockets.connect(url), websockets.connect(url), websockets.connect(url) as third:
                refused = await recv(third)
                assert refused is not None and refused["code"] == "client.limited"
                with pytest.raises(websockets.ConnectionClosed):
                    await asyncio.wait_for(third.recv(), 2)
                assert third.close_code == 4429

        asyncio.run(scenario())


def test_a_flood_of_creates_or_look_ups_is_told_to_come_back_later() -> None:
    settings = Settings(grace=30, bot_delay=0, window=0, round_pause=0, create_rate=(0.01, 3), lookup_rate=(0.01, 3))
    with running(SQLiteStore(":memory:"), settings) as address:
        codes = [create(address)["code"] for _ in range(3)]
        status, answer = post(address, "/api/rooms", {"name": "Eve"})
        assert status == 429 and answer["error"]["code"] == "client.limited"
        assert answer["error"]["params"]["retry_after"] >= 1
        for _ in range(3):
            assert get(address, "/api/rooms/ZZZZZZZZZZ")[0] == 404
        request = urllib.request.Request(f"http://{address}/api/rooms/{codes[0]}")
        try:
            urllib.request.urlopen(request, timeout=5)
            raise AssertionError("not limited")
        except urllib.error.HTTPError as error:
            assert error.code == 429 and int(error.headers["Retry-After"]) >= 1


def test_room_codes_are_long_enough_not_to_be_guessed_and_their_link_works() -> None:
    with running(SQLiteStore(":memory:"), QUICK) as address:
        room = create(address)
        assert len(room["code"]) >= 10 and set(room["code"]) <= set(CODE_ALPHABET)
        assert get(address, f"/r/{room['code']}")[0] == 200
        assert get(address, f"/api/rooms/{room['code']}")[0] == 200
    assert Settings().keep_empty_lobby <= 600  # a lobby nobody is in goes in minutes


def test_requests_from_other_sites_and_bodies_not_in_json_are_refused() -> None:
    settings = Settings(
        grace=30, bot_delay=0, window=0, round_pause=0, allowed_origins=frozenset({"https://friend.example"})
    )
    with running(SQLiteStore(":memory:"), settings) as address:

        def post_from(origin: str | None, kind: str = "application/json") -> tuple[int, Any]:
            request = urllib.request.Request(
                f"http://{address}/api/rooms", data=json.dumps({"name": "Ana"}).encode(), method="POST"
            )
            request.add_header("Content-Type", kind)
            if origin is not None:
                request.add_header("Origin", origin)
            return _fetch(request)

        status, answer = post_from("https://evil.example")
        assert status == 403 and answer["error"]["code"] == "origin.forbidden"
        status, answer = post_from(None, "text/plain")
        assert status == 415 and answer["error"]["code"] == "body.not_json"
        assert post_from(f"http://{address}")[0] == 200
        status, room = post_from("https://friend.example")
        assert status == 200

        async def knock(origin: str) -> tuple[dict[str, Any] | None, int | None]:
            async with websockets.connect(f"ws://{address}/ws/{room['code']}", origin=origin) as socket:  # type: ignore[arg-type]
                message = await recv(socket)
                if message is not None and message["type"] == "error":
                    with pytest.raises(websockets.ConnectionClosed):
                        await asyncio.wait_for(socket.recv(), 2)
                return message, socket.close_code

        message, code = asyncio.run(knock("https://evil.example"))
        assert message is not None and message["code"] == "origin.forbidden" and code == 4403

        async def friendly() -> dict[str, Any] | None:
            async with websockets.connect(f"ws://{address}/ws/{room['code']}", origin="https://friend.example") as s:  # type: ignore[arg-type]
                await s.send(json.dumps({"type": "hello"}))
                return await recv(s)

        answer = asyncio.run(friendly())
        assert answer is not None and answer["type"] == "room"


def test_every_response_carries_the_security_headers() -> None:
    with running(SQLiteStore(":memory:"), QUICK) as address:
        for path in ("/", "/static/main.js", "/api/rooms/NOPE000000", "/api/i18n/en"):
            try:
                response = urllib.request.urlopen(f"http://{address}{path}", timeout=5)
            except urllib.error.HTTPError as error:
                response = error
            headers = response.headers
            assert "frame-ancestors 'none'" in headers["Content-Security-Policy"]
            assert "script-src 'self'" in headers["Content-Security-Policy"]
            assert headers["X-Frame-Options"] == "DENY" and headers["X-Content-Type-Options"] == "nosniff"
            assert headers["Referrer-Policy"] == "no-referrer" and "camera=()" in headers["Permissions-Policy"]
            assert headers["Cross-Origin-Opener-Policy"] == "same-origin"
            kept = path.startswith(("/static/", "/api/i18n/"))  # revalidated by ETag; a room's state never kept
            assert headers["Cache-Control"] == ("no-cache" if kept else "no-store")


async def start_leave_and_watch(url: str, token: str) -> dict[str, Any]:
    """The host starts the room's match and leaves (bots and stand-ins play every seat); a
    spectator watches it to its ``over`` message."""
    async with websockets.connect(url) as host:
        await host.send(json.dumps({"type": "hello", "token": token}))
        await host.send(json.dumps({"type": "start"}))
        while (await recv(host, 5) or {}).get("type") != "update":
            pass
    async with websockets.connect(url) as watcher:
        await watcher.send(json.dumps({"type": "hello"}))
        while True:
            message = await recv(watcher, 10)
            assert message is not None
            if message["type"] == "over":
                return message


def test_a_match_ends_at_the_move_limit_recorded_and_explained_and_targets_are_bounded() -> None:
    settings = Settings(grace=0.01, bot_delay=0, window=0, round_pause=0, max_match_actions=6)
    with running(SQLiteStore(":memory:"), settings) as address:
        status, answer = post(address, "/api/rooms", {"name": "Ana", "rules": {"target_score": 10_001}})
        assert status == 422 and answer["error"]["code"] == "setup.target_score_max"
        assert answer["error"]["params"] == {"limit": 10_000}
        room = create(address, rules={"players": 2, "target_score": 500}, bots=[1])
        url = f"ws://{address}/ws/{room['code']}"

        over = asyncio.run(start_leave_and_watch(url, room["token"]))
        assert over["reason"] == "move_limit" and over["limit"] == 6
        status, record = get(address, f"/api/rooms/{room['code']}/record")
        assert status == 200 and record["winner"] is None and "seed" in record["shuffle"]
        assert sum(1 for r in record["rounds"] for e in r["events"] if "p" in e) == 6


def test_a_match_everyone_left_is_ended_recorded_whoever_watches() -> None:
    """Its host starts it and leaves; bots and the host's stand-in play on while a spectator
    watches; after ``keep_unattended_match`` the match is ended, recorded, no winner."""
    settings = Settings(grace=0.01, bot_delay=0.05, window=0, round_pause=0, keep_unattended_match=0.5)
    with running(SQLiteStore(":memory:"), settings) as address:
        room = create(address, rules={"players": 2, "target_score": 500}, bots=[1])
        url = f"ws://{address}/ws/{room['code']}"

        over = asyncio.run(start_leave_and_watch(url, room["token"]))
        assert over["reason"] == "abandoned" and over["winner"] is None
        status, record = get(address, f"/api/rooms/{room['code']}/record")
    assert status == 200 and record["winner"] is None
    game = fairness.verify(record)  # the seed revealed: the deals check
    assert not game.is_over and game.ply < 2000


def test_healthz_says_the_server_is_up_with_its_rooms_and_store() -> None:
    with running(SQLiteStore(":memory:"), QUICK) as address:
        create(address)
        status, health = get(address, "/healthz")
        assert status == 200 and health["ok"] is True and health["rooms"] == 1
        assert health["store"]["calls"] >= 2 and health["store"]["failures"] == 0


def test_metrics_in_the_prometheus_text_format() -> None:
    with running(SQLiteStore(":memory:"), QUICK) as address:
        create(address)
        get(address, "/api/rooms/NOPE000000")
        response = urllib.request.urlopen(f"http://{address}/metrics", timeout=5)
        assert response.headers["Content-Type"].startswith("text/plain; version=0.0.4")
        text = response.read().decode()
        assert 'unomas_rooms{status="lobby"} 1.0' in text and "unomas_connections 0.0" in text
        assert 'unomas_refusals_total{code="room.not_found"} 1.0' in text
        assert "unomas_actions_total 0.0" in text and "unomas_store_seconds_bucket" in text


def test_serve_passes_the_certificate_to_uvicorn(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    import uvicorn

    from unomas.server import app as server_app

    seen: list[uvicorn.Config] = []
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, *args: seen.append(self.config))
    server_app.serve(
        "127.0.0.1", 8443, tmp_path / "db.sqlite3", certfile=tmp_path / "c.pem", keyfile=tmp_path / "k.pem"
    )
    (config,) = seen
    assert config.ssl_certfile == str(tmp_path / "c.pem") and config.ssl_keyfile == str(tmp_path / "k.pem")
