"""``scorpion restore FILE``: put a backup back (the server must be stopped).

The database (``--db`` or SCORPION_DB) is replaced only with ``--replace``; the
secret saved with the backup is written beside it (0600) unless SCORPION_SECRET
gives one.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from scorpion.store import StoreError
from scorpion.store.lock import write_private
from scorpion.web.config import SECRET_FILE

from .backup import database


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser("restore", help="restore a backup (server stopped)")
    parser.add_argument("file", type=Path, help="a file written by scorpion backup")
    parser.add_argument("--db", default=None, help="[SCORPION_DB] the database (data/scorpion.db)")
    parser.add_argument("--replace", action="store_true", help="replace an existing database")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from scorpion.store.backup import restore

    chosen, path = database("restore", args.db)
    try:
        secret = restore(args.file, path, replace=args.replace)
        if secret and not chosen.secret:
            write_private(path.parent / SECRET_FILE, secret + "\n")
    except (StoreError, OSError) as exc:
        raise SystemExit(f"scorpion restore: {exc}") from None
    print(f"restored {args.file} to {path}")
    if secret and chosen.secret and secret != chosen.secret:
        print("note: SCORPION_SECRET differs from the backup's secret: tokens still work, "
              "but days not prepared yet get other deals")  # fmt: skip
    return 0
