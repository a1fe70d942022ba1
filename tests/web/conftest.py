"""Fixtures: an HTTP client of the real server that tests/conftest.py starts.

The helpers live in :mod:`support.server` so tests/client can use them too.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from support.server import Api, ServerProcess


@pytest.fixture
async def api(server: ServerProcess) -> AsyncIterator[Api]:
    async with Api(server.url) as client:
        yield client
