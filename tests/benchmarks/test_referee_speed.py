"""A smoke run of benchmarks/referee_speed.py: small numbers, so it cannot rot."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("collector", ["served", "trigger", "default"])
def test_the_race_layer_benchmark_plays_every_command(collector: str) -> None:
    command = ["benchmarks/referee_speed.py", "--rooms", "3", "--moves", "600", "--runs", "1"]
    command += ["--collector", collector]
    done = subprocess.run(
        [sys.executable, *command],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    # It stops with the command's text if the referee refused one (it measures play).
    assert done.returncode == 0, done.stderr
    assert re.search(r"3 rooms of 4 and a follower, 600 commands .* per command", done.stdout)
