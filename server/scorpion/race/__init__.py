"""Races, rooms, spectators and the daily challenge, with no I/O (sans-I/O).

Feed a :class:`Referee` with decoded client messages and the clock; it returns
outputs (messages to send, records to persist, connections to close). The wire
protocol is docs/protocol.md. The caller persists every record of a batch before
it sends anything of that batch, so nothing is acknowledged before it is written.

Modules, one concept each:

- ``referee``: every room and daily of a process; routes connections; timers; restore.
- ``room``: one room's state machine (lobby, countdown, racing, results), snapshot, timers.
- ``room_commands``: a room's commands and the one-answer-per-seq rule.
- ``recovery``: a room rebuilt from its records by replay.
- ``daily``: the daily challenge (deal from date and secret, attempts, leaderboard).
- ``racer``: one player's game on a race clock; ``members``: who is connected, seats;
  ``seqs``: answers by seq; ``events``: versioned room events kept for reconnects.
- ``commands``: client messages checked into commands; ``errors``: refusal codes;
  ``outputs``: Send, Persist, Close; ``records``: what the store keeps.
- ``settings``: a room's settings; ``ranking``: ranking, statistics, streaks (pure);
  ``solver_bridge``: hints and winnable deals when the solver is there.
"""

from .commands import Command, Hello, parse_command, parse_hello, seq_of
from .errors import RaceError, SettingsError
from .events import EventLog
from .outputs import Close, ConnId, Message, Output, Persist, Send, refused
from .players import Player
from .ranking import Stats, daily_streak, rank_entries, statistics
from .records import (
    ActionRecord,
    DailyStarted,
    GameResult,
    Record,
    Rematched,
    RoomClosed,
    RoomOpened,
    RoundFinished,
    RoundStarted,
    record_from_dict,
)
from .referee import Referee
from .settings import RoomSettings

__all__ = [
    "ActionRecord",
    "Close",
    "Command",
    "ConnId",
    "DailyStarted",
    "EventLog",
    "GameResult",
    "Hello",
    "Message",
    "Output",
    "Persist",
    "Player",
    "RaceError",
    "Record",
    "Referee",
    "Rematched",
    "RoomClosed",
    "RoomOpened",
    "RoomSettings",
    "RoundFinished",
    "RoundStarted",
    "Send",
    "SettingsError",
    "Stats",
    "daily_streak",
    "parse_command",
    "parse_hello",
    "rank_entries",
    "record_from_dict",
    "refused",
    "seq_of",
    "statistics",
]
