"""``scorpion serve``: run the race server (HTTP API, websockets, the browser client).

Every flag is also a SCORPION_* variable (``--daily-search`` is SCORPION_DAILY_SEARCH);
a flag wins. The defaults are 127.0.0.1:8000 and data/scorpion.db, with a secret
generated and kept in data/secret on first run (kept in the database with a
postgresql:// URL, or SCORPION_SECRET). Settings are validated by
:mod:`scorpion.web.config`: a bad one stops the start with a one-line message.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
from typing import Any

from scorpion.store.base import StoreError
from scorpion.web.config import (
    BadSettings,
    Database,
    Settings,
    find_client_dir,
    load_secret,
    settings_from,
    shared_secret,
)

log = logging.getLogger("scorpion.web")

# flag -> help; each flag's value is a string checked by Settings, like its variable's.
FLAGS = {
    "host": "address to listen on (127.0.0.1)",
    "port": "port (8000)",
    "db": "a SQLite file, sqlite:///PATH or postgresql://... (data/scorpion.db)",
    "secret": "the server secret (default: kept in 'secret' beside a SQLite file)",
    "client": "the browser client's folder (default: the one installed with scorpion)",
    "grace": "seconds a disconnected player keeps their seat (60)",
    "room_idle_close": "seconds an empty room in its lobby or results stays open (3600)",
    "limits": 'JSON overriding limits, e.g. {"rate": 50}',
    "daily_search": "solver (winnable daily deals) or none (unverified, for tests)",
    "shortcuts": "on, or off: the plain path where we lean on library internals for speed",
    "log_level": "critical, error, warning, info or debug (info)",
    "log_format": "text (readable lines) or json (one object a line)",
    "retention_days": "days game records and closed rooms are kept (default: for ever)",
    "trusted_proxies": "comma-separated addresses whose X-Forwarded-For is believed (none)",
    "redis": "redis://host:port: one of several processes on one PostgreSQL database",
    "lease_ttl": "seconds before a silent process's rooms are taken over (2)",
}


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser("serve", help="run the race server")
    for name, text in FLAGS.items():
        flag = "--" + name.replace("_", "-")
        parser.add_argument(flag, dest=name, default=None, help=f"[SCORPION_{name.upper()}] {text}")
    parser.set_defaults(func=run)


def settings(args: argparse.Namespace) -> Settings:
    """The validated settings of ``args`` over the environment, with the secret loaded and
    the client found, or SystemExit with a one-line message."""
    try:
        given = settings_from({name: getattr(args, name) for name in FLAGS})
    except BadSettings as exc:
        raise SystemExit(f"scorpion serve: {exc}") from None
    client = find_client_dir(given.client)
    if client is None:
        where = f"{given.client} has no index.html" if given.client else "none is installed"
        raise SystemExit(f"scorpion serve: no browser client ({where}): give --client FOLDER")
    source = "--db" if args.db is not None else "SCORPION_DB"
    if given.db.kind == "postgresql":
        check_database(given.db, source)
    try:
        if given.db.kind == "postgresql":  # every process on the database shares one secret
            secret = given.secret or shared_secret(given.db.url)
        else:
            secret = load_secret(given.secret, given.db.data_dir)
    except BadSettings as exc:
        raise SystemExit(f"scorpion serve: {exc}") from None
    except StoreError as exc:  # PostgreSQL away for longer than the store waits at start
        raise SystemExit(f"scorpion serve: {source} ({given.db}): {exc}") from None
    except OSError as exc:
        raise SystemExit(f"scorpion serve: cannot keep the secret: {exc}") from None
    return given.model_copy(update={"secret": secret, "client": client})


def check_database(db: Database, source: str) -> None:
    """Stop with one line naming the setting when PostgreSQL refuses us for good (a wrong
    password, an unknown host, role or database); one that is away is waited for."""
    import asyncio

    from scorpion.store.postgres_connect import DatabaseRefused, check

    try:
        asyncio.run(check(db.url))
    except DatabaseRefused as exc:
        raise SystemExit(f"scorpion serve: {source} ({db}): {exc}") from None


def run(args: argparse.Namespace) -> int:
    from scorpion.store.lock import InUseError, hold
    from scorpion.web import logs
    from scorpion.web.server import run as run_server

    chosen = settings(args)
    log_config = logs.setup(chosen.log_level, chosen.log_format)
    lock = None
    if chosen.db.kind == "sqlite" and chosen.db.data_dir is not None:
        try:
            lock = hold(chosen.db.path)  # type: ignore[arg-type]
        except InUseError as exc:
            raise SystemExit(f"scorpion serve: {exc}") from None
    import scorpion

    log.info(
        "scorpion %s starting on http://%s:%d (database %s, client %s, log %s %s)",
        scorpion.__version__, chosen.host, chosen.port, chosen.db, chosen.client,
        chosen.log_level, chosen.log_format,
    )  # fmt: skip
    try:
        with contextlib.suppress(KeyboardInterrupt):  # uvicorn re-raises Ctrl+C after a stop
            run_server(chosen, log_config)
    finally:
        if lock is not None:
            lock.release()
    return 0
