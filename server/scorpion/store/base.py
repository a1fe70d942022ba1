"""The store's interface: players, room logs, game records, the daily and statistics.

Everything the server must not forget goes through one :class:`Store`. Every change
but a player's own (create, rename, delete) is a :data:`Write` given to
:meth:`Store.write`, the one write path. The web layer awaits a write before it
acknowledges the command that caused it, so an acknowledged move survives a crash.
Implementations: :mod:`scorpion.store.sqlite` (the default) and
:mod:`scorpion.store.postgres`; :func:`scorpion.store.open_store` picks one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeAlias, TypeVar

JSON = dict[str, Any]
T = TypeVar("T")

# A step of the quick race's queue (race/quick.py): every waiting row in, the rows to write,
# the players whose rows go and the step's answer out. Run in one transaction.
QueueStep: TypeAlias = Callable[[list[JSON]], tuple[list[JSON], list[str], T]]
# A round's rating (race/rating.py): the players' current ratings ({"mu", "sigma", "races"},
# absent for a new player) in, each player's change out ({"player", "place", "mu_before",
# "sigma_before", "mu_after", "sigma_after"}).
RateStep: TypeAlias = Callable[[dict[str, JSON]], list[JSON]]

# A player's linked group (players made, claimed or recovered on a shared device) is read
# in at most LINK_ROUNDS rounds (players up to that many shared devices away) and holds at
# most MAX_LINKED players besides the player: one read costs at most LINK_ROUNDS queries.
LINK_ROUNDS = 4
MAX_LINKED = 50


class StoreError(ValueError):
    """A request the store cannot satisfy (unknown player, duplicate attempt...)."""


class DuplicateError(StoreError):
    """A row that must be unique already exists (for example today's ranked attempt)."""


class Fenced(StoreError):
    """A write whose fencing token is no longer the place's lease token: another process
    took the place over (docs/scaling.md). Nothing of the write was kept."""


class NewerSchema(StoreError):
    """The database was upgraded by a newer version of the server: this one refuses to
    start on it rather than misread what it does not know (deploy/README.md, "Upgrades and
    rollbacks")."""

    def __init__(self, database: str, found: int, supported: int) -> None:
        super().__init__(
            f"{database} has schema {found}, newer than this server's {supported}: a newer "
            "Scorpion Race upgraded it. Run that version (roll forward), or restore the "
            "backup taken before the upgrade to run this one (deploy/README.md, "
            "'Upgrades and rollbacks')"
        )


class StoreUnavailable(StoreError):
    """The database cannot be reached (yet): retry later; nothing was written."""


@dataclass(frozen=True, slots=True)
class Account:
    id: str
    name: str
    created: float


@dataclass(frozen=True, slots=True)
class DeviceToken:
    """One token of a player: one signed-in device. ``how`` it was made: 'new-player',
    'device-code', 'recovery-code' or 'unknown' (given to another device before schema
    9); ``agent``: the browser family it was made on ("Firefox on Linux"), never the
    whole User-Agent; ``last_seen``: when it was last used (to the nearest few minutes)."""

    token_hash: bytes
    how: str
    agent: str
    created: float
    last_seen: float | None


@dataclass(frozen=True, slots=True)
class SavedGame:
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
    hints: int = 0  # help used: hints asked and moves Auto played (0 and 0: a clean game)
    autos: int = 0


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
class ListRoom:
    """The host listed the room among the open rooms (``at``), or took it off (None)."""

    room_id: str
    at: float | None


@dataclass(frozen=True, slots=True)
class CloseRoom:
    """Mark a room closed and drop its log: its games live on as game records."""

    room_id: str


@dataclass(frozen=True, slots=True)
class SaveGame:
    """Insert or update a game record (an update keeps the first ``started``).

    Skipped when the player no longer exists (they deleted their data mid-game).
    """

    record: SavedGame


@dataclass(frozen=True, slots=True)
class ClaimDaily:
    """Record a player's one ranked attempt of a day: a second claim for the same player
    and day is a :class:`DuplicateError` (the database's primary key enforces it, so two
    processes on one database cannot both start one)."""

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


@dataclass(frozen=True, slots=True)
class Fence:
    """Refuse the whole write unless ``token`` is still the lease token of ``place`` (a room
    or ``daily:<date>``): with several processes, only the place's owner may write. Only
    the PostgreSQL store keeps leases (``scorpion.cluster.leases``)."""

    place: str
    token: int


@dataclass(frozen=True, slots=True)
class SaveAnalysis:
    """Keep a finished game's analysis (scorpion.solver.Analysis.to_dict()). The first one
    kept stays; skipped when the game no longer exists (its player deleted it)."""

    game_id: str
    analysis: JSON
    created: float


@dataclass(frozen=True, slots=True)
class SaveReport:
    """Keep a report of an offensive name for the operator (``scorpion reports``)."""

    room_id: str
    player_id: str
    name: str
    reporter_id: str
    reason: str
    created: float


Write = (
    Fence
    | SaveDaily
    | Reveal
    | OpenRoom
    | AppendLog
    | CloseRoom
    | ListRoom
    | SaveGame
    | ClaimDaily
    | SaveReport
    | SaveAnalysis
)


class Store(Protocol):
    """Persistence for the race server: what the web layer uses, no more.

    Every method is a coroutine; none blocks the loop. ``commits`` counts committed
    transactions, ``fenced_writes`` writes refused by a newer lease token (metrics).
    """

    commits: int
    fenced_writes: int

    async def open(self) -> None: ...
    async def close(self) -> None: ...
    async def ping(self) -> bool: ...
    async def write(self, writes: Sequence[Write]) -> None:
        """Apply several writes in one transaction (all or nothing); return once committed.

        Concurrent calls are committed together (group commit), each failing alone.
        """
        ...

    async def write_each(self, groups: Sequence[Sequence[Write]]) -> list[StoreError | None]:
        """Apply each group as :meth:`write` would, in order, with one wait for all of them
        (a caller with many: the web layer's batch of commands); per group, None once it is
        committed or the error it failed with alone. Raises if the commit itself failed."""
        ...

    # players
    async def create_player(
        self, player_id: str, token_hash: bytes, name: str, agent: str = ""
    ) -> Account: ...
    async def player_by_token(self, token_hash: bytes) -> Account | None: ...
    async def player(self, player_id: str) -> Account | None: ...
    async def rename_player(self, player_id: str, name: str) -> Account: ...
    async def delete_player(self, player_id: str) -> bool: ...
    async def purge(self, before: float) -> int:
        """Delete what ended before ``before``: game records, closed rooms (retention)."""
        ...

    # room logs (replayed after a restart)
    async def open_room_logs(self) -> list[tuple[str, JSON]]: ...
    async def close_rooms_before(self, prefix: str, created_before: float) -> int: ...

    # game records
    async def game(self, game_id: str) -> SavedGame | None: ...
    async def player_games(
        self, player_id: str, limit: int = 50, before: float | None = None
    ) -> list[SavedGame]: ...
    async def results(self, player_id: str) -> list[tuple[str, str, bool]]: ...
    async def player_summaries(self, player_id: str) -> list[SavedGame]:
        """Every game of a player, in the order started, **without their actions** (empty):
        what a history's records and calendar need, light to read."""
        ...

    async def round_games(self, room_id: str, round_: int) -> list[SavedGame]:
        """Every racer's game of one round of a room (ids ``<room>:<round>:<player>``), in
        the order started: a replay's source, kept after the room's log is gone."""
        ...

    async def analysis(self, game_id: str) -> JSON | None:
        """A game's stored analysis (SaveAnalysis), or None while there is none."""
        ...

    # the daily challenge
    async def daily_attempt(self, day: str, player_id: str) -> str | None: ...
    async def daily_entries(self, day: str, limit: int = 1000) -> list[JSON]: ...
    async def daily_deal(self, day: str) -> tuple[int, bool] | None: ...
    async def daily_wins(self, player_id: str) -> list[str]: ...

    # one player on several devices (docs/http-api.md "Your player on another device")
    async def player_by_device_token(self, token_hash: bytes) -> Account | None: ...
    async def add_device_code(self, code_hash: bytes, player_id: str, expires: float) -> None: ...
    async def claim_device_code(
        self, code_hash: bytes, token_hash: bytes, now: float, agent: str = ""
    ) -> Account | None: ...
    async def set_recovery_code(self, player_id: str, code_hash: bytes) -> list[bytes]:
        """The player's recovery code, replacing the old one; the tokens the old one gave
        (how 'recovery-code', and 'unknown' ones when there was an old code) are revoked:
        their hashes."""
        ...

    async def recover_player(
        self, code_hash: bytes, token_hash: bytes, agent: str = ""
    ) -> Account | None: ...

    # a player's tokens, one per signed-in device (docs/http-api.md "Your devices")
    async def device_tokens(self, player_id: str) -> list[DeviceToken]:
        """Every token of the player, the first made first."""
        ...

    async def revoke_tokens(self, player_id: str, token_hashes: Sequence[bytes]) -> list[bytes]:
        """Sign out: the player's tokens among ``token_hashes`` stop working; those that
        were the player's."""
        ...

    async def touch_token(self, token_hash: bytes, now: float) -> None:
        """The token was used at ``now`` (its last_seen)."""
        ...

    async def add_player_device(self, player_id: str, device_hash: bytes) -> None:
        """Keep that the player was made, claimed or recovered on this device (its HMAC)."""
        ...

    async def linked_players(self, player_id: str) -> frozenset[str]:
        """The other players sharing a device with the player, transitively (bounded:
        LINK_ROUNDS, MAX_LINKED); empty for an unlinked or unknown player."""
        ...

    # name reports, for the operator
    async def name_reports(self, limit: int = 100) -> list[JSON]: ...

    # the quick race's queue and the ratings (schema 9)
    async def quick_step(
        self,
        step: QueueStep[T],
        *,
        players: Sequence[str] = (),
        room: str | None = None,
        placed_before: float | None = None,
    ) -> T:
        """Run a step of the queue in one transaction (one step at a time across processes)
        on the rows it may need: every waiting row (no room yet), the rows of ``players``
        and those placed in ``room``; write back the rows it changed. First the rows placed
        before ``placed_before`` go: placed rows are kept for a while (race/quick.py
        PLACED_KEPT) but never all read, so a step costs the waiting rows, not the hour's."""
        ...

    async def rate_round(
        self,
        room_id: str,
        round_: int,
        preset: str,
        players: Sequence[str],
        rate: RateStep,
        now: float,
    ) -> list[JSON] | None:
        """Rate a round exactly once: None when it was rated already."""
        ...

    async def rating_board(self, preset: str, min_races: int, limit: int) -> list[JSON]: ...
    async def listed_rooms(self, limit: int) -> list[str]:
        """The open rooms listed by their hosts, the latest listed first."""
        ...

    async def player_ratings(self, player_id: str) -> list[JSON]: ...
    async def racing_rooms(self, player_id: str) -> list[str]:
        """The open rooms (friends' or quick) where the player has a game started and not
        finished: where they may be racing now (the caller asks the room to be sure)."""
        ...

    async def rating_history(self, player_id: str, limit: int = 500) -> list[JSON]: ...

    # a league among friends (schema 11)
    async def league_round(
        self, room_id: str, round_: int, week: str, points: Sequence[JSON], now: float
    ) -> bool:
        """Keep a league round's points (``player``, ``name``, ``place``, ``points`` each)
        once: False when that round's points were kept already (nothing changes)."""
        ...

    async def league_table(self, room_id: str, week: str | None) -> list[JSON]:
        """Sums per player (``player``, ``name``, ``points``, ``rounds``, ``wins``) of a
        league's rounds in ``week`` (ISO, UTC), or of every round when None."""
        ...
