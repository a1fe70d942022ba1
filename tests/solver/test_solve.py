"""solve(): hand-made positions with known answers, real deals, budgets, the self-check."""

from __future__ import annotations

import pytest

from scorpion.engine import Game
from scorpion.solver import solve
from scorpion.solver.solve import vetted

from .helpers import BLOCKED, TRAP, WON_IN_TWO, plain_search, replay


def test_won_in_two_moves() -> None:
    solution = solve(Game.from_text(WON_IN_TWO))
    assert solution.verdict == "won"
    assert solution.line == ["AS>2", "2S>1"]
    assert solution.nodes >= 1


def test_lost_by_a_blocked_card() -> None:
    game = Game.from_text(BLOCKED)
    assert game.legal_moves()  # not stuck at once: the loss needs reasoning
    solution = solve(game)
    assert (solution.verdict, solution.line) == ("lost", [])


def test_the_greedy_move_loses_in_the_trap() -> None:
    game = Game.from_text(TRAP)
    assert "2S>1" in [str(m) for m in game.legal_moves()]
    solution = solve(game)
    assert solution.verdict == "won"
    assert solution.line[0] != "2S>1"
    assert replay(game, solution.line).won
    greedy = game.copy()
    greedy.play("2S>1")
    assert solve(greedy).verdict == "lost"
    assert plain_search(greedy) is False
    assert plain_search(game) is True


@pytest.mark.parametrize("preset", ["classic", "hard", "strict", "traditional", "three-blind-mice"])
def test_claimed_wins_on_real_deals_replay_to_a_won_game(preset: str) -> None:
    wins = 0
    for deal in range(1, 16):
        game = Game.new(deal, preset)
        solution = solve(game, max_nodes=20_000)
        assert solution.note == ""
        if solution.verdict == "won":
            wins += 1
            assert replay(game, solution.line).won
            assert not game.won  # the game itself is untouched
    assert wins >= 1


def test_wasp_wins_are_found_and_replay() -> None:
    for deal in range(1, 6):
        game = Game.new(deal, "wasp")
        solution = solve(game, max_nodes=20_000)
        if solution.verdict == "won":
            assert replay(game, solution.line).won


def test_budgets_give_unknown() -> None:
    game = Game.new(903, "classic")  # needs hundreds of thousands of positions
    solution = solve(game, max_nodes=50)
    assert solution.verdict == "unknown"
    assert solution.line == []
    assert solution.nodes == 51
    timed = solve(game, max_seconds=0.0)
    assert timed.verdict == "unknown"


def test_over_games() -> None:
    game = Game.from_text(WON_IN_TWO)
    for move in ["AS>2", "2S>1"]:
        game.play(move)
    assert game.won
    assert solve(game).verdict == "won"
    game = Game.new(1, "classic")
    game.give_up()
    assert solve(game).verdict == "lost"


def test_a_line_that_does_not_win_is_reported_unknown() -> None:
    """The self-check: if the search ever claimed a wrong win, solve() must not pass it on."""
    game = Game.from_text(WON_IN_TWO)
    assert vetted(game, "won", ["2S>1", "AS>2"]) == (
        "unknown", [], "the line found did not win in the engine"
    )  # fmt: skip
    assert vetted(game, "won", ["AS>2", "2S>1"]) == ("won", ["AS>2", "2S>1"], "")
    assert vetted(game, "lost", ["AS>2"]) == ("lost", [], "")


def test_wasp_lines_lose_their_detours() -> None:
    from scorpion.solver.search import Search
    from scorpion.solver.solve import _step, replays_to_win, shortened
    from scorpion.solver.state import State, moves, play

    game = Game.new(901, "wasp")
    rules = game.rules
    verdict, steps = Search(rules, None, 30).run(State.of(game))
    raw = [step.text() for step in steps]
    assert verdict == "won" and replays_to_win(game, raw)
    # The search no longer shuffles piles among empty columns (no split-offs), so a detour
    # is put in by hand: at the first position of the line with a move that another move
    # undoes, that move and its undoing.
    state, at = State.of(game), 0
    while at < len(raw):
        detour = next(
            (
                [a.text(), b.text()]
                for a in moves(state, rules, all_empties=True)
                for b in moves(play(state, a, rules), rules, all_empties=True)
                if play(play(state, a, rules), b, rules).key() == state.key()
            ),
            None,
        )
        if detour:
            break
        state = play(state, _step(state, raw[at]), rules)
        at += 1
    assert detour is not None
    line = raw[:at] + detour + raw[at:]
    short = shortened(game, line)
    assert replays_to_win(game, line) and replays_to_win(game, short)
    assert len(short) <= len(raw) < len(line)
    assert solve(game).line == shortened(game, raw)


def test_positions_proved_lost_are_learnt_and_skipped() -> None:
    from scorpion.solver.cache import LostPositions
    from scorpion.solver.state import State

    lost = LostPositions()
    game = Game.from_text(BLOCKED)
    first = solve(game, lost=lost)
    assert first.verdict == "lost" and first.nodes >= 1
    assert State.of(game).key() in lost
    again = solve(game, lost=lost)
    assert (again.verdict, again.nodes) == ("lost", 0)  # the position itself is known
    won = Game.from_text(WON_IN_TWO)
    assert solve(won, lost=lost).verdict == "won"  # a win is never cut by another's losses
    assert replay(won, solve(won, lost=lost).line).won
