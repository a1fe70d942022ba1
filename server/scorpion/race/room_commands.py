"""A room's commands: the lobby and seats (join, leave, ready, start, follow, rematch), the
host's controls (kick, lock, hand-host), name reports and the racers' game commands
(through the shared game path, :meth:`Place.play`).

Each handler checks everything first and raises :class:`RaceError` before it
changes anything; then it changes the room, appends its effects (events, records)
to ``out`` and returns the ``applied`` answer's extra fields (None: answered later,
when a search ends).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from .commands import (
    Auto,
    Command,
    Deal,
    Follow,
    GiveUp,
    HandHost,
    Hint,
    Join,
    Kick,
    League,
    Leave,
    List,
    Lock,
    Move,
    Rating,
    Ready,
    Rematch,
    Report,
    Start,
    Undo,
)
from .errors import RaceError
from .members import EVERYONE, Member
from .outputs import ConnId, Message, Output, Persist
from .records import HostAction, NameReported, Rematched
from .room import Room
from .states import RACING, Role


def run(
    room: Room, member: Member, conn: ConnId, command: Command, now: float, out: list[Output]
) -> Message | None:
    """Apply one command of ``member`` (ping is answered before it gets here)."""
    match command:
        case Move() | Deal() | Undo() | GiveUp() | Hint() | Auto():
            return room.core.play(member, conn, command, now, out)
        case Join(role=role):
            return join(room, member, role, out)
        case Leave():
            return leave(room, member, now, out)
        case Ready(ready=ready):
            return set_ready(room, member, ready, out)
        case Start(seq=seq):
            return start(room, member, seq, now, out)
        case Follow(player=player):
            return follow(room, member, player)
        case Rematch(round=round_):
            return rematch(room, member, round_, now, out)
        case Kick(player=player):
            return kick(room, member, player, now, out)
        case Lock(locked=locked):
            return switch(room, member, LOCK, locked, now, out)
        case List(listed=listed):
            return switch(room, member, LIST, listed, now, out)
        case Rating(rated=rated):
            return switch(room, member, RATING, rated, now, out)
        case League(league=league):
            return switch(room, member, LEAGUE, league, now, out)
        case HandHost(player=player):
            return hand_host(room, member, player, now, out)
        case Report(player=player, reason=reason):
            return report(room, member, player, reason, now, out)
    raise RaceError("not-allowed", f"There is no {command.name} in a room")


def join(room: Room, member: Member, role: Role, out: list[Output]) -> Message:
    racer = room.racers.get(member.id)
    if role == "player":
        if member.role == "player":
            return {"role": "player"}
        check_may_sit(room, member)
        if room.quick is not None and member.id not in room.quick.players:
            raise RaceError("not-allowed", "This quick race's seats are for its matched racers")
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
        out.extend(room.core.drop_search(racer, member))
        room.feed.progress(out, racer, now)
        room.feed.send_view(out, racer, exclude=None, followers=False)
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


def start(room: Room, member: Member, seq: int, now: float, out: list[Output]) -> Message | None:
    """The host who presses Start and sits races (issue 23): pressing Start is saying "ready",
    as a lichess challenger or a TypeRacer host plays their own race. Checked first with the
    host counted ready, so a refusal changes nothing."""
    readies = member.role == "player" and not member.ready
    member.ready = member.ready or readies
    try:
        room.check_start(member)
    except RaceError:
        if readies:
            member.ready = False
        raise
    if readies:
        room.emit(out, {"event": "ready", "player": member.id, "ready": True})
    return room.start(member, seq, now, out)


def follow(room: Room, member: Member, player: str | None) -> Message:
    own = room.racers.get(member.id)
    if own is not None and own.playing and room.phase in RACING:
        raise RaceError("not-allowed", "You cannot watch another board while you race")
    if player is None:
        member.following = None
        return {"player": None, "view": None}
    if player == EVERYONE:  # every board at once, each masked as a followed board is
        member.following = EVERYONE
        boards = {pid: room.feed.board(r, member.id) for pid, r in room.racers.items()}
        statuses = {pid: r.status for pid, r in room.racers.items()}
        return {"player": EVERYONE, "views": boards, "statuses": statuses}
    target = room.racers.get(player)
    if target is None:
        raise RaceError("unknown-player", f"Nobody called {player!r} is racing here")
    member.following = player
    view = room.feed.board(target, member.id)  # masked: see race.masking
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
    seats_left = len(room.members.players()) < room.settings.max_players
    may_sit = member.id not in room.removed and (not room.locked or member.id in room.racers)
    if member.role != "player" and seats_left and may_sit:
        member.role = "player"
    # Asking for a rematch is saying "I'm ready" for it (issue 23): one click, not two.
    member.ready = member.role == "player"
    seated = [m.id for m in room.members.players()]
    ready = [m.id for m in room.members.players() if m.ready]
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


# ---------------------------------------------------------------------- host controls
def check_may_sit(room: Room, member: Member) -> None:
    """A seat is refused to a player the host removed, and to newcomers of a locked room."""
    if member.id in room.removed:
        raise RaceError("removed", "The host removed you from the seats: you can watch")
    if room.locked:
        raise RaceError("room-locked", "The host has locked the room: you can watch")


def check_host(room: Room, member: Member, what: str) -> None:
    if room.quick_race:  # strangers the queue matched: none of them rules the others
        raise RaceError("not-allowed", f"Nobody can {what} in a quick race")
    if member.id != room.host:
        raise RaceError("not-creator", f"Only the room's host can {what}")


def seated(room: Room, player: str, what: str) -> Member:
    target = room.members.get(player)
    if target is None or target.role != "player":
        raise RaceError("unknown-player", f"Nobody called {player!r} is seated here to {what}")
    return target


def kick(room: Room, host: Member, player: str, now: float, out: list[Output]) -> Message:
    """The host removes a seated player: they watch from now on (a game under way ends as
    ``left``) and may not take a seat again in this room."""
    check_host(room, host, "remove a player")
    if player == host.id:
        raise RaceError("not-allowed", "You cannot remove yourself: leave, or hand the host role")
    target = seated(room, player, "remove")
    racer = room.racers.get(player)
    if racer is not None and racer.playing and room.phase in RACING and (room.rated or room.league):
        # Removed, a racer would place last: the host would win their rating or points.
        raise RaceError(
            "not-allowed", "A rated or league race's racers play it out: remove them after it"
        )
    if racer is not None and racer.playing and room.phase in RACING:
        racer.stop("left", racer.elapsed(now) if room.phase == "racing" else 0.0)
        # Seq 0: no command of theirs asked for it; restore replays it like a lost seat.
        out.append(Persist(racer.record(0, "left")))
        out.extend(room.core.drop_search(racer, target))
        room.feed.progress(out, racer, now)
        room.feed.send_view(out, racer, exclude=None, followers=False)
    target.role, target.ready = "spectator", False
    room.removed.add(player)
    out.append(Persist(HostAction(room.id, "kick", player, host.id, now)))
    room.emit(
        out,
        {"event": "left", "player": player, "reason": "removed", "watching": True, "by": host.id},
    )
    if room.phase == "racing" and not any(r.playing for r in room.racers.values()):
        room.finish_round(now, out)
    return {"player": player, "role": "spectator"}


@dataclass(frozen=True, slots=True)
class Switch:
    """One of the host's on/off controls. ``name``: the field of the command, its answer and
    its event, and the room's attribute (or, ``in_settings``, its settings' field);
    ``event``: the event's name; ``on``/``off``: the :class:`HostAction` written; ``what``:
    what a refusal says the host alone can do; ``lobby_only``: the refusal outside the lobby
    for those a round settles when it starts (None: any time)."""

    name: str
    event: str
    on: str
    off: str
    what: str
    lobby_only: str | None = None
    in_settings: bool = False
    no_chosen_deal: bool = False  # refused on while the host's chosen deal is still to come


LOCK = Switch("locked", "locked", "lock", "unlock", "lock the room")
"""No new seats (watching stays open to anyone with the link), or open seats again."""
LIST = Switch("listed", "listed", "list", "unlist", "list the room")
"""Among the home page's open rooms (anyone may join), or off it."""
RATING = Switch("rated", "rating", "rate", "unrate", "change whether the room is rated",
                "The room can be rated or unrated in the lobby only", in_settings=True,
                no_chosen_deal=True)  # fmt: skip
"""The room's rounds rated (per rule set, like quick races) from the next one, or not."""
LEAGUE = Switch("league", "league", "league", "unleague", "make the room a league",
                "The room can be made a league in the lobby only", in_settings=True,
                no_chosen_deal=True)  # fmt: skip
"""A standing league (points per round from the next one; the room stays open, the same
link every week), or an ordinary room again."""


def switch(
    room: Room, host: Member, control: Switch, on: bool, now: float, out: list[Output]
) -> Message:
    """The host turns ``control`` on or off; the same value again changes nothing."""
    check_host(room, host, control.what)
    if control.lobby_only is not None and (room.phase != "lobby" or room.dealing is not None):
        raise RaceError("not-in-lobby", control.lobby_only)
    if on and control.no_chosen_deal:
        check_no_chosen_deal(room)
    holder: object = room.settings if control.in_settings else room
    if getattr(holder, control.name) != on:
        if control.in_settings:
            changed: dict[str, Any] = {control.name: on}
            room.settings = replace(room.settings, **changed)
        else:
            setattr(room, control.name, on)
        action = control.on if on else control.off
        out.append(Persist(HostAction(room.id, action, None, host.id, now)))
        room.emit(out, {"event": control.event, control.name: on, "by": host.id})
    return {control.name: on}


def check_no_chosen_deal(room: Room) -> None:
    """A rated or league round never deals the number its host chose (who may know its
    face-down cards); the chosen number deals the first round only, so from then on any
    room may be rated or made a league."""
    if isinstance(room.settings.deal, int) and room.round == 0:
        raise RaceError(
            "not-allowed",
            "This room first deals the number its host chose: it can be rated or a league "
            "from its rematch on (whoever picks a deal's number may know its face-down cards)",
        )


def hand_host(room: Room, host: Member, player: str, now: float, out: list[Output]) -> Message:
    check_host(room, host, "hand the host role over")
    if player == host.id:
        return {"host": player}
    seated(room, player, "hand the host role to")
    room.host = player
    out.append(Persist(HostAction(room.id, "hand-host", player, host.id, now)))
    room.emit(out, {"event": "host", "player": player, "by": host.id})
    return {"host": player}


def report(
    room: Room, member: Member, player: str, reason: str, now: float, out: list[Output]
) -> Message:
    """Keep a report of ``player``'s name for the operator (once per reporter and player).
    Nobody else is told: a report is not an accusation in front of the room."""
    if player == member.id:
        raise RaceError("not-allowed", "You cannot report your own name")
    target = room.members.get(player)
    name = target.player.name if target else None
    if name is None and player in room.racers:
        name = room.racers[player].player.name
    if name is None:
        raise RaceError("unknown-player", f"Nobody called {player!r} is in this room")
    if (member.id, player) not in room.reports:
        room.reports.add((member.id, player))
        out.append(Persist(NameReported(room.id, player, name, member.id, reason, now)))
    return {"reported": player}
