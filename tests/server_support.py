"""Helpers for the server tests: a real uvicorn server in a thread, HTTP calls, free ports."""

from __future__ import annotations

import json
import re
import shutil
import socket
import subprocess
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import uvicorn

from unomas.server import create_app
from unomas.server.rooms import Settings
from unomas.server.storage import Store
from unomas.server.transport import uvicorn_config

QUICK = Settings(grace=0.5, bot_delay=0, window=0, round_pause=0, refusal_delay=0)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextmanager
def running(
    store: Store, settings: Settings = QUICK, rate: tuple[float, float] = (200.0, 400.0), apps: list[Any] | None = None
) -> Iterator[str]:
    """Serve ``store`` on a free loopback port in a thread; yields ``host:port`` (and puts
    the app in ``apps``, if given)."""
    port = free_port()
    app = create_app(store, settings, rate=rate)
    if apps is not None:
        apps.append(app)
    config = uvicorn_config(app, "127.0.0.1", port, app.state.server.open_sockets, settings, log_level="warning")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if time.monotonic() > deadline:
            raise RuntimeError("the server did not start")
        time.sleep(0.01)
    try:
        yield f"127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)


def post(address: str, path: str, body: Any) -> tuple[int, Any]:
    """POST JSON; returns the status and the decoded answer."""
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    request = urllib.request.Request(f"http://{address}{path}", data=data, method="POST")
    request.add_header("Content-Type", "application/json")
    return _fetch(request)


def get(address: str, path: str) -> tuple[int, Any]:
    return _fetch(urllib.request.Request(f"http://{address}{path}"))


def _fetch(request: urllib.request.Request) -> tuple[int, Any]:
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            body = response.read()
            status: int = response.status
    except urllib.error.HTTPError as error:
        body = error.read()
        status = error.code
    try:
        return status, json.loads(body)
    except ValueError:  # not JSON (a page, a script), or not text at all (an icon)
        pass
    try:
        return status, body.decode()
    except UnicodeDecodeError:
        return status, body


@contextmanager
def proxy(folder: Path, instances: list[str]) -> Iterator[str]:
    """HAProxy with the configuration of ``docs/haproxy.cfg`` in front of ``instances``
    (addresses); yields its own address. Skips the test without HAProxy."""
    if shutil.which("haproxy") is None:
        pytest.skip("no HAProxy to test with (apt-get install haproxy)")
    port = free_port()
    config = (Path(__file__).parent.parent / "docs" / "haproxy.cfg").read_text()
    config = config.replace("127.0.0.1:8000", f"127.0.0.1:{port}")
    for name, address in zip(("one", "two"), instances, strict=True):
        config = re.sub(rf"server {name} \S+", f"server {name} {address}", config)
    (folder / "haproxy.cfg").write_text(config)
    process = subprocess.Popen(["haproxy", "-db", "-f", str(folder / "haproxy.cfg")], stderr=subprocess.DEVNULL)
    try:
        address = f"127.0.0.1:{port}"
        deadline = time.monotonic() + 10
        while get_or_none(address, "/healthz") is None:
            assert time.monotonic() < deadline and process.poll() is None, "HAProxy did not start"
            time.sleep(0.1)
        yield address
    finally:
        process.kill()
        process.wait(10)


def get_or_none(address: str, path: str) -> Any:
    """GET's answer, or None when nothing answers."""
    try:
        return get(address, path)[1]
    except OSError:
        return None
