"""Dead positions recognised without search: a cycle of cards each waiting for the next.

With same-suit building and Kings-only empty columns, a card ``z`` that is not
on its successor must one day be picked up and put on ``z+1``; that needs
``z+1`` to be a top card, so the card ``u`` lying directly on ``z+1`` must
leave first, and ``u`` cannot be carried off without ``z+1`` itself, so ``u``
must be picked up too (onto ``u+1``, or into an empty column if it is a King).
Nothing but ``z`` can ever be put on ``z+1``, so ``u`` stays there until it is
picked. If ``z+1`` lies above ``z`` in the same column instead, ``z+1`` must leave
``z``'s pile first, so the card ``u`` directly on ``z`` must be picked up first (it
cannot be carried off without ``z``, and ``z`` cannot leave with ``z+1`` on it).
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
    """Whether some cards wait for each other in a cycle (only meaningful when ``applies``)."""
    above: dict[int, int] = {}
    where: dict[int, tuple[int, int]] = {}
    for j, col in enumerate(state.cols):
        for i, card in enumerate(col):
            where[card] = (j, i)
            if i:
                above[col[i - 1]] = card
    waits: dict[int, int] = {}
    for z, (j, i) in where.items():
        if z % 13 == KING0:
            continue
        spot = where.get(z + 1)
        if spot is None:
            continue
        if spot[0] == j and spot[1] > i:
            waits[z] = above[z]
        else:
            u = above.get(z + 1)
            if u is not None and u != z:
                waits[z] = u
    done: set[int] = set()
    for start in waits:
        if start in done:
            continue
        trail: set[int] = set()
        link: int | None = start
        while link is not None and link not in done:
            if link in trail:
                return True
            trail.add(link)
            link = waits.get(link)
        done |= trail
    return False
