"""A room's commands: the lobby and seats (join, leave, ready, start, follow, rematch) and
the racers' game commands (through the shared game path, :meth:`Place.play`).

Each handler checks everything first and raises :class:`RaceError` before it
changes anything; then it changes the room, appends its effects (events, records)
to ``out`` and returns the ``applied`` answer's extra fields (None: answered later,
when a search ends).
"""

from __future__ import annotations

from .commands import (
    Auto,
    Command,
    Deal,
    Follow,
    GiveUp,
    Hint,
    Join,
    Leave,
    Move,
    Ready,
    Rematch,
    Start,
    Undo,
)
from .errors import RaceError
from .members import Member
from .outputs import ConnId, Message, Output, Persist
from .records import Rematched
from .room import RACING, Room


def run(
    room: Room, member: Member, conn: ConnId, command: Command, now: float, out: list[Output]
) -> Message | None:
    """Apply one command of ``member`` (ping is answered before it gets here)."""
    match command:
        case Move() | Deal() | Undo() | GiveUp() | Hint() | Auto():
            return room.play(member, conn, command, now, out)
        case Join(role=role):
            return join(room, member, role, out)
        case Leave():
            return leave(room, member, now, out)
        case Ready(ready=ready):
            return set_ready(room, member, ready, out)
        case Start(seq=seq):
            return room.start(member, seq, now, out)
        case Follow(player=player):
            return follow(room, member, player)
        case Rematch(round=round_):
            return rematch(room, member, round_, now, out)
    raise RaceError("not-allowed", f"There is no {command.name} in a room")


def join(room: Room, member: Member, role: str, out: list[Output]) -> Message:
    racer = room.racers.get(member.id)
    if role == "player":
        if member.role == "player":
            return {"role": "player"}
        if room.phase != "lobby":
            raise RaceError("already-started", "The race has started: late arrivals watch")
        if len(room.members.players()) >= room.settings.max_players:
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


def leave(room: Room, member: Member, now: float, out: list[Output]) -> Message:
    racer = room.racers.get(member.id)
    if racer is not None and racer.playing and room.phase in RACING:
        # Leaving gives up; with no command of its own it is logged under seq 0.
        logged = racer.apply("give-up", racer.elapsed(now) if room.phase == "racing" else 0.0)
        out.append(Persist(racer.record(0, logged)))
        out.extend(room.drop_search(racer, member))
        room.progress(out, racer)
        room.send_view(out, racer, exclude=None)
    if member.role == "player":
        member.role, member.ready = "spectator", False
        room.emit(out, {"event": "left", "player": member.id, "reason": "left", "watching": True})
    if room.phase == "racing" and not any(r.playing for r in room.racers.values()):
        room.finish_round(now, out)
    return {"role": "spectator"}


def set_ready(room: Room, member: Member, ready: bool, out: list[Output]) -> Message:
    if member.role != "player":
        raise RaceError("not-your-seat", "Only a seated player can be ready: join first")
    if room.phase != "lobby":
        raise RaceError("already-started", "The race has already started")
    member.ready = ready
    room.emit(out, {"event": "ready", "player": member.id, "ready": ready})
    return {"ready": ready}


def follow(room: Room, member: Member, player: str | None) -> Message:
    own = room.racers.get(member.id)
    if own is not None and own.playing and room.phase in RACING:
        raise RaceError("not-allowed", "You cannot watch another board while you race")
    if player is None:
        member.following = None
        return {"player": None, "view": None}
    target = room.racers.get(player)
    if target is None:
        raise RaceError("unknown-player", f"Nobody called {player!r} is racing here")
    member.following = player
    view = room.board(target, member.id)  # masked: see race.masking
    return {"player": player, "view": view, "status": target.status}


def rematch(
    room: Room, member: Member, round_: int | None, now: float, out: list[Output]
) -> Message:
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
    if member.role != "player" and len(room.members.players()) < room.settings.max_players:
        member.role = "player"
    seated = [m.id for m in room.members.players()]
    room.emit(
        out, {"event": "rematch", "round": room.round + 1, "by": member.id, "players": seated}
    )
    return {"round": room.round + 1}
