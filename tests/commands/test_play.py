"""``scorpion play``: a person types moves and sees the board."""

from __future__ import annotations

import io
import subprocess
import sys

from scorpion.commands.play import play
from scorpion.engine import Game


def test_play_loop_moves_refuses_undoes_and_records() -> None:
    game = Game.new(1)
    stdout = io.StringIO()
    play(game, io.StringIO("5C>3\nKS>1\nhint\nundo\nrecord\nresign\nquit\n"), stdout)
    out = stdout.getvalue()
    assert "refused (face-down): The king of spades is face down" in out
    assert "legal moves: " in out and '[Deal "1"]' in out
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
