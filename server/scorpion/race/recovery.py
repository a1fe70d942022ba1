"""Rebuilding rooms and dailies from their records: replay every racer's actions.

A room is its settings (``RoomOpened``), its latest round (``RoundStarted``: deal,
clock, players) and that round's actions in the order they were written. Replay
gives back every game exactly, undo history included, and every answered seq.
Replay never searches: a logged hint is counted, an Auto was logged as its move.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from .config import RoomConfig
from .outputs import Output
from .place import replay_action
from .players import Player
from .protocol import DAILY_PREFIX, daily_key, practice_key
from .quick_room import QuickSeats
from .records import (
    ActionRecord,
    DailyStarted,
    GameResult,
    HostAction,
    PracticeDealt,
    Record,
    Rematched,
    RoomClosed,
    RoomOpened,
    RoundFinished,
    RoundStarted,
)
from .room import Room
from .settings import RoomSettings
from .states import is_stopped


@dataclass
class Logs:
    """Stored records grouped for replay: each open room's latest round, the dailies'
    attempts and results."""

    opened: dict[str, RoomOpened] = field(default_factory=dict)
    latest: dict[str, RoundStarted] = field(default_factory=dict)
    finished: dict[tuple[str, int], RoundFinished] = field(default_factory=dict)
    actions: dict[tuple[str, int], list[ActionRecord]] = field(default_factory=dict)
    closed: set[str] = field(default_factory=set)
    rematched: set[tuple[str, int]] = field(default_factory=set)
    attempts: list[DailyStarted] = field(default_factory=list)
    results: list[GameResult] = field(default_factory=list)
    practice: dict[str, PracticeDealt] = field(default_factory=dict)  # latest game by player
    host_actions: dict[str, list[HostAction]] = field(default_factory=dict)

    @classmethod
    def group(cls, records: Iterable[Record]) -> Logs:
        logs = cls()
        for record in records:
            if isinstance(record, RoomOpened):
                logs.opened[record.room] = record
            elif isinstance(record, RoundStarted):
                logs.latest[record.room] = record
            elif isinstance(record, RoundFinished):
                logs.finished[record.room, record.round] = record
            elif isinstance(record, ActionRecord):
                logs.actions.setdefault((record.room, record.round), []).append(record)
            elif isinstance(record, RoomClosed):
                logs.closed.add(record.room)
            elif isinstance(record, Rematched):
                logs.rematched.add((record.room, record.round))
            elif isinstance(record, DailyStarted):
                logs.attempts.append(record)
            elif isinstance(record, PracticeDealt):
                logs.practice[record.player] = record
            elif isinstance(record, HostAction):
                logs.host_actions.setdefault(record.room, []).append(record)
            elif isinstance(record, GameResult) and record.room.startswith(DAILY_PREFIX):
                logs.results.append(record)
        return logs

    def open_rooms(self) -> list[RoomOpened]:
        return [r for room_id, r in self.opened.items() if room_id not in self.closed]

    def attempt_actions(self, attempt: DailyStarted) -> list[ActionRecord]:
        key = (daily_key(attempt.date), attempt.attempt)
        return [a for a in self.actions.get(key, ()) if a.player == attempt.player]

    def practice_actions(self, dealt: PracticeDealt) -> list[ActionRecord]:
        return list(self.actions.get((practice_key(dealt.player), dealt.game), ()))


def restore_room(
    opened: RoomOpened, logs: Logs, now: float, config: RoomConfig
) -> tuple[Room, list[Output]]:
    """Rebuild a room from its records by replaying every racer's actions, then its host's
    actions (who is host, the lock, who was removed from the seats)."""
    room, out = _replay_room(opened, logs, now, config)
    for action in logs.host_actions.get(room.id, ()):
        if action.action == "hand-host" and action.player is not None:
            room.host = action.player
        elif action.action in ("lock", "unlock"):
            room.locked = action.action == "lock"
        elif action.action in ("list", "unlist"):
            room.listed = action.action == "list"
        elif action.action in ("rate", "unrate"):
            room.settings = replace(room.settings, rated=action.action == "rate")
        elif action.action in ("league", "unleague"):
            room.settings = replace(room.settings, league=action.action == "league")
        elif action.action == "kick" and action.player is not None:
            room.removed.add(action.player)
            removed = room.core.members.get(action.player)
            if removed is not None:
                removed.role, removed.ready = "spectator", False
    return room, out


def _replay_room(
    opened: RoomOpened, logs: Logs, now: float, config: RoomConfig
) -> tuple[Room, list[Output]]:
    """Rebuild a room from its records by replaying every racer's actions.

    Racers get a fresh grace period to reconnect. Event versions restart past any
    earlier version (clients get ``recovered: false`` and a snapshot). Returns the
    room and the outputs of timers already due (a time limit passed while the server
    was down).
    """
    room = Room(
        opened.room,
        Player(opened.creator, opened.creator_name),
        RoomSettings.from_dict(opened.settings),
        created_at=opened.at,
        config=config,
        version_base=int(now * 1000),
        quick=None if opened.quick is None else QuickSeats.from_dict(opened.quick),
    )
    room.idle_since = now
    started = logs.latest.get(opened.room)
    if started is None:
        return room, []
    room.begin_round(started)
    room.quick = None  # its race was dealt
    for player_id, _ in started.players:
        member, _new = room.core.members.ensure(room.racers[player_id].player)
        member.role = "player"
        member.ready = True
        room.core.members.went_away(member, now)
    for action in logs.actions.get((room.id, started.round), ()):
        racer = room.racers.get(action.player)
        if racer is None:
            continue
        if action.action == "left":  # the seat was lost after the grace period
            racer.stop("left", action.elapsed)
            room.core.members.remove(room.core.members.by_id[action.player])
            continue
        skipped = replay_action(room.core.members.by_id[action.player], racer, action)
        if skipped:
            room.core.skipped.append(skipped)
    out: list[Output] = []
    finished = logs.finished.get((room.id, started.round))
    if finished is not None:
        room.phase = "results"
        room.results = [dict(entry) for entry in finished.ranking]
        for entry in room.results:  # time-outs are not actions: the results say when
            ended = room.racers.get(str(entry.get("player")))
            elapsed, status = entry.get("elapsed"), entry.get("status")
            # A game still playing when the round finished ended from outside (timed out).
            if ended is None or not ended.playing:
                continue
            if isinstance(elapsed, int | float) and is_stopped(status):
                ended.stop(status, float(elapsed))
        if (room.id, started.round) in logs.rematched:
            room.back_to_lobby()
        return room, out
    room.phase = "countdown"
    room.advance(now, out)
    return room, out
