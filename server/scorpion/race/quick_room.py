"""A quick race's room: strangers the queue matched, under fair rules, starting by itself.

The matched players are seated and ready as they arrive (nobody presses Start: no stranger
is anyone's host: :meth:`.room.Room.seat_matched`); the race is dealt as soon as all of
them are here, or when :data:`ARRIVAL` seconds have passed with at least ``MIN_RACERS``
here (:func:`.room_start.quick_start`). Fewer than that by then and the room is
void: the players are told to wait in the queue again. The deal is a winnable one where
the solver can prove one (the "winnable deals only" search).

>>> quick_settings("classic").to_dict()["undo"], quick_settings("classic").hints
('fair', False)
>>> QuickSeats(("p1", "p2"), 20.0) == QuickSeats.from_dict(QuickSeats(("p1", "p2"), 20.0).to_dict())
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .quick import MIN_RACERS, ROOM_SIZE
from .settings import RoomSettings

ARRIVAL: Final = 20.0  # seconds the matched players have to come into the room
QUICK_START: Final = "quick-start"  # the search ticket's command of a quick race's deal


def quick_settings(preset: str) -> RoomSettings:
    """The fair rules every quick race uses: fair undo, no hints, no Auto, a winnable deal."""
    return RoomSettings(
        preset=preset,
        deal="winnable",
        max_players=ROOM_SIZE,
        time_limit=600,
        undo="fair",
        hints=False,
        auto=False,
    )


@dataclass(frozen=True, slots=True)
class QuickSeats:
    """Who the queue matched into the room, and when the race starts at the latest."""

    players: tuple[str, ...]
    start_by: float

    def to_dict(self) -> dict[str, object]:
        return {"players": list(self.players), "start_by": self.start_by}

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> QuickSeats:
        players = data["players"]
        if not isinstance(players, list | tuple):
            raise ValueError("quick players must be a list")
        return cls(tuple(str(p) for p in players), float(data["start_by"]))  # type: ignore[arg-type]

    def due(self, here: int, now: float) -> bool | None:
        """True: start now; None: void (too few came in time); False: wait on."""
        if here >= len(self.players):
            return True
        if now < self.start_by:
            return False
        return True if here >= MIN_RACERS else None
