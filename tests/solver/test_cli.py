"""``scorpion solve``: a range of deals (text and JSON) and one position, run as a real process."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from scorpion.engine import Game

from .helpers import TRAP, replay

pytestmark = pytest.mark.slow  # real processes, a pool of two with --jobs 2: make test only


def scorpion(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "scorpion.cli", *args],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_deals_as_json_lines_with_two_jobs() -> None:
    done = scorpion("solve", "--preset", "classic", "--deals", "1-6", "--jobs", "2", "--json")
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    assert [r["deal"] for r in rows] == [1, 2, 3, 4, 5, 6]
    assert set(rows[0]) == {"deal", "verdict", "line", "seconds", "nodes"}
    assert {r["verdict"] for r in rows} <= {"won", "lost", "unknown"}
    for row in rows:
        if row["verdict"] == "won":
            assert replay(Game.new(row["deal"], "classic"), row["line"]).won
        else:
            assert row["line"] == []
    assert "won 2, lost 4, unknown 0" in done.stderr  # the summary goes to stderr
    assert "Wilson" in done.stderr


def test_summary_on_stdout_without_json() -> None:
    done = scorpion("solve", "--preset", "classic", "--deals", "3", "--max-nodes", "100000")
    assert done.returncode == 0, done.stderr
    assert "won 1, lost 0, unknown 0" in done.stdout
    assert "median" in done.stdout and "p90" in done.stdout


def test_one_position(tmp_path: Path) -> None:
    path = tmp_path / "trap.txt"
    path.write_text(TRAP)
    done = scorpion("solve", "--position", str(path), "--preset", "classic", "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["verdict"] == "won"
    assert replay(Game.from_text(TRAP), result["line"]).won


def test_bad_input_is_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("stock: -\n1: | XX\nruns: -\n")
    done = scorpion("solve", "--position", str(bad))
    assert done.returncode != 0
    assert "unknown card" in done.stderr
    done = scorpion("solve", "--deals", "9-3")
    assert done.returncode != 0
    assert "A <= B" in done.stderr
