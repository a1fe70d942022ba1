"""The store's devices, codes and reports (schema 4), on SQLite and on PostgreSQL; a
database of every older schema version is migrated to the current one."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from scorpion.store import (
    DuplicateError,
    SavedGame,
    SaveGame,
    SaveReport,
    Store,
    open_store,
    postgres_schema,
    schema,
)
from support.sql import query, script

pytestmark = pytest.mark.backends


@pytest.fixture
async def store(store: Store) -> Store:
    """The store (tests/store/conftest.py) with player p1, whose first token is t1."""
    await store.create_player("p1", b"t1", "Ada")
    return store


async def test_a_device_code_works_once_before_it_expires(store: Store) -> None:
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


async def test_a_recovery_code_is_replaced_and_tokens_go_with_the_player(store: Store) -> None:
    await store.set_recovery_code("p1", b"r1")
    assert (await store.recover_player(b"r1", b"t2")).id == "p1"  # type: ignore[union-attr]
    await store.set_recovery_code("p1", b"r2")
    assert await store.recover_player(b"r1", b"t3") is None
    assert (await store.recover_player(b"r2", b"t3")).id == "p1"  # type: ignore[union-attr]
    with pytest.raises(DuplicateError):  # a token belongs to one device
        await store.recover_player(b"r2", b"t3")
    await store.add_device_code(b"c1", "p1", expires=1e12)
    assert await store.delete_player("p1")
    for token in (b"t2", b"t3"):
        assert await store.player_by_device_token(token) is None
    assert await store.recover_player(b"r2", b"t4") is None
    assert await store.claim_device_code(b"c1", b"t5", now=0.0) is None


async def test_reports_are_kept_newest_first_after_the_players_are_gone(store: Store) -> None:
    await store.write([SaveReport("r", "p1", "Ada", "p2", "", 1.0)])
    await store.write([SaveReport("r", "p1", "Ada", "p3", "rude", 2.0)])
    await store.delete_player("p1")
    reports = await store.name_reports()
    assert [(r["reporter_id"], r["reason"], r["name"], r["created"]) for r in reports] == [
        ("p3", "rude", "Ada", 2.0),
        ("p2", "", "Ada", 1.0),
    ]
    assert len(await store.name_reports(limit=1)) == 1


async def old_database(database: str, version: int) -> None:
    """Make ``database`` a database of schema ``version``, as that version's server left it."""
    if "://" in database:
        steps = [postgres_schema.META, *map(postgres_schema.MIGRATIONS.get, range(1, version + 1))]
        steps.append(f"INSERT INTO meta (key, value) VALUES ('schema', '{version}')")
    else:
        Path(database).parent.mkdir(parents=True, exist_ok=True)
        steps = [*map(schema.MIGRATIONS.get, range(1, version + 1))]
        steps.append(f"PRAGMA user_version={version}")
    await script(database, ";\n".join(map(str, steps)))
    await script(database, "INSERT INTO players (id, token_hash, name, created) "
                           "VALUES ('p1', 'x', 'Old', 1)")  # fmt: skip


async def schema_version(database: str) -> int:
    if "://" in database:
        return int((await query(database, "SELECT value FROM meta WHERE key = 'schema'"))[0][0])
    return int((await query(database, "PRAGMA user_version"))[0][0])


@pytest.mark.parametrize("version", range(1, schema.VERSION))
async def test_every_older_schema_is_migrated(database: str, version: int) -> None:
    assert schema.VERSION == postgres_schema.VERSION == 6
    await old_database(database, version)
    store = open_store(database)
    await store.open()
    try:
        assert (await store.player("p1")).name == "Old"  # type: ignore[union-attr]
        await store.add_device_code(b"c1", "p1", expires=1e12)  # version 4's tables
        moved = await store.claim_device_code(b"c1", b"t2", now=0.0)
        assert moved is not None and moved.id == "p1"
        ranked = SavedGame("g1", "p1", "classic", 7, 1.0, daily="2026-11-29", ranked=True)
        await store.write([SaveGame(ranked)])
        with pytest.raises(DuplicateError):  # version 3's one ranked daily game a day
            await store.write([SaveGame(replace(ranked, id="g2"))])
        helped = SavedGame("g3", "p1", "classic", 7, 2.0, hints=1, autos=2)  # version 5's
        await store.write([SaveGame(helped)])
        assert await store.game("g3") == helped
        raced = SavedGame("r:1:p1", "p1", "classic", 7, 3.0, room_id="r")
        await store.write([SaveGame(raced)])
        assert await store.round_games("r", 1) == [raced]  # version 6's index serves it
    finally:
        await store.close()
    assert await schema_version(database) == schema.VERSION
