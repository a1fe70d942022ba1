"""The search queue's fair share, on a fake clock: bounded per player, per address, in all
and in time, served in turn by address then player."""

from __future__ import annotations

import pytest

from scorpion.race import RaceError
from scorpion.race.search_queue import UNLIMITED, SearchQueue, ShareLimits


def drain(queue: SearchQueue[str], now: float) -> list[str]:
    """Every waiting search in the order the workers would get them (each done at once)."""
    served = []
    while (found := queue.pop(now)) is not None:
        served.append(found.item)
        queue.done(found)
    return served


def test_a_player_and_an_address_hold_a_few_searches_and_are_refused_busy_beyond() -> None:
    queue: SearchQueue[str] = SearchQueue(ShareLimits(per_player=2, per_address=3))
    queue.push("a1", "ada", "10.0.0.1", 0.0)
    running = queue.pop(0.0)  # one running, one waiting: both count
    assert running is not None and running.item == "a1"
    queue.push("a2", "ada", "10.0.0.1", 0.0)
    with pytest.raises(RaceError, match="2 searches going") as refused:
        queue.push("a3", "ada", "10.0.0.1", 0.0)
    assert refused.value.code == "busy"
    queue.push("b1", "bo", "10.0.0.1", 0.0)
    with pytest.raises(RaceError, match="your network"):  # another account, same address
        queue.push("c1", "cy", "10.0.0.1", 0.0)
    queue.done(running)  # Ada's search ended: she may ask again
    queue.push("a3", "ada", "10.0.0.1", 0.0)
    assert drain(queue, 1.0) == ["a2", "b1", "a3"]
    assert queue.held("ada") == 0 and queue.running == 0 and len(queue) == 0


def test_eighty_accounts_flooding_take_one_turn_per_round() -> None:
    queue: SearchQueue[str] = SearchQueue(ShareLimits(per_player=2, per_address=1000))
    for n in range(80):  # 80 accounts on one address, two hints each
        for k in range(2):
            queue.push(f"bot{n}-{k}", f"bot{n}", "10.6.6.6", 0.0)
    queue.push("ada", "ada", "10.0.0.2", 0.0)
    served = drain(queue, 1.0)
    assert served.index("ada") == 1  # the second search run, not the 161st
    assert served[:4] == ["bot0-0", "ada", "bot1-0", "bot2-0"]
    # Within the flooding address, its players take turns too.
    assert served[2:82] == [f"bot{n}-0" for n in range(1, 80)] + ["bot0-1"]


def test_a_full_queue_pushes_out_the_heaviest_address_not_the_newcomer() -> None:
    queue: SearchQueue[str] = SearchQueue(ShareLimits(per_player=1, max_queued=4))
    for n in range(4):
        queue.push(f"bot{n}", f"bot{n}", "10.6.6.6", 0.0)
    pushed_out = queue.push("ada", "ada", "10.0.0.2", 0.0)
    assert pushed_out == ["bot3"]  # the flooding address's newest search
    assert len(queue) == 4 and queue.held("bot3") == 0
    # Once each address holds as much, a newcomer from the heaviest one is refused.
    queue.push("bo", "bo", "10.0.0.3", 0.0)
    with pytest.raises(RaceError, match="server is busy"):
        queue.push("bot9", "bot9", "10.6.6.6", 0.0)
    assert drain(queue, 0.0) == ["bot0", "ada", "bo", "bot1"]


def test_a_search_waits_at_most_max_wait_seconds() -> None:
    queue: SearchQueue[str] = SearchQueue(ShareLimits(max_wait=30.0))
    assert queue.next_expiry() is None
    queue.push("old", "ada", "10.0.0.1", 100.0)
    queue.push("new", "bo", "10.0.0.2", 110.0)
    assert queue.next_expiry() == 130.0
    assert queue.expire(129.9) == []
    assert queue.expire(130.0) == ["old"]
    assert queue.held("ada") == 0 and queue.next_expiry() == 140.0
    assert drain(queue, 131.0) == ["new"]


def test_the_servers_own_searches_are_never_refused() -> None:
    queue: SearchQueue[str] = SearchQueue(ShareLimits(per_player=1, per_address=1, max_queued=1))
    queue.push("ada", "ada", "10.0.0.1", 0.0)
    for day in range(3):
        queue.push(f"day{day}", UNLIMITED, UNLIMITED, 0.0)
    assert len(queue) == 4
