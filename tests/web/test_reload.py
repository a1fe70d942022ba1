"""A write the store refused: the room's memory went ahead of its log, so the room is
dropped, its sockets told to reconnect, and it comes back from what was written."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from pathlib import Path

from scorpion.engine import Game
from scorpion.race import Player, RoomSettings
from scorpion.store import SQLiteStore, StoreError, Write
from scorpion.web.config import Settings
from scorpion.web.services import Services

ADA = Player("a", "Ada")


class FlakyStore(SQLiteStore):
    """A real SQLite store whose writes fail while ``down`` is set."""

    down = False

    async def write_each(self, groups: Sequence[Sequence[Write]]) -> list[StoreError | None]:
        if self.down:
            raise OSError("disk unplugged")
        return await super().write_each(groups)


async def services(tmp_path: Path) -> tuple[FlakyStore, Services]:
    """Services on a flaky store (open), with player a."""
    store = FlakyStore(tmp_path / "race.db")
    svc = Services(Settings(secret="s", daily_search="none", db=str(tmp_path / "race.db")), store)
    await store.open()
    await store.create_player("a", b"h", "Ada")
    return store, svc


async def test_a_room_whose_write_failed_comes_back_from_its_log(tmp_path: Path) -> None:
    store, svc = await services(tmp_path)
    referee, bridge = svc.referee, svc.bridge
    now = time.time()
    await bridge.run(referee.create_room("r1", ADA, RoomSettings.from_dict({"deal": 7}), now))
    await bridge.run(referee.hello(1, ADA, {"type": "hello", "token": "t", "room": "r1"}, now))
    for seq, kind in enumerate(("join", "ready", "start"), 1):
        extra = {"as": "player"} if kind == "join" else {}
        await bridge.run(referee.receive(1, {"type": kind, "seq": seq, **extra}, now))
    now += 3
    first = str(Game.new(7, "classic").legal_moves()[0])
    await bridge.run(referee.receive(1, {"type": "move", "seq": 4, "move": first}, now))
    store.down = True  # the next move is applied in memory, but not written
    await bridge.run(referee.receive(1, {"type": "undo", "seq": 5}, now))
    assert "r1" in svc.reloading and "r1" not in referee.rooms and 1 not in referee.places
    store.down = False
    async with asyncio.timeout(30):
        while svc.reloading:
            await asyncio.sleep(0.05)
    room = referee.rooms["r1"]
    # What was written: the first move, not the undo.
    assert room.racers["a"].game.log[0][0] == first and room.racers["a"].game.moves_made == 1
    assert referee.restore_errors == []
    await svc.stop()


async def test_a_practice_whose_write_failed_comes_back_from_its_log(tmp_path: Path) -> None:
    store, svc = await services(tmp_path)
    referee, bridge = svc.referee, svc.bridge
    now = time.time()
    await bridge.run(referee.hello(1, ADA, {"type": "hello", "token": "t", "practice": True}, now))
    await bridge.run(referee.receive(1, {"type": "new-deal", "seq": 1}, now))
    game = referee.practices["a"].current
    assert game is not None
    first = str(game.game.legal_moves()[0])
    await bridge.run(referee.receive(1, {"type": "move", "seq": 2, "move": first}, now))
    store.down = True  # the next move is applied in memory, but not written
    await bridge.run(referee.receive(1, {"type": "undo", "seq": 3}, now))
    assert "practice:a" in svc.reloading and "a" not in referee.practices
    assert 1 not in referee.places
    store.down = False
    async with asyncio.timeout(30):
        while svc.reloading:
            await asyncio.sleep(0.05)
    back = referee.practices["a"].current
    # What was written: the deal and the first move, not the undo.
    assert back is not None and back.round == game.round and back.game.deal == game.game.deal
    assert back.game.log[0][0] == first and back.game.moves_made == 1
    assert referee.restore_errors == []
    await svc.stop()
