"""A place the referee lets go of is freed by reference counting, with everything it holds
(its games, events, members): no reference cycle among a place and the helpers it holds
(race/place.py). In the server, web/collector.py freezes what lives past a second, and a
frozen cycle waits for the hourly major collection: every closed room's games would."""

from __future__ import annotations

import gc

import pytest

from scorpion.engine import Game
from scorpion.race import Player
from scorpion.race.place import PlaceCore
from scorpion.race.practice import Practice
from scorpion.race.room import Room

from .harness import racing, solo

pytestmark = pytest.mark.usefixtures("collector_off")  # tests/conftest.py


def test_a_closed_room_is_freed_with_its_games() -> None:
    h, a, b, c = racing()
    assert (live(Room), live(PlaceCore)) == (1, 1) and live(Game) > 0
    for client in (a, b):
        client.command("give-up")
    for client in (a, b, c):
        client.disconnect()
    h.advance(4000)  # past the grace period and the idle close (an hour)
    assert "room1" not in h.referee.rooms
    assert (live(Room), live(PlaceCore), live(Game)) == (0, 0, 0)


def test_a_practice_left_is_freed() -> None:
    h, _ada = solo(Player("a", "Ada"))
    practice_client = h.connect(Player("p", "Pia"), practice=True)
    practice_client.command("new-deal")
    places = live(PlaceCore)  # solo()'s room's and the practice's
    assert live(Practice) == 1
    practice_client.command("give-up")
    practice_client.disconnect()
    assert "p" not in h.referee.practices
    assert (live(Practice), live(PlaceCore)) == (0, places - 1)


# Counted among the objects the collector tracks, not by weak reference: the compiled
# build's classes take none (docs/compiled.md). The collector is off: a cycle would stay.
def live(kind: type) -> int:
    """How many objects of exactly this kind are alive."""
    return sum(type(o) is kind for o in gc.get_objects())
