"""A place the referee lets go of is freed by reference counting, with everything it holds
(its games, events, members): no reference cycle among a place and the helpers it holds
(race/place.py). In the server, web/collector.py freezes what lives past a second, and a
frozen cycle waits for the hourly major collection: every closed room's games would."""

from __future__ import annotations

import weakref

import pytest

from scorpion.race import Player

from .harness import racing, solo

pytestmark = pytest.mark.usefixtures("collector_off")  # tests/conftest.py


def test_a_closed_room_is_freed_with_its_games() -> None:
    h, a, b, c = racing()
    room = h.referee.rooms["room1"]
    freed = [weakref.ref(x) for x in (room, room.core, room.racers["a"].game)]
    del room
    for client in (a, b):
        client.command("give-up")
    for client in (a, b, c):
        client.disconnect()
    h.advance(4000)  # past the grace period and the idle close (an hour)
    assert "room1" not in h.referee.rooms
    assert [ref() for ref in freed] == [None, None, None]


def test_a_practice_left_is_freed() -> None:
    h, _ada = solo(Player("a", "Ada"))
    practice_client = h.connect(Player("p", "Pia"), practice=True)
    practice_client.command("new-deal")
    practice = h.referee.practices["p"]
    freed = [weakref.ref(practice), weakref.ref(practice.core)]
    del practice
    practice_client.command("give-up")
    practice_client.disconnect()
    assert "p" not in h.referee.practices
    assert [ref() for ref in freed] == [None, None]
