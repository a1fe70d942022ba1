"""The quick race's queue on a fake clock: matching, one queue a player, status, full."""

from __future__ import annotations

import itertools
from collections.abc import Callable

import pytest

from scorpion.race import Player
from scorpion.race.quick import (
    LOST_ROOM,
    MAX_WAITING,
    PLACED_KEPT,
    ROOM_SIZE,
    SHORT_WAIT,
    STALE,
    QueueError,
    QuickQueue,
)

T0 = 1_796_000_000.0


def ids() -> Callable[[], str]:
    counter = itertools.count(1)
    return lambda: f"room{next(counter)}"


def players(n: int, prefix: str = "p") -> list[Player]:
    return [Player(f"{prefix}{i}", f"Name {i}") for i in range(n)]


def test_four_waiting_form_a_room_at_once() -> None:
    q = QuickQueue()
    for i, p in enumerate(players(4)):
        q.join(p, "classic", T0 + i, racing=False)
    formed = q.tick(T0 + 4, ids())
    assert [(f.room, f.preset, [p.id for p in f.players]) for f in formed] == [
        ("room1", "classic", ["p0", "p1", "p2", "p3"])
    ]
    status = q.status("p3", T0 + 5)
    assert status is not None and status.room == "room1" and status.waiting == 0
    assert status.waited == 1.0  # joined at T0 + 3, placed at T0 + 4


def test_eight_waiting_form_two_rooms_oldest_first() -> None:
    q = QuickQueue()
    for i, p in enumerate(players(9)):
        q.join(p, "classic", T0 + i, racing=False)
    formed = q.tick(T0 + 9, ids())
    assert [[p.id for p in f.players] for f in formed] == [
        ["p0", "p1", "p2", "p3"],
        ["p4", "p5", "p6", "p7"],
    ]
    status = q.status("p8", T0 + 9)
    assert status is not None and status.room is None and status.waiting == 1


def test_two_wait_for_the_short_wait_then_race() -> None:
    q = QuickQueue()
    q.join(Player("a", "Ada"), "classic", T0, racing=False)
    q.join(Player("b", "Bo"), "classic", T0 + 2, racing=False)
    assert q.tick(T0 + SHORT_WAIT - 0.1, ids()) == []
    status = q.status("b", T0 + 10)
    assert status is not None and (status.waiting, status.waited) == (2, 8.0)
    formed = q.tick(T0 + SHORT_WAIT, ids())
    assert [[p.id for p in f.players] for f in formed] == [["a", "b"]]


def test_a_lone_player_keeps_waiting() -> None:
    q = QuickQueue()
    q.join(Player("a", "Ada"), "classic", T0, racing=False)
    for t in range(0, 25, 5):  # polled: still there
        q.seen("a", T0 + t)
        assert q.tick(T0 + t, ids()) == []
    status = q.status("a", T0 + 25)
    assert status is not None and status.waiting == 1 and status.waited == 25.0


def test_two_strangers_whose_names_look_alike_race_in_different_rooms() -> None:
    # A room refuses a name that looks like another's: both in one room, one would be shut
    # out of their own race. The lookalike waits for the next room instead.
    q = QuickQueue()
    q.join(Player("a", "Ada"), "classic", T0, racing=False)
    q.join(Player("a2", "\u0410da"), "classic", T0 + 1, racing=False)  # a Cyrillic A
    q.join(Player("b", "Bo"), "classic", T0 + 2, racing=False)
    formed = q.tick(T0 + SHORT_WAIT, ids())
    assert [[p.id for p in f.players] for f in formed] == [["a", "b"]]
    status = q.status("a2", T0 + SHORT_WAIT)
    assert status is not None and status.room is None and status.waiting == 1
    for i, p in enumerate(players(3)):
        q.join(p, "classic", T0 + 20 + i, racing=False)
    formed = q.tick(T0 + 23, ids())  # four whose names differ: at once
    assert [[p.id for p in f.players] for f in formed] == [["a2", "p0", "p1", "p2"]]


def test_one_queue_per_rule_set() -> None:
    q = QuickQueue()
    q.join(Player("a", "Ada"), "classic", T0, racing=False)
    q.join(Player("b", "Bo"), "easy", T0, racing=False)
    assert q.tick(T0 + SHORT_WAIT + 1, ids()) == []
    q.join(Player("c", "Cy"), "easy", T0 + 16, racing=False)
    formed = q.tick(T0 + 16, ids())
    assert [(f.preset, [p.id for p in f.players]) for f in formed] == [("easy", ["b", "c"])]


def test_a_player_is_in_one_queue_at_most() -> None:
    q = QuickQueue()
    q.join(Player("a", "Ada"), "classic", T0, racing=False)
    with pytest.raises(QueueError) as refused:
        q.join(Player("a", "Ada"), "easy", T0 + 1, racing=False)
    assert refused.value.code == "already-queued"
    assert [e.preset for e in q.entries.values()] == ["classic"]
    again = q.join(Player("a", "Ada"), "classic", T0 + 2, racing=False)  # a second tab
    assert (again.waiting, again.waited) == (1, 2.0)


def test_not_in_a_queue_and_a_race() -> None:
    q = QuickQueue()
    for p in players(4):
        q.join(p, "classic", T0, racing=False)
    q.tick(T0, ids())
    with pytest.raises(QueueError) as refused:
        q.join(Player("p0", "Name 0"), "classic", T0 + 5, racing=True)
    assert refused.value.code == "in-race"
    assert q.status("p0", T0 + 5).room == "room1"  # type: ignore[union-attr]
    # Once that race is over, joining starts a new wait.
    status = q.join(Player("p0", "Name 0"), "easy", T0 + 600, racing=False)
    assert (status.preset, status.room, status.waited) == ("easy", None, 0.0)


def test_racing_in_a_room_is_refused_and_changes_nothing() -> None:
    q = QuickQueue()
    with pytest.raises(QueueError) as refused:
        q.join(Player("a", "Ada"), "classic", T0, racing=False, in_room=True)
    assert refused.value.code == "in-race" and "racing in a room" in refused.value.message
    assert q.entries == {} and q.changes() == ([], [])
    q.join(Player("b", "Bo"), "classic", T0, racing=False)
    with pytest.raises(QueueError):  # queued, then racing in a room: refused, place kept
        q.join(Player("b", "Bo"), "classic", T0 + 1, racing=False, in_room=True)
    assert q.status("b", T0 + 1).waiting == 1  # type: ignore[union-attr]
    # Their race in a room started: they leave the queue (web/queue_racing.py).
    assert q.leave("b") is True and q.status("b", T0 + 2) is None


def test_leave_and_a_closed_tab() -> None:
    q = QuickQueue()
    q.join(Player("a", "Ada"), "classic", T0, racing=False)
    q.join(Player("b", "Bo"), "classic", T0, racing=False)
    assert q.leave("a") is True and q.leave("a") is False
    assert q.status("a", T0) is None
    q.tick(T0 + STALE, ids())  # b's tab stopped asking
    assert q.status("b", T0 + STALE) is None
    assert q.changes() == ([], ["a", "b"])


def test_a_full_queue_says_so() -> None:
    q = QuickQueue()
    for p in players(MAX_WAITING - 1):
        q.join(p, "classic", T0, racing=False)
    last = q.join(Player("last", "Last"), "classic", T0, racing=False)
    assert last.full is True and last.waiting == MAX_WAITING
    with pytest.raises(QueueError) as refused:
        q.join(Player("late", "Late"), "classic", T0, racing=False)
    assert refused.value.code == "queue-full"
    assert q.status("late", T0) is None
    assert q.join(Player("late", "Late"), "easy", T0, racing=False).full is False


def test_unknown_rule_set_is_refused() -> None:
    with pytest.raises(QueueError) as refused:
        QuickQueue().join(Player("a", "Ada"), "chess", T0, racing=False)
    assert refused.value.code == "unknown-preset"


def test_rows_round_trip_and_changes() -> None:
    q = QuickQueue()
    q.join(Player("a", "Ada"), "classic", T0, racing=False)
    q.join(Player("b", "Bo"), "classic", T0 + 1, racing=False)
    written, gone = q.changes()
    assert [r["player"] for r in written] == ["a", "b"] and gone == []
    again = QuickQueue.from_rows(written)
    assert again.entries == q.entries
    again.tick(T0 + SHORT_WAIT, ids())
    assert {r["room"] for r in again.changes()[0]} == {"room1"}


def test_a_room_no_process_made_is_requeued() -> None:
    q = QuickQueue()
    for p in players(ROOM_SIZE):
        q.join(p, "classic", T0, racing=False)
    q.tick(T0 + 1, ids())
    q.requeue("room1", T0 + 2)  # too soon: the forming process may still be making it
    assert q.status("p0", T0 + 2).room == "room1"  # type: ignore[union-attr]
    q.requeue("room1", T0 + 1 + LOST_ROOM)
    status = q.status("p0", T0 + 1 + LOST_ROOM)
    assert status is not None and status.room is None and status.waited == LOST_ROOM + 1
    formed = q.tick(T0 + 1 + LOST_ROOM, ids())
    assert [len(f.players) for f in formed] == [ROOM_SIZE]


def test_a_placed_players_row_goes_an_hour_after_their_room_formed() -> None:
    q = QuickQueue()
    for p in players(ROOM_SIZE):
        q.join(p, "classic", T0, racing=False)
    q.tick(T0, ids())
    q.tick(T0 + PLACED_KEPT - 1, ids())
    assert len(q.entries) == ROOM_SIZE  # still known: one race at a time
    q.tick(T0 + PLACED_KEPT, ids())
    assert q.entries == {}
