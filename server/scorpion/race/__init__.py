"""Races, rooms, spectators and the daily challenge, with no I/O (sans-I/O).

Feed a :class:`Referee` with decoded client messages and the clock; it returns
outputs (messages to send, records to persist, connections to close). The wire
protocol is docs/protocol.md. The caller persists every record of a batch before
it sends anything of that batch, so nothing is acknowledged before it is written.

Modules, one concept each:

- ``referee``: every room and daily of a process; routes connections and search answers;
  timers; restore.
- ``place``: what rooms, dailies and practices share, a ``PlaceCore`` each holds: members,
  events, one answer per seq, and the one game path (checks, engine call, record, progress,
  answer); ``place_hooks``: what each place tells its core, and ``AnyPlace``, the one
  interface the referee drives (``place.core`` for what all do alike; each place
  dispatches its own commands: ``run``).
- ``room``: one room's state machine (lobby, countdown, racing, results), its commands'
  dispatch, timers; its commands, functions over the room: ``room_commands`` (seats and
  rounds), ``room_host`` (the host's controls), ``room_start`` (Start, a winnable deal's
  search, the countdown); ``room_feed`` (progress and boards), which it holds;
  ``room_snapshot``: its snapshot.
- ``daily``: the daily challenge (deal from date and secret, attempts, time limits);
  ``daily_feed``: what it tells everyone (playing now, leaderboard, ranks: aggregated
  events); ``leaderboard``: a day's leaderboard kept in order, served in pages.
- ``practice``: a player's own games, dealt on demand, never ranked.
- ``recovery``: rooms and dailies rebuilt from their records by replay (never searching).
- ``racer``: one player's game on a race clock; ``members``: who is connected, seats;
  ``seqs``: answers by seq; ``events``: versioned events kept for reconnects (``Event``).
- ``commands``: client messages checked into typed commands; ``errors``: refusal codes;
  ``outputs``: Send, Persist, Close and search requests; ``messages``: every message a
  websocket gets, typed (answers, the daily's event, welcomes, views); ``room_events``: a
  room's events, typed, and their union; ``searches``: search requests,
  their answers and budgets; ``records``: what the store keeps.
- ``settings``: a room's settings; ``config``: how the server runs rooms;
  ``ranking``: ranking, statistics, streaks (pure).
"""

from .commands import Command, Hello, parse_command, parse_hello, seq_of
from .config import RoomConfig
from .errors import RaceError, SettingsError
from .events import EventLog
from .outputs import Close, ConnId, Message, Output, Persist, Send, refused
from .players import Player
from .ranking import Stats, daily_streak, rank_entries, statistics
from .records import (
    ActionRecord,
    DailyStarted,
    GameResult,
    HostAction,
    NameReported,
    PracticeDealt,
    Record,
    Rematched,
    RoomClosed,
    RoomOpened,
    RoundFinished,
    RoundStarted,
    record_from_dict,
)
from .referee import Referee
from .searches import (
    AutoFound,
    AutoSearch,
    DealFound,
    DealSearch,
    HintSearch,
    HintsFound,
    SearchAnswer,
    SearchFailed,
    SearchRequest,
    SearchTicket,
)
from .settings import RoomSettings

__all__ = [
    "ActionRecord",
    "AutoFound",
    "AutoSearch",
    "Close",
    "Command",
    "ConnId",
    "DailyStarted",
    "DealFound",
    "DealSearch",
    "EventLog",
    "GameResult",
    "Hello",
    "HintSearch",
    "HintsFound",
    "HostAction",
    "Message",
    "NameReported",
    "Output",
    "Persist",
    "Player",
    "PracticeDealt",
    "RaceError",
    "Record",
    "Referee",
    "Rematched",
    "RoomClosed",
    "RoomConfig",
    "RoomOpened",
    "RoomSettings",
    "RoundFinished",
    "RoundStarted",
    "SearchAnswer",
    "SearchFailed",
    "SearchRequest",
    "SearchTicket",
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
