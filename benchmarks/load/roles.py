"""What the clients do: the echo baseline, racers in rooms, spammers.

Each role sets up its sockets, awaits ``ready()`` (the common start time), plays
within its window and closes. Every loop is bounded by the window's end.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import random
import time
from collections.abc import Iterator
from typing import Any

import httpx
import orjson
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from .clients import (
    Conn,
    Record,
    Sample,
    answered,
    gather_bounded,
    new_player,
    new_room,
    sleep_until,
)
from .faults import check_records, drain_reader, never_reader
from .workers import Ready, role

Step = tuple[str, dict[str, Any]]
ECHO_FRAME = {"type": "move", "move": "4H>7"}


@role("echo")
async def echo(spec: dict[str, Any], record: Record, ready: Ready) -> None:
    """Closed loop on the echo server: write a frame, read it back, again."""
    sockets = await gather_bounded(
        [connect(spec["url"], compression=None) for _ in range(spec["sockets"])]
    )
    go = await ready()
    t0, t1 = go["windows"][spec["window"]]

    async def loop(ws: Any) -> None:
        await sleep_until(t0)
        for seq in range(1, 10**9):
            if time.time() >= t1:
                return
            sample = Sample("echo", time.time())
            record.samples.append(sample)
            started = time.perf_counter()
            await ws.send(orjson.dumps({**ECHO_FRAME, "seq": seq}).decode())
            await ws.recv()
            sample.latency = time.perf_counter() - started

    await asyncio.gather(*(loop(ws) for ws in sockets))
    await asyncio.gather(*(ws.close() for ws in sockets))


def move_undo(line: list[str]) -> Iterator[Step]:
    """The first move of a winning line and its undo, over and over."""
    while True:
        yield ("move", {"move": line[0]})
        yield ("undo", {})


def replayed_line(line: list[str], undo_every: int) -> Iterator[Step]:
    """A winning line but its last move (so the game never ends), then undone to the deal,
    over and over."""
    forward = line[:-1]
    while True:
        yield from winning_line(forward, undo_every)
        for _ in forward:
            yield ("undo", {})


def winning_line(line: list[str], undo_every: int) -> Iterator[Step]:
    """A recorded winning line, with every ``undo_every``-th move taken back and replayed."""
    for index, move in enumerate(line):
        step: Step = ("deal", {}) if move == "deal" else ("move", {"move": move})
        yield step
        if undo_every and index % undo_every == undo_every - 1 and move != "deal":
            yield ("undo", {})
            yield step


async def seated_room(
    http: httpx.AsyncClient, spec: dict[str, Any], record: Record, index: int, size: int
) -> tuple[list[Conn], list[str]]:
    """A room created over HTTP, ``size`` racers seated and ready, the race started."""
    players = [await new_player(http, f"racer {index}.{seat}") for seat in range(size)]
    # Full undo: the racers undo moves that turned cards too (fair undo would refuse them).
    settings = {"time_limit": 0, "max_players": size, "undo": "full", **spec.get("settings", {})}
    deal = spec.get("deal")
    if deal is not None:
        settings["deal"] = deal
    room = await new_room(http, players[0][1], settings)
    conns = [Conn(spec["url"], token, record, spec.get("group", "racer")) for _, token in players]
    for conn in conns:
        await conn.open(room=room)
        await conn.call("join", **{"as": "player"})
        await conn.call("ready", ready=True)
    started = [conn.event("start") for conn in conns]
    await conns[0].call("start")
    await asyncio.gather(*started)
    return conns, [player for player, _ in players]


FOLLOWERS = itertools.count(1)  # names that differ: a room refuses two that look the same


async def follower(
    http: httpx.AsyncClient, url: str, room: str, racer: str, record: Record
) -> Conn:
    _, token = await new_player(http, f"follower {os.getpid()}.{next(FOLLOWERS)}")
    conn = Conn(url, token, record, "follower")
    await conn.open(room=room)
    await conn.call("follow", player=racer)
    return conn


async def paced(conn: Conn, steps: Iterator[Step], rate: float, t0: float, t1: float) -> None:
    """Open loop: a command every 1/rate seconds from a random phase, whatever the answers."""
    at = t0 + random.random() / rate
    for kind, fields in steps:
        if at >= t1 or conn.closed.is_set():
            return
        await sleep_until(at)
        if not conn.up.is_set():  # reconnecting after a drop: commands wait (bounded)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(conn.up.wait(), max(0.01, t1 - time.time()))
            if not conn.up.is_set():
                return
        else:
            conn.record.send_lag.append(time.time() - at)
        with contextlib.suppress(ConnectionClosed):  # still pending: resent on reconnection
            await conn.command(kind, due=at, **fields)
        at += 1 / rate


async def closed(conn: Conn, steps: Iterator[Step], t0: float, t1: float) -> None:
    """Closed loop: the next command as soon as the last one is answered."""
    await sleep_until(t0)
    for kind, fields in steps:
        if time.time() >= t1:
            return
        try:
            await conn.call(kind, timeout=max(1.0, t1 - time.time() + 10), timed=True, **fields)
        except (ConnectionError, TimeoutError, ConnectionClosed):
            return


async def frames_in_window(
    racing: list[Conn], following: list[Conn], t0: float, t1: float
) -> dict[str, int]:
    """Frames the racers' and the followers' sockets read between ``t0`` and ``t1``: with
    the answers counted (``Record.samples``), what the server sends per command."""
    await sleep_until(t0)
    before = [c.frames for c in racing], [c.frames for c in following]
    await sleep_until(t1)
    return {
        "window_racer_frames": sum(c.frames for c in racing) - sum(before[0]),
        "window_follower_frames": sum(c.frames for c in following) - sum(before[1]),
    }


@role("racers")
async def racers(spec: dict[str, Any], record: Record, ready: Ready) -> None:
    """Rooms of racers replaying winning lines of known deals, a follower per room if asked.

    ``script``: ``move-undo`` (a move and its undo) or ``line`` (the line with some undos,
    rewound and replayed); ``mode``: ``paced`` at ``rate`` or ``closed``. With ``resume``,
    dropped sockets reconnect and the records are checked against the answers at the end.
    """
    lines: list[tuple[int, list[str]]] = spec["lines"]
    async with httpx.AsyncClient(base_url=spec["http"], timeout=60) as http:

        async def one_room(index: int) -> tuple[list[Conn], list[Conn], list[str]]:
            deal, line = lines[(spec["first"] + index) % len(lines)]
            conns, players = await seated_room(
                http, {**spec, "deal": deal}, record, index, spec["room_size"]
            )
            followers = []
            if spec.get("followers"):
                room = conns[0].welcome["room"]
                followers.append(await follower(http, spec["url"], room, players[0], record))
            return conns, followers, line

        rooms = await gather_bounded([one_room(i) for i in range(spec["rooms"])], 20)
        readers = [
            await never_reader(http, spec, conns[0], record)
            for conns, _, _ in rooms[: spec.get("readers", 0)]
        ]
        go = await ready()
        t0, t1 = go["windows"][spec["window"]]
        drain = spec.get("drain", 3.0)
        everyone = [c for conns, followers, _ in rooms for c in conns + followers]
        for conn in everyone:
            conn.keep_answers = bool(spec.get("resume"))
            conn.resume_until = t1 + drain if spec.get("resume") else 0.0
        plays = []
        for conns, _, line in rooms:
            for conn in conns:
                steps = (
                    move_undo(line)
                    if spec["script"] == "move-undo"
                    else replayed_line(line, spec.get("undo_every", 0))
                )
                if spec["mode"] == "closed":
                    plays.append(closed(conn, steps, t0, t1))
                else:
                    plays.append(paced(conn, steps, spec["rate"], t0, t1))
        racing = [c for conns, _, _ in rooms for c in conns]
        following = [f for _, fs, _ in rooms for f in fs]
        window = asyncio.create_task(frames_in_window(racing, following, t0, t1))
        await asyncio.gather(*plays)
        await answered(everyone, t1 + drain)
        record.extra.append({"follower_frames": sum(f.frames for f in following)})
        record.extra.append(await window)
        if readers:
            record.extra.append({"readers": [await drain_reader(r) for r in readers]})
        if spec.get("resume"):
            record.extra.append(
                await check_records(http, [c for conns, _, _ in rooms for c in conns])
            )
    await asyncio.gather(*(c.close() for c in everyone))


@role("spammers")
async def spammers(spec: dict[str, Any], record: Record, ready: Ready) -> None:
    """Players alone in relaxed rooms with hints and Auto, sending Auto or hint nonstop (closed
    loop)."""
    settings = {"preset": "relaxed", "hints": True, "auto": True}
    async with httpx.AsyncClient(base_url=spec["http"], timeout=60) as http:
        rooms = [
            await seated_room(http, {**spec, "settings": settings, "group": "spam"}, record, i, 1)
            for i in range(spec["spammers"])
        ]
    go = await ready()
    t0, t1 = go["windows"][spec["window"]]
    counts: dict[str, int] = {}

    async def spam(conn: Conn) -> None:
        await sleep_until(t0)
        for _ in range(10**6):
            if time.time() >= t1:
                return
            try:
                answer = await conn.call(spec["command"], timeout=t1 - time.time() + 30, timed=True)
            except (ConnectionError, TimeoutError, ConnectionClosed):
                return
            # Auto on a lost game answers "verdict": "lost" and changes nothing (issue 21).
            code = answer.get("code") or answer.get("auto") or answer.get("verdict") or "applied"
            key = "move" if ">" in code else code
            counts[key] = counts.get(key, 0) + 1
            if answer.get("status", "playing") != "playing" or code in ("finished", "game-over"):
                await rematch(conn)

    await asyncio.gather(*(spam(conn) for conns, _ in rooms for conn in conns))
    record.extra.append({"spam_answers": counts})
    await asyncio.gather(*(conn.close() for conns, _ in rooms for conn in conns))


async def rematch(conn: Conn) -> None:
    """A solo spammer whose game ended: the next round, started (a few tries, bounded)."""
    for _ in range(20):
        answer = await conn.call("rematch", round=conn.round)
        if answer["type"] == "applied":
            break
        await asyncio.sleep(0.2)  # the results may not be out yet
    await conn.call("ready", ready=True)
    started = conn.event("start")
    await conn.call("start")
    await started
