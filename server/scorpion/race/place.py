"""What rooms, dailies and practices share: members, versioned events, one answer per seq, the
game path. Each place holds a :class:`PlaceCore` (composition) and passes itself to its calls.

A place (:class:`~.place_hooks.AnyPlace`) is a room, a day's daily or a player's practice.
Each answers each command once (:meth:`PlaceCore.handle`, through
:func:`~.seqs.answer_once`) and plays a racer's game commands through
:meth:`PlaceCore.play`: the checks, the engine call, the record, the progress and the
answer. They differ in what :class:`~.place_hooks.AnyPlace` asks of each: which commands they
take (``run``), which racer a member plays, what follows a change (progress, views, the end
of a round or an attempt) and what the answer carries.

A hint or an Auto is a search (:mod:`.searches`): :meth:`PlaceCore.play` returns the
request among its outputs and leaves the seq pending; :meth:`PlaceCore.searched`
answers it when the search ends. While a player's search runs, their moves go on;
a move, undo, deal or give-up makes the pending search's answer moot, so it is
answered ``stale`` at once and its result, when it comes, is dropped.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, cast

from scorpion.engine import MoveError

from .commands import Auto, Command, Deal, GameCommand, Hint, Move, Ping
from .errors import RaceError
from .events import Event, EventLog
from .members import Member, Members
from .messages import (
    AnswerFields,
    Applied,
    GameFields,
    HintFound,
    Welcome,
    WelcomePlace,
    refused,
)
from .outputs import ConnId, Output, Persist, Send
from .protocol import PROTOCOL_VERSION
from .racer import HINT, Racer
from .records import ActionRecord
from .searches import (
    AutoFound,
    AutoSearch,
    DealFound,
    HintSearch,
    HintsFound,
    SearchAnswer,
    SearchFailed,
    SearchTicket,
)
from .seqs import answer_once, answer_pending
from .states import Status

if TYPE_CHECKING:  # the hooks' types only: place_hooks imports this module (AnyPlace.core)
    from .place_hooks import AnyPlace

GIVE_UP: Final = "give-up"


def replay_action(member: Member, racer: Racer, action: ActionRecord) -> str | None:
    """Apply one logged action again (a restore) and remember its answer. A logged hint is
    counted, never searched again; an Auto was logged as the move it played.

    An action that no longer applies (its log lost an earlier write: the store failed in
    between) is skipped, and said so in the returned text, rather than losing the game.
    """
    if racer.playing:
        try:
            racer.apply(action.action, action.elapsed, replayed=True)
        except (RaceError, MoveError) as exc:
            return f"{action.room} {action.player}: skipped {action.action!r} ({exc.code})"
        if action.auto:
            racer.autos += 1
    if action.seq:  # seq 0: no command asked for it (a leave's give-up)
        name = action.action if action.action in (HINT, "undo", GIVE_UP) else "move"
        answer: Applied = {"type": "applied", "seq": action.seq, "command": name}
        if name == "move":
            answer["move"] = action.action
        answer["restored"] = True
        member.seqs.remember(action.seq, answer)
    return None


def stale() -> RaceError:
    return RaceError("stale", "Your game changed before the search ended: ask again")


def as_answer(fields: GameFields) -> AnswerFields:
    """A game's fields among an answer's (``{"move": ..., **as_answer(fields)}``): mypy
    cannot tell that a ``GameFields`` holds no other key of ``AnswerFields``, which
    extends it; every place builds it in one method (``answer_fields``). Here, not in the
    types' module (interpreted when compiled): it is called for every move."""
    return cast(AnswerFields, fields)


def game_answer(racer: Racer) -> GameFields:
    """What every answer to a game command carries (a place's ``answer_fields`` adds to it)."""
    return {"view": racer.view(), "status": racer.status, "elapsed": racer.last_elapsed}


class PlaceCore:
    """Members, versioned events and the game path of one place (a room, a daily or a
    practice holds one). The place passes itself (:class:`~.place_hooks.AnyPlace`)
    to each call that needs it: a core that kept its place would make a cycle, which would
    wait for a major collection (an hour with web/collector.py) with every closed room's
    games, and a reference that is not a cycle (a weak one) the compiled build's classes
    do not take."""

    def __init__(self, key: str, *, own_game: str, keep_events: int, version_base: int = 0) -> None:
        self.key = key  # room id, daily:<date> or practice:<player>: what records, tickets name
        self.own_game = own_game  # refusal of a command naming another seat
        self.members = Members()
        self.log = EventLog(keep_events, base=version_base)
        self.skipped: list[str] = []  # logged actions a restore could not replay

    # ------------------------------------------------------------------ connections
    def disconnect(self, conn: ConnId, now: float) -> Member | None:
        """A connection closed: the member stays (their game, their seq answers). The member
        if it was their last connection."""
        member = self.members.detach(conn)
        if member is None or member.conns:
            return None
        self.members.went_away(member, now)
        return member

    # ------------------------------------------------------------------ events
    def emit(self, out: list[Output], event: Event, exclude: ConnId | None = None) -> None:
        message = self.log.append(event)
        conns = self.members.all_conns()
        if exclude is not None:
            conns = tuple(c for c in conns if c != exclude)
        if conns:
            out.append(Send(conns, message))

    def welcome(
        self,
        place: WelcomePlace,
        member: Member,
        last_version: int | None,
        now: float,
        *,
        status: Status | None,
        state: dict[str, object],
        view: dict[str, object] | None,
    ) -> Welcome:
        """The first answer to a connection: who you are, what you missed, the snapshot."""
        events = self.log.since(last_version) if last_version is not None else None
        player = member.player
        welcome: Welcome = {
            "type": "welcome",
            **place,
            "you": {"id": player.id, "name": player.name, "role": member.role, "status": status},
            "version": self.log.version,
            "recovered": events is not None,
            "last_seq": member.seqs.last,
            "events": events or [],
            "state": state,
            "view": view,
            "now": now,
            "protocol": PROTOCOL_VERSION,
        }
        return welcome

    # ------------------------------------------------------------------ commands
    def handle(self, place: AnyPlace, conn: ConnId, command: Command, now: float) -> list[Output]:
        """One checked command from ``conn`` to ``place``: exactly one answer (now, or when
        its search ends), plus its effects."""
        out: list[Output] = []
        place.advance(now, out)
        member = self.members.by_conn.get(conn)
        if member is None:
            out.append(Send((conn,), refused(command.seq, "not-authenticated", "Say hello first")))
            return out
        found = member  # for the closure: mypy does not carry the narrowing into it

        def apply(effects: list[Output]) -> AnswerFields | None:
            if isinstance(command, Ping):
                return {"now": now}
            return place.run(found, conn, command, now, effects)  # a native call compiled

        out.extend(answer_once(conn, member.seqs, command, apply))
        return out

    def play(
        self,
        place: AnyPlace,
        member: Member,
        conn: ConnId,
        command: GameCommand,
        now: float,
        out: list[Output],
    ) -> AnswerFields | None:
        """A game command on the sender's own game (None: answered when its search ends)."""
        if command.seat is not None and command.seat != member.id:
            raise RaceError("not-your-seat", self.own_game)
        racer = place.racer_for(member)
        # Tuples, not ``Hint | Auto``: compiled, a union is built at every call.
        if isinstance(command, (Hint, Auto)):
            if isinstance(command, Hint):
                racer.check_hints()
            else:
                racer.check_auto()
            if racer.search is not None:
                raise RaceError("busy", "Your last hint or Auto is still being worked out")
            ticket = SearchTicket(self.key, racer.round, member.id, command.seq, command.name)
            racer.search = ticket
            search = HintSearch if isinstance(command, Hint) else AutoSearch
            out.append(search(ticket, racer.game.copy()))
            return None
        logged = racer.apply(command.action, racer.elapsed(now))
        out.append(Persist(racer.record(command.seq, logged)))
        out.extend(self.drop_search(racer, member))
        place.after_change(racer, now, out, exclude=conn)
        fields = as_answer(place.answer_fields(racer))
        if isinstance(command, (Move, Deal)):
            fields["move"] = logged
        return fields

    def drop_search(self, racer: Racer, member: Member) -> list[Output]:
        """The racer's game changed: a search still running for it no longer applies."""
        ticket, racer.search = racer.search, None
        if ticket is None or ticket.seq not in member.seqs.pending:
            return []

        def refuse(effects: list[Output]) -> AnswerFields | None:
            raise stale()

        return answer_pending(tuple(member.conns), member.seqs, ticket.seq, ticket.command, refuse)

    # ------------------------------------------------------------------ searches
    def search_wanted(self, place: AnyPlace, ticket: SearchTicket) -> bool:
        """Whether a search's answer would still be used (else the caller may skip it)."""
        dealer = place.dealer()
        if dealer is not None and dealer.quick_search(ticket):
            return dealer.quick_wanted(ticket)
        member = self.members.get(ticket.player)
        return member is not None and ticket.seq in member.seqs.pending

    def searched(self, place: AnyPlace, answer: SearchAnswer, now: float) -> list[Output]:
        """A search's answer: answer the command that asked for it, exactly once (a quick
        race's deal, which no command asked for, goes to the dealer)."""
        dealer = place.dealer()
        if dealer is not None and dealer.quick_search(answer.ticket):
            return dealer.quick_dealt(answer, now)
        out: list[Output] = []
        place.advance(now, out)
        ticket = answer.ticket
        member = self.members.get(ticket.player)
        if member is None or ticket.seq not in member.seqs.pending:
            return out  # answered already (stale) or the member is gone
        found = member

        def apply(effects: list[Output]) -> AnswerFields | None:
            return self._search_result(place, found, answer, now, effects)

        out.extend(
            answer_pending(tuple(member.conns), member.seqs, ticket.seq, ticket.command, apply)
        )
        if dealer is not None:
            dealer.after_search(out)
        return out

    def _search_result(
        self,
        place: AnyPlace,
        member: Member,
        answer: SearchAnswer,
        now: float,
        out: list[Output],
    ) -> AnswerFields:
        ticket = answer.ticket
        if isinstance(answer, DealFound) or ticket.command == "start":
            assert isinstance(answer, DealFound | SearchFailed)
            dealer = place.dealer()
            if dealer is None:  # only a room's start searches a deal
                raise stale()
            return dealer.dealt(member, answer, now, out)
        racer = place.racer_by_ticket(ticket)
        if racer is None or racer.search != ticket:
            raise stale()
        racer.search = None
        if isinstance(answer, SearchFailed):
            raise RaceError("busy", "The server is busy: try again in a moment")
        racer.check_playing()
        if isinstance(answer, HintsFound):
            racer.apply(HINT, racer.elapsed(now))
            out.append(Persist(racer.record(ticket.seq, HINT)))
            place.help_used(racer, now, out)
            hints: list[HintFound] = [
                {"move": move, "winnable": winnable} for move, winnable in answer.hints
            ]
            return {"hints": hints, **as_answer(place.answer_fields(racer))}
        assert isinstance(answer, AutoFound)
        if answer.verdict == "lost":
            # Auto never gives a game up: the player is asked, and gives up or plays on. The
            # solver's verdict is help all the same: it counts as a hint (an assisted result),
            # logged as one whatever the hints setting (Auto, which gave it, was allowed).
            racer.apply(HINT, racer.elapsed(now), replayed=True)
            out.append(Persist(racer.record(ticket.seq, HINT)))
            place.help_used(racer, now, out)
            return {"auto": None, "verdict": "lost", **as_answer(place.answer_fields(racer))}
        if answer.verdict != "won" or answer.move is None:
            raise RaceError("auto-unknown", "Auto found no line within its search; play on")
        logged = racer.apply(answer.move, racer.elapsed(now))
        racer.autos += 1
        out.append(Persist(racer.record(ticket.seq, logged, auto=True)))
        place.after_change(racer, now, out, exclude=None)
        return {
            "auto": logged,
            "verdict": "won",
            "move": logged,
            **as_answer(place.answer_fields(racer)),
        }
