"""unomas mcp through the SDK's own client: over stdio, a local match against bots played
to its end by choosing among the listed actions; refusals as tool errors with codes; the
rules resource and the prompt; a room of a real server joined, dropped and played out."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp")
import httpx2
import jsonschema  # type: ignore[import-untyped]
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from typer.testing import CliRunner

from server_support import free_port, running
from unomas import fairness, record
from unomas.agents.server import Tables, build_server
from unomas.agents.tables import RemoteTable
from unomas.cli.app import app
from unomas.client import Refused, RoomClient, create_room
from unomas.server.storage import SQLiteStore

ROOT = Path(__file__).resolve().parent.parent
STDIO = StdioServerParameters(
    command=sys.executable, args=["-m", "unomas", "mcp"], env={"PYTHONPATH": str(ROOT / "src")}, cwd=str(ROOT)
)
TOOLS = {"start_match", "join_room", "get_view", "act", "wait", "let_go", "match_rules", "get_record", "leave"}


async def call(client: Client, tool: str, **arguments: Any) -> dict[str, Any]:
    result = await client.call_tool(tool, arguments)
    assert not result.is_error, result.content
    assert result.structured_content is not None
    return dict(result.structured_content)


async def refusal(client: Client, tool: str, **arguments: Any) -> dict[str, Any]:
    """The code, params and message of a refused call (a tool error)."""
    result = await client.call_tool(tool, arguments)
    assert result.is_error
    text = result.content[0].text  # type: ignore[union-attr]
    return dict(json.loads(text[text.index("{") :]))  # the SDK says which tool failed before it


def choice(state: dict[str, Any]) -> int:
    """An agent's choice among the listed actions: the first play, else the first."""
    actions = state["actions"]
    return int(next((a["id"] for a in actions if a["action"]["a"] == "play"), actions[0]["id"]))


async def play_out(client: Client, table: str | None = None) -> dict[str, Any]:
    """Wait and act until the match is over; the last state."""
    while True:
        state = await call(client, "wait", timeout=30, **({"table": table} if table else {}))
        if state["over"]:
            return state
        if not state["ready"]:
            continue
        assert state["words"] and all(a["description"] for a in state["actions"])
        try:
            await call(client, "act", action_id=choice(state), ply=state["ply"], **({"table": table} if table else {}))
        except AssertionError:
            refused = await refusal(client, "act", action_id=choice(state), ply=state["ply"])
            assert refused["code"] == "move.stale"


@pytest.mark.parametrize("where", ["stdio", "in-process"])
def test_an_agent_plays_a_local_match_to_its_end(where: str) -> None:
    async def scenario() -> dict[str, Any]:
        async with Client(STDIO if where == "stdio" else build_server()) as client:
            assert {tool.name for tool in (await client.list_tools()).tools} >= TOOLS
            rules = await client.read_resource("unomas://rules")
            assert "Wild Draw Four" in rules.contents[0].text  # type: ignore[union-attr]
            spanish = await client.read_resource("unomas://rules/es")
            assert "Comodín roba cuatro" in spanish.contents[0].text  # type: ignore[union-attr]
            prompt = await client.get_prompt("how_to_play")
            assert "`act`" in prompt.messages[0].content.text  # type: ignore[union-attr]
            spanish_prompt = await client.get_prompt("how_to_play", {"language": "es"})
            assert "Di UNO" in spanish_prompt.messages[0].content.text  # type: ignore[union-attr]
            assert (await refusal(client, "get_view"))["code"] == "table.unknown"
            bad = await refusal(client, "start_match", players=2, rules={"no_such_rule": True})
            assert (bad["code"], bad["params"]["name"]) == ("setup.unknown_setting", "'no_such_rule'")
            state = await call(
                client, "start_match", players=3, bots=["playfirst", "heuristic"], rules={"target_score": 0}, seed="7"
            )
            assert state["seat"] == 0 and state["news"]["narration"][0].startswith("Round 1")
            assert "Your hand:" in state["words"]
            described = await call(client, "match_rules")
            assert described["rules"]["players"] == 3 and "[ ] Jump in" in described["words"]
            while not state["ready"]:
                state = await call(client, "wait", timeout=1)
            stale = await refusal(client, "act", action_id=0, ply=state["ply"] + 1)
            assert stale["code"] == "move.stale" and stale["params"] == {"ply": state["ply"] + 1, "now": state["ply"]}
            wrong = await refusal(client, "act", action_id=len(state["actions"]), ply=state["ply"])
            assert (wrong["code"], wrong["params"]["action"]) == ("table.no_action", len(state["actions"]))
            final = await play_out(client)
            assert final["over"] and final["view"]["winner"] is not None
            return await call(client, "get_record")

    written = asyncio.run(asyncio.wait_for(scenario(), 120))
    game = record.replay(written)
    assert game.is_over and written["names"][0] == "agent"


def test_an_agent_joins_a_room_keeps_its_seat_through_a_dropped_connection_and_plays_to_the_end() -> None:
    async def scenario(address: str) -> dict[str, Any]:
        ticket, link = await asyncio.to_thread(
            create_room, f"http://{address}", "Ana", rules={"players": 2, "target_score": 0}, programs=[1]
        )
        tables = Tables()
        async with Client(build_server("es", tables)) as agent:
            joined = await call(agent, "join_room", link=link, name="agente")
            assert joined["seat"] == 1 and joined["view"] is None
            host = RoomClient.of(ticket)
            await host.connect()
            assert host.room is not None and host.room["seats"][1]["program"]
            await host.start()

            async def person() -> None:
                while (view := await host.wait_turn(60)) is not None:
                    legal = view["legal_actions"]
                    try:
                        await host.act(next((a for a in legal if a["a"] == "play"), legal[0]))
                    except Refused:
                        await asyncio.sleep(0.05)

            people = asyncio.ensure_future(person())
            first = await call(agent, "wait", timeout=30)
            assert first["view"] is not None and "Tu mano:" in first["words"]
            _, seated = tables.get("local", joined["table"])
            assert isinstance(seated, RemoteTable)
            await seated.client.drop()
            final = await play_out(agent, joined["table"])
            await people
            assert seated.client.connects >= 2 and seated.seat == 1 and final["over"]
            await host.close()
            return await call(agent, "get_record")

    with running(SQLiteStore(":memory:")) as address:
        written = asyncio.run(asyncio.wait_for(scenario(address), 120))
    assert fairness.verify(written).is_over
    assert written["names"] == ["Ana", "agente"] and written["bots"] == []
    assert 1 in {e["p"] for r in written["rounds"] for e in r["events"] if "p" in e}


def test_an_agent_reaches_the_tools_over_streamable_http() -> None:
    port = free_port()
    command = [sys.executable, "-m", "unomas", "mcp", "--http", "--port", str(port), "--lang", "es"]
    server = subprocess.Popen(command, env={**os.environ, "PYTHONPATH": str(ROOT / "src")}, stderr=subprocess.DEVNULL)

    async def scenario() -> dict[str, Any]:
        for _ in range(100):
            try:
                async with Client(f"http://127.0.0.1:{port}/mcp") as client:
                    assert {tool.name for tool in (await client.list_tools()).tools} >= TOOLS
                    return await call(client, "start_match", players=2, rules={"target_score": 0}, seed="3")
            except Exception:
                await asyncio.sleep(0.2)  # not listening yet
        raise AssertionError("unomas mcp --http did not answer")

    try:
        state = asyncio.run(asyncio.wait_for(scenario(), 60))
    finally:
        server.terminate()
        server.wait(10)
    assert state["seat"] == 0 and "Tu mano:" in state["words"]  # --lang es: the words' default


def test_over_http_with_a_token_a_request_without_it_is_refused_and_one_with_it_plays(tmp_path: Path) -> None:
    port = free_port()
    (tmp_path / "token").write_text("s3cret-token\n")
    command = [
        sys.executable,
        "-m",
        "unomas",
        "mcp",
        "--http",
        "--port",
        str(port),
        "--token-file",
        str(tmp_path / "token"),
    ]
    server = subprocess.Popen(command, env={**os.environ, "PYTHONPATH": str(ROOT / "src")}, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}/mcp"
    hello = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}

    async def scenario() -> tuple[int, dict[str, Any]]:
        async with httpx2.AsyncClient() as plain:
            for _ in range(100):
                try:
                    refused = await plain.post(
                        url, json=hello, headers={"Accept": "application/json, text/event-stream"}
                    )
                    break
                except httpx2.TransportError:
                    await asyncio.sleep(0.2)  # not listening yet
            else:
                raise AssertionError("unomas mcp --http did not answer")
        headers = {"Authorization": "Bearer s3cret-token"}
        async with (
            httpx2.AsyncClient(headers=headers) as keyed,
            Client(streamable_http_client(url, http_client=keyed)) as client,
        ):
            return refused.status_code, await call(client, "start_match", players=2, rules={"target_score": 0})

    try:
        status, state = asyncio.run(asyncio.wait_for(scenario(), 60))
    finally:
        server.terminate()
        server.wait(10)
    assert status == 401  # no token: nothing reaches the tools
    assert state["seat"] == 0


@pytest.mark.parametrize(
    ("arguments", "words"),
    [
        (["--host", "0.0.0.0"], "da un token"),  # beyond this machine: a token is needed
        (["--token-file", "{empty}"], "no tiene ningún token"),
        (["--token-file", "{missing}"], "no se puede leer"),
    ],
)
def test_http_beyond_this_machine_needs_a_token_and_a_bad_token_file_is_named(
    tmp_path: Path, arguments: list[str], words: str
) -> None:
    (tmp_path / "empty").write_text("\n")
    files = {"empty": tmp_path / "empty", "missing": tmp_path / "missing"}
    arguments = [argument.format(**files) for argument in arguments]
    result = CliRunner().invoke(app, ["mcp", "--http", *arguments, "--lang", "es"], env={"UNOMAS_MCP_TOKEN": ""})
    assert result.exit_code == 2
    assert words in result.output and "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_an_agent_is_offered_every_catch_and_jump_in_and_the_bots_wait_its_window() -> None:
    """Against bots that forget UNO, with jump-in on: the agent is offered the catches and
    the jump-ins the bots are offered, the bots hold still through its window until it lets
    the chance go, and the record is refused until the end (it holds every hand)."""

    async def scenario() -> tuple[int, int, int]:
        caught = jumped = waited = 0
        async with Client(build_server("en", Tables())) as agent:
            for seed in range(6):
                rules = {"target_score": 0, "jump_in": True}
                state = await call(
                    agent, "start_match", players=3, bots=["random"], rules=rules, seed=str(seed), window=30
                )
                assert (await refusal(agent, "get_record"))["code"] == "match.not_over"
                while not state["over"]:
                    state = await call(agent, "wait", timeout=30)
                    if not state["ready"]:
                        continue
                    kinds = {a["action"]["a"]: a["id"] for a in state["actions"]}
                    if state["chance"]:
                        await asyncio.sleep(0.2)  # the bots wait the window for the agent
                        assert (await call(agent, "get_view"))["ply"] == state["ply"]
                        waited += 1
                    if "catch" in kinds:
                        picked = kinds["catch"]
                        caught += 1
                    elif state["chance"] and "play" in kinds:
                        picked = kinds["play"]
                        jumped += 1
                    elif state["chance"]:
                        state = await call(agent, "let_go")
                        continue
                    else:
                        picked = choice(state)
                    try:
                        state = await call(agent, "act", action_id=picked, ply=state["ply"])
                    except AssertionError:
                        assert (await refusal(agent, "act", action_id=picked, ply=state["ply"]))["code"] == "move.stale"
                final = await call(agent, "get_record")
                assert fairness.verify(final).is_over  # its shuffle was the one committed to
                if caught and jumped:
                    break
        return caught, jumped, waited

    caught, jumped, waited = asyncio.run(asyncio.wait_for(scenario(), 240))
    assert caught >= 1 and jumped >= 1 and waited >= caught + jumped


def test_two_http_sessions_cannot_see_or_touch_each_others_tables() -> None:
    """Over HTTP a table belongs to the MCP session that opened it: its id is unguessable,
    another session's id answers table.unknown, and no session has a default table of
    another's. Without a session (the sessionless protocol), a table's id is its only key:
    every call names it."""
    port = free_port()
    command = [sys.executable, "-m", "unomas", "mcp", "--http", "--port", str(port)]
    server = subprocess.Popen(command, env={**os.environ, "PYTHONPATH": str(ROOT / "src")}, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}/mcp"

    async def scenario() -> None:
        for _ in range(100):
            try:
                async with Client(url, mode="legacy") as probe:
                    await probe.list_tools()
                break
            except Exception:
                await asyncio.sleep(0.2)  # not listening yet
        async with Client(url, mode="legacy") as alice, Client(url, mode="legacy") as bob:
            mine = await call(alice, "start_match", players=2, rules={"target_score": 0}, seed="1")
            theirs = await call(bob, "start_match", players=2, rules={"target_score": 0}, seed="2")
            assert len(mine["table"]) >= 20 and mine["table"] != theirs["table"]
            assert (await call(alice, "get_view"))["table"] == mine["table"]  # a session's own default
            assert (await call(bob, "get_view"))["table"] == theirs["table"]
            for tool, arguments in [
                ("get_view", {}),
                ("act", {"action_id": 0, "ply": mine.get("ply", 0)}),
                ("wait", {"timeout": 0}),
                ("let_go", {}),
                ("match_rules", {}),
                ("get_record", {}),
                ("leave", {}),
            ]:
                refused = await refusal(bob, tool, table=mine["table"], **arguments)
                assert (refused["code"], refused["params"]["table"]) == ("table.unknown", mine["table"])
            assert (await call(alice, "get_view", table=mine["table"]))["seat"] == 0  # untouched
        async with Client(url) as sessionless:
            opened = await call(sessionless, "start_match", players=2, rules={"target_score": 0})
            assert (await refusal(sessionless, "get_view"))["code"] == "table.required"
            assert (await call(sessionless, "get_view", table=opened["table"]))["table"] == opened["table"]
            refused = await refusal(sessionless, "get_view", table=mine["table"])
            assert refused["code"] == "table.unknown"  # a session's table is not a sessionless one's

    try:
        asyncio.run(asyncio.wait_for(scenario(), 60))
    finally:
        server.terminate()
        server.wait(10)


class SchemaAgent:
    """An agent that knows the tools only from their listing: it checks every answer
    against the tool's output schema, and finds what it needs by the schema's names and
    descriptions (the answer's ready, over, ply and actions; an action's id)."""

    def __init__(self, client: Client) -> None:
        self.client = client
        self.schemas: dict[str, dict[str, Any]] = {}
        self.calls: list[tuple[str, dict[str, Any], dict[str, Any]]] = []

    async def learn(self) -> None:
        for tool in (await self.client.list_tools()).tools:
            assert tool.output_schema is not None, tool.name
            assert tool.description and len(tool.description) > 80, tool.name
            self.schemas[tool.name] = tool.output_schema
        state = self.schemas["wait"]["properties"]
        for name in ("ready", "over", "chance", "ply", "actions", "table"):
            assert state[name].get("description"), name  # what the agent reads is described
        act = {tool.name: tool for tool in (await self.client.list_tools()).tools}["act"].input_schema
        assert {"action_id", "ply"} <= set(act["required"])

    async def call(self, tool: str, **arguments: Any) -> dict[str, Any]:
        result = await self.client.call_tool(tool, arguments)
        assert not result.is_error, result.content
        answer = dict(result.structured_content or {})
        jsonschema.validate(answer, self.schemas[tool])
        self.calls.append((tool, arguments, answer))
        return answer

    async def play(self, **setup: Any) -> dict[str, Any]:
        """A whole match: wait until ready, take the first listed action (or let a chance go), until over."""
        state = await self.call("start_match", **setup)
        table = state["table"]
        while not state["over"]:
            if not state["ready"]:
                state = await self.call("wait", table=table, timeout=30)
                continue
            if state["chance"]:
                state = await self.call("let_go", table=table)
                continue
            result = await self.client.call_tool(
                "act", {"table": table, "action_id": state["actions"][0]["id"], "ply": state["ply"]}
            )
            if result.is_error:  # the game moved on meanwhile: look again
                state = await self.call("get_view", table=table)
            else:
                state = dict(result.structured_content or {})
                jsonschema.validate(state, self.schemas["act"])
        return state


def test_a_scripted_agent_plays_whole_matches_from_the_tool_schemas_alone() -> None:
    async def scenario() -> tuple[SchemaAgent, dict[str, Any], dict[str, Any], str, str]:
        async with Client(build_server()) as client:
            agent = SchemaAgent(client)
            await agent.learn()
            for seed in ("1", "2"):
                final = await agent.play(players=3, rules={"target_score": 0}, seed=seed)
                assert final["view"]["winner"] is not None and final["actions"] == []
            late = await refusal(client, "act", action_id=0, ply=final["ply"], table=final["table"])
            written = await agent.call("get_record", table=final["table"])
            described = await agent.call("match_rules", table=final["table"])
            english = (await client.get_prompt("how_to_play")).messages[0].content.text  # type: ignore[union-attr]
            spanish = (await client.get_prompt("how_to_play", {"language": "es"})).messages[0].content.text  # type: ignore[union-attr]
            return agent, late, written | {"described": described}, english, spanish

    agent, late, written, english, spanish = asyncio.run(asyncio.wait_for(scenario(), 120))
    assert late["code"] == "match.over"  # not move.illegal: the match is over
    assert fairness.verify(written).is_over
    assert len(agent.calls) > 20
    for words in (english, spanish):
        for named in ("let_go", "chance", "ply", "over", "match.over", "move.stale", "window"):
            assert named in words, named


def test_the_tool_descriptions_say_what_is_secret_and_how_to_read_a_view() -> None:
    async def scenario() -> dict[str, str]:
        async with Client(build_server()) as client:
            tools = (await client.list_tools()).tools
            return {tool.name: (tool.description or "") + json.dumps(tool.output_schema) for tool in tools}

    described = asyncio.run(scenario())
    assert "secret" in described["get_view"] and "ply" in described["get_view"]
    assert "window" in described["let_go"] and "chance" in described["wait"]
    assert "match.over" in described["act"] and "over" in described["wait"]
