"""The server over real WebSockets: full games with people and bots, secrecy, bad input."""

from __future__ import annotations

import asyncio
import json
import random
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
from unomas.cards import card_token
from unomas.game import Game
from unomas.i18n.switches import switches_json
from unomas.rules import Rules
from unomas.server.client import SeatClient, choose
from unomas.server.rooms import Connection, Settings
from unomas.server.storage import SQLiteStore, default_db_path


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
        assert all(error["message"].startswith(f"{error_seat(client)} ") for error in client.errors)
        final = [m for m in client.messages if m["type"] == "update"][-1]["view"]
        assert final["winner"] == game.winner and final["scores"] == game.scores
    # People made the moves of their seats: each of the two took actions.
    moves = [e for r in record["rounds"] for e in r["events"] if "p" in e]
    assert {0, 1, 2, 3} <= {m["p"] for m in moves}


def error_seat(client: SeatClient) -> int | None:
    seat: int | None = next(m["you"] for m in client.messages if m["type"] == "room")
    return seat


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
    # Nowhere in the message is the draw pile's order, or a whole hand of another seat.
    text = json.dumps(message)
    if len(pile) >= 8:  # (eight in a row: a chance match with the public discard is negligible)
        assert json.dumps(pile[:8])[1:-1] not in text
    for number, hand in enumerate(hands):
        if number != seat and len(hand) >= 3 and not any(e["event"] == "round_ended" for e in message["events"]):
            assert json.dumps(sorted(hand)) not in json.dumps(sorted(view["hand"]))


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
        assert get(address, "/static/app.js")[0] == 200
        assert get(address, "/api/rooms/NOPE99")[0] == 404
        assert get(address, "/api/rooms/NOPE99/record")[0] == 404
        status, answer = get(address, f"/api/rooms/{room['code']}/record")
        assert status == 409 and "not over" in answer["error"]


def test_a_lobby_nobody_is_in_is_forgotten_after_a_while_one_with_someone_stays(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "rooms.sqlite3")
    with running(store, Settings(keep_empty_lobby=0.4)) as address:
        empty = create(address)
        watched = create(address)

        async def stay_in(code: str) -> None:
            async with websockets.connect(f"ws://{address}/ws/{code}") as socket:
                await socket.send(json.dumps({"type": "hello"}))
                await asyncio.sleep(1.5)

        asyncio.run(stay_in(watched["code"]))
        assert get(address, f"/api/rooms/{empty['code']}")[0] == 404
        assert get(address, f"/api/rooms/{watched['code']}")[0] == 200  # its spectator left only now
        assert [room.code for room in store.load()] == [watched["code"]]


@pytest.mark.parametrize(
    ("setup", "message"),
    [
        ({"name": "Ana", "rules": {"players": 11}}, "players must be 2 to 10"),
        ({"name": "Ana", "rules": {"jump": True}}, "unknown setting 'jump'"),
        ({"name": "Ana", "rules": {"jump_in": 1}}, "rules: jump_in must be true or false, not 1"),
        ({"name": "Ana", "bots": [0]}, "seat 0 is not one of seats 1 to 3"),
        ({"name": "Ana", "bots": [1, 1]}, "listed twice"),
        ({"name": "Ana", "bot": "cmd:rm -rf /"}, "bot"),
        ({"name": ""}, "name"),
        ({"name": "<script>"}, "name"),
        ({"name": "Ana", "turn_seconds": -1}, "turn_seconds"),
        ({"name": "Ana", "extra": 1}, "extra"),
    ],
)
def test_a_bad_room_setup_is_refused_naming_what_is_wrong(setup: dict[str, Any], message: str) -> None:
    with running(SQLiteStore(":memory:")) as address:
        status, answer = post(address, "/api/rooms", setup)
        assert status == 422 and message in answer["error"]
        assert post(address, "/api/rooms", b"{not json")[0] == 422
        assert post(address, "/api/rooms", {"name": "x" * 5000})[0] == 422


def test_joining_a_full_or_started_room_or_an_unknown_one_is_refused() -> None:
    with running(SQLiteStore(":memory:")) as address:
        room = create(address, rules={"players": 2})
        join(address, room["code"], "Beto")
        status, answer = post(address, f"/api/rooms/{room['code']}/join", {"name": "Carla"})
        assert status == 409 and "full" in answer["error"]
        assert post(address, "/api/rooms/ZZZZZZ/join", {"name": "Carla"})[0] == 404
        assert post(address, f"/api/rooms/{room['code']}/join", {"name": ""})[0] == 422
        room = create(address, rules={"players": 3})

        async def start() -> None:
            async with websockets.connect(f"ws://{address}/ws/{room['code']}") as socket:
                await socket.send(json.dumps({"type": "hello", "token": room["token"]}))
                await socket.send(json.dumps({"type": "start"}))
                while json.loads(await socket.recv())["type"] != "update":
                    pass

        asyncio.run(start())
        status, answer = post(address, f"/api/rooms/{room['code']}/join", {"name": "Carla"})
        assert status == 409 and "already started" in answer["error"]


async def exchange(socket: Any, message: str | bytes) -> dict[str, Any]:
    """Send one message; return the first error answered (skipping other messages)."""
    await socket.send(message)
    while True:
        answer = json.loads(await asyncio.wait_for(socket.recv(), 5))
        if answer["type"] == "error":
            return dict(answer)


def test_malformed_and_forbidden_messages_get_an_error_and_change_nothing() -> None:
    store = SQLiteStore(":memory:")
    with running(store, Settings(grace=30, bot_delay=0, round_pause=0)) as address:
        room = create(address, rules={"players": 3, "target_score": 0})
        other = join(address, room["code"], "Beto")
        url = f"ws://{address}/ws/{room['code']}"

        async def scenario() -> None:
            async with websockets.connect(url) as host, websockets.connect(url) as beto, websockets.connect(url) as eve:
                error = await exchange(host, json.dumps({"type": "start"}))
                assert "say hello first" in error["message"]
                await host.send(json.dumps({"type": "hello", "token": room["token"]}))
                await beto.send(json.dumps({"type": "hello", "token": other["token"]}))
                assert (
                    "unknown token"
                    in (await exchange(eve, json.dumps({"type": "hello", "token": "x" * 20})))["message"]
                )
                await eve.send(json.dumps({"type": "hello"}))
                assert "only the host" in (await exchange(beto, json.dumps({"type": "start"})))["message"]
                assert (
                    "not being played"
                    in (await exchange(host, json.dumps({"type": "act", "action": {"p": 0, "a": "draw"}})))["message"]
                )
                await host.send(json.dumps({"type": "start"}))
                view = await next_view(host)
                views = {0: view, 1: await next_view(beto)}
                before = stored_events(store)
                seat = view["current"]
                socket = host if seat == 0 else beto if seat == 1 else None
                bad: list[tuple[Any, str | bytes, str]] = [
                    (host, "{nope", "not JSON"),
                    (host, b"\x00\x01", "not binary"),
                    (host, json.dumps({"type": "dance"}), "type"),
                    (host, json.dumps({"type": "act"}), "action"),
                    (host, json.dumps({"type": "act", "action": {"p": 0, "a": "fly"}}), "action.a"),
                    (host, json.dumps({"type": "act", "action": {"p": 0, "a": "draw"}, "x": 1}), "x"),
                    (host, json.dumps({"type": "act", "action": {"p": 0, "a": "play", "card": "Q9"}}), "Q9"),
                    (host, json.dumps({"type": "act", "action": {"p": 1, "a": "draw"}}), "you play seat 0"),
                    (host, json.dumps({"type": "hello", "token": room["token"]}), "already said hello"),
                    (host, json.dumps({"type": "start"}), "already started"),
                    (host, "[" * 5000, "too long"),
                    (eve, json.dumps({"type": "act", "action": {"p": 0, "a": "draw"}}), "spectators cannot act"),
                ]
                if socket is not None:  # a move the rules refuse: a card the seat does not hold
                    held = set(views[seat]["hand"])
                    missing = next(t for t in ("R1", "G2", "B3", "Y4", "R5", "G6", "B7", "Y8") if t not in held)
                    act = {"type": "act", "action": {"p": seat, "a": "play", "card": missing}, "ref": 7}
                    bad.append((socket, json.dumps(act), ""))
                for sender, text, expected in bad:
                    error = await exchange(sender, text)
                    assert expected in error["message"], (text, error)
                assert stored_events(store) == before

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
        assert sum("slow down" in a["message"] for a in answers) >= 14
        assert sum("type" in a["message"] and "slow" not in a["message"] for a in answers) >= 4

        async def flood_of_actions() -> list[dict[str, Any]]:
            async with websockets.connect(f"ws://{address}/ws/{room['code']}") as socket:
                for ref in range(20):
                    act = {"type": "act", "action": {"p": 0, "a": "draw"}, "ref": ref}
                    await socket.send(json.dumps(act))
                return [json.loads(await asyncio.wait_for(socket.recv(), 5)) for _ in range(20)]

        # Even refused for speed, an action's answer names it, so its sender can go on.
        answers = asyncio.run(flood_of_actions())
        assert [a["ref"] for a in answers] == list(range(20))
        assert sum("slow down" in a["message"] for a in answers) >= 14


def test_a_closed_tab_rejoins_its_seat_and_an_absent_player_is_played_by_a_bot() -> None:
    with running(SQLiteStore(":memory:"), Settings(grace=0.3, bot_delay=0, round_pause=0)) as address:
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
    with running(SQLiteStore(":memory:"), Settings(grace=30, bot_delay=0, round_pause=0)) as address:
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
        assert words["switches"][1]["switches"][1] == {
            "name": "jump_in",
            "title": "Cortar",
            "explanation": "jugar una carta idéntica fuera de turno",
            "official": False,
        }
        assert {bot["spec"]: bot["label"] for bot in words["bots"]} == {
            "heuristic": "heurístico (3)",
            "playfirst": "playfirst (2)",
            "random": "aleatorio (1, el más fácil)",
        }
        status, words = get(address, "/api/i18n/en")
        assert status == 200 and words["catalog"]["Skip"] == "Skip"
        status, answer = get(address, "/api/i18n/fr")
        assert status == 404 and "unknown language 'fr'" in answer["error"]
        status, page = get(address, "/")
        assert status == 200 and "unomas" in page


def test_a_finished_room_closes_after_a_while_and_its_record_stays() -> None:
    settings = Settings(grace=30, bot_delay=0, round_pause=0, keep_finished=0.2)
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
    with running(SQLiteStore(":memory:"), Settings(grace=0.3, bot_delay=0, round_pause=0)) as address:
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
        assert message == {"type": "error", "message": "no room 'NOPE00'"} and code == 4404


def test_a_connection_too_far_behind_is_dropped_not_waited_for() -> None:
    async def scenario() -> list[Any]:
        connection = Connection(limit=2)
        for number in range(5):
            connection.post({"n": number})
        return [connection.queue.get_nowait() for _ in range(connection.queue.qsize())]

    assert asyncio.run(scenario()) == [{"n": 0}, {"n": 1}, None]
