"""The SQLite queries of the quick race: its queue and the ratings (schema version 9).

``quick_queue`` holds one row per waiting player; a step of the queue (race/quick.py) reads
every row and writes back what changed in one transaction (the SQLite worker runs one
transaction at a time: steps never interleave). ``ratings`` holds each player's rating per
rule set; ``rating_changes`` each rated round's change per player, keyed by the round, so a
round is rated once however often it is asked for.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from . import queries as Q
from .base import JSON, ListRoom, QueueStep, RateStep, T
from .rows import QUEUE_COLUMNS
from .sql import marks
from .worker import Op, SQLiteWorker


def queue_row(row: sqlite3.Row) -> JSON:
    return {
        "player": row["player_id"],
        "name": row["name"],
        "preset": row["preset"],
        "joined": row["joined"],
        "seen": row["seen"],
        "room": row["room_id"],
        "formed": row["formed"],
    }


def list_room(w: ListRoom) -> Op:
    """The :class:`ListRoom` write (the open rooms: a closed room is never listed)."""
    return lambda c: c.execute(Q.LIST_ROOM, (w.at, w.room_id))


class QuickAndRatings(SQLiteWorker):
    """Mixed into :class:`~.sqlite.SQLiteStore`."""

    async def quick_step(
        self,
        step: QueueStep[T],
        *,
        players: Sequence[str] = (),
        room: str | None = None,
        placed_before: float | None = None,
    ) -> T:
        """Run ``step`` on the rows it may need (:meth:`.base.Store.quick_step`); write the
        rows it changed."""
        wanted = f"room_id IS NULL OR room_id = ? OR player_id IN ({marks(len(players))})"

        def op(c: sqlite3.Connection) -> T:
            if placed_before is not None:
                c.execute(Q.DROP_PLACED, (placed_before,))
            read = c.execute(
                f"SELECT {QUEUE_COLUMNS} FROM quick_queue WHERE {wanted}", (room, *players)
            )
            rows = [queue_row(r) for r in read]
            written, gone, result = step(rows)
            c.executemany(
                Q.QUEUE_WRITE,
                [
                    (r["player"], r["name"], r["preset"], r["joined"], r["seen"], r["room"],
                     r["formed"])
                    for r in written
                ],
            )  # fmt: skip
            c.executemany("DELETE FROM quick_queue WHERE player_id = ?", [(p,) for p in gone])
            return result

        return await self._write(op)

    async def rate_round(
        self, room_id: str, round_: int, preset: str, players: Sequence[str], rate: RateStep,
        now: float,
    ) -> list[JSON] | None:  # fmt: skip
        """Rate a round once: None when it was rated already, else each player's change
        (``rate`` gets the players' current ratings, absent for a new player)."""

        def op(c: sqlite3.Connection) -> list[JSON] | None:
            if c.execute(Q.ROUND_RATED, (room_id, round_)).fetchone() is not None:
                return None
            current = {
                r["player_id"]: {"mu": r["mu"], "sigma": r["sigma"], "races": r["races"]}
                for r in c.execute(
                    f"SELECT player_id, mu, sigma, races FROM ratings "
                    f"WHERE preset = ? AND player_id IN ({marks(len(players))})",
                    (preset, *players),
                )
            }
            changes = rate(current)
            for ch in changes:
                c.execute(
                    Q.RATE,
                    (ch["player"], preset, ch["mu_after"], ch["sigma_after"], now, ch["player"]),
                )
                c.execute(
                    Q.RATING_CHANGE,
                    (room_id, round_, ch["player"], preset, ch["place"], ch["mu_before"],
                     ch["sigma_before"], ch["mu_after"], ch["sigma_after"], now, ch["player"]),
                )  # fmt: skip
                ch["races"] = current.get(ch["player"], {}).get("races", 0) + 1
            return changes

        return await self._write(op)

    async def league_round(
        self, room_id: str, round_: int, week: str, points: Sequence[JSON], now: float
    ) -> bool:
        def op(c: sqlite3.Connection) -> bool:
            if c.execute(Q.LEAGUE_ROUND_KEPT, (room_id, round_)).fetchone() is not None:
                return False
            c.executemany(
                Q.LEAGUE_POINTS,
                [
                    (room_id, round_, p["player"], p["name"], p["place"], p["points"], week, now,
                     p["player"])
                    for p in points
                ],
            )  # fmt: skip
            return True

        return await self._write(op)
