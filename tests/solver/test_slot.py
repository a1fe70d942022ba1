"""The one-slot bound (solver/slot.py) never calls a winnable position lost."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings

from scorpion.engine import Game
from scorpion.solver import solve
from scorpion.solver.best_first import unpack
from scorpion.solver.search import Search
from scorpion.solver.slot import no_second_empty
from scorpion.solver.state import State

from .helpers import IDLE_PARKS, RUN_LEFT_BEHIND, plain_search, replay
from .test_agreement import WASP, small_positions

# Found by the random check while the bound was written: the 2D lies on the 3D, face down
# under it, so parking the 2D turns the 3D over (the no-split-off rule is for a face-up
# successor). The first form of the bound took the 2D never to move and called this lost.
FACE_DOWN_SUCCESSOR = """
stock: -
1: TD QD 8D | 4D JD
2: 6D KD 5D 3D | 2D
3: 9D | 7D AD
4: |
runs: S H C
"""

# Found by the random check: the KS, dealt on the KD's chain, can be parked with the cards on
# it (KS>1), and the KD's run then completes (QD>2 empties column 3, KD>3, AS>2, AD>3). The
# closure took the KD to wait for every spade, as it must while no column is empty.
KING_PARKED_OFF_A_CHAIN = """
stock: -
1: |
2: QS TS JS | 7S 6S 5S 4S 3S 2S KD KS 9S 8S AD 4D 3D 2D AS
3: | QD JD TD 9D 8D 7D 6D 5D
runs: H C
"""


@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_positions(WASP, empty_columns=1))
def test_a_position_called_lost_cannot_be_won(case: tuple[str, str]) -> None:
    """One empty column, no stock, one or two suits: where the bound says no second column
    can ever empty, the plain search over the engine finds no win."""
    preset, text = case
    game = Game.from_text(text, preset)
    if no_second_empty(State.of(game), game.rules):
        assert plain_search(game) is not True, text


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_positions(WASP, full=True))
def test_a_plateau_position_called_lost_cannot_be_won(case: tuple[str, str]) -> None:
    """No column empty, no stock: the first column to empty becomes the slot."""
    preset, text = case
    game = Game.from_text(text, preset)
    if no_second_empty(State.of(game), game.rules):
        assert plain_search(game) is not True, text


@pytest.mark.parametrize(
    "text", [FACE_DOWN_SUCCESSOR, KING_PARKED_OFF_A_CHAIN, RUN_LEFT_BEHIND, IDLE_PARKS]
)
def test_won_positions_with_one_empty_column_are_not_called_lost(text: str) -> None:
    """A card on a face-down successor can be parked, and a King dealt on a King's chain;
    a complete run left on top of a column can be split off (RUN_LEFT_BEHIND, after 4H>1)."""
    game = Game.from_text(text, "wasp")
    if text is RUN_LEFT_BEHIND:
        game = replay(game, ["4H>1"])
    assert sum(not column for column in game.columns) == 1
    assert plain_search(game) is True
    assert not no_second_empty(State.of(game), game.rules)


def test_a_lost_position_the_emptiness_test_cannot_judge() -> None:
    """Column 1 empties only when the 2S goes onto the 3S, column 2 only when the 3S goes
    onto the 4S; six cards lie on the 3S and the slot holds one pile at a time."""
    game = Game.from_text(
        """
stock: -
1: 2S 6S TS QS | 4S KS
2: 3S AS 8S 9S 5S 7S | JS
3: |
runs: H D C
""",
        "wasp",
    )
    assert plain_search(game) is False
    assert no_second_empty(State.of(game), game.rules)
    assert solve(game).verdict == "lost"


@pytest.mark.parametrize("deal", [267, 1087, 1132])
@pytest.mark.parametrize("empty", [0, 1])
def test_positions_called_lost_in_real_searches_are_lost(deal: int, empty: int) -> None:
    """Real deals: of the positions with the stock dealt and that many columns empty that the
    search without the bound meets in its first 20,000, those the bound calls lost (hundreds)
    are, 20 of them drawn, proved lost by that search too."""
    rules = Game.new(deal, "wasp").rules
    search = Search(rules, max_nodes=20_000, one_slot=False)
    search.run(State.of(Game.new(deal, "wasp")))
    met = [unpack(key[: key.index(b"\xfd")]) for key in sorted(search.seen)]
    called = [
        state
        for state in met
        if not state.stock
        and sum(not column for column in state.cols) == empty
        and no_second_empty(state, rules)
    ]
    assert len(called) >= 100
    for state in random.Random(deal).sample(called, 20):
        verdict, _ = Search(rules, max_nodes=20_000, one_slot=False).run(state)
        assert verdict == "lost", state
