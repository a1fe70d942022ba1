"""Fixtures shared by the web and browser tests."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

from support.server import ServerProcess

# Property tests draw the same examples on every run (a failure in CI is a failure on every
# machine, never a lucky draw); SCORPION_HYPOTHESIS=explore draws new ones for local hunting.
settings.register_profile("repeatable", derandomize=True, print_blob=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("SCORPION_HYPOTHESIS", "repeatable"))


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    """A real ``scorpion serve`` on a free 127.0.0.1 port with a SQLite file in tmp_path."""
    proc = ServerProcess(tmp_path / "data" / "scorpion.db", args=("--grace", "60"))
    proc.start()
    try:
        yield proc
    finally:
        if proc.running:
            proc.stop()
