"""The analysis queue: the requester's own game first, bounded, once per game, stored."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from scorpion.engine import Game
from scorpion.solver import solve
from scorpion.store import SaveAnalysis, SavedGame, SaveGame, SQLiteStore
from scorpion.web.analyses import Analyses, JobOrder


def test_the_requesters_own_game_jumps_the_queue() -> None:
    order = JobOrder(limit=10)
    for i in range(5):
        assert order.add(f"g{i}")
    assert order.add("g3", urgent=True)  # waiting already: moved to the front
    assert order.add("x", urgent=True)
    assert order.add("g1")  # queued again: no-op
    assert len(order) == 6
    assert [order.pop() for _ in range(7)] == ["g3", "x", "g0", "g1", "g2", "g4", None]


def test_a_full_queue_drops_background_jobs_never_a_requesters() -> None:
    order = JobOrder(limit=3)
    assert [order.add(g) for g in ("a", "b", "c", "d")] == [True, True, True, False]
    assert order.add("u1", urgent=True) and order.add("u2", urgent=True)  # "c", "b" make way
    assert order.add("u3", urgent=True)  # "a" makes way
    assert not order.add("u4", urgent=True)  # only requesters' jobs wait: refused
    assert order.dropped == 4
    assert [order.pop() for _ in range(4)] == ["u1", "u2", "u3", None]


def finished(game_id: str, actions: list[str], **kw: object) -> SavedGame:
    return SavedGame(game_id, "p1", "classic", 3, 1.0, finished=2.0, result="gave-up",
                     actions=[(a, 1.0) for a in actions], **kw)  # type: ignore[arg-type]  # fmt: skip


async def until_done(analyses: Analyses, ids: set[str]) -> None:
    deadline = time.monotonic() + 60
    while any(analyses.status(i) in ("queued", "running") for i in ids):
        assert time.monotonic() < deadline, "analyses did not end within 60 s"
        await asyncio.sleep(0.05)


async def test_games_are_analysed_once_in_a_worker_and_stored(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "s.db")
    await store.open()
    analyses = Analyses(store)
    try:
        await store.create_player("p1", b"t", "Ann")
        line = solve(Game.new(3, "classic")).line
        await store.write([
            SaveGame(finished("room1:1:p1", [*line[:3], "give-up"])),
            SaveGame(finished("room1:2:p1", ["QS>9"])),  # a log that does not replay
            SaveGame(finished("room1:3:p1", line[:1])),
            SaveGame(SavedGame("room1:4:p1", "p1", "classic", 3, 1.0)),  # still played
            SaveAnalysis("room1:3:p1", {"outcome": "kept"}, 1.0),  # analysed before
        ])  # fmt: skip
        ids = {f"room1:{n}:p1" for n in range(1, 5)}
        for game_id in sorted(ids):
            analyses.finished(game_id)
        analyses.finished("practice:p1:1:p1")  # practice: only when asked for
        assert analyses.status("practice:p1:1:p1") is None
        analyses.start()
        await until_done(analyses, ids)
        stored = await store.analysis("room1:1:p1")
        assert stored is not None and stored["turning_point"]["index"] == 3
        assert analyses.status("room1:2:p1") == "failed"
        assert await store.analysis("room1:2:p1") is None
        assert await store.analysis("room1:3:p1") == {"outcome": "kept"}  # not done twice
        assert await store.analysis("room1:4:p1") is None
        assert analyses.done == 1
    finally:
        await analyses.close()
        await store.close()
