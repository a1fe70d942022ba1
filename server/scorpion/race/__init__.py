"""Races, rooms, spectators and the daily challenge, with no I/O (sans-I/O).

Feed a :class:`Referee` with decoded client messages and the clock; it returns
outputs (messages to send, records to persist, connections to close). The wire
protocol is docs/protocol.md.
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
