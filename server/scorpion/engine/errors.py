"""The engine's errors: every one is a ``ValueError`` with a clear message."""

from __future__ import annotations


class NotationError(ValueError):
    """Position or move text that cannot be parsed. The message names the bad line."""


class MoveError(ValueError):
    """A refused move or action. The game is unchanged.

    ``code`` is stable and meant for machines (tests, the wire protocol);
    ``message`` is for people.

    >>> err = MoveError("onto-ace", "Nothing can go on an Ace")
    >>> err.code, str(err)
    ('onto-ace', 'Nothing can go on an Ace')
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __repr__(self) -> str:
        return f"MoveError({self.code!r}, {self.message!r})"
