"""What the soak measures: each server process's memory and open files over time, the
slope of a least-squares line through them, and the lines its log holds by level.

>>> fit([(0.0, 10.0), (1800.0, 11.0), (3600.0, 12.0)])
(2.0, 0.0)
>>> level_of("2026-12-01T00:00:00.123Z ERROR scorpion.web [r7 c3]: boom 12")
('ERROR', 'scorpion.web: boom 12')
>>> level_of("2026/12/01 14:00:00 [warn] 12#12: *5 an upstream response is buffered")
('WARNING', 'nginx: *5 an upstream response is buffered')
>>> level_of("2026-12-01 14:00:00.1 UTC [812] ERROR:  duplicate key value")
('ERROR', 'postgres: duplicate key value')
"""

from __future__ import annotations

import math
import re
import time
import urllib.request
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.load.servers import children


@dataclass(frozen=True, slots=True)
class Sample:
    """One process at one moment: ``t`` seconds since the traffic began."""

    t: float
    process: str
    pid: int
    rss_kb: int  # VmRSS of /proc/<pid>/status
    fds: int  # entries of /proc/<pid>/fd
    workers: int  # its child processes (search and analysis workers)
    workers_rss_kb: int
    rooms: float | None  # scorpion_rooms, _connections and _daily_players of its /metrics
    sockets: float | None
    daily_players: float | None

    def row(self) -> dict[str, Any]:
        return asdict(self)


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0  # a zombie has no VmRSS


def open_files(pid: int) -> int:
    return len(list(Path(f"/proc/{pid}/fd").iterdir()))


def gauges(port: int) -> dict[str, float]:
    """The process's own gauges of rooms, sockets and daily players (its port, not the
    proxy's)."""
    wanted = ("scorpion_rooms", "scorpion_connections", "scorpion_daily_players")
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=2.0) as answer:
            text = answer.read().decode()
    except OSError:
        return {}
    found = {}
    for line in text.splitlines():
        name, _, value = line.partition(" ")
        if name in wanted:
            found[name] = float(value)
    return found


def sample(t: float, process: str, pid: int, port: int) -> Sample:
    workers = [p for p in children(pid) if p != pid]
    workers_rss = 0
    for worker in workers:
        try:
            workers_rss += rss_kb(worker)
        except OSError:  # ended meanwhile
            continue
    found = gauges(port)
    return Sample(t, process, pid, rss_kb(pid), open_files(pid), len(workers), workers_rss,
                  found.get("scorpion_rooms"), found.get("scorpion_connections"),
                  found.get("scorpion_daily_players"))  # fmt: skip


def fit(points: list[tuple[float, float]]) -> tuple[float, float]:
    """The least-squares slope of ``(seconds, value)`` points, per hour, and the standard
    deviation of the residuals around the line (the noise; n - 2 degrees of freedom)."""
    n = len(points)
    mean_t = sum(t for t, _ in points) / n
    mean_y = sum(y for _, y in points) / n
    spread = sum((t - mean_t) ** 2 for t, _ in points)
    slope = sum((t - mean_t) * (y - mean_y) for t, y in points) / spread if spread else 0.0
    residuals = [y - mean_y - slope * (t - mean_t) for t, y in points]
    noise = math.sqrt(sum(r * r for r in residuals) / (n - 2)) if n > 2 else 0.0
    return slope * 3600.0, noise


# scorpion's text lines (scorpion.web.logs), nginx's error log, PostgreSQL's log.
FORMATS = (
    (re.compile(r"^\S+Z (?P<level>[A-Z]+)\s+(?P<who>\S+)(?: \[[^\]]*\])?: (?P<text>.*)$"), None),
    (re.compile(r"^\d{4}/\d\d/\d\d \S+ \[(?P<level>\w+)\] \d+#\d+: (?P<text>.*)$"), "nginx"),
    (re.compile(r"^\d{4}-\d\d-\d\d \S+ \S+ \[\d+\] (?P<level>[A-Z]+):\s+(?P<text>.*)$"),
     "postgres"),
)  # fmt: skip
DECIMAL = re.compile(r"\d+\.\d+")
LEVELS = {"warn": "WARNING", "crit": "CRITICAL", "emerg": "CRITICAL", "alert": "CRITICAL",
          "fatal": "CRITICAL", "panic": "CRITICAL"}  # fmt: skip


def level_of(line: str) -> tuple[str, str] | None:
    """A log line's level (WARNING, ERROR, ...) and its text without time or ids; None for
    a line in no known format (a traceback's, a raw print)."""
    for pattern, who in FORMATS:
        found = pattern.match(line)
        if found is not None:
            level = found["level"]
            level = LEVELS.get(level.lower(), level.upper())
            return level, f"{who or found['who']}: {found['text']}"
    return None


@dataclass(slots=True)
class LogCounts:
    """The lines of one log: counts by level, each distinct ERROR (and worse) and WARNING
    line with its count, and the lines in no known format (tracebacks, raw prints)."""

    levels: Counter[str] = field(default_factory=Counter)
    errors: Counter[str] = field(default_factory=Counter)
    warned: Counter[str] = field(default_factory=Counter)
    other: Counter[str] = field(default_factory=Counter)

    @property
    def warnings(self) -> int:
        return self.levels["WARNING"]

    @property
    def worse(self) -> int:
        return self.levels["ERROR"] + self.levels["CRITICAL"]


def scan(path: Path, start: int = 0, end: int | None = None) -> LogCounts:
    """Count the lines of ``path`` between byte offsets ``start`` and ``end``."""
    counts = LogCounts()
    if not path.exists():
        return counts
    with path.open("rb") as f:
        f.seek(start)
        data = f.read(-1 if end is None else max(0, end - start))
    for line in data.decode(errors="replace").splitlines():
        if not line.strip():
            continue
        found = level_of(line)
        if found is None:
            counts.other[line.strip()[:200]] += 1
            continue
        level, text = found
        counts.levels[level] += 1
        text = DECIMAL.sub("N.N", text)[:200]  # times and sizes apart, one line is one kind
        if level in ("ERROR", "CRITICAL"):
            counts.errors[f"{level} {text}"] += 1
        elif level == "WARNING":
            counts.warned[text] += 1
    return counts


def size(path: Path) -> int:
    return path.stat().st_size if path.exists() else 0


def sleep_until(at: float) -> None:
    time.sleep(max(0.0, at - time.time()))
