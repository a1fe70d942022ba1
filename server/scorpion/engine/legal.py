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
from .moves import DEAL, DEAL_TEXT, Move, move_text, text_of
from .rules import Rules

RESERVE: Final = -1  # the source "column" of a card played from a Three Blind Mice reserve cell
EMPTY: Final = -1  # found_by_target: a King, wanted by every empty column
NOWHERE: Final = -2  # found_by_target: a card no column takes


def by_scan(rules: Rules, columns: list[list[Card]]) -> bool:
    """Whether the moves are found by trying every face-up card (any-suit building, or an
    empty column that takes any card), not by target."""
    return rules.build == "any-suit" or (rules.empty != "kings" and not all(columns))


def legal_moves(
    rules: Rules, columns: list[list[Card]], down: list[int], reserve: list[Card], stock: bool
) -> list[Move]:
    """Every legal move of a game not over (``stock``: cards are left to deal)."""
    if by_scan(rules, columns):
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
    if by_scan(rules, columns):
        texts = [text_of(move) for move in moves_by_scan(rules, columns, down, reserve)]
    else:
        found = found_by_target(columns, down, reserve)
        texts = [move_text(found[i], found[i + 1]) for i in range(0, len(found), 2)]
    if stock:
        texts.append(DEAL_TEXT)
    return texts


def moves_by_target(columns: list[list[Card]], down: list[int], reserve: list[Card]) -> list[Move]:
    """The moves of a same-suit game whose empty columns take only Kings (not the deal)."""
    found = found_by_target(columns, down, reserve)
    return [Move(found[i], found[i + 1]) for i in range(0, len(found), 2)]


def found_by_target(columns: list[list[Card]], down: list[int], reserve: list[Card]) -> list[int]:
    """:func:`moves_by_target`'s moves in order, flat: card, to, card, to... (small ints,
    which CPython shares: no tuple to build for each).

    One pass over the face-up cards (and the reserve), each looked up in a table by card
    of where it may go: looking each wanted card up column by column cost a list scan per
    card and column, most of them misses (and a dict, hashing every card, was no cheaper).
    """
    wanted = [NOWHERE] * 52  # by card: the column whose top takes it, EMPTY, or NOWHERE
    empties: list[int] = []
    for j, col in enumerate(columns):
        if not col:
            empties.append(j)
        elif col[-1] % 13:  # nothing goes onto an Ace
            wanted[col[-1] - 1] = j  # one card per top, never a King
    if empties:
        for suit in range(4):
            wanted[suit * 13 + 12] = EMPTY
    found: list[int] = []
    sources = len(columns)
    for j in range(sources + 1):
        col, first = (columns[j], down[j]) if j < sources else (reserve, 0)
        for index in range(first, len(col)):  # face up
            card = col[index]
            dest = wanted[card]
            if dest == NOWHERE:
                continue
            if dest != EMPTY:
                if dest != j:  # not onto its own column
                    found.append(card)
                    found.append(dest)
            elif index or first or j == sources:  # not a whole column into an empty one
                for empty in empties:
                    found.append(card)
                    found.append(empty)
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
