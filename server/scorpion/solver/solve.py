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

import contextlib
import time
from dataclasses import dataclass, field
from typing import Literal

from scorpion.engine import Game, MoveError

from .best_first import BestFirst
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


Columns = tuple[tuple[tuple[int, ...], int], ...]


def _columns(game: Game) -> Columns:
    return tuple((tuple(col), down) for col, down in zip(game.columns, game.down, strict=True))


def _shape(game: Game) -> tuple[object, ...]:
    """The position up to the order of columns (columns 1-3 keep theirs while the stock waits)."""
    columns = _columns(game)
    fixed = 3 if game.stock else 0
    return (tuple(game.stock), tuple(game.reserve), tuple(sorted(game.runs)),
            columns[:fixed], tuple(sorted(columns[fixed:])))  # fmt: skip


def _column_map(line_columns: Columns, game: Game) -> list[int]:
    """Where each column of a line's position stands in ``game``, a same-shape position."""
    actual = _columns(game)
    empties = iter(j for j, column in enumerate(actual) if not column[0])
    where = {column: j for j, column in enumerate(actual) if column[0]}
    fixed = 3 if game.stock else 0
    return [
        j if j < fixed else where[column] if column[0] else next(empties)
        for j, column in enumerate(line_columns)
    ]


def _mapped(text: str, column_map: list[int]) -> str:
    card, sep, column = text.partition(">")
    return f"{card}>{column_map[int(column) - 1] + 1}" if sep else text


def shortened(game: Game, line: list[str]) -> list[str]:
    """``line`` with its detours cut: from each position, the one move that reaches the
    latest position of the line, up to the order of columns.

    The search under Wasp or any-suit building wanders (it cuts cycles only on its current
    path and sees columns as interchangeable); a player who asks Auto should not watch cards
    shuffle from column to column and back.
    """
    trial = game.copy()
    shapes, columns = {_shape(trial): 0}, [_columns(trial)]
    for i, text in enumerate(line, start=1):
        trial.play(text)
        shapes[_shape(trial)] = i
        columns.append(_columns(trial))
    # Undo explores each candidate; these rules allow it and change no move's legality.
    position = Game.from_text(game.text(), game.rules.with_options(undo=None, loss="never"))
    at, kept = 0, list[str]()
    column_map = list(range(len(game.columns)))  # the line's columns -> the position's
    while at < len(line):
        best, best_move = at + 1, _mapped(line[at], column_map)
        for move in position.legal_moves():
            position.play(move)
            if position.won:
                return [*kept, str(move)]
            reached = shapes.get(_shape(position), -1)
            position.undo()
            if reached > best:
                best, best_move = reached, str(move)
        position.play(best_move)
        kept.append(best_move)
        if position.won:
            break
        at = best
        column_map = _column_map(columns[at], position)
    return kept


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
    # Any-suit building: best first (see best_first.py); else depth first with pruning.
    search_class = BestFirst if game.rules.build == "any-suit" else Search
    search = search_class(game.rules, max_nodes, max_seconds)
    verdict, steps = search.run(State.of(game))
    line = [step.text() for step in steps]
    note = ""
    if verdict == "won":
        # Should shortening fail (a bug), the raw line stands; replays_to_win still checks it.
        with contextlib.suppress(MoveError, LookupError):
            line = shortened(game, line)
    if verdict == "won" and not replays_to_win(game, line):
        verdict, line, note = "unknown", [], "the line found did not win in the engine"
    return Solution(verdict, line if verdict == "won" else [], search.nodes,
                    time.perf_counter() - start, note)  # fmt: skip
