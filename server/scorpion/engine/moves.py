"""Moves and their text: ``4H>7`` (a card and what lies on it onto column 7),
``4H`` (tap-to-move: wherever it fits) and ``deal`` (the stock).

>>> Move.parse("4h>7")
Move.parse('4H>7')
>>> str(Move.parse("10S>2")), str(Move.parse("deal")), Move.parse("QD").to
('TS>2', 'deal', None)
"""

from __future__ import annotations

from typing import Final, NamedTuple

from .cards import CARD_TEXTS, Card, card_text, parse_card
from .errors import NotationError

DEAL_TEXT: Final = "deal"
# Move text by card and 0-based column, for the ten columns a layout has at most: every
# view lists its legal moves as text, so they are looked up rather than formatted.
_TEXTS: Final = tuple(tuple(f"{text}>{to + 1}" for to in range(10)) for text in CARD_TEXTS)


class Move(NamedTuple):
    """``card`` None means deal the stock; ``to`` is a 0-based column, None for tap-to-move."""

    card: Card | None
    to: int | None = None

    @classmethod
    def parse(cls, text: str) -> Move:
        """Parse move text; columns in text count from 1 (:func:`parse_move`)."""
        return parse_move(text)

    def __str__(self) -> str:
        return text_of(self)

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"


DEAL = Move(None, None)
# Every move as printed (columns up to ten), parsed once: a Move is immutable.
_PARSED: Final[dict[str, Move]] = {
    DEAL_TEXT: DEAL,
    **{text: Move(card) for card, text in enumerate(CARD_TEXTS)},
    **{text: Move(card, to) for card, row in enumerate(_TEXTS) for to, text in enumerate(row)},
}


def parse_move(text: str) -> Move:
    """:meth:`Move.parse`: a function, which compiled code calls directly (a method of a
    ``NamedTuple`` class is looked up by name and called generically)."""
    if not isinstance(text, str):
        raise NotationError(f"move text must be a string, not {type(text).__name__}")
    known = _PARSED.get(text)  # move text as printed: what clients send, every move
    if known is not None:
        return known
    clean = text.strip()
    if clean.lower() == DEAL_TEXT:
        return DEAL
    card_part, sep, column_part = clean.partition(">")
    if not card_part:
        raise NotationError(f"bad move {text!r}: expected like '4H>7', '4H' or 'deal'")
    try:
        card = parse_card(card_part)
    except NotationError as exc:
        raise NotationError(f"bad move {text!r}: {exc}") from None
    if not sep:
        return Move(card, None)
    column = column_part.strip()
    if not column.isdigit() or not 1 <= int(column) <= 99:
        raise NotationError(f"bad move {text!r}: column must be a number from 1")
    return Move(card, int(column) - 1)


def text_of(move: Move) -> str:
    """``str(move)``, as a function: compiled, a direct call (``str`` goes through the type's
    slot and a generic call to the method).

    >>> text_of(Move(3, 6)), text_of(Move(3)), text_of(Move(None))
    ('4S>7', '4S', 'deal')
    """
    if move.card is None:
        return DEAL_TEXT
    if move.to is None:
        return card_text(move.card)
    return move_text(move.card, move.to)


def move_text(card: Card, to: int) -> str:
    """The text of moving ``card`` onto 0-based column ``to`` (``str(Move(card, to))``).

    >>> move_text(3, 6)
    '4S>7'
    """
    if to < 10:
        return _TEXTS[card][to]
    return f"{card_text(card)}>{to + 1}"
