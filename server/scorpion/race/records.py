"""Records the race layer hands to the store: enough to rebuild every room by replay.

A room is its settings; a round is its deal, start time and players; a game is
its player's actions with elapsed times. ``recovery.restore_room`` and
``Daily.restore`` rebuild live state from these. Every record has
``to_dict()`` (plain JSON data with a ``kind``) and :func:`record_from_dict`.

>>> r = ActionRecord("k3J9xQ", 1, "p1", 4, "4H>7", 12.5)
>>> record_from_dict(r.to_dict()) == r
True
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, fields
from typing import Final, TypeAlias

from .states import Status


# Data classes, not frozen: a frozen one's __init__ sets each field through a generic call,
# four times a plain one's cost compiled, and one is built per move (docs/compiled.md).
# Nothing changes them once built. The one built for every move has its own __init__ too:
# the one dataclasses writes is interpreted code, a compiled one sets the fields directly.
class _Base:
    __slots__ = ()

    @property
    def kind(self) -> str:
        """The record's name in the log (``action``, ``round-started``...)."""
        return _KIND_OF[type(self)]

    def to_dict(self) -> dict[str, object]:
        """Plain JSON data with the record's ``kind``."""
        data: dict[str, object] = {"kind": self.kind}
        # Not asdict(): it copies every nested value, and a record is written once per move.
        for name in _names(type(self)):
            data[name] = getattr(self, name)
        return data


@dataclass(slots=True)
class RoomOpened(_Base):
    """A room was created. ``settings`` is ``RoomSettings.to_dict()``."""

    room: str
    creator: str
    creator_name: str
    settings: dict[str, object]
    at: float
    quick: dict[str, object] | None = None  # a quick race's QuickSeats (absent: a friends' room)


@dataclass(slots=True)
class RoundStarted(_Base):
    """A round's countdown began: its secret deal, clock and racing players (id, name)."""

    room: str
    round: int
    deal: int
    started_at: float  # the race clock's zero (end of the countdown)
    time_limit: float  # seconds, 0 for none
    players: tuple[tuple[str, str], ...]
    verified: bool = False  # the solver proved the deal winnable (absent in older logs)


@dataclass(slots=True, init=False)
class ActionRecord(_Base):
    """One applied action of one player's game: written before it is acknowledged.

    ``room`` is the room id, or ``daily:<date>`` for a daily attempt (``round`` is then
    the player's attempt number). ``action`` is move text, ``undo`` or ``give-up``.
    """

    room: str
    round: int
    player: str
    seq: int
    action: str
    elapsed: float
    auto: bool = False  # Auto played it (help: counted in the result)

    def __init__(
        self,
        room: str,
        round: int,
        player: str,
        seq: int,
        action: str,
        elapsed: float,
        auto: bool = False,
    ) -> None:
        self.room = room
        self.round = round
        self.player = player
        self.seq = seq
        self.action = action
        self.elapsed = elapsed
        self.auto = auto

    def to_dict(self) -> dict[str, object]:
        """As every record's (its fields in order), written out: one per move, and
        compiled, the shared one reads each field by name."""
        return {
            "kind": "action",
            "room": self.room,
            "round": self.round,
            "player": self.player,
            "seq": self.seq,
            "action": self.action,
            "elapsed": self.elapsed,
            "auto": self.auto,
        }


@dataclass(slots=True)
class GameResult(_Base):
    """A finished game, for statistics and game records (one per player per round/attempt)."""

    room: str
    round: int
    player: str
    name: str
    preset: str
    deal: int
    status: Status  # how it ended: won, lost, gave-up, timed-out, left
    runs: int
    score: int
    moves: int
    turned: int
    elapsed: float
    hints: int
    ranked: bool
    actions: tuple[tuple[str, float], ...]
    finished_at: float
    autos: int = 0  # moves Auto played (absent in older logs)

    @property
    def won(self) -> bool:
        return self.status == "won"


@dataclass(slots=True)
class RoundFinished(_Base):
    """A round's results: the ranking entries as sent in the ``results`` event."""

    room: str
    round: int
    deal: int
    ranking: tuple[dict[str, object], ...]
    at: float


@dataclass(slots=True)
class Rematched(_Base):
    """A rematch was asked after ``round``: the room is back in its lobby."""

    room: str
    round: int
    by: str
    at: float


@dataclass(slots=True)
class RoomClosed(_Base):
    """A room was idle long enough to be dropped from memory."""

    room: str
    at: float


@dataclass(slots=True)
class DailyStarted(_Base):
    """A player started an attempt at a daily (attempt 1 of today is the ranked one)."""

    date: str
    player: str
    name: str
    attempt: int
    deal: int
    preset: str
    ranked: bool
    started_at: float
    new_player: bool = False  # the player was made less than a day before (absent before)


@dataclass(slots=True)
class HostAction(_Base):
    """The host acted: ``action`` is ``kick`` (``player`` may not sit again), ``lock``,
    ``unlock``, ``list``, ``unlist`` (the open rooms), ``rate``, ``unrate`` (rated rounds
    from the next one), ``league``, ``unleague`` (a standing league) or ``hand-host``
    (``player`` is the new host)."""

    room: str
    action: str
    player: str | None
    by: str
    at: float


@dataclass(slots=True)
class NameReported(_Base):
    """A player reported another's name as offensive (kept for the operator)."""

    room: str
    player: str
    name: str
    by: str
    reason: str
    at: float


@dataclass(slots=True)
class PracticeDealt(_Base):
    """A player dealt a practice game (``game`` numbers them, per player)."""

    player: str
    name: str
    game: int
    deal: int
    preset: str
    started_at: float


Record: TypeAlias = (
    RoomOpened
    | RoundStarted
    | ActionRecord
    | GameResult
    | RoundFinished
    | Rematched
    | RoomClosed
    | DailyStarted
    | PracticeDealt
    | HostAction
    | NameReported
)

# The kind each record is logged under: one table for both ways (a class attribute would
# be a dataclass field when compiled, mypyc/mypyc#1122).
KINDS: Final[dict[str, type[Record]]] = {
    "room-opened": RoomOpened,
    "round-started": RoundStarted,
    "action": ActionRecord,
    "game-result": GameResult,
    "round-finished": RoundFinished,
    "rematch": Rematched,
    "room-closed": RoomClosed,
    "daily-started": DailyStarted,
    "practice-dealt": PracticeDealt,
    "host-action": HostAction,
    "name-reported": NameReported,
}
_KIND_OF: Final[dict[type, str]] = {cls: kind for kind, cls in KINDS.items()}
_NAMES: Final[dict[type, tuple[str, ...]]] = {}


def _names(cls: type) -> tuple[str, ...]:
    """The fields of a record class, in order (looked up once per class)."""
    names = _NAMES.get(cls)
    if names is None:
        names = _NAMES[cls] = tuple(f.name for f in fields(cls))
    return names


def record_from_dict(data: dict[str, object]) -> Record:
    """The record ``to_dict()`` gave (lists back to tuples); ValueError for anything else.

    Fields added later have defaults, so records written before still load.
    """
    kind = str(data.get("kind"))
    cls = KINDS.get(kind)
    if cls is None:
        raise ValueError(f"unknown record kind {data.get('kind')!r}")
    values: dict[str, object] = {}
    for f in fields(cls):
        if f.name not in data:
            if f.default is MISSING:
                raise ValueError(f"a {kind} record needs {f.name!r}")
            continue
        value = data[f.name]
        if f.name in ("players", "actions", "ranking"):
            if not isinstance(value, list | tuple):
                raise ValueError(f"{f.name!r} of a {kind} record must be a list")
            items = list(value)
            value = tuple(items) if f.name == "ranking" else tuple(tuple(i) for i in items)
        values[f.name] = value
    return cls(**values)  # type: ignore[arg-type]
