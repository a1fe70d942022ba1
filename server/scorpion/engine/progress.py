"""How far a game has come, for the racers' progress bars: cards in their final order.

A card is in its final same-suit order when it will never have to leave the card under it:
it lies face up on the face-up card of its suit one rank higher, or it is a King at the
bottom of a column with nothing face down under it. A run removed counts its 13 cards.
So the count goes from a few at the deal to 52 at a win, one card per good move (a card
put on its own suit), and a card moved off its place takes its point away.

>>> from .game import Game
>>> game = Game.from_text('''stock: -
... 1: | KC QC JC TC 9C
... 2: 8C 7C | 6C 5C
... 3: | 4C 3C 2C AC
... runs: S H D''')
>>> ordered_cards(game)  # 3 runs, K-Q-J-T-9, 5 on 6 (not 6 on the face-down 7), 3-2-A on 4
48
>>> _ = game.play("4C>2")
>>> ordered_cards(game)
49
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:  # game.py counts a view's ``ordered`` with this module
    from .game import Game

KING_INDEX: Final = 12  # card % 13 of a King


def ordered_cards(game: Game) -> int:
    """Cards in their final same-suit order (0-52): 13 per run removed, every King at the
    bottom of an uncovered column, and every face-up card on its own suit one rank higher."""
    # The columns by index: compiled, a zip is a Python iterator (docs/compiled.md).
    count = 13 * len(game.runs)
    columns, downs = game.columns, game.down
    for j in range(len(columns)):
        count += ordered_in_column(columns[j], downs[j])
    return count


def ordered_in_column(column: list[int], down: int) -> int:
    """The cards of one column (``down`` of them face down) in their final order.

    >>> ordered_in_column([51, 50, 49, 20], 0)  # KC at the bottom, QC on it, JC, 8H on JC
    3
    >>> ordered_in_column([51, 50, 49], 1)  # KC face down: only JC on QC counts
    1
    """
    # Plain loops; a column's face-up cards by slice (interpreted, the faster of the two).
    count = 0
    size = len(column)
    if size > down == 0 and column[0] % 13 == KING_INDEX:
        count += 1
    if size - down > 1:
        below = column[down]
        for card in column[down + 1 :]:
            # One rank lower and the same suit (a King is never on its own suit).
            if below - card == 1 and card % 13 != KING_INDEX:
                count += 1
            below = card
    return count
