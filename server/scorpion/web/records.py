"""Race records to store writes: what the log, the game records and the daily keep.

Every record goes into its room's log (``daily:<date>`` for a daily), which a
restart replays. Records that start or end a game also update the player's game
record, which feeds statistics, the daily leaderboard and "my games".
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from scorpion.race import (
    ActionRecord,
    DailyStarted,
    GameResult,
    HostAction,
    NameReported,
    PracticeDealt,
    Record,
    RoomClosed,
    RoomOpened,
    RoundFinished,
    RoundStarted,
    disclosure,
)
from scorpion.race.protocol import (
    daily_key,
    date_of,
    game_id,
    player_daily_key,
    practice_key,
    practice_player,
)
from scorpion.store import (
    AppendLog,
    ClaimDaily,
    CloseRoom,
    ListRoom,
    OpenRoom,
    Reveal,
    SavedGame,
    SaveGame,
    SaveReport,
    Write,
)


def place_of(record: Record) -> str:
    """The place a record names, as game ids do: its room, its day's daily
    (``daily:<date>``, whatever its shard) or its practice (``practice:<player>``)."""
    if isinstance(record, DailyStarted):
        return daily_key(record.date)
    if isinstance(record, PracticeDealt):
        return practice_key(record.player)
    return record.room


def log_key(record: Record, shards: int = 1) -> str:
    """The log a record goes to (and the place whose lease fences it): its room's, its
    practice's, or its daily shard's (``daily:<date>:<shard>`` of the record's player;
    ``daily:<date>`` when the day is not split)."""
    place = place_of(record)
    date = date_of(place)
    player = getattr(record, "player", None)
    if date is None or not isinstance(player, str):
        return place
    return player_daily_key(date, player, shards)


class RecordWriter:
    """Turns race records into store writes. ``settings_of(room)`` gives a room's settings
    for its game rows (the referee holds them; None for a room it no longer holds)."""

    def __init__(
        self, settings_of: Callable[[str], Mapping[str, object] | None], shards: int = 1
    ) -> None:
        self.settings_of = settings_of
        self.shards = shards  # a day's daily shards (their logs)

    def writes(self, record: Record) -> list[Write]:
        if isinstance(record, RoomClosed):
            return [CloseRoom(record.room)]
        room, log = place_of(record), log_key(record, self.shards)
        out: list[Write] = []
        if isinstance(record, RoomOpened):
            out.append(OpenRoom(room, record.creator, dict(record.settings)))
        elif date_of(room) is not None or practice_player(room) is not None:
            # A daily's or a practice's log is closed after two idle days
            # (Services._maintain): writing to it again reopens it, so a late move of an
            # unranked attempt or a practice game is never refused by the store.
            out.append(OpenRoom(log, None, {}, reopen=True))
        out.append(AppendLog(log, record.to_dict()))
        if type(record) is ActionRecord:  # every move: none of the kinds below
            return out
        if isinstance(record, HostAction) and record.action in ("list", "unlist"):
            out.append(ListRoom(room, record.at if record.action == "list" else None))
        if isinstance(record, RoundStarted):
            settings = self.settings_of(room) or {}
            preset = str(settings.get("preset", "classic"))
            for player, _name in record.players:
                out.append(SaveGame(self._started(room, record, player, preset, settings)))
        elif isinstance(record, DailyStarted):
            gid = game_id(room, record.attempt, record.player)
            row = SavedGame(
                id=gid,
                player_id=record.player,
                preset=record.preset,
                deal=record.deal,
                started=record.started_at,
                rules={"preset": record.preset},
                daily=record.date,
                ranked=record.ranked,
            )
            out.append(SaveGame(row))
            if record.ranked:
                out.append(ClaimDaily(record.date, record.player, gid))
        elif isinstance(record, PracticeDealt):
            row = SavedGame(
                id=game_id(room, record.game, record.player),
                player_id=record.player,
                preset=record.preset,
                deal=record.deal,
                started=record.started_at,
                rules={"preset": record.preset},
                revealed=disclosure.revealed_when_dealt(room),
            )
            out.append(SaveGame(row))
        elif isinstance(record, GameResult):
            out.append(SaveGame(self._result(room, record)))
        elif isinstance(record, NameReported):
            out.append(
                SaveReport(
                    record.room, record.player, record.name, record.by, record.reason, record.at
                )
            )
        elif isinstance(record, RoundFinished):
            players = disclosure.revealed_by(record)
            out.append(Reveal(tuple(game_id(room, record.round, p) for p in players)))
        return out

    @staticmethod
    def _started(
        room: str,
        record: RoundStarted,
        player: str,
        preset: str,
        settings: Mapping[str, object],
    ) -> SavedGame:
        return SavedGame(
            id=game_id(room, record.round, player),
            player_id=player,
            preset=preset,
            deal=record.deal,
            started=record.started_at,
            rules=disclosure.stored_rules(settings),
            room_id=room,
        )

    def _result(self, room: str, record: GameResult) -> SavedGame:
        daily = date_of(room)
        settings = self.settings_of(room) or {"preset": record.preset}
        return SavedGame(
            id=game_id(room, record.round, record.player),
            player_id=record.player,
            preset=record.preset,
            deal=record.deal,
            started=record.finished_at - record.elapsed,
            rules=disclosure.stored_rules(settings),
            room_id=None if daily or practice_player(room) else room,
            daily=daily,
            ranked=record.ranked,
            finished=record.finished_at,
            result=record.status,
            elapsed=record.elapsed,
            score=record.score,
            runs=record.runs,
            moves=record.moves,
            turned=record.turned,
            actions=[(a, e) for a, e in record.actions],
            hints=record.hints,
            autos=record.autos,
        )


def is_move(record: Record) -> bool:
    """An applied game action (for the moves counter)."""
    return isinstance(record, ActionRecord) and record.action not in ("undo", "give-up")
