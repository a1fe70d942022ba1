"""HTTP: quick races' ratings (docs/http-api.md, "Ratings"): a rule set's leaderboard and a
player's ratings with their history (the history page's chart)."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from scorpion.engine.rules import PRESETS
from scorpion.race.rating import BOARD_RACES, PROVISIONAL_RACES, shown

from .http_common import api, services
from .http_rooms import count_param
from .responses import ApiError, ok

BOARD_ROWS, MAX_BOARD_ROWS = 50, 100


def rating_row(row: dict[str, Any]) -> dict[str, Any]:
    races = int(row["races"])
    return {
        "rating": shown(row["mu"], row["sigma"]),
        "races": races,
        "provisional": races < PROVISIONAL_RACES,
    }


@api
async def rating_board(request: Request) -> Response:
    """GET /api/ratings/{preset}?limit= -> the rule set's rated players (10 races or more)"""
    preset = request.path_params["preset"]
    if preset not in PRESETS:
        raise ApiError(404, "unknown-preset", f"there is no rule set {preset!r}")
    limit = count_param(request, "limit", BOARD_ROWS, MAX_BOARD_ROWS)
    rows = await services(request).store.rating_board(preset, BOARD_RACES, limit)
    board = [
        {"rank": i + 1, "player": r["player"], "name": r["name"], **rating_row(r)}
        for i, r in enumerate(rows)
    ]
    return ok({"preset": preset, "min_races": BOARD_RACES, "rows": board})


@api
async def player_ratings(request: Request) -> Response:
    """GET /api/players/{player_id}/ratings -> their rating per rule set and its history"""
    svc = services(request)
    player_id = request.path_params["player_id"]
    if await svc.store.player(player_id) is None:
        raise ApiError(404, "unknown-player", "no such player")
    ratings = {r["preset"]: rating_row(r) for r in await svc.store.player_ratings(player_id)}
    history = [
        {
            "preset": c["preset"],
            "room": c["room_id"],
            "round": c["round"],
            "place": c["place"],
            "before": shown(c["mu_before"], c["sigma_before"]),
            "after": shown(c["mu_after"], c["sigma_after"]),
            "at": c["created"],
        }
        for c in await svc.store.rating_history(player_id)
    ]
    return ok({"player": player_id, "ratings": ratings, "history": history})
