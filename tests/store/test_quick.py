"""The quick race's tables (schema 9) on SQLite and PostgreSQL: queue steps write what they
changed; a round is rated exactly once; the leaderboard; a deleted player leaves no rating."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from scorpion.race import Player
from scorpion.race.quick import QuickQueue
from scorpion.race.rating import rate_round
from scorpion.store import JSON, CloseRoom, OpenRoom, SavedGame, SaveGame, Store

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
    # A step reads the waiting rows and the placed rows it names (by player or by room):
    # placed rows pile up for an hour, and every request of the queue is a step.
    assert await store.quick_step(lambda rows: ([], [], rows)) == []
    rows = await store.quick_step(lambda rows: ([], [], rows), room="room-p3")
    assert sorted((r["player"], r["room"], r["joined"]) for r in rows) == [
        (f"p{i}", "room-p3", T0 + i) for i in range(4)
    ]
    mine = await store.quick_step(lambda rows: ([], [], rows), players=("p1", "p2"))
    assert sorted(r["player"] for r in mine) == ["p1", "p2"]
    assert await store.delete_player("p0")
    gone = await store.quick_step(
        lambda rows: ([], ["p1"], [r["player"] for r in rows]), room="room-p3"
    )
    assert sorted(gone) == ["p1", "p2", "p3"]  # p0 went with its player; p1 now too
    assert len(await store.quick_step(lambda rows: ([], [], rows), room="room-p3")) == 2
    # Placed rows formed before ``placed_before`` go first; waiting rows never do.
    await store.create_player("p9", b"t9", "P9")
    await store.quick_step(joining("p9", T0 + 9))
    seen = await store.quick_step(
        lambda rows: ([], [], rows), room="room-p3", placed_before=T0 + 3.5
    )
    assert [r["player"] for r in seen] == ["p9"]
    left = await store.quick_step(lambda rows: ([], [], rows), players=("p2", "p3"))
    assert [r["player"] for r in left] == ["p9"]


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


async def test_racing_rooms_are_open_rooms_with_an_unfinished_game(store: Store) -> None:
    await store.create_player("a", b"ta", "A")

    def game(
        gid: str, room: str, finished: float | None = None, daily: str | None = None
    ) -> SaveGame:
        return SaveGame(SavedGame(id=gid, player_id="a", preset="classic", deal=1, started=T0,
                                  room_id=room, daily=daily, finished=finished,
                                  result=None if finished is None else "won"))  # fmt: skip

    rooms = ("r1", "r2", "r3", "daily:2026-12-01", "practice:a")
    await store.write([OpenRoom(r, "a" if ":" not in r else None, {}) for r in rooms])
    await store.write(
        [
            game("g1", "r1"),  # racing
            game("g2", "r2", finished=T0 + 5),  # over
            game("g3", "r3"),  # its room closes below
            game("g4", "daily:2026-12-01", daily="2026-12-01"),  # a daily is no race
            game("g5", "practice:a"),  # nor is a practice
        ]
    )
    await store.write([CloseRoom("r3")])
    assert await store.racing_rooms("a") == ["r1"]
    assert await store.racing_rooms("nobody") == []
