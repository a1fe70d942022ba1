"""Solve a range of deals with ``scorpion solve`` and keep the results.

    python benchmarks/solve_deals.py --preset classic --deals 1-2000 --jobs 2 --max-seconds 60

Writes ``benchmarks/results/raw/solve_<preset>_<A>-<B>_<S>s.jsonl`` (one JSON object
per deal: deal, verdict, line, seconds, nodes) and ``.txt`` (the summary the CLI
prints: won, lost, unknown, win rate with a 95% Wilson interval, seconds per deal
median/p90/max, nodes, deals per second), and prints the summary. ``raw/`` is
ignored by git: a run never rewrites a tracked file; the summary worth keeping goes
into docs/winnability.md.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

RESULTS = Path(__file__).parent / "results" / "raw"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="classic")
    parser.add_argument("--deals", default="1-2000")
    parser.add_argument("--jobs", default="2")
    parser.add_argument("--max-seconds", default="60")
    args = parser.parse_args()
    RESULTS.mkdir(parents=True, exist_ok=True)
    stem = RESULTS / f"solve_{args.preset}_{args.deals}_{args.max_seconds}s"
    command = [
        sys.executable, "-m", "scorpion.cli", "solve", "--preset", args.preset,
        "--deals", args.deals, "--jobs", args.jobs, "--max-seconds", args.max_seconds, "--json",
    ]  # fmt: skip
    with stem.with_suffix(".jsonl").open("w") as out:
        done = subprocess.run(command, stdout=out, stderr=subprocess.PIPE, text=True, check=False)
    summary = f"$ scorpion solve {' '.join(command[4:])}\n{done.stderr}"
    stem.with_suffix(".txt").write_text(summary)
    print(summary, end="")
    return done.returncode


if __name__ == "__main__":
    sys.exit(main())
