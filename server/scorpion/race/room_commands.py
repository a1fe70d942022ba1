"""A room's commands: the lobby and seats (join, leave, ready, start, follow, rematch),
the racers' game commands, and :func:`handle`, which answers each command once.

Each handler checks everything first and raises :class:`RaceError` before it
changes anything; then it changes the room, appends its effects (events, records)
to ``out`` and returns the ``applied`` answer's extra fields.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeAlias

from .commands import Command
from .errors import RaceError
from .members import Member
from .outputs import ConnId, Message, Output, Persist, Send, refused
from .racer import GAME_ACTIONS
from .records import ActionRecord, Rematched
from .room import RACING, Room
from .seqs import answer_once, answer_ping

Handler: TypeAlias = Callable[[Room, Member, ConnId, Command, float, list[Output]], Message]


def join(
    room: Room, member: Member, conn: ConnId, command: Command, now: float, out: list[Output]
) -> Message:
    racer = room.racers.get(member.id)
    if command.role == "player":
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


def leave(
    room: Room, member: Member, conn: ConnId, command: Command, now: float, out: list[Output]
) -> Message:
    racer = room.racers.get(member.id)
    if racer is not None and racer.playing and room.phase in RACING:
        racer.replay("give-up", None, racer.elapsed(now) if room.phase == "racing" else 0.0)
        record = ActionRecord(
            room.id, room.round, member.id, command.seq, "give-up", racer.last_elapsed
        )
        out.append(Persist(record))
        room.progress(out, racer)
        room.send_view(out, racer, exclude=None)
    if member.role == "player":
        member.role, member.ready = "spectator", False
        room.emit(out, {"event": "left", "player": member.id, "reason": "left", "watching": True})
    if room.phase == "racing" and not any(r.playing for r in room.racers.values()):
        room.finish_round(now, out)
    return {"role": "spectator"}


def ready(
    room: Room, member: Member, conn: ConnId, command: Command, now: float, out: list[Output]
) -> Message:
    if member.role != "player":
        raise RaceError("not-your-seat", "Only a seated player can be ready: join first")
    if room.phase != "lobby":
        raise RaceError("already-started", "The race has already started")
    member.ready = command.ready
    room.emit(out, {"event": "ready", "player": member.id, "ready": command.ready})
    return {"ready": command.ready}


def start(
    room: Room, member: Member, conn: ConnId, command: Command, now: float, out: list[Output]
) -> Message:
    # The creator starts; if the creator has left the room, any seated player may.
    if member.id != room.creator.id and (
        room.members.get(room.creator.id) is not None or member.role != "player"
    ):
        raise RaceError("not-creator", "Only the room's creator can start the race")
    if room.phase != "lobby":
        raise RaceError("already-started", "The race has already started")
    seated = room.members.players()
    racers = [m for m in seated if m.ready]
    if not racers:
        raise RaceError("nobody-ready", "Nobody is ready yet")
    for other in seated:
        if not other.ready:
            other.role = "spectator"
            room.emit(
                out, {"event": "left", "player": other.id, "reason": "not-ready", "watching": True}
            )
    room.start_round([m.player for m in racers], now, out)
    return {"round": room.round}


def follow(
    room: Room, member: Member, conn: ConnId, command: Command, now: float, out: list[Output]
) -> Message:
    own = room.racers.get(member.id)
    if own is not None and own.playing and room.phase in RACING:
        raise RaceError("not-allowed", "You cannot watch another board while you race")
    if command.player is None:
        member.following = None
        return {"player": None, "view": None}
    target = room.racers.get(command.player)
    if target is None:
        raise RaceError("unknown-player", f"Nobody called {command.player!r} is racing here")
    member.following = command.player
    view = room.board(target, member.id)  # masked: see race.masking
    return {"player": command.player, "view": view, "status": target.status}


def rematch(
    room: Room, member: Member, conn: ConnId, command: Command, now: float, out: list[Output]
) -> Message:
    if member.role != "player" and member.id != room.creator.id and member.id not in room.racers:
        raise RaceError("not-your-seat", "Only the room's players can ask for a rematch")
    if room.phase == "lobby" and command.round is not None and command.round == room.round:
        return {"round": room.round + 1}  # someone else asked first: the same rematch
    if room.phase != "results":
        raise RaceError("not-finished", "The race is not over")
    if command.round is not None and command.round != room.round:
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


def game(
    room: Room, member: Member, conn: ConnId, command: Command, now: float, out: list[Output]
) -> Message:
    """move, deal, undo, hint, give-up, auto on the sender's own game."""
    if command.player is not None and command.player != member.id:
        raise RaceError("not-your-seat", "You can only play on your own seat")
    racer = room.racers.get(member.id)
    if racer is None:
        if room.phase in RACING or member.role == "spectator":
            raise RaceError("spectator", "Spectators cannot play: join before the start")
        raise RaceError("not-started", "The race has not started")
    if room.phase == "countdown":
        raise RaceError("not-started", "The race has not started yet")
    if room.phase != "racing" or not racer.playing:
        raise RaceError("finished", "Your game is over")
    action = GAME_ACTIONS[command.type]
    extra = racer.apply(action, command.move, now)
    text = extra.get("move", extra.get("auto", action))  # auto: as played
    assert isinstance(text, str)
    out.append(
        Persist(ActionRecord(room.id, room.round, member.id, command.seq, text, racer.last_elapsed))
    )
    if action != "hint":
        room.progress(out, racer)
        room.send_view(out, racer, exclude=conn)
    if not any(r.playing for r in room.racers.values()):
        room.finish_round(now, out)
    extra.update(view=racer.game.view(), status=racer.status, elapsed=racer.last_elapsed)
    return extra


HANDLERS: dict[str, Handler] = {
    "join": join,
    "leave": leave,
    "ready": ready,
    "start": start,
    "follow": follow,
    "rematch": rematch,
    "move": game,
    "deal": game,
    "undo": game,
    "hint": game,
    "give-up": game,
    "auto": game,
}


def handle(room: Room, conn: ConnId, command: Command, now: float) -> list[Output]:
    """One checked command from ``conn``: exactly one answer, plus its effects."""
    out: list[Output] = []
    room.advance(now, out)
    member = room.members.by_conn.get(conn)
    seq = command.seq
    if member is None:
        out.append(Send((conn,), refused(seq, "not-authenticated", "Say hello first")))
        return out
    if command.type == "ping":
        out.extend(answer_ping(conn, member.seqs, seq, now))
        return out
    found = member  # for the closure: mypy does not carry the narrowing into it

    def run(effects: list[Output]) -> Message:
        # Handlers check everything before changing anything: a refusal changes nothing.
        return HANDLERS[command.type](room, found, conn, command, now, effects)

    out.extend(answer_once(conn, member.seqs, command, run))
    return out
