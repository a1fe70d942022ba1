"""benchmarks/load/floor.patch (docs/architecture.md, "The floor") still applies to the code
it cuts down: a floor measured on code it no longer fits would not be measured at all."""

from __future__ import annotations

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_floor_patch_applies_to_the_code() -> None:
    checked = subprocess.run(
        ["git", "apply", "--check", "benchmarks/load/floor.patch"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert checked.returncode == 0, checked.stderr
