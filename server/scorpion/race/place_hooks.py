"""What a place is to the code that drives it: :class:`AnyPlace` (a room, a daily or a
practice, as the referee drives each alike: what they share through their
:class:`~.place.PlaceCore`, the rest on the place: its commands, its racers, what follows a
change) and, for a room, :class:`Dealer` (a start's deal search, and a quick race's own).
"""

from __future__ import annotations

from abc import abstractmethod
from typing import Protocol

from mypy_extensions import trait

from .commands import Command
from .members import Member
from .messages import AnswerFields, GameFields
from .outputs import ConnId, Output
from .place import PlaceCore
from .players import Player
from .racer import Racer
from .searches import DealFound, SearchAnswer, SearchFailed, SearchTicket


@trait
class AnyPlace:
    """A room, a daily or a practice, as the referee and the place's :class:`PlaceCore`
    drive it: what every place does alike (its key, members, commands, searches) through
    ``core``, which it passes itself to; the rest, which differs by kind, on the place: the
    commands it takes (``run``), which racer a member plays, what follows a change, what an
    answer carries.

    A mypyc trait (a plain base class when not compiled): the core's and the referee's
    calls on a place are native calls when compiled, where a ``Protocol``'s are looked up
    by name."""

    core: PlaceCore

    @abstractmethod
    def connect(
        self, conn: ConnId, player: Player, last_version: int | None, now: float
    ) -> list[Output]:
        """Attach a connection of ``player``; answer it with a ``welcome``."""

    @abstractmethod
    def disconnect(self, conn: ConnId, now: float) -> list[Output]:
        """A connection closed (what stays of the member's game is the place's policy)."""

    @abstractmethod
    def next_deadline(self) -> float | None:
        """When the place's clock has something to do next (None: nothing)."""

    @abstractmethod
    def advance(self, now: float, out: list[Output]) -> None:
        """Let the clock act (countdowns, time limits, grace periods) before anything else."""

    @abstractmethod
    def run(
        self, member: Member, conn: ConnId, command: Command, now: float, out: list[Output]
    ) -> AnswerFields | None:
        """Apply one checked command of ``member`` (None: answered when its search ends)."""

    @abstractmethod
    def racer_for(self, member: Member) -> Racer:
        """The game ``member``'s game commands play, still going; RaceError otherwise."""

    @abstractmethod
    def racer_by_ticket(self, ticket: SearchTicket) -> Racer | None:
        """The game a search was asked for, if it is still the current one."""

    @abstractmethod
    def after_change(
        self, racer: Racer, now: float, out: list[Output], exclude: ConnId | None
    ) -> None:
        """Events after a racer's game changed (progress, views, the end of a game)."""

    @abstractmethod
    def help_used(self, racer: Racer, now: float, out: list[Output]) -> None:
        """A hint was given: the board is as it was, the racer's numbers are not (help makes a
        result assisted, ranked after the clean ones)."""

    @abstractmethod
    def answer_fields(self, racer: Racer) -> GameFields:
        """What every answer to a game command carries (at least :func:`game_answer`): a new
        dict each time (the game path adds the move to it)."""

    def dealer(self) -> Dealer | None:
        """The place as its deals' dealer (a room), or None: it searches no deal."""
        return None


class Dealer(Protocol):
    """A place whose start command waits for a deal search (a room), and which may search a
    deal no command asked for (a quick race's: :data:`~.quick_room.QUICK_START`)."""

    def dealt(
        self, member: Member, found: DealFound | SearchFailed, now: float, out: list[Output]
    ) -> AnswerFields:
        """The deal search of a start command ended: the start's answer."""

    def after_search(self, out: list[Output]) -> None:
        """After a search's answer was given (the room is told its deal search ended)."""

    def quick_search(self, ticket: SearchTicket) -> bool:
        """Whether ``ticket`` is the place's own deal search (no command waits for it)."""

    def quick_wanted(self, ticket: SearchTicket) -> bool:
        """Whether the place's own deal search is still the one it waits for."""

    def quick_dealt(self, answer: SearchAnswer, now: float) -> list[Output]:
        """The place's own deal search answered: deal it."""
