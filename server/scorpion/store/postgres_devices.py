"""The PostgreSQL queries of a player on several devices, recovery codes and name reports.

The same tables (schema version 4, :mod:`.postgres_schema`) and answers as
:mod:`.sqlite_devices`. Codes and tokens are SHA-256 hashes; the plain ones are never
stored. Version 5's ``player_devices`` link players (:meth:`DevicesAndReports.linked_players`).
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Sequence
from dataclasses import astuple

from . import queries as Q
from .base import Account, SaveReport
from .postgres_worker import Conn, PgOp, PostgresWorker
from .reads import PLAYER_BY_ID
from .rows import player_from_row
from .sql import pg


async def add_token(
    c: Conn, token_hash: bytes, player_id: str, how: str, agent: str, now: float | None = None
) -> Account | None:
    """Give the player ``token_hash``; the player."""
    now = now or time.time()
    await c.execute(pg(Q.ADD_TOKEN), token_hash, player_id, now, how, agent, now)
    return player_from_row(await c.fetchrow(pg(PLAYER_BY_ID), player_id))


async def revoke(c: Conn, player_id: str, hashes: list[bytes]) -> list[bytes]:
    """Delete the player's tokens among ``hashes`` (a revoked first token is overwritten in
    players with a hash no token has); those that were there. PostgreSQL's arrays and
    RETURNING where SQLite lists the hashes."""
    rows = await c.fetch(
        "DELETE FROM device_tokens WHERE player_id = $1 AND token_hash = ANY($2::bytea[]) "
        "RETURNING token_hash",
        player_id,
        hashes,
    )
    found = [bytes(row[0]) for row in rows]
    if found:
        await c.execute(
            "UPDATE players SET token_hash = $1 WHERE id = $2 AND token_hash = ANY($3::bytea[])",
            secrets.token_bytes(32),
            player_id,
            found,
        )
    return found


def save_report(report: SaveReport) -> PgOp:
    """The :class:`SaveReport` write."""
    values = astuple(report)
    return lambda c: c.execute(pg(Q.SAVE_REPORT), *values)


class DevicesAndReports(PostgresWorker):
    """Mixed into :class:`~.postgres.PostgresStore`."""

    async def add_device_code(self, code_hash: bytes, player_id: str, expires: float) -> None:
        """Keep a one-time code until ``expires`` (expired codes are dropped meanwhile)."""

        async def op(c: Conn) -> None:
            await c.execute(pg(Q.DROP_EXPIRED_CODES), time.time())
            await c.execute(pg(Q.ADD_DEVICE_CODE), code_hash, player_id, expires)

        await self._write(op)

    async def claim_device_code(
        self, code_hash: bytes, token_hash: bytes, now: float, agent: str = ""
    ) -> Account | None:
        """Use a one-time code (once): its player gets the new token. None when the code
        is unknown, used or expired."""

        async def op(c: Conn) -> Account | None:
            row = await c.fetchrow(
                "DELETE FROM device_codes WHERE code_hash = $1 RETURNING player_id, expires",
                code_hash,
            )
            if row is None or row["expires"] <= now:
                return None
            return await add_token(c, token_hash, row["player_id"], "device-code", agent)

        return await self._write(op)

    async def set_recovery_code(self, player_id: str, code_hash: bytes) -> list[bytes]:
        """The player's recovery code (a new one replaces the old one and revokes the
        tokens the old one gave: see :meth:`.base.Store.set_recovery_code`)."""

        async def op(c: Conn) -> list[bytes]:
            had = await c.fetchval(
                "SELECT 1 FROM recovery_codes WHERE player_id = $1 FOR UPDATE", player_id
            )
            # Tokens of unknown origin may be the old code's, if there was one.
            also = "unknown" if had else "recovery-code"
            rows = await c.fetch(pg(Q.TOKENS_GIVEN), player_id, "recovery-code", also)
            await c.execute(pg(Q.SET_RECOVERY_CODE), player_id, code_hash, time.time())
            given = [bytes(row[0]) for row in rows]
            return await revoke(c, player_id, given) if given else []

        return await self._write(op)

    async def revoke_tokens(self, player_id: str, token_hashes: Sequence[bytes]) -> list[bytes]:
        """Sign out the player's tokens among ``token_hashes``; those that were theirs."""
        hashes = list(token_hashes)
        if not hashes:
            return []
        return await self._write(lambda c: revoke(c, player_id, hashes))

    async def touch_token(self, token_hash: bytes, now: float) -> None:
        await self._write(lambda c: c.execute(pg(Q.TOUCH_TOKEN), now, token_hash))

    async def recover_player(
        self, code_hash: bytes, token_hash: bytes, agent: str = ""
    ) -> Account | None:
        """The player of a recovery code, who gets the new token; None for an unknown code.
        The code stays valid until the player makes a new one."""

        async def op(c: Conn) -> Account | None:
            player_id = await c.fetchval(pg(Q.RECOVERY_PLAYER), code_hash)
            if player_id is None:
                return None
            return await add_token(c, token_hash, player_id, "recovery-code", agent)

        return await self._write(op)

    async def add_player_device(self, player_id: str, device_hash: bytes) -> None:
        """Keep that the player was made, claimed or recovered on this device (once)."""
        row = (player_id, device_hash, player_id)
        await self._write(lambda c: c.execute(pg(Q.ADD_PLAYER_DEVICE), *row))
