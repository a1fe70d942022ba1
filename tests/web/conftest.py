"""Fixtures: an HTTP client of the real server that tests/conftest.py starts.

The helpers live in :mod:`scorpion_dev.server` (dev/): tests/client and the benchmarks use them too.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from scorpion_dev.server import Api, ServerProcess


@pytest.fixture
async def api(server: ServerProcess) -> AsyncIterator[Api]:
    async with Api(server.url) as client:
        yield client
