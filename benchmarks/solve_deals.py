"""Solve a range of deals with ``scorpion solve``; its raw output to benchmarks/out/.

    python benchmarks/solve_deals.py --preset classic --deals 1-2000 --jobs 2 --max-seconds 60

Writes ``benchmarks/out/solve_<preset>_<A>-<B>.jsonl`` (one JSON object per deal: deal,
verdict, line, seconds, nodes; not kept in git) and prints the summary the CLI prints
(won, lost, unknown, win rate with a 95% Wilson interval, seconds per deal
median/p90/max, nodes, deals per second). ``--jobs N`` solves N deals at a time.
``--resume`` keeps the deals already in that file (a run stopped by Ctrl+C or a crash
leaves the deals it finished) and solves only the others, appending; the summary then
covers every deal of the range. ``--summary`` also puts that summary in
benchmarks/results/solve_deals.md (in git), in place of the same preset and range's.
The load benchmark's winning lines are a fixed input, benchmarks/data/: a run never
changes them.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import time
from collections.abc import Collection
from pathlib import Path
from typing import Any

from scorpion.cli.solve import deal_range, summary

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


def finished(raw: Path, deals: Collection[int]) -> dict[int, dict[str, Any]]:
    """The deals of ``deals`` already in ``raw`` (a torn last line, from a kill, is dropped)."""
    done: dict[int, dict[str, Any]] = {}
    if not raw.exists():
        return done
    for line in raw.read_text().splitlines():
        try:
            result = json.loads(line)
        except ValueError:
            continue
        if isinstance(result, dict) and result.get("deal") in deals:
            done[result["deal"]] = result
    return done


def deal_list(text: str) -> list[int]:
    """Deals as ``A-B`` ranges and single deals, comma-separated.

    >>> deal_list("406,517,1-3")
    [1, 2, 3, 406, 517]
    """
    return sorted({deal for part in text.split(",") for deal in deal_range(part)})


def spans(deals: list[int]) -> list[str]:
    """Sorted deal numbers as consecutive ranges for ``--deals``.

    >>> spans([1, 2, 3, 7, 9, 10])
    ['1-3', '7-7', '9-10']
    """
    out: list[str] = []
    for deal in deals:
        if out and int(out[-1].split("-")[1]) == deal - 1:
            out[-1] = f"{out[-1].split('-')[0]}-{deal}"
        else:
            out.append(f"{deal}-{deal}")
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="classic")
    parser.add_argument("--deals", default="1-2000", help="A-B ranges or deals, comma-separated")
    parser.add_argument("--jobs", default="2")
    parser.add_argument("--max-seconds", default="60")
    parser.add_argument("--resume", action="store_true", help="skip the deals already solved")
    parser.add_argument("--summary", action="store_true", help=f"keep the summary in {SUMMARY}")
    args = parser.parse_args()
    deals = deal_list(args.deals)
    OUT.mkdir(exist_ok=True)
    raw = OUT / f"solve_{args.preset}_{args.deals.replace(',', '_')}.jsonl"
    kept = finished(raw, deals) if args.resume else {}
    if kept:  # rewrite the kept lines only (drops a torn line and deals outside the range)
        raw.write_text("".join(json.dumps(kept[d]) + "\n" for d in sorted(kept)))
    else:
        raw.write_text("")
    todo = [d for d in deals if d not in kept]
    start = time.perf_counter()
    status = 0
    for span in spans(todo):
        command = [
            sys.executable, "-m", "scorpion.cli", "solve", "--preset", args.preset,
            "--deals", span, "--jobs", args.jobs, "--max-seconds", args.max_seconds, "--json",
        ]  # fmt: skip
        with raw.open("a") as out:
            done = subprocess.run(command, stdout=out, stderr=subprocess.PIPE, text=True)
        status = done.returncode
        if status:
            sys.stderr.write(done.stderr)
            break
    wall = time.perf_counter() - start
    results = list(finished(raw, deals).values())
    head = (
        f"$ scorpion solve --preset {args.preset} --deals {args.deals} --jobs {args.jobs}"
        f" --max-seconds {args.max_seconds} --json"
    )
    if kept:
        head += (
            f"\n(resumed: {len(kept)} deals from the earlier run;"
            " the wall time and deals/s below count this run only)"
        )
    text = f"{head}\n{summary(results, args.preset, wall, int(args.jobs))}\n"
    if len(results) < len(deals):
        text += f"incomplete: {len(results)} of {len(deals)} deals (--resume to go on)\n"
    print(text, end="")
    print(f"(every deal: {raw})")
    if args.summary and not status and len(results) == len(deals):
        keep(SUMMARY, f"{args.preset} {args.deals}", text)
    return status


if __name__ == "__main__":
    sys.exit(main())
