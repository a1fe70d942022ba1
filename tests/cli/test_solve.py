"""``scorpion solve``: Ctrl+C stops cleanly with a summary; progress on stderr with --json."""

from __future__ import annotations

import json
import os
import re
import selectors
import signal
import subprocess
import sys
from pathlib import Path


def _default_ctrl_c() -> None:
    # A terminal's Ctrl+C: a process that inherits SIGINT ignored (as a test runner's worker
    # may have it) gets no KeyboardInterrupt at all, so the child starts with the default.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_with_two_jobs_stops_cleanly_and_summarises() -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "scorpion", "solve", "--deals", "1-100000", "--jobs", "2",
         "--max-nodes", "20000", "--json"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True,  # its own process group: the signal reaches all, like Ctrl+C
        preexec_fn=_default_ctrl_c,
    )  # fmt: skip
    try:
        assert proc.stdout is not None
        selector = selectors.DefaultSelector()
        selector.register(proc.stdout, selectors.EVENT_READ)
        assert selector.select(timeout=120), "no deal decided in time"
        first = json.loads(proc.stdout.readline())
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(10)
    assert proc.returncode == 130
    assert "Traceback" not in err and "KeyboardInterrupt" not in err
    written = 1 + len(out.splitlines())
    assert first["verdict"] in ("won", "lost", "unknown")
    summary = re.search(
        r"interrupted: (\d+) of 100000 deals done\npreset classic: (\d+) deals", err
    )
    assert summary, err
    decided = int(summary.group(1))
    assert int(summary.group(2)) == decided
    # Ctrl+C may land between a deal's result and its JSON line: at most that one is missing.
    assert written <= decided <= written + 1


def test_json_to_a_file_reports_progress_on_stderr(tmp_path: Path) -> None:
    out = tmp_path / "deals.jsonl"
    with out.open("w") as stdout:
        done = subprocess.run(
            [sys.executable, "-m", "scorpion", "solve", "--deals", "1-3", "--max-nodes", "2000",
             "--json"],
            stdout=stdout, stderr=subprocess.PIPE, text=True, timeout=120,
        )  # fmt: skip
    assert done.returncode == 0
    assert [json.loads(line)["deal"] for line in out.read_text().splitlines()] == [1, 2, 3]
    assert "solving classic: 3/3 deals" in done.stderr
    assert "preset classic: 3 deals" in done.stderr
