"""One empty column as a slot: positions where two columns can never be empty at once (Wasp).

A win empties every column, so a position with one empty column from which no line ever
has two empty at once is lost. Under ``empty: any`` with same-suit building, the stock
dealt and no reserve, the only moves are *links* (a card, with the cards on it, onto its
suit's successor) and *parks* (a pile into the empty column); a pile lying on a face-up
successor is never split off (docs/solver.md, "No split-off"). The empty column is a
*slot*: once a pile is parked in it, no column is empty, so every move is a link, which
the plateau closure (:func:`.prune.pick_needs`) over-approximates, until a column empties
again: the slot itself, when the parked card leaves it (onto its successor, or a King with
its run: its needs in the closure met), or another column, when its bottom card leaves
(picked up in the closure, :func:`.prune.goals`). In the second case the slot has *moved*:
the parked card is now a column's bottom card, whose leaving would empty that column.

So the test follows the ways the slot can stand, each a *free slot*: the columns' bottom
cards still to leave (goals), the parked cards left at a column's bottom, and the closure
of the cards picked up so far. From each, it first closes the picks with the slot free:
a goal picked up, or a parked bottom card that can leave, would empty a second column
(not lost). Then each card ``x`` that could be parked (face up or turned over by then;
not on a face-up successor; not a column's bottom card: a whole column is never moved)
is picked up in a copy and the closure run on: if ``x`` can leave the slot and nothing
else empties, the copy is this free slot again with more picks; if exactly one other
column can empty (a goal, or a parked bottom card leaving) and ``x`` cannot leave, the
slot has moved: a new free slot; two such events in one phase could leave two columns
empty: not lost. Every line from the position alternates phases with the slot free and
one pile parked, and by induction on its parks each of its free-slot moments is covered
by a free slot followed here (the closures are monotone, and a card picked up before is
never a card to park: it lies on its successor, or at a column's bottom, and a whole
column is never moved). If none of them can empty a second column, the position is lost.
The number of free slots followed is capped (:data:`MOST_SLOTS`): past it, not lost.

>>> from scorpion.engine import Game
>>> from scorpion.solver.prune import never_emptied
>>> game = Game.from_text('''
... stock: -
... 1: 2S 6S TS QS | 4S KS
... 2: 3S AS 8S 9S 5S 7S | JS
... 3: |
... runs: H D C
... ''', "wasp")
>>> state = State.of(game)
>>> never_emptied(state, game.rules), no_second_empty(state, game.rules)
(False, True)

(Column 1 empties only when the 2S goes onto the 3S, and column 2 only when the 3S goes onto
the 4S: six cards lie on the 3S, and the slot holds one pile at a time.)
"""

from __future__ import annotations

from typing import Final

from scorpion.engine import Rules

from .prune import Cards, goals, meet, no_cards, pick_needs, tableau_index
from .state import KING0, RUNS, State

MOST_SLOTS: Final = 64  # free slots followed before the test gives up (not lost)


class FreeSlot:
    """One way the empty column can stand, free: the goals still to leave, the parked cards
    at a column's bottom, and the closure (each card's unmet needs, its option need met,
    picked up) with the cards whose needs were just met (``free``)."""

    def __init__(
        self,
        goal: Cards,
        bottoms: list[int],
        missing: list[int],
        options_met: Cards,
        picked: Cards,
        free: list[int],
    ) -> None:
        self.goal, self.bottoms = goal, bottoms
        self.missing, self.options_met, self.picked, self.free = missing, options_met, picked, free

    def parked(self, x: int, waiting: list[list[int]]) -> FreeSlot:
        """A copy with ``x`` picked up into the slot, its pick-up met (not yet closed)."""
        copy = FreeSlot(
            self.goal, self.bottoms, self.missing[:], self.options_met[:], self.picked[:], []
        )
        copy.picked[x] = True
        meet(x, waiting, copy.missing, copy.options_met, copy.free)
        return copy

    def close(self, waiting: list[list[int]]) -> int:
        """Run the closure on, stopping at a goal (returned, not picked up); -1 at the end.
        Cards picked up already are skipped (a parked card is marked picked before its own
        needs are met, and is freed a second time)."""
        free, missing, options_met, picked, goal = (
            self.free, self.missing, self.options_met, self.picked, self.goal
        )  # fmt: skip
        while free:
            u = free.pop()
            if picked[u]:
                continue
            if goal[u]:
                return u
            picked[u] = True
            meet(u, waiting, missing, options_met, free)
        return -1

    def leaving(self) -> list[int]:
        """The parked bottom cards that can leave (onto their successor): each empties its
        column."""
        return [r for r in self.bottoms if not self.missing[r]]

    def key(self) -> tuple[bytes, tuple[int, ...]]:
        return bytes(self.goal), tuple(sorted(self.bottoms))

    def picks(self) -> int:
        """The cards picked up, as bits."""
        bits = 0
        for card in range(52):
            if self.picked[card]:
                bits |= 1 << card
        return bits


def no_second_empty(state: State, rules: Rules) -> bool:
    """Whether, with one column empty or none (stock dealt, no reserve, same-suit building,
    any card into an empty column, runs that leave the tableau), two columns can never be
    empty at once: the position is lost. Anything else: False."""
    if (
        rules.build != "same-suit"
        or rules.empty != "any"
        or rules.runs == "keep"
        or state.stock
        or state.reserve
    ):
        return False
    cols, down = state.cols, state.down
    empty = 0
    for col in cols:
        if not col:
            empty += 1
    if empty > 1:
        return False
    missing, waiting, free = pick_needs(cols, down, tableau_index(cols), True, parks=True)
    parks = _parkable(cols, down)
    start = FreeSlot(goals(cols), [], missing, no_cards(), no_cards(), free)
    todo = [start] if empty else _first_slots(start, waiting)
    followed: dict[tuple[bytes, tuple[int, ...]], list[int]] = {}
    for _ in range(MOST_SLOTS):
        if not todo:
            return True
        slot = todo.pop()
        if slot.close(waiting) >= 0 or slot.leaving():
            return False  # a second column empties while the slot is free
        grown = True
        while grown:
            grown = False
            for x, turn in parks:
                if slot.picked[x] or (turn >= 0 and not slot.picked[turn]):
                    continue  # picked up already, or still face down
                phase = slot.parked(x, waiting)
                emptied = phase.close(waiting)
                leaving = phase.leaving()
                events = len(leaving) + (emptied >= 0)
                if not events:
                    if not phase.missing[x]:  # x can leave: the slot is free again
                        slot = phase
                        grown = True
                    continue
                if events > 1 or not phase.missing[x]:
                    return False  # two columns might empty in this phase
                moved = _moved(phase, x, emptied, leaving, waiting)
                key, bits = moved.key(), moved.picks()
                seen = followed.setdefault(key, [])
                if any(bits & ~other == 0 for other in seen):
                    continue  # a free slot with these picks or more is followed already
                seen.append(bits)
                todo.append(moved)
    return not todo


def _first_slots(start: FreeSlot, waiting: list[list[int]]) -> list[FreeSlot]:
    """With no column empty: the closure up to the first column to empty (no goal picked
    up), then, for each goal it reaches, the free slot that goal's column becomes."""
    reached: list[int] = []
    while True:
        goal = start.close(waiting)  # the goal is not picked up: read on without it
        if goal < 0:
            break
        reached.append(goal)
    slots: list[FreeSlot] = []
    for goal in reached:
        # The other goals reached stay to pick up: each would empty a second column.
        others = [other for other in reached if other != goal]
        first = FreeSlot(
            start.goal[:], [], start.missing[:], start.options_met[:], start.picked[:], others
        )
        first.goal[goal] = False
        first.picked[goal] = True
        meet(goal, waiting, first.missing, first.options_met, first.free)
        slots.append(first)
    return slots


def _moved(
    phase: FreeSlot, x: int, emptied: int, leaving: list[int], waiting: list[list[int]]
) -> FreeSlot:
    """The free slot after another column emptied while ``x`` was parked: the goal
    ``emptied`` picked up (its column empty), or a parked bottom card that left; ``x`` is
    now a column's bottom card."""
    if emptied >= 0:
        goal = phase.goal[:]
        goal[emptied] = False
        phase.picked[emptied] = True
        meet(emptied, waiting, phase.missing, phase.options_met, phase.free)
        return FreeSlot(
            goal, [*phase.bottoms, x], phase.missing, phase.options_met, phase.picked, phase.free
        )
    bottoms = [r for r in phase.bottoms if r != leaving[0]]
    bottoms.append(x)
    return FreeSlot(phase.goal, bottoms, phase.missing, phase.options_met, phase.picked, phase.free)


def _parkable(cols: tuple[bytes, ...], down: tuple[int, ...]) -> list[tuple[int, int]]:
    """The cards that could lead a park, each with the card whose pick-up turns it over
    (-1: face up): not a column's bottom card, and not split off from a face-up successor,
    as the search never does (``search._splits_off``: kept for a complete run the ``placed``
    rule left on top of a column, and a successor face down turns over when it leaves)."""
    out: list[tuple[int, int]] = []
    for j in range(len(cols)):
        col, d = cols[j], down[j]
        n = len(col)
        run_from = n - 13 if n - d >= 13 and col[n - 13 :] == RUNS[col[-1] // 13] else n
        for i in range(1, n):
            x = col[i]
            if i > d and i < run_from and x % 13 != KING0 and col[i - 1] == x + 1:
                continue
            out.append((x, col[i + 1] if i < d else -1))
    return out
