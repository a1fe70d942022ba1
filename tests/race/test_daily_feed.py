"""race/daily_feed.py: a day's ``playing`` events come at most every ``every`` seconds and
only after a change, carry the leaderboard only when it changed, merge the other owners'
parts (a silent one dropped), and a finished player whose rank moved gets a ``rank`` frame.
(The daily driving it: test_daily.py, test_daily_crowd.py, test_daily_shards.py.)"""

from __future__ import annotations

from scorpion.race.daily_feed import STALE_PARTS, DailyFeed
from scorpion.race.members import Members
from scorpion.race.outputs import Output, Send
from scorpion.race.players import Player

DAY = "2026-11-30"
EVERY = 2.0


def row(player: str, runs: int, elapsed: float = 300.0) -> dict[str, object]:
    return {"player": player, "name": player.upper(), "status": "lost", "elapsed": elapsed,
            "runs": runs, "score": 0, "moves": 10, "turned": 0, "hints": 0, "autos": 0,
            "clean": True}  # fmt: skip


def test_events_come_after_a_change_and_at_most_every_few_seconds() -> None:
    feed, members, out = DailyFeed(DAY, {}, EVERY), Members(), list[Output]()
    assert feed.deadline() is None and feed.event(100.0, members, out) is None
    feed.put(row("a", 2))
    first = feed.event(100.0, members, out)
    assert first is not None and first["leaderboard"]["size"] == 1
    feed.changed = True  # someone played: told, but not before EVERY seconds
    assert feed.deadline() == 100.0 + EVERY
    assert feed.event(101.0, members, out) is None
    second = feed.event(102.0, members, out)
    assert second is not None and "leaderboard" not in second  # the board did not change
    assert out == []  # nobody was told a rank


def test_another_owner_s_part_is_merged_then_dropped_when_silent() -> None:
    feed, members, out = DailyFeed(DAY, {}, EVERY), Members(), list[Output]()
    part = {"count": 3, "top": [{"player": "z", "runs": 4, "turned": 1, "moves": 7}]}
    feed.hear_playing("node-b", part, 100.0)
    event = feed.event(100.0, members, out)
    assert event is not None and event["playing"]["count"] == 3
    assert feed.deadline() == 100.0 + STALE_PARTS * EVERY  # nothing changed: the drop
    event = feed.event(100.0 + STALE_PARTS * EVERY, members, out)
    assert event is not None and event["playing"] == {"count": 0, "top": []}


def test_a_connected_finished_player_is_told_when_their_rank_moves() -> None:
    feed, members, out = DailyFeed(DAY, {}, EVERY), Members(), list[Output]()
    for pid, conn in (("a", 1), ("b", None)):
        member, _ = members.ensure(Player(pid, pid.upper()))
        if conn is not None:
            members.attach(conn, member)
    feed.put(row("a", 2))
    feed.put(row("b", 1))
    feed.ranks_told.update({"a": 1, "b": 2})
    feed.event(100.0, members, out)
    assert out == []  # no rank moved
    feed.put(row("c", 3))  # ahead of both
    feed.event(100.0 + EVERY, members, out)
    assert len(out) == 1 and isinstance(out[0], Send) and out[0].conns == (1,)
    assert out[0].message == {"type": "rank", "daily": DAY, "row": feed.board.row("a"),
                              "size": 3}  # fmt: skip
    assert feed.ranks_told == {"a": 2}  # b has no connection: their welcome tells it
    assert feed.remove("a") and not feed.remove("a") and feed.ranks_told == {}
