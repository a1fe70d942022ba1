"""What a place is to the code that drives it: :class:`AnyPlace` (a room, a daily or a
practice, as the referee drives each alike) and what each tells its
:class:`~.place.PlaceCore`: :class:`PlaceHooks` (its commands, its racers, what follows a
change) and, for a room, :class:`Dealer` (a start's deal search).
"""

from __future__ import annotations

from typing import Protocol

from .commands import Command
from .members import Member, Members
from .messages import AnswerFields, GameFields
from .outputs import ConnId, Output
from .players import Player
from .racer import Racer
from .searches import DealFound, SearchAnswer, SearchFailed, SearchTicket


class PlaceHooks(Protocol):
    """What a place tells its :class:`PlaceCore`: its commands, its racers, what follows."""

    def advance(self, now: float, out: list[Output]) -> None:
        """Let the clock act (countdowns, time limits, grace periods) before anything else."""

    def run(
        self, member: Member, conn: ConnId, command: Command, now: float, out: list[Output]
    ) -> AnswerFields | None:
        """Apply one checked command of ``member`` (None: answered when its search ends)."""

    def racer_for(self, member: Member) -> Racer:
        """The game ``member``'s game commands play, still going; RaceError otherwise."""

    def racer_by_ticket(self, ticket: SearchTicket) -> Racer | None:
        """The game a search was asked for, if it is still the current one."""

    def after_change(
        self, racer: Racer, now: float, out: list[Output], exclude: ConnId | None
    ) -> None:
        """Events after a racer's game changed (progress, views, the end of a game)."""

    def help_used(self, racer: Racer, now: float, out: list[Output]) -> None:
        """A hint was given: the board is as it was, the racer's numbers are not (help makes a
        result assisted, ranked after the clean ones)."""

    def answer_fields(self, racer: Racer) -> GameFields:
        """What every answer to a game command carries (at least :func:`game_answer`)."""


class Dealer(Protocol):
    """A place whose start command waits for a deal search (a room)."""

    def dealt(
        self, member: Member, found: DealFound | SearchFailed, now: float, out: list[Output]
    ) -> AnswerFields:
        """The deal search of a start command ended: the start's answer."""

    def after_search(self, out: list[Output]) -> None:
        """After a search's answer was given (the room is told its deal search ended)."""


class AnyPlace(Protocol):
    """A room, a daily or a practice, as the referee drives it."""

    @property
    def key(self) -> str: ...

    @property
    def members(self) -> Members: ...

    @property
    def skipped(self) -> list[str]: ...

    def connect(
        self, conn: ConnId, player: Player, last_version: int | None, now: float
    ) -> list[Output]: ...

    def disconnect(self, conn: ConnId, now: float) -> list[Output]: ...

    def handle(self, conn: ConnId, command: Command, now: float) -> list[Output]: ...

    def search_wanted(self, ticket: SearchTicket) -> bool: ...

    def searched(self, answer: SearchAnswer, now: float) -> list[Output]: ...

    def next_deadline(self) -> float | None:
        """When the place's clock has something to do next (None: nothing)."""
