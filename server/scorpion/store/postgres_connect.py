"""Why a PostgreSQL URL cannot be used, in one line: the errors no wait will mend.

A database that is down or restarting (a refused connection) is waited for (see
:mod:`.postgres_worker`); a wrong password, an unknown role or database, or a host name
that does not resolve will not mend by waiting: the server stops at once, saying so.
"""

from __future__ import annotations

import socket
from urllib.parse import urlsplit

import asyncpg

from .base import StoreError

# getaddrinfo's "no such name" answers (EAI_AGAIN, a DNS server away, is worth a wait).
_NO_SUCH_NAME = {socket.EAI_NONAME, getattr(socket, "EAI_NODATA", socket.EAI_NONAME)}


class DatabaseRefused(StoreError):
    """The database cannot be used with this URL, and waiting will not change that."""


def host_of(url: str) -> str:
    """The host and port of a postgresql:// URL, without the user or the password.

    >>> host_of("postgresql://race:hush@db.invalid:5433/race")
    'db.invalid:5433'
    >>> host_of("postgresql://race@db/race")
    'db'
    """
    parts = urlsplit(url)
    host = parts.hostname or "localhost"
    return f"{host}:{parts.port}" if parts.port else host


def lasting(exc: BaseException, url: str) -> str | None:
    """The cause of ``exc`` in a few words when it is one no wait will mend, else None."""
    if isinstance(exc, socket.gaierror) and exc.errno in _NO_SUCH_NAME:
        host = urlsplit(url).hostname or "localhost"
        return f"the host {host!r} is unknown (it does not resolve)"
    # A wrong password (asyncpg never repeats it), an unknown role, no such database.
    if isinstance(exc, asyncpg.InvalidAuthorizationSpecificationError):
        return str(exc)
    if isinstance(exc, asyncpg.InvalidCatalogNameError):
        return str(exc)
    return None


async def check(url: str, timeout: float = 10.0) -> None:
    """Connect once to ``url``: :class:`DatabaseRefused` if it cannot be used; nothing
    else is raised (a database that is away is waited for later, by the store)."""
    try:
        conn = await asyncpg.connect(url, timeout=timeout)
    except Exception as exc:
        cause = lasting(exc, url)
        if cause is not None:
            raise DatabaseRefused(cause) from None
        return
    await conn.close()
