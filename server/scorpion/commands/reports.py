"""``scorpion reports``: the names players reported as offensive, newest first (for the
operator; nobody else can read them).

Reads the server's database (``--db``, or SCORPION_DB: a SQLite file or a postgresql://
URL), which may be in use by a running server.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import json
from typing import Any

from scorpion.store import JSON, SQLiteStore, Store, StoreError, open_store
from scorpion.web.config import BadSettings, Database, settings_from

OPEN_TIMEOUT = 30.0  # seconds


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser("reports", help="names reported as offensive")
    parser.add_argument("--db", default=None, help="[SCORPION_DB] the server's database: a "
                        "SQLite file or postgresql://... (data/scorpion.db)")  # fmt: skip
    parser.add_argument("--limit", type=int, default=100, help="at most this many (newest)")
    parser.add_argument("--json", action="store_true", help="one JSON object a line")
    parser.set_defaults(func=run)


def reader(db: Database) -> Store:
    """The store to read ``db`` with; a SQLite file read-only, beside the server that holds
    it (one server per file)."""
    if db.kind == "postgresql":
        return open_store(db.url)
    assert db.path is not None
    return SQLiteStore(db.path, read_only=True)


async def _read(db: Database, limit: int) -> list[JSON]:
    store = reader(db)
    # PostgreSQL: open() waits while the database is away; an operator's command gives up.
    await asyncio.wait_for(store.open(), OPEN_TIMEOUT)
    try:
        return await store.name_reports(limit)
    finally:
        await store.close()


def line(report: JSON) -> str:
    """One report for people: when, the name (quoted: it is text), who, where and why.

    >>> line({"created": 0, "name": "Bo", "player_id": "p_b", "reporter_id": "p_c",
    ...       "room_id": "r1", "reason": ""})
    '1970-01-01 00:00 UTC  "Bo" (p_b) reported by p_c in r1'
    """
    when = dt.datetime.fromtimestamp(report["created"], dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
    text = f"{when}  {json.dumps(report['name'], ensure_ascii=True)} ({report['player_id']})"
    text += f" reported by {report['reporter_id']} in {report['room_id']}"
    return text + (f": {json.dumps(report['reason'])}" if report["reason"] else "")


def run(args: argparse.Namespace) -> int:
    try:
        db = settings_from({"db": args.db}).db
        reports = asyncio.run(_read(db, max(1, args.limit)))
    except BadSettings as exc:
        raise SystemExit(f"scorpion reports: {exc}") from None
    except TimeoutError:
        raise SystemExit("scorpion reports: cannot reach the database") from None
    except StoreError as exc:
        raise SystemExit(f"scorpion reports: {exc}") from None
    for report in reports:
        print(json.dumps(report) if args.json else line(report))
    if not reports and not args.json:
        print("No names reported.")
    return 0
