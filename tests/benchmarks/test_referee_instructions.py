"""A smoke run of benchmarks/referee_instructions.py under the real valgrind: small numbers,
so it cannot rot."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_instruction_count_of_a_command_is_printed() -> None:
    command = ["benchmarks/referee_instructions.py", "--moves", "100"]
    done = subprocess.run(
        [sys.executable, *command], cwd=ROOT, capture_output=True, text=True, timeout=900
    )
    assert done.returncode == 0, done.stderr
    found = re.search(r"^pure build: ([\d,]+) instructions per command", done.stdout, re.M)
    assert found, done.stdout
    # A command costs the referee far more than nothing, and far less than a whole run.
    assert 10_000 < int(found.group(1).replace(",", "")) < 100_000_000
