"""Client messages: checked and turned into :class:`Command` objects, or refused.

>>> parse_command({"type": "move", "seq": 4, "move": "4H>7"})
Command(type='move', seq=4, move='4H>7', role=None, ready=True, player=None, round=None)
>>> try:
...     parse_command({"type": "move", "seq": 4})
... except RaceError as exc:
...     print(exc.code, exc.seq)
missing-field 4
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from .errors import RaceError

MAX_SEQ: Final = 2**53 - 1  # what JavaScript numbers hold exactly
MAX_TEXT: Final = 64  # longest move text, token or id accepted in a field

COMMANDS: Final = frozenset(
    {"join", "leave", "ready", "start", "move", "deal", "undo", "hint", "give-up", "auto",
     "follow", "rematch", "ping"}
)  # fmt: skip
# Commands that act on the sender's own game.
GAME_COMMANDS: Final = frozenset({"move", "deal", "undo", "hint", "give-up", "auto"})


@dataclass(frozen=True, slots=True)
class Command:
    """One checked command. Only the fields its ``type`` uses are set."""

    type: str
    seq: int
    move: str | None = None  # move: move text (deal: "deal")
    role: str | None = None  # join: "player" or "spectator"
    ready: bool = True  # ready
    player: str | None = None  # follow: the followed player (None: stop); game commands: seat
    round: int | None = None  # rematch: the round just finished


@dataclass(frozen=True, slots=True)
class Hello:
    """The first message of a connection (the web layer checks the token)."""

    token: str
    room: str | None
    daily: str | None
    last_version: int | None


def seq_of(message: Mapping[str, object]) -> int | None:
    seq = message.get("seq")
    if isinstance(seq, bool) or not isinstance(seq, int) or not 1 <= seq <= MAX_SEQ:
        return None
    return seq


def _text(message: Mapping[str, object], key: str, seq: int | None, what: str) -> str:
    value = message.get(key)
    if value is None:
        raise RaceError("missing-field", f"The {what} needs a {key!r} field", seq)
    if not isinstance(value, str) or not 0 < len(value) <= MAX_TEXT:
        raise RaceError("bad-field", f"{key!r} must be a short non-empty string", seq)
    return value


def parse_command(message: object) -> Command:
    """Check a decoded JSON message; raise :class:`RaceError` (with the seq if usable)."""
    if not isinstance(message, Mapping):
        raise RaceError("bad-json", "A message must be a JSON object")
    kind = message.get("type")
    seq = seq_of(message)
    if kind == "hello":
        raise RaceError("already-authenticated", "This connection already said hello", seq)
    if not isinstance(kind, str) or kind not in COMMANDS:
        known = ", ".join(sorted(COMMANDS))
        raise RaceError("unknown-type", f"Unknown message type {kind!r} (known: {known})", seq)
    if seq is None:
        if "seq" not in message:
            raise RaceError("missing-field", f"The {kind} command needs a 'seq' field")
        raise RaceError("bad-field", f"'seq' must be an integer from 1 to {MAX_SEQ}")
    if kind in GAME_COMMANDS:
        # A game command acts on the sender's own seat; naming another is refused later.
        seat = message.get("player")
        seat = None if seat is None else _text(message, "player", seq, f"{kind} command")
        if kind == "deal":
            return Command(kind, seq, move="deal", player=seat)
        if kind != "move":
            return Command(kind, seq, player=seat)
        if message.get("move") is None:
            raise RaceError(
                "missing-field",
                "The move command needs a 'move' field (move text like '4H>7')",
                seq,
            )
        return Command(kind, seq, move=_text(message, "move", seq, "move command"), player=seat)
    if kind == "join":
        role = _text(message, "as", seq, "join command")
        if role not in ("player", "spectator"):
            raise RaceError("bad-field", "'as' must be 'player' or 'spectator'", seq)
        return Command(kind, seq, role=role)
    if kind == "ready":
        ready = message.get("ready", True)
        if not isinstance(ready, bool):
            raise RaceError("bad-field", "'ready' must be true or false", seq)
        return Command(kind, seq, ready=ready)
    if kind == "follow":
        if "player" not in message:
            raise RaceError("missing-field", "The follow command needs a 'player' field", seq)
        if message["player"] is None:
            return Command(kind, seq, player=None)
        return Command(kind, seq, player=_text(message, "player", seq, "follow command"))
    if kind == "rematch":
        value = message.get("round")
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise RaceError("bad-field", "'round' must be the number of the round", seq)
        return Command(kind, seq, round=value)
    return Command(kind, seq)


def parse_hello(message: object) -> Hello:
    """Check the first message of a connection; raise :class:`RaceError` (seq None)."""
    if not isinstance(message, Mapping):
        raise RaceError("bad-json", "A message must be a JSON object")
    if message.get("type") != "hello":
        raise RaceError("not-authenticated", "The first message must be hello (with a token)")
    token = _text(message, "token", None, "hello")
    room, daily = message.get("room"), message.get("daily")
    if (room is None) == (daily is None):
        raise RaceError("missing-field", "hello needs exactly one of 'room' and 'daily'")
    if room is not None:
        room = _text(message, "room", None, "hello")
    if daily is not None:
        daily = _text(message, "daily", None, "hello")
    last = message.get("last_version")
    if last is not None and (isinstance(last, bool) or not isinstance(last, int) or last < 0):
        raise RaceError("bad-field", "'last_version' must be a room version (an integer >= 0)")
    return Hello(token, room, daily, last)
