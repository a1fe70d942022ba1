"""Crowds: idle authenticated sockets, and today's daily with a few players among watchers."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from typing import Any

import httpx
from websockets.asyncio.client import connect

from .clients import (
    SHARDS,
    Conn,
    Record,
    answered,
    gather_bounded,
    new_player,
    new_room,
    sleep_until,
)
from .faults import check_records
from .roles import Step, paced
from .workers import Ready, role

RANKS = "A23456789TJQK"


@role("idle")
async def idle(spec: dict[str, Any], record: Record, ready: Ready) -> None:
    """Players each with one socket said ``hello`` to a lobby room (``per_room`` a room)."""
    count, per_room = spec["sockets"], spec.get("per_room", 20)
    async with httpx.AsyncClient(base_url=spec["http"], timeout=60) as http:
        players = await gather_bounded([new_player(http, f"idle {i}") for i in range(count)])
        full = {"undo": "full"}  # every move is undone, whatever it showed
        rooms = [await new_room(http, players[i][1], full) for i in range(0, count, per_room)]
    await ready.checkpoint()  # the server's memory before the sockets
    conns = [Conn(spec["url"], token, record, "idle") for _, token in players]
    await gather_bounded(
        [conn.open(room=rooms[i // per_room]) for i, conn in enumerate(conns)], 100
    )
    go = await ready()
    await sleep_until(go["end"])
    await gather_bounded([conn.close() for conn in conns], 200)


@role("echo-idle")
async def echo_idle(spec: dict[str, Any], record: Record, ready: Ready) -> None:
    """The same number of idle sockets on the echo server, for its memory per socket."""
    await ready.checkpoint()
    sockets = await gather_bounded(
        [connect(spec["url"], compression=None) for _ in range(spec["sockets"])], 100
    )
    go = await ready()
    await sleep_until(go["end"])
    await gather_bounded([ws.close() for ws in sockets], 200)


def any_move(view: dict[str, Any]) -> Step:
    """A legal move read from a board view (protocol.md: the player's own ``view``):
    a face-up card onto the next higher card of its suit, else the stock, else a ping.

    >>> any_move({"columns": [{"down": 0, "up": ["9H", "4C"]}, {"up": ["5C"]}], "stock": 0})
    ('move', {'move': '4C>2'})
    """
    columns = [column["up"] for column in view["columns"]]
    for target, cards in enumerate(columns):
        if cards and cards[-1][0] != "A":
            wanted = RANKS[RANKS.index(cards[-1][0]) - 1] + cards[-1][1]
            if any(wanted in other for source, other in enumerate(columns) if source != target):
                return ("move", {"move": f"{wanted}>{target + 1}"})
    return ("deal", {}) if view.get("stock") else ("ping", {})


def step_and_undo(step: Step) -> Iterator[Step]:
    while True:
        yield step
        if step[0] != "ping":
            yield ("undo", {})


@role("daily")
async def daily(spec: dict[str, Any], record: Record, ready: Ready) -> None:
    """Sockets on today's daily: ``players`` of them play at ``rate``, the rest watch."""
    today = time.strftime("%Y-%m-%d", time.gmtime())
    async with httpx.AsyncClient(base_url=spec["http"], timeout=60) as http:
        players = await gather_bounded(
            [new_player(http, f"daily {i}") for i in range(spec["sockets"])]
        )
    conns = [
        Conn(spec["url"], token, record, "daily" if i < spec["players"] else "watcher")
        for i, (_, token) in enumerate(players)
    ]
    # Each socket's hint names its player's shard of the day, as the browser client's does.
    shards = [SHARDS.get(pid, 0) for pid, _ in players]
    opening = [conn.open(daily=today, shard=s) for conn, s in zip(conns, shards, strict=True)]
    await gather_bounded(opening, 100)
    playing = conns[: spec["players"]]
    starts = await gather_bounded([conn.call("start") for conn in playing])
    go = await ready()
    t0, t1 = go["windows"][spec["window"]]
    watchers = conns[spec["players"] :]
    drain = spec.get("drain", 3.0)
    if spec.get("resume"):  # processes restart meanwhile: every socket reconnects by itself
        for conn in conns:
            conn.resume_until = t1 + drain
            conn.keep_answers = conn in playing

    async def count_frames() -> int:
        await sleep_until(t0)
        before = sum(w.frames for w in watchers)
        await sleep_until(t1)
        return sum(w.frames for w in watchers) - before

    frames, *_ = await asyncio.gather(
        count_frames(),
        *(
            paced(conn, step_and_undo(any_move(start["view"])), spec["rate"], t0, t1)
            for conn, start in zip(playing, starts, strict=True)
        ),
    )
    record.extra.append({"watcher_frames": frames, "watchers": len(watchers)})
    await answered(playing, t1 + drain)
    if spec.get("resume"):
        # A player back: an applied answer after each close; not back: closed 5 s or more
        # before the window's end and never answered again.
        gone = [c for c in playing if c.dropped_at is not None and c.dropped_at < t1 - 5]
        back_after = [s for conn in playing for s in conn.back_after]
        welcome_after = [s for conn in playing for s in conn.welcome_after]
        record.extra.append(
            {"back_after": back_after, "welcome_after": welcome_after, "not_back": len(gone)}
        )
        async with httpx.AsyncClient(base_url=spec["http"], timeout=60) as http:
            record.extra.append(await check_records(http, playing))
    await gather_bounded([conn.close() for conn in conns], 200)
