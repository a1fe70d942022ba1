"""Refusals of the race layer: a stable machine code and a message for people."""

from __future__ import annotations

from typing import Final

# Protocol codes (docs/protocol.md, section 3). Engine refusals keep the engine's codes.
PROTOCOL_CODES: Final = frozenset(
    {
        "bad-json", "too-large", "unknown-type", "missing-field", "bad-field", "old-seq",
        "not-authenticated", "already-authenticated", "bad-token", "unknown-room",
        "unknown-player", "rate-limited", "spectator", "not-your-seat", "not-creator",
        "room-full", "already-started", "nobody-ready", "not-started", "finished",
        "not-finished", "undo-not-allowed", "hints-not-allowed", "not-allowed", "server-error",
        "auto-unknown", "busy", "stale", "room-locked", "removed", "auto-not-allowed",
        "undo-reveals", "not-in-lobby",
    }
)  # fmt: skip


class RaceError(ValueError):
    """A refused command or message. Nothing was changed.

    >>> err = RaceError("spectator", "Spectators cannot move")
    >>> err.code, str(err)
    ('spectator', 'Spectators cannot move')
    """

    def __init__(self, code: str, message: str, seq: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.seq = seq

    def __repr__(self) -> str:
        return f"RaceError({self.code!r}, {self.message!r})"


class SettingsError(ValueError):
    """Room settings that cannot be used (bad preset, time limit, player count...)."""
