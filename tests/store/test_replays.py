"""The games of one round, read back for its replay, and a player's games without their
actions, for a history; on both backends."""

from __future__ import annotations

import pytest

from scorpion.store import Reveal, SavedGame, SaveGame, Store

pytestmark = pytest.mark.backends


def raced(room: str, round_: int, player: str, started: float, **kw: object) -> SavedGame:
    return SavedGame(
        id=f"{room}:{round_}:{player}", player_id=player, preset="classic", deal=7,
        started=started, room_id=room, **kw,  # type: ignore[arg-type]
    )  # fmt: skip


async def test_a_rounds_games_and_only_those(store: Store) -> None:
    for pid in ("a", "b", "c"):
        await store.create_player(pid, pid.encode(), pid.upper())
    ada = raced("room1", 1, "a", 10.0, result="won", elapsed=42.5,
                actions=[("deal", 1.5), ("5C>3", 2.0)])  # fmt: skip
    bo = raced("room1", 1, "b", 10.0, result="timed-out", elapsed=60.0)
    others = [
        raced("room1", 2, "a", 20.0),  # the next round
        raced("room1", 11, "c", 30.0),  # round 11 starts with "1" too
        raced("room10", 1, "c", 10.0),  # a room whose id starts with "room1"
        SavedGame("daily:2026-11-30:1:a", "a", "classic", 7, 5.0, daily="2026-11-30"),
    ]
    await store.write([SaveGame(g) for g in (bo, ada, *others)])
    await store.write([Reveal((ada.id, bo.id))])
    games = await store.round_games("room1", 1)
    assert [g.id for g in games] == ["room1:1:a", "room1:1:b"]  # by start, then id
    assert games[0].actions == [("deal", 1.5), ("5C>3", 2.0)] and games[0].revealed
    assert [g.id for g in await store.round_games("room1", 11)] == ["room1:11:c"]
    assert await store.round_games("room1", 3) == []
    assert await store.round_games("nowhere", 1) == []


async def test_a_players_games_in_order_without_their_actions(store: Store) -> None:
    for pid in ("a", "b"):
        await store.create_player(pid, pid.encode(), pid.upper())
    late = raced("room1", 2, "a", 20.0, result="won", elapsed=9.5, actions=[("deal", 1.0)])
    early = raced("room1", 1, "a", 10.0, result="lost", hints=2)
    other = raced("room1", 1, "b", 10.0, result="won")
    await store.write([SaveGame(g) for g in (late, early, other)])
    games = await store.player_summaries("a")
    assert [g.id for g in games] == [early.id, late.id]
    assert games[1].actions == [] and games[1].elapsed == 9.5 and games[0].hints == 2
    assert await store.player_summaries("nobody") == []
