"""Legal moves: which cards of a position may go where.

The server lists them after every move (each view carries them as text), so the common
case is found by target: in a same-suit game, onto a column's top goes only the card of
its suit one rank lower, and into an empty column (where only Kings go) only a King; a
handful of cards to look for. Other games try every face-up card in turn. Both give the
moves in the same order: by source column (the reserve last), then from the deepest
card up.

>>> from .game import Game
>>> game = Game.from_text('''stock: -
... 1: AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC | KH 7H
... 2: AH 2H 3H 4H 5H 6H 9H TH JH QH | 8H
... 3: |
... runs: S D''')
>>> [str(m) for m in game.legal_moves()]
['KH>3', '7H>2']
"""

from __future__ import annotations

from typing import Final

from .cards import Card
from .moves import DEAL, DEAL_TEXT, Move, move_text
from .rules import Rules

RESERVE: Final = -1  # the source "column" of a card played from a Three Blind Mice reserve cell


def legal_moves(
    rules: Rules, columns: list[list[Card]], down: list[int], reserve: list[Card], stock: bool
) -> list[Move]:
    """Every legal move of a game not over (``stock``: cards are left to deal)."""
    if rules.build == "any-suit" or (rules.empty != "kings" and not all(columns)):
        moves = moves_by_scan(rules, columns, down, reserve)
    else:
        moves = moves_by_target(columns, down, reserve)
    if stock:
        moves.append(DEAL)
    return moves


def legal_texts(
    rules: Rules, columns: list[list[Card]], down: list[int], reserve: list[Card], stock: bool
) -> list[str]:
    """:func:`legal_moves` as move text, in the same order: what every view sends, so the
    common case goes from card to text without building a :class:`Move` for each."""
    if rules.build == "any-suit" or (rules.empty != "kings" and not all(columns)):
        texts = [str(move) for move in moves_by_scan(rules, columns, down, reserve)]
    else:
        texts = [move_text(card, to) for _, _, card, to in found_by_target(columns, down, reserve)]
    if stock:
        texts.append(DEAL_TEXT)
    return texts


def moves_by_target(columns: list[list[Card]], down: list[int], reserve: list[Card]) -> list[Move]:
    """The moves of a same-suit game whose empty columns take only Kings (not the deal)."""
    return [Move(card, to) for _, _, card, to in found_by_target(columns, down, reserve)]


def found_by_target(
    columns: list[list[Card]], down: list[int], reserve: list[Card]
) -> list[tuple[int, int, Card, int]]:
    """:func:`moves_by_target`'s moves as (source column, index, card, to), in order."""
    targets: list[tuple[Card, int]] = []  # (the card that may go there, the column)
    empties: list[int] = []
    for j, col in enumerate(columns):
        if not col:
            empties.append(j)
        elif col[-1] % 13:  # nothing goes onto an Ace
            targets.append((col[-1] - 1, j))
    if empties:
        targets += [(suit * 13 + 12, j) for suit in range(4) for j in empties]
    found: list[tuple[int, int, Card, int]] = []  # (source column, index, card, to)
    for card, dest in targets:
        for j, col in enumerate(columns):
            if card in col:
                index = col.index(card)
                # Face up, not onto itself, and not a whole column into an empty one.
                if index >= down[j] and j != dest and (index or down[j] or columns[dest]):
                    found.append((j, index, card, dest))
                break
        else:
            if card in reserve:  # the reserve's cards come after the columns'
                found.append((len(columns), reserve.index(card), card, dest))
    found.sort()
    return found


def moves_by_scan(
    rules: Rules, columns: list[list[Card]], down: list[int], reserve: list[Card]
) -> list[Move]:
    """The moves of any game (not the deal): every face-up card tried in turn."""
    tops: dict[Card, int] = {}
    empties: list[int] = []
    for j, col in enumerate(columns):
        if col:
            tops[col[-1]] = j
        else:
            empties.append(j)
    any_suit = rules.build == "any-suit"
    kings_only = rules.empty == "kings"
    moves: list[Move] = []
    sources = [(j, col, down[j]) for j, col in enumerate(columns)]
    if reserve:
        sources.append((RESERVE, reserve, 0))
    for j, col, first in sources:
        for i in range(first, len(col)):
            card = col[i]
            rank0 = card % 13
            if rank0 != 12:
                if any_suit:
                    for suit in range(4):
                        dest = tops.get(suit * 13 + rank0 + 1, j)
                        if dest != j:
                            moves.append(Move(card, dest))
                else:
                    dest = tops.get(card + 1, j)
                    if dest != j:
                        moves.append(Move(card, dest))
            # A whole column into an empty one changes nothing.
            if empties and (rank0 == 12 or not kings_only) and (j == RESERVE or i or first):
                moves.extend(Move(card, e) for e in empties)
    return moves
