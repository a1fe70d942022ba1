"""The in-process hub: a frame for many connections goes out in slices, a turn of the
event loop each, and every connection still gets every frame, in the order sent."""

from __future__ import annotations

import asyncio
import math

from scorpion.hub import LocalHub


class Inbox:
    def __init__(self) -> None:
        self.frames: list[str] = []

    def deliver(self, frame: str) -> bool:
        self.frames.append(frame)
        return True


def crowd(hub: LocalHub, count: int) -> list[Inbox]:
    inboxes = [Inbox() for _ in range(count)]
    for conn_id, inbox in enumerate(inboxes):
        hub.attach(conn_id, inbox)
    return inboxes


async def settle(hub: LocalHub) -> None:
    for _ in range(1000):
        if not hub.fanning_out:
            return
        await asyncio.sleep(0)
    raise AssertionError("the fan-out never ended")


async def test_a_frame_for_many_goes_out_a_slice_per_turn() -> None:
    hub = LocalHub(slice_size=10, slice_gap=0.0, rate=math.inf)
    inboxes = crowd(hub, 35)
    assert hub.send(range(35), "playing 1") == 35
    assert sum(len(inbox.frames) for inbox in inboxes) == 0  # nothing before the next turn
    await asyncio.sleep(0)
    assert sum(len(inbox.frames) for inbox in inboxes) == 10  # one slice
    await settle(hub)
    assert all(inbox.frames == ["playing 1"] for inbox in inboxes)


async def test_every_connection_gets_its_frames_in_order() -> None:
    hub = LocalHub(slice_size=10, slice_gap=0.0, rate=math.inf)
    inboxes = crowd(hub, 35)
    hub.send(range(35), "event 1")
    hub.send(range(35), "event 2")
    hub.send([30], "answer to 30")  # not reached yet: gets both events first
    hub.send([3, 34], "rank")
    await asyncio.sleep(0)
    hub.send(range(0, 35, 2), "event 3")
    hub.send([1], "answer to 1")
    await settle(hub)
    assert inboxes[30].frames == ["event 1", "event 2", "answer to 30", "event 3"]
    assert inboxes[3].frames == ["event 1", "event 2", "rank"]
    assert inboxes[34].frames == ["event 1", "event 2", "rank", "event 3"]
    assert inboxes[1].frames == ["event 1", "event 2", "answer to 1"]
    for conn_id, inbox in enumerate(inboxes):
        events = [frame for frame in inbox.frames if frame.startswith("event")]
        assert events == ["event 1", "event 2"] + (["event 3"] if conn_id % 2 == 0 else [])


async def test_a_connection_gone_before_its_slice_is_skipped() -> None:
    hub = LocalHub(slice_size=10, slice_gap=0.0, rate=math.inf)
    inboxes = crowd(hub, 30)
    hub.send(range(30), "event")
    hub.detach(25)
    await settle(hub)
    assert inboxes[25].frames == []
    assert all(inbox.frames == ["event"] for i, inbox in enumerate(inboxes) if i != 25)


def test_without_an_event_loop_every_frame_goes_at_once() -> None:
    hub = LocalHub(slice_size=10, slice_gap=0.0, rate=math.inf)
    inboxes = crowd(hub, 30)
    assert hub.send(range(30), "event") == 30
    assert all(inbox.frames == ["event"] for inbox in inboxes)


async def test_a_fan_out_is_paced_not_handed_out_each_turn() -> None:
    """Its next slice waits for the gap (here 10 s: 3 slices over 30 s), not the next
    turn of the loop: the machine's cores are not all given to one crowd's update."""
    hub = LocalHub(slice_size=100, rate=1.0, spread=30.0)
    assert hub.gap(300) == 10.0
    inboxes = crowd(hub, 300)
    hub.send(range(300), "playing")
    for _ in range(100):
        await asyncio.sleep(0)
    assert sum(len(inbox.frames) for inbox in inboxes) == 100
    assert hub.fanning_out == 1
    hub.send([250], "answer to 250")  # not reached yet: its own frame takes the event first
    assert inboxes[250].frames == ["playing", "answer to 250"]
