"""Where the win slipped away, at scale: the analysis's time per game, and the event
loop's acknowledgements while a thousand analyses queue.

    .venv/bin/python benchmarks/analysis_speed.py [--games 1000] [--runs 3] [--window 20]

1. Time per game: ``--games`` games of random play (random legal moves to the end or
   ``--cap`` moves) on a daily-like deal (the first classic deal proved winnable from a
   day's seed, as the daily finds it), each analysed as a worker does
   (``run_analysis``: the server's node budgets), one after another in this process:
   p50, p99 and the longest, and how the analyses came out.
2. The event loop under the queue: a real ``scorpion serve`` (one process, SQLite) whose
   database holds those games as finished race games with their results out. Racers in
   rooms (``--rooms`` of two, full undo) send a move or an undo every ``--pace`` seconds
   each; the time from writing a command to reading its answer is measured for
   ``--window`` seconds before, then again right after one GET of each game's analysis
   queued them all. The queue's length (``scorpion_analysis_queue``) is read before and
   after the second window. Latency is measured twice: by the clients (from writing a
   command to reading its answer: p50, p99) and by the server (its
   ``scorpion_ack_seconds`` histogram: the bucket bound under which 99% fell), which
   leaves out the client processes' own scheduling on a busy machine.

Prints the median over ``--runs`` runs of each figure.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT)]  # benchmarks.load

import httpx  # noqa: E402
from benchmarks.load.servers import RAISED_LIMITS  # noqa: E402

from scorpion.engine import Game  # noqa: E402
from scorpion.engine.deals import MAX_DEAL  # noqa: E402
from scorpion.race.daily import daily_seed  # noqa: E402
from scorpion.solver import next_winnable_deal  # noqa: E402
from scorpion.store import SavedGame, SaveGame, SQLiteStore  # noqa: E402
from scorpion.web.analysis_worker import AnalysisJob, run_analysis  # noqa: E402
from scorpion_dev.server import Api, ServerProcess, metric, start_race  # noqa: E402

Actions = list[tuple[str, float]]


def daily_like_deal() -> int:
    start = min(daily_seed(b"analysis-benchmark", "2026-12-01"), MAX_DEAL + 1 - 20)
    return next_winnable_deal("classic", start, max_nodes=20_000, limit=20)


def random_games(deal: int, count: int, cap: int, seed: int) -> list[Actions]:
    rng = random.Random(seed)
    games = []
    for _ in range(count):
        game, actions = Game.new(deal, "classic"), []
        while not game.over and len(actions) < cap:
            moves = game.legal_moves()
            if not moves:
                break
            game.play(rng.choice(moves))
            actions.append((str(game.log[-1][0]), float(len(actions) + 1)))
        if not game.over:
            actions.append(("give-up", float(len(actions) + 1)))
        games.append(actions)
    return games


def time_analyses(deal: int, games: list[Actions]) -> tuple[list[float], Counter[str]]:
    seconds, outcomes = [], Counter[str]()
    for i, actions in enumerate(games):
        job = AnalysisJob(f"bench:1:p{i}", "classic", deal, tuple(actions))
        started = time.perf_counter()
        analysis = run_analysis(job)
        assert "error" not in analysis, analysis
        outcomes[analysis["outcome"]] += 1
        seconds.append(time.perf_counter() - started)
    return seconds, outcomes


def ack_buckets(server: ServerProcess) -> dict[float, float]:
    """The server's ``scorpion_ack_seconds`` histogram: cumulative count by bucket bound."""
    out = {}
    for line in httpx.get(server.url + "/metrics", timeout=10).text.splitlines():
        if line.startswith("scorpion_ack_seconds_bucket{"):
            bound = line.split('le="', 1)[1].split('"', 1)[0]
            out[float(bound)] = float(line.split()[-1])
    return out


def bucket_p99(before: dict[float, float], after: dict[float, float]) -> float:
    """The bucket bound (ms) under which 99% of the acknowledgements between two reads fell:
    the server's own measure, without the clients' scheduling."""
    total = after[float("inf")] - before.get(float("inf"), 0.0)
    for bound in sorted(after):
        if after[bound] - before.get(bound, 0.0) >= 0.99 * total:
            return 1000 * bound
    return float("inf")


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def seed_database(db: Path, deal: int, games: list[Actions]) -> list[str]:
    store = SQLiteStore(db)
    await store.open()
    await store.create_player("bench", b"bench-token-hash", "Bench")
    ids = [f"bench{i}:1:bench" for i in range(len(games))]
    rows = [
        SaveGame(
            SavedGame(
                game_id,
                "bench",
                "classic",
                deal,
                1.0,
                room_id=game_id[:-8],
                finished=2.0,
                result="gave-up",
                actions=list(actions),
                revealed=True,
            )
        )
        for game_id, actions in zip(ids, games, strict=True)
    ]
    await store.write(rows)
    await store.close()
    return ids


async def paced_acks(server: ServerProcess, api: Api, rooms: int, pace: float,
                     window: float, racers_out: list[object]) -> list[float]:  # fmt: skip
    """Acknowledgement times (seconds) of paced commands for ``window`` seconds."""
    if not racers_out:
        for _ in range(rooms):
            _, racers, _ = await start_race(server, api, ["A", "B"], 3)
            racers_out.extend(racers.values())
    acks: list[float] = []
    end = time.monotonic() + window

    async def drive(racer: object) -> None:
        from scorpion_dev.server import Replica

        assert isinstance(racer, Replica)
        while time.monotonic() < end:
            kind = "undo" if racer.game.can_undo and racer.game.moves_made % 2 else "move"
            fields = {"move": racer.pick()} if kind == "move" else {}
            started = time.perf_counter()
            answer = await racer.act(kind, **fields)
            acks.append(time.perf_counter() - started)
            assert answer["type"] == "applied", answer
            await asyncio.sleep(max(0.0, pace - (time.perf_counter() - started)))

    await asyncio.gather(*(drive(r) for r in racers_out))
    return acks


async def loop_run(deal: int, games: list[Actions], args: argparse.Namespace) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "scorpion.db"
        ids = await seed_database(db, deal, games)
        server = ServerProcess(db, args=("--limits", json.dumps(RAISED_LIMITS),
                                         "--log-level", "warning"))  # fmt: skip
        server.start()
        try:
            async with Api(server.url) as api:
                racers: list[object] = []
                await paced_acks(server, api, args.rooms, args.pace, 1.0, racers)  # warm up
                start = ack_buckets(server)
                calm = await paced_acks(server, api, args.rooms, args.pace, args.window, racers)
                middle = ack_buckets(server)
                async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
                    for game_id in ids:  # anonymous: each queued behind the others
                        r = await http.get(f"/api/games/{game_id}/analysis")
                        assert r.json()["status"] == "pending", r.text
                queued = metric(server, "scorpion_analysis_queue")
                before_busy = ack_buckets(server)
                busy = await paced_acks(server, api, args.rooms, args.pace, args.window, racers)
                end = ack_buckets(server)
                left = metric(server, "scorpion_analysis_queue")
        finally:
            server.stop()
    return {
        "calm_p50_ms": 1000 * pct(calm, 0.5),
        "calm_p99_ms": 1000 * pct(calm, 0.99),
        "calm_server_p99_ms": bucket_p99(start, middle),
        "busy_p50_ms": 1000 * pct(busy, 0.5),
        "busy_p99_ms": 1000 * pct(busy, 0.99),
        "busy_server_p99_ms": bucket_p99(before_busy, end),
        "acks": float(len(busy)),
        "queued": queued,
        "left": left,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--cap", type=int, default=300, help="moves per random game at most")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--rooms", type=int, default=4)
    parser.add_argument("--pace", type=float, default=0.1, help="seconds between commands")
    parser.add_argument("--window", type=float, default=20.0, help="seconds measured")
    args = parser.parse_args()
    deal = daily_like_deal()
    print(f"classic deal {deal} (winnable), {args.games} random games, {args.runs} runs")
    speed: list[dict[str, float]] = []
    loop: list[dict[str, float]] = []
    for run in range(args.runs):
        games = random_games(deal, args.games, args.cap, seed=run)
        seconds, outcomes = time_analyses(deal, games)
        moves = statistics.median(len(g) for g in games)
        speed.append({"p50_ms": 1000 * pct(seconds, 0.5), "p99_ms": 1000 * pct(seconds, 0.99),
                      "max_ms": 1000 * max(seconds), "total_s": sum(seconds)})  # fmt: skip
        print(f"run {run + 1}: per game {speed[-1]}, actions median {moves}, {dict(outcomes)}",
              flush=True)  # fmt: skip
        loop.append(asyncio.run(loop_run(deal, games, args)))
        print(f"run {run + 1}: event loop {loop[-1]}", flush=True)
    sys.stdout.flush()
    for name, rows in (("analysis per game", speed), ("acknowledgements", loop)):
        medians = {k: round(statistics.median(r[k] for r in rows), 2) for k in rows[0]}
        print(f"median of {args.runs} runs, {name}: {medians}")


if __name__ == "__main__":
    main()
