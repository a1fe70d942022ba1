"""Client messages: checked and turned into typed commands, or refused.

One class per command type; a parsed command is a plain value that rooms and
dailies dispatch on with ``match``.

>>> parse_command({"type": "move", "seq": 4, "move": "4H>7"})
Move(seq=4, seat=None, move='4H>7')
>>> parse_command({"type": "deal", "seq": 5}).action
'deal'
>>> try:
...     parse_command({"type": "move", "seq": 4})
... except RaceError as exc:
...     print(exc.code, exc.seq)
missing-field 4
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Final, TypeAlias

from .errors import RaceError
from .protocol import player_daily_key, practice_key
from .states import Role, is_role

MAX_SEQ: Final = 2**53 - 1  # what JavaScript numbers hold exactly
MAX_TEXT: Final = 64  # longest move text, token or id accepted in a field


# Not frozen, for the cost of building one per move (see records.py); never changed.
@dataclass(slots=True)
class Join:
    seq: int
    role: Role

    @property
    def name(self) -> str:
        return "join"


@dataclass(slots=True)
class Leave:
    seq: int

    @property
    def name(self) -> str:
        return "leave"


@dataclass(slots=True)
class Ready:
    seq: int
    ready: bool = True

    @property
    def name(self) -> str:
        return "ready"


@dataclass(slots=True)
class Start:
    seq: int

    @property
    def name(self) -> str:
        return "start"


@dataclass(slots=True)
class Follow:
    seq: int
    player: str | None  # None: stop following

    @property
    def name(self) -> str:
        return "follow"


@dataclass(slots=True)
class Rematch:
    seq: int
    round: int | None = None  # the round just finished

    @property
    def name(self) -> str:
        return "rematch"


# The host's controls (docs/protocol.md section 2, "Host controls") and a name report.
@dataclass(slots=True)
class Kick:
    seq: int
    player: str  # a seated player: they watch from now on, and may not take a seat again

    @property
    def name(self) -> str:
        return "kick"


@dataclass(slots=True)
class Lock:
    seq: int
    locked: bool = True

    @property
    def name(self) -> str:
        return "lock"


@dataclass(slots=True)
class List:
    seq: int
    listed: bool = True  # on the home page's open rooms (anyone may join)

    @property
    def name(self) -> str:
        return "list"


@dataclass(slots=True)
class Rating:
    seq: int
    rated: bool = True  # the room's next rounds are rated (docs/rules.md, "Rated rooms")

    @property
    def name(self) -> str:
        return "rating"


@dataclass(slots=True)
class League:
    seq: int
    league: bool = True  # a standing league (docs/rules.md, "A league among friends")

    @property
    def name(self) -> str:
        return "league"


@dataclass(slots=True)
class HandHost:
    seq: int
    player: str  # a seated player

    @property
    def name(self) -> str:
        return "hand-host"


MAX_REASON: Final = 200  # characters of a report's reason


@dataclass(slots=True)
class Report:
    seq: int
    player: str  # whose name is offensive
    reason: str = ""

    @property
    def name(self) -> str:
        return "report"


@dataclass(slots=True)
class NewDeal:
    """Practice only: end the game in hand (if any) and deal a new one."""

    seq: int
    preset: str | None = None  # None: the preset of the game in hand (classic at first)

    @property
    def name(self) -> str:
        return "new-deal"


@dataclass(slots=True)
class Ping:
    seq: int

    @property
    def name(self) -> str:
        return "ping"


# Game commands act on the sender's own game. ``seat`` may name it (another seat is refused).
@dataclass(slots=True, init=False)  # its own __init__: compiled, see records.py
class Move:
    seq: int
    seat: str | None
    move: str  # move text like "4H>7", or a card alone (tap-to-move)

    def __init__(self, seq: int, seat: str | None, move: str) -> None:
        self.seq, self.seat, self.move = seq, seat, move

    @property
    def action(self) -> str:
        return self.move

    @property
    def name(self) -> str:
        return "move"


@dataclass(slots=True)
class Deal:
    seq: int
    seat: str | None

    @property
    def name(self) -> str:
        return "deal"

    @property
    def action(self) -> str:
        return self.name


@dataclass(slots=True)
class Undo:
    seq: int
    seat: str | None

    @property
    def name(self) -> str:
        return "undo"

    @property
    def action(self) -> str:
        return self.name


@dataclass(slots=True)
class GiveUp:
    seq: int
    seat: str | None

    @property
    def name(self) -> str:
        return "give-up"

    @property
    def action(self) -> str:
        return self.name


@dataclass(slots=True)
class Hint:
    """Asks for a search: answered when the search is done (docs/protocol.md, section 3)."""

    seq: int
    seat: str | None

    @property
    def name(self) -> str:
        return "hint"


@dataclass(slots=True)
class Auto:
    """Asks for a search, then plays its first move (or concedes a proved loss)."""

    seq: int
    seat: str | None

    @property
    def name(self) -> str:
        return "auto"


Action: TypeAlias = Move | Deal | Undo | GiveUp  # a change to the game, logged as its text
Search: TypeAlias = Hint | Auto  # a question for the solver
GameCommand: TypeAlias = Action | Search
HostCommand: TypeAlias = Kick | Lock | List | Rating | League | HandHost  # the room's host only
Command: TypeAlias = (
    Join | Leave | Ready | Start | Follow | Rematch | HostCommand | Report | NewDeal | Ping
) | GameCommand


@dataclass(slots=True)
class Hello:
    """The first message of a connection (the web layer checks the token)."""

    token: str
    room: str | None
    daily: str | None
    last_version: int | None
    practice: bool = False  # the player's own practice (neither room nor daily)

    def place_key(self, player_id: str, shards: int = 1) -> str:
        """The key of the place this hello opens for ``player_id`` (its lease and log): a
        daily's is the player's shard of the day (``shards`` of them).

        >>> Hello("t", None, None, None, practice=True).place_key("p_1")
        'practice:p_1'
        >>> Hello("t", None, "2026-12-01", None).place_key("p_1")
        'daily:2026-12-01'
        """
        if self.room is not None:
            return self.room
        if self.daily is None:
            return practice_key(player_id)
        return player_daily_key(self.daily, player_id, shards)


def seq_of(message: dict[str, object]) -> int | None:
    seq = message.get("seq")
    if isinstance(seq, bool) or not isinstance(seq, int) or not 1 <= seq <= MAX_SEQ:
        return None
    return seq


def _text(message: dict[str, object], key: str, seq: int | None, what: str) -> str:
    value = message.get(key)
    if value is None:
        raise RaceError("missing-field", f"The {what} needs a {key!r} field", seq)
    if not isinstance(value, str) or not 0 < len(value) <= MAX_TEXT:
        raise RaceError("bad-field", f"{key!r} must be a short non-empty string", seq)
    return value


def _seat(message: dict[str, object], seq: int) -> str | None:
    if message.get("player") is None:
        return None
    return _text(message, "player", seq, f"{message['type']} command")


def _move(message: dict[str, object], seq: int) -> Move:
    if message.get("move") is None:
        raise RaceError(
            "missing-field", "The move command needs a 'move' field (move text like '4H>7')", seq
        )
    return Move(seq, _seat(message, seq), _text(message, "move", seq, "move command"))


def _join(message: dict[str, object], seq: int) -> Join:
    role = _text(message, "as", seq, "join command")
    if not is_role(role):
        raise RaceError("bad-field", "'as' must be 'player' or 'spectator'", seq)
    return Join(seq, role)


def _ready(message: dict[str, object], seq: int) -> Ready:
    ready = message.get("ready", True)
    if not isinstance(ready, bool):
        raise RaceError("bad-field", "'ready' must be true or false", seq)
    return Ready(seq, ready)


def _follow(message: dict[str, object], seq: int) -> Follow:
    if "player" not in message:
        raise RaceError("missing-field", "The follow command needs a 'player' field", seq)
    if message["player"] is None:
        return Follow(seq, None)
    return Follow(seq, _text(message, "player", seq, "follow command"))


def _lock(message: dict[str, object], seq: int) -> Lock:
    locked = message.get("locked", True)
    if not isinstance(locked, bool):
        raise RaceError("bad-field", "'locked' must be true or false", seq)
    return Lock(seq, locked)


def _list(message: dict[str, object], seq: int) -> List:
    listed = message.get("listed", True)
    if not isinstance(listed, bool):
        raise RaceError("bad-field", "'listed' must be true or false", seq)
    return List(seq, listed)


def _rating(message: dict[str, object], seq: int) -> Rating:
    rated = message.get("rated", True)
    if not isinstance(rated, bool):
        raise RaceError("bad-field", "'rated' must be true or false", seq)
    return Rating(seq, rated)


def _league(message: dict[str, object], seq: int) -> League:
    league = message.get("league", True)
    if not isinstance(league, bool):
        raise RaceError("bad-field", "'league' must be true or false", seq)
    return League(seq, league)


def _report(message: dict[str, object], seq: int) -> Report:
    player = _text(message, "player", seq, "report command")
    reason = message.get("reason", "")
    if not isinstance(reason, str) or len(reason) > MAX_REASON:
        raise RaceError(
            "bad-field", f"'reason' must be text of at most {MAX_REASON} characters", seq
        )
    return Report(seq, player, " ".join(reason.split()))


def _new_deal(message: dict[str, object], seq: int) -> NewDeal:
    if message.get("preset") is None:
        return NewDeal(seq)
    return NewDeal(seq, _text(message, "preset", seq, "new-deal command"))


def _rematch(message: dict[str, object], seq: int) -> Rematch:
    value = message.get("round")
    if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
        raise RaceError("bad-field", "'round' must be the number of the round", seq)
    return Rematch(seq, value)


# The wire's type names, each with its parser: the only table of command names.
_PARSERS: Final[dict[str, Callable[[dict[str, object], int], Command]]] = {
    "join": _join,
    "leave": lambda m, seq: Leave(seq),
    "ready": _ready,
    "start": lambda m, seq: Start(seq),
    "follow": _follow,
    "rematch": _rematch,
    "new-deal": _new_deal,
    "kick": lambda m, seq: Kick(seq, _text(m, "player", seq, "kick command")),
    "lock": _lock,
    "list": _list,
    "rating": _rating,
    "league": _league,
    "hand-host": lambda m, seq: HandHost(seq, _text(m, "player", seq, "hand-host command")),
    "report": _report,
    "ping": lambda m, seq: Ping(seq),
    "move": _move,
    "deal": lambda m, seq: Deal(seq, _seat(m, seq)),
    "undo": lambda m, seq: Undo(seq, _seat(m, seq)),
    "give-up": lambda m, seq: GiveUp(seq, _seat(m, seq)),
    "hint": lambda m, seq: Hint(seq, _seat(m, seq)),
    "auto": lambda m, seq: Auto(seq, _seat(m, seq)),
}
COMMAND_NAMES: Final = frozenset(_PARSERS)


def _as_dict(message: object) -> dict[str, object]:
    """A JSON object as a dict (what the parsers read: compiled, a dict's ``get`` is a direct
    call, a ``Mapping``'s a call by name); RaceError for anything else."""
    if isinstance(message, dict):
        return message
    if isinstance(message, Mapping):
        return dict(message)
    raise RaceError("bad-json", "A message must be a JSON object")


def parse_command(decoded: object) -> Command:
    """Check a decoded JSON message; raise :class:`RaceError` (with the seq if usable)."""
    message = _as_dict(decoded)  # a name of its own: compiled, typed as the dict
    kind = message.get("type")
    seq = seq_of(message)
    if kind == "hello":
        raise RaceError("already-authenticated", "This connection already said hello", seq)
    parser = _PARSERS.get(kind) if isinstance(kind, str) else None
    if parser is None:
        known = ", ".join(sorted(_PARSERS))
        raise RaceError("unknown-type", f"Unknown message type {kind!r} (known: {known})", seq)
    if seq is None:
        if "seq" not in message:
            raise RaceError("missing-field", f"The {kind} command needs a 'seq' field")
        raise RaceError("bad-field", f"'seq' must be an integer from 1 to {MAX_SEQ}")
    if kind == "move":  # most commands: a direct call compiled, the table's is by name
        return _move(message, seq)
    return parser(message, seq)


def parse_hello(decoded: object) -> Hello:
    """Check the first message of a connection; raise :class:`RaceError` (seq None)."""
    message = _as_dict(decoded)
    if message.get("type") != "hello":
        raise RaceError("not-authenticated", "The first message must be hello (with a token)")
    token = _text(message, "token", None, "hello")
    room, daily, practice = message.get("room"), message.get("daily"), message.get("practice")
    if practice is not None and practice is not True:
        raise RaceError("bad-field", "'practice' must be true")
    if [room, daily, practice].count(None) != 2:
        raise RaceError(
            "missing-field", "hello needs exactly one of 'room', 'daily' and 'practice'"
        )
    if room is not None:
        room = _text(message, "room", None, "hello")
    if daily is not None:
        daily = _text(message, "daily", None, "hello")
    last = message.get("last_version")
    if last is not None and (isinstance(last, bool) or not isinstance(last, int) or last < 0):
        raise RaceError("bad-field", "'last_version' must be a room version (an integer >= 0)")
    return Hello(token, room, daily, last, practice=practice is True)
