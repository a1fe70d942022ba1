"""Client processes: each runs one role, reports ready, plays on a shared clock, reports back.

The parent (no event loop of its own) forks the workers, waits until every one has
set up its sockets, then sends them the same start time and windows; while they play
it reads the server's CPU and memory from /proc. Each worker measures its own CPU
per window, so the table can show the clients were not the bottleneck.
"""

from __future__ import annotations

import asyncio
import gc
import multiprocessing
import multiprocessing.connection
import threading
import time
import traceback
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from .clients import Record
from .servers import Usage

Go = dict[str, Any]  # {"start", "end", "windows": {name: [t0, t1]}}


class Ready:
    """How a role waits for the others: ``checkpoint()`` between setup steps (the parent
    reads the server's memory when all got there), then ``await ready()`` for the start."""

    def __init__(self, pipe: multiprocessing.connection.Connection, checkpoints: int) -> None:
        self.pipe = pipe
        self.left = checkpoints
        self.go: Go = {}

    async def _wait(self) -> Any:
        self.pipe.send(("ready", None))
        return await asyncio.get_running_loop().run_in_executor(None, self.pipe.recv)

    async def checkpoint(self) -> None:
        if self.left > 0:
            self.left -= 1
            await self._wait()

    async def __call__(self) -> Go:
        while self.left > 0:
            await self.checkpoint()
        # What setup built (thousands of sockets) lives until the end: a collection walking
        # it would stall this client for 0.3 s or more in the middle of the measurement.
        gc.collect()
        gc.freeze()
        gc.disable()  # enabled again when the role returns
        go: Go = await self._wait()
        self.go = go
        return go


Role = Callable[[dict[str, Any], Record, Ready], Awaitable[None]]
ROLES: dict[str, Role] = {}


def role(name: str) -> Callable[[Role], Role]:
    def register(function: Role) -> Role:
        ROLES[name] = function
        return function

    return register


@dataclass(slots=True)
class Result:
    """What the workers of one phase measured, and the server's usage over time."""

    samples: list[tuple[str, float, float | None, str]] = field(default_factory=list)
    dropped: list[tuple[str, int]] = field(default_factory=list)  # (group, close code)
    checkpoints: list[Usage] = field(default_factory=list)  # the server when all got there
    send_lag: list[float] = field(default_factory=list)
    client_cpu: dict[str, list[float]] = field(default_factory=dict)  # window: per worker
    usage: list[Usage] = field(default_factory=list)
    extra: list[dict[str, Any]] = field(default_factory=list)


def _worker(
    name: str, spec: dict[str, Any], pipe: multiprocessing.connection.Connection, checkpoints: int
) -> None:
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    try:
        asyncio.run(_play(name, spec, pipe, checkpoints))
    except BaseException:
        pipe.send(("error", traceback.format_exc()))


async def _play(
    name: str, spec: dict[str, Any], pipe: multiprocessing.connection.Connection, checkpoints: int
) -> None:
    record = Record()
    marks: dict[str, list[float]] = {}
    tasks: list[asyncio.Task[None]] = []

    async def mark(window: str, t0: float, t1: float) -> None:
        for at in (t0, t1):
            await asyncio.sleep(max(0.0, at - time.time()))
            marks.setdefault(window, []).append(time.process_time())

    class Marking(Ready):
        async def __call__(self) -> Go:
            go = await super().__call__()
            for window, (t0, t1) in go["windows"].items():
                tasks.append(asyncio.create_task(mark(window, t0, t1)))
            return go

    try:
        await ROLES[name](spec, record, Marking(pipe, checkpoints))
    finally:
        gc.enable()
    for task in tasks:
        task.cancel()
    report = {
        "samples": [(s.group, s.sent, s.latency, s.refused) for s in record.samples],
        "dropped": record.dropped,
        "send_lag": record.send_lag,
        "cpu": {w: m[1] - m[0] for w, m in marks.items() if len(m) == 2},
        "extra": record.extra,
    }
    pipe.send(("done", report))


def run(
    parts: list[tuple[str, dict[str, Any]]],
    windows: dict[str, tuple[float, float]],
    server_usage: Callable[[], Usage] | None,
    setup_timeout: float = 300.0,
    drain: float = 5.0,
    during: Callable[[Go], None] | None = None,
    checkpoints: int = 0,
) -> Result:
    """Run the parts (role name, spec) in one process each on a common clock.

    ``windows`` are offsets in seconds from the start; the last end plus ``drain``
    bounds the run. ``during`` (if given) runs in the parent right after the start
    (for faults such as kill -9), with the go message. With ``checkpoints``, every worker
    stops that many times during its setup; the server's usage is read at each and at the
    end of the setup (``Result.checkpoints``).
    """
    context = multiprocessing.get_context("fork")
    pipes, processes = [], []
    for name, spec in parts:
        parent_end, child_end = context.Pipe()
        process = context.Process(
            target=_worker, args=(name, spec, child_end, checkpoints), daemon=True
        )
        process.start()
        pipes.append(parent_end)
        processes.append(process)
    result = Result()
    try:
        for stage in range(checkpoints + 1):
            for pipe in pipes:
                _expect(pipe, "ready", setup_timeout)
            if server_usage is not None:
                result.checkpoints.append(_usage(server_usage, result.checkpoints))
            if stage < checkpoints:
                for pipe in pipes:
                    pipe.send("continue")
        start = time.time() + 1.0
        end = start + max(t1 for _, t1 in windows.values())
        go: Go = {
            "start": start,
            "end": end,
            "windows": {w: [start + t0, start + t1] for w, (t0, t1) in windows.items()},
        }
        for pipe in pipes:
            pipe.send(go)
        # A fault (kill -9 and restart) runs beside the readings, which go on meanwhile.
        fault = threading.Thread(target=during, args=(go,), daemon=True) if during else None
        if fault is not None:
            fault.start()
        while time.time() < end + drain + 60 and not all(pipe.poll() for pipe in pipes):
            if server_usage is not None:
                result.usage.append(_usage(server_usage, result.usage))
            time.sleep(0.2)
        if fault is not None:
            fault.join(120.0)
        for pipe in pipes:
            report = _expect(pipe, "done", drain + 60.0)
            result.samples += report["samples"]
            result.dropped += report["dropped"]
            result.send_lag += report["send_lag"]
            result.extra += report["extra"]
            for window, cpu in report["cpu"].items():
                t0, t1 = go["windows"][window]
                result.client_cpu.setdefault(window, []).append(cpu / (t1 - t0))
        result.extra.append({"go": go})
    finally:
        for process in processes:
            process.join(10.0)
            if process.is_alive():
                process.kill()
    return result


def _usage(read: Callable[[], Usage], before: list[Usage]) -> Usage:
    try:
        return read()
    except (OSError, AssertionError):  # the server was killed on purpose: keep the last reading
        return before[-1] if before else Usage(time.time(), 0.0, 0)


def _expect(pipe: multiprocessing.connection.Connection, what: str, timeout: float) -> Any:
    if not pipe.poll(timeout):
        raise RuntimeError(f"a client process sent no {what!r} within {timeout} s")
    kind, body = pipe.recv()
    if kind != what:
        raise RuntimeError(f"a client process failed:\n{body}")
    return body
