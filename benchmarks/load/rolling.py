"""A rolling restart of every app process during the daily crowd (``--daily-restart``), as
deploy/README.md does it: each process in turn stopped with SIGTERM (it drains), started
again and ready, then the join's settling time (the others hand it its places back);
``settle`` seconds after the last one is ready, the sockets each process still forwards.
The players meanwhile reconnect by themselves; the daily phase checks their acknowledged
moves against the records and how soon each moved again after a close."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from scorpion.web.cluster import JOIN_SETTLE

from .servers import Deployment

# Between two restarts: the join's hand-backs start JOIN_SETTLE after the start; a few
# seconds for their sockets to reconnect (tests/scale/test_rolling_restart.py waits as long).
BETWEEN = JOIN_SETTLE + 3.0
RESTART = 10.0  # seconds a stop (drain) and a start take at most, planning the window


@dataclass
class Rolling:
    """The restarts (run as the phase's ``during``, in the benchmark's own process)."""

    deployment: Deployment
    start_after: float = 5.0  # seconds into the window before the first stop
    settle: float = 60.0  # after the last process is ready, before reading forwarded sockets
    stopped: list[float] = field(default_factory=list)  # wall clock of each SIGTERM
    ready: list[float] = field(default_factory=list)  # wall clock each was ready again
    forwarded: list[float] = field(default_factory=list)  # each process's, ``settle`` after

    def window(self) -> float:
        """Seconds the phase's window needs to hold every restart and the settling."""
        apps = len(self.deployment.apps)
        return self.start_after + apps * (RESTART + BETWEEN) + self.settle + 5.0

    def __call__(self, go: Any) -> None:
        t0, _ = go["windows"]["daily"]
        time.sleep(max(0.0, t0 + self.start_after - time.time()))
        for app in self.deployment.apps:
            self.stopped.append(time.time())
            app.stop()  # SIGTERM: every socket closed with 1001, pending writes flushed
            app.start()  # waits for /readyz
            self.ready.append(time.time())
            time.sleep(BETWEEN)
        time.sleep(max(0.0, self.ready[-1] + self.settle - time.time()))
        self.forwarded = self.deployment.counter("scorpion_forwarded_sockets")

    def note(self, t0: float, extra: list[dict[str, Any]]) -> str:
        """The restart's figures: when, acknowledged moves lost, players moving again."""
        back = sorted(s for e in extra for s in e.get("back_after", []))
        not_back = sum(e.get("not_back", 0) for e in extra)
        checks = [e for e in extra if "acked_actions" in e]
        acked = sum(e["acked_actions"] for e in checks)
        lost = sum(e["lost"] for e in checks)
        off = sum(e["players_off"] for e in checks)
        unfinished = sum(e["unfinished"] for e in checks)
        stops = ", ".join(
            f"{s - t0:.0f}-{r - t0:.0f}" for s, r in zip(self.stopped, self.ready, strict=True)
        )
        welcomed = sorted(s for e in extra for s in e.get("welcome_after", []))
        forwarded = "/".join(f"{f:.0f}" for f in self.forwarded) or "not read"
        return (
            f"rolling restart (s into the window, stopped-ready): {stops}; acknowledged "
            f"actions {acked}, lost {lost}, players off {off}, records missing {unfinished}; "
            f"moving again after a close: {spread(back)}; board back (welcome) after a "
            f"close: {spread(welcomed)}; never back {not_back}; forwarded sockets "
            f"{self.settle:.0f} s after the last restart: {forwarded}"
        )


def spread(seconds: list[float]) -> str:
    """Count, median, worst and how many over 5 s of sorted durations.

    >>> spread([0.5, 1.0, 6.0])
    '3 closes, median 1.00 s, worst 6.00 s, over 5 s 1'
    """
    if not seconds:
        return "0 closes"
    over5 = sum(1 for s in seconds if s > 5.0)
    median = seconds[len(seconds) // 2]
    worst = seconds[-1]
    return f"{len(seconds)} closes, median {median:.2f} s, worst {worst:.2f} s, over 5 s {over5}"
