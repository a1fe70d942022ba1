"""Fixtures shared by the web and browser tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from support.server import ServerProcess


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
