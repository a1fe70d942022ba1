"""Tokens: players found by token hash, cached, forgotten when deleted; names refused."""

from __future__ import annotations

import pytest

from scorpion.store import Player
from scorpion.web.auth import BadName, Tokens, clean_name, token_hash


class CountingStore:
    def __init__(self, players: dict[bytes, Player]) -> None:
        self.players = players
        self.lookups = 0

    async def player_by_token(self, key: bytes) -> Player | None:
        self.lookups += 1
        return self.players.get(key)

    async def player_by_device_token(self, key: bytes) -> Player | None:
        return None  # no other devices here (tests/web/test_devices.py has them)


async def test_a_known_token_is_read_from_the_store_once() -> None:
    ann = Player("p1", "Ann", 0.0)
    store = CountingStore({token_hash("t1"): ann})
    tokens = Tokens(store, size=1)  # type: ignore[arg-type]
    assert await tokens.player("t1") == ann and await tokens.player("t1") == ann
    assert store.lookups == 1
    assert await tokens.player("nope") is None and await tokens.player("") is None
    tokens.remember("t2", Player("p2", "Bo", 0.0))  # the cache holds one: t1 goes
    assert await tokens.player("t1") == ann and store.lookups == 3
    tokens.forget_player("p1")
    store.players.clear()  # deleted from the store too
    assert await tokens.player("t1") is None


@pytest.mark.parametrize("name", ["\u200b", "a\x00b", " ", "x" * 25, "\u202eevil"])
def test_names_that_would_disguise_a_player_are_refused(name: str) -> None:
    with pytest.raises(BadName):
        clean_name(name)
