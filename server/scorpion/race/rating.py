"""Ratings of quick races, per rule set: openskill's Plackett-Luce model (Weng-Lin).

Why openskill and not Glicko-2: a quick race has 2 to 4 racers finishing in an order, and
Plackett-Luce rates one such finish in one update (ties included); Glicko-2 rates pairs
over a rating period, so a 4-player race must be cut into 6 made-up duels rated as if
independent, and its rating periods suit a league more than races rated as they end.

Only clean results move a rating up (no hint, no Auto; quick races allow neither): a
racer who used either loses as the last, as does one who left or gave up (tied with any
other such), so a hint is no way out of a race one is losing.
A rating rises only by racing (fair play: no rating earned by not playing): a racer who
left, gave up or made no move never gains (their rating may only fall), and a racer's
gain counts only the racers who made a move (beating a second account that left, gave
up or sat idle at once earns nothing).
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
>>> [shown(c["mu_after"], c["sigma_after"]) for c in rate_round(  # a tie of give-ups
...     [{"player": "a", "rank": 1, "status": "gave-up", "moves": 3},
...      {"player": "b", "rank": 1, "status": "gave-up", "moves": 0}], {})]
[1000, 1000]
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
    """Each racer's place: the round's ranks among clean results of racers who stayed;
    assisted results, leavers and those who gave up last."""
    stayed = [e for e in ranking if e.get("clean", True) and e.get("status") not in LEFT]
    gone = [e for e in ranking if not e.get("clean", True) or e.get("status") in LEFT]
    out: list[tuple[str, int]] = []
    ranks = sorted({int(e["rank"]) for e in stayed})  # type: ignore[call-overload]
    for entry in stayed:
        out.append((str(entry["player"]), ranks.index(int(entry["rank"])) + 1))  # type: ignore[call-overload]
    last = len(ranks) + 1
    out.extend((str(e["player"]), last) for e in gone)
    return out


def moved(entry: Mapping[str, object]) -> bool:
    """Whether the racer made a move (an entry without the count is taken as racing)."""
    moves: int = int(entry.get("moves", 1))  # type: ignore[call-overload]
    return moves > 0


def rate_places(
    placed: Sequence[tuple[str, int]],
    before: Mapping[str, tuple[float, float]],
    model: PlackettLuce,
) -> dict[str, tuple[float, float]]:
    """openskill's update of the racers at ``placed`` (places re-counted from 1)."""
    ranks = sorted({place for _, place in placed})
    teams = [[model.rating(mu=before[pid][0], sigma=before[pid][1], name=pid)] for pid, _ in placed]
    rated = model.rate(teams, ranks=[float(ranks.index(place) + 1) for _, place in placed])
    return {pid: (team[0].mu, team[0].sigma) for (pid, _), team in zip(placed, rated, strict=True)}


def rate_round(
    ranking: Sequence[Mapping[str, object]],
    current: Mapping[str, Mapping[str, Any]],
    model: PlackettLuce = MODEL,
) -> list[dict[str, Any]]:
    """Each rated racer's change for a round's ``ranking`` (the results' entries), given
    their ``current`` ratings ({"mu", "sigma"}; absent: new). Empty with fewer than two.

    Everyone is rated against everyone; a racer who made a move is rated against the
    others who did (a gain never counts a racer who did not race), and one who left, gave
    up, used help or made no move keeps their rating where the update would raise it."""
    placed = places(ranking)
    if len(placed) < 2:
        return []
    entries = {str(e["player"]): e for e in ranking}
    before = {
        pid: (
            float(current[pid]["mu"]) if pid in current else model.mu,
            float(current[pid]["sigma"]) if pid in current else model.sigma,
        )
        for pid, _ in placed
    }
    everyone = rate_places(placed, before, model)
    racing = [(pid, place) for pid, place in placed if moved(entries[pid])]
    among = rate_places(racing, before, model) if len(racing) >= 2 else {}
    changes: list[dict[str, Any]] = []
    for pid, place in placed:
        entry = entries[pid]
        stayed = moved(entry) and entry.get("status") not in LEFT and entry.get("clean", True)
        after = among.get(pid, before[pid]) if moved(entry) else everyone[pid]
        if not stayed and shown(*after) > shown(*before[pid]):
            after = before[pid]  # leaving, giving up or not racing never raises a rating
        changes.append(
            {
                "player": pid,
                "place": place,
                "mu_before": before[pid][0],
                "sigma_before": before[pid][1],
                "mu_after": after[0],
                "sigma_after": after[1],
            }
        )
    return changes


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
