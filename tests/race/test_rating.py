"""Quick races' ratings (race/rating.py) against openskill's own figures: a duel of two new
players worked out by hand from the Weng-Lin Plackett-Luce update, and a case of openskill's
own test data (tests/models/data/plackettluce.json, "ties"); then places, leavers and the
shown numbers."""

from __future__ import annotations

import math
from typing import Any

import pytest
from openskill.models import PlackettLuce

from scorpion.race.rating import (
    MODEL,
    PROVISIONAL_RACES,
    change_public,
    places,
    rate_round,
    shown,
)


def entry(
    player: str, rank: int, status: str = "playing", clean: bool = True, moves: int = 10
) -> dict[str, object]:
    return {"player": player, "rank": rank, "status": status, "clean": clean, "moves": moves}


def test_a_duel_of_new_players_by_hand() -> None:
    # Weng-Lin Algorithm 4 (Plackett-Luce) with openskill's defaults: sigma grows by tau
    # first; c^2 = sum(sigma^2 + beta^2); equal ratings give p = 1/2.
    sigma2 = (25 / 3) ** 2 + (25 / 300) ** 2
    c = math.sqrt(2 * (sigma2 + (25 / 6) ** 2))
    omega = sigma2 / c * 0.5
    delta = (math.sqrt(sigma2) / c) * sigma2 / c**2 * 0.25
    winner, loser = rate_round([entry("a", 1, "won"), entry("b", 2)], {})
    assert winner["mu_after"] == pytest.approx(25 + omega, abs=1e-9)  # 27.6354
    assert loser["mu_after"] == pytest.approx(25 - omega, abs=1e-9)  # 22.3646
    for change in (winner, loser):
        assert change["sigma_after"] == pytest.approx(math.sqrt(sigma2 * (1 - delta)), abs=1e-9)
        assert (change["mu_before"], change["sigma_before"]) == (25.0, 25 / 3)
    assert round(winner["mu_after"], 4) == 27.6354 and round(winner["sigma_after"], 4) == 8.0659


def test_openskill_reproduces_its_own_test_data() -> None:
    # openskill.py's tests/models/data/plackettluce.json, case "ties": the model this server
    # rates with gives the library's published figures (a changed library would show here).
    model = PlackettLuce(mu=31.321989232514305, sigma=11.379964801443018)
    r = model.rating
    teams = model.rate([[r()], [r(), r()], [r(), r(), r()]], ranks=[1, 2, 1])
    assert teams[0][0].mu == pytest.approx(33.21874815457553, rel=1e-4)
    assert teams[0][0].sigma == pytest.approx(11.354896725884002, rel=1e-4)
    assert teams[1][0].mu == pytest.approx(30.27713112192334, rel=1e-4)
    assert teams[2][0].sigma == pytest.approx(11.249240904583088, rel=1e-4)
    assert (MODEL.mu, MODEL.sigma, MODEL.beta) == (25.0, 25 / 3, 25 / 6)


def test_four_racers_are_rated_as_openskill_rates_their_places() -> None:
    current = {"b": {"mu": 30.0, "sigma": 5.0, "races": 7}}
    ranking = [entry("a", 1, "won"), entry("b", 2), entry("c", 2), entry("d", 4)]
    changes = rate_round(ranking, current)
    r = MODEL.rating
    expected = MODEL.rate([[r()], [r(mu=30.0, sigma=5.0)], [r()], [r()]], ranks=[1, 2, 2, 3])
    for change, team in zip(changes, expected, strict=True):
        assert change["mu_after"] == pytest.approx(team[0].mu)
        assert change["sigma_after"] == pytest.approx(team[0].sigma)
    assert [c["place"] for c in changes] == [1, 2, 2, 3]


def test_a_leaver_and_an_assisted_result_lose_as_the_last() -> None:
    ranking = [
        entry("quit", 1, "gave-up"),  # ahead on cards when they gave up: still last
        entry("a", 2, "won"),
        entry("helped", 3, clean=False),
        entry("b", 4),
        entry("gone", 5, "left"),
    ]
    assert places(ranking) == [("a", 1), ("b", 2), ("quit", 3), ("helped", 3), ("gone", 3)]
    changes = {c["player"]: c for c in rate_round(ranking, {})}
    assert changes["quit"]["mu_after"] == changes["gone"]["mu_after"] < 25.0
    assert changes["helped"]["mu_after"] == changes["gone"]["mu_after"]


def test_a_hint_is_no_way_out_of_a_losing_race() -> None:
    # Behind, Bo asks for a hint: left out of the rating, he would lose nothing.
    ranking = [entry("a", 1, "won"), entry("b", 2, clean=False)]
    changes = rated(rate_round(ranking, {}))
    assert changes["b"] < 1000 < changes["a"]
    ahead = rated(rate_round([entry("b", 1, "won", clean=False), entry("a", 2)], {}))
    assert ahead["b"] < 1000 < ahead["a"]  # assisted ranks after clean: never a gain


def test_nothing_to_rate_alone() -> None:
    assert rate_round([entry("a", 1, "won")], {}) == []


def test_what_the_results_show() -> None:
    change = {"player": "a", "mu_before": 25.0, "sigma_before": 25 / 3,
              "mu_after": 27.6354, "sigma_after": 8.0659, "races": 1}  # fmt: skip
    public = change_public(change)
    assert public == {
        "player": "a", "before": 1000, "after": shown(27.6354, 8.0659),
        "change": shown(27.6354, 8.0659) - 1000, "races": 1, "provisional": True,
    }  # fmt: skip
    assert public["change"] > 0
    assert change_public({**change, "races": PROVISIONAL_RACES})["provisional"] is False


# ---------------------------------------------------------------- fair play: only racing rates
def rated(changes: list[dict[str, Any]]) -> dict[str, int]:
    return {c["player"]: shown(c["mu_after"], c["sigma_after"]) for c in changes}


def test_two_accounts_giving_up_together_never_raise_their_ratings() -> None:
    # A tie makes openskill surer (sigma falls), which raises the shown number: two
    # accounts giving up at once, 30 times over, reached 1505 each without playing.
    current: dict[str, dict[str, float]] = {}
    for _ in range(30):
        changes = rate_round(
            [entry("a", 1, "gave-up", moves=0), entry("b", 1, "left", moves=2)], current
        )
        current = {c["player"]: {"mu": c["mu_after"], "sigma": c["sigma_after"]} for c in changes}
    assert rated(changes) == {"a": 1000, "b": 1000}


def test_beating_a_second_account_that_left_at_once_earns_nothing() -> None:
    changes = rate_round([entry("a", 1, "playing", moves=0), entry("b", 2, "left", moves=0)], {})
    assert rated(changes)["a"] == 1000  # sat idle and "won": no gain
    changes = rate_round([entry("a", 1, "won", moves=90), entry("b", 2, "left", moves=0)], {})
    assert rated(changes)["a"] == 1000  # played, but against nobody who raced
    assert rated(changes)["b"] < 1000  # the leaver still loses as the last


def test_a_gain_counts_only_the_racers_who_made_a_move() -> None:
    ranking = [entry("a", 1, "won"), entry("b", 2), entry("idle", 3, moves=0)]
    changes = {c["player"]: c for c in rate_round(ranking, {})}
    duel = {c["player"]: c for c in rate_round(ranking[:2], {})}
    for pid in ("a", "b"):
        assert changes[pid]["mu_after"] == pytest.approx(duel[pid]["mu_after"])
        assert changes[pid]["sigma_after"] == pytest.approx(duel[pid]["sigma_after"])
    assert shown(changes["idle"]["mu_after"], changes["idle"]["sigma_after"]) < 1000
