"""SQL on a server's database behind its back, on either backend (a SQLite file or a
postgresql:// URL): what a test sets up or checks that no API reaches."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import asyncpg


async def query(db: Path | str, sql: str) -> list[tuple[Any, ...]]:
    """Run one statement (no parameters); its rows."""
    if "://" in str(db):
        conn = await asyncpg.connect(str(db))
        try:
            return [tuple(row) for row in await conn.fetch(sql)]
        finally:
            await conn.close()
    with closing(sqlite3.connect(db)) as conn, conn:
        return conn.execute(sql).fetchall()


async def script(db: Path | str, sql: str) -> None:
    """Run several statements (no parameters) in one transaction."""
    if "://" in str(db):
        conn = await asyncpg.connect(str(db))
        try:
            async with conn.transaction():
                await conn.execute(sql)
        finally:
            await conn.close()
        return
    with closing(sqlite3.connect(db)) as conn:
        conn.executescript(f"BEGIN; {sql}; COMMIT;")


async def past_daily_results(
    db: Path | str, date: str, deal: int, games: list[tuple[str, float, int, list[Any]]]
) -> None:
    """Ranked daily games of ``date``, each given up, stored as the server of that day left
    them: ``games`` are (player id, elapsed, moves, actions [[text, elapsed], ...])."""
    ranked = "TRUE" if "://" in str(db) else "1"
    rows = []
    for player, elapsed, moves, actions in games:
        gid = f"daily:{date}:1:{player}"
        rows.append(
            "INSERT INTO games (id, player_id, daily, ranked, preset, rules, deal, started, "
            "finished, result, elapsed, moves, actions) VALUES "
            f"('{gid}', '{player}', '{date}', {ranked}, 'classic', '{{\"preset\": \"classic\"}}', "
            f"'{deal}', 1.0, 2.0, 'gave-up', {elapsed}, {moves}, '{json.dumps(actions)}');"
            "INSERT INTO daily_attempts (day, player_id, game_id) "
            f"VALUES ('{date}', '{player}', '{gid}')"
        )
    await script(db, ";".join(rows))
