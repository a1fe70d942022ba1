"""scorpion.tasks: the asyncio helpers of the server's long-lived parts."""

from __future__ import annotations

import asyncio
import logging

import pytest

from scorpion.tasks import bounded, cancel_all

log = logging.getLogger("test.tasks")


async def test_cancel_all_ends_every_task_and_swallows_their_cancellation() -> None:
    tasks = [asyncio.create_task(asyncio.sleep(60)) for _ in range(3)]
    await cancel_all(tasks)
    assert all(task.cancelled() for task in tasks)


async def test_a_step_that_hangs_is_given_up_and_what_waited_is_logged(
    caplog: pytest.LogCaptureFixture,
) -> None:
    never = asyncio.Event()

    async def waits_for_a_lock() -> None:
        await never.wait()

    async def writes() -> None:
        await waits_for_a_lock()

    holder = asyncio.create_task(writes(), name="lock-holder")
    hung = asyncio.get_running_loop().create_future()
    with caplog.at_level(logging.ERROR, logger="test.tasks"):
        await bounded("the store", hung, 0.05, log)
    assert hung.cancelled()  # not left running behind the stop
    [record] = caplog.records
    assert "stopping: the store took over 0 s, given up" in record.message
    assert "lock-holder: writes (test_tasks.py:" in record.message
    assert "> waits_for_a_lock (test_tasks.py:" in record.message
    assert "> wait (locks.py:" in record.message  # the innermost: Event.wait
    holder.cancel()


async def test_a_step_that_ends_logs_nothing(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.ERROR, logger="test.tasks"):
        await bounded("quick", asyncio.sleep(0), 5.0, log)
    assert caplog.records == []
