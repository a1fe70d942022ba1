"""Worked examples of the rules (docs/rules.md), each played on the engine."""

from __future__ import annotations

import pytest

from scorpion.engine import Game, MoveError, card_text

from .helpers import SEED_000, game_of


def column_text(game: Game, j: int) -> str:
    return game.text().splitlines()[j + 1]


def test_000_first_move_of_a_won_game_carries_the_7s() -> None:
    game = Game.from_text(SEED_000, "classic")
    outcome = game.play("4H>7")
    assert column_text(game, 1) == "2: AH 2D JD | QH 3C"
    assert column_text(game, 6) == "7: | AD QD 9D 6S 2H TD 5H 4H 7S"
    assert outcome.points == 5  # the 4H lands on a card of its own suit
    assert game.score == 5 and game.moves_made == 1


def test_000_the_15_hidden_cards_are_the_other_15() -> None:
    game = Game.from_text(SEED_000, "classic")
    hidden = {c for col, d in zip(game.columns, game.down, strict=True) for c in col[:d]}
    assert len(hidden | set(game.stock)) == 15
    assert game.view_text().count("??") == 15


def test_004_a_group_moves_onto_its_own_suit_and_turns_a_card() -> None:
    game = game_of(["| 2D", "5C | 8S 3H JS", "| 4D", "| 6D", "| 7D", "| 9S", "| 9H"])
    outcome = game.play("8S>6")
    assert column_text(game, 5) == "6: | 9S 8S 3H JS"
    assert column_text(game, 1) == "2: | 5C"
    assert outcome.turned == (game.columns[1][-1],)


def test_004_onto_a_nine_of_hearts_is_refused_same_suit_only() -> None:
    game = game_of(["| 2D", "5C | 8S 3H JS", "| 4D", "| 6D", "| 7D", "| 9S", "| 9H"])
    before = game.text()
    with pytest.raises(MoveError) as refused:
        game.play("8S>7")
    assert refused.value.code == "same-suit"
    assert game.text() == before


@pytest.mark.parametrize(("preset", "allowed"), [("relaxed", True), ("classic", False)])
def test_000_seven_of_hearts_onto_eight_of_spades(preset: str, allowed: bool) -> None:
    game = game_of(["| 2D", "| 3D", "| 8S", "| 7H", "| 5D", "| 6D", "| 9D"], preset)
    if allowed:
        game.play("7H>3")
        assert column_text(game, 2).endswith("8S 7H")
        assert game.score == 0  # a placement on another suit scores nothing
    else:
        with pytest.raises(MoveError, match=r"^Rule: cards must be of the same suit$"):
            game.play("7H>3")


def empty_column_game(preset: str) -> Game:
    return game_of(["| 2D", "| QD KH 5C", "| 9C 8D", "|", "| 5D", "| 6D", "| 9D"], preset)


@pytest.mark.parametrize("preset", ["classic", "wasp"])
def test_a_king_with_cards_on_it_goes_into_an_empty_column(preset: str) -> None:
    game = empty_column_game(preset)
    game.play("KH>4")
    assert column_text(game, 3) == "4: | KH 5C"


def test_any_other_card_into_an_empty_column_is_refused_under_kings() -> None:
    game = empty_column_game("classic")
    with pytest.raises(MoveError, match=r"^Only a King can go in an empty column$") as refused:
        game.play("8D>4")
    assert refused.value.code == "empty-needs-king"


def test_any_other_card_into_an_empty_column_is_allowed_under_any() -> None:
    game = empty_column_game("wasp")
    game.play("8D>4")
    assert column_text(game, 3) == "4: | 8D"


def test_the_stock_deals_one_card_onto_each_of_columns_1_to_3_once() -> None:
    game = Game.from_text(SEED_000, "classic")
    game.play("deal")
    assert [card_text(col[-1]) for col in game.columns[:3]] == ["4S", "5D", "QS"]
    assert game.score == 0  # dealt cards score nothing for where they land
    assert game.text().startswith("stock: -\n")
    with pytest.raises(MoveError) as refused:
        game.play("deal")
    assert refused.value.code == "stock-dealt"


RUN_CLUBS = "KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C"


@pytest.mark.parametrize("preset", ["classic", "strict"])
def test_a_column_running_k_to_a_of_one_suit_leaves_by_itself(preset: str) -> None:
    game = game_of(["| 2D", f"| {RUN_CLUBS}", "| 4D AC", "| 6D", "| 7D", "| 9S", "| 9H"], preset)
    outcome = game.play("AC>2")
    assert outcome.runs == (3,)
    assert game.runs == [3] and column_text(game, 1) == "2: |"


@pytest.mark.parametrize("preset", ["classic", "strict"])
def test_a_run_covered_by_another_card_stays(preset: str) -> None:
    game = game_of(["| 2D", f"| {RUN_CLUBS}", "| 4D AC 5H", "| 6D", "| 7D", "| 9S", "| 9H"], preset)
    game.play("AC>2")
    assert game.runs == []
    assert column_text(game, 1) == f"2: | {RUN_CLUBS} AC 5H"
