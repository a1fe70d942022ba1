"""Dead positions recognised without search: a cycle of cards each waiting for the next.

With same-suit building and Kings-only empty columns, a card ``z`` that is not
on its successor must one day be picked up and put on ``z+1``; that needs
``z+1`` to be a top card, so the card ``u`` lying directly on ``z+1`` must
leave first, and ``u`` cannot be carried off without ``z+1`` itself, so ``u``
must be picked up too (onto ``u+1``, or into an empty column if it is a King).
Nothing but ``z`` can ever be put on ``z+1``, so ``u`` stays there until it is
picked. If ``z+1`` lies directly on ``z`` instead, ``z+1`` must be picked up first
(it cannot be carried off without ``z``).
"``z`` waits for ``u``" is therefore a lasting fact, each card waits for
at most one other, and a cycle of non-King cards waiting for each other can never
be broken: the position is lost. The stock changes nothing here (dealt cards
only add waits), and neither do runs (a card in a removable run lies on its
successor).

>>> from scorpion.engine import Game, get_rules
>>> from scorpion.solver.state import State
>>> game = Game.from_text('''
... stock: -
... 1: | 7H 5H 6H
... 2: | KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S AS
... 3: | KH QH JH TH 9H 8H 4H 3H 2H AH
... runs: D C
... ''')
>>> doomed(State.of(game), get_rules("classic"))
True
"""

from __future__ import annotations

from scorpion.engine import Rules

from .state import KING0, State


def applies(rules: Rules) -> bool:
    """Whether the argument holds under these rules."""
    return rules.build == "same-suit" and rules.empty == "kings"


def doomed(state: State, rules: Rules) -> bool:
    """Whether some card can never be picked up again though it must be (``applies`` rules).

    Every card not yet on its successor (and every King not yet at a column's
    bottom) must be picked up again. That needs, each a card that must be picked
    up first: the card directly on it when it is face down; and for a non-King,
    the card directly on its successor, or when the successor lies above it in
    its own column, any one of the cards from just above it up to the successor.
    Cards that lie on their successor are never picked up again. The cards that
    can be picked up are the least set closed under these needs; any other card
    that must be picked up dooms the position.
    """
    cols, down = state.cols, state.down
    where: dict[int, tuple[int, int]] = {}
    for j, col in enumerate(cols):
        for i, card in enumerate(col):
            where[card] = (j, i)
    needs: list[tuple[int, tuple[int, ...] | None, tuple[int, ...] | None]] = []
    for z, (j, i) in where.items():
        col = cols[j]
        d = down[j]
        if z % 13 == KING0:
            if i == 0 and d == 0:
                continue
            target: tuple[int, ...] | None = None
        else:
            if i > d and col[i - 1] == z + 1:
                continue
            spot = where.get(z + 1)
            if spot is None:
                target = None  # in the stock or a reserve cell: it will come to a top
            else:
                j2, i2 = spot
                col2 = cols[j2]
                if j2 == j and i2 > i:
                    target = tuple(col[i + 1 : i2 + 1])
                elif i2 == len(col2) - 1:
                    target = None
                else:
                    target = (col2[i2 + 1],)
        turn: tuple[int, ...] | None = (col[i + 1],) if i < d else None
        needs.append((z, target, turn))
    free: set[int] = set()
    changed = True
    while changed:
        changed = False
        for z, target, turn in needs:
            if z in free:
                continue
            if (target is None or any(u in free for u in target)) and (
                turn is None or turn[0] in free
            ):
                free.add(z)
                changed = True
    return len(free) < len(needs)
