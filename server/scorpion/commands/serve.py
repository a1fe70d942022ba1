"""``scorpion serve``: run the race server (HTTP API, websockets, the browser client).

Flags override SCORPION_HOST, SCORPION_PORT, SCORPION_DB and SCORPION_SECRET; the
defaults are 127.0.0.1:8000 and data/scorpion.db, with a secret generated and kept
in data/secret on first run (kept in the database with a postgresql:// URL).
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import logging
from pathlib import Path
from typing import Any

from scorpion.store import is_database_url
from scorpion.web.config import (
    DEFAULT_DATA,
    Settings,
    env,
    limits_from_json,
    load_secret,
    shared_secret,
)


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser("serve", help="run the race server")
    parser.add_argument("--host", default=env("HOST", "127.0.0.1"), help="[SCORPION_HOST]")
    parser.add_argument("--port", type=int, default=env("PORT", "8000"),
                        help="[SCORPION_PORT] 8000")  # fmt: skip
    parser.add_argument("--db", default=env("DB") or str(DEFAULT_DATA / "scorpion.db"),
                        help="[SCORPION_DB] SQLite file, created on first run, "
                             "or postgresql://user:password@host:port/database")  # fmt: skip
    parser.add_argument("--secret", default=env("SECRET"),
                        help="[SCORPION_SECRET] (default: kept beside --db)")  # fmt: skip
    parser.add_argument("--client", type=Path, default=None,
                        help="the browser client (default: client/ of the repo)")  # fmt: skip
    parser.add_argument("--grace", type=float, default=60.0,
                        help="seconds a disconnected player keeps their seat")  # fmt: skip
    parser.add_argument("--limits", default=env("LIMITS"),
                        help='[SCORPION_LIMITS] JSON, e.g. {"rate": 50}')  # fmt: skip
    parser.add_argument("--daily-search", default=env("DAILY_SEARCH", "solver"),
                        choices=["solver", "none"],
                        help="[SCORPION_DAILY_SEARCH] winnable deals or none")  # fmt: skip
    parser.add_argument("--redis", default=env("REDIS"),
                        help="[SCORPION_REDIS] redis://host:port: run as one of several "
                             "processes on one PostgreSQL database (docs/scaling.md)")  # fmt: skip
    parser.add_argument("--lease-ttl", type=float, default=2.0,
                        help="seconds before a silent process's rooms are taken over")  # fmt: skip
    parser.add_argument("--log-level", default=env("LOG_LEVEL", "info"),
                        choices=["critical", "error", "warning", "info", "debug"])  # fmt: skip
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from scorpion.web.server import run as run_server

    if not 0 < args.port < 65536:
        raise SystemExit(f"scorpion serve: --port must be 1-65535, not {args.port}")
    try:
        limits = limits_from_json(args.limits)
    except ValueError as exc:
        raise SystemExit(f"scorpion serve: {exc}") from None
    db: str | Path = args.db
    if args.redis and not is_database_url(db):
        raise SystemExit("scorpion serve: --redis needs --db postgresql://... (shared by all)")
    if is_database_url(db):
        secret = args.secret or shared_secret(args.db)
    else:
        db = Path(db)
        try:
            secret = load_secret(args.secret, db.parent)
            db.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise SystemExit(f"scorpion serve: cannot use {db.parent}: {exc}") from None
    settings = dataclasses.replace(
        Settings(),
        host=args.host,
        port=args.port,
        db=db,
        secret=secret,
        client_dir=args.client,
        grace=args.grace,
        limits=limits,
        daily_search=args.daily_search,
        redis=args.redis or None,
        lease_ttl=args.lease_ttl,
    )
    logging.basicConfig(level=args.log_level.upper(), format="%(levelname)s %(name)s: %(message)s")
    with contextlib.suppress(KeyboardInterrupt):  # uvicorn re-raises Ctrl+C after a clean stop
        run_server(settings, args.log_level)
    return 0
