"""Server CPU per acknowledged command: one process on SQLite, one and three processes on
PostgreSQL and Redis (three behind nginx).

Everything is started here in temporary folders (scorpion_dev). Load: ``--rooms``
races of two racers; each racer, in a closed loop for ``--seconds``, plays a legal
move then undoes it (each an acknowledged command: a write, an answer, a ``progress``
event to the other racer). CPU is read from /proc (user + system) for the app
processes, and separately for nginx, redis-server and PostgreSQL, and for this load
client. The machine's other load makes the figures noisy: compare them run to run. ::

    .venv/bin/python benchmarks/cluster_cpu.py --rooms 10 --seconds 15 --runs 3
"""

from __future__ import annotations

import argparse
import asyncio
import os
import tempfile
import time
from pathlib import Path
from typing import Any

import orjson

from load.servers import children, cpu_by_pid, cpu_spent
from scorpion.engine import apply_action
from scorpion_dev.postgres import PostgresCluster, postgres_bin
from scorpion_dev.server import Api, Client, Replica, ServerProcess, metric, place_url
from scorpion_dev.services import Nginx, RedisServer, stop_everything

DEAL = 4242
# The per-socket command rate (20/s) would cap a closed loop: lifted for the measure.
LIMITS = ("--limits", '{"rate": 10000, "burst": 10000, "new_players_burst": 10000}')


async def call(client: Client, kind: str, **fields: Any) -> dict[str, Any]:
    """Send a command and read up to its answer, dropping the events (kept by Client)."""
    client.seq += 1
    await client.ws.send(orjson.dumps({"type": kind, "seq": client.seq, **fields}).decode())
    for _ in range(100_000):
        try:
            frame: dict[str, Any] = orjson.loads(await asyncio.wait_for(client.ws.recv(), 10))
        except TimeoutError:
            raise AssertionError(
                f"{client.name}: no answer to {kind} {fields} seq {client.seq}"
            ) from None
        if frame.get("seq") == client.seq and frame.get("type") in ("applied", "refused"):
            return frame
    raise AssertionError("no answer")  # pragma: no cover


async def racer_loop(racer: Replica, until: float) -> int:
    done = 0
    while time.monotonic() < until:
        for kind, fields in (("move", {"move": racer.pick()}), ("undo", {})):
            answer = await call(racer.client, kind, **fields)
            assert answer["type"] == "applied", answer
            apply_action(racer.game, answer.get("move", kind))
            done += 1
    return done


async def race(api: Api, ws_url: str, n: int) -> list[Replica]:
    """A started race of two; the racers' sockets opened as the browser client opens them
    (the room as the URL's routing hint: nginx sends both to the room's process)."""
    ids, tokens = {}, {}
    for name in ("a", "b"):
        ids[name], tokens[name] = await api.new_player(f"{name}{n}")
    # Full undo: every move is undone, turned cards included (fair undo would refuse those).
    room = await api.new_room(tokens["a"], deal=DEAL, time_limit=0, undo="full")
    racers = []
    for name in ("a", "b"):
        client = await Client.connect(place_url(ws_url, room=room), name)
        assert (await client.hello(tokens[name], room=room))["type"] == "welcome"
        assert (await client.call("join", **{"as": "player"}))["type"] == "applied"
        racers.append(Replica(client, ids[name], DEAL))
    for racer in racers:
        assert (await racer.client.call("ready"))["type"] == "applied"
    assert (await racers[0].client.call("start"))["type"] == "applied"
    for racer in racers:
        await racer.client.expect(lambda f: f.get("event") == "start")
    return racers


async def measure(
    label: str, servers: list[ServerProcess], base_url: str, ws_url: str,
    infra: dict[str, int], rooms: int, seconds: float,
) -> None:  # fmt: skip
    async with Api(base_url) as api:
        # At once: each race waits out its start's countdown.
        races = await asyncio.gather(*(race(api, ws_url, n) for n in range(rooms)))
        racers = [racer for pair in races for racer in pair]
        app = [s.proc.pid for s in servers if s.proc is not None]
        others = {name: children(pid) for name, pid in infra.items()}
        commits0 = sum(metric(s, "scorpion_store_commits") for s in servers)
        app0, me0 = cpu_by_pid(app), os.times()
        infra0 = {name: cpu_by_pid(pids) for name, pids in others.items()}
        start = time.monotonic()
        counts = await asyncio.gather(*(racer_loop(r, start + seconds) for r in racers))
        wall = time.monotonic() - start
        app_cpu = cpu_spent(app0, cpu_by_pid(app))
        me = os.times()
        client_cpu = (me.user + me.system) - (me0.user + me0.system)
        commands = sum(counts)
        forwarded = sum(metric(s, "scorpion_forwarded_commands_total") for s in servers)
        commits = sum(metric(s, "scorpion_store_commits") for s in servers) - commits0
        extra = ", ".join(
            f"{k} {cpu_spent(infra0[k], cpu_by_pid(children(infra[k]))):.2f} s" for k in others
        )
        print(f"{label}: {commands} commands in {wall:.1f} s ({commands / wall:.0f}/s); "
              f"app CPU {app_cpu:.2f} s = {app_cpu / commands * 1e6:.0f} us/command"
              + (f"; {extra}" if extra else "") + f"; load client {client_cpu:.2f} s"
              f"; {commands / max(commits, 1):.1f} commands per commit"
              f"; {forwarded:.0f} commands forwarded; load average {os.getloadavg()[0]:.2f}",
              flush=True)  # fmt: skip
        for racer in racers:
            await racer.client.close()


async def run(rooms: int, seconds: float, counts: list[int], runs: int) -> None:
    bin_dir = postgres_bin()
    assert bin_dir is not None, "PostgreSQL is not installed"
    logs = Path(tempfile.mkdtemp(prefix="scorpion-cpu-"))
    postgres, redis = PostgresCluster(bin_dir), RedisServer()
    started: list[ServerProcess] = []
    nginx: Nginx | None = None
    try:
        for n in range(runs if 0 in counts else 0):
            one = ServerProcess(logs / f"one{n}.db", args=LIMITS, log_path=logs / "one.log")
            started.append(one)
            one.start()
            await measure("1 process, SQLite", [one], one.url, one.ws_url, {}, rooms, seconds)
            one.stop()

        postgres.init()
        redis.start()
        postmaster = int((postgres.data / "postmaster.pid").read_text().split()[0])
        assert redis.proc is not None
        infra = {"postgres": postmaster, "redis": redis.proc.pid}
        for count in [c for c in counts if c > 0 for _ in range(runs)]:
            database = postgres.new_database()
            args = ("--redis", redis.url, *LIMITS)
            servers = [ServerProcess(database, args=args, log_path=logs / f"p{count}{i}.log")
                       for i in range(count)]  # fmt: skip
            started.extend(servers)
            for server in servers:
                server.start()
            nginx = Nginx([s.port for s in servers])
            nginx.start()
            assert nginx.proc is not None
            label = f"{count} process{'es' if count > 1 else ''}, PostgreSQL + Redis, nginx"
            await measure(label, servers, nginx.url, nginx.ws_url,
                          {**infra, "nginx": nginx.proc.pid}, rooms, seconds)  # fmt: skip
            nginx.remove()
            nginx = None
            for server in servers:
                server.stop()
    finally:
        stop_everything(nginx, started, redis, postgres)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument(
        "--processes", default="0,1,3", help="setups: 0 one process on SQLite, N on PostgreSQL"
    )
    parser.add_argument("--runs", type=int, default=1, help="runs of each setup, in a row")
    args = parser.parse_args()
    counts = [int(c) for c in args.processes.split(",")]
    asyncio.run(run(args.rooms, args.seconds, counts, args.runs))


if __name__ == "__main__":
    main()
