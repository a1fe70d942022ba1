"""The PostgreSQL queries of the quick race: its queue and the ratings (schema version 9).

The same tables and answers as :mod:`.sqlite_quick`. Every process shares the queue: a step
takes a transaction-scoped advisory lock, so steps run one at a time across processes, on a
connection of its own (never inside the group commit of moves, which must not wait for it).
A round is rated under a lock of its own and at most once (its rows are keyed by the round).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from . import queries as Q
from .base import JSON, ListRoom, QueueStep, RateStep, T
from .postgres_worker import Conn, PgOp, PostgresWorker
from .rows import QUEUE_COLUMNS
from .sql import pg

QUEUE_LOCK: Final = 0x5C0E_0009  # one queue step at a time, across processes
RATING_LOCK: Final = 0x5C0E_000A  # one round rated at a time (rounds end a few a second)
LEAGUE_LOCK: Final = 0x5C0E_000B  # one league round's points kept at a time


def list_room(w: ListRoom) -> PgOp:
    """The :class:`ListRoom` write (see sqlite_quick)."""
    return lambda c: c.execute(pg(Q.LIST_ROOM), w.at, w.room_id)


class QuickAndRatings(PostgresWorker):
    """Mixed into :class:`~.postgres.PostgresStore`."""

    async def league_round(
        self, room_id: str, round_: int, week: str, points: Sequence[JSON], now: float
    ) -> bool:
        async def op(c: Conn) -> bool:
            async with c.transaction():
                await c.execute("SELECT pg_advisory_xact_lock($1)", LEAGUE_LOCK)
                if await c.fetchval(pg(Q.LEAGUE_ROUND_KEPT), room_id, round_) is not None:
                    return False
                await c.executemany(
                    pg(Q.LEAGUE_POINTS + " ON CONFLICT DO NOTHING"),  # PostgreSQL's, as before
                    [
                        (room_id, round_, p["player"], p["name"], p["place"], p["points"],
                         week, now, p["player"])
                        for p in points
                    ],
                )  # fmt: skip
                return True

        return await self._read(op)

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

        async def op(c: Conn) -> T:
            async with c.transaction():
                await c.execute("SELECT pg_advisory_xact_lock($1)", QUEUE_LOCK)
                if placed_before is not None:
                    await c.execute(pg(Q.DROP_PLACED), placed_before)
                rows = [
                    {
                        "player": r["player_id"], "name": r["name"], "preset": r["preset"],
                        "joined": r["joined"], "seen": r["seen"], "room": r["room_id"],
                        "formed": r["formed"],
                    }
                    for r in await c.fetch(
                        f"SELECT {QUEUE_COLUMNS} FROM quick_queue WHERE room_id IS NULL "
                        "OR room_id = $1 OR player_id = ANY($2)",
                        room,
                        list(players),
                    )
                ]  # fmt: skip
                written, gone, result = step(rows)
                if written:
                    await c.executemany(
                        pg(Q.QUEUE_WRITE),
                        [
                            (r["player"], r["name"], r["preset"], r["joined"], r["seen"],
                             r["room"], r["formed"])
                            for r in written
                        ],
                    )  # fmt: skip
                if gone:
                    await c.execute("DELETE FROM quick_queue WHERE player_id = ANY($1)", gone)
                return result

        return await self._read(op)

    async def rate_round(
        self, room_id: str, round_: int, preset: str, players: Sequence[str], rate: RateStep,
        now: float,
    ) -> list[JSON] | None:  # fmt: skip
        """Rate a round once: None when it was rated already (see sqlite_quick)."""

        async def op(c: Conn) -> list[JSON] | None:
            async with c.transaction():
                await c.execute("SELECT pg_advisory_xact_lock($1)", RATING_LOCK)
                if await c.fetchval(pg(Q.ROUND_RATED), room_id, round_) is not None:
                    return None
                current = {
                    r["player_id"]: {"mu": r["mu"], "sigma": r["sigma"], "races": r["races"]}
                    for r in await c.fetch(
                        "SELECT player_id, mu, sigma, races FROM ratings "
                        "WHERE preset = $1 AND player_id = ANY($2)",
                        preset,
                        list(players),
                    )
                }
                changes = rate(current)
                for ch in changes:
                    await c.execute(
                        pg(Q.RATE),
                        ch["player"], preset, ch["mu_after"], ch["sigma_after"], now, ch["player"],
                    )  # fmt: skip
                    await c.execute(
                        pg(Q.RATING_CHANGE),
                        room_id, round_, ch["player"], preset, ch["place"], ch["mu_before"],
                        ch["sigma_before"], ch["mu_after"], ch["sigma_after"], now, ch["player"],
                    )  # fmt: skip
                    ch["races"] = current.get(ch["player"], {}).get("races", 0) + 1
                return changes

        return await self._read(op)
