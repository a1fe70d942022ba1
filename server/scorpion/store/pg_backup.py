"""Backups of a PostgreSQL database with ``pg_dump`` (a consistent snapshot while serving).

The dump (custom format: compressed, ``pg_restore`` reads it) holds everything, the
server secret kept in the database included: it is made 0600 whatever the umask, under
a temporary name first, so a failed dump never leaves a partial file under the name
asked for. The password travels in ``PGPASSWORD``, never on a command line others see.

>>> without_password("postgresql://scorpion:s3cret@db:5432/scorpion?sslmode=require")
('postgresql://scorpion@db:5432/scorpion?sslmode=require', 's3cret')
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from urllib.parse import unquote, urlsplit, urlunsplit

from . import lock
from .base import StoreError

DUMP_TIMEOUT = 3600.0  # seconds: a dump that takes longer is stuck


def without_password(url: str) -> tuple[str, str | None]:
    """The URL without its password, and the password."""
    parts = urlsplit(url)
    if parts.password is None:
        return url, None
    user = parts.username or ""
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    netloc = f"{user}@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc)), unquote(parts.password)


def pg_dump_program() -> str:
    """``pg_dump`` on the PATH, else the newest one Debian's packages install."""
    found = shutil.which("pg_dump")
    if found is not None:
        return found
    installed = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/pg_dump"), key=lambda p: int(p.parts[-3])
    )
    if not installed:
        raise StoreError("pg_dump is not installed (Debian: apt-get install postgresql-client)")
    return str(installed[-1])


def dump(url: str, target: Path) -> None:
    """``pg_dump -Fc`` of ``url`` into ``target`` (replacing it), mode 0600."""
    plain, password = without_password(url)
    env = {**os.environ}
    if password is not None:
        env["PGPASSWORD"] = password
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    lock.create_private(partial)  # pg_dump keeps the mode of a file it truncates
    try:
        done = subprocess.run(
            [pg_dump_program(), "--format=custom", "--file", str(partial), "--dbname", plain],
            env=env,
            capture_output=True,
            text=True,
            timeout=DUMP_TIMEOUT,
            umask=0o077,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        partial.unlink(missing_ok=True)
        raise StoreError(f"pg_dump failed: {exc}") from None
    if done.returncode != 0:
        partial.unlink(missing_ok=True)
        raise StoreError(f"pg_dump failed: {done.stderr.strip()}")
    partial.chmod(0o600)
    partial.replace(target)
