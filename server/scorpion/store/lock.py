"""One server per SQLite file, and a database file only its owner can read.

Two processes appending to the same rooms' logs would each replay only their own
moves: :func:`hold` takes an exclusive lock on ``<db>.lock`` (``flock``: the system
drops it when the process ends, even on kill -9) and a second process is refused
with the first one's pid. Within one process the lock is shared (tests run several
apps), counted, and released with the last holder.

The database holds future daily deals, so it is created 0600 like the secret.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

from .base import StoreError


class InUseError(StoreError):
    """The database is held by another process."""


class InstanceLock:
    def __init__(self, path: Path, fd: int) -> None:
        self.path = path
        self._fd = fd
        self.holders = 1

    def release(self) -> None:
        self.holders -= 1
        if self.holders == 0:
            _held.pop(self.path, None)
            os.close(self._fd)  # closing the descriptor drops the flock


_held: dict[Path, InstanceLock] = {}


def lock_path(db: str | Path) -> Path:
    return Path(str(db) + ".lock")


def hold(db: str | Path) -> InstanceLock:
    """Lock the SQLite file ``db`` for this process, or raise :class:`InUseError`."""
    path = lock_path(Path(db).resolve())
    held = _held.get(path)
    if held is not None:
        held.holders += 1
        return held
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        other = os.read(fd, 32).decode(errors="replace").strip() or "?"
        os.close(fd)
        raise InUseError(
            f"{db} is in use by another scorpion process (pid {other}); "
            "one server per SQLite file: stop it first"
        ) from None
    os.ftruncate(fd, 0)
    os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
    lock = _held[path] = InstanceLock(path, fd)
    return lock


def create_private(db: str | Path) -> None:
    """Create the database file 0600 if it does not exist (SQLite gives its -wal and -shm
    files the same mode)."""
    path = Path(db)
    path.parent.mkdir(parents=True, exist_ok=True)
    os.close(os.open(path, os.O_RDWR | os.O_CREAT, 0o600))


def write_private(path: Path, text: str) -> None:
    """Write ``text`` to ``path``, readable by its owner only (0600): the secret, backups."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(text)
    os.chmod(path, 0o600)
