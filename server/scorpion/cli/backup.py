"""``scorpion backup FILE``: a consistent copy of the database, safe while serving.

A SQLite file is copied with SQLite's backup API, the server secret saved beside it as
FILE.secret (both 0600); restore with ``scorpion restore FILE``. A PostgreSQL database
is dumped with ``pg_dump`` (custom format, 0600; the secret the processes share is in
it); restore with ``pg_restore`` (deploy/README.md).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from scorpion.store import StoreError
from scorpion.web.config import SECRET_FILE, BadSettings, Settings, settings_from


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser("backup", help="copy the database (safe while serving)")
    parser.add_argument("file", type=Path, help="the backup file to write")
    parser.add_argument("--db", default=None, help="[SCORPION_DB] the database (data/scorpion.db)")
    parser.set_defaults(func=run)


def database(command: str, db: str | None) -> tuple[Settings, Path]:
    """The settings and the SQLite file of ``--db`` or SCORPION_DB (backup and restore)."""
    try:
        chosen = settings_from({"db": db})
    except BadSettings as exc:
        raise SystemExit(f"scorpion {command}: {exc}") from None
    if chosen.db.kind != "sqlite" or chosen.db.data_dir is None or chosen.db.path is None:
        raise SystemExit(f"scorpion {command}: only SQLite files are backed up this way")
    return chosen, chosen.db.path


def run(args: argparse.Namespace) -> int:
    from scorpion.store.backup import backup, secret_path

    try:
        given = settings_from({"db": args.db})
    except BadSettings as exc:
        raise SystemExit(f"scorpion backup: {exc}") from None
    if given.db.kind == "postgresql":
        return dump_postgresql(given, args.file)
    chosen, path = database("backup", args.db)
    secret = chosen.secret or None
    kept = path.parent / SECRET_FILE
    if secret is None and kept.is_file():
        secret = kept.read_text().strip()
    try:
        pages = backup(path, args.file, secret)
    except (StoreError, OSError) as exc:
        raise SystemExit(f"scorpion backup: {exc}") from None
    print(f"backed up {path} to {args.file} ({pages} pages)")
    if secret:
        print(f"the secret is in {secret_path(args.file)}: keep both files together, privately")
    else:
        print("no secret found: keep the server's SCORPION_SECRET with the backup")
    return 0


def dump_postgresql(given: Settings, target: Path) -> int:
    from scorpion.store.backup import secret_path
    from scorpion.store.lock import write_private
    from scorpion.store.pg_backup import dump, without_password

    try:
        dump(given.db.url, target)
    except (StoreError, OSError) as exc:
        raise SystemExit(f"scorpion backup: {exc}") from None
    print(f"dumped {without_password(given.db.url)[0]} to {target} (pg_dump, custom format)")
    if given.secret:  # SCORPION_SECRET wins over the one kept in the database: keep it too
        write_private(secret_path(target), given.secret + "\n")
        print(f"the secret is in {secret_path(target)}: keep both files together, privately")
    return 0
