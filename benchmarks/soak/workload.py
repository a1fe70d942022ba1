"""The soak's traffic: rooms opening, racing and closing, dailies, spectators, reconnects.

Lanes run side by side on one event loop, each a bounded loop of cycles until the
deadline, each cycle with its own time bounds, on a fixed pool of players (so what the
servers may legitimately keep, players and their latest attempts, stops growing):

- a room lane: a host creates a room (``POST /api/rooms``), 2-4 players join by its code
  (``hello`` with the room id, ``join``, ``ready``), the host starts, everyone races with
  real moves picked from the legal moves the server sends (``view.legal``; an undo now
  and then where ``can_undo``), then gives up, leaves the seat or drops the socket for
  good; sometimes a rematch; then everyone closes their socket and the room, empty,
  closes (``--room-idle-close``);
- a spectator lane: opens a room being raced, follows a racer or everyone for a while;
- a daily lane: a player opens today's daily (sometimes a past day's), starts an attempt
  (ranked at first, then unranked ones), plays, mostly gives up, sometimes leaves it to
  resume later. Before the lanes, every player of the pool makes two attempts at each of
  those days (:meth:`Soak.warm_up`), so the dailies hold all they will hold (a member and
  the first and latest attempts per player and day) before the measured half; a run
  across midnight UTC opens a new day, and is reported as such.

Now and then a socket is cut (its transport aborted) in the middle of play: the client
reconnects with ``last_version`` and resends its unanswered commands (benchmarks/load's
:class:`Conn`). The choices come from ``random.Random`` seeded by the seed and the lane.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import random
import time
from collections import Counter
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any

import httpx
from benchmarks.load.clients import Conn, Frame, Record, new_player, new_room
from websockets.exceptions import ConnectionClosed

Player = tuple[str, str]  # (id, token)
Cycle = Callable[[random.Random], Coroutine[Any, Any, None]]
ROOM_SETTINGS: tuple[dict[str, Any], ...] = (
    {"preset": "classic", "undo": "fair"},
    {"preset": "classic", "undo": "full", "time_limit": 120},
    {"preset": "wasp", "undo": "fair"},
    {"preset": "relaxed", "undo": "full", "time_limit": 120},
)
CUT = 0.02  # chance that a socket is cut before a command
WAIT = 20.0  # seconds: the bound of one wait for the server


@dataclass(frozen=True, slots=True)
class Plan:
    """How much traffic: lanes of each kind, the pace, the deadline (wall clock)."""

    http: str
    ws: str
    seed: int
    deadline: float
    rooms: int = 6
    spectators: int = 3
    dailies: int = 3

    @property
    def players(self) -> int:
        return self.rooms * 4 + self.spectators + self.dailies + 12


@dataclass(slots=True)
class Tally:
    """What the clients did and met (sent back to the parent at the end)."""

    done: Counter[str] = field(default_factory=Counter)
    refused: Counter[str] = field(default_factory=Counter)
    errors: Counter[str] = field(default_factory=Counter)

    def error(self, where: str, exc: BaseException) -> None:
        self.errors[f"{where}: {type(exc).__name__}: {str(exc)[:160]}"] += 1


class Client(Conn):
    """A socket that keeps its own board's legal moves, as the browser client does."""

    def __init__(self, plan: Plan, player: Player, record: Record, tally: Tally) -> None:
        super().__init__(plan.ws, player[1], record, "soak")
        self.me = player[0]
        self.tally = tally
        self.legal: list[str] = []
        self.can_undo = False
        self.status: str | None = None
        self.started = 0  # the last round started (start event or a racing welcome)
        self.results = 0  # the last round with results

    def _dispatch(self, frame: Frame) -> None:
        kind = frame["type"]
        view = None
        own = kind == "view" and frame.get("player") == self.me
        if own or (kind == "applied" and frame.get("command") != "follow"):
            view = frame.get("view")  # this player's own board (a follow brings another's)
        elif kind == "welcome":
            view = frame.get("view") if frame["you"]["role"] == "player" else None
            state = frame.get("state") or {}
            if state.get("phase") in ("racing", "results"):
                self.started = max(self.started, state.get("round", 0))
            if state.get("phase") == "results":
                self.results = max(self.results, state.get("round", 0))
        elif kind == "event" and frame["event"] in ("start", "results"):
            if frame["event"] == "start":
                self.started = frame["round"]
            else:
                self.results = frame["round"]
        if isinstance(view, dict):
            self.legal = list(view.get("legal") or [])
            self.can_undo = bool(view.get("can_undo"))
        if "status" in frame and kind in ("applied", "view", "welcome"):
            self.status = frame["status"]
        super()._dispatch(frame)

    async def ask(self, kind: str, **fields: Any) -> Frame | None:
        """Send a command and wait for its answer (None: the socket dropped meanwhile; a
        reconnect resends it). A refusal is counted by its code."""
        if not await self.usable():
            return None
        try:
            answer: Frame = await self.call(kind, timeout=WAIT, **fields)
        except (ConnectionError, TimeoutError, ConnectionClosed):
            await self.usable()
            return None
        if answer["type"] == "refused":
            self.tally.refused[f"{kind}: {answer['code']}"] += 1
        return answer

    async def usable(self) -> bool:
        """Whether the socket is up, after a reconnect under way if need be (bounded)."""
        await until(lambda: self.up.is_set() or self.closed.is_set(), WAIT)
        return self.up.is_set()

    def cut(self, resume: bool = True) -> None:
        """Abort the socket as a lost network would; with ``resume`` it reconnects."""
        if self.ws is None or self.ws.transport is None:
            return
        self.resume_until = time.time() + (60.0 if resume else -1.0)
        self.tally.done["sockets cut" + ("" if resume else " for good")] += 1
        self.ws.transport.abort()

    async def close(self) -> None:
        self.closing = True  # a reconnect under way must not open a socket after this
        if self.reconnecting is not None:
            self.reconnecting.cancel()
        await super().close()

    async def keepalive(self) -> None:
        """A ping every 20 s, as the browser client does (the server closes silent sockets)."""
        while not self.closed.is_set():
            await asyncio.sleep(20.0)
            if self.up.is_set():
                with contextlib.suppress(ConnectionClosed):
                    await self.command("ping", timed=False)


async def until(condition: Callable[[], bool], timeout: float) -> bool:
    """Whether ``condition`` held within ``timeout`` seconds (polled)."""
    end = time.monotonic() + timeout
    while not condition():
        if time.monotonic() >= end:
            return False
        await asyncio.sleep(0.1)
    return True


DAYS = (0, 1, 2, 3)  # the daily lanes' days: today, then up to three days back
WARM_UP_AT_ONCE = 8  # players warming up side by side


def day_of(days_back: int) -> str:
    return (dt.datetime.now(dt.UTC).date() - dt.timedelta(days=days_back)).isoformat()


class Pool:
    """The players, each used by one lane at a time."""

    def __init__(self, players: list[Player]) -> None:
        self.free = list(players)

    async def take(self, count: int, rng: random.Random) -> list[Player]:
        await until(lambda: len(self.free) >= count, 60.0)
        if len(self.free) < count:
            raise RuntimeError(f"no {count} free players in 60 s")
        taken = rng.sample(self.free, count)
        for player in taken:
            self.free.remove(player)
        return taken

    def give_back(self, players: list[Player]) -> None:
        self.free.extend(players)


class Soak:
    """Every lane, sharing the pool, the rooms being raced (for spectators) and the tally."""

    def __init__(self, plan: Plan, http: httpx.AsyncClient, pool: Pool) -> None:
        self.plan = plan
        self.http = http
        self.pool = pool
        self.tally = Tally()
        self.record = Record()
        self.live_rooms: dict[str, list[str]] = {}  # room id: its racers' ids

    def left(self) -> float:
        return self.plan.deadline - time.time()

    async def lane(self, name: str, cycle: Cycle, bound: float) -> None:
        """Cycles until the deadline, each bounded by ``bound`` seconds; a failed cycle is
        counted and the lane goes on."""
        rng = random.Random(f"{self.plan.seed}:{name}")
        await asyncio.sleep(rng.uniform(0.0, 3.0))
        while self.left() > 15.0:
            try:
                await asyncio.wait_for(cycle(rng), bound)
            except Exception as exc:  # counted, reported; the soak goes on
                self.tally.error(name.split("-")[0], exc)
            await asyncio.sleep(rng.uniform(0.5, 3.0))

    def client(self, player: Player) -> Client:
        return Client(self.plan, player, self.record, self.tally)

    async def play(self, conn: Client, rng: random.Random, moves: int) -> None:
        """Up to ``moves`` real moves (or undos) at a human pace; a cut socket now and then."""
        for _ in range(moves):
            await asyncio.sleep(rng.uniform(0.3, 1.2))
            if rng.random() < CUT:
                conn.cut()
            if not await conn.usable() or not conn.legal:
                return  # gone, or the game is over
            if conn.status not in (None, "playing"):
                return
            if conn.can_undo and rng.random() < 0.1:
                answer = await conn.ask("undo")
            else:
                answer = await conn.ask("move", move=rng.choice(conn.legal))
            self.tally.done["moves sent"] += 1
            if answer is not None and answer.get("status", "playing") != "playing":
                return

    async def room(self, rng: random.Random) -> None:
        players = await self.pool.take(rng.randint(2, 4), rng)
        conns = [self.client(p) for p in players]
        keep = [asyncio.create_task(c.keepalive()) for c in conns]
        try:
            await self._room(rng, players, conns)
        finally:
            for task in keep:
                task.cancel()
            await asyncio.gather(*(c.close() for c in conns))
            self.pool.give_back(players)

    async def _room(self, rng: random.Random, players: list[Player], conns: list[Client]) -> None:
        settings = {**rng.choice(ROOM_SETTINGS), "max_players": len(players)}
        settings["deal"] = str(rng.randrange(2**64))
        code = await new_room(self.http, players[0][1], settings)
        self.tally.done["rooms opened"] += 1
        for conn in conns:  # each joins by the room's code, as from a shared link
            await conn.open(timeout=WAIT, room=code)
            await conn.ask("join", **{"as": "player"})
            await conn.ask("ready", ready=True)
        self.live_rooms[code] = [p for p, _ in players]
        try:
            for round_ in range(1, 3):
                await self.race(rng, conns, round_)
                if round_ == 2 or rng.random() < 0.7:
                    break
                await self.rematch(conns, round_)
        finally:
            self.live_rooms.pop(code, None)

    async def race(self, rng: random.Random, conns: list[Client], round_: int) -> None:
        host = conns[0]
        await host.ask("start")
        if not await until(lambda: all(c.started >= round_ for c in conns if c.up.is_set()), 30):
            raise RuntimeError(f"round {round_} did not start within 30 s")
        self.tally.done["races started"] += 1

        async def racer(conn: Client, lane_rng: random.Random) -> None:
            await self.play(conn, lane_rng, lane_rng.randint(15, 60))
            ending = lane_rng.random()
            if conn is not host and ending < 0.1:
                conn.cut(resume=False)  # gone for good: the seat is lost after the grace
            elif ending < 0.35:
                await conn.ask("leave")  # gives up and watches
            elif conn.status == "playing":
                await conn.ask("give-up")

        racers = [racer(c, random.Random(rng.random())) for c in conns]
        await asyncio.gather(*racers)
        # A racer gone for good ends the race when their seat is lost (60 s of grace).
        watching = [c for c in conns if not c.closed.is_set()]
        if not await until(lambda: any(c.results >= round_ for c in watching), 120.0):
            raise RuntimeError(f"no results of round {round_} within 120 s")
        self.tally.done["races finished"] += 1

    async def rematch(self, conns: list[Client], round_: int) -> None:
        """The host asks for a rematch; everyone still there sits (again) and is ready."""
        await conns[0].ask("rematch", round=round_)
        for conn in conns[1:]:
            if conn.closed.is_set():
                continue
            answer = await conn.ask("ready", ready=True)
            if answer is not None and answer["type"] == "refused":  # left the seat: sit again
                await conn.ask("join", **{"as": "player"})
                await conn.ask("ready", ready=True)
        self.tally.done["rematches"] += 1

    async def spectator(self, rng: random.Random) -> None:
        if not self.live_rooms:
            await asyncio.sleep(2.0)
            return
        code = rng.choice(sorted(self.live_rooms))
        racers = self.live_rooms[code]
        [player] = await self.pool.take(1, rng)
        conn = self.client(player)
        try:
            conn.resume_until = time.time() + 60.0
            try:
                await conn.open(timeout=WAIT, room=code)
            except RuntimeError:  # the room closed meanwhile: refused unknown-room
                self.tally.refused["hello: unknown-room"] += 1
                return
            self.tally.done["spectators"] += 1
            await conn.ask("follow", player=rng.choice(["*", *racers]))
            for _ in range(rng.randint(2, 10)):
                await asyncio.sleep(rng.uniform(1.0, 3.0))
                if rng.random() < 0.1:
                    conn.cut()
                await conn.ask("ping")
        finally:
            await conn.close()
            self.pool.give_back([player])

    async def warm_up(self, player: Player) -> None:
        """Two attempts, both given up, at each day the daily lanes visit: what a server
        keeps per player and day (their member, their first and latest attempts) is then
        all there, and stays the same size while the lanes play (the fitted half must not
        count the pool still filling the days)."""
        for day in DAYS:
            conn = self.client(player)
            try:
                await conn.open(timeout=WAIT, daily=day_of(day))
                for _ in range(2):
                    for kind in ("start", "give-up"):
                        answer = await conn.ask(kind)
                        if answer is None or answer["type"] != "applied":
                            raise RuntimeError(f"warm-up {kind}: {answer}")
                self.tally.done["warm-up attempts"] += 2
            finally:
                await conn.close()

    async def daily(self, rng: random.Random) -> None:
        back = rng.choice(DAYS[1:]) if rng.random() < 0.15 else 0
        day = day_of(back)
        [player] = await self.pool.take(1, rng)
        conn = self.client(player)
        keep = asyncio.create_task(conn.keepalive())
        try:
            conn.resume_until = time.time() + 120.0
            await conn.open(timeout=WAIT, daily=day)
            answer = await conn.ask("start")
            if answer is None or answer["type"] != "applied":
                return
            self.tally.done["daily attempts" + (" resumed" if answer.get("resumed") else "")] += 1
            await self.play(conn, rng, rng.randint(10, 50))
            if rng.random() < 0.8 and conn.status == "playing":
                await conn.ask("give-up")
        finally:
            keep.cancel()
            await conn.close()
            self.pool.give_back([player])


async def run(plan: Plan) -> Tally:
    """Make the players, run every lane until the deadline (hard bound: 3 minutes past
    it), and the tally."""
    limits = httpx.Limits(max_connections=20)
    async with httpx.AsyncClient(base_url=plan.http, timeout=WAIT, limits=limits) as http:
        players = [await new_player(http, f"soak {n}") for n in range(plan.players)]
        soak = Soak(plan, http, Pool(players))
        for start in range(0, len(players), WARM_UP_AT_ONCE):
            batch = players[start : start + WARM_UP_AT_ONCE]
            await asyncio.wait_for(asyncio.gather(*map(soak.warm_up, batch)), 120.0)
        lanes = (
            [soak.lane(f"room-{n}", soak.room, 400.0) for n in range(plan.rooms)]
            + [soak.lane(f"spectator-{n}", soak.spectator, 60.0) for n in range(plan.spectators)]
            + [soak.lane(f"daily-{n}", soak.daily, 120.0) for n in range(plan.dailies)]
        )
        tasks = [asyncio.create_task(lane) for lane in lanes]
        _, late = await asyncio.wait(tasks, timeout=max(0.0, soak.left()) + 180.0)
        for task in late:
            task.cancel()
        if late:
            soak.tally.errors["lanes still running 3 min past the deadline"] = len(late)
    closes = Counter(str(code) for _, code in soak.record.dropped)
    soak.tally.done.update({f"sockets dropped (close code {c})": n for c, n in closes.items()})
    return soak.tally
