"""The race layer's states, spelled as the wire spells them (docs/protocol.md): a room's
phase, a member's role, a racer's status.

Literal types rather than enums: the values are the strings sent, so nothing is converted
on the way out (the wire stays the same), while mypy --strict (strict equality) refuses a
comparison or an assignment with a string outside the type, a misspelt phase included.
"""

from __future__ import annotations

from typing import Final, Literal, TypeAlias, TypeGuard, get_args

Phase: TypeAlias = Literal["lobby", "countdown", "racing", "results"]
"""A room's round: seats taken in the ``lobby``, then ``countdown``, ``racing`` and the
``results`` (until a rematch goes back to the lobby)."""

RACING: Final[tuple[Phase, ...]] = ("countdown", "racing")
"""The phases a round is under way."""

Role: TypeAlias = Literal["player", "spectator"]
"""A member holds a seat (``player``) or watches (``spectator``)."""

Ended: TypeAlias = Literal["won", "lost", "gave-up", "timed-out", "left"]
"""How a game ended: the game's own end (won, lost, given up) or one from outside."""

Stopped: TypeAlias = Literal["timed-out", "left"]
"""A game ended from outside: the clock ran out, or the racer left or was removed."""

Status: TypeAlias = Literal["playing", "won", "lost", "gave-up", "timed-out", "left"]
"""A racer's game: still ``playing``, or how it ended (:data:`Ended`)."""


def is_role(text: object) -> TypeGuard[Role]:
    """Whether ``text`` is a :data:`Role` (a command's ``as``)."""
    return text in get_args(Role)


def is_stopped(text: object) -> TypeGuard[Stopped]:
    """Whether ``text`` is a :data:`Stopped` status (a stored result's, read back)."""
    return text in get_args(Stopped)
