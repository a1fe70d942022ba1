"""asyncio helpers shared by the server's long-lived parts (hub, searches, services)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Sequence


async def cancel_all(tasks: Sequence[asyncio.Task[None]]) -> None:
    """Cancel ``tasks`` and wait until each has ended (its cancellation swallowed)."""
    for task in tasks:
        task.cancel()
    for task in tasks:
        with contextlib.suppress(asyncio.CancelledError):
            await task


async def bounded(step: str, work: Awaitable[object], seconds: float, log: logging.Logger) -> None:
    """Await ``work`` for ``seconds`` at most, then cancel it, log what every other task was
    doing (the reason it hung) and go on: a stopping server must end, whatever one part
    waits for."""
    try:
        await asyncio.wait_for(work, seconds)
    except TimeoutError:
        log.error("stopping: %s took over %.0f s, given up; tasks:%s", step, seconds, _tasks())


def _tasks() -> str:
    """Each pending task's name and where it waits: its chain of awaits, innermost last."""
    lines = []
    for task in sorted(asyncio.all_tasks(), key=lambda t: t.get_name()):
        if task is not asyncio.current_task():
            lines.append(f"\n  {task.get_name()}: {_awaiting(task.get_coro())}")
    return "".join(lines)


def _awaiting(coro: object, depth: int = 12) -> str:
    frames: list[str] = []
    while coro is not None and len(frames) < depth:
        frame = getattr(coro, "cr_frame", None) or getattr(coro, "gi_frame", None)
        if frame is not None:
            name = frame.f_code.co_filename.rsplit("/", 1)[-1]
            frames.append(f"{frame.f_code.co_name} ({name}:{frame.f_lineno})")
        coro = getattr(coro, "cr_await", None) or getattr(coro, "gi_yieldfrom", None)
    return " > ".join(frames) or "not started"
