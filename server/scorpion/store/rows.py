"""Rows to values, shared by both backends (sqlite3.Row and asyncpg.Record read alike)."""

from __future__ import annotations

from typing import Any, Final, Protocol

import orjson

from .base import Account, SavedGame

GAME_COLUMNS: Final = (
    "id, player_id, room_id, daily, ranked, preset, rules, deal, started, finished, "
    "result, elapsed, score, runs, moves, turned, actions, revealed, hints, autos"
)
GAME_COLUMN_COUNT: Final = len(GAME_COLUMNS.split(", "))
# The same columns with no actions (read back as an empty list): a history's light read.
SUMMARY_COLUMNS: Final = GAME_COLUMNS.replace("actions", "'[]' AS actions")
# What an update of a game row changes: not its id, its first start, nor a revealed deal.
GAME_UPDATES: Final = ", ".join(
    f"{name} = excluded.{name}"
    for name in GAME_COLUMNS.split(", ")
    if name not in ("id", "started", "revealed")
)
# A player's results for the statistics: preset, result and whether help was used.
RESULT_COLUMNS: Final = "preset, result, hints > 0 OR autos > 0"
# quick_queue and rating_changes: their columns.
QUEUE_COLUMNS: Final = "player_id, name, preset, joined, seen, room_id, formed"
CHANGE_COLUMNS: Final = (
    "room_id, round, player_id, preset, place, mu_before, sigma_before, mu_after, sigma_after, "
    "created"
)
# name_reports: the fields of a SaveReport, in its order.
REPORT_COLUMNS: Final = "room_id, player_id, name, reporter_id, reason, created"
# daily_entries: the columns selected, under these keys.
ENTRY_KEYS: Final = ("player", "name", "status", "elapsed", "runs", "score", "moves", "new_player")
# ... the last one: the player was younger than a day when the game started (the mark of
# race.daily.NEW_PLAYER, for days whose log is gone).
NEW_PLAYER_SQL: Final = "g.started - p.created < 86400"


def entry_from_row(row: Any) -> dict[str, Any]:
    """A daily_entries row as a leaderboard entry (``new_player`` a bool on both backends)."""
    entry = dict(zip(ENTRY_KEYS, tuple(row), strict=True))
    entry["new_player"] = bool(entry["new_player"])
    return entry


def dumps(value: Any) -> str:
    return orjson.dumps(value).decode()


def game_values(r: SavedGame) -> tuple[Any, ...]:
    """A record's values in GAME_COLUMNS order (ranked and revealed as the driver's bool)."""
    return (r.id, r.player_id, r.room_id, r.daily, r.ranked, r.preset, dumps(r.rules),
            str(r.deal), r.started, r.finished, r.result, r.elapsed, r.score, r.runs, r.moves,
            r.turned, dumps(r.actions), r.revealed, r.hints, r.autos)  # fmt: skip


class Row(Protocol):
    def __getitem__(self, key: str, /) -> Any: ...


def player_from_row(row: Row | None) -> Account | None:
    """A player from a row of ``SELECT id, name, created``; None for no row."""
    return None if row is None else Account(row["id"], row["name"], row["created"])


def game_from_row(row: Row) -> SavedGame:
    return SavedGame(
        id=row["id"],
        player_id=row["player_id"],
        room_id=row["room_id"],
        daily=row["daily"],
        ranked=bool(row["ranked"]),
        preset=row["preset"],
        rules=orjson.loads(row["rules"]),
        deal=int(row["deal"]),
        started=row["started"],
        finished=row["finished"],
        result=row["result"],
        elapsed=row["elapsed"],
        score=row["score"],
        runs=row["runs"],
        moves=row["moves"],
        turned=row["turned"],
        actions=[(a, e) for a, e in orjson.loads(row["actions"])],
        revealed=bool(row["revealed"]),
        hints=row["hints"],
        autos=row["autos"],
    )
