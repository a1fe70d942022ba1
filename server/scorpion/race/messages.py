"""Every message the server sends on a websocket, as a type (docs/protocol.md): the answers,
the daily's event, ``welcome``, ``view`` and ``rank``; the room events are in
:mod:`.room_events`.

One ``TypedDict`` per message and per event, its ``type`` (and an event's ``event``) a
``Literal``: mypy --strict checks each field's name and type where a message is built. At
run time they are plain dicts, encoded once by orjson as before: the wire keeps its keys,
its values and their order (the order a message is written in).

Rows inside a message are typed where they are simple (a ``progress`` entry, practice's
game); the others (a board, a ranking or leaderboard row, a snapshot) are :data:`Row`:
plain dicts made by their own modules (engine, masking, ranking, leaderboard,
room_snapshot), not typed field by field here.

>>> refused(None, "bad-json", "The frame is not JSON")
{'type': 'refused', 'seq': None, 'code': 'bad-json', 'message': 'The frame is not JSON'}
"""

# No ``from __future__ import annotations``: Required[...] must be seen at run time, so that
# each TypedDict's __required_keys__ is right (tests/race/typed_frames.py checks every frame
# the race tests get against its type).
from typing import Literal, Required, TypeAlias, TypedDict

from .states import Role, Status

Row: TypeAlias = dict[str, object]
"""A board (``Game.view()``, maybe masked), a ranking or leaderboard row, a snapshot: built
by the module that owns it."""


class ProgressRow(TypedDict):
    """A racer's numbers (``Racer.progress()``): a ``progress`` event's entry, as everyone
    but the racer may see them while the round goes on (``score`` None: withheld)."""

    player: str
    runs: int
    score: int | None
    moves: int
    turned: int
    status: Status
    elapsed: float
    hints: int
    autos: int
    clean: bool
    ordered: int


class PracticeGame(ProgressRow):
    """Practice's game in hand (its state's ``game``; the new-deal answer begins with it)."""

    game: int
    preset: str
    rules: Row
    deal: str
    started_at: float


class HintFound(TypedDict):
    move: str
    winnable: bool | None


class PlayerRef(TypedDict):
    id: str
    name: str


class You(TypedDict):
    id: str
    name: str
    role: Role
    status: Status | None


# ---------------------------------------------------------------------- answers (section 3)
class GameFields(TypedDict, total=False):
    """What an answer to a game command carries, and a ``view`` message too: the board,
    and the place's own fields (a daily attempt's, a practice game's number)."""

    view: Row | None
    status: Status | None
    elapsed: float
    # a daily's attempt (section 6)
    attempt: int
    ranked: bool
    started_at: float
    ends_at: float | None
    hints_allowed: bool
    rank: Row | None  # your leaderboard row, when your ranked attempt ended
    # a practice's game (section 8)
    game: int


class AnswerFields(GameFields, total=False):
    """The fields of an ``applied`` answer after its ``command``: which ones depends on the
    command (docs/protocol.md, section 3; a daily's in section 6, practice's in section 8)."""

    move: str
    restored: bool  # resent after a restart: no view
    hints: list[HintFound] | int  # a hint's moves; practice's new-deal: its count (game row)
    auto: str | None
    verdict: Literal["won", "lost"]
    now: float  # ping
    role: Role  # join, leave, kick
    ready: bool
    round: int  # start, rematch
    player: str | None  # follow, kick; practice's new-deal: its game row
    views: dict[str, Row | None]  # follow "*"
    statuses: dict[str, Status]
    locked: bool
    listed: bool
    rated: bool
    league: bool
    host: str
    reported: str
    resumed: bool  # a daily's start
    # practice's new-deal: the game row (as its state's ``game``)
    preset: str
    rules: Row
    deal: str
    runs: int
    score: int | None
    moves: int
    turned: int
    autos: int
    clean: bool
    ordered: int


class Applied(AnswerFields, total=False):
    type: Required[Literal["applied"]]
    seq: Required[int]
    command: Required[str]


class Refused(TypedDict):
    type: Literal["refused"]
    seq: int | None
    code: str
    message: str


Answer: TypeAlias = Applied | Refused
"""Exactly one per command seq (kept for a resend: :mod:`.seqs`)."""


def refused(seq: int | None, code: str, message: str) -> Refused:
    """A ``refused`` answer (docs/protocol.md, section 3)."""
    return {"type": "refused", "seq": seq, "code": code, "message": message}


# ---------------------------------------------------------------------- the daily's (section 6)
class PlayingNow(TypedDict):
    count: int
    top: list[Row]


class LeaderboardTop(TypedDict, total=False):
    size: Required[int]
    top: Required[list[Row]]
    you: Row | None  # in the welcome's state only


class Playing(TypedDict, total=False):
    event: Required[Literal["playing"]]
    playing: Required[PlayingNow]
    now: Required[float]
    leaderboard: LeaderboardTop  # only when it changed since the last event


class EventFrame(TypedDict):
    """An event as sent: ``type`` and the place's version ``v`` first, then the
    :data:`~.events.Event`'s fields (checked where it was built; see ``EventLog.append``)."""

    type: Literal["event"]
    v: int
    event: str


# ---------------------------------------------------------------------- other messages
class WelcomePlace(TypedDict, total=False):
    """Which place a welcome is for: one of the three."""

    room: str
    daily: str
    practice: Literal[True]


class Welcome(WelcomePlace, total=False):
    """The first answer to a hello (section 1; a daily's in section 6, practice's in 8)."""

    type: Required[Literal["welcome"]]
    you: Required[You]
    version: Required[int]
    recovered: Required[bool]
    last_seq: Required[int]
    events: Required[list[EventFrame]]
    state: Required[Row]
    view: Required[Row | None]
    now: Required[float]
    protocol: Required[int]


class ViewMessage(GameFields, total=False):
    """A board to a racer's other tabs or to a follower (section 4, "Per-recipient
    messages"); a daily's carries the attempt's fields, a practice's the game's number."""

    type: Required[Literal["view"]]
    player: Required[str]


class RankMessage(TypedDict):
    """A daily's finished player's leaderboard row moved (section 6): to them only."""

    type: Literal["rank"]
    daily: str
    row: Row
    size: int


ServerMessage: TypeAlias = Applied | Refused | Welcome | EventFrame | ViewMessage | RankMessage
"""Every frame the race layer sends (``Send.message``)."""
