"""Deal numbers: the vectors of docs/deals.md, stability across processes, no bias."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from scorpion.build import build
from scorpion.engine import Game, card_text
from scorpion.engine.deals import MASK64, SplitMix64, shuffled_deck, uniform_below

DOC = (Path(__file__).parents[2] / "docs" / "deals.md").read_text()


def test_splitmix64_vectors() -> None:
    rng = SplitMix64(0)
    assert [rng.next() for _ in range(3)] == [
        0xE220A8397B1DCDAF,
        0x6E789E6AA1B965F4,
        0x06C45D188009454F,
    ]
    rng = SplitMix64(1)
    assert [rng.below(52) for _ in range(8)] == [45, 19, 14, 3, 5, 28, 17, 37]


@pytest.mark.parametrize(
    ("deal", "cards"), re.findall(r"^\| (\d+) \| ([2-9TJQKA][SHDC].*) \|$", DOC, re.M)
)
def test_documented_decks(deal: str, cards: str) -> None:
    assert " ".join(map(card_text, shuffled_deck(int(deal)))) == cards


def test_documented_layout() -> None:
    block = DOC.split("```\nstock:")[1].split("```")[0]
    assert Game.new(12345).text() == "stock:" + block


@pytest.mark.parametrize("bad", [-1, 2**64])
def test_deal_numbers_out_of_range(bad: int) -> None:
    with pytest.raises(ValueError, match="deal number"):
        Game.new(bad)


@pytest.mark.parametrize("bad", [1.5, "7"])
def test_deal_numbers_of_another_type(bad: object) -> None:
    # The compiled build refuses them at the call, as mypyc checks every declared type
    # (docs/compiled.md); the pure build in check_deal_number.
    with pytest.raises(ValueError if build() == "pure" else TypeError, match=r"deal number|int"):
        Game.new(bad)  # type: ignore[arg-type]


def test_a_bool_is_no_deal_number_in_the_pure_build() -> None:
    # Compiled, True arrives as the int 1 (a bool is an int to mypyc): docs/compiled.md.
    if build() == "pure":
        with pytest.raises(ValueError, match="deal number"):
            Game.new(True)
    else:
        assert Game.new(True).text() == Game.new(1).text()


def test_a_deal_is_the_same_in_another_process() -> None:
    deals = [0, 1, 99, 2**40 + 3, 2**64 - 1]
    code = "from scorpion.engine import Game\n" + "".join(
        f"print(Game.new({d}).text(), end='')\n" for d in deals
    )
    other = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert other.stdout == "".join(Game.new(d).text() for d in deals)


def test_below_redraws_the_biased_tail() -> None:
    # 2**64 mod 3 == 1, so only MASK64 lies past the last whole multiple of 3.
    assert uniform_below(iter([MASK64, MASK64 - 1]).__next__, 3) == (MASK64 - 1) % 3
    assert uniform_below(iter([MASK64, 7]).__next__, 5) == 7 % 5


def chi_square_of_positions(shuffle: Callable[[int], list[int]], deals: int) -> float:
    """Sum over cards and positions of (observed - expected)^2 / expected."""
    counts = [[0] * 52 for _ in range(52)]
    for deal in range(deals):
        for position, card in enumerate(shuffle(deal)):
            counts[card][position] += 1
    expected = deals / 52
    return sum((n - expected) ** 2 / expected for row in counts for n in row)


def naive_shuffle(deal: int) -> list[int]:
    """The classic mistake: swap each card with any card. Biased; the test must see it."""
    rng, deck = SplitMix64(deal), list(range(52))
    for i in range(52):
        j = rng.below(52)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def test_each_card_is_equally_likely_in_each_position() -> None:
    # Rows and columns of the 52 x 52 table have fixed sums: 51 * 51 degrees of freedom.
    dof = 51 * 51
    spread = 5 * (2 * dof) ** 0.5  # five standard deviations of a chi-square
    statistic = chi_square_of_positions(shuffled_deck, 20_000)
    assert dof - spread < statistic < dof + spread
    assert chi_square_of_positions(naive_shuffle, 20_000) > dof + spread
