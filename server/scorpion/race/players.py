"""Who is talking: a player's id and display name (the web layer resolves tokens)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

MAX_NAME: Final = 24


@dataclass(frozen=True, slots=True)
class Player:
    """A player's stable id (never the token) and display name (plain text, never HTML)."""

    id: str
    name: str

    def to_dict(self) -> dict[str, object]:
        return {"id": self.id, "name": self.name}
