"""The server over real WebSockets: full games with people and bots, secrecy, bad input,
every refusal's code, the ply guard, the bots' pace, a hello's history."""

from __future__ import annotations

import asyncio
import json
import random
import re
import sqlite3
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("uvicorn")
import websockets

from server_support import get, post, running
from unomas import fairness
from unomas.actions import Action
from unomas.bots import HeuristicBot
from unomas.cards import card_token
from unomas.client.seat_client import SeatClient, choose
from unomas.error_codes import ERRORS
from unomas.game import Game
from unomas.i18n import LANGUAGES, error_messages, error_text
from unomas.i18n.switches import switches_json
from unomas.live import host
from unomas.live.host import HISTORY
from unomas.rules import Rules
from unomas.server import app as server_app
from unomas.server import protocol
from unomas.server.protocol import Move, RoomSetup
from unomas.server.rooms import Connection, Room, Settings, memory_capacity
from unomas.server.storage import SQLiteStore, StoreWriter, default_db_path
from unomas.testing import make_game

STATIC = Path(server_app.__file__).parent / "static"


def create(address: str, **setup: Any) -> dict[str, Any]:
    status, answer = post(address, "/api/rooms", {"name": "Ana", **setup})
    assert status == 200, answer
    return dict(answer)


def join(address: str, code: str, name: str) -> dict[str, Any]:
    status, answer = post(address, f"/api/rooms/{code}/join", {"name": name})
    assert status == 200, answer
    return dict(answer)


async def play_all(clients: list[SeatClient], spectators: list[SeatClient] = ()) -> list[Any]:  # type: ignore[assignment]
    """Run the host (first client) with start, the others and spectators until the end."""

    async def host() -> Any:
        await asyncio.sleep(0.2)  # let the others say hello first
        return await clients[0].play(start=True)

    return list(
        await asyncio.wait_for(
            asyncio.gather(host(), *(c.play() for c in clients[1:]), *(s.play() for s in spectators)), 60
        )
    )


def play_match(rules: dict[str, Any], bots: list[int], humans: int, seed: int) -> tuple[str, str, list[SeatClient]]:
    store = SQLiteStore(":memory:")
    with running(store) as address:
        room = create(address, rules=rules, bots=bots)
        code = room["code"]
        tokens = [room["token"]] + [join(address, code, f"p{n}")["token"] for n in range(1, humans)]
        url = f"ws://{address}/ws/{code}"
        clients = [SeatClient(url, token, random.Random(seed + n)) for n, token in enumerate(tokens)]
        spectator = SeatClient(url, None)
        results = asyncio.run(play_all(clients, [spectator]))
        assert all(result is not None and result["type"] == "over" for result in results)
        status, record = get(address, f"/api/rooms/{code}/record")
        assert status == 200
        return code, json.dumps(record), [*clients, spectator]


def test_a_team_match_s_end_names_the_winning_team() -> None:
    rules = {"players": 4, "target_score": 0, "teams": "2v2"}
    _code, text, clients = play_match(rules, bots=[2, 3], humans=2, seed=3)
    winner = json.loads(text)["winner"]
    over = [m for m in clients[0].messages if m["type"] == "over"][-1]
    assert over["winner"] == winner and over["winners"] == sorted({winner, (winner + 2) % 4})


def test_a_full_match_with_two_people_and_two_bots_ends_with_a_verifiable_record() -> None:
    rules = {"players": 4, "target_score": 150, "jump_in": True, "seven_zero": True, "stack_draw_two": True}
    _code, text, clients = play_match(rules, bots=[2, 3], humans=2, seed=1)
    record = json.loads(text)
    game = fairness.verify(record)
    assert game.is_over and record["winner"] == game.winner
    assert record["names"][:2] == ["Ana", "p1"] and record["bots"] == [2, 3]
    assert len(record["rounds"]) >= 1
    # Every client saw the same commitment before the first deal, and it is the record's.
    for client in clients:
        rooms = [m for m in client.messages if m["type"] == "room" and m["status"] == "playing"]
        assert rooms[0]["commitment"] == record["shuffle"]["commitment"]
        # The only refusals are actions overtaken by another seat's (UNO, catch, jump-in races).
        assert {error["code"] for error in client.errors} <= {"move.stale"}
        final = [m for m in client.messages if m["type"] == "update"][-1]["view"]
        assert final["winner"] == game.winner and final["scores"] == game.scores
    # People made the moves of their seats: each of the two took actions.
    moves = [e for r in record["rounds"] for e in r["events"] if "p" in e]
    assert {0, 1, 2, 3} <= {m["p"] for m in moves}


CARD_KEYS = {"hand", "hands", "cards", "pile"}


def truth(record: dict[str, Any]) -> list[tuple[list[list[str]], list[str]]]:
    """The true hands and draw pile after every deal and every move, from the revealed seed."""
    states: list[tuple[list[list[str]], list[str]]] = []
    game = Game(Rules.from_dict(record["rules"]), seed=bytes.fromhex(record["shuffle"]["seed"]))

    def snap() -> None:
        hands = [[card_token(c) for c in hand] for hand in game.hands]
        states.append((hands, [card_token(c) for c in reversed(game.pile)]))

    for index, entry in enumerate(record["rounds"]):
        if index:
            game.start_round()
        snap()
        for event in entry["events"]:
            if "p" in event:
                game.apply(Action.from_json(event))
                snap()
    return states


def check_message(message: dict[str, Any], seat: int | None, hands: list[list[str]], pile: list[str]) -> None:
    """No card another seat holds, nor the pile's order, in a message to ``seat``."""
    view = message["view"]
    own = hands[seat] if seat is not None else []
    assert Counter(view["hand"]) == Counter(own)
    assert view["drawn"] is None or view["drawn"] in own
    assert all(m.get("card") in own for m in view["legal_actions"] if m["a"] == "play")
    if view["shown_hand"] is not None:  # the hand a challenger was shown (this seat's right)
        assert seat is not None
    check_events(message, seat, hands, pile)
    for number, hand in enumerate(hands):
        if number != seat and len(hand) >= 3 and not any(e["event"] == "round_ended" for e in message["events"]):
            assert json.dumps(sorted(hand)) not in json.dumps(sorted(view["hand"]))


def check_events(message: dict[str, Any], seat: int | None, hands: list[list[str]], pile: list[str]) -> None:
    """The events of ``message`` carry no card hidden from ``seat``, nor the pile's order."""
    for event in message["events"]:
        kind = event["event"]
        if kind == "dealt":
            assert event["pile"] is None
            assert all(hand is None or number == seat for number, hand in enumerate(event["hands"]))
        elif kind == "drew":
            assert event["cards"] is None or event["player"] == seat
        elif kind in ("reshuffled", "starting_card_returned"):
            assert event["pile"] is None
        elif kind == "challenged":
            assert event["hand"] is None or seat in (event["challenger"], event["challenged"])
        elif kind != "round_ended":  # the hands shown at a round's end are public
            assert not CARD_KEYS & {key for key, value in event.items() if value is not None}, event
    # Nowhere in the message is the draw pile's order.
    text = json.dumps(message)
    if len(pile) >= 8:  # (eight in a row: a chance match with the public discard is negligible)
        assert json.dumps(pile[:8])[1:-1] not in text


@pytest.mark.parametrize("seed", [3, 4])
def test_no_message_ever_carries_a_hidden_card(seed: int) -> None:
    rules = {"players": 3, "target_score": 100, "jump_in": True, "seven_zero": True, "challenge_wild_draw_four": True}
    _code, text, clients = play_match(rules, bots=[2], humans=2, seed=seed)
    record = json.loads(text)
    states = truth(record)
    for seat, client in zip([0, 1, None], clients, strict=True):
        updates = [m for m in client.messages if m["type"] == "update" and m["events"]]
        assert len(updates) == len(states)  # one update per deal and per move, in order
        for message, (hands, pile) in zip(updates, states, strict=True):
            check_message(message, seat, hands, pile)
        for message in client.messages:
            assert "token" not in json.dumps(message)


def test_the_link_page_static_files_and_room_info() -> None:
    with running(SQLiteStore(":memory:")) as address:
        room = create(address)
        assert room["link"].endswith(f"/r/{room['code']}")
        status, page = get(address, f"/r/{room['code']}")
        assert status == 200 and "<html" in page.lower()
        status, info = get(address, f"/api/rooms/{room['code'].lower()}")
        assert status == 200 and info["status"] == "lobby" and info["you"] is None
        assert info["seats"][0]["name"] == "Ana" and "token" not in json.dumps(info)
        for module in ("main", "net", "table", "hand", "dialogs", "sound", "words", "lobby", "over", "state"):
            assert get(address, f"/static/{module}.js")[0] == 200
        status, manifest = get(address, "/static/manifest.webmanifest")
        assert status == 200 and manifest["icons"] and manifest["start_url"] == "/"
        for icon in manifest["icons"]:
            assert get(address, icon["src"])[0] == 200
        assert "<svg" in get(address, "/favicon.ico")[1]
        status, answer = get(address, "/api/rooms/NOPE99")
        assert status == 404 and refusal(answer) == ("room.not_found", {"room": "NOPE99"})
        status, answer = get(address, "/api/rooms/NOPE99/record")
        assert status == 404 and refusal(answer) == ("room.not_found", {"room": "NOPE99"})
        status, answer = get(address, f"/api/rooms/{room['code']}/record")
        assert status == 409 and refusal(answer) == ("room.not_over", {})


def refusal(answer: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The code and params of an HTTP refusal, checking its shape."""
    error = answer["error"]
    assert set(error) == {"code", "params", "message"} and isinstance(error["message"], str)
    return error["code"], error["params"]


def test_a_lobby_no_seated_person_is_in_is_forgotten_after_a_while_whoever_watches(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "rooms.sqlite3")
    with running(store, Settings(keep_empty_lobby=0.4, keep_unvisited_lobby=0.4, window=0)) as address:
        empty = create(address)
        watched = create(address)
        hosted = create(address)

        async def stay_in(code: str, token: str | None) -> None:
            async with websockets.connect(f"ws://{address}/ws/{code}") as socket:
                await socket.send(json.dumps({"type": "hello", "token": token}))
                await asyncio.sleep(1.5)

        async def stay() -> None:
            await asyncio.gather(stay_in(watched["code"], None), stay_in(hosted["code"], hosted["token"]))

        asyncio.run(stay())
        assert get(address, f"/api/rooms/{empty['code']}")[0] == 404
        assert get(address, f"/api/rooms/{watched['code']}")[0] == 404  # a spectator keeps no lobby
        assert get(address, f"/api/rooms/{hosted['code']}")[0] == 200  # its host left only now
        assert [room.code for room in store.load()] == [hosted["code"]]


@pytest.mark.parametrize(
    ("setup", "code", "params"),
    [
        ({"name": "Ana", "rules": {"players": 11}}, "setup.players_range", {"value": 11}),
        ({"name": "Ana", "rules": {"jump": True}}, "setup.unknown_setting", {"name": "'jump'"}),
        ({"name": "Ana", "rules": {"jump_in": 1}}, "setup.not_boolean", {"name": "jump_in", "value": "1"}),
        ({"name": "Ana", "bots": [0]}, "setup.bot_seat", {"field": "bots", "seat": 0, "last": 3}),
        ({"name": "Ana", "bots": [1, 1]}, "setup.seat_twice", {"field": "bots"}),
        ({"name": "Ana", "bot": "cmd:rm -rf /"}, "setup.room_level", {"value": "'cmd:rm -rf /'"}),
        ({"name": ""}, "setup.invalid", {"field": "name"}),
        ({"name": "Ana", "turn_seconds": -1}, "setup.invalid", {"field": "turn_seconds"}),
        ({"name": "Ana", "extra": 1}, "setup.invalid", {"field": "extra"}),
    ],
)
def test_a_bad_room_setup_is_refused_naming_what_is_wrong(
    setup: dict[str, Any], code: str, params: dict[str, Any]
) -> None:
    with running(SQLiteStore(":memory:")) as address:
        status, answer = post(address, "/api/rooms", setup)
        got, sent = refusal(answer)
        assert status == 422 and got == code and params.items() <= sent.items()
        status, answer = post(address, "/api/rooms", b"{not json")
        assert status == 422 and refusal(answer)[0] == "message.invalid"
        assert answer["error"]["params"]["field"] == "message"
        status, answer = post(address, "/api/rooms", {"name": "x" * 5000})
        assert status == 413 and refusal(answer) == ("body.too_large", {"limit": server_app.MAX_BODY})


def test_a_server_holding_all_the_rooms_it_can_refuses_a_new_one() -> None:
    with running(SQLiteStore(":memory:"), Settings(max_rooms=1, window=0)) as address:
        room = create(address)

        async def host_in() -> tuple[int, Any]:
            async with websockets.connect(f"ws://{address}/ws/{room['code']}") as socket:
                await socket.send(json.dumps({"type": "hello", "token": room["token"]}))
                await socket.recv()
                return post(address, "/api/rooms", {"name": "Beto"})

        status, answer = asyncio.run(host_in())
        assert status == 503 and refusal(answer) == ("room.capacity", {"limit": 1})


def test_at_the_limit_a_new_room_takes_the_place_of_the_lobby_empty_the_longest() -> None:
    with running(SQLiteStore(":memory:"), Settings(max_rooms=3, window=0)) as address:
        first, second = create(address), create(address)

        async def visit(room: dict[str, Any]) -> None:  # the host comes and goes: empty from now
            async with websockets.connect(f"ws://{address}/ws/{room['code']}") as socket:
                await socket.send(json.dumps({"type": "hello", "token": room["token"]}))
                await socket.recv()

        asyncio.run(visit(first))
        time.sleep(0.05)
        third = create(address)
        assert [get(address, f"/api/rooms/{r['code']}")[0] for r in (first, second, third)] == [200] * 3
        create(address)  # the second, never visited, has been empty the longest
        assert [get(address, f"/api/rooms/{r['code']}")[0] for r in (first, second, third)] == [200, 404, 200]
        create(address)  # then the first, empty since its host left (before the third was made)
        assert [get(address, f"/api/rooms/{r['code']}")[0] for r in (first, third)] == [404, 200]


def test_the_room_limit_is_sized_by_memory_unless_given() -> None:
    """Half the memory at 256 KiB a room: 24 GiB holds 49,152 rooms; a cgroup's or a
    machine's limit, whichever is lower, is the memory."""
    assert memory_capacity(24 * 2**30) == 49_152 and memory_capacity(1) == 1
    assert server_app.create_app(SQLiteStore(":memory:"), Settings()).state.server.max_rooms == memory_capacity()
    assert server_app.create_app(SQLiteStore(":memory:"), Settings(max_rooms=7)).state.server.max_rooms == 7


def test_joining_a_full_or_started_room_or_an_unknown_one_is_refused() -> None:
    with running(SQLiteStore(":memory:")) as address:
        room = create(address, rules={"players": 2})
        join(address, room["code"], "Beto")
        status, answer = post(address, f"/api/rooms/{room['code']}/join", {"name": "Carla"})
        assert status == 409 and refusal(answer) == ("room.full", {})
        status, answer = post(address, "/api/rooms/ZZZZZZ/join", {"name": "Carla"})
        assert status == 404 and refusal(answer) == ("room.not_found", {"room": "ZZZZZZ"})
        status, answer = post(address, f"/api/rooms/{room['code']}/join", {"name": ""})
        assert (
            status == 422 and refusal(answer)[0] == "message.invalid" and answer["error"]["params"]["field"] == "name"
        )
        status, answer = post(address, f"/api/rooms/{room['code']}/join", b"x" * 5000)
        assert status == 413 and refusal(answer)[0] == "body.too_large"
        room = create(address, rules={"players": 3})

        async def start() -> None:
            async with websockets.connect(f"ws://{address}/ws/{room['code']}") as socket:
                await socket.send(json.dumps({"type": "hello", "token": room["token"]}))
                await socket.send(json.dumps({"type": "start"}))
                while json.loads(await socket.recv())["type"] != "update":
                    pass

        asyncio.run(start())
        status, answer = post(address, f"/api/rooms/{room['code']}/join", {"name": "Carla"})
        assert status == 409 and refusal(answer) == ("room.started", {})


async def exchange(socket: Any, message: str | bytes) -> dict[str, Any]:
    """Send one message; return the first error answered (skipping other messages)."""
    await socket.send(message)
    while True:
        answer = json.loads(await asyncio.wait_for(socket.recv(), 5))
        if answer["type"] == "error":
            return dict(answer)


def test_malformed_and_forbidden_messages_get_an_error_with_its_code_and_change_nothing() -> None:
    store = SQLiteStore(":memory:")
    with running(store, Settings(grace=30, bot_delay=0, window=0, round_pause=0)) as address:
        # two people and no bot: nothing moves while the refusals are checked
        room = create(address, rules={"players": 2, "target_score": 0})
        other = join(address, room["code"], "Beto")
        url = f"ws://{address}/ws/{room['code']}"

        async def refused(socket: Any, message: str | bytes, code: str, **params: Any) -> dict[str, Any]:
            error = await exchange(socket, message)
            assert error["code"] == code and params.items() <= error["params"].items(), (message, error)
            assert isinstance(error["message"], str) and error["message"]
            return error

        async def scenario() -> None:
            async with websockets.connect(url) as host, websockets.connect(url) as beto, websockets.connect(url) as eve:
                await refused(host, json.dumps({"type": "start"}), "hello.first")
                await host.send(json.dumps({"type": "hello", "token": room["token"]}))
                await beto.send(json.dumps({"type": "hello", "token": other["token"]}))
                await refused(eve, json.dumps({"type": "hello", "token": "x" * 20}), "auth.bad_token")
                await eve.send(json.dumps({"type": "hello"}))
                await refused(beto, json.dumps({"type": "start"}), "room.not_host")
                draw = {"type": "act", "action": {"p": 0, "a": "draw"}, "ref": 3}
                error = await refused(host, json.dumps(draw), "room.not_playing")
                assert error["ref"] == 3
                await host.send(json.dumps({"type": "start"}))
                view = await next_view(host)
                views = {0: view, 1: await next_view(beto)}
                before = stored_events(store)
                seat = view["current"]
                socket = host if seat == 0 else beto if seat == 1 else None
                act = {"type": "act", "action": {"p": 0, "a": "draw"}}
                bad: list[tuple[Any, str | bytes, str, dict[str, Any]]] = [
                    (host, "{nope", "message.invalid", {"field": "message"}),
                    (host, b"\x00\x01", "message.binary", {}),
                    (host, json.dumps({"type": "dance"}), "message.invalid", {"field": "type"}),
                    (host, json.dumps({"type": "act"}), "message.invalid", {"field": "act.action"}),
                    (
                        host,
                        json.dumps(act | {"action": {"p": 0, "a": "fly"}}),
                        "message.invalid",
                        {"field": "act.action.a"},
                    ),
                    (host, json.dumps(act | {"x": 1}), "message.invalid", {"field": "act.x"}),
                    (host, json.dumps(act | {"ply": -1}), "message.invalid", {"field": "act.ply"}),
                    (
                        host,
                        json.dumps(act | {"action": {"p": 0, "a": "play", "card": "Q9"}}),
                        "notation.not_a_card",
                        {"token": "'Q9'"},
                    ),
                    (
                        host,
                        json.dumps(act | {"action": {"p": 1, "a": "draw"}}),
                        "seat.not_yours",
                        {"seat": 0, "asked": 1},
                    ),
                    (host, json.dumps({"type": "hello", "token": room["token"]}), "hello.twice", {}),
                    (host, json.dumps({"type": "start"}), "room.started", {}),
                    (host, "[" * 5000, "message.too_long", {"length": 5000, "limit": protocol.MAX_MESSAGE}),
                    (eve, json.dumps(act), "seat.spectator", {}),
                ]
                if socket is not None:  # a move the rules refuse: a card the seat does not hold
                    held = set(views[seat]["hand"])
                    missing = next(t for t in ("R1", "G2", "B3", "Y4", "R5", "G6", "B7", "Y8") if t not in held)
                    play = {"type": "act", "action": {"p": seat, "a": "play", "card": missing}, "ref": 7}
                    refusal = {"action": f"{seat} play {missing}", "player": seat, "card": missing}
                    bad.append((socket, json.dumps(play), "move.no_such_card", refusal))
                for sender, text, code, params in bad:
                    error = await refused(sender, text, code, **params)
                    if code == "move.no_such_card":
                        assert error["ref"] == 7
                assert stored_events(store) == before

        asyncio.run(scenario())


def test_an_action_answering_a_ply_that_has_passed_is_refused_as_stale() -> None:
    store = SQLiteStore(":memory:")
    with running(store, Settings(grace=30, bot_delay=0, window=0, round_pause=0)) as address:
        room = create(address, rules={"players": 2, "target_score": 0})
        other = join(address, room["code"], "Beto")
        url = f"ws://{address}/ws/{room['code']}"

        async def scenario() -> None:
            async with websockets.connect(url) as host, websockets.connect(url) as beto:
                await host.send(json.dumps({"type": "hello", "token": room["token"]}))
                await beto.send(json.dumps({"type": "hello", "token": other["token"]}))
                await host.send(json.dumps({"type": "start"}))
                views = {0: await next_view(host), 1: await next_view(beto)}
                seat = views[0]["current"]
                socket, view = (host, views[0]) if seat == 0 else (beto, views[1])
                move = next(m for m in view["legal_actions"] if m["p"] == seat and m["a"] not in ("uno", "catch"))
                before = stored_events(store)
                for ply in (view["ply"] + 1, view["ply"] + 100):
                    act = {"type": "act", "action": move, "ref": ply, "ply": ply}
                    error = await exchange(socket, json.dumps(act))
                    assert error["code"] == "move.stale" and error["ref"] == ply
                    assert error["params"] == {"ply": ply, "now": view["ply"]}
                assert stored_events(store) == before
                # The same action, answering the view's ply: applied, and its answer names it.
                await socket.send(json.dumps({"type": "act", "action": move, "ref": 1, "ply": view["ply"]}))
                while True:
                    answer = json.loads(await asyncio.wait_for(socket.recv(), 5))
                    if answer["type"] == "update":
                        break
                assert answer["ref"] == 1 and answer["view"]["ply"] == view["ply"] + 1
                assert stored_events(store) != before
                # Now the view it answered has passed: the same ply is stale.
                again = {"type": "act", "action": move, "ref": 2, "ply": view["ply"]}
                error = await exchange(socket, json.dumps(again))
                assert error["code"] == "move.stale" and error["params"] == {"ply": view["ply"], "now": view["ply"] + 1}

        asyncio.run(scenario())


async def next_view(socket: Any) -> dict[str, Any]:
    while True:
        message = json.loads(await asyncio.wait_for(socket.recv(), 5))
        if message["type"] == "update":
            return dict(message["view"])


def stored_events(store: SQLiteStore) -> list[Any]:
    return [room.rounds for room in store.load()]


def test_a_connection_sending_too_fast_is_told_to_slow_down() -> None:
    with running(SQLiteStore(":memory:"), rate=(1.0, 5.0)) as address:
        room = create(address)

        async def flood() -> list[dict[str, Any]]:
            async with websockets.connect(f"ws://{address}/ws/{room['code']}") as socket:
                for _ in range(20):
                    await socket.send(json.dumps({"type": "dance"}))
                return [json.loads(await asyncio.wait_for(socket.recv(), 5)) for _ in range(20)]

        answers = asyncio.run(flood())
        assert sum(a["code"] == "rate.limited" and a["params"] == {"rate": 1.0} for a in answers) >= 14
        assert sum(a["code"] == "message.invalid" and a["params"]["field"] == "type" for a in answers) >= 4

        async def flood_of_actions() -> list[dict[str, Any]]:
            async with websockets.connect(f"ws://{address}/ws/{room['code']}") as socket:
                for ref in range(20):
                    act = {"type": "act", "action": {"p": 0, "a": "draw"}, "ref": ref}
                    await socket.send(json.dumps(act))
                return [json.loads(await asyncio.wait_for(socket.recv(), 5)) for _ in range(20)]

        # Even refused for speed, an action's answer names it, so its sender can go on.
        answers = asyncio.run(flood_of_actions())
        assert [a["ref"] for a in answers] == list(range(20))
        assert sum(a["code"] == "rate.limited" for a in answers) >= 14


def test_a_closed_tab_rejoins_its_seat_and_an_absent_player_is_played_by_a_bot() -> None:
    with running(SQLiteStore(":memory:"), Settings(grace=0.3, bot_delay=0, window=0, round_pause=0)) as address:
        room = create(address, rules={"players": 2, "target_score": 0})
        url = f"ws://{address}/ws/{room['code']}"
        beto = join(address, room["code"], "Beto")

        async def scenario() -> None:
            first = SeatClient(url, room["token"], random.Random(1), stop_after=2)
            second = SeatClient(url, beto["token"], random.Random(2), stop_after=2)
            await asyncio.gather(first.play(start=True), second.play())
            # Both tabs closed: after the grace period bots play both seats, shown to all.
            async with websockets.connect(url) as watcher:
                await watcher.send(json.dumps({"type": "hello"}))
                seen: list[dict[str, Any]] = []
                while True:
                    message = json.loads(await asyncio.wait_for(watcher.recv(), 10))
                    seen.append(message)
                    if message["type"] == "over":
                        break
                rooms = [m for m in seen if m["type"] == "room"]
                assert any(seat["away"] for m in rooms for seat in m["seats"])
            # Back with the token: the same seat, the final view.
            again = SeatClient(url, beto["token"])
            over = await asyncio.wait_for(again.play(), 10)
            assert over is not None and over["type"] == "over"
            assert next(m for m in again.messages if m["type"] == "room")["you"] == 1

        asyncio.run(scenario())


def seed_starting_with(token: str) -> bytes:
    """A seed whose first two-player deal turns up ``token`` as the starting card."""
    for number in range(100_000):
        seed = number.to_bytes(32, "big")
        game = Game(Rules(players=2, target_score=0), seed=seed)
        if card_token(game.top) == token and game.current == 0:
            return seed
    raise AssertionError(f"no seed starts with {token}")


@pytest.mark.parametrize(("start", "expected"), [(None, "drew"), ("W", "color_chosen")])
def test_the_turn_timer_acts_for_a_player_who_does_not(
    monkeypatch: pytest.MonkeyPatch, start: str | None, expected: str
) -> None:
    """On expiry the seat draws (and passes if it may); a starting colour is chosen for it."""
    if start is not None:
        seed = seed_starting_with(start)
        monkeypatch.setattr(fairness, "new_seed", lambda: seed)
    with running(SQLiteStore(":memory:"), Settings(grace=30, bot_delay=0, window=0, round_pause=0)) as address:
        room = create(address, rules={"players": 2, "target_score": 0}, bots=[1], turn_seconds=1)

        async def scenario() -> list[dict[str, Any]]:
            async with websockets.connect(f"ws://{address}/ws/{room['code']}") as socket:
                await socket.send(json.dumps({"type": "hello", "token": room["token"]}))
                await socket.send(json.dumps({"type": "start"}))
                seen: list[dict[str, Any]] = []
                while not any(e["event"] == expected and e["player"] == 0 for m in seen for e in m.get("events", ())):
                    seen.append(json.loads(await asyncio.wait_for(socket.recv(), 10)))
                return seen

        seen = asyncio.run(scenario())
        timed = [m for m in seen if m["type"] == "update" and m["turn_left"] is not None]
        assert timed and all(0 <= m["turn_left"] <= 1 for m in timed)


def test_the_simple_client_only_ever_picks_a_legal_action() -> None:
    rng = random.Random(5)
    game = Game(Rules(players=3, jump_in=True, target_score=0), seed=5)
    while not game.is_over:
        moves = [choose(game.view(seat).to_json(), rng) for seat in range(3)]
        assert moves[game.current] is not None  # the seat on turn always moves
        game.apply(Action.from_json(next(m for m in moves if m is not None)))


def test_rooms_of_every_status_survive_a_restart_of_the_application(tmp_path: Path) -> None:
    """Lobby, game in play and finished game, each brought back from the database."""
    db = tmp_path / "deep" / "games.sqlite3"
    rules = {"players": 2, "target_score": 0}
    with running(SQLiteStore(db)) as address:
        lobby = create(address, rules={"players": 3})
        finished = create(address, rules=rules, bots=[1])
        playing = create(address, rules=rules, bots=[1])

        async def before() -> None:
            await SeatClient(f"ws://{address}/ws/{finished['code']}", finished["token"], random.Random(1)).play(
                start=True
            )
            await SeatClient(
                f"ws://{address}/ws/{playing['code']}", playing["token"], random.Random(2), stop_after=3
            ).play(start=True)

        asyncio.run(before())
        status, first = get(address, f"/api/rooms/{finished['code']}/record")
        assert status == 200
    with running(SQLiteStore(db)) as address:
        assert join(address, lobby["code"], "Beto")["seat"] == 1
        assert get(address, f"/api/rooms/{finished['code']}/record") == (200, first)
        over = asyncio.run(SeatClient(f"ws://{address}/ws/{playing['code']}", playing["token"]).play())
        assert over is not None and over["type"] == "over"
        status, second = get(address, f"/api/rooms/{playing['code']}/record")
        assert status == 200 and fairness.verify(second).is_over


def test_a_room_that_cannot_be_restored_does_not_keep_the_others_down(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    with running(SQLiteStore(db)) as address:
        good = create(address)
        bad = create(address, rules={"players": 2}, bots=[1])

        async def start() -> None:
            await SeatClient(f"ws://{address}/ws/{bad['code']}", bad["token"], stop_after=0).play(start=True)

        asyncio.run(start())
    with sqlite3.connect(db) as connection:  # a seed that no longer deals the stored round
        connection.execute("UPDATE rooms SET seed = ? WHERE code = ?", (bytes(32), bad["code"]))
    with running(SQLiteStore(db)) as address:
        assert get(address, f"/api/rooms/{good['code']}")[0] == 200
        assert get(address, f"/api/rooms/{bad['code']}")[0] == 404


def test_the_default_database_is_in_the_user_data_folder() -> None:
    path = default_db_path()
    assert path.name == "unomas.sqlite3" and "unomas" in path.parent.parts[-1].lower()


def test_the_i18n_endpoint_serves_both_languages_and_refuses_others() -> None:
    with running(SQLiteStore(":memory:")) as address:
        status, words = get(address, "/api/i18n/es")
        assert status == 200 and words["catalog"]["Join"] == "Unirse" and words["catalog"]["Skip"] == "Salta"
        assert words["switches"] == switches_json("es")
        assert words["errors"]["room.full"] == "La sala está llena."
        assert words["switches"][1]["switches"][1] == {
            "name": "jump_in",
            "title": "Cortar",
            "explanation": "jugar una carta idéntica fuera de turno",
            "official": False,
        }
        assert {bot["spec"]: bot["label"] for bot in words["bots"]} == {
            "heuristic": "heurístico (3)",
            "playfirst": "primera que sirva (2)",
            "random": "aleatorio (1, el más fácil)",
            "learned": "red aprendida (6, el más fuerte)",
        }
        assert {bot["spec"]: bot["slips"] for bot in words["bots"]}["heuristic"] == (
            "olvida cantar UNO el 20 % de las veces y no pilla el 25 %"
        )
        status, words = get(address, "/api/i18n/en")
        assert status == 200 and words["catalog"]["Skip"] == "Skip"
        assert words["errors"] == error_messages("en") and words["errors"]["room.full"] == "The room is full."
        status, answer = get(address, "/api/i18n/fr")
        assert status == 404 and refusal(answer) == ("lang.unknown", {"lang": "fr"})
        status, page = get(address, "/")
        assert status == 200 and "unomas" in page


def test_a_finished_room_closes_after_a_while_and_its_record_stays() -> None:
    settings = Settings(grace=30, bot_delay=0, window=0, round_pause=0, keep_finished=0.2)
    with running(SQLiteStore(":memory:"), settings) as address:
        room = create(address, rules={"players": 2, "target_score": 0}, bots=[1])
        url = f"ws://{address}/ws/{room['code']}"
        over = asyncio.run(SeatClient(url, room["token"], random.Random(1)).play(start=True))
        assert over is not None
        deadline = time.monotonic() + 10
        while get(address, f"/api/rooms/{room['code']}")[0] != 404:
            assert time.monotonic() < deadline, "the finished room stayed open"
            time.sleep(0.05)
        status, kept = get(address, f"/api/rooms/{room['code']}/record")
        assert status == 200 and fairness.verify(kept).is_over


def test_a_player_who_joined_and_never_came_is_played_by_a_bot_after_the_grace_period() -> None:
    with running(SQLiteStore(":memory:"), Settings(grace=0.3, bot_delay=0, window=0, round_pause=0)) as address:
        room = create(address, rules={"players": 3, "target_score": 0}, bots=[2])
        join(address, room["code"], "Beto")  # takes seat 1, never connects
        host = SeatClient(f"ws://{address}/ws/{room['code']}", room["token"], random.Random(1))
        over = asyncio.run(asyncio.wait_for(host.play(start=True), 30))
        assert over is not None and over["type"] == "over"
        rooms = [m for m in host.messages if m["type"] == "room"]
        assert any(m["seats"][1]["away"] for m in rooms) and not rooms[0]["seats"][1]["away"]


def test_a_websocket_to_an_unknown_room_is_told_so_and_closed() -> None:
    with running(SQLiteStore(":memory:")) as address:

        async def knock() -> tuple[dict[str, Any], int | None]:
            async with websockets.connect(f"ws://{address}/ws/NOPE00") as socket:
                message = json.loads(await asyncio.wait_for(socket.recv(), 5))
                with pytest.raises(websockets.ConnectionClosed):
                    await asyncio.wait_for(socket.recv(), 5)
                return message, socket.close_code

        message, code = asyncio.run(knock())
        assert message == {
            "type": "error",
            "code": "room.not_found",
            "params": {"room": "NOPE00"},
            "message": ERRORS["room.not_found"].english({"room": "NOPE00"}),
        }
        assert code == 4404


def test_a_connection_too_far_behind_is_dropped_not_waited_for() -> None:
    async def scenario() -> list[Any]:
        connection = Connection(limit=2)
        for number in range(5):
            connection.post({"n": number})
        return [connection.queue.get_nowait() for _ in range(connection.queue.qsize())]

    assert asyncio.run(scenario()) == [{"n": 0}, {"n": 1}, None]


async def bot_moves_while_watchers_come_and_go(url: str, token: str, seconds: float) -> int:
    """Start the match and leave (a bot soon plays the host's seat too); then count the
    moves a watcher sees while other watchers say hello and leave every few milliseconds."""
    async with websockets.connect(url) as host:
        await host.send(json.dumps({"type": "hello", "token": token}))
        await host.send(json.dumps({"type": "start"}))
        await next_view(host)
    async with websockets.connect(url) as watcher:
        await watcher.send(json.dumps({"type": "hello"}))
        stop = asyncio.Event()

        async def churn() -> int:
            hellos = 0
            while not stop.is_set():
                async with websockets.connect(url) as passer:
                    await passer.send(json.dumps({"type": "hello"}))
                    await asyncio.wait_for(passer.recv(), 5)
                    hellos += 1
                await asyncio.sleep(0.005)
            return hellos

        passers = asyncio.ensure_future(churn())
        loop = asyncio.get_running_loop()
        end = loop.time() + seconds
        moves = 0
        while (left := end - loop.time()) > 0:
            try:
                message = json.loads(await asyncio.wait_for(watcher.recv(), left))
            except TimeoutError:
                break
            if message["type"] == "update" and message["events"]:
                moves += 1
            if message["type"] == "over":
                break
        stop.set()
        assert await passers > 20  # watchers did come and go all along, faster than the bots' pace
        return moves


def test_watchers_coming_and_going_do_not_hold_up_the_bots() -> None:
    """The bots are paced by the game's ply alone: a hello is no reason to think again."""
    settings = Settings(grace=0.05, bot_delay=0.1, window=0, round_pause=0, lookup_rate=(1000.0, 1000.0))
    with running(SQLiteStore(":memory:"), settings) as address:
        room = create(address, rules={"players": 2, "target_score": 0}, bots=[1])
        url = f"ws://{address}/ws/{room['code']}"
        moves = asyncio.run(bot_moves_while_watchers_come_and_go(url, room["token"], 2.0))
        assert moves >= 5


async def first_update(url: str, token: str | None) -> dict[str, Any]:
    """Say hello and return the first update (the one with the history)."""
    async with websockets.connect(url) as socket:
        await socket.send(json.dumps({"type": "hello", "token": token}))
        while True:
            message = json.loads(await asyncio.wait_for(socket.recv(), 5))
            if message["type"] == "update":
                return dict(message)


def test_a_returning_seat_and_a_late_spectator_get_the_round_so_far_as_they_may_see_it() -> None:
    store = SQLiteStore(":memory:")
    with running(store, Settings(grace=30, bot_delay=0, window=0, round_pause=0)) as address:
        room = create(address, rules={"players": 3, "target_score": 0}, bots=[2])
        beto = join(address, room["code"], "Beto")
        url = f"ws://{address}/ws/{room['code']}"
        first = [SeatClient(url, room["token"], random.Random(8), stop_after=4), SeatClient(url, beto["token"])]

        async def play_a_little() -> None:
            """Both play until it is the host's turn after its fourth action: the game waits there."""
            guest = asyncio.ensure_future(first[1].play())
            await first[0].play(start=True)
            await asyncio.sleep(0.3)
            guest.cancel()
            await asyncio.gather(guest, return_exceptions=True)

        asyncio.run(play_a_little())
        back = [asyncio.run(first_update(url, token)) for token in (room["token"], beto["token"], None)]
        (stored,) = store.load()
        assert stored.seed is not None and len(stored.rounds) == 1
        rules = Rules(players=3, target_score=0).to_dict()
        states = truth({"rules": rules, "shuffle": {"seed": stored.seed.hex()}, "rounds": stored.rounds})
        assert len(states) > 5  # the deal and the moves so far
        for seat, message in zip([0, 1, None], back, strict=True):
            history = message["history"]
            assert message["events"] == [] and message["narration"] == []
            assert len(history) == len(states) <= HISTORY  # the deal and every move since, in order
            assert history[0]["events"][0]["event"] == "dealt"
            for entry, (hands, pile) in zip(history, states, strict=True):
                check_events(entry, seat, hands, pile)
                assert len(entry["narration"]) == len(entry["events"])
            dealt = history[0]["events"][0]["hands"]
            initial = states[0][0]
            assert [None if hand is None else sorted(hand) for hand in dealt] == [
                sorted(hand) if number == seat else None for number, hand in enumerate(initial)
            ]
            # Neither the spectator's history nor a seat's holds a hand it may not see.
            text = json.dumps(history)
            for number, hand in enumerate(states[-1][0]):
                if number != seat and len(hand) >= 3:
                    assert json.dumps(sorted(hand)) not in text
            if seat is not None:  # a returning seat: what it heard before, then what it missed
                heard = []
                for m in (m for m in first[seat].messages if m["type"] == "update"):
                    heard += [entry["events"] for entry in m.get("history", [])] + [m["events"]] * bool(m["events"])
                assert len(heard) >= 5 and [entry["events"] for entry in history[: len(heard)]] == heard
                assert message["view"]["hand"] and Counter(message["view"]["hand"]) == Counter(states[-1][0][seat])


def test_every_refusal_code_has_words_in_both_languages() -> None:
    for lang in LANGUAGES:
        assert set(ERRORS) <= set(error_messages(lang))
    for code in (code for code, entry in ERRORS.items() if entry.kind == "Refusal"):
        spanish, english = error_text(code, {}, "es"), error_text(code, {}, "en")
        assert spanish and english and spanish != english and code not in (spanish, english)
    assert error_text("room.not_found", {"room": "AB12CD"}, "es") == "No hay ninguna sala AB12CD."
    assert error_text("seat.not_yours", {"seat": 0, "asked": 1}, "es") == "Solo puedes jugar por tu propio asiento."
    assert error_text("message.too_long", {"length": 5000, "limit": 2048}, "es") == (
        "El mensaje es demasiado largo (5000 caracteres; como mucho 2048)."
    )
    # A refused move is worded by its own code.
    illegal = {"action": "0 play R1", "player": 0, "card": "R1"}
    assert error_text("move.no_such_card", illegal, "es") == "el jugador 0 no tiene ningún R1"
    assert error_text("move.no_such_card", {}, "en") == "player {player} holds no {card}"  # a param missing stays
    assert error_text("bot.dreamt", {}, "es", "the bot dreamt") == "the bot dreamt"
    assert error_text("bot.dreamt", {}, "es") == "bot.dreamt"


def test_the_page_shows_refusals_from_their_codes_never_their_text() -> None:
    page = "\n".join(path.read_text() for path in sorted(STATIC.glob("*.js")))
    assert "errors: answer.errors" in page and "function errorText(error)" in page
    assert 'message.code === "auth.bad_token"' in page and "showError(errorText(message))" in page
    assert ".message.startsWith" not in page and "showError(error.message)" not in page
    assert "ply: state.view.ply" not in page and "ply = state.view.ply" in page  # every action names its ply
    app = Path(server_app.__file__).read_text()
    assert "str(error)" not in app and ".message" not in app.replace("error.message", "")


async def until(condition: Any, seconds: float = 5.0) -> None:
    """Wait (on the event loop) until ``condition()`` holds."""
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    while not condition():
        assert loop.time() < end, "timed out"
        await asyncio.sleep(0.01)


async def stacked_room(monkeypatch: pytest.MonkeyPatch, settings: Settings, **setup: Any) -> tuple[Room, str]:
    """A two-seat room (Ana, a bot in seat 1) whose match deals Ana RS G7 and the bot R3 B5
    over a starting R9: the bot plays first."""
    game = make_game([["RS", "G7"], ["R3", "B5"]], ["R9", "B7"], target_score=0)
    monkeypatch.setattr(host, "Game", lambda rules, seed: game)
    for slip in ("forget", "miss"):  # the room's heuristic bots never slip here: each scenario is exact
        monkeypatch.setattr(HeuristicBot, slip, 0.0)
    room_setup = RoomSetup(name="Ana", rules={"players": 2, "target_score": 0, "hand_size": 2}, bots=[1], **setup)
    return await Room.create(room_setup, StoreWriter(SQLiteStore(":memory:")), settings, "STACK1")


def test_a_bot_s_action_overtaken_while_it_waits_is_thought_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bot means to catch Ana, who played her second-last card without calling UNO; she
    calls it before the bot's delay is over: the catch answers a ply that has passed."""

    async def scenario() -> None:
        room, token = await stacked_room(
            monkeypatch, Settings(grace=30, bot_delay=0.3, window=0, round_pause=0), turn_seconds=60
        )
        await room.attach(Connection(1000), token)
        await room.start(0)
        match = room.match
        assert room.game is not None and match is not None and match.conductor is not None
        game = room.game
        await until(lambda: game.ply == 1)  # the bot played R3
        await room.act(0, Move(p=0, a="play", card="RS"), ply=1)  # a Skip: Ana plays again, her UNO not called
        deadline = match.deadline
        await asyncio.sleep(0.1)  # the bot has chosen to catch her, and waits out its delay
        await room.act(0, Move(p=0, a="uno"), ply=2)
        assert match.deadline == deadline  # an UNO call starts no new turn
        await asyncio.sleep(0.5)
        assert game.log is not None
        assert [str(action) for action, _ in game.log[-1].moves] == ["1 play R3 uno", "0 play RS", "0 uno"]
        assert game.current == 0 and match.conductor.waiting_for() == 0
        await room.close()

    asyncio.run(scenario())


def test_a_bot_standing_in_gives_way_to_its_person_coming_back_during_its_delay(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async def scenario() -> None:
        room, token = await stacked_room(monkeypatch, Settings(grace=0.05, bot_delay=0.3, window=0, round_pause=0))
        await room.start(0)  # Ana is not connected: after the grace period her bot plays for her
        assert room.game is not None
        game = room.game
        await until(lambda: game.ply == 1)  # the bot of seat 1 played
        await asyncio.sleep(0.1)  # Ana's bot has chosen her move, and waits out its delay
        assert room.seats[0] is not None and room.seats[0].away
        await room.attach(Connection(1000), token)
        await asyncio.sleep(0.5)
        assert game.ply == 1 and game.current == 0  # Ana's turn is hers again
        await room.close()

    asyncio.run(scenario())


def test_an_action_once_the_match_is_over_is_refused() -> None:
    with running(SQLiteStore(":memory:")) as address:
        room = create(address, rules={"players": 2, "target_score": 0}, bots=[1])
        url = f"ws://{address}/ws/{room['code']}"
        assert asyncio.run(SeatClient(url, room["token"], random.Random(1)).play(start=True)) is not None

        async def late() -> dict[str, Any]:
            async with websockets.connect(url) as socket:
                await socket.send(json.dumps({"type": "hello", "token": room["token"]}))
                return await exchange(socket, json.dumps({"type": "act", "action": {"p": 0, "a": "draw"}}))

        assert asyncio.run(late())["code"] == "room.over"


def test_an_action_answering_a_ply_before_the_match_s_end_is_stale_not_a_failure() -> None:
    """A seat's action that the last move overtook is stale, as any overtaken action is:
    a bot that sent it while its rival played the last card has not failed."""
    with running(SQLiteStore(":memory:")) as address:
        room = create(address, rules={"players": 2, "target_score": 0}, bots=[1])
        url = f"ws://{address}/ws/{room['code']}"
        assert asyncio.run(SeatClient(url, room["token"], random.Random(1)).play(start=True)) is not None

        async def late(ply: int | None) -> dict[str, Any]:
            async with websockets.connect(url) as socket:
                await socket.send(json.dumps({"type": "hello", "token": room["token"]}))
                first = json.loads(await socket.recv())
                while first["type"] != "update":
                    first = json.loads(await socket.recv())
                final = first["view"]["ply"]
                action = {"p": 0, "a": "draw"}
                message = {"type": "act", "action": action, "ply": final if ply is None else final + ply}
                return await exchange(socket, json.dumps(message))

        stale = asyncio.run(late(-1))
        assert stale["code"] == "move.stale" and stale["params"]["now"] == stale["params"]["ply"] + 1
        assert asyncio.run(late(None))["code"] == "room.over"


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("\u200b\u200d ", "name.hidden"),
        ("\u202eanA", "name.bidi"),
        ("Ana (you)", "name.page_words"),
        ("Bea (anfitrión)", "name.page_words"),
        ("J\u043es\u00e9", "name.taken"),  # a Cyrillic о
        ("b\u03bft 3", "name.taken"),  # a Greek ο
        ("\uff22\uff2f\uff34 3", "name.taken"),  # full-width letters
        ("A\u200bna", "name.hidden"),
        ("Za\u0301\u0302\u0303\u0304", "name.marks"),
        ("<b>", "name.symbols"),
        ("JOSÉ", "name.taken"),
        ("Jose\u0301", "name.taken"),
        ("Bot 3", "name.taken"),
    ],
)
def test_names_are_normalised_and_refused_when_invisible_misleading_or_taken(name: str, code: str) -> None:
    with running(SQLiteStore(":memory:")) as address:
        room = create(address, name="Jose\u0301", rules={"players": 3}, bots=[2])
        status, info = get(address, f"/api/rooms/{room['code']}")
        assert [seat and seat["name"] for seat in info["seats"]] == ["José", None, "bot 3"]  # seat 3 is "bot 3"
        status, answer = post(address, f"/api/rooms/{room['code']}/join", {"name": name})
        assert status == ERRORS[code].status
        got, params = refusal(answer)
        assert got == code
        for lang in LANGUAGES:
            assert "{" not in error_text(code, params, lang)
        assert join(address, room["code"], "Beto")["seat"] == 1


async def hello(url: str, token: str | None) -> Any:
    socket = await websockets.connect(url)
    await socket.send(json.dumps({"type": "hello", "token": token}))
    return socket


async def next_of(socket: Any, kind: str, seconds: float = 5.0) -> dict[str, Any]:
    """The next message of type ``kind`` on ``socket``."""
    while True:
        message = json.loads(await asyncio.wait_for(socket.recv(), seconds))
        if message["type"] == kind:
            return dict(message)


def test_the_host_role_goes_to_the_next_person_when_the_host_leaves_the_lobby() -> None:
    with running(SQLiteStore(":memory:")) as address:
        room = create(address, rules={"players": 3})
        beto = join(address, room["code"], "Beto")
        url = f"ws://{address}/ws/{room['code']}"

        async def scenario() -> None:
            host = await hello(url, room["token"])
            await next_of(host, "room")
            guest = await hello(url, beto["token"])
            assert (await next_of(guest, "room"))["host"] == 0
            await guest.send(json.dumps({"type": "start"}))
            assert (await next_of(guest, "error"))["code"] == "room.not_host"
            await host.close()
            while (await next_of(guest, "room"))["host"] != 1:
                pass
            await guest.send(json.dumps({"type": "start"}))
            assert (await next_of(guest, "room"))["status"] == "playing"
            await guest.close()

        asyncio.run(scenario())
        room = create(address, rules={"players": 3})
        beto = join(address, room["code"], "Beto")
        url = f"ws://{address}/ws/{room['code']}"

        async def host_gone_before_anyone_came() -> int:
            host = await hello(url, room["token"])
            await next_of(host, "room")
            await host.close()
            await asyncio.sleep(0.2)
            guest = await hello(url, beto["token"])
            seat = (await next_of(guest, "room"))["host"]
            await guest.close()
            return int(seat)

        assert asyncio.run(host_gone_before_anyone_came()) == 1


def test_a_dropped_connection_is_told_at_once_with_the_grace_left_and_a_timeout_is_told() -> None:
    with running(SQLiteStore(":memory:"), Settings(grace=30, bot_delay=0, window=0, round_pause=0)) as address:
        room = create(address, rules={"players": 3, "target_score": 0}, bots=[2], turn_seconds=1)
        beto = join(address, room["code"], "Beto")
        url = f"ws://{address}/ws/{room['code']}"

        async def scenario() -> None:
            host = await hello(url, room["token"])
            lobby = await next_of(host, "room")
            assert lobby["turn_seconds"] == 1 and "grace_left" not in lobby["seats"][0]
            guest = await hello(url, beto["token"])
            await host.send(json.dumps({"type": "start"}))
            await next_of(guest, "update")
            await guest.close()
            told = await next_of(host, "presence")
            while told["connected"]:  # (the guest's hello)
                told = await next_of(host, "presence")
            assert told["seat"] == 1 and not told["connected"] and 29 <= told["grace_left"] <= 30
            timeout = await next_of(host, "timeout")  # nobody plays: the timer acts for a person
            assert timeout["seat"] in (0, 1)
            await host.close()

        asyncio.run(scenario())


def test_reactions_are_a_fixed_set_sent_to_everyone_and_not_by_spectators() -> None:
    with running(SQLiteStore(":memory:")) as address:
        room = create(address)
        url = f"ws://{address}/ws/{room['code']}"

        async def scenario() -> None:
            host, watcher = await hello(url, room["token"]), await hello(url, None)
            await next_of(watcher, "room")
            await host.send(json.dumps({"type": "react", "reaction": "good_game"}))
            for socket in (host, watcher):
                assert await next_of(socket, "reaction") == {"type": "reaction", "seat": 0, "reaction": "good_game"}
            await host.send(json.dumps({"type": "react", "reaction": "nice"}))  # too soon after the first
            assert (await next_of(host, "error"))["code"] == "rate.limited"
            await host.send(json.dumps({"type": "react", "reaction": "you fool"}))
            assert (await next_of(host, "error"))["code"] == "message.invalid"
            await watcher.send(json.dumps({"type": "react", "reaction": "nice"}))
            assert (await next_of(watcher, "error"))["code"] == "seat.spectator"
            await host.close()
            await watcher.close()

        asyncio.run(scenario())
    assert "hurry" in protocol.REACTIONS


def test_a_rematch_has_the_same_seats_and_rules_a_new_seed_once_every_person_opts_in() -> None:
    with running(SQLiteStore(":memory:")) as address:
        rules = {"players": 3, "target_score": 30, "hand_size": 3}
        room = create(address, rules=rules, bots=[2])
        beto = join(address, room["code"], "Beto")
        url = f"ws://{address}/ws/{room['code']}"
        players = [SeatClient(url, room["token"], random.Random(1)), SeatClient(url, beto["token"], random.Random(2))]

        async def too_early() -> str:
            socket = await hello(url, beto["token"])
            await socket.send(json.dumps({"type": "rematch"}))
            code = (await next_of(socket, "error"))["code"]
            await socket.close()
            return str(code)

        assert asyncio.run(too_early()) == "rematch.early"
        over = asyncio.run(play_all(players))
        assert over[0]["winner"] is not None and over[0]["rounds"][-1]["scores"] == over[0]["scores"]
        assert [r["round"] for r in over[0]["rounds"]] == list(range(len(over[0]["rounds"])))

        async def scenario() -> tuple[dict[str, Any], dict[str, Any]]:
            host, guest, watcher = [await hello(url, t) for t in (room["token"], beto["token"], None)]
            # A late spectator gets the whole match as it may see it: every round's deal.
            first = await next_of(watcher, "update")
            assert sum(e["event"] == "dealt" for h in first["history"] for e in h["events"]) == len(over[0]["rounds"])
            assert first["rounds"] == over[0]["rounds"]
            await watcher.send(json.dumps({"type": "rematch"}))
            assert (await next_of(watcher, "error"))["code"] == "seat.spectator"
            await host.send(json.dumps({"type": "rematch"}))
            while (await next_of(guest, "room"))["rematch"] != [0]:
                pass
            await guest.send(json.dumps({"type": "rematch"}))
            made = [await next_of(socket, "rematch") for socket in (host, guest, watcher)]
            assert len({m["code"] for m in made}) == 1
            late = await hello(url, room["token"])  # a tab on the old room later is sent the new one
            assert (await next_of(late, "rematch")) == made[0]
            await late.close()
            again = await hello(f"ws://{address}/ws/{made[0]['code']}", beto["token"])
            new_room = await next_of(again, "room")
            old_room = await next_of(host, "room")
            for socket in (host, guest, watcher, again):
                await socket.close()
            return old_room, new_room

        old_room, new_room = asyncio.run(scenario())
        assert old_room["next"] == new_room["code"] != room["code"]
        assert new_room["status"] == "playing" and new_room["you"] == 1 and new_room["rules"] == old_room["rules"]
        assert [s["name"] for s in new_room["seats"]] == ["Ana", "Beto", "bot 3"]
        assert new_room["commitment"] != old_room["commitment"]


def contrast(one: str, other: str) -> float:
    """The WCAG 2 contrast ratio of two ``#rrggbb`` colours."""

    def luminance(colour: str) -> float:
        channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
        r, g, b = (c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    light, dark = sorted((luminance(one), luminance(other)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_every_card_s_text_meets_a_contrast_of_4_5_to_1() -> None:
    """The corners' ink on each card's colour, and the middle sign on its white oval."""
    page = (STATIC / "hand.js").read_text()

    def table(name: str) -> dict[str, str]:
        found = re.search(rf"export const {name} = \{{([^}}]+)\}}", page)
        assert found is not None, name
        return dict(re.findall(r'(\w): "(#[0-9a-f]{6})"', found.group(1)))

    fill, ink, sign = table("FILL"), table("INK"), table("SIGN")
    assert set(fill) == set(ink) == set(sign) == set("RYGBW")
    for letter in fill:
        assert contrast(ink[letter], fill[letter]) >= 4.5, letter
        assert contrast(sign[letter], "#ffffff") >= 4.5, letter
    assert contrast("#f9a825", "#ffffff") < 4.5  # (the old yellow sign, which this test would refuse)
    # The words on the felt (white) stand on its lightest green, in the middle of the table.
    felt = re.search(r"radial-gradient\(ellipse at center, (#[0-9a-f]{6}) 0%", (STATIC / "style.css").read_text())
    assert felt is not None and contrast("#ffffff", felt.group(1)) >= 4.5
