"""The phases: each starts its own server, runs client processes, returns table rows."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from . import roles  # noqa: F401  (registers the roles)
from .report import Row, measure
from .servers import BENCHMARKS, ServerProcess
from .workers import run

LINES = BENCHMARKS / "results" / "solve_classic_1-2000.jsonl"


def winning_lines(path: Path = LINES) -> list[tuple[int, list[str]]]:
    """(deal, line) of every classic deal the solver proved winnable (benchmarks/solve_deals.py)."""
    lines = []
    with path.open() as f:
        for text in f:
            solved = json.loads(text)
            if solved["verdict"] == "won":
                lines.append((solved["deal"], solved["line"]))
    if not lines:
        raise SystemExit(f"no winning line in {path}: run benchmarks/solve_deals.py first")
    return lines


def split(total: int, parts: int) -> list[int]:
    """``total`` shared among ``parts`` as evenly as possible, empty shares left out.

    >>> split(10, 3), split(1, 4)
    ([4, 3, 3], [1])
    """
    shares = [total // parts + (1 if i < total % parts else 0) for i in range(parts)]
    return [share for share in shares if share]


def echo(args: argparse.Namespace, data: Path) -> list[Row]:
    seconds = args.echo_seconds
    with ServerProcess.echo(data) as server:
        parts = [
            ("echo", {"url": server.ws_url, "sockets": n, "window": "echo"})
            for n in split(args.echo_sockets, args.workers)
        ]
        result = run(parts, {"echo": (0.0, seconds)}, lambda: server.pid)
    row = measure(result, "echo", "closed loop, echo", "echo", "echo", args.echo_sockets, False)
    return [row]


def racer_parts(
    args: argparse.Namespace, server: ServerProcess, racers: int, extra: dict[str, Any]
) -> list[tuple[str, dict[str, Any]]]:
    """The racers' client processes: whole rooms of ``--room-size`` per process."""
    rooms = max(1, racers // args.room_size)
    lines = winning_lines()
    parts, first = [], 0
    for count in split(rooms, args.workers):
        spec = {"url": server.ws_url, "http": server.url, "rooms": count, "first": first,
                "room_size": args.room_size, "lines": lines, **extra}  # fmt: skip
        parts.append(("racers", spec))
        first += count
    return parts


def spam(args: argparse.Namespace, data: Path) -> list[Row]:
    """Paced racers, first alone, then beside players sending Auto (or hint) nonstop."""
    seconds = args.spam_seconds
    racers = max(1, args.spam_racers // args.room_size) * args.room_size
    with ServerProcess.scorpion(data / "spam") as server:
        parts = racer_parts(
            args,
            server,
            racers,
            {"mode": "paced", "rate": args.spam_rate, "script": "move-undo", "window": "all"},
        )
        parts.append(
            (
                "spammers",
                {
                    "url": server.ws_url,
                    "http": server.url,
                    "spammers": args.spammers,
                    "command": args.spam_command,
                    "window": "with",
                },
            )
        )
        windows = {"all": (0.0, 2 * seconds), "without": (0.0, seconds),
                   "with": (seconds, 2 * seconds)}  # fmt: skip
        result = run(parts, windows, lambda: server.pid)
    what = f"{racers} racers at {args.spam_rate:g}/s"
    rows = [
        measure(result, "spam", f"{what}, no spam", "without", "racer", racers, True),
        measure(
            result,
            "spam",
            f"{what}, +{args.spammers} {args.spam_command}",
            "with",
            "racer",
            racers,
            True,
        ),
    ]
    answers = next((e["spam_answers"] for e in result.extra if "spam_answers" in e), {})
    spam_row = measure(result, "spam", "", "with", "spam", args.spammers, False)
    rows[1].note = (
        f"spammers: {spam_row.offered} {args.spam_command} answered {answers}, "
        f"p50 {spam_row.p50 or 0:.0f} ms"
    )
    return rows


PHASES = {"spam": spam}
