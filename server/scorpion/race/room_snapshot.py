"""A room's public snapshot (docs/protocol.md section 5): numbers only, no cards; the racers'
numbers and ranks as everyone but the racer may see them (:mod:`.observed`). It goes in
every welcome and in the HTTP room summary.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .observed import shown_ranks
from .outputs import Message

if TYPE_CHECKING:  # the room reads itself through this module
    from .room import Room


def snapshot(room: Room, now: float) -> Message:
    """The public snapshot (docs/protocol.md section 5): numbers only, no cards."""
    players: list[Message] = []
    racing = bool(room.racers) and room.phase != "lobby"
    for member in room.core.members.players():
        if racing and member.id in room.racers:
            continue
        players.append(
            {
                "id": member.id,
                "name": member.player.name,
                "ready": member.ready,
                "connected": member.connected,
                "status": None,
            }
        )
    if racing:
        feed = room.feed
        feed.hidden.sync(room.racers)
        rows = feed.shown_rows(room)  # numbers and ranks as others see them (observed.py)
        ranks = shown_ranks(rows.values())
        for pid, racer in room.racers.items():
            seat = room.core.members.get(pid)
            entry: Message = {
                "id": pid,
                "name": racer.player.name,
                "ready": True,
                "connected": bool(seat and seat.connected),
            }
            entry.update(rows[pid])
            entry["rank"] = ranks[pid]
            del entry["player"]
            players.append(entry)
    return {
        "room": room.id,
        "creator": room.creator.id,
        "host": room.host,
        "locked": room.locked,
        "listed": room.listed,
        "quick_race": room.quick_race,  # strangers the queue matched (no host controls)
        "quick": None if room.quick is None else room.quick.to_dict(),  # until dealt
        "settings": room.settings.public(),
        "phase": room.phase,
        "round": room.round,
        "countdown_at": room.countdown_at,
        "started_at": room.started_at,
        "ends_at": room.ends_at,
        "players": players,
        "spectators": [
            {"id": m.id, "name": m.player.name, "following": m.following}
            for m in room.core.members.spectators()
        ],
        "results": room.results,
        "ratings": room.ratings if room.phase == "results" else None,
        "timeline": timeline(room) if room.phase == "results" else None,
        # A string: deal numbers go up to 2**64-1, beyond JavaScript's exact integers.
        "deal": str(room.deal) if room.phase == "results" else None,
        "dealing_until": room.dealing_until,  # a winnable deal is being searched
        "now": now,
    }


def timeline(room: Room) -> dict[str, object]:
    """Each racer's numbers over the round, by player (shown with the results)."""
    return {pid: [list(p) for p in r.timeline] for pid, r in room.racers.items()}


def summary(room: Room, now: float) -> Message:
    """For the HTTP room summary: the snapshot without the spectators' follows."""
    data = snapshot(room, now)
    data["spectators"] = len(room.core.members.spectators())
    return data
