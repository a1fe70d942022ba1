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
from scorpion.engine.moves import Move

from .best_first import BestFirst
from .cache import LostPositions
from .search import Search
from .state import DEAL_STEP, RESERVE_SOURCE, State, Step, is_won, moves, play

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


def _step(state: State, text: str) -> Step:
    """The step of a move text in ``state`` (a legal move: the search found it)."""
    move = Move.parse(text)
    if move.card is None:
        return DEAL_STEP
    dest = move.to if move.to is not None else -1
    i = state.reserve.find(move.card)
    if i >= 0:
        return Step(RESERVE_SOURCE, i, dest, move.card)
    src = next((j for j, col in enumerate(state.cols) if move.card in col), None)
    if src is None:
        raise LookupError(f"{text}: the card is not in play")
    return Step(src, state.cols[src].index(move.card), dest, move.card)


def shortened(game: Game, line: list[str]) -> list[str]:
    """``line`` with its detours cut: from each position, the one move that reaches the
    latest position of the line, up to the order of columns.

    The search under Wasp or any-suit building wanders (it cuts cycles only on its current
    path and sees columns as interchangeable); a player who asks Auto should not watch cards
    shuffle from column to column and back. Works on :class:`State` (canonical keys: the
    position up to the order of columns); the result is replayed through the engine by
    :func:`solve` like any line.
    """
    rules = game.rules
    state = State.of(game)
    latest = {state.key(): 0}
    for i, text in enumerate(line, start=1):
        state = play(state, _step(state, text), rules)
        latest[state.key()] = i
    position, at, kept = State.of(game), 0, list[str]()
    while at < len(line):
        best, best_step = at, None
        for step in moves(position, rules, all_empties=True):
            after = play(position, step, rules)
            if is_won(after, rules):
                return [*kept, step.text()]
            reached = latest.get(after.key(), -1)
            if reached > best:
                best, best_step, best_after = reached, step, after
        if best_step is None:  # not on the line (a bug): keep the line as it was
            raise LookupError("the line left its own positions")
        kept.append(best_step.text())
        position, at = best_after, best
    return kept


def solve(
    game: Game,
    *,
    max_nodes: int | None = None,
    max_seconds: float | None = None,
    lost: LostPositions | None = None,
    shorten: bool = True,
) -> Solution:
    """Whether ``game`` can still be won from where it stands (seeing every card).

    Without a budget the search runs to the end. A claimed win is replayed through
    the engine first; if it did not win (a solver bug), the answer is "unknown".
    ``lost``: positions proved lost by earlier searches of the same game (same rules),
    skipped, and learnt from this search when it proves the position lost.
    ``shorten``: cut the line's detours (:func:`shortened`) for people who watch it; off
    where only the verdict counts (deal verdicts): the raw line is replayed all the same.
    """
    start = time.perf_counter()
    if game.won:
        return Solution("won", [], 0, time.perf_counter() - start)
    if game.over:
        return Solution("lost", [], 0, time.perf_counter() - start)
    # Any-suit building: best first (see best_first.py); else depth first with pruning.
    search_class = BestFirst if game.rules.build == "any-suit" else Search
    search = search_class(game.rules, max_nodes, max_seconds, lost)
    verdict, steps = search.run(State.of(game))
    line = [step.text() for step in steps]
    note = ""
    if verdict == "won" and shorten:
        # Should shortening fail (a bug), the raw line stands; replays_to_win still checks it.
        with contextlib.suppress(MoveError, LookupError, ValueError):
            line = shortened(game, line)
    verdict, line, note = vetted(game, verdict, line)
    return Solution(verdict, line, search.nodes, time.perf_counter() - start, note)


def vetted(game: Game, verdict: Verdict, line: list[str]) -> tuple[Verdict, list[str], str]:
    """The search's answer as :func:`solve` gives it: a win only with a line that replays to
    a win through the engine (else "unknown", should the search ever be wrong), a line only
    with a win, and the note saying why a verdict is "unknown" when it is not the budget.

    >>> vetted(Game.new(1), "won", ["KS>1"])
    ('unknown', [], 'the line found did not win in the engine')
    """
    if verdict == "won" and not replays_to_win(game, line):
        return "unknown", [], "the line found did not win in the engine"
    return verdict, line if verdict == "won" else [], ""
