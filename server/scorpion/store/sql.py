"""One SQL text for both stores: written once with ``?`` placeholders (SQLite's style),
translated once per text to asyncpg's ``$1..$n`` by :func:`pg`.

Where the dialects differ the stores keep their own text, and the difference is named
where it stands: upserts that lean on PostgreSQL's ``RETURNING`` or arrays (``= ANY($1)``
for SQLite's ``IN (?, ?, ...)``: :func:`marks`), advisory locks (PostgreSQL only, SQLite
has one writer), fencing (PostgreSQL only) and column types (the schemas).

>>> pg("SELECT id FROM games WHERE player_id = ? AND started < ? LIMIT ?")
'SELECT id FROM games WHERE player_id = $1 AND started < $2 LIMIT $3'
>>> pg("SELECT '?' FROM t WHERE a = ?")  # a question mark in a string stays
"SELECT '?' FROM t WHERE a = $1"
>>> marks(3)
'?, ?, ?'
"""

from __future__ import annotations

import functools


@functools.cache  # a handful of texts, each translated once
def pg(sql: str) -> str:
    """``sql`` with its ``?`` placeholders numbered ``$1..$n`` in order (asyncpg's style);
    a ``?`` inside a quoted string is left alone."""
    out: list[str] = []
    number, quoted = 0, False
    for char in sql:
        if char == "'":
            quoted = not quoted
        elif char == "?" and not quoted:
            number += 1
            out.append(f"${number}")
            continue
        out.append(char)
    return "".join(out)


def marks(count: int) -> str:
    """``count`` placeholders for SQLite's ``IN (...)`` (PostgreSQL takes one array)."""
    return ", ".join("?" * count)
