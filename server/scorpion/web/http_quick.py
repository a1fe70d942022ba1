"""HTTP: the quick race's queue (docs/http-api.md, "Quick race").

The queue lives in the store (``quick_queue``), so every process sees the same one; each
request runs one step of it (race/quick.py) in one transaction, forming the rooms that are
due on the way. The process whose step formed a room opens it (and with several processes
claims it, then hands it to whichever process its players' sockets land on, as "create a
room" does). A waiting player's page asks for its status every second or two: that keeps
their place (a closed tab stops asking and leaves the queue) and brings the room once formed.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from scorpion.race import Player, RaceError
from scorpion.race.quick import PLACED_KEPT, QueueError, QueueStatus, QuickQueue, RoomFormed
from scorpion.race.quick_room import ARRIVAL, QuickSeats, quick_settings
from scorpion.store import JSON

from .auth import new_room_id
from .forwarding import Unreachable
from .http_common import api, me, services
from .responses import ApiError, json_body, ok
from .services import Services

Outcome = tuple[QueueError | None, QueueStatus | None, list[RoomFormed]]
REFUSALS = {"already-queued": 409, "in-race": 409, "queue-full": 503, "unknown-preset": 400}
NOT_QUEUED: dict[str, object] = {"queued": False}
RACING_IN_A_ROOM: dict[str, object] = {
    "queued": False,
    "left": "in-race",
    "message": "You are racing in a room: one race at a time, so you are not in the queue",
}


async def step(
    svc: Services,
    player: str,
    change: Callable[[QuickQueue, float], Any],
    room: str | None = None,
) -> Outcome:
    """One step of the queue in one store transaction: ``change``, then the rooms due;
    the player's status after both. Rooms formed are opened here, after the commit. The
    step sees the waiting rows, the player's, and those of ``room`` (a requeue's)."""
    now = time.time()

    def run(rows: list[JSON]) -> tuple[list[JSON], list[str], Outcome]:
        queue = QuickQueue.from_rows(rows)
        refused: QueueError | None = None
        try:
            change(queue, now)
        except QueueError as exc:  # a refusal changes nothing, but rooms due still form
            refused = exc
        formed = queue.tick(now, new_room_id)
        written, gone = queue.changes()
        return written, gone, (refused, queue.status(player, now), formed)

    placed_before = now - PLACED_KEPT
    outcome = await svc.store.quick_step(
        run, players=(player,), room=room, placed_before=placed_before
    )
    for formed in outcome[2]:
        await open_room(svc, formed, now)
    return outcome


async def open_room(svc: Services, formed: RoomFormed, now: float) -> None:
    """Open a room the queue formed: its players seated as they come, a fair winnable race."""
    if svc.cluster is not None:
        await svc.cluster.claim(formed.room)
    seats = QuickSeats(tuple(p.id for p in formed.players), now + ARRIVAL)
    settings = quick_settings(formed.preset)
    await svc.bridge.run(
        svc.referee.create_room(formed.room, formed.players[0], settings, now, seats)
    )
    svc.metrics.quick_rooms.inc()
    if svc.cluster is not None:
        await svc.cluster.hand_over(formed.room)


async def in_race(svc: Services, player: str) -> bool:
    """Whether the room of the player's last quick race is still before its results (a
    room that no longer exists, or was void, is not)."""
    outcome = await step(svc, player, lambda queue, now: None)
    status = outcome[1]
    if status is None or status.room is None:
        return False
    try:
        state = await svc.summary(status.room)
    except Unreachable:
        return True  # cannot tell: the safe answer keeps one race at a time
    if state is None:
        return False
    return state["phase"] in ("countdown", "racing") or state.get("quick") is not None


async def racing_in_room(svc: Services, player: str) -> bool:
    """Whether the player races in a room now (a friends' room or a quick race): a game of
    theirs started there and not over, while that room's race is on. The store says where
    they may be; the room's owner says whether they are."""
    for room in await svc.store.racing_rooms(player):
        try:
            state = await svc.summary(room)
        except Unreachable:
            return True  # cannot tell: the safe answer keeps one race at a time
        if state is None or state["phase"] not in ("countdown", "racing"):
            continue
        players: list[dict[str, object]] = state["players"]  # type: ignore[assignment]
        for entry in players:
            if entry["id"] == player and entry.get("status") == "playing":
                return True
    return False


def answer(outcome: Outcome) -> Response:
    refused, status, _ = outcome
    if refused is not None:
        extra = {"status": status.to_dict() if status is not None else NOT_QUEUED}
        raise ApiError(REFUSALS.get(refused.code, 409), refused.code, refused.message, extra)
    return ok(status.to_dict() if status is not None else NOT_QUEUED)


@api
async def quick_join(request: Request) -> Response:
    """POST /api/quick {preset} -> the player's place in that rule set's queue"""
    svc = services(request)
    player, _ = await me(request)
    body = await json_body(request, svc.settings.limits, required=False)
    preset = body.get("preset", "classic")
    unknown = set(body) - {"preset"}
    if unknown or not isinstance(preset, str):
        raise ApiError(400, "bad-field", 'the body is {"preset": a rule set\'s name}')
    if svc.closing:
        raise ApiError(503, "shutting-down", "the server is restarting: try again shortly")
    racing = await in_race(svc, player.id)
    in_room = not racing and await racing_in_room(svc, player.id)
    who = Player(player.id, player.name)
    return answer(
        await step(
            svc,
            player.id,
            lambda queue, now: queue.join(who, preset, now, racing=racing, in_room=in_room),
        )
    )


@api
async def quick_status(request: Request) -> Response:
    """GET /api/quick -> the player's place (still here), or their room once formed"""
    svc = services(request)
    player, _ = await me(request)
    outcome = await step(svc, player.id, lambda queue, now: queue.seen(player.id, now))
    status = outcome[1]
    if (status is None or status.room is None) and await racing_in_room(svc, player.id):
        # Their race in a room started (another tab): one race at a time, they leave the
        # queue (web/queue_racing.py does it as the race starts; this says so).
        if status is not None:
            await step(svc, player.id, lambda queue, now: queue.leave(player.id))
        return ok(RACING_IN_A_ROOM)
    if status is not None and status.room is not None and await lost(svc, status.room):
        room = status.room
        outcome = await step(svc, player.id, lambda queue, now: queue.requeue(room, now), room)
    return answer(outcome)


async def lost(svc: Services, room: str) -> bool:
    """A room formed but never opened (its process died in between)."""
    try:
        return await svc.summary(room) is None
    except (Unreachable, RaceError):
        return False


@api
async def quick_leave(request: Request) -> Response:
    """DELETE /api/quick -> leave the queue (a room already formed is left like any room)"""
    svc = services(request)
    player, _ = await me(request)
    return answer(await step(svc, player.id, lambda queue, now: queue.leave(player.id)))
