"""``scorpion solve``: prove deals won or lost, or solve one position.

    scorpion solve --preset classic --deals 1-2000 --jobs 2 --max-seconds 60
    scorpion solve --preset wasp --deals 1-100 --json > wasp.jsonl
    scorpion solve --preset classic --position game.txt

With ``--json`` every deal is one JSON object on its own line (deal, verdict, line,
seconds, nodes); the summary and the progress go to standard error. Ctrl+C stops the
workers and prints the summary of the deals decided so far (exit status 130).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import signal
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from scorpion.engine import PRESETS, Game
from scorpion.solver import solve
from scorpion.solver.stats import percentile, wilson


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "solve", help="prove deals won or lost (full information), or solve one position"
    )
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument("--deals", type=deal_range, help="deal numbers A-B (inclusive) or one N")
    what.add_argument("--position", type=Path, help="a file of position text")
    parser.add_argument("--preset", default="classic", choices=sorted(PRESETS))
    parser.add_argument("--max-nodes", type=int, default=None, help="node budget per deal")
    parser.add_argument("--max-seconds", type=float, default=None, help="time budget per deal")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--json", action="store_true", help="one JSON object per deal")
    parser.set_defaults(func=run)


def deal_range(text: str) -> range:
    first, _, last = text.partition("-")
    try:
        a, b = int(first), int(last or first)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected deals like 1-2000, not {text!r}") from None
    if a < 0 or b < a:
        raise argparse.ArgumentTypeError(f"expected 0 <= A <= B in A-B, not {text!r}")
    return range(a, b + 1)


def _solve_deal(task: tuple[str, int, int | None, float | None]) -> dict[str, Any]:
    preset, deal, max_nodes, max_seconds = task
    # The verdict is what counts here: the line is replayed, not shortened for a player.
    game = Game.new(deal, preset)
    solution = solve(game, max_nodes=max_nodes, max_seconds=max_seconds, shorten=False)
    return {
        "deal": deal,
        "verdict": solution.verdict,
        "line": solution.line,
        "seconds": round(solution.seconds, 4),
        "nodes": solution.nodes,
    }


def _ignore_ctrl_c() -> None:
    # Ctrl+C reaches the whole process group: only the parent stops (and ends the workers).
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _results(args: argparse.Namespace) -> Iterator[dict[str, Any]]:
    tasks = [(args.preset, d, args.max_nodes, args.max_seconds) for d in args.deals]
    if args.jobs <= 1:
        yield from map(_solve_deal, tasks)
        return
    with multiprocessing.Pool(args.jobs, initializer=_ignore_ctrl_c) as pool:
        yield from pool.imap(_solve_deal, tasks)  # leaving the block terminates the workers


class Progress:
    """Progress of a batch: a bar on a terminal, else (``--json`` to a file) a line on
    standard error at most every ``every`` seconds and at the end."""

    def __init__(self, args: argparse.Namespace, every: float = 2.0) -> None:
        self.total = len(args.deals)
        self.done = 0
        self.every = every
        self.last = time.monotonic()
        self.label = f"solving {args.preset}"
        stream = sys.stderr if args.json else sys.stdout
        self.lines = args.json and not stream.isatty()
        self.bar: Any = None
        if stream.isatty():
            from rich.console import Console
            from rich.progress import Progress as Bar

            self.bar = Bar(console=Console(file=stream), transient=True)
            self.bar.start()
            self.task = self.bar.add_task(self.label, total=self.total)

    def advance(self) -> None:
        self.done += 1
        if self.bar is not None:
            self.bar.advance(self.task)
        elif self.lines and (self.done == self.total or time.monotonic() - self.last >= self.every):
            self.last = time.monotonic()
            print(f"{self.label}: {self.done}/{self.total} deals", file=sys.stderr, flush=True)

    def stop(self) -> None:
        if self.bar is not None:
            self.bar.stop()


def summary(results: list[dict[str, Any]], preset: str, wall: float, jobs: int) -> str:
    """The human summary of a run (also used by benchmarks/solve_deals.py)."""
    n = len(results)
    won = sum(r["verdict"] == "won" for r in results)
    lost = sum(r["verdict"] == "lost" for r in results)
    unknown = n - won - lost
    low, high = wilson(won, won + lost)
    seconds = [float(r["seconds"]) for r in results]
    nodes = [float(r["nodes"]) for r in results]
    rate = won / (won + lost) if won + lost else 0.0
    lines = [
        f"preset {preset}: {n} deals, won {won}, lost {lost}, unknown {unknown}",
        f"win rate {100 * rate:.2f}% (95% Wilson interval {100 * low:.2f}% to {100 * high:.2f}%"
        f" over {won + lost} decided deals)",
        f"seconds per deal: median {percentile(seconds, 0.5):.3f}, "
        f"p90 {percentile(seconds, 0.9):.3f}, max {max(seconds, default=0.0):.3f}",
        f"nodes per deal: median {percentile(nodes, 0.5):.0f}, p90 {percentile(nodes, 0.9):.0f}, "
        f"max {max(nodes, default=0.0):.0f}, total {sum(nodes):.0f}",
        f"wall {wall:.1f} s with {jobs} job(s): {n / wall if wall else 0.0:.2f} deals/s",
    ]
    if unknown:
        lines.append(
            f"bounds counting unknowns: {100 * won / n:.2f}% to {100 * (won + unknown) / n:.2f}%"
        )
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    if args.jobs < 1:
        raise SystemExit("scorpion solve: --jobs must be at least 1")
    if args.position is not None:
        return _run_position(args)
    results: list[dict[str, Any]] = []
    start = time.perf_counter()
    progress = Progress(args)
    interrupted = False
    try:
        for result in _results(args):
            results.append(result)
            if args.json:
                print(json.dumps(result), flush=True)
            progress.advance()
    except KeyboardInterrupt:
        interrupted = True
    finally:
        progress.stop()
    text = summary(results, args.preset, time.perf_counter() - start, args.jobs)
    if interrupted:
        text = f"interrupted: {len(results)} of {len(args.deals)} deals done\n{text}"
    print(text, file=sys.stderr if args.json else sys.stdout, flush=True)
    return 130 if interrupted else 0


def _run_position(args: argparse.Namespace) -> int:
    try:
        game = Game.from_text(args.position.read_text(), args.preset)
    except OSError as exc:
        raise SystemExit(f"scorpion solve: cannot read {args.position}: {exc}") from None
    except ValueError as exc:
        raise SystemExit(f"scorpion solve: {args.position}: {exc}") from None
    solution = solve(game, max_nodes=args.max_nodes, max_seconds=args.max_seconds)
    result = {
        "verdict": solution.verdict,
        "line": solution.line,
        "seconds": round(solution.seconds, 4),
        "nodes": solution.nodes,
    }
    if args.json:
        print(json.dumps(result))
    else:
        print(f"{solution.verdict} in {solution.seconds:.3f} s, {solution.nodes} nodes")
        if solution.line:
            print(" ".join(solution.line))
    return 0
