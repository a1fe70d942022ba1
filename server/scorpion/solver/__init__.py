"""The solver: full-information search for a winning line, for every preset.

It sees every card (face-down ones and the stock: the server knows them) and
answers "won" with a winning line, "lost" when no line wins, or "unknown" when
the budget ran out. Every winning line is replayed through the engine before it
is returned. docs/solver.md explains the search.

>>> from scorpion.engine import Game
>>> solve(Game.new(3, "classic")).verdict
'won'
"""

from .aids import (
    Analysis,
    Hint,
    TurningPoint,
    analyse,
    auto_move,
    deal_winnable,
    hints,
    next_winnable_deal,
)
from .solve import Solution, Verdict, replays_to_win, solve

__all__ = [
    "Analysis",
    "Hint",
    "Solution",
    "TurningPoint",
    "Verdict",
    "analyse",
    "auto_move",
    "deal_winnable",
    "hints",
    "next_winnable_deal",
    "replays_to_win",
    "solve",
]
