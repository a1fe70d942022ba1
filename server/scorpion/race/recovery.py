"""Rebuilding a room from its records: replay every racer's actions through the engine.

A room is its settings (``RoomOpened``), its latest round (``RoundStarted``: deal,
clock, players) and that round's actions in the order they were written. Replay
gives back every game exactly, undo history included, and every answered seq.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from .outputs import Message, Output
from .players import Player
from .records import ActionRecord, RoomOpened, RoundFinished, RoundStarted
from .room import Room
from .settings import RoomSettings


def restore_room(
    opened: RoomOpened,
    now: float,
    *,
    started: RoundStarted | None = None,
    finished: RoundFinished | None = None,
    rematched: bool = False,
    actions: Iterable[ActionRecord] = (),
    deal_source: Callable[[], int],
    grace: float = 60.0,
    keep_events: int = 50,
    idle_close: float = 3600.0,
) -> tuple[Room, list[Output]]:
    """Rebuild a room from its records by replaying every racer's actions.

    ``started`` is the room's latest round (``finished`` its results, if any;
    ``rematched`` when a rematch was asked after them) and ``actions`` that round's
    actions in the order written. Racers get a fresh
    grace period to reconnect. Event versions restart past any earlier version
    (clients get ``recovered: false`` and a snapshot). Returns the room and the
    outputs of timers already due (a time limit passed while the server was down).
    """
    room = Room(
        opened.room,
        Player(opened.creator, opened.creator_name),
        RoomSettings.from_dict(opened.settings),
        created_at=opened.at,
        deal_source=deal_source,
        grace=grace,
        keep_events=keep_events,
        idle_close=idle_close,
        version_base=int(now * 1000),
    )
    room.idle_since = now
    if started is None:
        return room, []
    room.begin_round(started)
    for player_id, _ in started.players:
        member, _new = room.members.ensure(room.racers[player_id].player)
        member.role = "player"
        member.ready = True
        member.away_since = now
    for action in actions:
        if action.round != started.round or action.player not in room.racers:
            continue
        racer = room.racers[action.player]
        if action.action == "left":  # the seat was lost after the grace period
            racer.stop("left", action.elapsed)
            room.members.remove(room.members.by_id[action.player])
            continue
        kind = action.action if action.action in ("undo", "hint", "give-up") else "move"
        racer.replay(kind, action.action, action.elapsed)
        answer: Message = {"type": "applied", "seq": action.seq, "command": kind}
        if kind == "move":
            answer["move"] = action.action
        answer["restored"] = True
        room.members.by_id[action.player].seqs.remember(action.seq, answer)
    out: list[Output] = []
    if finished is not None and finished.round == started.round:
        room.phase = "results"
        room.results = [dict(entry) for entry in finished.ranking]
        for entry in room.results:  # time-outs are not actions: the results say when
            ended = room.racers.get(str(entry.get("player")))
            elapsed = entry.get("elapsed")
            if ended is not None and ended.playing and isinstance(elapsed, int | float):
                ended.stop(str(entry.get("status")), float(elapsed))
        if rematched:
            room.back_to_lobby()
        return room, out
    room.phase = "countdown"
    room.advance(now, out)
    return room, out
