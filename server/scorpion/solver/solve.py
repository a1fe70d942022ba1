"""``solve``: the verdict on a position, with a winning line checked by the engine.

>>> from scorpion.engine import Game
>>> game = Game.from_text('''
... stock: -
... 1: | KS QS JS TS 9S 8S 7S 6S 5S 4S 3S AS
... 2: | 2S
... runs: H D C
... ''')
>>> solution = solve(game)
>>> solution.verdict, solution.line
('won', ['AS>2', '2S>1'])
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Literal

from scorpion.engine import Game, MoveError

from .search import Search
from .state import State

Verdict = Literal["won", "lost", "unknown"]


@dataclass(frozen=True, slots=True)
class Solution:
    """A solver's answer. ``line``: move texts from the position to a win (empty unless won)."""

    verdict: Verdict
    line: list[str] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0
    note: str = ""  # why a verdict is "unknown" when it is not the budget


def replays_to_win(game: Game, line: list[str]) -> bool:
    """Whether playing ``line`` through the engine, on a copy of ``game``, ends in a won game."""
    trial = game.copy()
    try:
        for text in line:
            trial.play(text)
    except MoveError:
        return False
    return trial.won


def solve(
    game: Game, *, max_nodes: int | None = None, max_seconds: float | None = None
) -> Solution:
    """Whether ``game`` can still be won from where it stands (seeing every card).

    Without a budget the search runs to the end. A claimed win is replayed through
    the engine first; if it did not win (a solver bug), the answer is "unknown".
    """
    start = time.perf_counter()
    if game.won:
        return Solution("won", [], 0, time.perf_counter() - start)
    if game.over:
        return Solution("lost", [], 0, time.perf_counter() - start)
    search = Search(game.rules, max_nodes, max_seconds)
    verdict, steps = search.run(State.of(game))
    line = [step.text() for step in steps]
    note = ""
    if verdict == "won" and not replays_to_win(game, line):
        verdict, line, note = "unknown", [], "the line found did not win in the engine"
    return Solution(verdict, line if verdict == "won" else [], search.nodes,
                    time.perf_counter() - start, note)  # fmt: skip
