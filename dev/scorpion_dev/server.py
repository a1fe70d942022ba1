"""A real ``scorpion serve`` process on a free loopback port, and clients.

Used by the tests (tests/web, tests/client, tests/scale: through a conftest) and the
benchmarks::

    server = ServerProcess(tmp_path / "s.db")
    server.start()            # waits for /readyz
    ...
    server.kill()             # kill -9
    server.start()            # same port, same database
    server.stop()             # SIGTERM: graceful

Every wait is bounded in time.
"""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import httpx
import orjson
from websockets.asyncio.client import ClientConnection, connect

from scorpion.engine import Game, apply_action, card_text
from scorpion.race.protocol import shard_of

from . import starting
from .views import fair_view

Frame = dict[str, Any]


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def listens(pid: int, port: int) -> bool:
    """Whether process ``pid`` holds the socket listening on ``port`` (Linux's /proc). A port
    found free can be taken by another process (another test worker's server) before ours
    binds it; that one would then answer our readiness probe, with another database."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with open(table) as rows:
            next(rows)
            for row in rows:
                fields = row.split()  # sl local_address rem_address st ... inode
                if fields[3] == "0A" and int(fields[1].rsplit(":", 1)[1], 16) == port:
                    inodes.add(f"socket:[{fields[9]}]")
    with os.scandir(f"/proc/{pid}/fd") as fds:
        for fd in fds:
            try:
                if os.readlink(fd.path) in inodes:
                    return True
            except OSError:  # closed meanwhile
                continue
    return False


class Loopback:
    """Something serving HTTP and /ws on ``port`` of 127.0.0.1 (a server, or nginx before
    several)."""

    port: int

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"


def place_url(ws_url: str, **place: str) -> str:
    """The socket URL the browser client opens for a place: ``/ws?room=<id>`` (or
    ``daily``, ``practice``), the routing hint of docs/protocol.md section 1.

    >>> place_url("ws://127.0.0.1:1/ws", room="abc")
    'ws://127.0.0.1:1/ws?room=abc'
    """
    return f"{ws_url}?{urlencode(place)}"


def daily_url(ws_url: str, day: str, player_id: str, shards: int) -> str:
    """The socket URL the browser client opens for a day's daily: the hint names the
    player's shard of the day (``daily_shard`` in the API's player, of ``shards``).

    >>> daily_url("ws://127.0.0.1:1/ws", "2026-12-01", "p_1", 1)
    'ws://127.0.0.1:1/ws?daily=2026-12-01&shard=0'
    """
    return place_url(ws_url, daily=day, shard=str(shard_of(player_id, shards)))


class ServerProcess(Loopback):
    """``scorpion serve`` in a subprocess (127.0.0.1 only); its log goes to ``<db>.log``.

    Daily deals are not searched for winnability by default (``daily_search="none"``):
    the deal of a day is then ``scorpion.race.daily.daily_seed(b"test-secret", day)``.
    """

    def __init__(
        self,
        db: Path | str,
        port: int | None = None,
        secret: str | None = "test-secret",
        args: tuple[str, ...] = (),
        env: dict[str, str] | None = None,
        daily_search: str = "none",
        log_path: Path | None = None,
    ) -> None:
        """``db``: a SQLite file or a database URL; ``secret`` None: the server's own."""
        self.db = db if "://" in str(db) else Path(db)
        self.port = port or free_port()
        self.port_is_chosen = port is None  # another may be chosen if taken before a start
        self.started = False
        self.secret = secret
        self.args = ("--daily-search", daily_search, *args)
        self.env = env or {}
        self.proc: subprocess.Popen[bytes] | None = None
        self.log_path = log_path or Path(self.db).with_suffix(".log")

    def start(self, timeout: float = 20.0) -> None:
        starting("scorpion serve")
        env = {k: v for k, v in os.environ.items() if not k.startswith("SCORPION_")}
        env.update(self.env)
        secret = ("--secret", self.secret) if self.secret is not None else ()
        cmd = [sys.executable, "-m", "scorpion.cli", "serve", "--host", "127.0.0.1",
               "--port", str(self.port), "--db", str(self.db), *secret,
               "--log-level", "info", *self.args]  # fmt: skip
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        log = self.log_path.open("ab")
        self.proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env)
        log.close()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                if self.port_is_chosen and not self.started and "in use" in self.log()[-600:]:
                    self.port = free_port()  # taken by another process meanwhile: once more
                    self.start(timeout)
                    return
                raise RuntimeError(f"scorpion serve exited {self.proc.returncode}:\n{self.log()}")
            try:
                ready = httpx.get(self.url + "/readyz", timeout=1.0).status_code == 200
            except httpx.HTTPError:
                ready = False
            if ready and listens(self.proc.pid, self.port):
                self.started = True
                return
            time.sleep(0.05)
        self.kill()
        raise RuntimeError(f"scorpion serve not ready after {timeout} s:\n{self.log()}")

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")[-5000:] if self.log_path.exists() else ""

    def stop(self, timeout: float = 20.0) -> int:
        """SIGTERM and wait (graceful shutdown); kill -9 after ``timeout``. The exit code."""
        return self._end(signal.SIGTERM, timeout)

    def kill(self) -> int:
        return self._end(signal.SIGKILL, 10.0)

    def _end(self, sig: int, timeout: float) -> int:
        if self.proc is None:
            return 0
        proc, self.proc = self.proc, None
        if proc.poll() is None:
            proc.send_signal(sig)
            try:
                return proc.wait(timeout)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(10.0)
                raise RuntimeError(f"scorpion serve ignored signal {sig}:\n{self.log()}") from None
        return proc.returncode

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None


class Client:
    """A websocket client that keeps every frame it received (for the hidden-card check)."""

    def __init__(self, ws: ClientConnection, name: str = "") -> None:
        self.ws = ws
        self.name = name
        self.frames: list[Frame] = []  # every frame received, in order
        self._unread: list[Frame] = []
        self.seq = 0

    @classmethod
    async def connect(
        cls, url: str, name: str = "", timeout: float = 10.0, headers: dict[str, str] | None = None
    ) -> Client:
        """``headers``: e.g. X-Forwarded-For, believed from a server's --trusted-proxies."""
        opening = connect(url, open_timeout=timeout, max_size=2**20, additional_headers=headers)
        ws = await asyncio.wait_for(opening, timeout)
        return cls(ws, name)

    async def send(self, message: Frame) -> None:
        await self.ws.send(orjson.dumps(message).decode())

    async def send_raw(self, data: str | bytes) -> None:
        await self.ws.send(data)

    async def command(self, kind: str, **fields: Any) -> int:
        """Send a command with the next seq; return the seq."""
        self.seq += 1
        await self.send({"type": kind, "seq": self.seq, **fields})
        return self.seq

    async def recv(self, timeout: float = 10.0) -> Frame:
        if self._unread:
            return self._unread.pop(0)
        text = await asyncio.wait_for(self.ws.recv(), timeout)
        frame: Frame = orjson.loads(text)
        self.frames.append(frame)
        return frame

    async def expect(
        self, match: Callable[[Frame], bool], timeout: float = 10.0, limit: int = 500
    ) -> Frame:
        """The first frame (read or unread) that matches; the others stay unread, in order."""
        skipped: list[Frame] = []
        deadline = time.monotonic() + timeout
        try:
            for _ in range(limit):
                frame = await self.recv(max(0.01, deadline - time.monotonic()))
                if match(frame):
                    return frame
                skipped.append(frame)
            raise AssertionError(f"{self.name}: no matching frame in {limit}: {skipped[-5:]}")
        finally:
            self._unread[:0] = skipped

    async def answer(self, seq: int, timeout: float = 10.0) -> Frame:
        """The applied/refused answer to command ``seq``."""
        return await self.expect(
            lambda f: f.get("type") in ("applied", "refused") and f.get("seq") == seq, timeout
        )

    async def progress(
        self, player: str, match: Callable[[Frame], bool] = lambda p: True, timeout: float = 10.0
    ) -> Frame:
        """``player``'s numbers from the first ``progress`` event that carries them matching."""

        def entry(frame: Frame) -> Frame | None:
            if frame.get("event") != "progress":
                return None
            return next((p for p in frame["players"] if p["player"] == player), None)

        def matches(frame: Frame) -> bool:
            found = entry(frame)
            return found is not None and match(found)

        found = entry(await self.expect(matches, timeout))
        assert found is not None
        return found

    async def call(self, kind: str, timeout: float = 10.0, **fields: Any) -> Frame:
        return await self.answer(await self.command(kind, **fields), timeout)

    async def hello(self, token: str, timeout: float = 10.0, **fields: Any) -> Frame:
        await self.send({"type": "hello", "token": token, **fields})
        return await self.expect(lambda f: f.get("type") in ("welcome", "refused"), timeout)

    async def closed(self, timeout: float = 10.0) -> tuple[int | None, str]:
        """Read until the server closes; return (code, reason)."""
        from websockets.exceptions import ConnectionClosed

        deadline = time.monotonic() + timeout
        try:
            for _ in range(10_000):
                await self.recv(max(0.01, deadline - time.monotonic()))
        except ConnectionClosed:
            pass
        return self.ws.close_code, self.ws.close_reason or ""

    async def close(self) -> None:
        await self.ws.close()


class Api:
    """A small httpx wrapper for the HTTP API."""

    def __init__(self, base_url: str) -> None:
        self.http = httpx.AsyncClient(base_url=base_url, timeout=10.0)

    async def __aenter__(self) -> Api:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.http.aclose()

    async def call(
        self, method: str, path: str, token: str | None = None, body: Any = None
    ) -> httpx.Response:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return await self.http.request(method, path, headers=headers, json=body)

    async def new_player(self, name: str) -> tuple[str, str]:
        """(player id, token) of a new player."""
        r = await self.call("POST", "/api/players", body={"name": name})
        assert r.status_code == 201, r.text
        data = r.json()
        return data["player"]["id"], data["token"]

    async def new_room(self, token: str, **settings: Any) -> str:
        r = await self.call("POST", "/api/rooms", token, settings)
        assert r.status_code == 201, r.text
        room: str = r.json()["room"]
        return room


def face_up(game: Game) -> set[str]:
    """The texts of the cards face up in a game (tableau and reserve)."""
    up = {card_text(c) for col, d in zip(game.columns, game.down, strict=True) for c in col[d:]}
    return up | {card_text(c) for c in game.reserve}


class Replica:
    """A racing player's client with a replica of its game, built from the server's answers.

    The replica picks legal moves and checks every view the server sends against the
    engine's own view of the same position. ``undo`` is the player's undo: "fair" (a room's
    default, a ranked daily attempt) or "full"; ``views`` are the engine's views (what a
    follower's masked board comes from), :meth:`own_view` what the player gets.
    """

    def __init__(
        self, client: Client, player_id: str, deal: int, preset: str = "classic", undo: str = "fair"
    ) -> None:
        self.client = client
        self.id = player_id
        self.undo = undo
        self.game = Game.new(deal, preset)
        self.seen = face_up(self.game)  # every card this player has seen face up
        self.views: list[dict[str, Any]] = [self.game.view()]

    def pick(self) -> str:
        """A legal move, preferring one that turns a face-down card."""
        moves = self.game.legal_moves()
        assert moves, "no legal move"
        for move in moves:
            if move.card is not None:
                for j, col in enumerate(self.game.columns):
                    d = self.game.down[j]
                    if d and d < len(col) and col[d] == move.card:
                        return str(move)
        plain = [m for m in moves if m.card is not None]
        return str(plain[0] if plain else moves[0])

    def apply(self, action: str) -> None:
        apply_action(self.game, action)
        self.seen |= face_up(self.game)
        self.views.append(self.game.view())

    def own_view(self) -> dict[str, Any]:
        """The player's own board: under fair undo, the next undo refused ahead when the move
        it would take back showed a card."""
        return fair_view(self.game) if self.undo == "fair" else self.views[-1]

    async def act(self, kind: str, **fields: Any) -> Frame:
        """Send move/undo/give-up; on ``applied`` update the replica and check the view."""
        answer = await self.client.call(kind, **fields)
        if answer["type"] == "applied":
            self.apply(answer["move"] if kind == "move" else kind)
            assert answer["view"] == self.own_view(), (answer["view"], self.own_view())
        return answer


async def start_race(
    server: Loopback, api: Api, names: list[str], deal: int, undo: str = "full", **settings: Any
) -> tuple[str, dict[str, Replica], dict[str, str]]:
    """A room created by the first name, everyone seated and ready, past the countdown.
    Full undo unless ``undo`` says otherwise: these races undo freely (fair undo has its
    own tests).

    Returns (room id, racers by name, tokens by name).
    """
    tokens: dict[str, str] = {}
    racers: dict[str, Replica] = {}
    ids: dict[str, str] = {}
    for name in names:
        ids[name], tokens[name] = await api.new_player(name)
    room = await api.new_room(tokens[names[0]], deal=deal, undo=undo, **settings)
    for name in names:
        client = await Client.connect(place_url(server.ws_url, room=room), name)
        welcome = await client.hello(tokens[name], room=room)
        assert welcome["type"] == "welcome", welcome
        joined = await client.answer(await client.command("join", **{"as": "player"}))
        assert joined["type"] == "applied", joined
        racers[name] = Replica(client, ids[name], deal, undo=undo)
    for racer in racers.values():
        assert (await racer.client.call("ready"))["type"] == "applied"
    assert (await racers[names[0]].client.call("start"))["type"] == "applied"
    for racer in racers.values():
        await racer.client.expect(lambda f: f.get("event") == "start", timeout=10)
    return room, racers, tokens


async def this_rounds_board(client: Client, round_: int) -> dict[str, Any]:
    """The racer's board sent after round ``round_``'s start (older views may be unread)."""

    def is_start(f: Frame) -> bool:
        return f.get("event") == "start" and f.get("round") == round_

    start = next((f for f in client.frames if is_start(f)), None)
    if start is None:
        start = await client.expect(is_start, timeout=10)
    since = next(i for i, f in enumerate(client.frames) if f is start)
    return await client.expect(
        lambda f: f.get("type") == "view" and any(f is g for g in client.frames[since:])
    )


def last_version(client: Client) -> int:
    """The highest room version the client has received."""
    versions = [f["v"] for f in client.frames if isinstance(f.get("v"), int)]
    versions += [f["version"] for f in client.frames if f.get("type") == "welcome"]
    return max(versions, default=0)


def metric(server: Loopback, name: str) -> float:
    """A metric's value as the process's /metrics prints it (0 when absent)."""
    for line in httpx.get(server.url + "/metrics", timeout=10).text.splitlines():
        if line.startswith(name + " "):
            return float(line.split()[1])
    return 0.0


def scorpion_reports(db: Path | str) -> str:
    """What ``scorpion reports`` prints for the server's database (the operator's view)."""
    return subprocess.run(
        [sys.executable, "-m", "scorpion.cli", "reports", "--db", str(db)],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout
