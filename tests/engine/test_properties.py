"""Property tests: random legal play with random undos, over every preset."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from scorpion.engine import Game, GameRecord, Move, MoveError, parse_position
from scorpion.engine.cards import DECK
from scorpion.engine.progress import ordered_cards

from .helpers import card_count, choices, deals, presets


def play_randomly(game: Game, picks: list[int]) -> list[tuple[str, int, str]]:
    """Play or undo by the picks; return (position, score, action) before each action."""
    trail = []
    clock = 0.0
    for pick in picks:
        if game.over:
            break
        moves = game.legal_moves()
        trail.append((game.text(), game.score, str(pick)))
        clock += 1.0
        if game.can_undo and (pick % 5 == 0 or not moves):
            game.undo(elapsed=clock)
        elif moves:
            game.play(moves[pick % len(moves)], elapsed=clock)
        else:
            break
        assert card_count(game) == 52
    return trail


@settings(max_examples=150, deadline=None)
@given(deals, presets, choices)
def test_random_play_keeps_52_cards_and_replays_identically(
    deal: int, preset: str, picks: list[int]
) -> None:
    game = Game.new(deal, preset)
    play_randomly(game, picks)
    again = GameRecord.from_game(game).replay()
    assert (again.text(), again.score, again.moves_made, again.won, again.lost) == (
        game.text(), game.score, game.moves_made, game.won, game.lost,
    )  # fmt: skip


@settings(max_examples=150, deadline=None)
@given(deals, presets, choices)
def test_a_view_built_from_the_last_ones_parts_equals_one_built_afresh(
    deal: int, preset: str, picks: list[int]
) -> None:
    # view() keeps each column's part until play() or undo() marks the column stale; a
    # copy has kept nothing, so builds every part again. Views are asked for after some
    # actions only: a part kept may be several actions old. A view given out never changes.
    game = Game.new(deal, preset)
    given_out: list[tuple[dict[str, object], str]] = []
    for pick in picks:
        if pick % 3:
            view = game.view()
            assert view == game.copy().view()
            assert view["ordered"] == ordered_cards(game)
            given_out.append((view, repr(view)))
        moves = game.legal_moves()
        if game.over or not (moves or game.can_undo):
            break
        if game.can_undo and (pick % 4 == 0 or not moves):
            game.undo(elapsed=0)
        else:
            game.play(moves[pick % len(moves)], elapsed=0)
    assert all(repr(view) == text for view, text in given_out)


@settings(max_examples=150, deadline=None)
@given(deals, presets, choices)
def test_undo_restores_the_exact_position_and_score(
    deal: int, preset: str, picks: list[int]
) -> None:
    game = Game.new(deal, preset)
    for pick in picks:
        moves = game.legal_moves()
        if not moves:
            break
        before = game.text(), game.score, game.view()
        game.play(moves[pick % len(moves)], elapsed=0)
        if game.over:
            break
        game.undo(elapsed=0)
        assert (game.text(), game.score) == before[:2]
        assert {**game.view(), "moves": 0} == {**before[2], "moves": 0}
        game.play(moves[pick % len(moves)], elapsed=0)


@settings(max_examples=100, deadline=None)
@given(deals, presets, choices, st.integers(0, 51), st.integers(0, 10))
def test_a_refused_move_changes_nothing(
    deal: int, preset: str, picks: list[int], card: int, column: int
) -> None:
    game = Game.new(deal, preset)
    play_randomly(game, picks)
    before = game.text(), game.score, game.moves_made, list(game.log)
    for move in (Move(card, column), Move(card, None), Move(None, None)):
        try:
            game.copy().play(move)
        except MoveError:
            try:
                game.play(move)
            except MoveError as refused:
                assert refused.code and refused.message
            assert (game.text(), game.score, game.moves_made, game.log) == before


@settings(max_examples=100, deadline=None)
@given(deals, presets, choices)
def test_position_text_parses_back_to_the_same_position(
    deal: int, preset: str, picks: list[int]
) -> None:
    game = Game.new(deal, preset)
    play_randomly(game, picks)
    again = Game.from_text(game.text(), preset)
    assert again.text() == game.text()
    assert (
        sorted(map(str, again.legal_moves())) == sorted(map(str, game.legal_moves())) or game.over
    )
    view = parse_position(game.view_text())
    assert view.down == game.down and len(view.columns) == len(game.columns)


def test_every_legal_move_is_accepted_and_every_other_refused() -> None:
    game = Game.new(42, "wasp")
    for _ in range(30):
        legal = {str(m) for m in game.legal_moves()}
        for card in DECK:
            for column in range(len(game.columns)):
                move = Move(card, column)
                try:
                    game.copy().play(move)
                    assert str(move) in legal
                except MoveError:
                    assert str(move) not in legal
        if not legal:
            break
        game.play(sorted(legal)[0])
