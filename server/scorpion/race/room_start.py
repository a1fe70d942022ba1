"""How a room's round starts: the host's Start checked, a winnable deal searched first when
the room deals winnable deals only (the room is told, and waits at most
``RoomConfig.deal_wait`` seconds, then deals an unverified one and says so), then the ready
players seated and the countdown. A quick race starts by itself (:mod:`.quick_room`): dealt
when its matched players are here, or when their time to come is up, through the same
:func:`start_round`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from .errors import RaceError
from .members import Member
from .messages import AnswerFields
from .outputs import Output, Persist
from .quick_room import QUICK_START
from .records import RoundStarted
from .searches import DealFound, DealSearch, SearchAnswer, SearchFailed, SearchTicket
from .seqs import answer_pending

if TYPE_CHECKING:  # the room calls these with itself (nothing holds it: place.py)
    from .room import Room

COUNTDOWN: Final = 3.0
# Why a winnable-only room's deal is unverified: said in its countdown, never silent.
NOT_PROVED: Final = (
    "No deal was proved winnable within the search's budget: this deal is unverified"
)
NOT_IN_TIME: Final = "No proof found in time: this deal is unverified"
NOT_SEARCHED: Final = "The server was too busy to search: this deal is unverified"


def check(room: Room, member: Member) -> list[Member]:
    """The racers a start by ``member`` would seat (the ready players); RaceError if none."""
    if room.quick is not None:
        raise RaceError("not-allowed", "A quick race starts by itself when its racers come")
    # The host starts; if the host has left the room, any seated player may.
    if member.id != room.host and (
        room.core.members.get(room.host) is not None or member.role != "player"
    ):
        raise RaceError("not-creator", "Only the room's host can start the race")
    if room.phase != "lobby":
        raise RaceError("already-started", "The race has already started")
    if room.dealing is not None:
        raise RaceError("busy", "The race is being dealt: a winnable deal is being searched")
    racers = [m for m in room.core.members.players() if m.ready]
    if not racers:
        raise RaceError("nobody-ready", "Nobody is ready yet")
    return racers


def start(
    room: Room, member: Member, seq: int, now: float, out: list[Output]
) -> AnswerFields | None:
    """The start command: deal and count down, or first search a winnable deal (then
    the answer waits for :meth:`dealt`)."""
    racers = check(room, member)
    deal = room.settings.deal
    stakes = room.settings.rated or room.settings.league  # never a deal someone chose
    if isinstance(deal, int) and room.round == 0 and not stakes:
        return start_round(room, deal, False, racers, now, out)
    if deal == "winnable":  # the room is told, and waits (at most deal_wait seconds)
        room.dealing = SearchTicket(room.id, room.round, member.id, seq, "start")
        room.dealing_until = now + room.config.deal_wait
        out.append(DealSearch(room.dealing, room.settings.preset, room.config.deal_source()))
        room.emit(out, {"event": "dealing", "round": room.round + 1, "until": room.dealing_until})
        return None
    return start_round(room, room.config.deal_source(), False, racers, now, out)


def dealt(
    room: Room, member: Member, found: DealFound | SearchFailed, now: float, out: list[Output]
) -> AnswerFields:
    """The deal search of a start command ended: the start's answer (the countdown)."""
    if room.dealing != found.ticket:
        raise RaceError("stale", "The room changed before its deal was found: start again")
    room.dealing = None
    racers = check(room, member)  # the ready players may have changed meanwhile
    if isinstance(found, SearchFailed):  # no worker searched it: an unverified deal
        failed = NOT_IN_TIME if found.reason == "timed-out" else NOT_SEARCHED
        return start_round(room, room.config.deal_source(), False, racers, now, out, failed)
    unproved = None if found.verified else NOT_PROVED
    return start_round(room, found.deal, found.verified, racers, now, out, unproved)


def deal_unverified(room: Room, now: float, out: list[Output]) -> None:
    """The deal search took longer than ``deal_wait``: start on an unverified deal and
    say so (its answer, when it comes, is dropped)."""
    ticket = room.dealing
    member = room.core.members.get(ticket.player) if ticket is not None else None
    if ticket is not None and member is not None and ticket.seq in member.seqs.pending:
        starter = member

        def apply(effects: list[Output]) -> AnswerFields | None:
            return dealt(room, starter, SearchFailed(ticket, "timed-out"), now, effects)

        out.extend(answer_pending(tuple(member.conns), member.seqs, ticket.seq, "start", apply))
    room.dealing = None  # answered, or nobody waits for it any more
    dealing_over(room, out)


def after_search(room: Room, out: list[Output]) -> None:
    """A search of the room ended: if it was the deal search, the room is told."""
    dealing_over(room, out)


def dealing_over(room: Room, out: list[Output]) -> None:
    """A deal search the room was told of ended without a countdown (the start was
    refused: nobody ready any more): the room is told it is not searching now."""
    if room.dealing is None and room.dealing_until is not None:
        room.dealing_until = None
        room.emit(out, {"event": "dealing", "round": room.round + 1, "until": None})


def start_round(
    room: Room,
    deal: int,
    verified: bool,
    racers: list[Member],
    now: float,
    out: list[Output],
    unverified: str | None = None,
) -> AnswerFields:
    """Seat ``racers`` (the ready players, from :meth:`check`; the others watch),
    persist the round, count down. ``unverified``: why a winnable-only room's deal is not
    proved, said in the countdown."""
    room.dealing_until = None  # the countdown ends the search the room was told of
    for racer in racers:
        racer.following = None  # a racer watches no other board while racing
    for other in room.core.members.players():
        if not other.ready:
            other.role = "spectator"
            room.emit(
                out,
                {"event": "left", "player": other.id, "reason": "not-ready", "watching": True},
            )
    started = RoundStarted(
        room=room.id,
        round=room.round + 1,
        deal=deal,
        started_at=now + COUNTDOWN,
        time_limit=float(room.settings.time_limit),
        players=tuple((m.id, m.player.name) for m in racers),
        verified=verified,
    )
    room.begin_round(started)
    room.phase = "countdown"
    out.append(Persist(started))
    room.emit(
        out,
        {
            "event": "countdown",
            "round": room.round,
            "starts_at": room.started_at,
            "now": now,
            "players": list(room.racers),
            "verified": verified,  # the solver proved the deal winnable
            "unverified": unverified,  # why a winnable-only room's deal is not proved
        },
    )
    return {"round": room.round}


# ------------------------------------------------------------------ a quick race
def quick_start(room: Room, now: float, out: list[Output]) -> None:
    """Deal a quick race when its players are here (or the arrival time is up)."""
    quick = room.quick
    if quick is None or room.phase != "lobby" or room.dealing is not None:
        return
    here = [m for m in room.core.members.players() if m.ready]
    due = quick.due(len(here), now)
    if due is False:
        return
    if due is None:  # too few came: the room is void, its players queue again
        room.quick = None
        room.emit(out, {"event": "quick-void", "round": room.round})
        return
    room.dealing = SearchTicket(room.id, room.round, room.host, 0, QUICK_START)
    out.append(DealSearch(room.dealing, room.settings.preset, room.config.deal_source()))


def quick_search(ticket: SearchTicket) -> bool:
    """Whether ``ticket`` is a quick race's deal search (no command waits for it)."""
    return ticket.command == QUICK_START


def quick_wanted(room: Room, ticket: SearchTicket) -> bool:
    """Whether the room still waits for its quick race's deal search ``ticket``."""
    return room.dealing == ticket


def quick_dealt(room: Room, answer: SearchAnswer, now: float) -> list[Output]:
    """The quick race's deal search answered: deal it to the racers here."""
    out: list[Output] = []
    if room.dealing != answer.ticket or room.closed:
        return out
    room.dealing, room.quick = None, None
    racers = [m for m in room.core.members.players() if m.ready]
    if not racers:
        return out
    if isinstance(answer, DealFound):
        start_round(room, answer.deal, answer.verified, racers, now, out)
    else:  # no worker could search: an unverified deal, as a room's Start does
        start_round(room, room.config.deal_source(), False, racers, now, out)
    return out
