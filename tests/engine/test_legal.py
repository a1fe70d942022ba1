"""Legal moves found by target agree with the scan, move for move and in order; their text
(what a view sends) is each move's text."""

from __future__ import annotations

from hypothesis import given, settings

from scorpion.engine import Game
from scorpion.engine.legal import moves_by_scan, moves_by_target

from .helpers import choices, deals, presets


@settings(max_examples=150, deadline=None)
@given(deals, presets, choices)
def test_moves_by_target_are_the_scans_moves_in_the_same_order_and_texts_their_text(
    deal: int, preset: str, picks: list[int]
) -> None:
    game = Game.new(deal, preset)
    rules = game.rules
    for pick in picks:
        moves = game.legal_moves()
        if rules.build != "any-suit" and (rules.empty == "kings" or all(game.columns)):
            position = game.columns, game.down, game.reserve
            assert moves_by_target(*position) == moves_by_scan(rules, *position)
        assert game.legal_texts() == [str(move) for move in moves]
        if not moves:
            break
        game.play(moves[pick % len(moves)])


def test_a_king_goes_into_an_empty_column_unless_it_is_a_whole_column() -> None:
    game = Game.from_text(
        """stock: -
        1: | KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C AC KH
        2: AH 2H 3H 4H 5H 6H 9H TH JH QH | 8H 7H
        3: |
        runs: S D"""
    )
    # KC would take its whole column along (no gain); KH, on top of AC, may go.
    assert [str(m) for m in game.legal_moves()] == ["KH>3"]
    position = game.columns, game.down, game.reserve
    assert moves_by_target(*position) == moves_by_scan(game.rules, *position)
