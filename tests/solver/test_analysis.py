"""The analysis contract: a verdict per action, the turning point, never a guess."""

from __future__ import annotations

import random

import pytest

from scorpion.engine import Game, GameRecord
from scorpion.engine.record import apply_action
from scorpion.solver import Analysis, analyse, solve
from scorpion.solver.analysis import VERDICT_NAMES

from .helpers import replay

DEAL = 3  # classic deal 3 is winnable (tests/solver/test_aids.py)


def _planted_blunder() -> tuple[Game, list[str], int]:
    """Deal 3's winning line, and the first point of it where one legal move loses."""
    game = Game.new(DEAL, "classic")
    line = solve(game).line
    for k in range(len(line)):
        position = replay(game, line[:k])
        for move in position.legal_moves():
            after = position.copy()
            after.play(move)
            if str(move) != line[k] and solve(after).verdict == "lost":
                return game, [*line[:k], str(move)], k
    raise AssertionError("no move of the winning line can be turned into a loss")


def _truth(game: Game, actions: list[str]) -> list[bool]:
    """The unbounded solver's verdict on the position after every action."""
    out = []
    trial = game.copy()
    for text in actions:
        apply_action(trial, text, None)
        out.append(False if trial.gave_up else solve(trial).verdict == "won")
    return out


def test_a_planted_blunder_is_the_turning_point() -> None:
    game, actions, k = _planted_blunder()
    blundered = replay(game, actions)
    tail = [str(m) for m in blundered.legal_moves()[:1]]  # one more move, still lost
    analysis = analyse(game, actions + tail)
    assert analysis.outcome == "slipped"
    assert analysis.turning_point is not None
    assert analysis.turning_point.index == k
    assert analysis.turning_point.move == actions[k]
    assert analysis.verdicts == [True] * k + [False] * (1 + len(tail))
    kept = analysis.turning_point.kept
    assert kept is not None and kept != actions[k]
    assert solve(replay(game, [*actions[:k], kept])).verdict == "won"
    assert analysis.describe().startswith(f"the win slipped away at move {k + 1} ({actions[k]})")


def test_a_detour_undone_is_a_mistake_but_the_game_is_won() -> None:
    game, actions, k = _planted_blunder()
    line = solve(game).line
    played = [*actions, "undo", *line[k:]]
    analysis = analyse(game, played)
    assert analysis.outcome == "won"
    assert analysis.turning_point is None
    assert analysis.mistakes == [k]
    assert analysis.verdicts == [v for v in _truth(game, played)]


@pytest.mark.slow  # a search per move of six games: make test only
def test_every_verdict_is_the_solvers_on_random_games() -> None:
    rng = random.Random(7)
    for _ in range(6):
        game = Game.new(DEAL, "classic")
        trial, actions = game.copy(), []
        while not trial.over and len(actions) < 40:
            moves = trial.legal_moves()
            if not moves:
                break
            text = "undo" if actions and trial.can_undo and rng.random() < 0.15 else None
            text = text or str(rng.choice(moves))
            apply_action(trial, text, None)
            actions.append(text)
        analysis = analyse(game, actions)
        assert analysis.verdicts == _truth(game, actions)


def test_an_analysis_within_a_small_budget_says_undecided_and_never_guesses() -> None:
    game, actions, k = _planted_blunder()
    truth = _truth(game, actions)
    for total in (1, 50, 200):
        analysis = analyse(game, actions, total_nodes=total)
        known = [(v, t) for v, t in zip(analysis.verdicts, truth, strict=True) if v is not None]
        assert all(v == t for v, t in known)  # whatever it says is proved
        if analysis.outcome != "slipped":
            assert analysis.outcome == "undecided"
            assert analysis.turning_point is None
            after = analysis.undecided_after
            assert after is not None and after <= k
            assert analysis.describe() == f"undecided after move {after}"
            assert all(v is True for v in analysis.verdicts[: max(after, 0)] if v is not None)
    tiny = analyse(game, actions, max_nodes=1, total_nodes=1)
    assert (tiny.outcome, tiny.undecided_after) == ("undecided", 0)


def test_a_lost_deal_was_never_winnable() -> None:
    game = Game.new(1, "classic")  # deal 1 is lost
    move = str(game.legal_moves()[0])
    analysis = analyse(game, [move, "give-up"])
    assert (analysis.outcome, analysis.winnable, analysis.verdicts) == (
        "never-winnable",
        False,
        [False, False],
    )
    assert analysis.describe() == "never winnable"


def test_a_won_record_and_the_wire_form_round_trip() -> None:
    game = Game.new(DEAL, "classic")
    for move in solve(game).line:
        game.play(move, elapsed=1.0)
    analysis = analyse(GameRecord.from_game(game), max_nodes=1, total_nodes=1)
    assert analysis.outcome == "won"
    assert all(v is True for v in analysis.verdicts)  # a won game's line needs no search
    data = analysis.to_dict()
    assert data["verdicts"] == [VERDICT_NAMES[True]] * len(game.log)
    assert Analysis.from_dict(data) == analysis


@pytest.mark.parametrize(
    ("preset", "deal"),
    [("classic", DEAL), ("wasp", 4), pytest.param("relaxed", 6, marks=pytest.mark.slow)],
)
def test_the_shared_cache_of_lost_positions_changes_no_verdict(preset: str, deal: int) -> None:
    rng = random.Random(11)
    with_cache = without = 0
    for _ in range(3):
        game = Game.new(deal, preset)
        trial, actions = game.copy(), []
        while not trial.over and len(actions) < 30:
            moves = trial.legal_moves()
            if not moves:
                break
            text = "undo" if actions and trial.can_undo and rng.random() < 0.15 else None
            text = text or str(rng.choice(moves))
            apply_action(trial, text, None)
            actions.append(text)
        cached = analyse(game, actions, max_nodes=None)
        plain = analyse(game, actions, max_nodes=None, cache=False)
        assert cached.to_dict() | {"nodes": 0} == plain.to_dict() | {"nodes": 0}
        with_cache += cached.nodes
        without += plain.nodes
    assert with_cache <= without
