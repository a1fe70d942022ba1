"""The soak's summary: one markdown section per setup (the same text is printed), kept in
benchmarks/results/soak.md, where each run replaces its own setup's section.

>>> verdict(1.0, 0.5, 0.5)   # +0.5 over the window, noise 0.5: within 2 noises
'flat'
>>> verdict(10.0, 0.5, 0.5)
'grows'
>>> verdict(1.6, 0.01, 0.5, floor=ARENA_MB)   # +0.8 MB: less than one arena of memory
'flat'
>>> verdict(2.4, 0.01, 0.5, floor=ARENA_MB)
'grows'
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from .sampling import LogCounts, Sample, fit

HEADER = """\
# Soak runs

Written by `.venv/bin/python -m benchmarks.soak` (README, "Soak"): each run replaces the
section of its setup. Slopes are least-squares lines through the second half of the
samples (after the warm-up), per hour; the noise is the standard deviation of the samples
around that line; "flat" means the line moves less than twice the noise over the window
(for RSS, or less than 1 MB: CPython takes memory an arena of 1 MiB at a time, so RSS moves
in steps with tiny residuals between them).
Raw samples and the logs of each run are in benchmarks/out/ (not kept in git).
"""
SHOWN = 15  # distinct error lines listed per log


# CPython's allocator takes memory from the system an arena (1 MiB) at a time: RSS moves
# in steps, flat between them (the residuals of a line through a step or two are tiny), so
# a drift of less than one arena over the window is below what RSS can tell.
ARENA_MB = 1.0


def verdict(slope_per_hour: float, noise: float, window_hours: float, floor: float = 0.0) -> str:
    """Whether the fitted line's drift over the window stays within twice the noise (or
    within ``floor``, the measure's resolution)."""
    drift = slope_per_hour * window_hours
    if abs(drift) <= max(2 * noise, floor):
        return "flat"
    return "grows" if drift > 0 else "falls"


def process_rows(samples: Sequence[Sample], window: tuple[float, float]) -> list[str]:
    """A table row per app process (its memory, open files, rooms, sockets and the players
    its dailies hold, at the window's start and end) and one for its worker processes
    (their memory summed)."""
    rows = []
    hours = (window[1] - window[0]) / 3600.0
    for name in sorted({s.process for s in samples}):
        own = [s for s in samples if s.process == name and s.t <= window[1]]
        fitted = [s for s in own if s.t >= window[0]]
        if len(fitted) < 3:
            rows.append(f"| {name} | too few samples ({len(fitted)}) in the window |")
            continue
        first, last = own[0], own[-1]
        rss, rss_noise = fit([(s.t, s.rss_kb / 1024) for s in fitted])
        fds, fds_noise = fit([(s.t, float(s.fds)) for s in fitted])
        workers, workers_noise = fit([(s.t, s.workers_rss_kb / 1024) for s in fitted])
        rss_said = verdict(rss, rss_noise, hours, ARENA_MB)
        said = f"RSS {rss_said}, fds {verdict(fds, fds_noise, hours)}"
        rooms = "-" if last.rooms is None else f"{last.rooms:.0f}"
        sockets = "-" if last.sockets is None else f"{last.sockets:.0f}"
        held = [s.daily_players for s in (fitted[0], last)]
        daily = "-" if None in held else " → ".join(f"{n:.0f}" for n in held if n is not None)
        rows.append(
            f"| {name} (pid {last.pid}) | {first.rss_kb / 1024:.1f} | {last.rss_kb / 1024:.1f} "
            f"| {rss:+.1f} | {rss_noise:.2f} | {first.fds} | {last.fds} | {fds:+.1f} "
            f"| {fds_noise:.2f} | {rooms} | {sockets} | {daily} | {said} |"
        )
        rows.append(
            f"| {name}'s workers ({last.workers} at the end) | {first.workers_rss_kb / 1024:.1f} "
            f"| {last.workers_rss_kb / 1024:.1f} | {workers:+.1f} | {workers_noise:.2f} "
            f"| | | | | | | | RSS {verdict(workers, workers_noise, hours, ARENA_MB)} |"
        )
    return rows


def log_lines(parts: dict[str, dict[str, LogCounts]]) -> list[str]:
    """Per log: WARNING and ERROR counts during the traffic, and while starting and
    stopping; the distinct ERROR lines (all of them) and WARNING lines (the commonest) of
    the traffic; and lines in no log format (tracebacks, raw prints)."""
    lines = [
        "| log | WARNING | ERROR (and worse) | while starting: WARNING, ERROR "
        "| at the stop: WARNING, ERROR | lines in no format |",
        "|---|---|---|---|---|---|",
    ]
    during, starting, stopping = parts["during"], parts["starting"], parts["stopping"]
    for name, counts in during.items():
        start, stop = starting[name], stopping[name]
        unformatted = sum(sum(p[name].other.values()) for p in parts.values())
        lines.append(
            f"| {name} | {counts.warnings} | {counts.worse} | {start.warnings}, {start.worse} "
            f"| {stop.warnings}, {stop.worse} | {unformatted} |"
        )
    for name, counts in during.items():
        errors = counts.errors + starting[name].errors + stopping[name].errors
        other = Counter[str]()
        for part in parts.values():
            other += part[name].other
        listed = []
        if errors:
            listed.append(f"{name}: {len(errors)} distinct ERROR lines")
            listed += [f"    {n} x {text}" for text, n in errors.most_common(SHOWN)]
            if len(errors) > SHOWN:
                listed.append(f"    ... {len(errors) - SHOWN} more distinct lines")
        if counts.warned:
            listed.append(f"{name}: {len(counts.warned)} distinct WARNING lines in the traffic")
            listed += [f"    {n} x {text}" for text, n in counts.warned.most_common(5)]
        if other and name.startswith("app"):
            listed.append(f"{name}: {sum(other.values())} lines in no log format, e.g.")
            listed += [f"    {n} x {text}" for text, n in other.most_common(5)]
        if listed:
            lines += ["", "```", *listed, "```"]
    return lines


def counted(counter: Counter[str]) -> str:
    return ", ".join(f"{what} {n:,}" for what, n in sorted(counter.items())) or "none"


def section(
    title: str,
    command: str,
    head: str,
    samples: Sequence[Sample],
    window: tuple[float, float],
    tally: dict[str, Counter[str]],
    logs: dict[str, dict[str, LogCounts]],
) -> str:
    table = [
        "| process | RSS start (MB) | RSS end (MB) | RSS slope (MB/h) | RSS noise (MB) "
        "| fds start | fds end | fds slope (/h) | fds noise | rooms in memory (end) "
        "| sockets (end) | daily players in memory (window) | verdict |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
        *process_rows(samples, window),
    ]
    parts = [
        f"## {title}",
        f"```\n$ {command}\n```",
        head,
        "\n".join(table),
        "\n".join(log_lines(logs)),
        f"Traffic: {counted(tally['done'])}.",
        f"Refused commands (expected ones included): {counted(tally['refused'])}.",
        f"Client errors: {counted(tally['errors'])}.",
    ]
    return "\n\n".join(parts) + "\n"


def keep(path: Path, title: str, text: str) -> None:
    """Replace (or add) the section ``title`` of the results file, setups in order."""
    sections: dict[str, str] = {}
    if path.exists():
        for part in re.split(r"^(?=## )", path.read_text(), flags=re.M)[1:]:
            sections[part.splitlines()[0][3:]] = part.rstrip() + "\n"
    sections[title] = text
    ordered = sorted(sections.items(), key=lambda item: item[0])
    path.write_text(HEADER + "\n" + "\n".join(body for _, body in ordered))
