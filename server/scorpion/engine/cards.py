"""Cards as small integers, and their two-character notation.

A card is an ``int`` from 0 to 51: ``suit * 13 + rank - 1``, suits in the order
spades, hearts, diamonds, clubs. Integers keep the engine fast; the helpers
here give them names.

>>> card = parse_card("4H")
>>> card, card_text(card), rank_of(card), suit_of(card)
(16, '4H', 4, 1)
>>> card_text(parse_card("10s"))
'TS'
>>> card_name(parse_card("QD"))
'queen of diamonds'
"""

from __future__ import annotations

from typing import Final

from .errors import NotationError

Card = int

SUITS: Final = "SHDC"
RANKS: Final = "A23456789TJQK"
SUIT_NAMES: Final = ("spades", "hearts", "diamonds", "clubs")
RANK_NAMES: Final = (
    "ace", "two", "three", "four", "five", "six", "seven",
    "eight", "nine", "ten", "jack", "queen", "king",
)  # fmt: skip
ACE: Final = 1
KING: Final = 13
DECK: Final[tuple[Card, ...]] = tuple(range(52))
HIDDEN: Final = "??"

# Every card's text, computed once: printing is on hot paths (move text, views).
CARD_TEXTS: Final = tuple(RANKS[c % 13] + SUITS[c // 13] for c in DECK)  # by card
_BY_TEXT: Final = {text: c for c, text in enumerate(CARD_TEXTS)}


def make_card(rank: int, suit: int) -> Card:
    """The card of ``rank`` (1-13) and ``suit`` (0-3)."""
    if not 1 <= rank <= 13 or not 0 <= suit <= 3:
        raise ValueError(f"no card has rank {rank} and suit {suit}")
    return suit * 13 + rank - 1


def rank_of(card: Card) -> int:
    """1 for an Ace up to 13 for a King."""
    return card % 13 + 1


def suit_of(card: Card) -> int:
    """0 spades, 1 hearts, 2 diamonds, 3 clubs."""
    return card // 13


def card_text(card: Card) -> str:
    """Two characters, rank then suit: ``'TS'``."""
    return CARD_TEXTS[card]


def card_name(card: Card) -> str:
    """Words for people and screen readers: ``'four of hearts'``."""
    return f"{RANK_NAMES[card % 13]} of {SUIT_NAMES[card // 13]}"


def parse_card(text: str) -> Card:
    """Parse ``'4H'``, ``'th'`` or ``'10H'``; raise :class:`NotationError` otherwise."""
    key = text.strip().upper()
    if key.startswith("10"):
        key = "T" + key[2:]
    card = _BY_TEXT.get(key)
    if card is None:
        raise NotationError(f"unknown card {text!r} (expected rank A23456789TJQK and suit SHDC)")
    return card


def run_of(suit: int) -> list[Card]:
    """The 13 cards of a completed run, King (bottom) down to Ace (top)."""
    return [suit * 13 + r for r in range(12, -1, -1)]
