"""The store's reads, written once for both backends: one SQL text each (``?``
placeholders, :func:`.sql.pg` translates them for PostgreSQL), rows turned into values
the same way (sqlite3.Row and asyncpg.Record read alike). A backend gives one primitive,
``_rows`` (its I/O: the SQLite worker thread or the asyncpg pool).

Reads that need a transaction or a lock stay with each store's writes.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

import orjson

from .base import JSON, LINK_ROUNDS, MAX_LINKED, Account, DeviceToken, SavedGame
from .rows import (
    CHANGE_COLUMNS,
    GAME_COLUMNS,
    NEW_PLAYER_SQL,
    REPORT_COLUMNS,
    RESULT_COLUMNS,
    SUMMARY_COLUMNS,
    entry_from_row,
    game_from_row,
    player_from_row,
)

PLAYER_BY_ID = "SELECT id, name, created FROM players WHERE id = ?"


class SharedReads(ABC):
    """Mixed (last) into both stores, whose worker gives :meth:`_rows`."""

    @abstractmethod
    async def _rows(self, sql: str, *args: object) -> list[Any]:
        """Every row ``sql`` (``?`` placeholders) selects with ``args``."""

    @staticmethod
    @abstractmethod
    def _among(column: str, values: list[str]) -> tuple[str, tuple[object, ...]]:
        """``column`` is one of ``values``: the condition and its arguments (SQLite lists
        them, ``IN (?, ...)``; PostgreSQL takes one array)."""

    async def _row(self, sql: str, *args: object) -> Any:
        """The first row, or None."""
        rows = await self._rows(sql, *args)
        return rows[0] if rows else None

    # --------------------------------------------------------------- players
    async def player_by_token(self, token_hash: bytes) -> Account | None:
        sql = "SELECT id, name, created FROM players WHERE token_hash = ?"
        return player_from_row(await self._row(sql, token_hash))

    async def player(self, player_id: str) -> Account | None:
        return player_from_row(await self._row(PLAYER_BY_ID, player_id))

    async def player_by_device_token(self, token_hash: bytes) -> Account | None:
        """The player of a token given to another device (not the player's first token)."""
        sql = (
            "SELECT p.id, p.name, p.created FROM device_tokens d "
            "JOIN players p ON p.id = d.player_id WHERE d.token_hash = ?"
        )
        return player_from_row(await self._row(sql, token_hash))

    async def device_tokens(self, player_id: str) -> list[DeviceToken]:
        """Every token of the player, the first made first."""
        sql = (
            "SELECT token_hash, how, agent, created, last_seen FROM device_tokens "
            "WHERE player_id = ? ORDER BY created, token_hash"
        )
        rows = await self._rows(sql, player_id)
        return [DeviceToken(bytes(r[0]), r[1], r[2], r[3], r[4]) for r in rows]

    async def name_reports(self, limit: int = 100) -> list[JSON]:
        """The latest reports, newest first."""
        sql = f"SELECT id, {REPORT_COLUMNS} FROM name_reports ORDER BY id DESC LIMIT ?"
        return [dict(r) for r in await self._rows(sql, limit)]

    async def linked_players(self, player_id: str) -> frozenset[str]:
        """The other players sharing a device with the player, transitively: one query per
        round, each new player's devices in the next (LINK_ROUNDS, MAX_LINKED)."""
        group, frontier = {player_id}, [player_id]
        for _ in range(LINK_ROUNDS):
            sharing, args = self._among("a.player_id", frontier)
            known, more = self._among("b.player_id", sorted(group))
            sql = (
                "SELECT DISTINCT b.player_id FROM player_devices a "
                "JOIN player_devices b ON b.device_hash = a.device_hash "
                f"WHERE {sharing} AND NOT {known} ORDER BY b.player_id LIMIT ?"
            )
            rows = await self._rows(sql, *args, *more, MAX_LINKED + 1 - len(group))
            frontier = [row[0] for row in rows]
            group.update(frontier)
            if not frontier or len(group) > MAX_LINKED:
                break
        return frozenset(group - {player_id})

    # ------------------------------------------------------------- room logs
    async def open_room_logs(self) -> list[tuple[str, JSON]]:
        """(room id, entry) of every open room, in the order written: what a restart replays."""
        sql = (
            "SELECT l.room_id, l.entry FROM room_log l JOIN rooms r ON r.id = l.room_id "
            "WHERE r.closed IS NULL ORDER BY l.id"
        )
        return [(r[0], orjson.loads(r[1])) for r in await self._rows(sql)]

    # ---------------------------------------------------------- game records
    async def game(self, game_id: str) -> SavedGame | None:
        row = await self._row(f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", game_id)
        return None if row is None else game_from_row(row)

    async def player_games(
        self, player_id: str, limit: int = 50, before: float | None = None
    ) -> list[SavedGame]:
        """A player's games, newest first; ``before`` pages on by start time."""
        cutoff = float("inf") if before is None else before
        sql = (
            f"SELECT {GAME_COLUMNS} FROM games WHERE player_id = ? AND started < ? "
            "ORDER BY started DESC LIMIT ?"
        )
        return [game_from_row(r) for r in await self._rows(sql, player_id, cutoff, limit)]

    async def player_summaries(self, player_id: str) -> list[SavedGame]:
        sql = f"SELECT {SUMMARY_COLUMNS} FROM games WHERE player_id = ? ORDER BY started, id"
        return [game_from_row(r) for r in await self._rows(sql, player_id)]

    async def round_games(self, room_id: str, round_: int) -> list[SavedGame]:
        prefix = f"{room_id}:{round_}:"  # race.protocol.game_id
        sql = (
            f"SELECT {GAME_COLUMNS} FROM games WHERE room_id = ? "
            "AND substr(id, 1, ?) = ? ORDER BY started, id"
        )
        return [game_from_row(r) for r in await self._rows(sql, room_id, len(prefix), prefix)]

    async def results(self, player_id: str) -> list[tuple[str, str, bool]]:
        """(preset, result, assisted) of a player's games in the order started; 'playing'
        when unfinished; assisted: a hint or Auto was used."""
        sql = f"SELECT {RESULT_COLUMNS} FROM games WHERE player_id = ? ORDER BY started, id"
        return [(r[0], r[1] or "playing", bool(r[2])) for r in await self._rows(sql, player_id)]

    async def analysis(self, game_id: str) -> JSON | None:
        row = await self._row("SELECT analysis FROM analyses WHERE game_id = ?", game_id)
        return None if row is None else dict(orjson.loads(row[0]))

    # ----------------------------------------------------------------- daily
    async def daily_attempt(self, day: str, player_id: str) -> str | None:
        sql = "SELECT game_id FROM daily_attempts WHERE day = ? AND player_id = ?"
        row = await self._row(sql, day, player_id)
        return None if row is None else str(row[0])

    async def daily_entries(self, day: str, limit: int = 1000) -> list[JSON]:
        """The finished ranked games of a day, unranked (see scorpion.race.rank_entries)."""
        sql = (
            "SELECT g.player_id, p.name, g.result, g.elapsed, g.runs, g.score, g.moves, "
            f"{NEW_PLAYER_SQL} "
            "FROM games g JOIN players p ON p.id = g.player_id "
            "WHERE g.daily = ? AND g.ranked = TRUE AND g.result IS NOT NULL "
            "ORDER BY g.finished LIMIT ?"
        )
        return [entry_from_row(r) for r in await self._rows(sql, day, limit)]

    async def daily_deal(self, day: str) -> tuple[int, bool] | None:
        """The day's saved daily deal and whether it was verified winnable, or None."""
        row = await self._row("SELECT deal, verified FROM dailies WHERE day = ?", day)
        return None if row is None else (int(row[0]), bool(row[1]))

    async def daily_wins(self, player_id: str) -> list[str]:
        """The days whose ranked daily the player won (for the daily streak)."""
        sql = (
            "SELECT DISTINCT daily FROM games WHERE player_id = ? AND ranked = TRUE "
            "AND result = 'won' AND daily IS NOT NULL ORDER BY daily"
        )
        return [r[0] for r in await self._rows(sql, player_id)]

    # ------------------------------------------------- quick race and ratings
    async def listed_rooms(self, limit: int) -> list[str]:
        sql = (
            "SELECT id FROM rooms WHERE listed IS NOT NULL AND closed IS NULL "
            "ORDER BY listed DESC LIMIT ?"
        )
        return [r[0] for r in await self._rows(sql, limit)]

    async def racing_rooms(self, player_id: str) -> list[str]:
        # A room's games only (a daily's and a practice's logs are rooms' rows too).
        sql = (
            "SELECT DISTINCT g.room_id FROM games g JOIN rooms r ON r.id = g.room_id "
            "WHERE g.player_id = ? AND g.finished IS NULL AND g.daily IS NULL "
            "AND r.closed IS NULL "
            "AND g.room_id NOT LIKE 'practice:%' AND g.room_id NOT LIKE 'daily:%'"
        )
        return [r[0] for r in await self._rows(sql, player_id)]

    async def league_table(self, room_id: str, week: str | None) -> list[JSON]:
        """The league's points per player, of every week or of one (``week``)."""
        where = "l.room_id = ?" + ("" if week is None else " AND l.week = ?")
        sql = (
            "SELECT l.player_id, p.name, SUM(l.points), COUNT(*), "
            "SUM(CASE WHEN l.place = 1 THEN 1 ELSE 0 END) FROM league_points l "
            f"JOIN players p ON p.id = l.player_id WHERE {where} GROUP BY l.player_id, p.name"
        )
        rows = await self._rows(sql, room_id, *(() if week is None else (week,)))
        return [
            {"player": r[0], "name": r[1], "points": int(r[2]), "rounds": int(r[3]),
             "wins": int(r[4])}
            for r in rows
        ]  # fmt: skip

    async def rating_board(self, preset: str, min_races: int, limit: int) -> list[JSON]:
        """The rule set's rated players with at least ``min_races`` races, highest first
        (by the conservative rating, mu - 3 sigma)."""
        sql = (
            "SELECT r.player_id AS player, p.name, r.mu, r.sigma, r.races "
            "FROM ratings r JOIN players p ON p.id = r.player_id "
            "WHERE r.preset = ? AND r.races >= ? "
            "ORDER BY r.mu - 3 * r.sigma DESC, r.player_id LIMIT ?"
        )
        return [dict(r) for r in await self._rows(sql, preset, min_races, limit)]

    async def player_ratings(self, player_id: str) -> list[JSON]:
        """The player's rating in every rule set they raced rated."""
        sql = "SELECT preset, mu, sigma, races FROM ratings WHERE player_id = ? ORDER BY preset"
        return [dict(r) for r in await self._rows(sql, player_id)]

    async def rating_history(self, player_id: str, limit: int = 500) -> list[JSON]:
        """The player's rating changes, oldest first (the history's chart)."""
        sql = (
            f"SELECT {CHANGE_COLUMNS} FROM (SELECT * FROM rating_changes "
            "WHERE player_id = ? ORDER BY created DESC, room_id DESC, round DESC LIMIT ?) "
            "AS recent ORDER BY created, room_id, round"
        )
        return [dict(r) for r in await self._rows(sql, player_id, limit)]
