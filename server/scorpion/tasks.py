"""asyncio helpers shared by the server's long-lived parts (hub, searches, services)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Sequence


async def cancel_all(tasks: Sequence[asyncio.Task[None]]) -> None:
    """Cancel ``tasks`` and wait until each has ended (its cancellation swallowed)."""
    for task in tasks:
        task.cancel()
    for task in tasks:
        with contextlib.suppress(asyncio.CancelledError):
            await task
