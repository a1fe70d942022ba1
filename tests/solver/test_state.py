"""The solver's compact state must play exactly like the engine: moves and results."""

from __future__ import annotations

import random

import pytest

from scorpion.engine import PRESETS, Game
from scorpion.solver.state import State, is_won, moves, play


def same(state: State, game: Game) -> bool:
    return state == State.of(game)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_random_playouts_match_the_engine(preset: str) -> None:
    rules = PRESETS[preset]
    rng = random.Random(preset)
    for deal in range(12):
        game = Game.new(deal, preset)
        state = State.of(game)
        for _ in range(120):
            engine_moves = sorted(str(m) for m in game.legal_moves())
            steps = moves(state, rules, all_empties=True)
            assert sorted(s.text() for s in steps) == engine_moves, game.text()
            assert is_won(state, rules) == game.won
            if not steps or game.over:
                break
            step = rng.choice(steps)
            game.play(step.text())
            state = play(state, step, rules)
            assert same(state, game), (step.text(), game.text())


SPADES = "KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S AS"
HEARTS = "KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H AH"


def test_empty_columns_are_offered_once_unless_the_stock_lands_there() -> None:
    text = f"""
        stock: 2D 3D 4D
        1: |
        2: | {SPADES}
        3: | {HEARTS}
        4: |
        5: |
        6: | 5D 6D 7D 8D 9D TD JD QD KD AD
        runs: C
    """
    game = Game.from_text(text, "wasp")
    state = State.of(game)
    dests = {s.dest for s in moves(state, game.rules) if s.text().startswith("AD")}
    assert dests == {0, 3}  # column 1 (the stock falls on it) and one of columns 4 and 5
    every = {
        s.dest for s in moves(state, game.rules, all_empties=True) if s.text().startswith("AD")
    }
    assert every == {0, 3, 4}


def test_the_key_ignores_column_order_once_the_stock_is_dealt() -> None:
    a = Game.from_text(f"stock: -\n1: | {SPADES}\n2: | {HEARTS}\n3: |\nruns: D C\n")
    b = Game.from_text(f"stock: -\n1: |\n2: | {HEARTS}\n3: | {SPADES}\nruns: D C\n")
    assert State.of(a).key() == State.of(b).key()
    assert State.of(a) != State.of(b)
