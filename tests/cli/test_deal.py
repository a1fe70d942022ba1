"""``scorpion deal``: the real console script, in a subprocess."""

from __future__ import annotations

import subprocess
import sys

from scorpion.engine import Game


def scorpion(*args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "scorpion.cli", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=60)


def test_deal_prints_the_position_text() -> None:
    done = scorpion("deal", "12345", "--preset", "wasp")
    assert done.returncode == 0
    assert done.stdout == Game.new(12345, "wasp").text()


def test_deal_view_hides_cards() -> None:
    done = scorpion("deal", "3", "--view")
    assert done.stdout.splitlines()[0] == "stock: ?? ?? ??"


def test_bad_deal_number_is_a_clear_error() -> None:
    done = scorpion("deal", "-4")
    assert done.returncode != 0 and "deal number" in done.stderr
