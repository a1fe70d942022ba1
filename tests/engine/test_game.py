"""The game's rules beyond the seed examples: refusals, runs options, scoring, undo, loss."""

from __future__ import annotations

import pytest

from scorpion.engine import Game, MoveError, Rules, card_text, parse_card

from .helpers import SEED_000, card_count, game_of, position

RUN_CLUBS = "KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C AC"


def refusal(game: Game, move: str) -> str:
    before = game.text(), game.score, game.moves_made
    with pytest.raises(MoveError) as refused:
        game.play(move)
    assert (game.text(), game.score, game.moves_made) == before
    return refused.value.code


def test_refusal_codes() -> None:
    game = Game.from_text(SEED_000, "classic")
    assert refusal(game, "4S>1") == "face-down"  # in the stock
    assert refusal(game, "2S>1") == "face-down"  # under column 1
    assert refusal(game, "3S>7") == "not-one-higher"
    assert refusal(game, "KD>6") == "king-onto-card"
    assert refusal(game, "3S>1") == "same-column"
    assert refusal(game, "3S>9") == "unknown-column"
    assert refusal(game, "ZZ>1") == "bad-move"
    assert refusal(game, "3C>2") == "same-column"


def test_nothing_goes_on_an_ace() -> None:
    game = game_of(["| 2D", "| 4D AS", "| 2S", "| 6D", "| 7D", "| 9S", "| 9H"])
    assert refusal(game, "2S>2") == "onto-ace"


def test_whole_column_into_an_empty_column_changes_nothing() -> None:
    game = game_of(["| 2D", "| KH 5C", "|", "| 6D", "| 7D", "| 9S", "| 9H"], "wasp")
    assert refusal(game, "KH>3") == "whole-column"
    assert "KH>3" not in map(str, game.legal_moves())


def test_a_game_over_refuses_everything() -> None:
    game = Game.new(1)
    game.give_up()
    assert game.lost and game.gave_up and game.legal_moves() == []
    assert refusal(game, "deal") == "game-over"
    with pytest.raises(MoveError, match="over"):
        game.undo()


def test_a_game_over_drops_its_undo_records_and_keeps_its_log() -> None:
    """Nothing undoes a game over: it keeps no undo record (a day's daily holds every
    finished attempt's game in memory), but its log of actions stays (records, replays)."""
    game = Game.new(1)
    for _ in range(3):
        game.play(game.legal_moves()[0])
    assert game.can_undo and len(game._history) == 3
    game.give_up()
    assert not game._history and not game.can_undo
    assert len(game.log) == 4 and game.log[-1][0] == "give-up"


def test_placed_runs_uncovered_later_stay_until_their_king_moves() -> None:
    cols = ["| 2D", f"3D | {RUN_CLUBS} 9H", "| TH", "|", "| 7D", "| 9S", "| 4D"]
    game = game_of(cols, "classic")
    game.play("9H>3")  # uncovers the run: under `placed` it stays
    assert game.runs == []
    game.play("KC>4")  # the King moves into an empty column: now it leaves
    assert game.runs == [3] and game.score == 5 + 5 + 100


def test_placed_run_on_a_bottom_king_can_never_leave() -> None:
    cols = ["| 2D", f"| {RUN_CLUBS} 9H", "| TH", "|", "| 7D", "| 9S", "| 4D"]
    game = game_of(cols, "classic")
    game.play("9H>3")
    assert refusal(game, "KC>4") == "whole-column"
    assert game.runs == []


def test_any_runs_leave_the_moment_they_are_uncovered() -> None:
    cols = ["| 2D", f"3D | {RUN_CLUBS} 9H", "| TH", "|", "| 7D", "| 9S", "| 4D"]
    game = game_of(cols, "hard")
    outcome = game.play("9H>3")
    assert outcome.runs == (3,) and game.runs == [3]
    assert card_text(game.columns[1][-1]) == "3D" and game.down[1] == 0  # turned over


def test_keep_runs_stay_and_four_complete_runs_win() -> None:
    spades = "KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S"
    cols = ["| KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H AH", f"| {spades}", "| AS",
            "| KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D AD", f"| {RUN_CLUBS}", "|", "|"]  # fmt: skip
    game = game_of(cols, "traditional")
    assert not game.won
    game.play("AS>2")
    assert game.won and game.runs == [] and "runs: -" in game.text()


def test_points_scoring_turns_runs_and_undo() -> None:
    cols = ["| 2D", f"5H | {RUN_CLUBS[:-3]}", "| 4D AC", "| 6D", "| 7D", "| 9S", "| 9H"]
    game = game_of(cols, "classic")
    outcome = game.play("AC>2")
    assert outcome.runs == (3,) and outcome.turned == (parse_card("5H"),)
    assert game.score == 5 + 100 + 5  # same suit, run, card turned
    game.undo()
    assert game.score == 0 and game.runs == [] and game.down[1] == 1


def test_cards_scoring_counts_the_foundations() -> None:
    cols = ["| 2D", f"| {RUN_CLUBS[:-3]}", "| 4D AC", "| 6D", "| 7D", "| 9S", "| 9H"]
    game = game_of(cols, "strict")
    game.play("AC>2")
    assert game.score == 13


def test_timed_scoring_moves_runs_deductions_and_the_win_bonus() -> None:
    game = game_of(["| 2D", "| 3D", "| 5D", "| 6D", "| 7D", "| 9S", "| 9H"], "normal")
    game.play("2D>2", elapsed=10)
    assert game.score == 10
    game.play("5D>4", elapsed=29.9)
    assert game.score == 20
    assert game.tick(65) == 0  # two deductions of 30, clamped at zero each time
    game.play("6D>5", elapsed=66)
    assert game.score == 10
    game.undo(elapsed=70)
    assert game.score == 0 and game.moves_made == 4  # an undo counts as a move


def test_timed_win_adds_600000_over_seconds() -> None:
    game = Game.from_text(
        "stock: -\n1: |\n2: | KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C\n3: | AC\nruns: S H D\n",
        "normal",
    )
    game.play("AC>2", elapsed=120)
    assert game.won
    assert game.score == 10 + 10 + 600_000 // 120


def test_loss_detect_ends_the_game_when_the_last_move_leaves_nothing() -> None:
    cols = ["2H | KC", "4H | KH", "6H | QC", "| 9H"]
    text = position(cols, stock="3H 5H 7H", runs="S D", filler=3)
    game = Game.from_text(text, "strict")
    assert game.legal_moves()  # the stock can still be dealt
    game.play("deal")
    assert game.lost and game.over and game.legal_moves() == []
    classic = Game.from_text(text, "classic")
    classic.play("deal")
    assert not classic.lost and classic.legal_moves() == []


def test_undo_limit_and_off() -> None:
    game = Game.new(3, Rules(undo=1))
    first, second = game.legal_moves()[0], None
    game.play(first)
    second = game.legal_moves()[0]
    game.play(second)
    game.undo()
    with pytest.raises(MoveError) as refused:
        game.undo()
    assert refused.value.code == "undo-limit"
    off = Game.new(3, Rules(undo=0))
    off.play(off.legal_moves()[0])
    with pytest.raises(MoveError) as refused:
        off.undo()
    assert refused.value.code == "undo-off"
    with pytest.raises(MoveError) as refused:
        Game.new(3).undo()
    assert refused.value.code == "nothing-to-undo"


def test_tap_to_move_goes_to_the_one_card_it_fits() -> None:
    game = game_of(["| 2D", "| 4D 8S 3H JS", "| 4C", "| 6D", "| 7D", "| 9S", "| 9H"])
    assert str(game.resolve("8S")) == "8S>6"
    game.play("8S")
    assert game.text().splitlines()[6] == "6: | 9S 8S 3H JS"


def test_tap_to_move_into_the_first_empty_column_or_refused() -> None:
    game = game_of(["| 2D", "| 4D KS 3H", "| 4C", "|", "| 7D", "|", "| 9H"])
    assert str(game.resolve("KS")) == "KS>4"
    with pytest.raises(MoveError) as refused:
        game.resolve("3H")
    assert refused.value.code == "no-target"


def test_tap_to_move_is_ambiguous_under_any_suit() -> None:
    game = game_of(["| 2D", "| 4D 8S", "| 9C", "| 9H", "| 7D", "| 5D", "| 6C"], "relaxed")
    with pytest.raises(MoveError) as refused:
        game.resolve("8S")
    assert refused.value.code == "ambiguous"


def test_three_blind_mice_layout_and_reserve_moves() -> None:
    game = Game.new(5, "three-blind-mice")
    assert len(game.columns) == 10 and game.down == [0] * 7 + [3] * 3
    assert len(game.reserve) == 2 and game.stock == [] and card_count(game) == 52
    assert "reserve: " in game.text()
    assert Game.from_text(game.text(), "three-blind-mice").text() == game.text()
    with pytest.raises(MoveError) as refused:
        game.play("deal")
    assert refused.value.code == "no-stock"
    reserve_moves = [m for m in game.legal_moves() if m.card in game.reserve]
    for move in reserve_moves:
        before = game.text()
        game.play(move)
        assert move.card not in game.reserve
        game.undo()
        assert game.text() == before


def test_view_never_names_a_face_down_card() -> None:
    game = Game.new(11)
    hidden = {card_text(c) for col, d in zip(game.columns, game.down, strict=True) for c in col[:d]}
    hidden |= {card_text(c) for c in game.stock}
    assert not hidden & set(str(game.view()).replace("'", " ").replace(",", " ").split())
    assert game.view()["stock"] == 3


def test_copy_is_independent() -> None:
    game = Game.new(2)
    other = game.copy()
    other.play(other.legal_moves()[0])
    assert other.text() != game.text() and game.moves_made == 0
    other.undo()
    assert other.text() == game.text()


def test_repr_pastes_back() -> None:
    game = Game.new(9, "wasp")
    game.play(game.legal_moves()[0])
    again = eval(repr(game), {"Game": Game})
    assert again.text() == game.text() and again.rules == game.rules


def test_undo_reveals_says_whether_the_next_undo_takes_back_a_shown_card() -> None:
    cols = ["| 2D", "5H | 4D 9H", "| 3D", "| TH", "| 5D", "| 9S", "| 6D"]
    game = game_of(cols, "classic", stock="QS QC QH", filler=5)  # the rest under 9S
    assert not game.undo_reveals  # nothing to undo
    game.play("2D>3")  # a plain move: nothing turns
    assert not game.undo_reveals
    game.play("9H>4")
    game.play("4D>5")  # 5H turns face up
    assert game.undo_reveals
    game.undo()
    assert not game.undo_reveals  # the next undo would take back 9H>4: nothing was shown
    game.play("deal")  # the stock's three cards
    assert game.undo_reveals
    game.undo()
    assert not game.undo_reveals and len(game.stock) == 3


def test_undo_reveals_a_card_under_a_run_that_left() -> None:
    cols = ["| 2D", f"3D | {RUN_CLUBS} 9H", "| TH", "|", "| 7D", "| 9S", "| 4D"]
    game = game_of(cols, "hard")
    game.play("9H>3")  # the run leaves and 3D turns, in column 2 (not the move's source)
    assert game.down[1] == 0 and game.undo_reveals
    plain = game_of(["| 2D", f"| {RUN_CLUBS} 9H", "| TH", "|", "| 7D", "| 9S", "| 4D"], "hard")
    plain.play("9H>3")  # a run leaves an emptied column: nothing was face down
    assert plain.runs == [3] and not plain.undo_reveals
