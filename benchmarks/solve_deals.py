"""Solve a range of deals with ``scorpion solve``; its raw output to benchmarks/out/.

    python benchmarks/solve_deals.py --preset classic --deals 1-2000 --jobs 2 --max-seconds 60

Writes ``benchmarks/out/solve_<preset>_<A>-<B>.jsonl`` (one JSON object per deal: deal,
verdict, line, seconds, nodes; not kept in git) and prints the summary the CLI prints
(won, lost, unknown, win rate with a 95% Wilson interval, seconds per deal
median/p90/max, nodes, deals per second). ``--summary`` also puts that summary in
benchmarks/results/solve_deals.md (in git), in place of the same preset and range's.
The load benchmark's winning lines are a fixed input, benchmarks/data/: a run never
changes them.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parent
OUT = BENCHMARKS / "out"
SUMMARY = BENCHMARKS / "results" / "solve_deals.md"


def keep(summary: Path, title: str, text: str) -> None:
    """Replace (or add) the section ``## title`` of the summary file."""
    old = summary.read_text() if summary.exists() else "# benchmarks/solve_deals.py\n"
    section = f"## {title}\n\n```\n{text.rstrip()}\n```\n"
    pattern = re.compile(rf"^## {re.escape(title)}\n.*?(?=^## |\Z)", re.M | re.S)
    if pattern.search(old):
        new = pattern.sub(lambda _: section + "\n", old)
    else:
        new = f"{old.rstrip()}\n\n{section}"
    summary.write_text(new.rstrip() + "\n")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="classic")
    parser.add_argument("--deals", default="1-2000")
    parser.add_argument("--jobs", default="2")
    parser.add_argument("--max-seconds", default="60")
    parser.add_argument("--summary", action="store_true", help=f"keep the summary in {SUMMARY}")
    args = parser.parse_args()
    OUT.mkdir(exist_ok=True)
    raw = OUT / f"solve_{args.preset}_{args.deals}.jsonl"
    command = [
        sys.executable, "-m", "scorpion.cli", "solve", "--preset", args.preset,
        "--deals", args.deals, "--jobs", args.jobs, "--max-seconds", args.max_seconds, "--json",
    ]  # fmt: skip
    with raw.open("w") as out:
        done = subprocess.run(command, stdout=out, stderr=subprocess.PIPE, text=True, check=False)
    summary = f"$ scorpion solve {' '.join(command[4:])}\n{done.stderr}"
    print(summary, end="")
    print(f"(every deal: {raw})")
    if args.summary and done.returncode == 0:
        keep(SUMMARY, f"{args.preset} {args.deals}", summary)
    return done.returncode


if __name__ == "__main__":
    sys.exit(main())
