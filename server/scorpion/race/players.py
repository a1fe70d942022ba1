"""Who is talking: a player's id and display name (the web layer resolves tokens)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from .messages import PlayerRef

MAX_NAME: Final = 24


@dataclass(frozen=True, slots=True)
class Player:
    """A player's stable id (never the token) and display name (plain text, never HTML).

    ``linked`` (the other players sharing a device with this one) and ``created`` (when
    the player was made, server time) come with a hello, read from the store; they are not
    part of who the player is: not compared, not in records, never sent.

    >>> Player("p1", "Ada", linked=frozenset({"p2"}), created=5.0) == Player("p1", "Ada")
    True
    """

    id: str
    name: str
    linked: frozenset[str] = field(default=frozenset(), compare=False, repr=False)
    created: float | None = field(default=None, compare=False, repr=False)
    # Of ``linked``, those whose ranked attempt at the hello's daily the store holds: a split
    # daily's shard sees only its own players' attempts (docs/scaling.md).
    ranked_linked: frozenset[str] = field(default=frozenset(), compare=False, repr=False)

    def to_dict(self) -> PlayerRef:
        return {"id": self.id, "name": self.name}
