"""A league's points per round (race/league.py), for fair play: no point for a forfeit
(leaving, or ending without a move), and no round scored without two racers who raced."""

from __future__ import annotations

from scorpion.race.league import round_points


def entry(player: str, rank: int, status: str = "playing", moves: int = 10) -> dict[str, object]:
    return {"player": player, "name": player.upper(), "rank": rank, "status": status,
            "moves": moves}  # fmt: skip


def points(ranking: list[dict[str, object]]) -> dict[str, tuple[int, int]]:
    return {p["player"]: (p["place"], p["points"]) for p in round_points(ranking)}


def test_places_and_points_by_rank_with_ties() -> None:
    ranking = [entry("a", 1, "won"), entry("b", 1, "won"), entry("c", 3), entry("d", 4, "gave-up")]
    assert points(ranking) == {"a": (1, 10), "b": (1, 10), "c": (2, 7), "d": (3, 5)}


def test_a_racer_who_left_scores_nothing_and_places_last() -> None:
    ranking = [entry("a", 1, "left"), entry("b", 2, "won"), entry("c", 3)]  # ahead, then left
    assert points(ranking) == {"a": (3, 0), "b": (1, 10), "c": (2, 7)}


def test_ending_without_a_move_is_a_forfeit() -> None:
    ranking = [entry("a", 1, "won"), entry("b", 2), entry("idle", 3, "gave-up", moves=0)]
    assert points(ranking)["idle"] == (3, 0)


def test_a_round_without_two_racers_who_raced_scores_for_nobody() -> None:
    assert round_points([entry("alone", 1, "won")]) == []  # racing alone in the league room
    # A second account that leaves (or gives up at once) gives its owner no win.
    assert round_points([entry("a", 1, "won"), entry("a2", 2, "left")]) == []
    assert round_points([entry("a", 1, "won"), entry("a2", 2, "gave-up", moves=0)]) == []
