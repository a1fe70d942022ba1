"""/ws's command path, in process: a command is answered after its commit without its reader
waiting for it, and a connection's next frame is handled only after that commit."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from pathlib import Path

import orjson
from starlette.types import Message

from scorpion.race import Player
from scorpion.store import SQLiteStore, StoreError, Write
from scorpion.web.config import Settings
from scorpion.web.connection import Connection
from scorpion.web.services import Services
from scorpion.web.ws import command

ADA = Player("a", "Ada")


class HeldStore(SQLiteStore):
    """A real SQLite store whose batched writes wait while ``held`` is clear."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.held = asyncio.Event()
        self.held.set()

    async def write_each(self, groups: Sequence[Sequence[Write]]) -> list[StoreError | None]:
        await self.held.wait()
        return await super().write_each(groups)


async def practice(
    tmp_path: Path,
) -> tuple[HeldStore, Services, Connection, list[dict[str, object]]]:
    """Services on a held store, Ada's connection 1 in a practice with a deal dealt."""
    store = HeldStore(tmp_path / "race.db")
    svc = Services(Settings(secret="s", daily_search="none", db=str(tmp_path / "race.db")), store)
    await store.open()
    await store.create_player("a", b"h", "Ada")
    frames: list[dict[str, object]] = []

    async def send(message: Message) -> None:
        frames.append(orjson.loads(message["text"]))

    conn = Connection(1, None, send, svc.settings.limits, svc.metrics, inline=False)  # type: ignore[arg-type]
    svc.hub.attach(1, conn)
    now = time.time()
    await svc.bridge.run(
        svc.referee.hello(1, ADA, {"type": "hello", "token": "t", "practice": True}, now)
    )
    await svc.bridge.run(svc.referee.receive(1, {"type": "new-deal", "seq": 1}, now))
    return store, svc, conn, frames


def frame(data: dict[str, object]) -> Message:
    return {"type": "websocket.receive", "text": orjson.dumps(data).decode()}


async def test_a_command_sent_ahead_is_applied_after_the_last_ones_commit(tmp_path: Path) -> None:
    store, svc, conn, frames = await practice(tmp_path)
    current = svc.referee.practices["a"].current
    assert current is not None
    game = current.game
    first = str(game.legal_moves()[0])
    store.held.clear()
    # The reader is not held by the commit: the command returns with its batch pending.
    await asyncio.wait_for(command(svc, conn, frame({"type": "move", "seq": 2, "move": first})), 5)
    assert conn.written is not None and not conn.written.done()
    assert game.moves_made == 1
    ahead = asyncio.create_task(command(svc, conn, frame({"type": "undo", "seq": 3})))
    for _ in range(20):
        await asyncio.sleep(0)
    assert not ahead.done() and game.moves_made == 1  # not applied before the move is written
    assert not any(f.get("seq") in (2, 3) for f in frames)  # nothing answered unwritten
    store.held.set()
    await asyncio.wait_for(ahead, 5)
    await svc.bridge.settled()
    async with asyncio.timeout(5):
        while not any(f.get("seq") == 3 for f in frames):
            await asyncio.sleep(0.01)
    answers = [(f["seq"], f["type"]) for f in frames if f.get("seq") in (2, 3)]
    assert answers == [(2, "applied"), (3, "applied")] and game.moves_made == 0
    await svc.stop()


async def test_a_bad_frame_sent_ahead_is_refused_after_the_last_commands_answer(
    tmp_path: Path,
) -> None:
    store, svc, conn, frames = await practice(tmp_path)
    current = svc.referee.practices["a"].current
    assert current is not None
    first = str(current.game.legal_moves()[0])
    store.held.clear()
    await command(svc, conn, frame({"type": "move", "seq": 2, "move": first}))
    junk = asyncio.create_task(command(svc, conn, {"type": "websocket.receive", "text": "{"}))
    for _ in range(20):
        await asyncio.sleep(0)
    assert not junk.done() and not any(f.get("seq") == 2 or "code" in f for f in frames)
    store.held.set()
    await asyncio.wait_for(junk, 5)
    async with asyncio.timeout(5):
        while not any(f.get("code") == "bad-json" for f in frames):
            await asyncio.sleep(0.01)
    kinds = [f.get("code", f["type"]) for f in frames if f.get("seq") == 2 or "code" in f]
    assert kinds == ["applied", "bad-json"]  # in the order they came
    await svc.stop()
