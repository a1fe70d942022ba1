"""A league's points (schema 11) on SQLite and PostgreSQL: a round is kept once; the week's
table and all time's are sums over the kept rounds; a deleted player leaves them."""

from __future__ import annotations

import pytest

from scorpion.race.league import round_points, standings
from scorpion.store import Store

pytestmark = pytest.mark.backends

T0 = 1_796_000_000.0  # 2026-W49


def ranking(*order: str) -> list[dict[str, object]]:
    return [
        {"player": p, "name": p.upper(), "rank": i + 1, "status": "won"}
        for i, p in enumerate(order)
    ]


async def test_a_league_round_counts_once_in_its_week_and_for_all_time(store: Store) -> None:
    for p in ("a", "b", "c"):
        await store.create_player(p, f"t{p}".encode(), p.upper())
    assert await store.league_round("lg", 1, "2026-W49", round_points(ranking("a", "b", "c")), T0)
    # The same round again (a replayed log, a retried write): nothing changes.
    assert not await store.league_round(
        "lg", 1, "2026-W49", round_points(ranking("c", "b", "a")), T0
    )
    assert await store.league_round(
        "lg", 2, "2026-W50", round_points(ranking("b", "a")), T0 + 7 * 86400
    )
    assert await store.league_round("other", 1, "2026-W49", round_points(ranking("c", "a")), T0)
    week = standings(await store.league_table("lg", "2026-W49"))
    assert [(r["rank"], r["player"], r["points"], r["rounds"], r["wins"]) for r in week] == [
        (1, "a", 10, 1, 1),
        (2, "b", 7, 1, 0),
        (3, "c", 5, 1, 0),
    ]
    ever = standings(await store.league_table("lg", None))
    assert [(r["rank"], r["player"], r["points"], r["rounds"], r["wins"]) for r in ever] == [
        (1, "a", 17, 2, 1),  # 17 each: one win each, then by name
        (1, "b", 17, 2, 1),
        (3, "c", 5, 1, 0),
    ]
    assert await store.league_table("lg", "2026-W51") == []
    assert await store.league_table("nobody", None) == []
    assert await store.delete_player("c")  # a deleted player leaves the tables
    assert [r["player"] for r in standings(await store.league_table("lg", None))] == ["a", "b"]
