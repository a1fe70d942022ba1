"""The store's devices, codes and reports (schema 3): the contract a PostgreSQL store must keep."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from scorpion.store import SaveReport, SQLiteStore
from scorpion.store.schema import VERSION

H = bytes.fromhex


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SQLiteStore]:
    s = SQLiteStore(tmp_path / "s.db")
    await s.open()
    await s.create_player("p1", b"t1", "Ada")
    yield s
    await s.close()


async def test_a_device_code_works_once_before_it_expires(store: SQLiteStore) -> None:
    await store.add_device_code(b"c1", "p1", expires=1000.0)
    assert await store.claim_device_code(b"c1", b"t2", now=2000.0) is None  # expired
    assert await store.claim_device_code(b"c1", b"t2", now=500.0) is None  # and gone
    await store.add_device_code(b"c2", "p1", expires=1000.0)
    player = await store.claim_device_code(b"c2", b"t2", now=500.0)
    assert player is not None and player.id == "p1"
    assert await store.claim_device_code(b"c2", b"t3", now=500.0) is None  # once
    assert (await store.player_by_device_token(b"t2")).id == "p1"  # type: ignore[union-attr]
    assert await store.player_by_device_token(b"t3") is None
    assert await store.player_by_device_token(b"t1") is None  # the first token is the player's


async def test_a_recovery_code_is_replaced_and_tokens_go_with_the_player(
    store: SQLiteStore,
) -> None:
    await store.set_recovery_code("p1", b"r1")
    assert (await store.recover_player(b"r1", b"t2")).id == "p1"  # type: ignore[union-attr]
    await store.set_recovery_code("p1", b"r2")
    assert await store.recover_player(b"r1", b"t3") is None
    assert (await store.recover_player(b"r2", b"t3")).id == "p1"  # type: ignore[union-attr]
    await store.add_device_code(b"c1", "p1", expires=1e12)
    assert await store.delete_player("p1")
    for token in (b"t2", b"t3"):
        assert await store.player_by_device_token(token) is None
    assert await store.recover_player(b"r2", b"t4") is None
    assert await store.claim_device_code(b"c1", b"t5", now=0.0) is None


async def test_reports_are_kept_newest_first_after_the_players_are_gone(
    store: SQLiteStore, tmp_path: Path
) -> None:
    await store.write([SaveReport("r", "p1", "Ada", "p2", "", 1.0)])
    await store.write([SaveReport("r", "p1", "Ada", "p3", "rude", 2.0)])
    await store.delete_player("p1")
    reports = await store.name_reports()
    assert [(r["reporter_id"], r["reason"], r["name"]) for r in reports] == [
        ("p3", "rude", "Ada"),
        ("p2", "", "Ada"),
    ]
    assert len(await store.name_reports(limit=1)) == 1
    with sqlite3.connect(tmp_path / "s.db") as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == VERSION == 3
