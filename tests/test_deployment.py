"""The deployment files of docs/ (scaling.md) are valid for the tools that read them."""

from __future__ import annotations

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
