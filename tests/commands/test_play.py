"""``scorpion play``: a person types moves and sees the board."""

from __future__ import annotations

import io
import subprocess
import sys

from scorpion.commands.play import play, random_deal
from scorpion.engine import Game


def test_play_loop_moves_refuses_undoes_and_records() -> None:
    game = Game.new(1)
    stdout = io.StringIO()
    play(game, io.StringIO("5C>3\nKS>1\nhint\nundo\nrecord\nresign\nquit\n"), stdout)
    out = stdout.getvalue()
    assert "refused (face-down): The king of spades is face down" in out
    assert "hints: " in out and '[Deal "1"]' in out
    assert "1. 5C>3" in out and "2. undo" in out
    assert game.gave_up and "gave up" in out
    assert "8D 8H" in out and "7H 9S 4H" not in out  # the face-down cards stay hidden


def test_play_runs_as_a_command() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "scorpion.cli", "play", "7", "--preset", "normal"],
        input="deal\nquit\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0
    assert "stock: -" in done.stdout and "moves 1" in done.stdout


def test_a_prompt_solver_hints_and_auto() -> None:
    game = Game.new(6)  # winnable: the solver marks its hints and finds the next move
    stdout = io.StringIO()
    play(game, io.StringIO("hint\nauto\n"), stdout)
    out = stdout.getvalue()
    assert out.count("\n> ") == 3  # a prompt before each line read, and at the end
    hints = next(line for line in out.splitlines() if "hints: " in line)
    assert "(winnable)" in hints
    (auto,) = [line for line in out.splitlines() if "auto: " in line]
    assert game.moves_made == 1 and auto.endswith(f"auto: {game.log[0][0]}")
    assert auto.split("auto: ")[1] in hints  # auto plays a winning hint


def test_a_deal_past_2_64_is_a_clear_error() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "scorpion", "play", str(2**64)],
        input="quit\n", capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 1 and done.stderr.startswith("scorpion play: ")
    assert "Traceback" not in done.stderr


def test_random_deals_use_64_bits() -> None:
    deals = [random_deal() for _ in range(64)]
    assert all(0 <= d < 2**64 for d in deals)
    assert any(d >= 2**32 for d in deals)  # 32-bit draws would never get here
