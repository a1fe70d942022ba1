"""A room's events, as types (docs/protocol.md, section 4): one ``TypedDict`` per event, its
``event`` a ``Literal``, and their union :data:`RoomEvent`; the host's on/off controls'
events and answers (:func:`switched`, :func:`switch_answer`). The other messages, and the
rows these carry, are in :mod:`.messages`.

>>> switched("locked", True, "p1")
{'event': 'locked', 'locked': True, 'by': 'p1'}
"""

# No ``from __future__ import annotations``: Required[...] must be seen at run time (see
# messages.py).
from typing import Literal, Required, TypeAlias, TypedDict

from .messages import AnswerFields, PlayerRef, ProgressRow, Row
from .states import Role


class Joined(TypedDict):
    event: Literal["joined"]
    player: PlayerRef
    role: Role


LeftReason: TypeAlias = Literal["left", "seat-lost", "not-ready", "removed"]


class Left(TypedDict, total=False):
    event: Required[Literal["left"]]
    player: Required[str]
    reason: Required[LeftReason]
    watching: Required[bool]
    by: str  # removed: the host


class ReadyChanged(TypedDict):
    event: Literal["ready"]
    player: str
    ready: bool


class Presence(TypedDict, total=False):
    event: Required[Literal["presence"]]
    player: Required[str]
    connected: Required[bool]
    grace_until: float  # away: the seat is kept until then


class Dealing(TypedDict):
    event: Literal["dealing"]
    round: int
    until: float | None


class Countdown(TypedDict):
    event: Literal["countdown"]
    round: int
    starts_at: float | None
    now: float
    players: list[str]
    verified: bool
    unverified: str | None


class Started(TypedDict):
    event: Literal["start"]
    round: int
    started_at: float
    time_limit: int
    ends_at: float | None
    now: float
    players: list[str]


class Progress(TypedDict):
    event: Literal["progress"]
    players: list[ProgressRow]
    ranks: dict[str, int]


class Results(TypedDict):
    event: Literal["results"]
    round: int
    deal: str
    verified: bool
    preset: str
    ranking: list[Row]
    timeline: Row


class Rematch(TypedDict):
    event: Literal["rematch"]
    round: int
    by: str
    players: list[str]
    ready: list[str]


class HostChanged(TypedDict):
    event: Literal["host"]
    player: str
    by: str


class LockedChanged(TypedDict):
    event: Literal["locked"]
    locked: bool
    by: str


class ListedChanged(TypedDict):
    event: Literal["listed"]
    listed: bool
    by: str


class RatingChanged(TypedDict):
    event: Literal["rating"]
    rated: bool
    by: str


class LeagueChanged(TypedDict):
    event: Literal["league"]
    league: bool
    by: str


SwitchName: TypeAlias = Literal["locked", "listed", "rated", "league"]
"""A host's on/off control: the field of its command, its answer and its event."""
SwitchEvent: TypeAlias = LockedChanged | ListedChanged | RatingChanged | LeagueChanged


def switched(name: SwitchName, on: bool, by: str) -> SwitchEvent:
    """The event of the host's on/off control ``name``, turned ``on`` or off ``by`` them."""
    match name:
        case "locked":
            return {"event": "locked", "locked": on, "by": by}
        case "listed":
            return {"event": "listed", "listed": on, "by": by}
        case "rated":
            return {"event": "rating", "rated": on, "by": by}
        case "league":
            return {"event": "league", "league": on, "by": by}


def switch_answer(name: SwitchName, on: bool) -> AnswerFields:
    """The answer's field of the host's on/off control ``name``."""
    match name:
        case "locked":
            return {"locked": on}
        case "listed":
            return {"listed": on}
        case "rated":
            return {"rated": on}
        case "league":
            return {"league": on}


class LeaguePoints(TypedDict):
    event: Literal["league-points"]
    round: int
    points: dict[str, int]


class QuickVoid(TypedDict):
    event: Literal["quick-void"]
    round: int


class Rated(TypedDict):
    event: Literal["rated"]
    round: int
    ratings: dict[str, Row]


RoomEvent: TypeAlias = (
    Joined
    | Left
    | ReadyChanged
    | Presence
    | Dealing
    | Countdown
    | Started
    | Progress
    | Results
    | Rematch
    | HostChanged
    | LockedChanged
    | ListedChanged
    | RatingChanged
    | LeagueChanged
    | LeaguePoints
    | QuickVoid
    | Rated
)
"""Every room event (section 4): what ``Room.emit`` sends (after the progress before it)."""
