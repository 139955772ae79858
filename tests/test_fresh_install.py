"""A fresh install of the built wheel plays ``learned``: weights inside the wheel, NumPy only."""

from __future__ import annotations

import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_a_fresh_install_without_pytorch_plays_learned(tmp_path: Path) -> None:
    """The pure-Python wheel (``UNOMAS_PURE=1``, quick to build) in a new virtual environment
    that has none of the extras: ``unomas tournament`` seats ``learned``, read from the
    installed package."""
    environment = {**os.environ, "UNOMAS_PURE": "1"}
    build = [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "-w", str(tmp_path)]
    subprocess.run([*build, str(ROOT)], check=True, env=environment, timeout=120, capture_output=True)
    (wheel,) = tmp_path.glob("unomas-*.whl")
    venv.create(tmp_path / "venv", with_pip=True)
    python = tmp_path / "venv" / "bin" / "python"
    subprocess.run([python, "-m", "pip", "install", "-q", str(wheel)], check=True, timeout=300, capture_output=True)
    where = subprocess.run(
        [python, "-c", "import importlib.util as u, unomas; print(unomas.__file__, u.find_spec('torch'))"],
        capture_output=True,
        text=True,
        check=True,
        cwd=tmp_path,
    ).stdout.split()
    assert where[0].startswith(str(tmp_path / "venv")) and where[1] == "None"  # installed, and no PyTorch
    match = ["--bots", "learned,heuristic", "--games", "4", "--players", "2", "--set", "target_score=0", "--seed", "1"]
    played = subprocess.run(
        [tmp_path / "venv" / "bin" / "unomas", "tournament", *match],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "COLUMNS": "200", "LANGUAGE": "en"},
        timeout=60,
    )
    assert played.returncode == 0, played.stderr
    assert played.stdout.startswith("tournament: 4 matches")
    wins = [
        int(line.split()[1]) for line in played.stdout.splitlines() if line.split()[:1] in (["learned"], ["heuristic"])
    ]
    assert len(wins) == 2 and sum(wins) == 4  # every match played to a winner
