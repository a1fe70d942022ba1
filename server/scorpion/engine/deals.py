"""Deal numbers: a specified PRNG and shuffle, stable on every machine forever.

The generator is SplitMix64 (Steele, Lea and Flood, 2014) seeded with the deal
number; bounded integers come from rejection sampling, so every index is
equally likely; the shuffle is Fisher-Yates from the top of the deck down.
docs/deals.md specifies all of it with test vectors. Python's ``random``
module is not used: its algorithms are not promised to stay the same.

>>> from .cards import card_text
>>> [card_text(c) for c in shuffled_deck(1)[:5]]
['7H', '9S', '4H', '8D', '8H']
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from .cards import DECK, Card

MASK64: Final = (1 << 64) - 1
MAX_DEAL: Final = MASK64


class SplitMix64:
    """The SplitMix64 generator: 64-bit outputs from a 64-bit state.

    >>> rng = SplitMix64(0)
    >>> hex(rng.next())
    '0xe220a8397b1dcdaf'
    """

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK64

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, bound: int) -> int:
        """A uniform integer in ``[0, bound)`` (:func:`uniform_below`)."""
        return uniform_below(self.next, bound)


def uniform_below(draw: Callable[[], int], bound: int) -> int:
    """A uniform integer in ``[0, bound)`` from 64-bit ``draw`` outputs: those past the last
    whole multiple of ``bound`` are redrawn.

    >>> uniform_below(iter([MASK64, 7]).__next__, 5)  # MASK64 lies past the last multiple
    2
    """
    if not 0 < bound <= MASK64:
        raise ValueError(f"bound must be in 1..2**64-1, not {bound}")
    limit = (MASK64 + 1) - (MASK64 + 1) % bound
    while True:
        x = draw()
        if x < limit:
            return x % bound


def check_deal_number(deal: int) -> int:
    if isinstance(deal, bool) or not isinstance(deal, int) or not 0 <= deal <= MAX_DEAL:
        raise ValueError(f"a deal number is an integer from 0 to 2**64-1, not {deal!r}")
    return deal


def shuffled_deck(deal: int) -> list[Card]:
    """The 52 cards of ``deal`` in dealing order.

    The deck starts in card order (AS 2S ... KS AH ... KC); for i from 51 down
    to 1, card i swaps with card ``below(i + 1)``.
    """
    check_deal_number(deal)
    rng = SplitMix64(deal)
    deck = list(DECK)
    for i in range(51, 0, -1):
        j = rng.below(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck
