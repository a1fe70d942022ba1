"""Tokens: players found by token hash, cached, forgotten when deleted; names refused."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from scorpion.store import Account
from scorpion.web.auth import TOUCH_SECONDS, BadName, Tokens, clean_name, token_hash


class CountingStore:
    def __init__(self, players: dict[bytes, Account]) -> None:
        self.players = players
        self.lookups = 0
        self.touched: list[tuple[bytes, float]] = []
        self.during_lookup: Callable[[], None] = lambda: None

    async def player_by_token(self, key: bytes) -> Account | None:
        self.lookups += 1
        self.during_lookup()
        return self.players.get(key)

    async def touch_token(self, key: bytes, now: float) -> None:
        self.touched.append((key, now))

    async def player_by_device_token(self, key: bytes) -> Account | None:
        return None  # no other devices here (tests/web/test_devices.py has them)


async def test_a_known_token_is_read_from_the_store_once() -> None:
    ann = Account("p1", "Ann", 0.0)
    store = CountingStore({token_hash("t1"): ann})
    tokens = Tokens(store, size=1)  # type: ignore[arg-type]
    assert await tokens.player("t1") == ann and await tokens.player("t1") == ann
    assert store.lookups == 1
    assert await tokens.player("nope") is None and await tokens.player("") is None
    tokens.remember("t2", Account("p2", "Bo", 0.0))  # the cache holds one: t1 goes
    assert await tokens.player("t1") == ann and store.lookups == 3
    tokens.forget_player("p1")
    store.players.clear()  # deleted from the store too
    assert await tokens.player("t1") is None


async def test_a_cached_token_is_checked_again_after_the_bound() -> None:
    """A sign-out whose message never came (Redis away) is seen within ``recheck``; last
    use is written when first read, then at most every TOUCH_SECONDS."""
    ann = Account("p1", "Ann", 0.0)
    store = CountingStore({token_hash("t1"): ann})
    now = [100.0]
    tokens = Tokens(store, recheck=30.0, clock=lambda: now[0])  # type: ignore[arg-type]
    assert await tokens.player("t1") == ann and len(store.touched) == 1
    now[0] += 29.0
    assert await tokens.player("t1") == ann and store.lookups == 1  # from memory
    now[0] += 2.0
    assert await tokens.player("t1") == ann and store.lookups == 2  # from the store again
    assert len(store.touched) == 1  # not yet due
    now[0] += TOUCH_SECONDS
    assert await tokens.player("t1") == ann and len(store.touched) == 2
    del store.players[token_hash("t1")]  # signed out by another process
    now[0] += 31.0
    assert await tokens.player("t1") is None


async def test_a_lookup_under_way_when_the_player_is_forgotten_is_not_kept() -> None:
    ann = Account("p1", "Ann", 0.0)
    store = CountingStore({token_hash("t1"): ann})
    tokens = Tokens(store)  # type: ignore[arg-type]
    store.during_lookup = lambda: tokens.forget_player("p1")  # a sign-out meanwhile
    assert await tokens.player("t1") == ann
    store.during_lookup = lambda: None
    assert await tokens.player("t1") == ann and store.lookups == 2  # read again, not cached


@pytest.mark.parametrize("name", ["\u200b", "a\x00b", " ", "x" * 25, "\u202eevil"])
def test_names_that_would_disguise_a_player_are_refused(name: str) -> None:
    with pytest.raises(BadName):
        clean_name(name)


@pytest.mark.parametrize(
    "name",
    [
        "A\u200bda",  # zero-width space
        "Ada\u2060",  # word joiner
        "A\u00adda",  # soft hyphen
        "Ada\U000e0041",  # a tag character
        "\u061cAda",  # Arabic letter mark
        "Ada\u3164",  # Hangul filler
        "A\u115fda",
        "Ada\uffa0",
        "A\u200dda",  # a joiner between letters joins nothing
        "Ada\ufe0f",  # a variation selector after a letter
    ],
)
def test_invisible_and_format_characters_are_refused(name: str) -> None:
    with pytest.raises(BadName, match="invisible or format characters"):
        clean_name(name)


@pytest.mark.parametrize(
    "name",
    [
        "Ada \U0001f469\u200d\U0001f4bb",  # woman technologist: a joiner
        "\u2764\ufe0f\u200d\U0001f525",  # heart on fire: a variation selector and a joiner
        "\U0001f469\U0001f3fd\u200d\U0001f4bb",  # with a skin tone
        "\U0001f3f4\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f",  # England
        "Bo 1\ufe0f\u20e3",  # keycap one
    ],
)
def test_emoji_sequences_keep_their_joiners(name: str) -> None:
    assert clean_name(name) == name
