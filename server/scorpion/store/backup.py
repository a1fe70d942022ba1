"""Backups of a SQLite database with SQLite's online backup API (safe while serving).

A backup is a consistent copy of the database at one instant, taken page by page
without stopping the server (in WAL mode readers never block the writer). The
server secret, which derives the daily deals and is needed to make sense of the
future ones, is saved beside it as ``<backup>.secret``. Both files are 0600.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from . import lock
from .base import StoreError
from .schema import VERSION

PAGES_PER_STEP = 1024  # copy in steps: the server's writes go on between them


def secret_path(backup: Path) -> Path:
    return Path(str(backup) + ".secret")


def backup(db: Path, target: Path, secret: str | None) -> int:
    """Copy ``db`` to ``target`` (replacing it) and ``secret`` to ``target.secret``.
    Returns the number of pages copied."""
    if not db.is_file():
        raise StoreError(f"no database at {db}")
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    lock.create_private(partial)
    source = sqlite3.connect(db)
    dest = sqlite3.connect(partial)
    try:
        source.backup(dest, pages=PAGES_PER_STEP)
        pages = int(dest.execute("PRAGMA page_count").fetchone()[0])
    except sqlite3.Error as exc:
        raise StoreError(f"backup of {db} failed: {exc}") from None
    finally:
        dest.close()
        source.close()
    partial.replace(target)  # a crash mid-way never leaves a half backup under the name
    if secret:
        lock.write_private(secret_path(target), secret + "\n")
    return pages


def restore(backup_file: Path, db: Path, *, replace: bool = False) -> str | None:
    """Copy ``backup_file`` into ``db`` (no server may be running on it) and return the
    secret saved with the backup, if any."""
    try:
        source = sqlite3.connect(f"file:{backup_file}?mode=ro", uri=True)
        version = source.execute("PRAGMA user_version").fetchone()[0]
    except sqlite3.Error as exc:
        raise StoreError(f"{backup_file} is not a Scorpion Race backup: {exc}") from None
    try:
        if not 1 <= version <= VERSION:
            raise StoreError(f"{backup_file} is not a Scorpion Race backup (schema {version})")
        held = lock.hold(db)  # refuses while a server holds the database
        try:
            if db.exists() and db.stat().st_size > 0 and not replace:
                raise StoreError(f"{db} exists: stop using it, then restore with --replace")
            lock.create_private(db)
            dest = sqlite3.connect(db)
            try:
                source.backup(dest)
            finally:
                dest.close()
        finally:
            held.release()
    finally:
        source.close()
    saved = secret_path(backup_file)
    return saved.read_text().strip() if saved.is_file() else None
