"""The quick race's tables (schema 9) on SQLite and PostgreSQL: queue steps write what they
changed; a round is rated exactly once; the leaderboard; a deleted player leaves no rating."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from scorpion.race import Player
from scorpion.race.quick import QuickQueue
from scorpion.race.rating import rate_round
from scorpion.store import JSON, Store

pytestmark = pytest.mark.backends

T0 = 1_796_000_000.0


def joining(player: str, now: float) -> Any:
    def step(rows: list[JSON]) -> tuple[list[JSON], list[str], Any]:
        queue = QuickQueue.from_rows(rows)
        queue.join(Player(player, player.upper()), "classic", now, racing=False)
        formed = queue.tick(now, lambda: f"room-{player}")
        return (*queue.changes(), (queue.status(player, now), formed))

    return step


async def test_queue_steps_keep_the_queue(store: Store) -> None:
    for i in range(4):
        await store.create_player(f"p{i}", f"t{i}".encode(), f"P{i}")
    for i in range(3):
        status, formed = await store.quick_step(joining(f"p{i}", T0 + i))
        assert status.waiting == i + 1 and formed == []
    status, formed = await store.quick_step(joining("p3", T0 + 3))
    assert status.room == "room-p3" and [p.id for p in formed[0].players] == [
        "p0",
        "p1",
        "p2",
        "p3",
    ]
    rows = await store.quick_step(lambda rows: ([], [], rows))
    assert sorted((r["player"], r["room"], r["joined"]) for r in rows) == [
        (f"p{i}", "room-p3", T0 + i) for i in range(4)
    ]
    assert await store.delete_player("p0")
    gone = await store.quick_step(lambda rows: ([], ["p1"], [r["player"] for r in rows]))
    assert sorted(gone) == ["p1", "p2", "p3"]  # p0 went with its player; p1 now too
    assert len(await store.quick_step(lambda rows: ([], [], rows))) == 2


RANKING = ({"player": "a", "rank": 1, "status": "won", "clean": True},
           {"player": "b", "rank": 2, "status": "playing", "clean": True})  # fmt: skip


async def rate(store: Store, room: str, round_: int = 1) -> list[JSON] | None:
    return await store.rate_round(
        room, round_, "classic", ["a", "b"], lambda cur: rate_round(RANKING, cur), T0
    )


async def test_a_round_is_rated_exactly_once(store: Store) -> None:
    for p in ("a", "b"):
        await store.create_player(p, p.encode(), p.upper())
    first = await rate(store, "r1")
    assert first is not None and [c["races"] for c in first] == [1, 1]
    assert await rate(store, "r1") is None  # a replayed log, a retried write: no change
    both = await asyncio.gather(rate(store, "r2"), rate(store, "r2"))  # at once: one rates
    assert sorted(x is None for x in both) == [False, True]
    ratings = {r["preset"]: r for r in await store.player_ratings("a")}
    assert ratings["classic"]["races"] == 2
    second = next(x for x in both if x is not None)
    assert ratings["classic"]["mu"] == pytest.approx(second[0]["mu_after"])
    assert second[0]["mu_before"] == pytest.approx(first[0]["mu_after"])
    history = await store.rating_history("a")
    assert [(h["room_id"], h["place"]) for h in history] == [("r1", 1), ("r2", 1)]


async def test_leaderboard_needs_ten_races(store: Store) -> None:
    for p in ("a", "b"):
        await store.create_player(p, p.encode(), p.upper())
    for i in range(9):
        await rate(store, f"r{i}")
    assert await store.rating_board("classic", 10, 50) == []
    await rate(store, "r9")
    board = await store.rating_board("classic", 10, 50)
    assert [(r["player"], r["name"], r["races"]) for r in board] == [("a", "A", 10), ("b", "B", 10)]
    assert await store.delete_player("a")
    assert [r["player"] for r in await store.rating_board("classic", 10, 50)] == ["b"]
    assert await store.player_ratings("a") == [] and await store.rating_history("a") == []
