"""The build that runs is the one asked for (``SCORPION_BUILD``, pure unless set: make
test-compiled sets it); ``scorpion --version`` names it (tests/test_wheel.py)."""

from __future__ import annotations

import os

from scorpion.build import build
from scorpion.engine import game


def test_the_build_is_the_one_asked_for() -> None:
    assert build() == os.environ.get("SCORPION_BUILD", "pure"), game.__file__
