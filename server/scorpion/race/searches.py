"""Searches as effects: the race layer asks for a search and is told its answer later.

A hint, an Auto or a winnable deal needs the solver, which is CPU work the
caller runs elsewhere (scorpion.web runs it in worker processes). The race
layer returns a search request among its outputs and receives the answer as an
input (``Referee.searched``). Budgets are node counts, so the same position gets
the same answer on any machine.

A ticket names who asked: the place (room id or ``daily:<date>``), the round
(a room's round, a daily attempt's number), the player, and the command's seq and name.

>>> t = SearchTicket("room1", 1, "p1", 7, "auto")
>>> AutoFound(t, "won", "4H>7").ticket.seq
7
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, TypeAlias

from scorpion.engine import Game
from scorpion.engine.deals import MAX_DEAL

HINT_NODES: Final = 5_000  # per legal move: a hint ranks every move
AUTO_NODES: Final = 50_000  # one search from the position
DEAL_NODES: Final = 20_000  # per deal tried for a winnable-only room; undecided ones are passed
# Deals tried before settling for an unverified one. Classic is 12.7% winnable: 20 in a row
# proved none 6.6% of the time (deals 36-55 among them); 200 leave about one room in 10^12
# unverified, and the typical search still stops at the eighth deal (deal_wait bounds it).
DEAL_LIMIT: Final = 200
# A day's deal is searched once for everyone (and kept), so it may try more deals.
DAILY_NODES: Final = 20_000  # per deal tried (about 0.4 s); undecided deals are passed over
DAILY_LIMIT: Final = 100  # deals tried before settling for an unverified one


@dataclass(frozen=True, slots=True)
class SearchTicket:
    place: str
    round: int
    player: str
    seq: int
    command: str  # "hint", "auto" or "start" (a winnable-only room's deal)


@dataclass(frozen=True, slots=True)
class HintSearch:
    """Rank every legal move of ``game`` (face-down cards included: only the server sees it)."""

    ticket: SearchTicket
    game: Game
    max_nodes: int = HINT_NODES


@dataclass(frozen=True, slots=True)
class AutoSearch:
    """Find a winning line from ``game``, or prove there is none."""

    ticket: SearchTicket
    game: Game
    max_nodes: int = AUTO_NODES


@dataclass(frozen=True, slots=True)
class DealSearch:
    """The first deal from ``start`` proved winnable under ``preset`` (at most ``limit`` tried)."""

    ticket: SearchTicket
    preset: str
    start: int
    max_nodes: int = DEAL_NODES
    limit: int = DEAL_LIMIT

    @property
    def first(self) -> int:
        """The first deal tried: ``start``, moved back so that every deal tried exists (and
        the unverified fallback when none is proved winnable)."""
        return min(self.start, MAX_DEAL + 1 - self.limit)


@dataclass(frozen=True, slots=True)
class HintsFound:
    """Every legal move with its verdict: True winnable, False lost, None undecided."""

    ticket: SearchTicket
    hints: tuple[tuple[str, bool | None], ...]


@dataclass(frozen=True, slots=True)
class AutoFound:
    """``verdict`` "won" (``move`` is a winning line's first move), "lost" or "unknown"."""

    ticket: SearchTicket
    verdict: str
    move: str | None = None

    @classmethod
    def from_verdict(cls, ticket: SearchTicket, verdict: str, line: Sequence[object]) -> AutoFound:
        """Auto's answer from the solver's verdict and winning line: play the line's first
        move; "lost" only when proved (the player decides to give up); anything else, a
        budget run out included, "unknown".

        >>> t = SearchTicket("room1", 1, "p1", 7, "auto")
        >>> AutoFound.from_verdict(t, "won", ["4H>7", "deal"]).move
        '4H>7'
        >>> AutoFound.from_verdict(t, "won", []).verdict, AutoFound.from_verdict(t, "?", []).verdict
        ('unknown', 'unknown')
        """
        if verdict == "won" and line:
            return cls(ticket, "won", str(line[0]))
        return cls(ticket, "lost" if verdict == "lost" else "unknown")


@dataclass(frozen=True, slots=True)
class DealFound:
    """``deal`` and whether the solver proved it winnable (else it is ``start``, unverified)."""

    ticket: SearchTicket
    deal: int
    verified: bool


@dataclass(frozen=True, slots=True)
class SearchFailed:
    """The search could not run (workers busy or broken): the command is refused ``busy``."""

    ticket: SearchTicket
    reason: str


SearchRequest: TypeAlias = HintSearch | AutoSearch | DealSearch
SearchAnswer: TypeAlias = HintsFound | AutoFound | DealFound | SearchFailed
