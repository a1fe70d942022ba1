"""Ratings of quick races, per rule set: openskill's Plackett-Luce model (Weng-Lin).

Why openskill and not Glicko-2: a quick race has 2 to 4 racers finishing in an order, and
Plackett-Luce rates one such finish in one update (ties included); Glicko-2 rates pairs
over a rating period, so a 4-player race must be cut into 6 made-up duels rated as if
independent, and its rating periods suit a league more than races rated as they end.

Only clean results move a rating (no hint, no Auto; quick races allow neither, so this
is a guard); a racer who left or gave up loses as the last (tied with any other such).
A player is provisional for their first :data:`PROVISIONAL_RACES` rated races of a rule
set; the leaderboard lists players with at least :data:`BOARD_RACES`.

Shown as ``1000 + 40 * (mu - 3 * sigma)`` (1000 for a new player): a conservative
estimate that rises as the rating gets surer, the one leaderboards sort by.

>>> [c["place"] for c in rate_round(
...     [{"player": "a", "rank": 1, "status": "won", "clean": True},
...      {"player": "b", "rank": 2, "status": "playing", "clean": True},
...      {"player": "c", "rank": 3, "status": "left", "clean": True}], {})]
[1, 2, 3]
>>> shown(25.0, 25.0 / 3)
1000
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from openskill.models import PlackettLuce

MODEL: Final = PlackettLuce()  # mu 25, sigma 25/3, beta 25/6, tau 25/300 (its defaults)
PROVISIONAL_RACES: Final = 5
BOARD_RACES: Final = 10
LEFT: Final = frozenset({"left", "gave-up"})  # a racer who stopped racing: last


def shown(mu: float, sigma: float) -> int:
    """The rating players see."""
    return round(1000 + 40 * (mu - 3 * sigma))


def places(ranking: Sequence[Mapping[str, object]]) -> list[tuple[str, int]]:
    """Each rated racer's place: the round's ranks among clean results, leavers last."""
    clean = [e for e in ranking if e.get("clean", True)]
    stayed = [e for e in clean if e.get("status") not in LEFT]
    gone = [e for e in clean if e.get("status") in LEFT]
    out: list[tuple[str, int]] = []
    ranks = sorted({int(e["rank"]) for e in stayed})  # type: ignore[call-overload]
    for entry in stayed:
        out.append((str(entry["player"]), ranks.index(int(entry["rank"])) + 1))  # type: ignore[call-overload]
    last = len(ranks) + 1
    out.extend((str(e["player"]), last) for e in gone)
    return out


def rate_round(
    ranking: Sequence[Mapping[str, object]],
    current: Mapping[str, Mapping[str, Any]],
    model: PlackettLuce = MODEL,
) -> list[dict[str, Any]]:
    """Each rated racer's change for a round's ``ranking`` (the results' entries), given
    their ``current`` ratings ({"mu", "sigma"}; absent: new). Empty with fewer than two."""
    placed = places(ranking)
    if len(placed) < 2:
        return []
    before = {
        pid: (
            float(current[pid]["mu"]) if pid in current else model.mu,
            float(current[pid]["sigma"]) if pid in current else model.sigma,
        )
        for pid, _ in placed
    }
    teams = [[model.rating(mu=before[pid][0], sigma=before[pid][1], name=pid)] for pid, _ in placed]
    rated = model.rate(teams, ranks=[float(place) for _, place in placed])
    return [
        {
            "player": pid,
            "place": place,
            "mu_before": before[pid][0],
            "sigma_before": before[pid][1],
            "mu_after": team[0].mu,
            "sigma_after": team[0].sigma,
        }
        for (pid, place), team in zip(placed, rated, strict=True)
    ]


def change_public(change: Mapping[str, Any]) -> dict[str, object]:
    """What the results show of one racer's change: ratings before and after, the
    difference, and whether the player is still provisional."""
    before = shown(change["mu_before"], change["sigma_before"])
    after = shown(change["mu_after"], change["sigma_after"])
    races = int(change.get("races", 1))
    return {
        "player": change["player"],
        "before": before,
        "after": after,
        "change": after - before,
        "races": races,
        "provisional": races < PROVISIONAL_RACES,
    }
