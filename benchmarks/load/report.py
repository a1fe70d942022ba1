"""One row per measured window, and the table printed at the end."""

from __future__ import annotations

from dataclasses import dataclass, field

from .servers import Usage, cpu_spent
from .workers import Result


@dataclass(slots=True)
class Row:
    phase: str
    what: str
    clients: int
    seconds: float
    offered: int  # commands due in the window (written in it, or late)
    acked: int  # of those, applied
    refused: int
    unanswered: int
    dropped: int  # sockets the server closed
    paced: bool
    p50: float | None = None  # milliseconds
    p99: float | None = None
    worst: float | None = None
    server_cpu: float | None = None  # cores
    server_rss: float | None = None  # MB, highest in the window
    client_cpu: float | None = None  # the busiest client process, cores
    lag_p99: float | None = None  # paced sends late by (ms, p99)
    infra_cpu: dict[str, float] = field(default_factory=dict)  # cores, by service beside
    note: str = ""

    @property
    def cpu_per_ack(self) -> float | None:
        """The app processes' CPU per acknowledged command (microseconds)."""
        if self.server_cpu is None or not self.acked:
            return None
        return self.server_cpu / self.rate * 1e6

    @property
    def rate(self) -> float:
        return self.acked / self.seconds

    @property
    def served(self) -> bool:
        """At least 97% of the offered commands acknowledged, no refusal, no socket dropped."""
        return (
            self.offered > 0
            and self.acked >= 0.97 * self.offered
            and self.refused == 0
            and self.dropped == 0
        )


def percentile(values: list[float], share: float) -> float:
    """Nearest rank: ``share`` of the values are at or below it.

    >>> percentile([5.0, 1.0, 3.0, 2.0, 4.0], 0.5), percentile([1.0, 2.0], 0.99)
    (3.0, 2.0)
    """
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered) + 0.5) - 1))]


def measure(
    result: Result, phase: str, what: str, window: str, group: str, clients: int, paced: bool
) -> Row:
    """The row of one window: the commands of ``group`` due within it (see ``Sample``)."""
    go = result.extra[-1]["go"]
    t0, t1 = go["windows"][window]
    mine = [s for s in result.samples if s[0] == group and t0 <= s[1] < t1]
    latencies = [s[2] * 1000 for s in mine if s[2] is not None]
    row = Row(
        phase=phase,
        what=what,
        clients=clients,
        seconds=t1 - t0,
        offered=len(mine),
        acked=sum(1 for s in mine if s[2] is not None and not s[3]),
        refused=sum(1 for s in mine if s[3]),
        unanswered=sum(1 for s in mine if s[2] is None),
        dropped=sum(1 for g, _ in result.dropped if g in (group, "follower")),
        paced=paced,
    )
    if latencies:
        row.p50, row.p99, row.worst = (
            percentile(latencies, 0.5),
            percentile(latencies, 0.99),
            max(latencies),
        )
    within = [u for u in result.usage if t0 <= u.at <= t1]
    if len(within) >= 2:
        first, last = within[0], within[-1]
        row.server_cpu = cpu_share(first, last)
        row.server_rss = max(u.rss for u in within) / 1e6
        row.infra_cpu = {
            name: cpu_spent(first.infra.get(name, {}), pids) / max(1e-9, last.at - first.at)
            for name, pids in last.infra.items()
        }
    if window in result.client_cpu:
        row.client_cpu = max(result.client_cpu[window])
    if paced and result.send_lag:
        row.lag_p99 = percentile(result.send_lag, 0.99) * 1000
    return row


def cpu_share(first: Usage, last: Usage) -> float:
    return (last.cpu - first.cpu) / max(1e-9, last.at - first.at)


HEADER = (
    f"{'phase':<8} {'what':<26} {'clients':>7} {'offered/s':>9} {'acked/s':>8} {'served':>6} "
    f"{'p50 ms':>7} {'p99 ms':>7} {'max ms':>7} {'refus':>5} {'unans':>5} {'drop':>4} "
    f"{'srv cpu':>7} {'srv MB':>7} {'cli cpu':>7} {'lag99':>6} {'vs echo':>7}"
)


def table(rows: list[Row], echo_rate: float | None) -> str:
    lines = [HEADER, "-" * len(HEADER)]
    for row in rows:
        closed_loop = row.phase != "echo" and not row.paced
        ratio = f"{row.rate / echo_rate:.1%}" if echo_rate and closed_loop else ""
        served = ("yes" if row.served else "NO") if row.paced else ""
        lines.append(
            f"{row.phase:<8} {row.what:<26} {row.clients:>7} {row.offered / row.seconds:>9.0f} "
            f"{row.rate:>8.0f} {served:>6} {_ms(row.p50)} {_ms(row.p99)} {_ms(row.worst)} "
            f"{row.refused:>5} {row.unanswered:>5} {row.dropped:>4} "
            f"{_num(row.server_cpu, 7, 2)} {_num(row.server_rss, 7, 0)} "
            f"{_num(row.client_cpu, 7, 2)} {_num(row.lag_p99, 6, 1)} {ratio:>7}"
        )
        if row.cpu_per_ack is not None and row.phase != "echo":
            beside = ", ".join(f"{name} {cores:.2f}" for name, cores in row.infra_cpu.items())
            lines.append(
                f"{'':<8} server CPU {row.cpu_per_ack:.0f} us per acknowledged command"
                + (f"; beside it (cores): {beside}" if beside else "")
            )
        if row.note:
            lines.append(f"{'':<8} {row.note}")
    return "\n".join(lines)


def _ms(value: float | None) -> str:
    return _num(value, 7, 1)


def _num(value: float | None, width: int, digits: int) -> str:
    return f"{value:>{width}.{digits}f}" if value is not None else f"{'-':>{width}}"
