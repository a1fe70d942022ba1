"""The race layer's cost per command in CPU instructions: a figure this shared machine
cannot blur (its timings of one build vary by a fifth from one run to the next).

    .venv/bin/python benchmarks/referee_instructions.py [--server-code DIR] [--moves 2000]

Runs ``benchmarks/referee_speed.py`` (20 rooms, one run) under valgrind's callgrind twice,
with ``--moves`` commands and with twice as many, and prints the difference over
``--moves``: the instructions one more command costs, the referee's and the records' and
encoding's together, start-up and set-up cancelled out. ``--server-code`` puts another
tree's ``server/`` first on the path (a compiled tree: ``make compiled`` in a copy). The
hash seed is fixed, so a rerun of the same code gives the same count to a few parts in
ten thousand. Needs valgrind (Debian: ``apt-get install valgrind``); about a minute per
build and size.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COLLECTED = re.compile(r"Collected : ([\d,]+)")


def environment(server_code: str | None) -> dict[str, str]:
    """This process's environment, ``server_code`` first on the path, the hash seed fixed."""
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    if server_code:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [server_code, env.get("PYTHONPATH")]))
    return env


def instructions(moves: int, server_code: str | None) -> int:
    """Every instruction callgrind counted in one run of referee_speed.py."""
    command = [
        "valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
        sys.executable, str(ROOT / "benchmarks" / "referee_speed.py"),
        "--rooms", "20", "--moves", str(moves), "--runs", "1",
    ]  # fmt: skip
    done = subprocess.run(
        command, env=environment(server_code), capture_output=True, text=True, timeout=1800
    )
    found = COLLECTED.search(done.stderr)
    if done.returncode != 0 or found is None:
        raise SystemExit(f"callgrind failed ({done.returncode}):\n{done.stderr[-2000:]}")
    return int(found.group(1).replace(",", ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=2000)
    parser.add_argument("--server-code", help="a tree's server/ folder, first on the path")
    args = parser.parse_args()
    once = instructions(args.moves, args.server_code)
    twice = instructions(2 * args.moves, args.server_code)
    per_command = (twice - once) / args.moves
    build = subprocess.run(
        [sys.executable, "-c", "from scorpion.build import build; print(build())"],
        env=environment(args.server_code),
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    print(f"{build} build: {per_command:,.0f} instructions per command ({args.moves} more)")


if __name__ == "__main__":
    main()
