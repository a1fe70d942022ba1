"""What a racer gets of her own board, worked out by the tests from the engine alone."""

from __future__ import annotations

from typing import Any

from scorpion.engine import Game
from scorpion.race.racer import UNDO_REVEALS


def fair_view(game: Game) -> dict[str, Any]:
    """A racer's own board under fair undo (a room's default, a ranked daily attempt):
    ``Game.view()``, saying ahead when the next undo would be refused because the move it
    would take back showed a card."""
    view = game.view()
    if view["can_undo"] and game.undo_reveals:
        return {**view, "can_undo": False, "undo_refusal": UNDO_REVEALS}
    return view
