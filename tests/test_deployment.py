"""The deployment files of docs/ (scaling.md) are valid for the tools that read them."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

DOCS = Path(__file__).parent.parent / "docs"


def test_the_systemd_unit_is_valid(tmp_path: Path) -> None:
    if shutil.which("systemd-analyze") is None:
        pytest.skip("no systemd-analyze to check the unit with")
    unit = (DOCS / "unomas@.service").read_text()
    # Where this checkout's unomas is, as the root user: the unit as a machine would have it.
    unit = unit.replace("/opt/unomas/bin/unomas", str(Path(sys.executable).parent / "unomas"))
    (tmp_path / "unomas@8001.service").write_text(unit.replace("User=unomas", "User=root"))
    checked = subprocess.run(
        ["systemd-analyze", "verify", str(tmp_path / "unomas@8001.service")], capture_output=True, text=True
    )
    assert checked.returncode == 0 and checked.stderr == "", checked.stderr


def test_the_haproxy_configuration_is_valid() -> None:
    if shutil.which("haproxy") is None:
        pytest.skip("no HAProxy to check the configuration with (apt-get install haproxy)")
    checked = subprocess.run(["haproxy", "-c", "-f", str(DOCS / "haproxy.cfg")], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_the_compose_file_runs_what_docs_haproxy_cfg_expects_with_options_unomas_serve_takes() -> None:
    yaml = pytest.importorskip("yaml")
    typer = pytest.importorskip("typer")
    from unomas.cli.app import app

    deploy = DOCS.parent / "deploy"
    compose = yaml.safe_load((deploy / "compose.yaml").read_text())
    services = compose["services"]
    proxy = (DOCS / "haproxy.cfg").read_text()
    assert "../docs/haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro" in services["haproxy"]["volumes"]
    assert "bind 127.0.0.1:8000" in proxy
    serve = typer.main.get_command(app).commands["serve"]
    ports = []
    for name in ("one", "two"):
        service = services[name]
        assert service["build"]["dockerfile"] == "deploy/Containerfile" and service["network_mode"] == "host"
        arguments = [argument.replace("${UNOMAS_DB_PASSWORD}", "secret") for argument in service["command"]]
        given = serve.make_context("serve", arguments).params  # an option it did not take raises here
        assert given["db"].startswith("postgresql://") and given["instance"] == name
        assert given["trust_proxy"] == ("127.0.0.1",)  # HAProxy's address: it names the real client
        ports.append(f"{given['host']}:{given['port']}")
    assert re.findall(r"^\s+server \S+ (\S+)", proxy, re.MULTILINE) == ports
    containerfile = (deploy / "Containerfile").read_text()
    assert 'ENTRYPOINT ["unomas", "serve"]' in containerfile and "[postgres]" in containerfile
    if shutil.which("docker") is not None:  # with a daemon and compose, the file as compose reads it
        checked = subprocess.run(["docker", "compose", "version"], capture_output=True)
        if checked.returncode == 0:
            config = subprocess.run(
                ["docker", "compose", "-f", str(deploy / "compose.yaml"), "config", "--quiet"],
                capture_output=True,
                text=True,
                env={"UNOMAS_DB_PASSWORD": "secret", "PATH": "/usr/bin:/usr/local/bin:/bin"},
            )
            assert config.returncode == 0, config.stderr


def test_haproxy_refuses_a_source_past_its_request_rate(tmp_path: Path) -> None:
    pytest.importorskip("uvicorn")
    from server_support import get, proxy, running
    from unomas.server.rooms import Settings
    from unomas.server.storage import SQLiteStore

    settings = Settings(trusted_proxies=frozenset({"127.0.0.1"}))
    with (
        running(SQLiteStore(tmp_path / "one.sqlite3"), settings) as one,
        running(SQLiteStore(tmp_path / "two.sqlite3"), settings) as two,
        proxy(tmp_path, [one, two]) as address,
    ):
        cap = int(re.findall(r"sc_http_req_rate\(0\) gt (\d+)", (DOCS / "haproxy.cfg").read_text())[0])
        statuses = [get(address, "/healthz")[0] for _ in range(cap + 5)]
        first = statuses.index(429)  # (waiting for the proxy to start asked a few times already)
        assert cap - 20 <= first <= cap and set(statuses[:first]) == {200}
        assert set(statuses[first:]) == {429}  # and refused from then on, within the 10 s
