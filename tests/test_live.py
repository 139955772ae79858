"""Every kind of seat at a live table is owed the same: the same out-of-turn chances at the
same moments as the batch conductor gives a seat it asks, whatever door the seat sits behind."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import replace

import pytest

from server_support import QUICK, running
from unomas import fairness
from unomas.actions import Action, Kind
from unomas.agents.tables import LocalTable
from unomas.bots import make_bot
from unomas.bots.player import BotPlayer
from unomas.client import RoomClient, create_room
from unomas.conductor import Conductor
from unomas.game import Game
from unomas.live.host import Host, bot_source
from unomas.rules import Rules
from unomas.server.storage import SQLiteStore
from unomas.tui.session import Session

RULES = Rules.preset("all", players=4, target_score=0)
BOTS = ["random"] * 3
"""A room seats one level at every bot seat: the same at every door."""
SEED = "c"
Chance = tuple[int, tuple[str, ...]]


def choose(actions: list[Action]) -> Action:
    """The seat's choice on its turn: a play calling UNO if any, else the first action."""
    return next((a for a in actions if a.kind is Kind.PLAY), actions[0])


def reference() -> list[Chance]:
    """The chances the batch conductor asks seat 0 for (it lets each go), its turns chosen alike."""
    secret = fairness.table_secret(SEED)
    players = [None, *(BotPlayer(make_bot(spec)) for spec in BOTS)]
    rngs = [bot_source(secret, seat) for seat in range(RULES.players)]
    table = Conductor(Game(RULES, seed=secret), players, rngs=rngs, ask_external=True)
    offered: list[Chance] = []
    while not table.game.round_over:
        action = table.propose()
        if action is not None:
            table.act(action, ply=table.game.ply)
            continue
        actions = table.legal_actions(0)
        if table.game.current != 0:
            offered.append((table.game.ply, tuple(map(str, actions))))
            table.decline(0)
        else:
            table.act(choose(actions))
    return offered


async def sit(
    host: Host, act: Callable[[Action], Awaitable[None]], let_go: Callable[[], Awaitable[None]]
) -> list[Chance]:
    """Seat 0 behind a door: each chance the host holds the bots back for is noted and let
    go; on its turn, once the sequence comes to it, the seat plays as :func:`reference`'s."""
    offered: list[Chance] = []
    while not host.game.round_over:
        conductor = host.conductor
        assert conductor is not None
        actions = conductor.legal_actions(0)
        if 0 in host.reacting():
            offered.append((host.game.ply, tuple(map(str, actions))))
            await let_go()
        elif conductor.waiting_for() == 0:
            await act(choose(actions))
        await asyncio.sleep(0.002)
    return offered


async def at_the_terminal() -> list[Chance]:
    session = Session(RULES, BOTS, seed=SEED, pace=0, window=60, save=False)
    session.start()

    async def let_go() -> None:
        session.let_go()

    offered = await sit(session.host, session.submit, let_go)
    await session.close()
    return offered


async def at_an_agents_table() -> list[Chance]:
    table = LocalTable(RULES, BOTS, "agent", "en", seed=SEED, window=60)
    offered = await sit(table.host, lambda action: table.act(action, table.host.game.ply), table.let_go)
    await table.close()
    return offered


async def at_a_room(address: str) -> list[Chance]:
    """Seat 0 of a room of a real server, over the protocol: what the page, a remote terminal
    and an agent at a room all speak. Its turn is taken once the room's bots have had theirs
    to react (they act at once: no bot delay)."""
    ticket, _link = await asyncio.to_thread(
        create_room, f"http://{address}", "Ana", rules=RULES.to_dict(), bots=[1, 2, 3], bot="random", window=10
    )
    client = RoomClient.of(ticket)
    await client.connect()
    await client.start()
    offered: list[Chance] = []
    let_go = -1

    def ended() -> bool:
        return client.view is not None and client.view["phase"] in ("round_over", "match_over")

    def deciding() -> bool:
        return ended() or _fresh(client, let_go)

    while await client.wait_for(deciding, 60) and not ended():
        view = client.view
        assert view is not None
        actions = [Action.from_json(move) for move in view["legal_actions"]]
        if view["current"] != 0:
            offered.append((view["ply"], tuple(map(str, actions))))
            let_go = view["ply"]
            await client.let_go(let_go)
            continue
        await asyncio.sleep(0.02)  # the bots' chances on Ana's turn come first, as the sequence has them
        if client.view is view:
            await client.act(choose(actions).to_json())
    await client.close()
    return offered


def _fresh(client: RoomClient, let_go: int) -> bool:
    """Whether the seat has a decision it has not answered: its turn, or a chance not let go."""
    view = client.view
    return bool(view and view["legal_actions"] and (view["current"] == 0 or view["ply"] != let_go))


def test_a_room_offers_its_seat_the_chances_the_conductor_asks_it_for(monkeypatch: pytest.MonkeyPatch) -> None:
    secret = fairness.table_secret(SEED)
    monkeypatch.setattr(fairness, "new_seed", lambda: secret)
    with running(SQLiteStore(":memory:"), replace(QUICK, window=10)) as address:
        offered = asyncio.run(asyncio.wait_for(at_a_room(address), 120))
    assert offered == reference()


@pytest.mark.parametrize("door", [at_the_terminal, at_an_agents_table])
def test_every_door_offers_the_seat_the_chances_the_conductor_asks_it_for(
    door: Callable[[], Awaitable[list[Chance]]],
) -> None:
    expected = reference()
    assert expected, "the match offers seat 0 some chances"
    assert asyncio.run(asyncio.wait_for(door(), 120)) == expected
