"""A room's host controls: remove a player, the on/off switches (lock, list, rated, league),
hand the host role over; and name reports. A quick race has no host (strangers the queue
matched: none of them rules the others).

Each command checks everything first and raises :class:`RaceError` before it changes
anything; then it changes the room, appends its effects (events, records) to ``out`` and
returns the ``applied`` answer's extra fields.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from .errors import RaceError
from .members import Member
from .messages import AnswerFields
from .outputs import Output, Persist
from .records import HostAction, NameReported
from .room_events import SwitchName, switch_answer, switched
from .states import RACING

if TYPE_CHECKING:  # the room calls these with itself (nothing holds it: place.py)
    from .room import Room


@dataclass(frozen=True, slots=True)
class Switch:
    """One of the host's on/off controls. ``name``: the field of the command, its answer and
    its event (:func:`~.room_events.switched`), and the room's attribute (or, ``in_settings``,
    its settings' field); ``on``/``off``: the :class:`HostAction` written; ``what``:
    what a refusal says the host alone can do; ``lobby_only``: the refusal outside the lobby
    for those a round settles when it starts (None: any time)."""

    name: SwitchName
    on: str
    off: str
    what: str
    lobby_only: str | None = None
    in_settings: bool = False
    no_chosen_deal: bool = False  # refused on while the host's chosen deal is still to come


LOCK = Switch("locked", "lock", "unlock", "lock the room")
"""No new seats (watching stays open to anyone with the link), or open seats again."""
LIST = Switch("listed", "list", "unlist", "list the room")
"""Among the home page's open rooms (anyone may join), or off it."""
RATING = Switch("rated", "rate", "unrate", "change whether the room is rated",
                "The room can be rated or unrated in the lobby only", in_settings=True,
                no_chosen_deal=True)  # fmt: skip
"""The room's rounds rated (per rule set, like quick races) from the next one, or not."""
LEAGUE = Switch("league", "league", "unleague", "make the room a league",
                "The room can be made a league in the lobby only", in_settings=True,
                no_chosen_deal=True)  # fmt: skip
"""A standing league (points per round from the next one; the room stays open, the same
link every week), or an ordinary room again."""


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
    target = room.core.members.get(player)
    if target is None or target.role != "player":
        raise RaceError("unknown-player", f"Nobody called {player!r} is seated here to {what}")
    return target


def kick(room: Room, host: Member, player: str, now: float, out: list[Output]) -> AnswerFields:
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
        room.feed.progress(room, out, racer, now)
        room.feed.send_view(room, out, racer, exclude=None, followers=False)
    target.role, target.ready = "spectator", False
    room.removed.add(player)
    out.append(Persist(HostAction(room.id, "kick", player, host.id, now)))
    room.emit(
        out,
        {
            "event": "left",
            "player": player,
            "reason": "removed",
            "watching": True,
            "by": host.id,
        },
    )
    if room.phase == "racing" and not any(r.playing for r in room.racers.values()):
        room.finish_round(now, out)
    return {"player": player, "role": "spectator"}


def switch(
    room: Room, host: Member, control: Switch, on: bool, now: float, out: list[Output]
) -> AnswerFields:
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
        room.emit(out, switched(control.name, on, host.id))
    return switch_answer(control.name, on)


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


def hand_host(room: Room, host: Member, player: str, now: float, out: list[Output]) -> AnswerFields:
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
) -> AnswerFields:
    """Keep a report of ``player``'s name for the operator (once per reporter and player).
    Nobody else is told: a report is not an accusation in front of the room."""
    if player == member.id:
        raise RaceError("not-allowed", "You cannot report your own name")
    target = room.core.members.get(player)
    name = target.player.name if target else None
    if name is None and player in room.racers:
        name = room.racers[player].player.name
    if name is None:
        raise RaceError("unknown-player", f"Nobody called {player!r} is in this room")
    if (member.id, player) not in room.reports:
        room.reports.add((member.id, player))
        out.append(Persist(NameReported(room.id, player, name, member.id, reason, now)))
    return {"reported": player}
