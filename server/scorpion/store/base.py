"""The store's interface: players, room logs, game records, the daily and statistics.

Everything the server must not forget goes through one :class:`Store`. The web layer
awaits a write before it acknowledges the command that caused it, so an acknowledged
move survives a crash. Implementations: :mod:`scorpion.store.sqlite` (the default).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

JSON = dict[str, Any]


class StoreError(ValueError):
    """A request the store cannot satisfy (unknown player, duplicate attempt...)."""


class DuplicateError(StoreError):
    """A row that must be unique already exists (for example today's ranked attempt)."""


@dataclass(frozen=True, slots=True)
class Player:
    id: str
    name: str
    created: float


@dataclass(frozen=True, slots=True)
class Room:
    """A room as stored: its settings and, while open, its log (see :meth:`Store.room_log`)."""

    id: str
    creator: str | None
    settings: JSON
    created: float
    closed: float | None = None


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One player's game: the deal, rules, result and every action with its elapsed time.

    ``result`` is None while the game is being played, then one of the race layer's
    statuses: 'won', 'lost', 'gave-up', 'timed-out' or 'left'. ``deal`` is an int
    (deal numbers go up to 2**64-1; the database keeps them as text).
    """

    id: str
    player_id: str
    preset: str
    deal: int
    started: float
    rules: JSON = field(default_factory=dict)
    room_id: str | None = None
    daily: str | None = None  # the UTC day (YYYY-MM-DD) of a daily challenge game
    ranked: bool = False
    finished: float | None = None
    result: str | None = None
    elapsed: float | None = None
    score: int = 0
    runs: int = 0
    moves: int = 0
    turned: int = 0
    actions: list[tuple[str, float | None]] = field(default_factory=list)
    revealed: bool = False  # the deal number may be shown (the round's results are out)


@dataclass(frozen=True, slots=True)
class OpenRoom:
    """Create a room's row. ``reopen`` (dailies): create it if missing, else reopen it if
    closed and mark it active now (``created`` then means "last opened")."""

    room_id: str
    creator: str | None
    settings: JSON
    reopen: bool = False


@dataclass(frozen=True, slots=True)
class AppendLog:
    """Append one entry to an open room's log (replayed after a restart)."""

    room_id: str
    entry: JSON


@dataclass(frozen=True, slots=True)
class CloseRoom:
    """Mark a room closed and drop its log: its games live on as game records."""

    room_id: str


@dataclass(frozen=True, slots=True)
class SaveGame:
    """Insert or update a game record (an update keeps the first ``started``).

    Skipped when the player no longer exists (they deleted their data mid-game).
    """

    record: GameRecord


@dataclass(frozen=True, slots=True)
class ClaimDaily:
    """Record a player's ranked attempt of a day (kept if one is already recorded)."""

    day: str
    player_id: str
    game_id: str


@dataclass(frozen=True, slots=True)
class Reveal:
    """Mark games whose deal number may now be shown (their round's results are out)."""

    game_ids: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class SaveDaily:
    """Keep a day's daily deal (the first one saved for a day stays)."""

    day: str
    deal: int
    verified: bool


Write = SaveDaily | Reveal | OpenRoom | AppendLog | CloseRoom | SaveGame | ClaimDaily


class Store(Protocol):
    """Persistence for the race server. Every method is a coroutine; none blocks the loop."""

    async def open(self) -> None: ...
    async def close(self) -> None: ...
    async def ping(self) -> bool: ...
    async def write(self, writes: Sequence[Write]) -> None:
        """Apply several writes in one transaction; return once it is committed."""
        ...

    # players
    async def create_player(self, player_id: str, token_hash: bytes, name: str) -> Player: ...
    async def player_by_token(self, token_hash: bytes) -> Player | None: ...
    async def player(self, player_id: str) -> Player | None: ...
    async def rename_player(self, player_id: str, name: str) -> Player: ...
    async def delete_player(self, player_id: str) -> bool: ...
    async def purge(self, before: float) -> int:
        """Delete what ended before ``before``: game records, closed rooms (retention)."""
        ...

    # rooms and their logs (replayed after a restart)
    async def create_room(self, room_id: str, creator: str | None, settings: JSON) -> Room: ...
    async def room(self, room_id: str) -> Room | None: ...
    async def open_rooms(self) -> list[Room]: ...
    async def append_room_log(self, room_id: str, entries: Sequence[JSON]) -> int: ...
    async def room_log(self, room_id: str) -> list[JSON]: ...
    async def open_room_logs(self) -> list[tuple[str, JSON]]: ...
    async def close_rooms_before(self, prefix: str, created_before: float) -> int: ...
    async def close_room(self, room_id: str) -> None: ...

    # game records
    async def save_game(self, record: GameRecord) -> None: ...
    async def game(self, game_id: str) -> GameRecord | None: ...
    async def player_games(
        self, player_id: str, limit: int = 50, before: float | None = None
    ) -> list[GameRecord]: ...
    async def results(self, player_id: str) -> list[tuple[str, str]]: ...

    # the daily challenge
    async def claim_daily(self, day: str, player_id: str, game_id: str) -> None: ...
    async def daily_attempt(self, day: str, player_id: str) -> str | None: ...
    async def daily_entries(self, day: str, limit: int = 1000) -> list[JSON]: ...
    async def daily_deal(self, day: str) -> tuple[int, bool] | None: ...
    async def daily_wins(self, player_id: str) -> list[str]: ...
