"""SQL on a server's database behind its back, on either backend (a SQLite file or a
postgresql:// URL): what a test sets up or checks that no API reaches."""

from __future__ import annotations

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
