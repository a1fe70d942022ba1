"""The store of a test: open on ``database`` (SQLite, or PostgreSQL under the backends mark)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from scorpion.store import Store, open_store


@pytest.fixture
async def store(database: str) -> AsyncIterator[Store]:
    s = open_store(database)
    await s.open()
    yield s
    await s.close()
