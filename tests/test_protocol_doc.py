"""The room protocol's document and schema cannot drift from the server: the checked-in
schema is the models', a real match's every message fits the models, and docs/protocol.md
names every message and every refusal code."""

from __future__ import annotations

import asyncio
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("uvicorn")
from pydantic import TypeAdapter, ValidationError

from server_support import get, post, running
from unomas.client.seat_client import SeatClient
from unomas.server import schema
from unomas.server.storage import SQLiteStore

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "protocol.md"
SCHEMA = ROOT / "docs" / "protocol.schema.json"
SERVER_MESSAGES: TypeAdapter[Any] = TypeAdapter(schema.ServerMessage)


def test_the_checked_in_schema_is_the_models_schema() -> None:
    assert SCHEMA.read_text() == schema.schema_text(), (
        "docs/protocol.schema.json differs from the models: python -m unomas.server.schema > docs/protocol.schema.json"
    )


def test_the_schema_is_printed_by_one_command() -> None:
    printed = subprocess.run(
        [sys.executable, "-m", "unomas.server.schema"], capture_output=True, text=True, check=True
    ).stdout
    assert json.loads(printed) == schema.protocol_schema()


def test_the_server_message_models_refuse_what_the_server_does_not_send() -> None:
    with pytest.raises(ValidationError):
        SERVER_MESSAGES.validate_python({"type": "presence", "seat": 1, "connected": True})
    with pytest.raises(ValidationError):
        SERVER_MESSAGES.validate_python({"type": "error", "code": "no.such", "params": {}, "message": ""})
    with pytest.raises(ValidationError):
        SERVER_MESSAGES.validate_python({"type": "gossip"})


def test_every_message_of_a_real_match_fits_the_schema() -> None:
    with running(SQLiteStore(":memory:")) as address:
        status, created = post(address, "/api/rooms", {"name": "Ana", "rules": {"players": 3, "target_score": 0}})
        assert status == 200
        schema.CreatedRoom.model_validate(created)
        status, joined = post(address, f"/api/rooms/{created['code']}/join", {"name": "Beto"})
        schema.JoinedRoom.model_validate(joined)
        schema.RoomMessage.model_validate(get(address, f"/api/rooms/{created['code']}")[1])
        schema.HttpError.model_validate(get(address, "/api/rooms/NOSUCHROOM")[1])
        url = f"ws://{address}/ws/{created['code']}"
        host, guest = SeatClient(url, created["token"]), SeatClient(url, joined["token"])
        watcher = SeatClient(url, None)

        async def match() -> None:
            await asyncio.sleep(0.2)
            await host.play(start=True)

        async def all_of_them() -> None:
            await asyncio.wait_for(asyncio.gather(match(), guest.play(), watcher.play()), 60)

        asyncio.run(all_of_them())
        late = SeatClient(url, None)  # a spectator once it is over gets the last round's history
        asyncio.run(asyncio.wait_for(late.play(), 10))
        seen = [message for client in (host, guest, watcher, late) for message in client.messages]
    kinds = {message["type"] for message in seen}
    assert {"room", "update", "presence", "over"} <= kinds
    assert any("history" in message for message in seen if message["type"] == "update")
    for message in seen:
        try:
            SERVER_MESSAGES.validate_python(message)
        except ValidationError as error:  # pragma: no cover - the message says what to do
            raise AssertionError(
                f"the server sent a message its models in unomas.server.schema do not describe: {message}\n"
                f"{error}\ndescribe it there (and in docs/protocol.md), then regenerate the schema:\n"
                "python -m unomas.server.schema > docs/protocol.schema.json"
            ) from None


def test_the_document_names_every_message_field_and_refusal_code() -> None:
    text = DOC.read_text()
    for kind in ("hello", "start", "act", "room", "update", "presence", "over", "error"):
        assert re.search(rf'"type": "{kind}"', text), f"docs/protocol.md has no example of {kind}"
    assert "python -m unomas.server.schema > docs/protocol.schema.json" in text
    assert schema.PROTOCOL in text
