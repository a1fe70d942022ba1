"""A room's commands about seats and rounds: join, leave, ready, start, follow, rematch.
(The host's controls are in :mod:`.room_host`; the racers' game commands go through the
shared game path, :meth:`~.place.PlaceCore.play`.)

Each command checks everything first and raises :class:`RaceError` before it changes
anything; then it changes the room, appends its effects (events, records) to ``out`` and
returns the ``applied`` answer's extra fields (None: answered later, when a search ends).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import room_host, room_start
from .errors import RaceError
from .members import EVERYONE, Member
from .messages import AnswerFields
from .outputs import Output, Persist
from .records import Rematched
from .states import RACING, Role

if TYPE_CHECKING:  # the room calls these with itself (nothing holds it: place.py)
    from .room import Room


def join(room: Room, member: Member, role: Role, out: list[Output]) -> AnswerFields:
    racer = room.racers.get(member.id)
    if role == "player":
        if member.role == "player":
            return {"role": "player"}
        room_host.check_may_sit(room, member)
        if room.quick is not None and member.id not in room.quick.players:
            raise RaceError("not-allowed", "This quick race's seats are for its matched racers")
        if room.phase != "lobby":
            raise RaceError("already-started", "The race has started: late arrivals watch")
        if len(room.core.members.players()) >= room.settings.max_players:
            raise RaceError("room-full", f"Every seat is taken ({room.settings.max_players})")
        member.role, member.ready, member.following = "player", False, None
        room.emit(out, {"event": "joined", "player": member.player.to_dict(), "role": "player"})
        return {"role": "player"}
    if racer is not None and racer.playing and room.phase in RACING:
        raise RaceError("not-allowed", "You are racing: give up first")
    if member.role == "player":
        member.role, member.ready = "spectator", False
        room.emit(out, {"event": "left", "player": member.id, "reason": "left", "watching": True})
    return {"role": "spectator"}


def leave(room: Room, member: Member, now: float, out: list[Output]) -> AnswerFields:
    racer = room.racers.get(member.id)
    if racer is not None and racer.playing and room.phase in RACING:
        # Leaving gives up; with no command of its own it is logged under seq 0.
        logged = racer.apply("give-up", racer.elapsed(now) if room.phase == "racing" else 0.0)
        out.append(Persist(racer.record(0, logged)))
        out.extend(room.core.drop_search(racer, member))
        room.feed.progress(room, out, racer, now)
        room.feed.send_view(room, out, racer, exclude=None, followers=False)
    if member.role == "player":
        member.role, member.ready = "spectator", False
        room.emit(out, {"event": "left", "player": member.id, "reason": "left", "watching": True})
    if room.phase == "racing" and not any(r.playing for r in room.racers.values()):
        room.finish_round(now, out)
    return {"role": "spectator"}


def set_ready(room: Room, member: Member, ready: bool, out: list[Output]) -> AnswerFields:
    if member.role != "player":
        raise RaceError("not-your-seat", "Only a seated player can be ready: join first")
    if room.phase != "lobby":
        raise RaceError("already-started", "The race has already started")
    member.ready = ready
    room.emit(out, {"event": "ready", "player": member.id, "ready": ready})
    return {"ready": ready}


def start(
    room: Room, member: Member, seq: int, now: float, out: list[Output]
) -> AnswerFields | None:
    """The host who presses Start and sits races (issue 23): pressing Start is saying "ready",
    as a lichess challenger or a TypeRacer host plays their own race. Checked first with the
    host counted ready, so a refusal changes nothing."""
    readies = member.role == "player" and not member.ready
    member.ready = member.ready or readies
    try:
        room_start.check(room, member)
    except RaceError:
        if readies:
            member.ready = False
        raise
    if readies:
        room.emit(out, {"event": "ready", "player": member.id, "ready": True})
    return room_start.start(room, member, seq, now, out)


def follow(room: Room, member: Member, player: str | None) -> AnswerFields:
    own = room.racers.get(member.id)
    if own is not None and own.playing and room.phase in RACING:
        raise RaceError("not-allowed", "You cannot watch another board while you race")
    if player is None:
        member.following = None
        return {"player": None, "view": None}
    if player == EVERYONE:  # every board at once, each masked as a followed board is
        member.following = EVERYONE
        boards = {pid: room.feed.board(room, r, member.id) for pid, r in room.racers.items()}
        statuses = {pid: r.status for pid, r in room.racers.items()}
        return {"player": EVERYONE, "views": boards, "statuses": statuses}
    target = room.racers.get(player)
    if target is None:
        raise RaceError("unknown-player", f"Nobody called {player!r} is racing here")
    member.following = player
    view = room.feed.board(room, target, member.id)  # masked: see race.masking
    return {"player": player, "view": view, "status": target.status}


def rematch(
    room: Room, member: Member, round_: int | None, now: float, out: list[Output]
) -> AnswerFields:
    if member.role != "player" and member.id != room.creator.id and member.id not in room.racers:
        raise RaceError("not-your-seat", "Only the room's players can ask for a rematch")
    if room.phase == "lobby" and round_ is not None and round_ == room.round:
        return {"round": room.round + 1}  # someone else asked first: the same rematch
    if room.phase != "results":
        raise RaceError("not-finished", "The race is not over")
    if round_ is not None and round_ != room.round:
        raise RaceError("bad-field", f"The round just finished is {room.round}")
    out.append(Persist(Rematched(room.id, room.round, member.id, now)))
    room.back_to_lobby()
    seats_left = len(room.core.members.players()) < room.settings.max_players
    may_sit = member.id not in room.removed and (not room.locked or member.id in room.racers)
    if member.role != "player" and seats_left and may_sit:
        member.role = "player"
    # Asking for a rematch is saying "I'm ready" for it (issue 23): one click, not two.
    member.ready = member.role == "player"
    seated = [m.id for m in room.core.members.players()]
    ready = [m.id for m in room.core.members.players() if m.ready]
    room.emit(
        out,
        {
            "event": "rematch",
            "round": room.round + 1,
            "by": member.id,
            "players": seated,
            "ready": ready,
        },
    )
    return {"round": room.round + 1}
