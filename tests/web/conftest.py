"""Fixtures: a real ``scorpion serve`` on a free 127.0.0.1 port with a SQLite file in tmp_path.

The helpers live in :mod:`scorpion.web.testing` so tests/client can use them too.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from scorpion.web.testing import Api, ServerProcess


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    proc = ServerProcess(tmp_path / "data" / "scorpion.db", args=("--grace", "60"))
    proc.start()
    try:
        yield proc
    finally:
        if proc.running:
            proc.stop()


@pytest.fixture
async def api(server: ServerProcess) -> AsyncIterator[Api]:
    async with Api(server.url) as client:
        yield client
