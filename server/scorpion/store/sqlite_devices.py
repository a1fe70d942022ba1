"""The SQLite queries of a player on several devices, recovery codes and name reports.

Tables of schema version 4 (:mod:`.schema`): ``device_tokens`` (more tokens of one
player, beside ``players.token_hash``), ``device_codes`` (one-time codes that move a
player to another device, until they expire), ``recovery_codes`` (one per player) and
``name_reports``. Codes and tokens are SHA-256 hashes; the plain ones are never stored.
Version 5's ``player_devices``: the HMACs of the devices a player was made, claimed or
recovered on, which link players (:meth:`DevicesAndReports.linked_players`).
"""

from __future__ import annotations

import secrets
import sqlite3
import time
from collections.abc import Sequence
from dataclasses import astuple

from . import queries as Q
from .base import Account, SaveReport
from .reads import PLAYER_BY_ID
from .rows import player_from_row
from .sql import marks
from .worker import Op, SQLiteWorker


def add_token(
    c: sqlite3.Connection,
    token_hash: bytes,
    player_id: str,
    how: str,
    agent: str,
    now: float | None = None,
) -> None:
    now = now or time.time()
    c.execute(Q.ADD_TOKEN, (token_hash, player_id, now, how, agent, now))


def revoke(c: sqlite3.Connection, player_id: str, hashes: list[bytes]) -> list[bytes]:
    """Delete the player's tokens among ``hashes`` (a revoked first token is overwritten in
    players with a hash no token has); those that were there."""
    # SQLite's IN lists where PostgreSQL takes arrays (and DELETE ... RETURNING).
    found = [
        bytes(row[0])
        for row in c.execute(
            "SELECT token_hash FROM device_tokens WHERE player_id = ? "
            f"AND token_hash IN ({marks(len(hashes))})",
            (player_id, *hashes),
        )
    ]
    if found:
        listed = marks(len(found))
        c.execute(f"DELETE FROM device_tokens WHERE token_hash IN ({listed})", found)
        c.execute(
            f"UPDATE players SET token_hash = ? WHERE id = ? AND token_hash IN ({listed})",
            (secrets.token_bytes(32), player_id, *found),
        )
    return found


def player_by_id(c: sqlite3.Connection, player_id: str) -> Account | None:
    return player_from_row(c.execute(PLAYER_BY_ID, (player_id,)).fetchone())


def save_report(report: SaveReport) -> Op:
    """The :class:`SaveReport` write."""
    values = astuple(report)
    return lambda c: c.execute(Q.SAVE_REPORT, values)


class DevicesAndReports(SQLiteWorker):
    """Mixed into :class:`~.sqlite.SQLiteStore`."""

    async def add_device_code(self, code_hash: bytes, player_id: str, expires: float) -> None:
        """Keep a one-time code until ``expires`` (expired codes are dropped meanwhile)."""

        def op(c: sqlite3.Connection) -> None:
            c.execute(Q.DROP_EXPIRED_CODES, (time.time(),))
            c.execute(Q.ADD_DEVICE_CODE, (code_hash, player_id, expires))

        await self._write(op)

    async def claim_device_code(
        self, code_hash: bytes, token_hash: bytes, now: float, agent: str = ""
    ) -> Account | None:
        """Use a one-time code (once): its player gets the new token. None when the code
        is unknown, used or expired."""

        def op(c: sqlite3.Connection) -> Account | None:
            row = c.execute(
                "SELECT player_id, expires FROM device_codes WHERE code_hash = ?", (code_hash,)
            ).fetchone()
            if row is None:
                return None
            c.execute("DELETE FROM device_codes WHERE code_hash = ?", (code_hash,))
            if row["expires"] <= now:
                return None
            add_token(c, token_hash, row["player_id"], "device-code", agent)
            return player_by_id(c, row["player_id"])

        result: Account | None = await self._write(op)
        return result

    async def set_recovery_code(self, player_id: str, code_hash: bytes) -> list[bytes]:
        """The player's recovery code (a new one replaces the old one and revokes the
        tokens the old one gave: see :meth:`.base.Store.set_recovery_code`)."""

        def op(c: sqlite3.Connection) -> list[bytes]:
            had = c.execute(
                "SELECT 1 FROM recovery_codes WHERE player_id = ?", (player_id,)
            ).fetchone()
            # Tokens of unknown origin may be the old code's, if there was one.
            also = "unknown" if had else "recovery-code"
            hows = (player_id, "recovery-code", also)
            given = [bytes(row[0]) for row in c.execute(Q.TOKENS_GIVEN, hows)]
            c.execute(Q.SET_RECOVERY_CODE, (player_id, code_hash, time.time()))
            return revoke(c, player_id, given) if given else []

        result: list[bytes] = await self._write(op)
        return result

    async def revoke_tokens(self, player_id: str, token_hashes: Sequence[bytes]) -> list[bytes]:
        """Sign out the player's tokens among ``token_hashes``; those that were theirs."""
        hashes = list(token_hashes)
        if not hashes:
            return []
        result: list[bytes] = await self._write(lambda c: revoke(c, player_id, hashes))
        return result

    async def touch_token(self, token_hash: bytes, now: float) -> None:
        await self._write(lambda c: c.execute(Q.TOUCH_TOKEN, (now, token_hash)))

    async def recover_player(
        self, code_hash: bytes, token_hash: bytes, agent: str = ""
    ) -> Account | None:
        """The player of a recovery code, who gets the new token; None for an unknown code.
        The code stays valid until the player makes a new one."""

        def op(c: sqlite3.Connection) -> Account | None:
            row = c.execute(Q.RECOVERY_PLAYER, (code_hash,)).fetchone()
            if row is None:
                return None
            add_token(c, token_hash, row["player_id"], "recovery-code", agent)
            return player_by_id(c, row["player_id"])

        result: Account | None = await self._write(op)
        return result

    async def add_player_device(self, player_id: str, device_hash: bytes) -> None:
        """Keep that the player was made, claimed or recovered on this device (once)."""
        row = (player_id, device_hash, player_id)
        await self._write(lambda c: c.execute(Q.ADD_PLAYER_DEVICE, row))
