"""Best-first search for any-suit building: the most promising position first.

Under ``any-suit`` a card fits on four cards instead of one, so a depth-first
search wanders for millions of positions through piles shuffled from column to
column before it turns the next face-down card. This search expands instead the
position that looks closest to a win (:func:`distance`: face-down cards, cards
not yet on their suit's successor or on a card one rank higher, runs still to go)
among all those seen. Four searches take turns, each with its own queue and table:
two guides (two ways to weigh that distance), each once taking the newest of the
positions it rates equal first (deep: it follows one line across a plateau of equal
ratings) and once the oldest (broad). They find different wins. A position one of them
expanded is not expanded again by another, and the deal is proved lost when every
position met has been expanded. It
keeps the same global table of canonical keys as the depth-first search, so it
too is exhaustive: when no position is left, the deal is proved lost. To keep
memory low the queue and the table hold keys only; a position is rebuilt from
its key (:func:`unpack`) when it is expanded, and the winning line is rebuilt
from the moves recorded by card (the card moved, and the card it went onto), which
do not depend on the order of columns.

Positions that :func:`.prune.doomed_any` proves dead are not expanded.

>>> from scorpion.engine import Game
>>> from scorpion.solver.state import State
>>> game = Game.from_text('''
... stock: -
... 1: | KS QS JS TS 9S 8S 7S 6S 5S 4S 3S AS
... 2: | 2S
... runs: H D C
... ''', "relaxed")
>>> verdict, steps = BestFirst(game.rules).run(State.of(game))
>>> verdict, [step.text() for step in steps]
('won', ['AS>2', '2S>1'])
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Callable, Generator
from typing import Final, Literal

from scorpion.engine import Rules

from .cache import LostPositions
from .prune import doomed_any
from .state import DEAL_SOURCE, DEAL_STEP, KING0, RESERVE_SOURCE, State, Step, is_won, moves, play

Verdict = Literal["won", "lost", "unknown"]
CHECK_EVERY: Final = 64  # nodes between clock readings
EMPTY: Final = 255  # "onto an empty column" in a recorded move
ROOT: Final = b""  # the parent of the root's key


def distance(state: State) -> int:
    """How far a position looks from a win (lower first; a guide, never a proof).

    30 per face-down card, 3 per card in the stock or a reserve cell, minus 60 per run
    removed; per face-up card: 0 on its suit's successor (or a King at a column's
    bottom), 1 on a card one rank higher of another suit (a sequence that can move on
    as a whole), 2 otherwise. Weights chosen on deals 4, 9, 13, 25 and 33, which the
    first weights (15, 30, and 1 per card not on its successor) left undecided in 10 s.
    """
    far = 30 * sum(state.down) + 3 * len(state.stock) + 3 * len(state.reserve) - 60 * state.runs
    for col, d in zip(state.cols, state.down, strict=True):
        for i in range(d, len(col)):
            card = col[i]
            if i > d:
                below = col[i - 1]
                if below == card + 1:
                    continue  # on its successor
                far += 1 if below % 13 == card % 13 + 1 else 2
            elif i or card % 13 != KING0:  # not a King at a column's bottom
                far += 2
    return far


def distance_by_suit(state: State) -> int:
    """The first guide: 15 per face-down card, 3 per card in the stock or a reserve cell,
    minus 30 per run removed, 1 per face-up card not on its suit's successor (nor a King
    at a column's bottom). It finds other wins than :func:`distance` (deals 1-200 at
    10 s: 23 and 26 unknowns, only 8 in common), hence the two take turns."""
    far = 15 * sum(state.down) + 3 * len(state.stock) + 3 * len(state.reserve) - 30 * state.runs
    for col, d in zip(state.cols, state.down, strict=True):
        for i in range(d, len(col)):
            card = col[i]
            if i > d and col[i - 1] == card + 1:
                continue
            if i == 0 and card % 13 == KING0:
                continue
            far += 1
    return far


Guide = Callable[[State], int]
# A guide and its order among positions it rates equal: True, the newest first.
Turn = tuple[Guide, bool]
# Relaxed deals 1-200 at 100,000 nodes: the two guides broad left 4 undecided (74 s of
# CPU in all), deep 3 or more by deal 56; one deep and one broad 4 to 6; all four, each
# with its own table, 2 (40 s); all four sharing the expanded positions, 1 (27 s).
GUIDES: Final[tuple[Turn, ...]] = (
    (distance, True),
    (distance_by_suit, True),
    (distance, False),
    (distance_by_suit, False),
)
SLICE: Final = 256  # positions one guide searches before the next one's turn


def unpack(key: bytes) -> State:
    """The position of a canonical key (:meth:`State.key`), columns in the key's order."""
    tableau, stock, reserve = key.split(b"\xfe")
    parts = tableau.split(b"\xff")
    cols = tuple(part[1:] for part in parts)
    cards = sum(map(len, cols)) + len(stock) + len(reserve)
    return State(cols, tuple(part[0] for part in parts), stock, reserve, (52 - cards) // 13)


def _record(state: State, step: Step) -> tuple[int, int]:
    """A move by cards: (card moved or -1 for the deal, card it goes onto or EMPTY + column)."""
    if step.src == DEAL_SOURCE:
        return -1, 0
    col = state.cols[step.dest]
    return step.card, col[-1] if col else EMPTY + step.dest


def _replayed(root: State, records: list[tuple[int, int]], rules: Rules) -> list[Step]:
    """The recorded moves as steps from ``root``, in its order of columns."""
    state, steps = root, []
    for card, onto in records:
        if card < 0:
            step = DEAL_STEP
        else:
            if onto >= EMPTY:
                fixed = len(state.stock)
                wanted = onto - EMPTY
                # Columns the stock will be dealt on keep their place in keys; the others
                # are interchangeable, so any empty one of them will do.
                if wanted < fixed:
                    dest = wanted
                else:
                    dest = next(j for j, c in enumerate(state.cols) if not c and j >= fixed)
            else:
                dest = next(j for j, c in enumerate(state.cols) if c and c[-1] == onto)
            i = state.reserve.find(card)
            if i >= 0:
                step = Step(RESERVE_SOURCE, i, dest, card)
            else:
                src = next(j for j, c in enumerate(state.cols) if card in c)
                step = Step(src, state.cols[src].index(card), dest, card)
        steps.append(step)
        state = play(state, step, rules)
    return steps


class BestFirst:
    """Best-first searches from one position, one per turn in ``GUIDES``, taking turns.

    Each guide has its own queue and table; they take turns of ``SLICE`` positions, and
    the first to find a win, or to run out of positions (a proof: it is exhaustive),
    answers. ``nodes`` counts the positions seen by all of them.
    """

    def __init__(
        self,
        rules: Rules,
        max_nodes: int | None = None,
        max_seconds: float | None = None,
        lost: LostPositions | None = None,
        *,
        prune: bool = True,
        guides: tuple[Turn, ...] | None = None,
    ) -> None:
        self.rules = rules
        self.lost = lost  # positions proved lost by earlier searches of the same game
        self.prune = prune  # off only to test the search without it
        self.guides = GUIDES if guides is None else guides
        # Keys met and keys expanded by any of the searches (``expanded`` within ``generated``).
        self.generated: set[bytes] = set()
        self.expanded: set[bytes] = set()
        self.max_nodes = max_nodes
        self.deadline = None if max_seconds is None else time.monotonic() + max_seconds
        self.nodes = 0

    def _out_of_budget(self) -> bool:
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            return True
        return (
            self.deadline is not None
            and self.nodes % CHECK_EVERY == 0
            and time.monotonic() > self.deadline
        )

    def run(self, root: State) -> tuple[Verdict, list[Step]]:
        """``('won', line)``, ``('lost', [])`` or ``('unknown', [])`` when the budget ran out."""
        self.nodes = 1
        if is_won(root, self.rules):
            return "won", []
        self.generated = {root.key()}
        self.expanded = set()
        turns = [self._search(root, guide, deep) for guide, deep in self.guides]
        while turns:
            for turn in list(turns):
                for _ in range(SLICE):
                    try:
                        next(turn)
                    except StopIteration as answer:
                        result: tuple[Verdict, list[Step]] = answer.value
                        if result[0] != "unknown":
                            return result
                        turns = [t for t in turns if t is not turn]
                        break
                    self.nodes += 1
                    if self._out_of_budget():
                        return "unknown", []
        return "unknown", []  # not reached: the last expansion closed the union

    def _search(
        self, root: State, guide: Guide, deep: bool
    ) -> Generator[None, None, tuple[Verdict, list[Step]]]:
        """One guide's search; yields once per new position (the caller keeps the budget).

        The searches share ``generated`` (every key any of them met) and ``expanded``
        (those one of them expanded): a search skips a position another one expanded (its
        successors are in that one's queue), so together they expand each position once.
        Returns a win; a loss when every position met has been expanded (the union is
        closed under moves, none of it won: a proof, at the cost of one exhaustion, not
        one per search); or ``('unknown', [])`` when its own queue is empty (its part is
        done, the others hold the rest).
        """
        rules, generated, expanded = self.rules, self.generated, self.expanded
        # key -> (parent key, card moved, card it went onto): the table and the tree at once.
        parent: dict[bytes, tuple[bytes, int, int]] = {}
        root_key = root.key()
        parent[root_key] = (ROOT, 0, 0)
        queue: list[tuple[int, int, bytes]] = [(guide(root), 0, root_key)]
        # Among equally promising positions: the newest first (deep), or the oldest.
        sign = -1 if deep else 1
        first = True
        while queue:
            _, _, key = heapq.heappop(queue)
            if not first and key in expanded:
                continue  # another search expanded it: its successors are in that one's queue
            # The root keeps its own order of columns (the line is rebuilt from it anyway).
            state = root if first else unpack(key)
            first = False
            if not (self.prune and doomed_any(state, rules)):
                for step in moves(state, rules):
                    child = play(state, step, rules)
                    child_key = child.key()
                    if child_key in parent or (self.lost is not None and child_key in self.lost):
                        continue
                    card, onto = _record(state, step)
                    parent[child_key] = (key, card, onto)
                    if is_won(child, rules):
                        return "won", _replayed(root, self._records(parent, child_key), rules)
                    generated.add(child_key)
                    yield
                    heapq.heappush(queue, (guide(child), sign * len(parent), child_key))
            # Every move from here now leads into ``generated`` (or it is dead).
            expanded.add(key)
            if len(expanded) == len(generated):
                break
        else:
            return "unknown", []  # its part is done; the proof waits for the others
        if self.lost is not None:  # every position met (by any search) is reached from a loss
            self.lost.learn(generated)
        return "lost", []

    @staticmethod
    def _records(parent: dict[bytes, tuple[bytes, int, int]], key: bytes) -> list[tuple[int, int]]:
        records = []
        while True:
            up, card, onto = parent[key]
            if up == ROOT:
                break
            records.append((card, onto))
            key = up
        records.reverse()
        return records
