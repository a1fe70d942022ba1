"""A league among friends: a room its host made a standing league keeps points per round.

Each finished round gives every racer points by their place in the round's results
(:data:`POINTS`, docs/rules.md "A league among friends"); a racer who left the room during
the round, or made no move, places last and scores nothing (fair play: no point for a
forfeit), and a round in which fewer than two racers raced scores for nobody (racing alone,
or against a second account that leaves, earns no points). The points are kept per round
(written once: the key is the round) with the ISO week (UTC) the round finished in, so
the league has a table for each week and one for all time, whatever rematches or restarts
happen in between.

>>> [(p["player"], p["place"], p["points"]) for p in round_points(
...     [{"player": "a", "name": "Ada", "rank": 1, "status": "won"},
...      {"player": "b", "name": "Bo", "rank": 1, "status": "left"},
...      {"player": "c", "name": "Cy", "rank": 3, "status": "gave-up"}])]
[('a', 1, 10), ('b', 3, 0), ('c', 2, 7)]
>>> round_points([{"player": "a", "rank": 1, "status": "won", "moves": 80},
...               {"player": "b", "rank": 2, "status": "gave-up", "moves": 0}])
[]
>>> iso_week(1_796_000_000.0)
'2026-W49'
>>> [(r["rank"], r["player"], r["points"]) for r in standings(
...     [{"player": "a", "name": "Ada", "points": 17, "rounds": 2, "wins": 1},
...      {"player": "b", "name": "Bo", "points": 17, "rounds": 2, "wins": 1},
...      {"player": "c", "name": "Cy", "points": 5, "rounds": 1, "wins": 0}])]
[(1, 'a', 17), (1, 'b', 17), (3, 'c', 5)]
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any, Final

# Points by place: 1st 10, 2nd 7, 3rd 5, 4th 4, 5th 3, 6th 2, every later place 1.
POINTS: Final = (10, 7, 5, 4, 3, 2)
LATER: Final = 1
LEFT: Final = frozenset({"left"})  # a racer who left the room during the round: last
WEEK: Final = re.compile(r"^\d{4}-W(0[1-9]|[1-4]\d|5[0-3])$")


def points_for(place: int) -> int:
    """Points for a place (1 is first)."""
    return POINTS[place - 1] if place <= len(POINTS) else LATER


def raced(entry: Mapping[str, object]) -> bool:
    """Whether the racer raced the round: stayed in the room and made a move (an entry
    without the count is taken as racing)."""
    moves = int(entry.get("moves", 1))  # type: ignore[call-overload]
    return entry.get("status") not in LEFT and moves > 0


def round_points(ranking: Sequence[Mapping[str, object]]) -> list[dict[str, Any]]:
    """Each racer's place and points in a round: the results' ranks (ties share a place;
    assisted results already rank after clean ones; giving up is an ordinary end, ranked by
    progress); a racer who left the room during the round or made no move places last
    (tied with any other such) and scores 0. Empty when fewer than two raced."""
    stayed = [e for e in ranking if raced(e)]
    if len(stayed) < 2:
        return []
    ranks = sorted({int(e["rank"]) for e in stayed})  # type: ignore[call-overload]
    places = {str(e["player"]): ranks.index(int(e["rank"])) + 1 for e in stayed}  # type: ignore[call-overload]
    last = len(ranks) + 1
    out: list[dict[str, Any]] = []
    for entry in ranking:
        player = str(entry["player"])
        place = places.get(player, last)
        out.append(
            {
                "player": player,
                "name": str(entry.get("name", "")),
                "place": place,
                "points": points_for(place) if player in places else 0,
            }
        )
    return out


def iso_week(at: float) -> str:
    """The ISO week (UTC) of a server time, as ``YYYY-Www``."""
    year, week, _ = datetime.fromtimestamp(at, UTC).isocalendar()
    return f"{year}-W{week:02d}"


def standings(rows: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """A table from the store's sums per player (``points``, ``rounds``, ``wins``): most
    points first, then most wins; equal on both, equal rank."""
    ordered = sorted(rows, key=lambda r: (-int(r["points"]), -int(r["wins"]), str(r["name"])))
    table: list[dict[str, Any]] = []
    for i, row in enumerate(ordered):
        same = table and (table[-1]["points"], table[-1]["wins"]) == (row["points"], row["wins"])
        rank = table[-1]["rank"] if same else i + 1
        table.append(
            {
                "rank": rank,
                "player": str(row["player"]),
                "name": str(row["name"]),
                "points": int(row["points"]),
                "rounds": int(row["rounds"]),
                "wins": int(row["wins"]),
            }
        )
    return table
