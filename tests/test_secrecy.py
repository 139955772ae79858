"""Secrecy the same at every door of a live table: what a seat can obtain before the match is
over — a room's first update and every later one, an agent's view, words, actions, news and
record, the terminal's table words — depends on nothing it may not know. Each door is asked
twice, of a match and of its twin in which every card the seat cannot see (the other hands,
the pile's order) is redealt: the answers are the same, and every record door refuses. With
teams under ``team_view`` a partner's hand is seen, so it is kept; without, it is redealt."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

pytest.importorskip("mcp")

from test_properties import choose, scrambled
from unomas.agents.server import state
from unomas.agents.tables import LocalTable
from unomas.errors import UnoError
from unomas.game import Game, Phase
from unomas.i18n import translator
from unomas.i18n.wording import prompt, seat_line, status_line
from unomas.live import host
from unomas.rules import Rules
from unomas.server.protocol import RoomSetup
from unomas.server.rooms import Connection, Room, Settings
from unomas.server.storage import SQLiteStore, StoreWriter

TABLES = [
    Rules.preset("all", players=3, target_score=0),
    Rules.preset("all", players=4, target_score=0, teams="2v2"),
    Rules.preset("all", players=4, target_score=0, teams="2v2", team_view=False),
]
"""Every house rule on, and with teams (partners' hands seen, ``team_view``, or not)."""
NAMES = ["Ana", "Beto", "Carla", "Dani"]


def mid_match(rules: Rules, seed: int) -> Game:
    """A match some way in, waiting for seat 0's turn with no chance open to anyone."""
    game = Game(rules, seed=seed)
    rng = random.Random(seed)
    while True:
        game.apply(choose(game, rng))
        if game.round_over:
            seed += 1000
            game = Game(rules, seed=seed)
        elif game.ply > 12 and game.current == 0 and game.phase is Phase.TURN and not game.out_of_turn_possible():
            return game


def sent(message: dict[str, Any]) -> dict[str, Any]:
    """A message as the doors compare it (the commitment is to each twin's own secret seed)."""
    return {key: value for key, value in message.items() if key != "commitment"}


async def room_doors(game: Game, monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """What seat 0 of a room is told on its hello (and a spectator), and the record door."""
    monkeypatch.setattr(host, "Game", lambda rules, seed: game)
    setup = RoomSetup(name="Ana", rules=game.rules.to_dict(), bots=list(range(1, game.players)))
    room, token = await Room.create(setup, StoreWriter(SQLiteStore(":memory:")), Settings(window=0), "TWINS1")
    await room.start(0)
    told = []
    for key in (token, None):
        connection = Connection(1000)
        await room.attach(connection, key, "es")
        while not connection.queue.empty():
            message = connection.queue.get_nowait()
            assert message is not None
            told.append(sent(message))
    assert room.record is None and room.status == "playing"  # the HTTP record door refuses (room.not_over)
    await room.close()
    return told


async def agent_doors(game: Game, monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """What an agent at a local table may ask: its state in both languages, and its record."""
    monkeypatch.setattr(host, "Game", lambda rules, seed: game)
    table = LocalTable(game.rules, ["heuristic"] * (game.players - 1), "agent", "es", window=0)
    await asyncio.sleep(0.05)
    answers = [state("t", table, lang, news=lang == "es") for lang in ("es", "en")]
    with pytest.raises(UnoError) as refused:
        await table.record()
    assert refused.value.code == "match.not_over"
    await table.close()
    return answers


def terminal_doors(game: Game) -> list[str]:
    """The table in the terminal's words: the status, every seat's line and the prompt."""
    view, names = game.view(0), NAMES[: game.players]
    lines = []
    for lang in ("es", "en"):
        t = translator(lang)
        lines += [status_line(view, t), prompt(view, names, t)]
        lines += [seat_line(view, seat, names, t) for seat in range(game.players)]
    return lines


@pytest.mark.parametrize("rules", TABLES, ids=["three", "team-view", "teams"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_door_of_a_live_table_tells_a_seat_nothing_it_may_not_know(
    seed: int, rules: Rules, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = mid_match(rules, seed)
    twin = scrambled(game, 0, random.Random(seed))
    assert twin.hands[1:] != game.hands[1:] or twin.pile != game.pile  # the twins differ where seat 0 cannot see
    assert (twin.hands[2] == game.hands[2]) == bool(rules.seen_hands(0))  # a partner's hand seen is kept
    twin.log = game.log  # the same story: what differs is only what seat 0 cannot see now
    answers = []
    for match in (game, twin):
        answers.append(
            (
                asyncio.run(room_doors(match.copy(history=True, rng=random.Random(seed)), monkeypatch)),
                asyncio.run(agent_doors(match.copy(history=True, rng=random.Random(seed)), monkeypatch)),
                terminal_doors(match),
            )
        )
    assert answers[0] == answers[1]
