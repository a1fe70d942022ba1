"""The store's devices, codes and reports (schema 4), the players linked by a shared device
(schema 5), on SQLite and on PostgreSQL; a database of every older schema version is
migrated to the current one."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from scorpion.store import (
    LINK_ROUNDS,
    MAX_LINKED,
    DuplicateError,
    SaveAnalysis,
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
    assert (await store.player_by_token(b"t1")).id == "p1"  # type: ignore[union-attr]


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


async def test_tokens_are_listed_and_signed_out(store: Store) -> None:
    """Each token (device) says how it was made; a revoked one finds nobody, the first
    token included; another player's token is not revoked by this one."""
    await store.create_player("p2", b"u1", "Bo", agent="Firefox on Linux")
    await store.add_device_code(b"c1", "p1", expires=1e12)
    await store.claim_device_code(b"c1", b"t2", now=0.0, agent="Safari on iPhone")
    await store.set_recovery_code("p1", b"r1")
    await store.recover_player(b"r1", b"t3", agent="Chrome on Android")
    tokens = await store.device_tokens("p1")
    assert [(t.token_hash, t.how, t.agent) for t in tokens] == [
        (b"t1", "new-player", ""),
        (b"t2", "device-code", "Safari on iPhone"),
        (b"t3", "recovery-code", "Chrome on Android"),
    ]
    assert all(t.created <= (t.last_seen or 0) for t in tokens)
    await store.touch_token(b"t2", 5e9)
    assert [t.last_seen for t in await store.device_tokens("p1")][1] == 5e9
    assert await store.revoke_tokens("p1", [b"t1", b"u1", b"nope"]) == [b"t1"]
    assert await store.player_by_token(b"t1") is None
    assert await store.player_by_device_token(b"t1") is None
    assert (await store.player_by_token(b"u1")).id == "p2"  # type: ignore[union-attr]
    assert [t.token_hash for t in await store.device_tokens("p1")] == [b"t2", b"t3"]


async def test_a_new_recovery_code_revokes_the_tokens_the_old_one_gave(store: Store) -> None:
    await store.set_recovery_code("p1", b"r1")
    await store.recover_player(b"r1", b"t2")  # a leaked code used elsewhere
    await store.add_device_code(b"c1", "p1", expires=1e12)
    await store.claim_device_code(b"c1", b"t3", now=0.0)
    assert await store.set_recovery_code("p1", b"r2") == [b"t2"]
    assert await store.player_by_device_token(b"t2") is None
    assert (await store.player_by_device_token(b"t3")).id == "p1"  # type: ignore[union-attr]
    assert (await store.player_by_token(b"t1")).id == "p1"  # type: ignore[union-attr]


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


async def test_players_sharing_a_device_are_linked_transitively(store: Store) -> None:
    for player in ("p2", "p3", "p4", "p5"):
        await store.create_player(player, f"t{player}".encode(), player)
    assert await store.linked_players("p1") == frozenset()  # no device id: unlinked
    # p1 and p2 made on device d1; p2 claimed on device d2 where p3 was made: one group.
    await store.add_player_device("p1", b"d1")
    await store.add_player_device("p2", b"d1")
    await store.add_player_device("p2", b"d1")  # seen again: kept once
    await store.add_player_device("p3", b"d2")
    assert await store.linked_players("p1") == {"p2"}
    await store.add_player_device("p2", b"d2")
    assert await store.linked_players("p1") == {"p2", "p3"}
    assert await store.linked_players("p3") == {"p1", "p2"}
    await store.add_player_device("p4", b"d3")  # a device of its own
    await store.add_player_device("p5", b"d9")
    assert await store.linked_players("p4") == frozenset()
    assert await store.linked_players("nobody") == frozenset()
    await store.add_player_device("nobody", b"d1")  # an unknown player: nothing kept
    assert await store.linked_players("p1") == {"p2", "p3"}
    # Deleting a player takes their devices along: p2 was the only bridge.
    assert await store.delete_player("p2")
    assert await store.linked_players("p1") == frozenset()
    assert await store.linked_players("p3") == frozenset()


async def test_a_linked_group_is_read_within_its_bounds(store: Store) -> None:
    """A chain p1 - c1 - c2 - ... (each pair sharing a device) is followed LINK_ROUNDS
    devices away; a crowd on one device gives at most MAX_LINKED players."""
    chain = [f"c{i}" for i in range(1, LINK_ROUNDS + 3)]
    previous = "p1"
    for i, player in enumerate(chain):
        await store.create_player(player, player.encode(), player)
        await store.add_player_device(previous, f"chain{i}".encode())
        await store.add_player_device(player, f"chain{i}".encode())
        previous = player
    assert await store.linked_players("p1") == set(chain[:LINK_ROUNDS])
    crowd = [f"k{i:03}" for i in range(MAX_LINKED + 5)]
    for player in crowd:
        await store.create_player(player, player.encode(), player)
        await store.add_player_device(player, b"library")
    linked = await store.linked_players(crowd[0])
    assert len(linked) == MAX_LINKED and linked < set(crowd)


async def test_a_days_entries_mark_players_younger_than_a_day_at_the_start(store: Store) -> None:
    """A day whose log is gone is ranked from the games: the new-player mark comes from
    the player's creation and the game's start."""
    await store.create_player("p2", b"t2", "Bo")
    created = {p: (await store.player(p)).created for p in ("p1", "p2")}  # type: ignore[union-attr]
    day = "2026-11-29"
    games = [
        SavedGame("g1", "p1", "classic", 7, created["p1"] + 2 * 86_400, daily=day, ranked=True),
        SavedGame("g2", "p2", "classic", 7, created["p2"] + 600, daily=day, ranked=True),
    ]
    await store.write([SaveGame(replace(g, result="lost", finished=g.started + 1)) for g in games])
    entries = await store.daily_entries(day)
    assert {e["player"]: e["new_player"] for e in entries} == {"p1": False, "p2": True}


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
    token = "'x'" if "://" in database else "X'78'"  # bytes b"x" on either
    await script(database, "INSERT INTO players (id, token_hash, name, created) "
                           f"VALUES ('p1', {token}, 'Old', 1)")  # fmt: skip
    if version >= 9:  # from version 9 on, a new player's token is listed among its devices
        await script(database, "INSERT INTO device_tokens (token_hash, player_id, created, how) "
                               f"VALUES ({token}, 'p1', 1, 'new-player')")  # fmt: skip


async def schema_version(database: str) -> int:
    if "://" in database:
        return int((await query(database, "SELECT value FROM meta WHERE key = 'schema'"))[0][0])
    return int((await query(database, "PRAGMA user_version"))[0][0])


@pytest.mark.parametrize("version", range(1, schema.VERSION))
async def test_every_older_schema_is_migrated(database: str, version: int) -> None:
    assert schema.VERSION == postgres_schema.VERSION == 11
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
        await store.create_player("p2", b"t3", "New")  # version 5's links
        await store.add_player_device("p1", b"d1")
        await store.add_player_device("p2", b"d1")
        assert await store.linked_players("p2") == {"p1"}
        with pytest.raises(DuplicateError):  # version 3's one ranked daily game a day
            await store.write([SaveGame(replace(ranked, id="g2"))])
        helped = SavedGame("g3", "p1", "classic", 7, 2.0, hints=1, autos=2)  # version 6's
        await store.write([SaveGame(helped)])
        assert await store.game("g3") == helped
        raced = SavedGame("r:1:p1", "p1", "classic", 7, 3.0, room_id="r")
        await store.write([SaveGame(raced)])
        assert await store.round_games("r", 1) == [raced]  # version 7's index serves it
        await store.write([SaveAnalysis("g3", {"outcome": "won"}, 3.0)])  # version 8's
        assert await store.analysis("g3") == {"outcome": "won"}
        # version 9's: the first token is listed (and revoked) like the others
        tokens = await store.device_tokens("p1")
        assert [(t.how, t.last_seen is None) for t in tokens] == [
            ("new-player", True),  # made before: never seen since
            ("device-code", False),
        ]
        assert await store.revoke_tokens("p1", [tokens[0].token_hash]) == [tokens[0].token_hash]
        assert await store.player_by_token(tokens[0].token_hash) is None
    finally:
        await store.close()
    assert await schema_version(database) == schema.VERSION
