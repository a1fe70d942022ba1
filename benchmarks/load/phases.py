"""The phases: each starts its own server, runs client processes, returns table rows."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from scorpion.web.metrics import GC_BUCKETS

from . import crowd, roles  # noqa: F401  (registers the roles)
from .report import Row, measure
from .rolling import Rolling
from .servers import BENCHMARKS, Deployment, ServerProcess
from .workers import Result, run

# The winning lines of classic deals 1-2000 (benchmarks/solve_deals.py): a fixed input, so
# that runs compare.
LINES = BENCHMARKS / "data" / "classic-wins-1-2000.jsonl"
WARM_UP = 2.0  # seconds of paced play before a rate step's measured window


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
        result = run(parts, {"echo": (0.0, seconds)}, server.usage)
    row = measure(result, "echo", "closed loop, echo", "echo", "echo", args.echo_sockets, False)
    return [row]


def whole_rooms(args: argparse.Namespace, racers: int) -> int:
    """``racers`` rounded down to whole rooms of ``--room-size`` (at least one room)."""
    return max(1, racers // args.room_size) * args.room_size


def real_play(
    args: argparse.Namespace, window: str, mode: str = "paced", **more: Any
) -> dict[str, Any]:
    """Racers replaying winning lines, every 8th move undone and played again."""
    return {"mode": mode, "rate": args.play_rate, "script": "line", "undo_every": 8,
            "window": window, **more}  # fmt: skip


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
    racers = whole_rooms(args, args.spam_racers)
    with ServerProcess.scorpion(data / "spam") as server:
        parts = racer_parts(
            args,
            server,
            racers,
            {
                "mode": args.spam_mode,
                "rate": args.spam_rate,
                "script": "move-undo",
                "window": "all",
            },
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
        result = run(parts, windows, server.usage)
    paced = args.spam_mode == "paced"
    what = f"{racers} racers at {args.spam_rate:g}/s" if paced else f"{racers} racers, closed"
    rows = [
        measure(result, "spam", f"{what}, no spam", "without", "racer", racers, paced),
        measure(
            result,
            "spam",
            f"{what}, +{args.spammers} {args.spam_command}",
            "with",
            "racer",
            racers,
            paced,
        ),
    ]
    answers = next((e["spam_answers"] for e in result.extra if "spam_answers" in e), {})
    spam_row = measure(result, "spam", "", "with", "spam", args.spammers, False)
    rows[1].note = (
        f"spammers: {spam_row.offered} {args.spam_command} answered {answers}, "
        f"p50 {spam_row.p50 or 0:.0f} ms"
    )
    return rows


def play(args: argparse.Namespace, data: Path) -> list[Row]:
    """Real play, a follower per room: closed loop, then paced at the offered rate."""
    rows = []
    racers = whole_rooms(args, args.play_racers)
    for mode, seconds in (("closed", args.play_seconds), ("paced", args.play_seconds)):
        with ServerProcess.scorpion(data / f"play-{mode}") as server:
            extra = real_play(args, mode, mode=mode, followers=True)
            result = run(racer_parts(args, server, racers, extra), {mode: (0.0, seconds)},
                         server.usage)  # fmt: skip
            gc_note = collector_note(server)
            commits = sum(server.counter("scorpion_store_commits"))
            moves = sum(server.counter("scorpion_moves_total"))
        what = "closed loop" if mode == "closed" else f"paced at {args.play_rate:g}/s"
        row = measure(result, "play", f"{racers} racers, {what}", mode, "racer", racers,
                      mode == "paced")  # fmt: skip
        frames = sum(e.get("follower_frames", 0) for e in result.extra)
        row.note = f"{racers // args.room_size} followers read {frames / seconds:.0f} frames/s"
        # What the server sends for each command (the echo: one frame): the answer, the
        # room's progress events and the followers' boards (docs/compiled.md).
        to_racers = sum(e.get("window_racer_frames", 0) for e in result.extra)
        to_followers = sum(e.get("window_follower_frames", 0) for e in result.extra)
        if row.acked:
            per = [n / row.acked for n in (to_racers + to_followers, to_racers, to_followers)]
            row.note += (
                f"; frames sent per acknowledged command {per[0]:.2f} (to racers {per[1]:.2f},"
                f" to followers {per[2]:.2f})"
            )
        row.note += gc_note
        if moves:  # each a hand-off to the store's thread and back (docs/compiled.md)
            row.note += f"; {moves / max(commits, 1):.1f} moves per store commit"
        rows.append(row)
    return rows


def rates(args: argparse.Namespace, data: Path) -> list[Row]:
    """The highest paced rate served with p99 under ``--p99-limit`` ms, on one server: real
    play (a follower per room) from ``--play-rate`` per racer, times ``--rate-factor`` while
    served (divided while not, when the first is not), at most ``--rate-steps`` steps, then
    one step between the last rate served and the first not served. Each step seats new
    rooms (the earlier ones sit idle) and measures after a warm-up of ``WARM_UP`` s."""
    racers = whole_rooms(args, args.play_racers)
    seconds = args.play_seconds
    rows: list[Row] = []
    with ServerProcess.scorpion(data / "rates") as server:

        def served(rate: float) -> bool:
            """Whether ``rate`` is served with p99 under the limit; tried twice when not (a
            stall of this shared machine, seen as lag99, fails a step by itself)."""
            for attempt in range(2):
                extra = real_play(args, "play", rate=rate, followers=True)
                windows = {"play": (0.0, WARM_UP + seconds), "rate": (WARM_UP, WARM_UP + seconds)}
                result = run(racer_parts(args, server, racers, extra), windows, server.usage)
                row = measure(result, "rates", f"{racers} racers at {rate:.3g}/s", "rate",
                              "racer", racers, True)  # fmt: skip
                cores = sum(result.client_cpu.get("rate", []))
                row.note = f"load clients {cores:.2f} cores in all" + (
                    "; tried again" if attempt else ""
                )
                rows.append(row)
                print(f"  {row.what}: p99 {row.p99} ms, served {row.served}", file=sys.stderr)
                if row.served and row.p99 is not None and row.p99 < args.p99_limit:
                    return True
            return False

        rate, best, failed = args.play_rate, None, None
        up = served(rate)
        best, failed = (rate, None) if up else (None, rate)
        for _ in range(args.rate_steps - 1):
            if (best is not None) and (failed is not None):
                break
            rate = rate * args.rate_factor if up else rate / args.rate_factor
            if served(rate):
                best = rate
            else:
                failed = rate
        if best is not None and failed is not None:
            between = (best * failed) ** 0.5
            best = between if served(between) else best
    for row in rows:
        if (
            best is not None
            and row.what == f"{racers} racers at {best:.3g}/s"
            and (row.p99 is not None and row.p99 < args.p99_limit)
        ):
            row.note += f"; the highest rate served with p99 under {args.p99_limit:g} ms"
    return rows


def kill(args: argparse.Namespace, data: Path) -> list[Row]:
    """Paced play, kill -9 halfway, restart on the same database; check the records."""
    racers = whole_rooms(args, args.kill_racers)
    seconds = args.kill_seconds
    restart: dict[str, float] = {}
    with ServerProcess.scorpion(data / "kill") as server:

        def fault(go: dict[str, Any]) -> None:
            time.sleep(max(0.0, go["start"] + seconds / 2 - time.time()))
            killed = time.time()
            server.kill()
            server.start()
            restart.update(killed=killed - go["start"], took=time.time() - killed)

        extra = real_play(args, "kill", resume=True, drain=30.0)
        result = run(racer_parts(args, server, racers, extra), {"kill": (0.0, seconds)},
                     server.usage, during=fault)  # fmt: skip
    row = measure(result, "kill -9", f"{racers} racers at {args.play_rate:g}/s", "kill", "racer",
                  racers, True)  # fmt: skip
    row.server_cpu = None  # two processes: the killed one's CPU time is gone
    # the kill itself drops every socket without a close frame (1006): count the others
    row.dropped = sum(1 for g, code in result.dropped if g == "racer" and code not in (0, 1006))
    checks = [e for e in result.extra if "lost" in e]
    lost = sum(c["lost"] for c in checks)
    row.note = (
        f"killed at {restart.get('killed', 0):.1f} s, ready again {restart.get('took', 0):.1f} s "
        f"later; acknowledged moves/deals/undos {sum(c['acked_actions'] for c in checks)}, "
        f"LOST {lost}, players whose record differs {sum(c['players_off'] for c in checks)} "
        f"(games not ended {sum(c['unfinished'] for c in checks)}), "
        f"sockets resumed {sum(c['resumed'] for c in checks)}/{racers}"
    )
    return [row]


def reader(args: argparse.Namespace, data: Path) -> list[Row]:
    """Paced play beside spectators that never read (the server must drop them, alone)."""
    racers = whole_rooms(args, args.reader_racers)
    seconds = args.reader_seconds
    with ServerProcess.scorpion(data / "reader") as server:
        extra = real_play(args, "reader", followers=True)
        parts = racer_parts(args, server, racers, extra)
        parts[0][1]["readers"] = args.readers
        result = run(parts, {"reader": (0.0, seconds)}, server.usage)
    row = measure(result, "reader", f"{racers} racers at {args.play_rate:g}/s, "
                  f"{args.readers} never read", "reader", "racer", racers, True)  # fmt: skip
    readers = [r for e in result.extra for r in e.get("readers", [])]
    closed = [r["closed"] for r in readers if r["closed"] is not None]
    row.note = (
        f"never-reading sockets: {len(closed)}/{len(readers)} closed by the server "
        f"(codes {sorted(set(closed))}; 4008: too slow), "
        f"{sum(r['frames'] for r in readers)} frames were waiting for them"
    )
    return [row]


def idle(args: argparse.Namespace, data: Path) -> list[Row]:
    """Many idle authenticated sockets (memory per socket, against the echo's), then paced
    play beside them."""
    count, seconds = args.idle_sockets, args.idle_seconds
    shares = split(count, args.workers)
    with ServerProcess.echo(data) as server:
        parts = [("echo-idle", {"url": server.ws_url, "sockets": n}) for n in shares]
        echo_result = run(parts, {"idle": (0.0, 0.5)}, server.usage, checkpoints=1)
    racers = whole_rooms(args, args.play_racers)
    with ServerProcess.scorpion(data / "idle") as server:
        parts = [("idle", {"url": server.ws_url, "http": server.url, "sockets": n})
                 for n in shares]  # fmt: skip
        extra = real_play(args, "idle", followers=True)
        parts += racer_parts(args, server, racers, extra)
        result = run(parts, {"idle": (0.0, seconds)}, server.usage, checkpoints=1)
    row = measure(result, "idle", f"{racers} racers at {args.play_rate:g}/s", "idle", "racer",
                  racers, True)  # fmt: skip
    row.note = (
        f"beside {count} idle authenticated sockets: {per_socket(result, count):.1f} KB each "
        f"(server RSS), echo {per_socket(echo_result, count):.1f} KB each; "
        f"idle sockets dropped {sum(1 for g, _ in result.dropped if g == 'idle')}"
    )
    return [row]


def per_socket(result: Result, count: int) -> float:
    """KB of server memory per socket opened between the two checkpoints."""
    before, after = result.checkpoints[0], result.checkpoints[-1]
    return (after.rss - before.rss) / count / 1024


def daily(args: argparse.Namespace, data: Path) -> list[Row]:
    """Today's daily: a crowd of sockets, some playing at 1 move/s, the others watching;
    with ``--daily-restart``, every app process restarted in turn meanwhile."""
    seconds = args.daily_seconds
    players, count = min(args.daily_players, args.daily_sockets), args.daily_sockets
    with ServerProcess.scorpion(data / "daily") as server:
        split_over = server if isinstance(server, Deployment) and len(server.apps) > 1 else None
        rolling = None
        if args.daily_restart:
            if split_over is None:
                raise SystemExit("--daily-restart needs --processes 2 or more (and --redis)")
            rolling = Rolling(split_over, settle=args.restart_settle)
            seconds = max(seconds, rolling.window())
        # The players in client processes of their own: a watchers' process reads thousands
        # of frames at once every 2 s, which would delay the answers to players beside them
        # (the client's delay, not the server's).
        shares = [(n, n) for n in split(players, args.workers)]
        shares += [(n, 0) for n in split(count - players, args.workers)]
        urls = server.ws_urls if isinstance(server, Deployment) else [server.ws_url]
        parts = [
            ("daily", {"url": urls[i % len(urls)], "http": server.url, "sockets": n,
                       "players": playing, "rate": args.daily_rate, "window": "daily",
                       "resume": rolling is not None, "drain": 10.0 if rolling else 3.0})
            for i, (n, playing) in enumerate(shares)
        ]  # fmt: skip
        sockets: list[float] = []

        def count_sockets(go: Any) -> None:
            """Each process's daily sockets (every one a player of the day), mid-window."""
            t0, t1 = go["windows"]["daily"]
            time.sleep(max(0.0, (t0 + t1) / 2 - time.time()))
            if split_over is not None:
                sockets.extend(split_over.counter("scorpion_connections"))

        # Making the players (an HTTP request each) and opening their sockets: a few
        # hundred a second on a busy machine.
        setup = max(300.0, count / 20.0)
        result = run(parts, {"daily": (0.0, seconds)}, server.usage, setup_timeout=setup,
                     drain=10.0 if rolling else 5.0, during=rolling or count_sockets)  # fmt: skip
        # Each process's share of the day: its players (sockets: a daily socket reaches its
        # shard's owner through nginx), the commands they sent, the forwarded ones, its CPU.
        shares = ""
        if split_over is not None and rolling is None:
            commands = split_over.counter("scorpion_commands_total")
            forwarded = split_over.counter("scorpion_forwarded_commands_total")
            shares = (
                f"; per process: players {percents(sockets)}, commands {percents(commands)}, "
                f"CPU {app_cpu(result)}, forwarded commands {sum(forwarded):.0f}"
            )
        shares += "" if rolling else collector_note(server)
    row = measure(result, "daily", f"{players} playing at {args.daily_rate:g}/s", "daily",
                  "daily", players, True)  # fmt: skip
    frames = sum(e.get("watcher_frames", 0) for e in result.extra)
    watchers = sum(e.get("watchers", 0) for e in result.extra)
    dropped = sum(1 for g, _ in result.dropped if g == "watcher")
    row.note = (
        f"{watchers} watching: {frames / max(1, watchers) / seconds:.1f} frames per socket "
        f"per second; watchers dropped {dropped}{shares}"
    )
    if rolling is not None:
        row.server_cpu = None  # restarted processes: their CPU time starts again at 0
        t0 = result.extra[-1]["go"]["windows"]["daily"][0]
        row.note += "\n" + " " * 9 + rolling.note(t0, result.extra)
    return [row]


def collector_note(server: ServerProcess | Deployment) -> str:
    """The garbage collector's pauses over the server's life, set-up included
    (``scorpion_gc_pause_seconds``, web/collector.py): share of its CPU, mean, longest."""
    apps = server.samples()

    def total(name: str) -> float:
        return sum(app.get(name, 0.0) for app in apps)

    def under(bound: str) -> float:
        return total(f'scorpion_gc_pause_seconds_bucket{{le="{bound}"}}')

    paused = total("scorpion_gc_pause_seconds_sum")
    pauses = total("scorpion_gc_pause_seconds_count")
    cpu = total("process_cpu_seconds_total")
    if not (pauses and cpu):
        return ""
    longest = next(
        (f"under {1000 * b:g} ms" for b in GC_BUCKETS if under(str(b)) >= pauses), "longer"
    )
    return (
        f"; garbage collector {100 * paused / cpu:.1f}% of its CPU, {pauses:.0f} pauses,"
        f" {1000 * paused / pauses:.1f} ms on average, {pauses - under('0.01'):.0f} over 10 ms,"
        f" the longest {longest}"
    )


def percents(values: list[float]) -> str:
    """Each value's share of their sum, in percent (an even split of 3 is 33/33/33).

    >>> percents([1.0, 1.0, 2.0])
    '25/25/50 %'
    """
    total = sum(values) or 1.0
    return "/".join(f"{100 * v / total:.0f}" for v in values) + " %"


def app_cpu(result: Result) -> str:
    """Each app process's share of the server CPU over the phase's window."""
    go = result.extra[-1]["go"]
    t0, t1 = go["windows"]["daily"]
    within = [u for u in result.usage if t0 <= u.at <= t1 and u.apps]
    if len(within) < 2:
        return "-"
    first, last = within[0], within[-1]
    return percents([b - a for a, b in zip(first.apps, last.apps, strict=True)])


PHASES = {
    "spam": spam,
    "play": play,
    "idle": idle,
    "reader": reader,
    "daily": daily,
    "kill": kill,
    "rates": rates,
}
