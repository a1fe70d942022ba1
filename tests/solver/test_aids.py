"""Auto, marked hints, winnable-only deals and the analysis of a finished game."""

from __future__ import annotations

import pytest

from scorpion.engine import Game, GameRecord
from scorpion.solver import (
    aids,
    analyse,
    auto_move,
    deal_winnable,
    hints,
    next_winnable_deal,
    solve,
)

from .helpers import BLOCKED, TRAP, WON_IN_TWO


def test_auto_plays_a_game_to_a_win() -> None:
    game = Game.from_text(TRAP)
    while not game.won:
        move = auto_move(game)
        assert move is not None
        game.play(move)
    assert game.won


def test_auto_concedes_when_there_is_no_way_on() -> None:
    assert auto_move(Game.from_text(BLOCKED)) is None


def test_hints_mark_each_legal_move() -> None:
    game = Game.from_text(TRAP)
    marked = {h.move: h.winnable for h in hints(game)}
    assert list(marked) == [str(m) for m in game.legal_moves()]
    assert marked["2S>1"] is False
    assert marked["AS>2"] is True


def test_hints_say_none_when_the_budget_cannot_tell() -> None:
    game = Game.new(903, "classic")
    marked = hints(game, max_nodes=1)
    assert [h.move for h in marked] == [str(m) for m in game.legal_moves()]
    assert None in [h.winnable for h in marked]  # some need more than one position
    assert True not in [h.winnable for h in marked]  # deal 903 is lost


def test_next_winnable_deal_is_proved_and_cached(monkeypatch: pytest.MonkeyPatch) -> None:
    deal = next_winnable_deal("classic", 1)
    assert deal == 3  # deals 1 and 2 are lost
    assert solve(Game.new(deal, "classic")).verdict == "won"
    for earlier in range(1, deal):
        assert solve(Game.new(earlier, "classic")).verdict == "lost"

    def no_solving(*args: object, **kwargs: object) -> object:
        raise AssertionError("asked the solver again")

    monkeypatch.setattr(aids, "solve", no_solving)
    assert next_winnable_deal("classic", 1) == deal  # from the cache
    assert deal_winnable("classic", 2) is False


def test_next_winnable_deal_gives_up_after_its_limit() -> None:
    with pytest.raises(ValueError, match="no deal"):
        next_winnable_deal("classic", 1, limit=2)  # deals 1 and 2 are lost


def test_analyse_finds_the_move_that_lost_the_game() -> None:
    game = Game.from_text(TRAP)
    actions = ["2S>1", "undo", "2S>1"]
    analysis = analyse(game, actions)
    assert analysis.winnable is True
    assert analysis.verdicts == [False, True, False]
    assert analysis.mistakes == [0, 2]
    assert analysis.lost_after == 2


def test_analyse_a_won_game_record() -> None:
    game = Game.new(3, "classic")
    for move in solve(game).line:
        game.play(move, elapsed=1.0)
    record = GameRecord.from_game(game)
    analysis = analyse(record)
    assert analysis.winnable is True
    assert analysis.lost_after is None
    assert analysis.mistakes == []
    assert all(v is True for v in analysis.verdicts)


def test_analyse_a_lost_deal_and_a_give_up() -> None:
    game = Game.from_text(WON_IN_TWO)
    analysis = analyse(game, ["give-up"])
    assert analysis.winnable is True
    assert (analysis.verdicts, analysis.lost_after, analysis.mistakes) == ([False], 0, [])
    lost = analyse(Game.from_text(BLOCKED), [])
    assert (lost.winnable, lost.lost_after) == (False, None)


def test_analyse_needs_the_actions_with_a_game() -> None:
    with pytest.raises(ValueError, match="missing"):
        analyse(Game.from_text(TRAP))
